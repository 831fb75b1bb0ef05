/**
 * The Manager's default way to open a connection: build the transport for the config, then run the MCP handshake.
 * Abandoning the attempt (timeout, stop) closes the transport, which kills a stdio child or drops the socket.
 */
import type { HttpAuthProvider } from '../protocol/transports/transport';
import { createTransport } from '../protocol/transports/createTransport';
import { McpClient } from '../protocol/client';
import type { Connector, ConnectRequest } from './serverConnection';

/**
 * A Connector using `createTransport` and `McpClient.connect`. `auth` gives an HTTP auth provider for a remote
 * server (the OAuth client), or undefined.
 */
export function createDefaultConnector(auth?: (request: ConnectRequest) => HttpAuthProvider | undefined): Connector {
	return async (request) => {
		const { name, config, handlers, logger, timeoutMs, signal } = request;
		const transport = createTransport(config, { logger, name, auth: config.type === 'stdio' ? undefined : auth?.(request) });
		const onAbort = () => void transport.close().catch(() => undefined);
		if (signal.aborted) {
			onAbort();
			throw signal.reason;
		}
		signal.addEventListener('abort', onAbort, { once: true });
		try {
			return await McpClient.connect(transport, { name, logger, handlers, connectTimeoutMs: timeoutMs });
		} finally {
			signal.removeEventListener('abort', onAbort);
		}
	};
}
