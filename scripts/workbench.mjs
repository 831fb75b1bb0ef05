// Starting the real VS Code (code-server from the cache of scripts/vscode-server.mjs) and headless Chromium, shared
// by the e2e runner (test/e2e/run.mjs), `npm start` (scripts/start.mjs) and the person-like check
// (scripts/ui-check.mjs). Everything started here carries a run token in its environment, so `killTagged()` can
// end exactly the processes of one run (code-server, its extension host, the MCP servers that host spawned,
// Chromium) and nothing else, even those that left their process group.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { paths } from './vscode-server.mjs';

export const repoRoot = resolve(new URL('..', import.meta.url).pathname);
export const extensionId = (() => {
	const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
	return { id: `${pkg.publisher}.${pkg.name}`, version: pkg.version };
})();

/** Chromium from Debian (`apt-get install chromium`); `CHROMIUM_PATH` overrides. */
export function chromiumPath() {
	const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
	const found = candidates.find((p) => existsSync(p));
	if (!found)
		throw new Error(
			'No Chromium found: run `bash scripts/apt-deps.sh` (apt-get install chromium fonts-dejavu-core libkrb5-dev) or set CHROMIUM_PATH',
		);
	return found;
}

/** A free loopback port (asked from the OS). */
export function freePort() {
	return new Promise((resolvePort, reject) => {
		const server = createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolvePort(port));
		});
	});
}

/** A fresh token for one run; pass it to `startCodeServer` and `launchChromium`, then to `killTagged`. */
export function newRunToken() {
	return randomUUID();
}

const TOKEN_VAR = 'MCP_SWITCHBOARD_RUN_TOKEN';

/**
 * Copies a workspace folder to `dest`, replacing `__REPO__` in every text file with the repository's absolute path
 * (settings can then point into node_modules wherever the repo lives).
 */
export function copyWorkspace(src, dest) {
	cpSync(src, dest, { recursive: true });
	const walk = (dir) => {
		for (const name of readdirSync(dir)) {
			const p = join(dir, name);
			if (statSync(p).isDirectory()) walk(p);
			else if (/\.(json|jsonc|md|txt|env)$/.test(name)) {
				const text = readFileSync(p, 'utf8');
				if (text.includes('__REPO__')) writeFileSync(p, text.replaceAll('__REPO__', repoRoot));
			}
		}
	};
	walk(dest);
	return dest;
}

/** User settings that keep a fresh profile quiet: no welcome page, tips, or surveys in the screenshots. */
export function writeUserSettings(userDataDir, extra = {}) {
	const dir = join(userDataDir, 'User');
	mkdirSync(dir, { recursive: true });
	writeFileSync(
		join(dir, 'settings.json'),
		JSON.stringify(
			{
				'workbench.startupEditor': 'none',
				'workbench.tips.enabled': false,
				'workbench.welcomePage.walkthroughs.openOnInstall': false,
				'extensions.ignoreRecommendations': true,
				'extensions.autoCheckUpdates': false,
				'extensions.autoUpdate': false,
				'update.mode': 'none',
				'telemetry.telemetryLevel': 'off',
				'security.workspace.trust.enabled': false,
				'window.commandCenter': false,
				'workbench.colorTheme': 'Default Dark Modern',
				// The demo lives inside this repo: no "open the parent repository?" toast.
				'git.openRepositoryInParentFolders': 'never',
				// The chat panel stays closed until asked for, so the editor area has room.
				'workbench.secondarySideBar.defaultVisibility': 'hidden',
				...extra,
			},
			null,
			'\t',
		),
	);
}

/**
 * Registers extension folders as installed in a fresh `--extensions-dir` (the way a `.vsix` install records them),
 * so they load without the smoke-test driver's `extensionDevelopmentPath`.
 */
