// The protocol view's cost: our stdio client with the view's tap on (every message recorded and paired in a
// ProtocolLog, which reports a batch 100 ms later; per batch, what an open view does on the extension host: the batch
// message and the rows its webview then asks for, serialised as webview.postMessage serialises them) against the same
// client, same server process, with the tap off (the floor column here), in interleaved rounds; sequential p50 and 64
// in flight; target <= 1.05x. At 64 in flight, the ratio shown is the median of per-round ratios (each round with the tap on
// against the round with it off next to it, 8x the rounds of the other rows), with the client's CPU per call as a
// second row: see runParallel. Then the view's model at scale: recording 100,000 messages, processing them, and filtering
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
/**
 * Calls per round at 64 in flight, and rounds per requested round. Every call of a round with the tap on is recorded
 * and processed within the round (its last batch is flushed and timed), so a short round hides nothing of the view's
 * cost (it pays the view's per-batch cost more often, if anything): more, shorter rounds give the median more pairs
 * (40 of 10,000 calls, 20 of 20,000 and 80 of 5,000 gave the same ratios, three runs each).
 */
const PARALLEL_CALLS = 10_000;
const PARALLEL_ROUNDS_PER_ROUND = 8;
const IN_FLIGHT = 64;
const MESSAGES = 100_000;

