// Module import time in a fresh process: the core (dist/core.js as the npm package installs it, lib/installedCore.mjs)
// vs the SDK's Client + StdioClientTransport (installed in node_modules) vs the floor client's only dependency
// (node:child_process). The target is absolute: <= 25 ms for dist/core.js.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CLIENTS } from '../lib/clients.mjs';
import { installedCore } from '../lib/installedCore.mjs';
import { interleave, median } from '../lib/stats.mjs';

export const name = 'import';

const root = fileURLToPath(new URL('../..', import.meta.url));
const code = {
	floor: () => "require('node:child_process')",
	ours: (core) => `require(${JSON.stringify(core)})`,
	sdk: () =>
		"require('@modelcontextprotocol/sdk/client/index.js'); require('@modelcontextprotocol/sdk/client/stdio.js')",
};

/**
 * Milliseconds to require `which` ('floor', 'ours', 'sdk') in a new Node process (also used by lazy.mjs); `core` is
 * the path of the core's dist/core.js (from installedCore()).
 */
export function importTime(which, core) {
	// The time is taken before process.stdout is touched: its first use makes the stream (with a pipe, Node loads net
	// and its streams then, ~7 ms here), which would be charged to whichever import had not loaded them already.
	const script = `const t = performance.now(); ${code[which](core)}; const ms = performance.now() - t; process.stdout.write(String(ms));`;
	return Number(execFileSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' }));
}

export async function run({ rounds }) {
	const core = await installedCore();
	// More samples than rounds: each is short and process start-up is noisy.
	const results = await interleave(rounds * 3, CLIENTS, async (which) => importTime(which, core));
	return [
		{
			scenario: 'import',
			metric: 'module import in a fresh process',
			unit: 'ms',
			target: 'ours <= 25 ms',
			...Object.fromEntries(CLIENTS.map((c) => [c, median(results[c])])),
		},
	];
}
