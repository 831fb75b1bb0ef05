// The Manager starting 20 stdio servers together until all are ready (initialized), against the fastest raw start of
// the same 20 processes (spawn all at once, initialize, no limits), and the SDK's Client connecting 20 in parallel.
// Target: ours <= 1.2x the floor. Extra rows measure the Manager under different stdio start limits, which is how
// the default (DEFAULT_MAX_CONCURRENT_STARTS in src/manager/manager.ts) was chosen.
// dist/core.js does not export the Manager, so this scenario bundles src/manager/manager.ts itself (esbuild).
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { connectClient, SERVER } from '../lib/clients.mjs';
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

/** ms from the first spawn until every server answered initialize. */
async function startAll(which, Manager, limit) {
	const t = performance.now();
	if (which === 'floor' || which === 'sdk') {
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
	if (notRunning.length > 0) throw new Error(`${notRunning.length} servers did not start: ${JSON.stringify(notRunning[0].state)}`);
	return elapsed;
}

export async function run({ rounds }) {
	const { Manager, DEFAULT_MAX_CONCURRENT_STARTS } = await loadManager();
	const limits = [2, 4, 8, COUNT];
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
		rows.push({ scenario: 'manager', metric: `  same, stdio start limit ${limit}`, unit: 'ms', floor, ours: median(results[`limit${limit}`]), sdk: '-' });
	}
	return rows;
}
