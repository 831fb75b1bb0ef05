/**
 * The Manager: every configured server, brought in line with the configuration by `reconcile()`, with
 * per-kind start limits, events, cached lists, unique tool names and a resource cache. No `vscode` here:
 * the edge supplies a Host and renders the state.
 */
import { Emitter, type Event } from '../common/event';
import type { Disposable } from '../common/disposable';
import { ErrorCode } from '../protocol/jsonrpc';
import { McpError } from '../protocol/mcpError';
import { cacheHintsOf } from '../protocol/modern/caching';
import type { CallToolOptions, McpClient, MessageTap, ToolTask } from '../protocol/client';
import type { CallToolResult, GetPromptResult, ReadResourceResult, Tool } from '../protocol/schema';
import { systemClock, type Clock, type RestartPolicyOptions } from './backoff';
import type { Host } from './host';
import type { InvocationOutcome, InvocationRecord, InvocationTarget, InvokeOptions } from './invocations';
import { Limiter } from './limiter';
import { DEFAULT_MAX_CONCURRENT_STARTS } from './startLimits';
import { ResourceCache, type ResourceCacheOptions } from './resourceCache';
import { createDefaultConnector, oauthFor } from './defaultConnector';
import { ServerConnection, type Connector } from './serverConnection';
import { serverHash } from './serverIdentity';
import { ToolNameRegistry } from './toolNames';
import type { ListingStore } from './listingCache';

export type {
	ConfigSource,
	NamedTool,
	ResolvedServer,
	ServerConfig,
	ServerState,
	ServerView,
	SignInFailure,
} from './types';
import type { NamedTool, ServerConfig, ServerState, ServerView, ResolvedServer } from './types';
import { errorMessage } from '../common/errors';

export interface ManagerOptions {
	/**
	 * Concurrent starts per kind (spawn + initialize). Defaults: stdio 16, remote 16 — measured with
	 * bench/scenarios/manager.mjs on a 2-core machine (see DEFAULT_MAX_CONCURRENT_STARTS).
	 */
	maxConcurrentStarts?: { stdio?: number; remote?: number };
	/**
	 * Opens one connection (spawn or dial, then the MCP handshake). Default: `createTransport` + `McpClient.connect`
	 * (see defaultConnector.ts); tests inject fakes.
	 */
	connect?: Connector;
	/** The clock for timeouts, backoff and debouncing. Default: the system clock. */
	clock?: Clock;
	/** Restart backoff and crash-loop cap. Default 1 s doubling to 60 s; 5 crashes in 3 minutes stop restarts. */
	restartPolicy?: RestartPolicyOptions;
	/** The resource content cache. Default TTL 30 s, 500 entries. */
	resourceCache?: ResourceCacheOptions;
	/**
	 * stdio servers get this process's whole environment (true, the default, as before), or only the variables a
	 * program needs to run (PATH, HOME, locale, temp folders, proxies; see protocol/transports/childEnvironment.ts)
	 * plus their configured `env` (false): then a secret in the environment does not reach a server unless its
	 * configuration passes it, e.g. `"env": { "GITHUB_TOKEN": "${env:GITHUB_TOKEN}" }`. The extension passes
	 * `mcpSwitchboard.inheritEnvironment` (default false).
	 */
	inheritEnvironment?: boolean;
	/**
	 * Whether servers start with `reconcile` (true, the default, as before) or on their first need (false): a call, a
	 * prompt, a resource read, `need(name)` (a view that shows what only a running server knows) or `listUncached()`.
	 * A server's own `autoStart` wins. The extension passes `mcpSwitchboard.autoStart` (default false).
	 */
	autoStart?: boolean;
	/**
	 * A server that does not auto-start stops after this long with nothing in flight, no subscription, no live task and
	 * nothing holding it (`use`), in ms; it starts again on its next need. Default 0: never.
	 */
	idleStopMs?: number;
	/** Where each server's last listing is kept between sessions, to show and offer while it has not started. */
	listingStore?: ListingStore;
}

export { DEFAULT_MAX_CONCURRENT_STARTS };

