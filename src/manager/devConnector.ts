/**
 * Starts a local server whose `dev.debug` is set under its debugger (manager/devMode.ts `debugLaunch`) on a free
 * loopback port, and tells `onDebuggable` the port once the server answered the handshake, so the editor can attach
 * (VS Code's `vscode.debug.startDebugging` with an attach configuration). Other servers pass through unchanged.
 */
import { createServer } from 'node:net';
import { debugLaunch, type DevDebug } from './devMode';
import type { Connector } from './serverConnection';

/** A server running under its debugger: where the debugger listens. */
export interface DebuggableServer {
	server: string;
	debug: DevDebug;
	port: number;
}

/** A free TCP port on 127.0.0.1 (listened on and closed: another process may still take it, rarely). */
export function freeLoopbackPort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const probe = createServer();
		probe.once('error', reject);
		probe.listen(0, '127.0.0.1', () => {
			const address = probe.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			probe.close(() => resolve(port));
		});
	});
}

/** Wraps `inner` so that servers with `dev.debug` start under their debugger; see the module comment. */
export function withDebugger(inner: Connector, onDebuggable: (target: DebuggableServer) => void): Connector {
	return async (request) => {
		const { config } = request;
		const debug = config.type === 'stdio' ? config.dev?.debug : undefined;
		if (config.type !== 'stdio' || !debug) return inner(request);
		const port = await freeLoopbackPort();
		const launch = debugLaunch(
			{ command: config.command, args: config.args ?? [], env: config.env ?? {} },
			debug,
			port,
		);
		request.logger.info(
			`dev.debug: starting under the ${debug.type} debugger on 127.0.0.1:${port}: ${[launch.command, ...launch.args].join(' ')}`,
		);
		const client = await inner({
			...request,
			config: { ...config, command: launch.command, args: launch.args, env: launch.env },
		});
		onDebuggable({ server: request.name, debug, port });
		return client;
	};
}
