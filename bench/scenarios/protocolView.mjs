// The protocol view's cost: our stdio client with the view's tap on (every message recorded in a ProtocolLog, which
// pairs each batch 100 ms later; per batch, what an open view does on the extension host: the batch message and the
// rows its webview then asks for, serialised as webview.postMessage serialises them) against the same client, same
// server process, with the tap off (the floor column here), in interleaved rounds; sequential p50 and 64 in flight;
// target <= 1.05x. Then the view's model at scale: recording 100,000 messages, processing them, and filtering
// them by text, all at once and then one new batch alone (absolute ms; the webview draws only the rows in view, so
// its cost does not grow with this).
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { SERVER } from '../lib/clients.mjs';
import { interleave, median, parallel, percentile } from '../lib/stats.mjs';

export const name = 'protocolView';

const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);
const SEQUENTIAL_CALLS = 1500;
const PARALLEL_CALLS = 40_000;
const IN_FLIGHT = 64;
const MESSAGES = 100_000;

async function loadProtocolLog() {
	const outdir = `${root}.bench/`;
	mkdirSync(outdir, { recursive: true });
	await esbuild.build({ entryPoints: [`${root}src/vscode/console/protocolLog.ts`], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: `${outdir}protocolLog.cjs`, logLevel: 'warning' });
	return require(`${outdir}protocolLog.cjs`);
}

/** Rows a protocol view shows at once (a tall editor: ~40 rows of 22 px, plus the 15 it draws around them). */
const VISIBLE_ROWS = 55;

/** What ProtocolPanel does per batch: the batch message, then the rows in view that its webview asks for. */
function postAsTheViewDoes(log) {
	const { first, end } = log.range();
	JSON.stringify({ type: 'batch', first, end });
	const seqs = [];
	for (let seq = Math.max(first, end - VISIBLE_ROWS); seq < end; seq++) seqs.push(seq);
	return JSON.stringify({ type: 'rows', columns: log.columnsOf(seqs) });
}

/**
 * One client and one server for both columns: the tap is switched on for the "ours" rounds and off for the "floor"
 * rounds. (Two clients on two server processes differ by 5% or more with no tap at all, more than the target.)
 */
async function connect(ProtocolLog) {
	const core = require('../../dist/core.js');
	const client = await core.connect({ type: 'stdio', command: process.execPath, args: [SERVER] }, { name: 'bench' });
	// As ProtocolPanel does: record on the tap; per batch, post the seqs kept, then answer the webview's question for
	// the rows it shows (following the newest: the last VISIBLE_ROWS), each serialised as postMessage does (JSON).
	const log = new ProtocolLog();
	log.onDidAdd(() => postAsTheViewDoes(log));
	const tap = (direction, message, text, bytes, start, end) => log.record(direction, message, text, bytes, start, end);
	return {
		callTool: (tool, args) => client.callTool(tool, args),
		/** Runs `measure` with the tap on or off; a round with it on ends with the view's last batch, timed (flushMs). */
		async with(tapped, measure) {
			client.messageTap = tapped ? tap : undefined;
			const result = await measure();
			const start = performance.now();
			if (tapped) log.flush();
			client.messageTap = undefined;
			return { result, flushMs: performance.now() - start };
		},
		close: async () => {
			log.dispose();
			await client.close();
		},
	};
}

async function sequential(client) {
	for (let i = 0; i < 200; i++) await client.callTool('echo', { text: `w${i}` });
	const latencies = [];
	for (let i = 0; i < SEQUENTIAL_CALLS; i++) {
		const start = performance.now();
		await client.callTool('echo', { text: `hello ${i}` });
		latencies.push((performance.now() - start) * 1000);
	}
	return percentile(latencies, 50);
}