export function registerInstalledExtensions(extensionsDir, folders) {
	mkdirSync(extensionsDir, { recursive: true });
	const entries = folders.map((folder) => {
		const pkg = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
		return {
			identifier: { id: `${pkg.publisher}.${pkg.name}` },
			version: pkg.version,
			location: { $mid: 1, scheme: 'file', path: folder },
			metadata: { source: 'vsix' },
		};
	});
	writeFileSync(join(extensionsDir, 'extensions.json'), JSON.stringify(entries));
}

/**
 * Installs a `.vsix` into `<scratch>/extensions` with code-server's own `--install-extension`, as a user installs a
 * downloaded package (VS Code unpacks it and records it in `extensions.json`). Returns the installed folder.
 * @param {string} vsix path of the .vsix
 * @param {{ scratch: string }} o the scratch folder startCodeServer will use
 * @throws Error with code-server's output when the install fails or leaves no folder for the extension
 */
export function installVsix(vsix, o) {
	const vs = paths();
	const extensionsDir = join(o.scratch, 'extensions');
	const xdg = join(o.scratch, 'xdg');
	for (const dir of [extensionsDir, join(xdg, 'config'), join(xdg, 'data')]) mkdirSync(dir, { recursive: true });
	const result = spawnSync(
		vs.node,
		[
			vs.entry,
			'--install-extension',
			vsix,
			'--extensions-dir',
			extensionsDir,
			'--user-data-dir',
			join(o.scratch, 'user-data'),
		],
		{
			cwd: o.scratch,
			encoding: 'utf8',
			env: { ...process.env, XDG_CONFIG_HOME: join(xdg, 'config'), XDG_DATA_HOME: join(xdg, 'data') },
		},
	);
	const folder = join(extensionsDir, `${extensionId.id}-${extensionId.version}`);
	if (result.status !== 0 || !existsSync(join(folder, 'package.json'))) {
		throw new Error(
			`code-server --install-extension ${vsix} failed (exit ${result.status ?? result.signal}): ${`${result.stdout}${result.stderr}`.trim().split('\n').slice(-3).join(' ')}`,
		);
	}
	return folder;
}

/**
 * Starts code-server in its own process group.
 * @param {object} o
 * @param {number} o.port loopback port
 * @param {string} o.workspace folder to open
 * @param {string} o.scratch folder for user data, extensions and XDG dirs (created)
 * @param {string} o.token run token (see newRunToken)
 * @param {boolean} [o.smokeTestDriver] pass `--vscode-option enable-smoke-test-driver` (payload mode). Default false.
 * @param {string} [o.extensionsDir] default `<scratch>/extensions`
 * @param {Record<string,string>} [o.env] extra environment (reaches the extension host)
 * @param {string} [o.logFile] where its stdout/stderr go; default `<scratch>/code-server.log`
 * @param {string[]} [o.extraArgs]
 * @returns {{ child: import('node:child_process').ChildProcess, url: string, userDataDir: string, logFile: string }}
 */
