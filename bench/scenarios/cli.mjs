// `mcp-switchboard list` from a cold start (a new process: Node start-up, loading dist/cli.js, reading the workspace's
// .vscode/mcp.json, starting the server, the handshake, the four lists, closing) against the bare start of the same
// server from a new Node process doing the least a command could (spawn in its own session, initialize, tools/list,
// end stdin, wait for exit). Target: ours <= 1.2x. The SDK has no command line to compare.
// Two rows: the first run ever (no era cache: the CLI probes with server/discover, which this server answers with an
// error, then initializes), and a later run (the era remembered in the user's cache folder: initialize at once).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER } from '../lib/clients.mjs';
import { interleave, median } from '../lib/stats.mjs';

export const name = 'cli';

const root = fileURLToPath(new URL('../..', import.meta.url));
const lineReader = fileURLToPath(new URL('../lib/lineReader.mjs', import.meta.url));

/** A new Node process: spawn the server detached, initialize, tools/list, end stdin, wait for its exit. */
const bareStart = `
import { spawn } from 'node:child_process';
import { lineReader } from ${JSON.stringify(lineReader)};
const child = spawn(process.execPath, [${JSON.stringify(SERVER)}, '--tools', '20'], { stdio: ['pipe', 'pipe', 'inherit'], detached: true });
const waiters = new Map();
child.stdout.on('data', lineReader((line) => { const m = JSON.parse(line.toString('utf8')); waiters.get(m.id)?.(m); }));
const request = (id, method, params) => new Promise((resolve) => { waiters.set(id, resolve); child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\\n'); });
await request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'floor', version: '1' } });
child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\\n');
const { result } = await request(2, 'tools/list', {});
process.stdout.write(String(result.tools.length));
child.stdin.end();
child.on('exit', () => process.exit(0));
`;

function timed(file, args, cwd, env = process.env) {
	const t = performance.now();
	execFileSync(process.execPath, [file, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'inherit'] });
	return performance.now() - t;
}

/**
 * `samples` interleaved runs of each of `variants` ('floor', 'cold', 'warm'; see the file comment): the milliseconds
 * of each run, by variant (also used by lazy.mjs).
 */
export async function measureList(samples, variants = ['floor', 'cold', 'warm']) {
	const workspace = mkdtempSync(join(tmpdir(), 'bench-cli-'));
	mkdirSync(join(workspace, '.vscode'));
	writeFileSync(
		join(workspace, '.vscode', 'mcp.json'),
		JSON.stringify({ servers: { raw: { command: process.execPath, args: [SERVER, '--tools', '20'] } } }),
	);
	const floorFile = join(workspace, 'bareStart.mjs');
	writeFileSync(floorFile, bareStart);
	const cli = join(root, 'dist', 'cli.js');
	// The CLI's cache folder for this run only: emptied before each cold run, kept (after one run) for the warm ones.
	const cache = join(workspace, 'cache');
	const env = { ...process.env, XDG_CACHE_HOME: cache };
	timed(cli, ['list', '--json'], workspace, env);
	const results = await interleave(samples, variants, async (which) => {
		if (which === 'floor') return timed(floorFile, [], workspace);
		if (which === 'cold') {
			rmSync(cache, { recursive: true, force: true });
			return timed(cli, ['list', '--json'], workspace, env);
		}
		return timed(cli, ['list', '--json'], workspace, env);
	});
	rmSync(workspace, { recursive: true, force: true });
	return results;
}

export async function run({ rounds }) {
	// Process starts are noisy: more samples than rounds.
	const results = await measureList(rounds * 3);
	const row = (metric, which) => ({
		scenario: 'cli',
		metric,
		unit: 'ms',
		target: '<= 1.2x',
		floor: median(results.floor),
		ours: median(results[which]),
		sdk: 'no CLI',
	});
	return [
		row('`list` cold start, one stdio server, first run (probe)', 'cold'),
		row('`list` cold start, one stdio server, era remembered', 'warm'),
	];
}
