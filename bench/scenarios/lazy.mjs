// Fifty servers cost nothing until used (#28): the rows with the targets, each a ratio of two variants measured
// interleaved (the order rotates every round) with many samples and medians, so the 2-core machine's load spells hit
// both sides alike.
// - Activation with 0 vs 50 configured servers: a new Node process reads a user mcp.json with that many servers, makes
//   the extension's Manager (start on first need, listings kept in files, every server listed once before) and reads
//   what the tree shows (bench/lib/activationChild.mjs); the time from the process's start to the rows, its memory,
//   and the processes it started. Headless: the Manager and the tree's data, not VS Code's extension host.
//   Targets: time <= 1.1x; no server process before the first need.
// - The core's import (dist/core.js as the npm package installs it) against the floor of import.mjs (require of
//   node:child_process), as import.mjs measures both. Target <= 2x.
// - `mcp-switchboard list` from a cold start (no caches at all) against cli.mjs's floor (a bare Node process starting
//   the same server and listing its tools), as cli.mjs measures both. Target <= 2x.
// - The first call of a server shown from its cached listing but not running, against the first call of the same
//   server never listed (a cold start), each in a new Manager in this process. Target <= 1.2x.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { SERVER } from '../lib/clients.mjs';
import { interleave, median } from '../lib/stats.mjs';
import { measureList } from './cli.mjs';
import { importTime } from './import.mjs';
import { installedCore } from '../lib/installedCore.mjs';

export const name = 'lazy';

const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);
const SERVERS = 50;

/** Bundles the activation child and the Manager pieces this scenario uses into .bench/ (as manager.mjs does). */
async function bundle() {
	const outdir = `${root}.bench/`;
	mkdirSync(outdir, { recursive: true });
	const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' };
	await esbuild.build({
		...common,
		entryPoints: [`${root}bench/lib/activationChild.mjs`],
		outfile: `${outdir}activation.cjs`,
		alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
	});
	await esbuild.build({
		...common,
		stdin: {
			contents: `export { Manager } from './src/manager/manager'; export { FileListingStore } from './src/manager/listingCache';`,
			resolveDir: root,
			loader: 'ts',
		},
		alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
		outfile: `${outdir}lazyManager.cjs`,
	});
	return { activation: `${outdir}activation.cjs`, manager: require(`${outdir}lazyManager.cjs`) };
}

/** A user mcp.json with `count` servers (the bench server, each with its own arguments, so each is its own identity). */
function mcpJson(dir, count) {
	const servers = Object.fromEntries(
		Array.from({ length: count }, (_, i) => [
			`s${i}`,
			{ command: process.execPath, args: [SERVER, '--tools', '20', '--id', String(i)] },
		]),
	);
	const file = join(dir, `mcp-${count}.json`);
	writeFileSync(file, JSON.stringify({ servers }));
	return file;
}

function activation(child, file, folder) {
	return JSON.parse(execFileSync(process.execPath, [child, file, folder], { encoding: 'utf8' }));
}

const silent = { traceEnabled: false, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/** The first call of one server in a new Manager (started on that need), in ms; `store` holds its listing or not. */
async function firstCall({ Manager }, store) {
	const manager = new Manager(
		{ logger: () => silent },
		{ autoStart: false, ...(store ? { listingStore: store } : {}) },
	);
	try {
		await manager.reconcile([
			{
				name: 'first',
				config: { type: 'stdio', command: process.execPath, args: [SERVER, '--tools', '20'] },
				source: { kind: 'api', label: 'bench' },
				workspaceDefined: false,
			},
		]);
		if (store && manager.get('first').tools.length === 0) throw new Error('the cached listing was not used');
		const t = performance.now();
		await manager.callTool('first', 'echo', { text: 'first' });
		return performance.now() - t;
	} finally {
		await manager.dispose();
	}
}

export async function run({ rounds }) {
	const { activation: child, manager } = await bundle();
	const dir = mkdtempSync(join(tmpdir(), 'bench-lazy-'));
	try {
		const folder = join(dir, 'listings');
		const files = { none: mcpJson(dir, 0), fifty: mcpJson(dir, SERVERS) };
		// The first window ever: every server listed once, so the measured windows show cached tools.
		execFileSync(process.execPath, [child, files.fifty, folder, 'prime'], { stdio: 'inherit' });
		const samples = rounds * 6;
		const windows = await interleave(samples, ['none', 'fifty'], async (which) =>
			activation(child, files[which], folder),
		);
		const cachedTools = windows.fifty[0].tools;
		if (cachedTools !== SERVERS * 22) throw new Error(`the window showed ${cachedTools} cached tools`);
		const core = await installedCore();
		const imports = await interleave(samples, ['floor', 'ours'], async (which) => importTime(which, core));
		const cli = await measureList(rounds * 3, ['floor', 'cold']);

		// The first call: a listing kept for the server (once), then cold (no store) and cached interleaved.
		const store = new manager.FileListingStore(join(dir, 'first'));
		const primer = new manager.Manager({ logger: () => silent }, { autoStart: false, listingStore: store });
		await primer.reconcile([
			{
				name: 'first',
				config: { type: 'stdio', command: process.execPath, args: [SERVER, '--tools', '20'] },
				source: { kind: 'api', label: 'bench' },
				workspaceDefined: false,
			},
		]);
		await primer.need('first');
		await primer.dispose();
		await store.flush();
		const calls = await interleave(rounds * 4, ['cold', 'cached'], async (which) =>
			firstCall(manager, which === 'cached' ? store : undefined),
		);

		const of = (list, key) => list.map((r) => r[key]);
		return [
			{
				scenario: 'lazy',
				metric: `activation to the tree's rows: ${SERVERS} servers (ours) vs none (floor)`,
				unit: 'ms',
				floor: median(of(windows.none, 'ms')),
				ours: median(of(windows.fifty, 'ms')),
				sdk: '-',
				target: '<= 1.1x',
			},
			{
				scenario: 'lazy',
				metric: `server processes after activation: ${SERVERS} servers (ours) vs none (floor)`,
				unit: 'count',
				floor: Math.max(...of(windows.none, 'processes')),
				ours: Math.max(...of(windows.fifty, 'processes')),
				sdk: '-',
				target: 'ours 0',
			},
			{
				scenario: 'lazy',
				metric: `memory (RSS) after activation: ${SERVERS} servers (ours) vs none (floor)`,
				unit: 'MB',
				floor: median(of(windows.none, 'rss')) / 2 ** 20,
				ours: median(of(windows.fifty, 'rss')) / 2 ** 20,
				sdk: '-',
			},
			{
				scenario: 'lazy',
				metric: 'dist/core.js import in a fresh process, as installed from npm (as import.mjs)',
				unit: 'ms',
				floor: median(imports.floor),
				ours: median(imports.ours),
				sdk: '-',
				target: '<= 2x',
			},
			{
				scenario: 'lazy',
				metric: '`list` cold start, no caches (as cli.mjs)',
				unit: 'ms',
				floor: median(cli.floor),
				ours: median(cli.cold),
				sdk: 'no CLI',
				target: '<= 2x',
			},
			{
				scenario: 'lazy',
				metric: 'first call: cached, not running (ours) vs never listed (floor)',
				unit: 'ms',
				floor: median(calls.cold),
				ours: median(calls.cached),
				sdk: '-',
				target: '<= 1.2x',
			},
		];
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