export class Manager {
	private readonly serversEmitter = new Emitter<void>();
	private readonly stateEmitter = new Emitter<{ server: string; state: ServerState }>();
	private readonly listsEmitter = new Emitter<{ server: string }>();
	private readonly resourceEmitter = new Emitter<{ server: string; uri: string }>();
	private readonly invocationEmitter = new Emitter<InvocationRecord>();
	/** Protocol-view listeners per server name (see watchMessages). */
	private readonly messageWatchers = new Map<string, Set<MessageTap>>();
	/** A server was added or removed (the set of names changed). */
	readonly onDidChangeServers: Event<void> = this.serversEmitter.event;
	/** A server's state changed. */
	readonly onDidChangeState: Event<{ server: string; state: ServerState }> = this.stateEmitter.event;
	/** A server's cached tools, resources, templates or prompts changed. */
	readonly onDidChangeLists: Event<{ server: string }> = this.listsEmitter.event;
	/** A subscribed resource changed on the server (`notifications/resources/updated`). */
	readonly onDidUpdateResource: Event<{ server: string; uri: string }> = this.resourceEmitter.event;
	/** Fires when a call made with an `origin` (see InvokeOptions) finished, failed or was cancelled. */
	readonly onDidInvoke: Event<InvocationRecord> = this.invocationEmitter.event;

	private readonly connections = new Map<string, ServerConnection>();
	private readonly subscriptions = new Map<ServerConnection, Disposable[]>();
	private readonly names = new ToolNameRegistry<NamedTool>();
	private readonly cache: ResourceCache;
	private readonly limiters: { stdio: Limiter; remote: Limiter };
	private readonly connector: Connector;
	private readonly clock: Clock;
	private toolsSnapshot: readonly NamedTool[] | undefined;
	private inheritEnvironment: boolean;
	private autoStartDefault: boolean;
	private idleStopMs: number;
	private readonly rootsSubscription: Disposable | undefined;
	private disposed = false;

	constructor(
		private readonly host: Host,
		private readonly options: ManagerOptions = {},
	) {
		this.clock = options.clock ?? systemClock;
		this.inheritEnvironment = options.inheritEnvironment ?? true;
		this.autoStartDefault = options.autoStart ?? true;
		this.idleStopMs = options.idleStopMs ?? 0;
		this.cache = new ResourceCache({ now: () => this.clock.now(), ...options.resourceCache });
		this.limiters = {
			stdio: new Limiter(options.maxConcurrentStarts?.stdio ?? DEFAULT_MAX_CONCURRENT_STARTS.stdio),
			remote: new Limiter(options.maxConcurrentStarts?.remote ?? DEFAULT_MAX_CONCURRENT_STARTS.remote),
		};
		this.connector = options.connect ?? createDefaultConnector(oauthFor(host));
		this.rootsSubscription = host.onDidChangeRoots?.(() => {
			for (const connection of this.connections.values()) {
				connection.runningClient
					?.notifyRootsChanged()
					.catch((error: unknown) => host.logger(connection.name).warn(`roots/list_changed failed: ${String(error)}`));
			}
		});
	}

	/** Whether stdio servers get the whole environment (ManagerOptions.inheritEnvironment), e.g. for Check This Server. */
	get inheritsEnvironment(): boolean {
		return this.inheritEnvironment;
	}

	/**
	 * Changes whether stdio servers get the whole environment (see ManagerOptions.inheritEnvironment). Running or
	 * starting stdio servers are restarted so the change applies to them; resolves when they are back.
	 */
	async setInheritEnvironment(inherit: boolean): Promise<void> {
		if (inherit === this.inheritEnvironment) return;
		this.inheritEnvironment = inherit;
		const affected = [...this.connections.values()].filter(
			(c) => c.config.type === 'stdio' && (c.state.kind === 'running' || c.state.kind === 'starting'),
		);
		await Promise.all(affected.map((connection) => connection.restart()));
	}

	/**
	 * Changes whether servers without their own `autoStart` start with the configuration (see ManagerOptions.autoStart).
	 * Turned on, the servers waiting for their first need start now; turned off, running servers keep running (and
	 * may stop when idle).
	 */
	async setAutoStart(autoStart: boolean): Promise<void> {
		if (autoStart === this.autoStartDefault) return;
		this.autoStartDefault = autoStart;
		for (const connection of this.connections.values()) connection.idleSettingChanged();
		await Promise.all(
			[...this.connections.values()]
				.filter((connection) => connection.autoStarts && connection.startsOnNeed)
				.map((connection) => connection.start(false)),
		);
	}

