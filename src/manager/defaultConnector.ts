/**
 * The Manager's default way to open a connection: build the transport for the config, then run the MCP handshake.
 * Abandoning the attempt (timeout, stop) closes the transport, which kills a stdio child or drops the socket.
 */
import type { HttpAuthProvider } from '../protocol/transports/transport';
import { createTransport, type CreateTransportOptions } from '../protocol/transports/createTransport';
import { McpClient, type ProtocolEra } from '../protocol/client';
import type { Host } from './host';
import type { Connector, ConnectRequest } from './serverConnection';

/** Where the connector remembers each server's era (a Map by default; the command line keeps it in a file). */
export interface EraMemory {
	get(key: string): ProtocolEra | undefined;
	set(key: string, era: ProtocolEra): unknown;
	delete(key: string): unknown;
}

/**
 * A Connector using `createTransport` and `McpClient.connect`. `auth` gives an HTTP auth provider for a remote
 * server (the OAuth client), or undefined; `transportOptions` adds transport options (e.g. the command line's shorter
 * close grace); `eras` is where each server's protocol era is remembered (default: in memory, for this connector).
 */
export function createDefaultConnector(
	auth?: (request: ConnectRequest) => HttpAuthProvider | undefined,
	transportOptions: Pick<CreateTransportOptions, 'closeGraceMs' | 'early'> = {},
	// "Clients SHOULD cache the result for the lifetime of the server process (stdio) or origin (HTTP), and MAY persist
	// it across restarts of the same server configuration, re-probing if the cached assumption later fails."
	// https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
	// A legacy answer lets a restart skip the probe (McpClient probes again when initialize then fails).
	eras: EraMemory = new Map<string, ProtocolEra>(),
): Connector {
	return async (request) => {
		const { name, config, handlers, logger, signal, inheritEnvironment } = request;
		const transport = createTransport(config, {
			...transportOptions,
			logger,
			name,
			inheritEnvironment,
			auth: config.type === 'stdio' ? undefined : auth?.(request),
		});
		const onAbort = () => void transport.close().catch(() => undefined);
		if (signal.aborted) {
			onAbort();
			throw signal.reason;
		}
		signal.addEventListener('abort', onAbort, { once: true });
		try {
			// ServerConnection enforces the connect timeout (and holds it during an OAuth browser step), so the client
			// must not race it with a timer of its own.
			const key = eraKey(name, config);
			let client: McpClient;
			try {
				client = await McpClient.connect(transport, {
					name,
					logger,
					handlers,
					connectTimeoutMs: Infinity,
					protocolVersion: config.protocolVersion,
					knownEra: eras.get(key),
				});
			} catch (error) {
				// Whatever was remembered may be why: the next attempt probes afresh.
				eras.delete(key);
				throw error;
			}
			eras.set(key, client.era);
			return client;
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
		if (Object.keys(request.config.headers ?? {}).some((name) => name.toLowerCase() === 'authorization'))
			return undefined;
		const hooks = host.oauth?.(request.name, { interactive: request.interactive });
		if (!hooks) return undefined;
		// Required here, not imported: a command line or Manager with only local servers never loads the OAuth client
		// (nor node:http, node:https and node:fs/promises with it), which is a few ms of every command-line start.
		type OAuthModule = typeof import('../protocol/auth/oauthProvider');
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { OAuthProvider } = require('../protocol/auth/oauthProvider') as OAuthModule;
		const provider = new OAuthProvider({
			serverUrl: request.config.url,
			config: request.config.oauth ?? {},
			hooks,
			logger: request.logger,
			name: request.name,
			onClientRegistration: (kind) => request.noteClientRegistration?.(kind),
		});
		return {
			headers: (signal, target) => provider.headers(signal, target),
			currentHeaders: (target) => provider.currentHeaders(target),
			onResponse: (response) => provider.onResponse(response),
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

/** Where a server's era is remembered: the origin for remote servers, the whole command line for local ones. */
function eraKey(name: string, config: ConnectRequest['config']): string {
	if (config.type === 'stdio') return `stdio\0${name}\0${config.command}\0${(config.args ?? []).join('\0')}`;
	try {
		return `${config.type}\0${new URL(config.url).origin}`;
	} catch {
		return `${config.type}\0${config.url}`;
	}
}
