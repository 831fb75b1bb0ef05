import type { Logger } from '../../common/logger';
import type { HttpTransportOptions } from './httpTransportBase';
import type { EarlyStart } from './stdioSpawn';
import { StdioTransport } from './stdio';
import type { HttpAuthProvider, Transport } from './transport';

/** A server started as a child process that speaks newline-delimited JSON-RPC on stdin/stdout. */
export interface StdioTransportConfig {
	type: 'stdio';
	command: string;
	args?: string[];
	/** Variables for the server; `null` removes an inherited one (VS Code's mcp.json format). */
	env?: Record<string, string | null>;
	cwd?: string;
}

/**
 * A remote server. `http` is Streamable HTTP (falling back to legacy HTTP+SSE when the server does not speak it);
 * `sse` is the legacy HTTP+SSE transport of protocol 2024-11-05.
 */
export interface HttpTransportConfig {
	type: 'http' | 'sse';
	url: string;
	/** Static headers sent on every request (values are never logged). */
	headers?: Record<string, string>;
}

export type TransportConfig = StdioTransportConfig | HttpTransportConfig;

export interface CreateTransportOptions {
	/** Receives lifecycle messages and, at trace level, the wire. Default: nothing is logged. */
	logger?: Logger;
	/** The server's configured name, used in messages and logs. */
	name?: string;
	/** Per-request credentials for HTTP transports; without one a 401 fails with an Unauthorized McpError. */
	auth?: HttpAuthProvider;
	/** The largest message accepted, in bytes. Default: the transport's own (hundreds of MiB). */
	maxMessageBytes?: number;
	/** stdio: how long close() waits for the process to exit before signalling it (see StdioTransportOptions). */
	closeGraceMs?: number;
	/**
	 * stdio: pass the whole environment to the server (default true, as always), or false for only the variables a
	 * program needs (see childEnvironment.ts), plus the configured ones.
	 */
	inheritEnvironment?: boolean;
	/** stdio: a process already started for this server, taken over when it is the same process (see EarlyStart). */
	early?: EarlyStart;
}

/**
 * Builds the transport for one server configuration. Does no I/O: call `start()` on the result.
 * Throws a TypeError only for a config whose `type` is none of the known ones (config parsing rejects those earlier).
 */
export function createTransport(config: TransportConfig, options: CreateTransportOptions = {}): Transport {
	switch (config.type) {
		case 'stdio':
			return new StdioTransport({
				...config,
				logger: options.logger,
				name: options.name,
				maxMessageBytes: options.maxMessageBytes,
				closeGraceMs: options.closeGraceMs,
				inheritEnvironment: options.inheritEnvironment,
				early: options.early,
			});
		case 'http':
		case 'sse': {
			const remote: HttpTransportOptions = {
				url: config.url,
				headers: config.headers,
				logger: options.logger,
				name: options.name,
				auth: options.auth,
				maxMessageBytes: options.maxMessageBytes,
			};
			// Required on first use, not imported: a process with only local servers (a command-line run) never loads
			// the HTTP transports and node:http/https, a few ms of its start-up.
			if (config.type === 'http') {
				// eslint-disable-next-line @typescript-eslint/no-require-imports
				const { StreamableHttpTransport } = require('./streamableHttp') as typeof import('./streamableHttp');
				return new StreamableHttpTransport({ ...remote, fallbackToSse: true });
			}
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const { LegacySseTransport } = require('./legacySse') as typeof import('./legacySse');
			return new LegacySseTransport(remote);
		}
		default: {
			const never: never = config;
			throw new TypeError(`Unknown transport type: ${String((never as { type?: unknown }).type)}`);
		}
	}
}