	/** Changes how long a server may go unused before it stops (ManagerOptions.idleStopMs; 0: never). */
	setIdleStopMs(ms: number): void {
		if (ms === this.idleStopMs) return;
		this.idleStopMs = ms;
		for (const connection of this.connections.values()) connection.idleSettingChanged();
	}

	/** Changes the concurrent start limits (the settings changed); waiting starts proceed under the new limits. */
	setMaxConcurrentStarts(limits: { stdio?: number; remote?: number }): void {
		if (limits.stdio !== undefined) this.limiters.stdio.setLimit(limits.stdio);
		if (limits.remote !== undefined) this.limiters.remote.setLimit(limits.remote);
	}

	/**
	 * Brings the running set in line with `servers`: starts new, restarts changed (by config hash), stops removed.
	 * A server waiting for trust is checked again without asking (trust may have been granted since). Resolves when removed servers
	 * are gone and every start begun here has finished its first attempt (running, failed or needing trust).
	 * Never rejects for a server's failure: that becomes the server's state.
	 */
	async reconcile(servers: readonly ResolvedServer[]): Promise<void> {
		if (this.disposed) return;
		const next = new Map<string, ResolvedServer>();
		for (const server of servers) if (!next.has(server.name)) next.set(server.name, server);
		const work: Promise<void>[] = [];
		let setChanged = false;

		for (const [name, connection] of [...this.connections]) {
			if (next.has(name)) continue;
			setChanged = true;
			this.connections.delete(name);
			work.push(this.removeConnection(connection));
		}

		const ordered = new Map<string, ServerConnection>();
		for (const server of next.values()) {
			const existing = this.connections.get(server.name);
			if (!existing) {
				setChanged = true;
				const waits = !server.config.disabled && !this.startsWithManager(server.config);
				const connection = this.createConnection(server, waits);
				ordered.set(server.name, connection);
				if (!waits && !server.config.disabled) work.push(connection.start(true));
				continue;
			}
			ordered.set(server.name, existing);
			if (existing.hash !== serverHash(server)) {
				// A server that was not needed yet still is not; one in use is restarted with its new configuration.
				const inUse = existing.state.kind === 'running' || existing.state.kind === 'starting';
				existing.update(server);
				if (server.config.disabled) work.push(existing.stop({ kind: 'disabled' }));
				else if (inUse || existing.autoStarts) work.push(existing.restart());
				else work.push(existing.stop({ kind: 'stopped', onDemand: 'notStarted' }));
			} else {
				existing.update(server);
				if (existing.state.kind === 'needsTrust') work.push(existing.start(false));
				else if (existing.autoStarts && existing.startsOnNeed) work.push(existing.start(true));
				existing.idleSettingChanged();
			}
		}
		const orderChanged = [...ordered.keys()].join('\u0000') !== [...this.connections.keys()].join('\u0000');
		this.connections.clear();
		for (const [name, connection] of ordered) this.connections.set(name, connection);
		if (setChanged || orderChanged) {
			if (this.names.setServers([...this.connections.keys()])) {
				for (const connection of this.connections.values()) connection.renameTools();
			}
			this.toolsSnapshot = undefined;
		}
		if (setChanged) this.serversEmitter.fire();
		await Promise.all(work);
	}

	servers(): readonly ServerView[] {
		return [...this.connections.values()];
	}

	get(name: string): ServerView | undefined {
		return this.connections.get(name);
	}

	/**
	 * The configuration `name` runs, variables resolved, for processes of its own that the Manager does not hold
	 * (Check This Server); a workspace-defined server is asked about first. Rejects with the reason it cannot run.
	 */
	configToRun(name: string): Promise<ServerConfig> {
		const connection = this.connections.get(name);
		if (!connection) return Promise.reject(new Error(`No server named '${name}' is configured`));
		return connection.configToRun();
	}

	/**
	 * Starts a stopped, failed, disabled or untrusted server: a user's explicit action, so the crash count is reset
	 * and a workspace-defined server not yet allowed is asked about (Host.confirmTrust with `ask: true`).
	 */
	start(name: string): Promise<void> {
		return this.connection(name).start(true, true);
	}

	stop(name: string): Promise<void> {
		return this.connection(name).stop();
	}

	/** Stops and starts a server: a user's explicit action, like {@link start}. */
	restart(name: string): Promise<void> {
		return this.connection(name).restart(true);
	}

