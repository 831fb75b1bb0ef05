/**
 * The Manager's default way to open a connection: build the transport for the config, then run the MCP handshake.
 * Abandoning the attempt (timeout, stop) closes the transport, which kills a stdio child or drops the socket.
 */
import { OAuthProvider } from '../protocol/auth/oauthProvider';
import type { HttpAuthProvider } from '../protocol/transports/transport';
import { createTransport, type CreateTransportOptions } from '../protocol/transports/createTransport';
import { McpClient } from '../protocol/client';
import type { Host } from './host';
import type { Connector, ConnectRequest } from './serverConnection';

/**
 * A Connector using `createTransport` and `McpClient.connect`. `auth` gives an HTTP auth provider for a remote
 * server (the OAuth client), or undefined; `transportOptions` adds transport options (e.g. the command line's shorter
 * close grace).
 */
export function createDefaultConnector(auth?: (request: ConnectRequest) => HttpAuthProvider | undefined, transportOptions: Pick<CreateTransportOptions, 'closeGraceMs'> = {}): Connector {
	return async (request) => {
		const { name, config, handlers, logger, signal, inheritEnvironment } = request;
		const transport = createTransport(config, { ...transportOptions, logger, name, inheritEnvironment, auth: config.type === 'stdio' ? undefined : auth?.(request) });
		const onAbort = () => void transport.close().catch(() => undefined);
		if (signal.aborted) {
			onAbort();
			throw signal.reason;
		}
		signal.addEventListener('abort', onAbort, { once: true });
		try {
			// ServerConnection enforces the connect timeout (and holds it during an OAuth browser step), so the client
			// must not race it with a timer of its own.
			return await McpClient.connect(transport, { name, logger, handlers, connectTimeoutMs: Infinity });
		} finally {
			signal.removeEventListener('abort', onAbort);
		}
	};
}

/**
 * The auth provider for a remote server: the OAuth client when the host offers OAuth hooks for it (it sends no
 * Authorization until a 401 asks for one, so servers without authorization are unaffected). While the browser step
 * runs, the connect timeout is held: a person may take longer than a server's start-up.
 */
export function oauthFor(host: Host): (request: ConnectRequest) => HttpAuthProvider | undefined {
	return (request) => {
		if (request.config.type === 'stdio') return undefined;
		// A server configured with its own Authorization header (an API key, a token from an input) authorizes that
		// way: a 401 then means the header is wrong, which a browser sign-in would not fix.
		if (Object.keys(request.config.headers ?? {}).some((name) => name.toLowerCase() === 'authorization')) return undefined;
		const hooks = host.oauth?.(request.name);
		if (!hooks) return undefined;
		const provider = new OAuthProvider({ serverUrl: request.config.url, config: request.config.oauth ?? {}, hooks, logger: request.logger, name: request.name });
		return {
			headers: (signal) => provider.headers(signal),
			onUnauthorized: async (response, signal) => {
				const resume = request.holdTimeout();
				try {
					return await provider.onUnauthorized(response, signal);
				} finally {
					resume();
				}
			},
		};
	};
}
