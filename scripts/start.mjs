// `npm start`: builds the extension, makes sure the real VS Code is in its cache, starts server-everything over
// Streamable HTTP on a free port, and opens demo/ in VS Code (code-server) with MCP Switchboard registered as an
// installed extension, the way a person would have it: normal toasts and dialogs, no test driver. Prints the URL
// to open; Ctrl+C stops everything it started.
//
// Environment: MCP_SWITCHBOARD_PORT picks the port (default 41600, else any free one); MCP_SWITCHBOARD_PROFILE the
// profile folder (default: `profile` next to the VS Code cache; kept between runs, so trust decisions stick).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { cacheDir, ensureVsCode } from './vscode-server.mjs';
import {
	freePort,
	killTagged,
	newRunToken,
	registerInstalledExtensions,
	repoRoot,
	startCodeServer,
	waitHealthy,
	writeUserSettings,
	extensionId,
} from './workbench.mjs';

const demoFolder = join(repoRoot, 'demo');
const everything = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

/** Resolves when something accepts TCP connections on the port; rejects after `timeoutMs`. */
async function waitForPort(port, child, timeoutMs = 15_000) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`the process for port ${port} exited with ${child.exitCode}`);
		const open = await new Promise((resolve) => {
			const socket = connect(port, '127.0.0.1', () => {
				socket.end();
				resolve(true);
			});
			socket.on('error', () => resolve(false));
		});
		if (open) return;
		await new Promise((r) => setTimeout(r, 150));
	}
	throw new Error(`nothing listens on port ${port} after ${timeoutMs} ms`);
}

async function portIsFree(port) {
	return new Promise((resolve) => {
		const socket = connect(port, '127.0.0.1', () => {
			socket.end();
			resolve(false);
		});
		socket.on('error', () => resolve(true));
	});
}

/**
 * Starts the demo: the HTTP demo server and code-server on `demo/` (or `folder`), without the smoke-test driver.
 * @param {{ port?: number, profileDir?: string, fresh?: boolean, folder?: string, log?: (line: string) => void }} [options]
 *   `fresh` wipes the profile first (the UI check uses a scratch profile).
 * @returns {Promise<{ url: string, token: string, server: ReturnType<typeof startCodeServer>, stop: () => Promise<void> }>}
 * @throws Error when the build, the install or a server start fails; what was started is stopped first.
 */
export async function startDemo(options = {}) {
	const log = options.log ?? console.log;
	const folder = options.folder ?? demoFolder;
	if (spawnSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot, stdio: 'inherit' }).status !== 0)
		throw new Error('the build failed');
	ensureVsCode({ log });
	const token = newRunToken();
	const profileDir = options.profileDir ?? process.env.MCP_SWITCHBOARD_PROFILE ?? join(dirname(cacheDir()), 'profile');
	if (options.fresh) rmSync(profileDir, { recursive: true, force: true });
	mkdirSync(profileDir, { recursive: true });
	let server;
	const stop = async () => {
		await killTagged(token, { groupLeader: server?.child.pid });
	};
	try {
		// server-everything over Streamable HTTP for the "everything-http" entry. Detached: its own process group.
		const httpPort = await freePort();
		const http = spawn(process.execPath, [everything, 'streamableHttp'], {
			cwd: folder,
			detached: true,
			stdio: ['ignore', 'ignore', 'pipe'],
			env: { ...process.env, PORT: String(httpPort), MCP_SWITCHBOARD_RUN_TOKEN: token },
		});
		http.stderr.resume();
		await waitForPort(httpPort, http);
		log(`demo: server-everything (Streamable HTTP) on http://127.0.0.1:${httpPort}/mcp`);

		const wanted = Number(options.port ?? process.env.MCP_SWITCHBOARD_PORT ?? 41600);
		const port = wanted > 0 && (await portIsFree(wanted)) ? wanted : await freePort();
		const extensionsDir = join(profileDir, 'extensions');
		registerInstalledExtensions(extensionsDir, [repoRoot]);
		if (!existsSync(join(profileDir, 'user-data', 'User', 'settings.json')))
			writeUserSettings(join(profileDir, 'user-data'));
		server = startCodeServer({
			port,
			workspace: folder,
			scratch: profileDir,
			extensionsDir,
			token,
			smokeTestDriver: false,
			env: { MCP_SWITCHBOARD_DEMO_HTTP_PORT: String(httpPort) },
		});
		await waitHealthy(server.url, server.child);
		const url = `${server.url}?folder=${encodeURIComponent(folder)}`;
		return { url, token, server, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}

if (import.meta.url === `file://${process.argv[1]}`) {
	let demo;
	const shutdown = async (code) => {
		console.log('\nStopping…');
		await demo?.stop();
		process.exit(code);
	};
	process.on('SIGINT', () => void shutdown(0));
	process.on('SIGTERM', () => void shutdown(0));
	try {
		demo = await startDemo();
	} catch (error) {
		console.error(`npm start: ${error instanceof Error ? error.message : String(error)}`);
		process.exit(1);
	}
	demo.server.child.on('exit', (code) => {
		console.error(`code-server exited (${code}); see ${demo.server.logFile}`);
		void shutdown(1);
	});
	console.log(
		`\n  MCP Switchboard (${extensionId.id} ${extensionId.version}) in VS Code, with the demo workspace:\n\n    ${demo.url}\n\n  Open the MCP view in the activity bar. Ctrl+C stops everything.\n`,
	);
}