	/**
	 * Something needs the server running (its row was expanded, a command lists what only it knows): a server waiting
	 * for its next need starts, without asking for trust or a sign-in (those wait for the user's Start). Resolves when
	 * it runs and its first listing is in, or its start failed (then its state says why). Does nothing otherwise.
	 */
	async need(name: string): Promise<void> {
		const connection = this.connections.get(name);
		if (!connection) return;
		await startOnNeed(connection);
		await connection.firstListing;
	}

	/**
	 * Starts every server that waits for its first need and has no listing kept yet, and resolves when each has listed
	 * (or failed): what `@mcp` and the gateway do before offering tools, so a server never listed is not left out.
	 */
	async listUncached(): Promise<void> {
		const uncached = [...this.connections.values()].filter(
			(connection) => connection.startsOnNeed && connection.listedAt === undefined,
		);
		await Promise.all(uncached.map((connection) => this.need(connection.name)));
	}

	/**
	 * Keeps a running server from stopping when idle until the returned disposable is disposed (an open MCP App, a
	 * view that follows it).
	 */
	use(name: string): Disposable {
		return this.connection(name).use();
	}

	/** Re-fetches a running server's lists. */
	refresh(name: string): Promise<void> {
		return this.connection(name).refresh();
	}

	/** Every running server's tools, in configuration order; the array is rebuilt only after a list changes. */
	allTools(): readonly NamedTool[] {
		// Asking for the tools is when a list past its server's ttlMs is re-fetched (see ServerConnection.refreshIfStale).
		for (const connection of this.connections.values()) connection.refreshIfStale('tools');
		if (!this.toolsSnapshot) {
			const all: NamedTool[] = [];
			for (const connection of this.connections.values()) for (const tool of connection.tools) all.push(tool);
			this.toolsSnapshot = all;
		}
		return this.toolsSnapshot;
	}

	/** Reverse lookup of `mcp__<server>__<tool>`, in constant time. */
	findTool(qualifiedName: string): NamedTool | undefined {
		return this.names.lookup(qualifiedName)?.value;
	}

	/**
	 * Fails with an McpError naming the server when it is not running. A tool whose taskSupport is `required` (or any
	 * tool with `options.task`) runs as a task and resolves with its final result (see McpClient.callTool). A call
	 * made right after the start, on a server that runs tools as tasks, first waits for the server's first listing
	 * (already under way): only the listing tells a task-only tool, which the server refuses as a plain call.
	 */
	callTool(
		server: string,
		tool: string,
		args: Record<string, unknown>,
		options?: CallToolOptions & InvokeOptions,
	): Promise<CallToolResult> {
		return this.invoke({ kind: 'tool', server, name: tool, arguments: args }, options, (client) => {
			const listing = this.connections.get(server)?.firstListing;
			if (listing && options?.task === undefined && client.supportsToolTasks()) {
				return listing.then(() => client.callTool(tool, args, options));
			}
			return client.callTool(tool, args, options);
		});
	}

	/** Gets a prompt's messages; fails with an McpError naming the server when it is not running. */
	getPrompt(
		server: string,
		prompt: string,
		args: Record<string, string>,
		options?: InvokeOptions,
	): Promise<GetPromptResult> {
		return this.invoke({ kind: 'prompt', server, name: prompt, arguments: args }, options, (client) =>
			client.getPrompt(prompt, args, options),
		);
	}

	/** Starts a tool call as a task on a running server and resolves with its handle (see McpClient.startToolTask). */
	startToolTask(
		server: string,
		tool: string,
		args: Record<string, unknown>,
		options?: CallToolOptions,
	): Promise<ToolTask> {
		return this.clientOnDemand(server).then((client) => client.startToolTask(tool, args, options));
	}

	/** Follows a task started earlier (e.g. before a reload) on a running server (see McpClient.resumeToolTask). */
	resumeToolTask(server: string, taskId: string, tool: string): Promise<ToolTask> {
		return this.clientOnDemand(server).then((client) => client.resumeToolTask(taskId, tool));
	}

	/** A tool's `execution.taskSupport` on a running server: `required`, `optional` or `forbidden` (also when it cannot tell). */
	toolTaskSupport(server: string, tool: string): 'required' | 'optional' | 'forbidden' {
		const client = this.connections.get(server)?.runningClient;
		return client && client.supportsToolTasks() ? client.toolTaskSupport(tool) : 'forbidden';
	}

