/**
 * The headless API, bundled to dist/core.js (CommonJS, plain Node, no vscode):
 *
 * ```js
 * const { connect } = require('mcp-switchboard/dist/core.js');
 * const client = await connect({ type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] });
 * console.log(await client.listTools());
 * await client.close();
 * ```
 *
 * Importing it does no work: everything below is a declaration. zod and the schemas load on the first connect.
 */
import { McpClient, type ClientOptions } from './protocol/client';
import type { CreateTransportOptions, TransportConfig } from './protocol/transports/createTransport';
import type { HttpAuthProvider, Transport } from './protocol/transports/transport';
import type { Host } from './manager/host';
import type { Manager, ManagerOptions } from './manager/manager';
import type { HeadlessOAuthHooksOptions, OAuthHostHooks, OAuthProvider, OAuthProviderOptions } from './protocol/auth';

export { McpClient, DEFAULT_CLIENT_INFO } from './protocol/client';
export type {
	CallToolOptions,
	ClientHandlers,
	ClientOptions,
	ProtocolEra,
	RequestOptions,
	ToolTask,
} from './protocol/client';
export type { Task, TaskMetadata, TaskStatus } from './protocol/tasks/task';
export { RELATED_TASK_META, isTerminal as isTerminalTaskStatus } from './protocol/tasks/task';
export type { TaskHandle } from './protocol/tasks/taskHandle';
export { McpError, isConnectionClosed } from './protocol/mcpError';
export { ErrorCode } from './protocol/jsonrpc';
export * from './protocol/schema';
export type { TransportConfig, StdioTransportConfig, HttpTransportConfig } from './protocol/transports/createTransport';
export type { Transport, TransportKind, HttpAuthProvider } from './protocol/transports/transport';
export type { Logger, LogLevel } from './common/logger';
export { consoleLogger, nullLogger, MemoryLogger } from './common/logger';
export type {
	Manager,
	ManagerOptions,
	ServerConfig,
	ServerState,
	ServerView,
	ResolvedServer,
	NamedTool,
	ConfigSource,
} from './manager/manager';
export type { Host } from './manager/host';
export type {
	OAuthProvider,
	OAuthProviderOptions,
	HeadlessOAuthHooksOptions,
	OAuthClientConfig,
	OAuthHostHooks,
	TokenStore,
} from './protocol/auth';

/** Options of `connect()`: the client's own (see ClientOptions) plus what building the transport needs. */
export interface ConnectOptions extends Pick<
	ClientOptions,
	| 'clientInfo'
	| 'timeoutMs'
	| 'connectTimeoutMs'
	| 'logger'
	| 'handlers'
	| 'protocolVersion'
	| 'probeTimeoutMs'
	| 'maxInputRounds'
> {
	/** The name used in error messages and logs. Default: the command's base name, or the URL's host. */
	name?: string;
	/** Credentials per request for HTTP servers (e.g. an OAuth provider). Default: none (a 401 fails clearly). */
	auth?: HttpAuthProvider;
	/**
	 * stdio: the server gets this process's whole environment (true, the default) or only PATH, HOME, locale, temp
	 * folders, proxies and similar (false), plus `server.env` either way (where `null` removes a variable).
	 */
	inheritEnvironment?: boolean;
}

/**
 * Starts a server (stdio) or opens a session (`http`: Streamable HTTP; `sse`: legacy HTTP+SSE) and resolves once
 * it is ready: a 2026-07-28 server after `server/discover` (no handshake), an older one after `initialize`. Rejects with an McpError: TransportFailed when the process cannot start or the URL cannot be
 * reached (the message says what to check), RequestTimeout, ProtocolViolation (e.g. an unsupported protocol
 * version, naming both), or ConnectionClosed (the process exited: exit code and last stderr lines). Nothing is
 * left running after a rejection.
 */
export function connect(server: TransportConfig, options: ConnectOptions = {}): Promise<McpClient> {
	const name = options.name ?? defaultName(server);
	let transport: Transport;
	try {
		transport = createTransport(server, {
			logger: options.logger,
			name,
			auth: options.auth,
			inheritEnvironment: options.inheritEnvironment,
		});
	} catch (error) {
		return Promise.reject(error);
	}
	return McpClient.connect(transport, {
		name,
		clientInfo: options.clientInfo,
		timeoutMs: options.timeoutMs,
		connectTimeoutMs: options.connectTimeoutMs,
		logger: options.logger,
		handlers: options.handlers,
		protocolVersion: options.protocolVersion,
		probeTimeoutMs: options.probeTimeoutMs,
		maxInputRounds: options.maxInputRounds,
	});
}

/**
 * Builds the transport for a server configuration without starting it (see transports/createTransport.ts).
 * Loaded on first use: the transports pull in node:child_process, node:http and node:https (~15-30 ms), which an
 * import of this module must not pay.
 */
export function createTransport(config: TransportConfig, options: CreateTransportOptions = {}): Transport {
	type CreateTransportModule = typeof import('./protocol/transports/createTransport');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const module = require('./protocol/transports/createTransport') as CreateTransportModule;
	return module.createTransport(config, options);
}

function defaultName(server: TransportConfig): string {
	if (server.type === 'stdio') {
		return server.command.split(/[\\/]/).pop() || server.command;
	}
	try {
		return new URL(server.url).host;
	} catch {
		return server.url;
	}
}

/**
 * A Manager for many servers (the extension's own lifecycle: concurrent starts, restarts with backoff, cached lists,
 * `mcp__server__tool` names). Loaded on first call, so importing this module stays cheap. Call `reconcile(servers)`
 * to start them and `dispose()` to stop them all.
 */
export function createManager(host: Host, options?: ManagerOptions): Manager {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const module = require('./manager/manager') as typeof import('./manager/manager');
	return new module.Manager(host, options);
}

/**
 * The OAuth 2.1 client of the MCP authorization specification, to pass as `auth` to `connect()` for a server that
 * asks for authorization. `hooks` supplies the token store and the browser step (see `createHeadlessOAuthHooks`).
 */
export function createOAuthProvider(options: OAuthProviderOptions): OAuthProvider {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const module = require('./protocol/auth') as typeof import('./protocol/auth');
	return new module.OAuthProvider(options);
}

/**
 * Hooks for OAuth in plain Node: tokens in memory and a loopback listener on 127.0.0.1 for the redirect; the caller
 * supplies how to show the authorization URL (print it, open a browser).
 */
export function createHeadlessOAuthHooks(options: HeadlessOAuthHooksOptions): OAuthHostHooks {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const module = require('./protocol/auth') as typeof import('./protocol/auth');
	return module.createHeadlessOAuthHooks(options);
}