export function startCodeServer(o) {
	const vs = paths();
	if (!existsSync(vs.entry))
		throw new Error(`code-server is not installed in ${vs.dir}: run node scripts/vscode-server.mjs`);
	const userDataDir = join(o.scratch, 'user-data');
	const extensionsDir = o.extensionsDir ?? join(o.scratch, 'extensions');
	const xdg = join(o.scratch, 'xdg');
	for (const dir of [userDataDir, extensionsDir, join(xdg, 'config'), join(xdg, 'data'), join(xdg, 'cache')])
		mkdirSync(dir, { recursive: true });
	const config = join(o.scratch, 'config.yaml');
	writeFileSync(config, 'auth: none\ncert: false\n');
	const logFile = o.logFile ?? join(o.scratch, 'code-server.log');
	const out = openSync(logFile, 'a');
	const args = [
		vs.entry,
		'--auth',
		'none',
		'--bind-addr',
		`127.0.0.1:${o.port}`,
		'--disable-telemetry',
		'--disable-update-check',
		// `workspaceTrust: true` keeps VS Code's workspace trust on (the untrusted run opens its folder in Restricted Mode).
		...(o.workspaceTrust ? [] : ['--disable-workspace-trust']),
		'--disable-getting-started-override',
		'--ignore-last-opened',
		...(o.smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
		'--user-data-dir',
		userDataDir,
		'--extensions-dir',
		extensionsDir,
		'--config',
		config,
		...(o.extraArgs ?? []),
		o.workspace,
	];
	const child = spawn(vs.node, args, {
		cwd: o.scratch,
		detached: true, // its own process group, so one signal reaches the extension host and what it spawned
		stdio: ['ignore', out, out],
		env: {
			...process.env,
			...o.env,
			[TOKEN_VAR]: o.token,
			XDG_CONFIG_HOME: join(xdg, 'config'),
			XDG_DATA_HOME: join(xdg, 'data'),
			XDG_CACHE_HOME: join(xdg, 'cache'),
		},
	});
	return { child, url: `http://127.0.0.1:${o.port}/`, userDataDir, logFile };
}

/** Resolves when `GET /healthz` answers 200; rejects after `timeoutMs` (default 60 s) or when `child` exits. */
export async function waitHealthy(url, child, timeoutMs = 60_000) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null || child.signalCode !== null)
			throw new Error(`code-server exited (${child.exitCode ?? child.signalCode}) before it was ready`);
		try {
			const response = await fetch(new URL('healthz', url), { signal: AbortSignal.timeout(2000) });
			if (response.ok) return;
		} catch {
			// not listening yet
		}
		await new Promise((r) => setTimeout(r, 200));
	}
	throw new Error(`code-server did not answer /healthz within ${timeoutMs} ms`);
}

/** Launches headless Chromium (Debian's) through playwright-core with flags that work on these machines. */
export async function launchChromium(token, { headless = true } = {}) {
	const { chromium } = await import('playwright-core');
	return chromium.launch({
		executablePath: chromiumPath(),
		headless,
		env: { ...process.env, [TOKEN_VAR]: token },
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--disable-dev-shm-usage',
		],
	});
}

/** Pids of live processes whose environment carries `token`, except this process. */
export function taggedPids(token) {
	const needle = `${TOKEN_VAR}=${token}`;
	const found = [];
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
		try {
			const environ = readFileSync(`/proc/${name}/environ`, 'latin1');
			if (environ.split('\0').includes(needle)) found.push(Number(name));
		} catch {
			// gone, or not ours to read
		}
	}
	return found;
}

/**
 * Ends every process of a run: SIGTERM to the tagged processes (and code-server's group), then SIGKILL to what is
 * left after `graceMs` (default 3 s). Returns the processes (pid and command line) that needed SIGKILL.
 */
export async function killTagged(token, { groupLeader, graceMs = 3000 } = {}) {
	const signalAll = (signal) => {
		const pids = taggedPids(token);
		if (groupLeader) {
			try {
				process.kill(-groupLeader, signal);
			} catch {
				/* group already gone */
			}
		}
		for (const pid of pids) {
			try {
				process.kill(pid, signal);
			} catch {
				/* already gone */
			}
		}
		return pids.length;
	};
	if (signalAll('SIGTERM') === 0) return [];
	const deadline = Date.now() + graceMs;
	while (Date.now() < deadline && taggedPids(token).length > 0) await new Promise((r) => setTimeout(r, 100));
	const left = taggedPids(token).map((pid) => {
		try {
			return `${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').slice(-160)}`;
		} catch {
			return String(pid);
		}
	});
	signalAll('SIGKILL');
	return left;
}

/** The extension host log files of a user-data dir (the `exthost` folders under `logs/`). */
export function extensionHostLogs(userDataDir) {
	const logs = join(userDataDir, 'logs');
	if (!existsSync(logs)) return [];
	const found = [];
	const walk = (dir) => {
		for (const name of readdirSync(dir)) {
			const p = join(dir, name);
			if (statSync(p).isDirectory()) walk(p);
			else if (/exthost/.test(p) && name.endsWith('.log')) found.push(p);
		}
	};
	walk(logs);
	return found;
}