	/**
	 * Served from the resource cache (TTL + LRU) when fresh. A 2026-07-28 server's `ttlMs` sets how long its result
	 * stays fresh (0: not kept); a result that took the user's input (input_required rounds) is never kept.
	 * `cacheScope` needs nothing more here: the cache belongs to one connection, so to one authorization context
	 * ("Cached responses MAY be reused for the same authorization context"), and is emptied whenever the connection
	 * ends (restart, stop, Sign Out), so a private result never reaches another sign-in.
	 */
	readResource(server: string, uri: string, options?: InvokeOptions): Promise<ReadResourceResult> {
		return this.invoke({ kind: 'resource', server, uri }, options, async (client) => {
			const cached = this.cache.get(server, uri);
			if (cached) return cached;
			const version = this.cache.version(server, uri);
			const result = await client.readResource(uri, options);
			// Cached only when the same connection is still the running one and the resource was not updated (or the
			// server restarted) during the read; otherwise the next read asks the server again.
			if (this.connections.get(server)?.runningClient === client && !client.neededInput(result)) {
				const serverTtl = client.era === 'modern' ? cacheHintsOf(result).ttlMs : undefined;
				this.cache.set(server, uri, result, version, serverTtl);
			}
			return result;
		});
	}

	/** Runs one call on the server's client and, when it names an origin, reports it through onDidInvoke. */
	private async invoke<T extends CallToolResult | GetPromptResult | ReadResourceResult>(
		target: InvocationTarget,
		options: InvokeOptions | undefined,
		run: (client: McpClient) => Promise<T>,
	): Promise<T> {
		const origin = options?.origin;
		const startedAt = Date.now();
		const started = performance.now();
		const report = (outcome: InvocationOutcome) => {
			if (origin && !this.disposed)
				this.invocationEmitter.fire({ target, origin, startedAt, durationMs: performance.now() - started, outcome });
		};
		const use = this.connections.get(target.server)?.use();
		try {
			const running = this.connections.get(target.server)?.runningClient;
			const result = await run(running ?? (await this.clientOnDemand(target.server)));
			report({ kind: 'result', result, isError: (result as CallToolResult).isError === true });
			return result;
		} catch (error) {
			report({
				kind: 'error',
				message: errorMessage(error),
				cancelled: options?.signal?.aborted === true || options?.cancelWith?.aborted === true,
			});
			throw error;
		} finally {
			use?.dispose();
		}
	}

	/**
	 * The running client; a server waiting for its next need (or starting on one) is started first. Rejects with an
	 * McpError naming the server and its state when it does not run after that (see `client`).
	 */
	async clientOnDemand(server: string): Promise<McpClient> {
		const connection = this.connections.get(server);
		if (connection && !connection.runningClient) await startOnNeed(connection);
		return this.client(server);
	}

	/**
	 * Calls `listener` with every JSON-RPC message sent to or received from `server`'s running connection, and of each
	 * later one (after a restart), until disposed. Nothing is tapped while no one listens.
	 */
	watchMessages(server: string, listener: MessageTap): Disposable {
		let listeners = this.messageWatchers.get(server);
		if (!listeners) {
			listeners = new Set();
			this.messageWatchers.set(server, listeners);
		}
		listeners.add(listener);
		this.installMessageTap(server);
		return {
			dispose: () => {
				listeners.delete(listener);
				if (listeners.size === 0 && this.messageWatchers.get(server) === listeners) this.messageWatchers.delete(server);
				this.installMessageTap(server);
			},
		};
	}

	private installMessageTap(server: string): void {
		const client = this.connections.get(server)?.runningClient;
		if (!client) return;
		const listeners = this.messageWatchers.get(server);
		client.messageTap = listeners
			? (direction, message, text, bytes, start, end) => {
					for (const listener of listeners) listener(direction, message, text, bytes, start, end);
				}
			: undefined;
	}

	/** The running client, or an McpError naming the server and its state. */
	client(server: string): McpClient {
		const connection = this.connections.get(server);
		if (!connection) throw new McpError(ErrorCode.InvalidParams, `No MCP server named '${server}' is configured`);
		const client = connection.runningClient;
		if (client) return client;
		throw new McpError(
			ErrorCode.ConnectionClosed,
			`Server '${server}' is not running (${describeState(connection.state)})`,
		);
	}