export async function run({ rounds }) {
	const { ProtocolLog } = await loadProtocolLog();
	const client = await connect(ProtocolLog);
	let seq;
	let par;
	try {
		for (const tapped of [false, true]) await client.with(tapped, () => parallel(client, 3000, IN_FLIGHT));
		seq = await interleave(rounds, ['floor', 'ours'], async (which) => (await client.with(which === 'ours', () => sequential(client))).result);
		par = await interleave(rounds, ['floor', 'ours'], async (which) => {
			const { result, flushMs } = await client.with(which === 'ours', () => parallel(client, PARALLEL_CALLS, IN_FLIGHT));
			// The round's time includes its last batch.
			return { ...result, rate: PARALLEL_CALLS / (PARALLEL_CALLS / result.rate + flushMs / 1000) };
		});
	} finally {
		await client.close();
	}
	const recordTimes = [];
	const processTimes = [];
	const filterTimes = [];
	const refilterTimes = [];
	const batchFilterTimes = [];
	// Wire texts as the transport hands them to the tap.
	const request = (i) => `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"echo","arguments":{"text":"message ${i}"}}}`;
	const response = (i) => `{"jsonrpc":"2.0","id":${i},"result":{"content":[{"type":"text","text":"Echo: message ${i}"}]}}`;
	// The messages and their texts as the transport hands them to the tap (its own parse is not the view's cost).
	const wire = [];
	for (let i = 0; i < MESSAGES / 2; i++) {
		for (const [direction, text] of [['out', request(i)], ['in', response(i)]]) wire.push({ direction, message: JSON.parse(text), text });
	}
	for (let round = 0; round < rounds; round++) {
		const log = new ProtocolLog(MESSAGES);
		log.onDidAdd(() => postAsTheViewDoes(log));
		let start = performance.now();
		for (const { direction, message, text } of wire) log.record(direction, message, text);
		recordTimes.push(performance.now() - start);
		start = performance.now();
		log.flush();
		processTimes.push(performance.now() - start);
		start = performance.now();
		const found = log.filter('message 4242');
		filterTimes.push(performance.now() - start);
		if (found.length < 2) throw new Error('the filter found nothing');
		// The next keystroke: the same messages by another text.
		start = performance.now();
		const again = log.filter('message 42424');
		refilterTimes.push(performance.now() - start);
		if (again.length !== 2) throw new Error(`the second filter found ${again.length}`);
		// A live batch while a filter is set: the view filters only the new entries.
		const newest = log.lastSeq;
		for (let i = 0; i < 50; i++) log.record('in', { jsonrpc: '2.0', method: 'notifications/message', params: { data: `late ${i}` } });
		start = performance.now();
		const late = log.filter('late 42', false, newest);
		batchFilterTimes.push(performance.now() - start);
		if (late.length !== 1) throw new Error(`the batch filter found ${late.length}`);
		log.dispose();
	}
	return [
		{ scenario: 'protocolView', metric: 'stdio sequential p50, protocol view tap on (floor: off)', unit: 'µs', target: '<= 1.05x', floor: median(seq.floor), ours: median(seq.ours), sdk: '-' },
		{ scenario: 'protocolView', metric: `stdio ${IN_FLIGHT} in flight, tap on (floor: off)`, unit: 'calls/s', lowerIsBetter: false, target: '<= 1.05x', floor: median(par.floor.map((r) => r.rate)), ours: median(par.ours.map((r) => r.rate)), sdk: '-' },
		{ scenario: 'protocolView', metric: `record ${MESSAGES.toLocaleString('en-US')} messages (the tap's part)`, unit: 'ms', floor: '-', ours: median(recordTimes), sdk: '-' },
		{ scenario: 'protocolView', metric: `process them in one batch (pair; what the view posts)`, unit: 'ms', floor: '-', ours: median(processTimes), sdk: '-' },
		{ scenario: 'protocolView', metric: `filter ${MESSAGES.toLocaleString('en-US')} messages by text`, unit: 'ms', floor: '-', ours: median(filterTimes), sdk: '-' },
		{ scenario: 'protocolView', metric: `filter them again by another text (the next keystroke)`, unit: 'ms', floor: '-', ours: median(refilterTimes), sdk: '-' },
		{ scenario: 'protocolView', metric: `then filter a new batch of 50 alone (while a filter is set)`, unit: 'ms', floor: '-', ours: median(batchFilterTimes), sdk: '-' },
	];
}
