// The Manager starting 20 stdio servers together until all are ready (initialized), against the fastest raw start of
// the same 20 processes (spawn all at once, initialize, no limits), and the SDK's Client connecting 20 in parallel.
// Target: ours <= 1.2x the floor. (The floor here is this file's rawStart, not lib/clients.mjs's floor client, which
// leaves children in the parent's session; see rawStart.) Extra rows measure the Manager under different stdio start limits, which is how
// the default (DEFAULT_MAX_CONCURRENT_STARTS in src/manager/startLimits.ts) was chosen.
// dist/core.js does not export the Manager, so this scenario bundles src/manager/manager.ts itself (esbuild).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { connectClient, SERVER } from '../lib/clients.mjs';
import { lineReader } from '../lib/lineReader.mjs';
import { interleave, median } from '../lib/stats.mjs';

export const name = 'manager';

const COUNT = 20;
const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);

async function loadManager() {
	const outdir = `${root}.bench/`;
	mkdirSync(outdir, { recursive: true });
	await esbuild.build({
		entryPoints: [`${root}src/manager/manager.ts`],
		bundle: true,
		platform: 'node',
		format: 'cjs',
		target: 'node20',
		outfile: `${outdir}manager.cjs`,
		logLevel: 'warning',
	});
	return require(`${outdir}manager.cjs`);
}

const silent = { traceEnabled: false, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const servers = Array.from({ length: COUNT }, (_, i) => ({
	name: `s${i}`,
	config: { type: 'stdio', command: process.execPath, args: [SERVER, '--tools', '20'] },
	source: { kind: 'api', label: 'bench' },
	workspaceDefined: false,
}));

/**
 * The fastest raw start of one server: spawn in its own process group (as StdioTransport does: on Linux a new
 * session also gets its own scheduler autogroup, which under load starts 20 processes ~5x faster than children
 * left in the parent's session), send initialize, wait for the answer, send initialized.
 */
async function rawStart() {
	const child = spawn(process.execPath, [SERVER, '--tools', '20'], {
		stdio: ['pipe', 'pipe', 'inherit'],
		detached: true,
	});
	const exited = once(child, 'exit');
	await new Promise((resolve, reject) => {
		child.on('error', reject);
		child.stdout.on(
			'data',
			lineReader(() => resolve()),
		);
		child.stdin.write(
			`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`,
		);
	});
	child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
	return { close: async () => (child.stdin.end(), await exited) };
}

/** ms from the first spawn until every server answered initialize. */
async function startAll(which, Manager, limit) {
	const t = performance.now();
	if (which === 'floor') {
		const children = await Promise.all(servers.map(() => rawStart()));
		const elapsed = performance.now() - t;
		await Promise.all(children.map((c) => c.close()));
		return elapsed;
	}
	if (which === 'sdk') {
		const clients = await Promise.all(servers.map(() => connectClient(which, ['--tools', '20'])));
		const elapsed = performance.now() - t;
		await Promise.all(clients.map((c) => c.close()));
		return elapsed;
	}
	const manager = new Manager({ logger: () => silent }, limit ? { maxConcurrentStarts: { stdio: limit } } : {});
	await manager.reconcile(servers);
	const elapsed = performance.now() - t;
	const notRunning = manager.servers().filter((s) => s.state.kind !== 'running');
	await manager.dispose();
	if (notRunning.length > 0)
		throw new Error(`${notRunning.length} servers did not start: ${JSON.stringify(notRunning[0].state)}`);
	return elapsed;
}

/** A connection that answers at once with `tools` tools: measures the Manager's own work, not processes. */
function fakeConnector(toolCount) {
	const tools = Array.from({ length: toolCount }, (_, i) => ({
		name: `tool_${i}.v${i % 7}`,
		inputSchema: { type: 'object' },
	}));
	const never = () => ({ dispose() {} });
	return async ({ name }) => ({
		name,
		serverInfo: { name, version: '1' },
		serverCapabilities: { tools: {} },
		protocolVersion: '2025-11-25',
		transportKind: 'stdio',
		onDidClose: never,
		onDidChangeTools: never,
		onDidChangePrompts: never,
		onDidChangeResources: never,
		onDidUpdateResource: never,
		onDidLog: never,
		onDidChangeDiscovery: never,
		listenForChanges() {},
		listTools: async () => tools,
		close: async () => {},
	});
}

/** ms to reconcile `servers` fake servers of 100 tools each until every tool is named, then look each one up. */
async function scale(Manager, servers) {
	const configs = Array.from({ length: servers }, (_, i) => ({
		name: `server ${i}`,
		config: { type: 'stdio', command: 'x', args: [String(i)] },
		source: { kind: 'api', label: 'bench' },
		workspaceDefined: false,
	}));
	const manager = new Manager(
		{ logger: () => silent },
		{ connect: fakeConnector(100), maxConcurrentStarts: { stdio: servers } },
	);
	const t = performance.now();
	await manager.reconcile(configs);
	while (manager.allTools().length < servers * 100) await new Promise((r) => setImmediate(r));
	const started = performance.now() - t;
	const l = performance.now();
	for (const tool of manager.allTools())
		if (manager.findTool(tool.qualifiedName) !== tool) throw new Error('lookup failed');
	const lookup = performance.now() - l;
	const r = performance.now();
	await manager.reconcile(configs.map((c, i) => (i === 0 ? { ...c, config: { ...c.config, args: ['changed'] } } : c)));
	const reconcile = performance.now() - r;
	await manager.dispose();
	return { started, lookup, reconcile };
}

export async function run({ rounds }) {
	const { Manager, DEFAULT_MAX_CONCURRENT_STARTS } = await loadManager();
	const limits = [4, 8, 16, COUNT];
	const variants = ['floor', 'ours', 'sdk', ...limits.map((l) => `limit${l}`)];
	const results = await interleave(rounds, variants, (which) =>
		which.startsWith('limit') ? startAll('ours', Manager, Number(which.slice(5))) : startAll(which, Manager, undefined),
	);
	const floor = median(results.floor);
	const rows = [
		{
			scenario: 'manager',
			metric: `${COUNT} stdio servers started together until all ready (default limit ${DEFAULT_MAX_CONCURRENT_STARTS.stdio})`,
			unit: 'ms',
			target: '<= 1.2x',
			floor,
			ours: median(results.ours),
			sdk: median(results.sdk),
		},
	];
	for (const limit of limits) {
		rows.push({
			scenario: 'manager',
			metric: `  same, stdio start limit ${limit}`,
			unit: 'ms',
			floor,
			ours: median(results[`limit${limit}`]),
			sdk: '-',
		});
	}
	// Scale: the Manager's own cost with instant fake connections. Linear means the 100-server figures are ~2x the 50.
	for (const count of [50, 100]) {
		const samples = [];
		for (let i = 0; i < rounds; i++) samples.push(await scale(Manager, count));
		const pick = (key) => median(samples.map((s) => s[key]));
		rows.push({
			scenario: 'manager',
			metric: `${count} servers / ${count * 100} tools: start until all tools named (fake connections)`,
			unit: 'ms',
			floor: '-',
			ours: pick('started'),
			sdk: '-',
			target: 'linear',
		});
		rows.push({
			scenario: 'manager',
			metric: `  same: findTool for every tool`,
			unit: 'ms',
			floor: '-',
			ours: pick('lookup'),
			sdk: '-',
			target: 'linear',
		});
		rows.push({
			scenario: 'manager',
			metric: `  same: reconcile with one server changed`,
			unit: 'ms',
			floor: '-',
			ours: pick('reconcile'),
			sdk: '-',
			target: 'linear',
		});
	}
	return rows;
}