	/** Stops every server; leaves no process behind. */
	async dispose(): Promise<void> {
		if (this.disposed) return;
		this.disposed = true;
		this.rootsSubscription?.dispose();
		const connections = [...this.connections.values()];
		this.connections.clear();
		await Promise.all(connections.map((connection) => this.removeConnection(connection)));
		this.cache.clear();
		this.serversEmitter.dispose();
		this.stateEmitter.dispose();
		this.listsEmitter.dispose();
		this.resourceEmitter.dispose();
		this.invocationEmitter.dispose();
	}

	private connection(name: string): ServerConnection {
		const connection = this.connections.get(name);
		if (!connection) throw new McpError(ErrorCode.InvalidParams, `No MCP server named '${name}' is configured`);
		return connection;
	}

	private nameTools(server: string, tools: readonly Tool[]): NamedTool[] {
		this.toolsSnapshot = undefined;
		return this.names.setTools(server, tools, (tool, qualifiedName) => ({ server, qualifiedName, tool }));
	}

	/** Whether a server with `config` starts with the Manager and never stops when idle (else on its first need). */
	private startsWithManager(config: ServerConfig): boolean {
		return config.autoStart ?? this.autoStartDefault;
	}

	private createConnection(server: ResolvedServer, waits: boolean): ServerConnection {
		const connection: ServerConnection = new ServerConnection(
			server,
			{
				host: this.host,
				connector: this.connector,
				clock: this.clock,
				policy: this.options.restartPolicy,
				limiter: (kind) => (kind === 'stdio' ? this.limiters.stdio : this.limiters.remote),
				// A connection being removed must not touch the names of a newer connection with the same name.
				nameTools: (name, tools): NamedTool[] =>
					this.connections.get(name) === connection ? this.nameTools(name, tools) : [],
				invalidateResources: (name, uri) =>
					uri === undefined ? this.cache.invalidateServer(name) : this.cache.invalidate(name, uri),
				onDidUpdateResource: (name, uri) => this.resourceEmitter.fire({ server: name, uri }),
				inheritEnvironment: () => this.inheritEnvironment,
				autoStart: (config) => this.startsWithManager(config),
				idleStopMs: () => this.idleStopMs,
				listingStore: this.options.listingStore,
			},
			waits,
		);
		this.subscriptions.set(connection, [
			connection.onDidChangeState((state) => {
				// A new connection of a watched server is watched too (the protocol view stays live across restarts).
				if (state.kind === 'running') this.installMessageTap(connection.name);
				this.stateEmitter.fire({ server: connection.name, state });
			}),
			connection.onDidChangeLists(() => {
				this.toolsSnapshot = undefined;
				this.listsEmitter.fire({ server: connection.name });
			}),
		]);
		return connection;
	}

	/** Call after deleting the connection from the map: it stops it and forgets everything it contributed. */
	private async removeConnection(connection: ServerConnection): Promise<void> {
		if (!this.connections.has(connection.name)) this.names.clear(connection.name);
		this.cache.invalidateServer(connection.name);
		this.toolsSnapshot = undefined;
		await connection.stop({ kind: 'stopped' });
		for (const subscription of this.subscriptions.get(connection) ?? []) subscription.dispose();
		this.subscriptions.delete(connection);
		await connection.dispose();
	}
}

/** Starts a server that waits for its next need (or joins such a start); resolves when it runs or failed. */
async function startOnNeed(connection: ServerConnection): Promise<void> {
	if (connection.startsOnNeed || (connection.state.kind === 'starting' && !connection.autoStarts))
		await connection.start(false);
}

/** A short description of a state for error messages. */
export function describeState(state: ServerState): string {
	switch (state.kind) {
		case 'stopped':
			return state.onDemand === 'idle'
				? 'stopped while unused; starts when needed'
				: state.onDemand
					? 'not started; starts when needed'
					: 'stopped';
		case 'disabled':
			return 'disabled in its configuration';
		case 'needsTrust':
			return 'waiting for permission to run';
		case 'starting':
			return state.attempt > 1 ? `restarting, attempt ${state.attempt}` : 'starting';
		case 'running':
			return 'running';
		case 'needsSignIn':
		case 'error':
			return state.message;
	}
}
