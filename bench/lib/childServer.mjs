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
 * Starts the file at `scriptUrl` with `--serve`; resolves with the port it printed on its first stdout line, and
 * `stop()` to end it.
 */
export async function serveInChild(scriptUrl) {
	const child = spawn(process.execPath, [fileURLToPath(scriptUrl), '--serve'], { stdio: ['ignore', 'pipe', 'inherit'] });
	const [chunk] = await once(child.stdout, 'data');
	return { port: Number(String(chunk).trim()), stop: () => child.kill() };
}