async function loadProtocolLog() {
	const outdir = `${root}.bench/`;
	mkdirSync(outdir, { recursive: true });
	await esbuild.build({
		entryPoints: [`${root}src/vscode/console/protocolLog.ts`],
		bundle: true,
		platform: 'node',
		format: 'cjs',
		target: 'node20',
		outfile: `${outdir}protocolLog.cjs`,
		logLevel: 'warning',
	});
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
		/**
		 * Runs `measure` with the tap on or off; a round with it on ends with the view's last batch, timed (flushMs).
		 * `cpu`: this process's CPU time for the whole round, that batch included (µs).
		 */
		async with(tapped, measure) {
			const cpu = process.cpuUsage();
			client.messageTap = tapped ? tap : undefined;
			const result = await measure();
			const start = performance.now();
			if (tapped) log.flush();
			client.messageTap = undefined;
			const used = process.cpuUsage(cpu);
			return { result, flushMs: performance.now() - start, cpu: used.user + used.system };
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

/**
 * 64 in flight, tap off and on in interleaved rounds. Per round: calls/s and the client's CPU per call (this process,
 * what the tap itself costs), both over the whole round, the view's last batch included.
 *
 * Why per-round ratios and the CPU row: on a machine of two cores, the client and the server each need one; while
 * anything else runs (another benchmark), both share one, the rate halves, and the tap's part of a round trip is
 * smaller. A load that comes and goes within a run moved single rounds from 0.6x to 1.9x, and the ratio of the two
 * medians from 0.80x to 1.13x over five runs. A round with the tap on against the round with it off next to it mostly
 * sees the same load, and the median of those ratios over many rounds drops the rounds where the load changed. The
 * CPU per call counts the tap's work whether or not the client is what limits the rate, so it shows the tap's cost
 * when the rate ratio does not (a loaded run's rate ratio looks better than the cost is).
 */
async function runParallel(client, rounds) {
	const results = await interleave(rounds, ['floor', 'ours'], async (which) => {
		const { result, flushMs, cpu } = await client.with(which === 'ours', () =>
			parallel(client, PARALLEL_CALLS, IN_FLIGHT),
		);
		// The round's time includes its last batch.
		return { rate: PARALLEL_CALLS / (PARALLEL_CALLS / result.rate + flushMs / 1000), cpu: cpu / PARALLEL_CALLS };
	});
	const pairs = results.floor.map((floor, i) => [floor, results.ours[i]]);
	return {
		floor: results.floor,
		ours: results.ours,
		rateRatio: median(pairs.map(([floor, ours]) => floor.rate / ours.rate)),
		cpuRatio: median(pairs.map(([floor, ours]) => ours.cpu / floor.cpu)),
	};
}

export async function run({ rounds }) {
	const { ProtocolLog } = await loadProtocolLog();
	const client = await connect(ProtocolLog);
	let seq;
	let par;
	try {
		for (const tapped of [false, true]) await client.with(tapped, () => parallel(client, 3000, IN_FLIGHT));
		seq = await interleave(
			rounds,
			['floor', 'ours'],
			async (which) => (await client.with(which === 'ours', () => sequential(client))).result,
		);
		par = await runParallel(client, rounds * PARALLEL_ROUNDS_PER_ROUND);
	} finally {
		await client.close();
	}
	const recordTimes = [];
	const processTimes = [];
	const filterTimes = [];
	const refilterTimes = [];
	const batchFilterTimes = [];
	// Wire texts as the transport hands them to the tap.
	const request = (i) =>
		`{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"echo","arguments":{"text":"message ${i}"}}}`;
	const response = (i) =>
		`{"jsonrpc":"2.0","id":${i},"result":{"content":[{"type":"text","text":"Echo: message ${i}"}]}}`;
	// The messages and their texts as the transport hands them to the tap (its own parse is not the view's cost).
	const wire = [];
	for (let i = 0; i < MESSAGES / 2; i++) {
		for (const [direction, text] of [
			['out', request(i)],
			['in', response(i)],
		])
			wire.push({ direction, message: JSON.parse(text), text });
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
		for (let i = 0; i < 50; i++)
			log.record('in', { jsonrpc: '2.0', method: 'notifications/message', params: { data: `late ${i}` } });
		start = performance.now();
		const late = log.filter('late 42', false, newest);
		batchFilterTimes.push(performance.now() - start);
		if (late.length !== 1) throw new Error(`the batch filter found ${late.length}`);
		log.dispose();
	}
	return [
		{
			scenario: 'protocolView',
			metric: 'stdio sequential p50, protocol view tap on (floor: off)',
			unit: 'µs',
			target: '<= 1.05x',
			floor: median(seq.floor),
			ours: median(seq.ours),
			sdk: '-',
		},
		// The ratio column: the median of per-round ratios (see runParallel), not the ratio of these two medians.
		{
			scenario: 'protocolView',
			metric: `stdio ${IN_FLIGHT} in flight, tap on (floor: off); median of ${par.floor.length} per-round ratios`,
			unit: 'calls/s',
			lowerIsBetter: false,
			target: '<= 1.05x',
			floor: median(par.floor.map((r) => r.rate)),
			ours: median(par.ours.map((r) => r.rate)),
			ratio: par.rateRatio,
			sdk: '-',
		},
		{
			scenario: 'protocolView',
			metric: `the same rounds: the client's CPU per call (the tap's own cost)`,
			unit: 'µs',
			floor: median(par.floor.map((r) => r.cpu)),
			ours: median(par.ours.map((r) => r.cpu)),
			ratio: par.cpuRatio,
			sdk: '-',
		},
		{
			scenario: 'protocolView',
			metric: `record ${MESSAGES.toLocaleString('en-US')} messages (the tap's part, pairing included)`,
			unit: 'ms',
			floor: '-',
			ours: median(recordTimes),
			sdk: '-',
		},
		{
			scenario: 'protocolView',
			metric: `process them in one batch (what the view posts)`,
			unit: 'ms',
			floor: '-',
			ours: median(processTimes),
			sdk: '-',
		},
		{
			scenario: 'protocolView',
			metric: `filter ${MESSAGES.toLocaleString('en-US')} messages by text`,
			unit: 'ms',
			floor: '-',
			ours: median(filterTimes),
			sdk: '-',
		},
		{
			scenario: 'protocolView',
			metric: `filter them again by another text (the next keystroke)`,
			unit: 'ms',
			floor: '-',
			ours: median(refilterTimes),
			sdk: '-',
		},
		{
			scenario: 'protocolView',
			metric: `then filter a new batch of 50 alone (while a filter is set)`,
			unit: 'ms',
			floor: '-',
			ours: median(batchFilterTimes),
			sdk: '-',
		},
	];
}
