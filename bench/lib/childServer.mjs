// A scenario's HTTP server in a child process (the scenario's own file run again with `--serve`), so the server's
// work does not share the event loop of the clients being measured.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** Whether this process is that child: the file at `scriptUrl` (a scenario's `import.meta.url`) run with `--serve`. */
export function isServeChild(scriptUrl) {
	return process.argv[1] === fileURLToPath(scriptUrl) && process.argv.includes('--serve');
}

/**
 * In the child: listens on a free loopback port (keep-alive connections held for a minute, so clients reuse them)
 * and prints the port as the first line on stdout, where serveInChild() reads it.
 * @param {import('node:http').Server} server
 */
export function listenForParent(server) {
	server.keepAliveTimeout = 60_000;
	server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
}

/**
 * Starts the file at `scriptUrl` with `--serve`; resolves with the port it printed on its first stdout line, and
 * `stop()` to end it.
 */
export async function serveInChild(scriptUrl) {
	const child = spawn(process.execPath, [fileURLToPath(scriptUrl), '--serve'], {
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const [chunk] = await once(child.stdout, 'data');
	return { port: Number(String(chunk).trim()), stop: () => child.kill() };
}
