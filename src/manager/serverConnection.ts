/**
 * One configured server: its state, the current client, cached lists, and the lifecycle around them —
 * trust check, a start slot from the per-kind limiter, a connect timeout, restart on crash with backoff and a
 * crash-loop cap, transparent re-initialisation of an expired HTTP session.
 */
import { Emitter } from '../common/event';
import { DisposableStore } from '../common/disposable';
import type { Logger } from '../common/logger';
import { effectiveTimeout } from '../common/timers';
import { McpError } from '../protocol/mcpError';
import type { McpClient } from '../protocol/client';
import type { Prompt, Resource, ResourceTemplate } from '../protocol/schema';
import { writeServerLog } from './logLevels';
import { RestartPolicy, type RestartDecision } from './backoff';
import { DEPRECATION_NOTES, DeprecationUse, type DeprecatedFeature } from './deprecations';
import { listChanged, listenForCachedLists, listServer, newestOf, type NumberedList } from './listFetch';
import { describeDuration, IdleStop, keepsRunning } from './idleStop';
import { serverHash, serverIdentity } from './serverIdentity';
import { listingOf, summaryIn, type ListingSummary } from './listingCache';
import type { Disposable } from '../common/disposable';
import { checkTrust, connectWithTimeout, hostHandlers } from './connectAttempt';
import { decisionState, failureMessage, finalFailureState, sessionExpired } from './failureStates';
import {
	ALL_LISTS,
	DEFAULT_CONNECT_TIMEOUT_MS,
	FAILED_REFETCH_DELAY_MS,
	LIST_REFRESH_DEBOUNCE_MS,
	MIN_LIST_AGE_MS,
	REMOTE_RELIST_DELAY_MS,
	SESSION_MIN_LIFETIME_MS,
	type ListKind,
	perList,
	type ServerConnectionDeps,
} from './connectionTypes';
import type { ConfigSource, NamedTool, ResolvedServer, ServerConfig, ServerState, ServerView } from './types';
import { unreachableCause, type UnreachableCause } from './unreachable';
import { errorMessage } from '../common/errors';

export type { ConnectRequest, Connector, ListKind, ServerConnectionDeps } from './connectionTypes';

export class ServerConnection implements ServerView {
	private readonly stateEmitter = new Emitter<ServerState>();
	/** The state changed. */
	readonly onDidChangeState = this.stateEmitter.event;
	private readonly listsEmitter = new Emitter<void>();
	/** Cached tools, resources, templates or prompts changed. */
	readonly onDidChangeLists = this.listsEmitter.event;

	private server: ResolvedServer;
	/** serverHash() of the definition, computed when a reconcile first compares it (a sha-256 per server). */
	private currentHash: string | undefined;
	private currentState: ServerState = { kind: 'stopped' };
	private error: string | undefined;
	/** Made on first use, as are the idle countdown, the deprecation notes and the per-list records below: a window
	 * makes a connection for every configured server, most of which never start in it. */
	private restartPolicy: RestartPolicy | undefined;

	/** Bumped by every start and stop: results of an older attempt are discarded (and their client closed). */
	private generation = 0;
	private attemptAbort: AbortController | undefined;
	private inFlight: Promise<unknown> | undefined;
	private startPromise: Promise<void> | undefined;
	private client: McpClient | undefined;
	private readonly clientStore = new DisposableStore();
	private connectionStore = new DisposableStore();
	private retryTimer: { dispose(): void } | undefined;
	private refreshTimer: { dispose(): void } | undefined;
	private readonly dirty = new Set<ListKind>();
	/** Per list kind: the number of the latest listing started, and of the one whose result is shown. */
	private listNumbers: Record<ListKind, { started: number; applied: number }> | undefined;
	/**
	 * Per list kind, until when the list is fresh by its server's `ttlMs` (2026-07-28); undefined: no time limit (an
	 * older server, or no ttlMs: the list changes on list_changed only). Once passed, the list is re-fetched the next
	 * time it is asked for, not before ("Clients SHOULD NOT treat TTL as a polling interval").
	 * Spec: https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching
	 */
	private freshness: Record<ListKind, number | undefined> | undefined;
	private startedAt = 0;
	private disposed = false;
	private deprecationUse: DeprecationUse | undefined;

	private toolList: readonly NamedTool[] = [];
	private resourceList: readonly Resource[] = [];
	private templateList: readonly ResourceTemplate[] = [];
	private promptList: readonly Prompt[] = [];
	/** While the lists shown come from the listing store: when they were listed. */
	private cachedListedAt: number | undefined;
	/** The listing store was read since the server last began to wait for its next need. */
	private cacheRead = false;
	/** The kept listing's summary while waiting (undefined: not read yet; null: none kept). */
	private summary: ListingSummary | null | undefined;
	private identityKey: string | undefined;
	private idleStop: IdleStop | undefined;

	/**
	 * `waits`: the server starts on its first need, and is shown meanwhile from its kept listing. A new connection
	 * takes its first state without an event: the Manager announces the servers that arrived together.
	 */
	constructor(
		server: ResolvedServer,
		private readonly deps: ServerConnectionDeps,
		waits = false,
	) {
		this.server = server;
		if (server.config.disabled) this.currentState = { kind: 'disabled' };
		else if (waits) this.currentState = { kind: 'stopped', onDemand: 'notStarted' };
	}

	private get policy(): RestartPolicy {
		return (this.restartPolicy ??= new RestartPolicy(this.deps.policy));
	}
	private get idle(): IdleStop {
		return (this.idleStop ??= new IdleStop(
			this.deps.clock,
			() => (this.deps.autoStart(this.server.config) ? 0 : this.deps.idleStopMs()),
			() => keepsRunning(this.runningClient),
			() => {
				this.logger.info(`Stopped after ${describeDuration(this.deps.idleStopMs())} unused; it starts when needed`);
				void this.stop({ kind: 'stopped', onDemand: 'idle' });
			},
		));
	}
	private get deprecations(): DeprecationUse {
		return (this.deprecationUse ??= new DeprecationUse(
			() => this.logger,
			() => this.client?.era === 'modern',
		));
	}
	private get listSequence(): Record<ListKind, { started: number; applied: number }> {
		return (this.listNumbers ??= perList(() => ({ started: 0, applied: 0 })));
	}
	private get freshUntil(): Record<ListKind, number | undefined> {
		return (this.freshness ??= perList<number | undefined>(() => undefined));
	}

	get name(): string {
		return this.server.name;
	}

	/**
	 * The configuration a start would run, variables resolved, for processes of its own outside this connection
	 * (Check This Server). A workspace-defined server goes through the trust check first, asking as Start does.
	 * Rejects with the reason when it may not run or cannot be resolved.
	 */
	async configToRun(): Promise<ServerConfig> {
		const server = this.server;
		if (server.workspaceDefined && this.deps.host.confirmTrust) {
			const refusal = await checkTrust(this.deps.host, server, true, this.logger);
			if (refusal) throw new Error(refusal.reason);
		}
		return server.resolve ? server.resolve() : server.config;
	}
	get config(): ServerConfig {
		return this.server.config;
	}
	get source(): ConfigSource {
		return this.server.source;
	}
	get state(): ServerState {
		return this.currentState;
	}
	get lastError(): string | undefined {
		return this.error;
	}
	get hash(): string {
		return (this.currentHash ??= serverHash(this.server));
	}
	get definition(): ResolvedServer {
		return this.server;
	}
	/** Who the server is for what is kept about it (serverIdentity.ts); computed once per definition. */
	get identity(): string {
		return (this.identityKey ??= serverIdentity(this.server));
	}
	/** When the lists shown were listed, while they come from the listing store (not running yet). */
	get listedAt(): number | undefined {
		return this.listsRead ? this.cachedListedAt : this.keptSummary()?.listedAt;
	}
	/** False while it waits for its first need and the kept listing was not read (a list getter reads it). */
	get listsRead(): boolean {
		return this.cacheRead || !this.startsOnNeed;
	}
	/** The names of the tools shown, without reading a kept listing that was not read yet (its summary has them). */
	get toolNames(): readonly string[] {
		if (this.listsRead) return this.toolList.map((named) => named.tool.name);
		return this.keptSummary()?.toolNames ?? [];
	}
	/** The kept listing's summary, read once per wait for a need. */
	private keptSummary(): ListingSummary | undefined {
		const store = this.deps.listingStore;
		if (this.summary === undefined && store) this.summary = summaryIn(store, this.identity) ?? null;
		return this.summary ?? undefined;
	}
	/** The server waits for its next need: a call, a read or a view that needs it starts it. */
	get startsOnNeed(): boolean {
		return this.currentState.kind === 'stopped' && this.currentState.onDemand !== undefined;
	}
	/** Whether it starts with the Manager and never stops when idle. */
	get autoStarts(): boolean {
		return this.deps.autoStart(this.server.config);
	}

	/** Something uses the running server until the returned disposable is disposed; it does not stop while idle meanwhile. */
	use(): Disposable {
		return this.idle.use();
	}

	/** The idle time setting changed. */
	idleSettingChanged(): void {
		this.idleStop?.settingChanged();
	}

	/** While waiting for its next need, the lists are the ones last listed: read once, when first asked for. */
	private serveCached(): void {
		if (this.cacheRead || !this.startsOnNeed) return;
		this.cacheRead = true;
		const listing = this.deps.listingStore?.load(this.identity);
		if (!listing) return;
		this.toolList = this.deps.nameTools(this.name, listing.tools);
		this.resourceList = listing.resources;
		this.templateList = listing.resourceTemplates;
		this.promptList = listing.prompts;
		this.cachedListedAt = listing.listedAt;
	}

	/** Keeps what the running server listed, for the next session and for while it is stopped. */
	private keepListing(client: McpClient): void {
		const lists = { tools: this.toolList, prompts: this.promptList, resources: this.resourceList };
		this.deps.listingStore?.save(this.identity, listingOf(client, { ...lists, resourceTemplates: this.templateList }));
	}
	/**
	 * Deprecated features this server uses: the HTTP+SSE transport (configured, or fallen back to), and on the current
	 * connection roots, sampling and log messages. They keep working (see deprecations.ts).
	 */
	get deprecatedFeatures(): readonly DeprecatedFeature[] {
		return this.deprecations.features(this.server.config.type === 'sse' || this.runningClient?.transportKind === 'sse');
	}

	/**
	 * The first listing of the running client while it is in flight, undefined once it ended (or before a start): a
	 * call waits for it to know the tool's `execution.taskSupport` (a task-only tool called without the task
	 * parameter is refused).
	 */
	get firstListing(): Promise<void> | undefined {
		return this.firstListingInFlight;
	}
	private firstListingInFlight: Promise<void> | undefined;

	/** The running client, if any. */
	get runningClient(): McpClient | undefined {
		return this.currentState.kind === 'running' ? this.client : undefined;
	}

	/** The cached tools (a 2026-07-28 server's list past its ttlMs is re-fetched now, in the background). */
	get tools(): readonly NamedTool[] {
		this.serveCached();
		this.refreshIfStale('tools');
		return this.toolList;
	}
	/**
	 * Names the tools it holds again (the servers' prefixes changed). A cached listing not read yet stays unread: it
	 * is named when it is read, so a window's first reconcile reads no listing file.
	 */
	renameTools(): void {
		if (this.toolList.length > 0)
			this.toolList = this.deps.nameTools(
				this.name,
				this.toolList.map((named) => named.tool),
			);
	}
	get resources(): readonly Resource[] {
		this.serveCached();
		this.refreshIfStale('resources');
		return this.resourceList;
	}
	get resourceTemplates(): readonly ResourceTemplate[] {
		this.serveCached();
		this.refreshIfStale('resourceTemplates');
		return this.templateList;
	}
	get prompts(): readonly Prompt[] {
		this.serveCached();
		this.refreshIfStale('prompts');
		return this.promptList;
	}

	/**
	 * Someone needs this list: when its server's `ttlMs` has passed, it is listed again in the background (the cached
	 * one is served meanwhile, and onDidChangeLists fires if the new one differs). Cheap when fresh.
	 */
	refreshIfStale(kind: ListKind): void {
		const until = this.freshness?.[kind];
		if (until === undefined || this.deps.clock.now() < until) return;
		const client = this.runningClient;
		if (!client) return;
		this.freshUntil[kind] = undefined; // one re-fetch at a time
		this.logger.debug(`The ${kind} list is older than the server's ttlMs; listing it again`);
		void this.fetchLists(client, this.generation, new Set<ListKind>([kind]), true);
	}

	private get logger(): Logger {
		return this.deps.host.logger(this.server.name);
	}

	/** Replaces the definition without restarting (same hash: only the source label or order changed). */
	update(server: ResolvedServer): void {
		const before = this.identityKey;
		this.server = server;
		this.currentHash = undefined;
		this.identityKey = undefined;
		this.summary = undefined;
		// A changed configuration is another server: what the old one listed is not what this one will.
		if (before !== undefined && before !== this.identity) this.deps.listingStore?.drop(before);
	}

	/**
	 * Starts the server unless it is running or starting. `explicit` (a user's Start/Restart, a config change)
	 * forgets earlier crashes. Resolves when this attempt ends: running, failed, or waiting for trust.
	 */
	start(explicit = true, askTrust = false): Promise<void> {
		if (this.disposed) return Promise.resolve();
		if (explicit) this.policy.reset();
		if (this.startPromise) return this.startPromise;
		if (this.currentState.kind === 'running') return Promise.resolve();
		this.cancelRetry();
		return this.launch(1, askTrust);
	}

	/** Stops the server (or an attempt in progress) and waits until its process or connection is gone. */
	async stop(
		finalState: ServerState = this.server.config.disabled ? { kind: 'disabled' } : { kind: 'stopped' },
	): Promise<void> {
		this.generation++;
		this.cancelRetry();
		this.refreshTimer?.dispose();
		this.refreshTimer = undefined;
		this.attemptAbort?.abort(McpError.connectionClosed(`Server '${this.name}' was stopped`));
		this.attemptAbort = undefined;
		const pending = this.inFlight;
		const client = this.detachClient();
		this.startPromise = undefined;
		this.setState(finalState);
		await Promise.all([client?.close().catch(() => undefined), pending?.catch(() => undefined)]);
	}

	/** Stops, then starts with a fresh crash count. `askTrust`: a user's Restart, which may show the trust question. */
	async restart(askTrust = false): Promise<void> {
		await this.stop({ kind: 'stopped' });
		await this.start(true, askTrust);
	}

	/** Re-fetches every list of the running server. */
	async refresh(): Promise<void> {
		const client = this.runningClient;
		if (client) await this.fetchLists(client, this.generation, new Set(ALL_LISTS));
	}

	async dispose(): Promise<void> {
		if (this.disposed) return;
		await this.stop({ kind: 'stopped' });
		this.disposed = true;
		this.clientStore.dispose();
		this.connectionStore.dispose();
		this.stateEmitter.dispose();
		this.listsEmitter.dispose();
		this.idleStop?.disarm();
	}

	private setState(state: ServerState): void {
		if (state.kind === 'error' || state.kind === 'needsSignIn') this.error = state.message;
		const waits = state.kind === 'stopped' && state.onDemand !== undefined;
		if (waits) this.cacheRead = false;
		if (waits) this.summary = undefined;
		else if (state.kind !== 'starting' && state.kind !== 'running' && this.cachedListedAt !== undefined)
			this.forgetLists();
		this.currentState = state;
		this.stateEmitter.fire(state);
		// The lists to show are now the cached ones (read when first asked for): whoever keeps a copy asks again.
		if (waits && this.deps.listingStore && !this.disposed) this.listsEmitter.fire();
	}

	private cancelRetry(): void {
		this.retryTimer?.dispose();
		this.retryTimer = undefined;
	}

	private launch(attempt: number, askTrust = false): Promise<void> {
		const promise = this.runAttempt(attempt, askTrust).finally(() => {
			if (this.startPromise === promise) this.startPromise = undefined;
		});
		this.startPromise = promise;
		return promise;
	}

	private async runAttempt(attempt: number, askTrust: boolean): Promise<void> {
		const generation = ++this.generation;
		const server = this.server;
		let config = server.config;

		if (server.workspaceDefined && this.deps.host.confirmTrust) {
			const refusal = await checkTrust(this.deps.host, server, askTrust, this.logger);
			if (generation !== this.generation) return;
			if (refusal) return this.setState(refusal);
		}

		// Variables are evaluated only now, after the trust check: an untrusted configuration asks for no input,
		// reads no envFile and expands no environment variable.
		if (server.resolve) {
			if (attempt === 1) this.setState({ kind: 'starting', attempt });
			try {
				config = await server.resolve();
			} catch (error) {
				if (generation !== this.generation) return;
				// Not a crash: a cancelled input or a missing value fails the same way on every retry, so no backoff.
				this.logger.error(errorMessage(error));
				this.setState({ kind: 'error', message: errorMessage(error) });
				return;
			}
			if (generation !== this.generation) return;
		}

		this.setState({ kind: 'starting', attempt });
		const abort = new AbortController();
		this.attemptAbort = abort;
		// Above Node's timer limit a timeout would fire at once: treat it as none (see common/timers.ts).
		const timeoutMs = effectiveTimeout(config.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
		const kindLimiter = this.deps.limiter(config.type);
		const connecting = kindLimiter.run(() => this.connectWithTimeout(config, timeoutMs, abort, askTrust), abort.signal);
		this.inFlight = connecting;
		let client: McpClient;
		try {
			client = await connecting;
		} catch (error) {
			if (generation !== this.generation) return;
			this.attemptAbort = undefined;
			this.inFlight = undefined;
			this.handleFailure(error, 0);
			return;
		}
		this.inFlight = undefined;
		if (generation !== this.generation) {
			// Stopped or restarted while connecting: this client belongs to nobody.
			await client.close().catch(() => undefined);
			return;
		}
		this.attemptAbort = undefined;
		this.attach(client, generation);
	}

	/** Runs the connector under the connect timeout (see connectAttempt.ts). */
	private connectWithTimeout(
		config: ServerConfig,
		timeoutMs: number,
		abort: AbortController,
		interactive: boolean,
	): Promise<McpClient> {
		const request = {
			name: this.name,
			config,
			handlers: hostHandlers(this.deps.host, this.name, (feature, what) => this.deprecations.note(feature, what)),
			logger: this.logger,
			interactive,
			inheritEnvironment: this.deps.inheritEnvironment(),
			noteClientRegistration: (kind: 'preregistered' | 'cimd' | 'dcr' | undefined) =>
				(this.deprecations.signedInThroughDcr = kind === 'dcr'),
		};
		return connectWithTimeout(this.deps.connector, this.deps.clock, request, timeoutMs, abort);
	}

	private attach(client: McpClient, generation: number): void {
		this.connectionStore.dispose();
		this.connectionStore = new DisposableStore();
		const store = this.connectionStore;
		this.client = client;
		this.startedAt = this.deps.clock.now();
		this.deprecations.newConnection();
		if (client.transportKind === 'sse')
			this.logger.info(
				`Connected over the HTTP+SSE transport, ${DEPRECATION_NOTES['HTTP+SSE transport']}. It keeps working.`,
			);
		this.deps.invalidateResources(this.name);
		store.add(
			client.onDidClose((error) => {
				if (generation === this.generation && this.client === client) this.handleClose(error);
			}),
		);
		store.add(client.onDidChangeTools(() => this.markDirty('tools', generation)));
		store.add(client.onDidChangePrompts(() => this.markDirty('prompts', generation)));
		store.add(
			client.onDidChangeResources(() => {
				this.deps.invalidateResources(this.name);
				this.markDirty('resources', generation);
				this.markDirty('resourceTemplates', generation);
			}),
		);
		store.add(
			client.onDidUpdateResource(({ uri }) => {
				this.deps.invalidateResources(this.name, uri);
				this.deps.onDidUpdateResource(this.name, uri);
			}),
		);
		store.add(
			client.onDidLog((message) => {
				this.deprecations.note('logging', 'The server sent log messages (notifications/message)');
				writeServerLog(this.logger, message);
			}),
		);
		store.add(
			client.onDidChangeDiscovery(() => {
				// server/discover, run again after its ttlMs, says something new: the row shows it, and the lists follow the
				// capabilities (one may have appeared or gone).
				if (generation !== this.generation || this.client !== client) return;
				this.setState({ kind: 'running', client });
				listenForCachedLists(client);
				for (const kind of ALL_LISTS) this.markDirty(kind, generation);
			}),
		);
		this.setState({ kind: 'running', client });
		this.idle.arm();

		const level = this.deps.host.loggingLevel?.(this.name);
		if (level && client.serverCapabilities?.logging) {
			client
				.setLoggingLevel(level)
				.catch((error: unknown) => this.logger.warn(`logging/setLevel ${level} failed: ${errorMessage(error)}`));
		}
		const first = this.fetchLists(client, generation, new Set(ALL_LISTS))
			.catch((error: unknown) => this.logger.warn(`Listing failed: ${errorMessage(error)}`))
			.finally(() => {
				if (this.firstListingInFlight === first) this.firstListingInFlight = undefined;
			});
		this.firstListingInFlight = first;
		listenForCachedLists(client);
		if (this.server.config.type !== 'stdio' && client.era !== 'modern') {
			const timer = this.deps.clock.setTimeout(() => {
				if (generation === this.generation && this.client === client)
					void this.fetchLists(client, generation, new Set(ALL_LISTS));
			}, REMOTE_RELIST_DELAY_MS);
			store.add(timer);
		}
	}

	private markDirty(kind: ListKind, generation: number): void {
		if (generation !== this.generation) return;
		this.dirty.add(kind);
		if (this.refreshTimer) return;
		this.refreshTimer = this.deps.clock.setTimeout(() => {
			this.refreshTimer = undefined;
			const client = this.runningClient;
			if (!client || generation !== this.generation) return;
			const kinds = new Set(this.dirty);
			this.dirty.clear();
			void this.fetchLists(client, generation, kinds);
		}, LIST_REFRESH_DEBOUNCE_MS);
	}

	/**
	 * Lists what the server advertises; a failed list is logged and leaves the old one in place. Listings overlap
	 * (the first one, the remote relist, a debounced list_changed): each carries a sequence number per kind, and a
	 * result older than the one already shown is dropped, so a slow old listing never overwrites a newer one.
	 */
	private async fetchLists(
		client: McpClient,
		generation: number,
		kinds: ReadonlySet<ListKind>,
		forFreshness = false,
	): Promise<void> {
		const {
			hints,
			tools: toolsResult,
			resources: resourcesResult,
			resourceTemplates: templatesResult,
			prompts: promptsResult,
		} = await listServer(client, kinds, this.listSequence, (kind, error) => {
			if (generation === this.generation) {
				this.logger.warn(`Listing ${kind} failed: ${errorMessage(error)}`);
				if (forFreshness) this.freshUntil[kind] = this.deps.clock.now() + FAILED_REFETCH_DELAY_MS;
			}
		});
		if (generation !== this.generation || this.client !== client) return;
		// Checked here, where results are applied (synchronously): a result older than the one shown is dropped.
		const fresh = <T>(kind: ListKind, result: NumberedList<T> | undefined): T[] | undefined =>
			newestOf(this.listSequence[kind], result, () =>
				this.logger.debug(`Dropped a ${kind} listing that finished after a newer one`),
			);
		// A re-fetch for freshness that found the same list changes nothing (the views would render, ask, and re-fetch).
		const differs = (kind: ListKind, items: readonly unknown[] | undefined, old: readonly unknown[]): boolean => {
			if (!items) return false;
			const ttl = client.era === 'modern' ? hints[kind]?.ttlMs : undefined;
			this.freshUntil[kind] = ttl === undefined ? undefined : this.deps.clock.now() + Math.max(ttl, MIN_LIST_AGE_MS);
			return !forFreshness || listChanged(items, old);
		};
		const tools = fresh('tools', toolsResult);
		const resources = fresh('resources', resourcesResult);
		const resourceTemplates = fresh('resourceTemplates', templatesResult);
		const prompts = fresh('prompts', promptsResult);
		let changed = false;
		const oldTools = this.toolList.map((named) => named.tool);
		if (tools && differs('tools', tools, oldTools)) {
			this.toolList = this.deps.nameTools(this.name, tools);
			changed = true;
		}
		if (differs('resources', resources, this.resourceList)) {
			this.resourceList = resources ?? [];
			changed = true;
		}
		if (differs('resourceTemplates', resourceTemplates, this.templateList)) {
			this.templateList = resourceTemplates ?? [];
			changed = true;
		}
		if (differs('prompts', prompts, this.promptList)) {
			this.promptList = prompts ?? [];
			changed = true;
		}
		if (changed || this.cachedListedAt !== undefined) {
			this.cachedListedAt = undefined;
			this.listsEmitter.fire();
		}
		if (changed || !forFreshness) this.keepListing(client);
	}

	private detachClient(): McpClient | undefined {
		const client = this.client;
		this.client = undefined;
		this.connectionStore.dispose();
		this.connectionStore = new DisposableStore();
		this.dirty.clear();
		this.idleStop?.disarm();
		this.deps.invalidateResources(this.name);
		this.freshness = undefined;
		this.forgetLists();
		return client;
	}

	/** Empties the lists (the server stopped, or the cached ones no longer apply). */
	private forgetLists(): void {
		this.cachedListedAt = undefined;
		const hadLists =
			this.toolList.length + this.resourceList.length + this.templateList.length + this.promptList.length > 0;
		if (hadLists) {
			this.toolList = this.deps.nameTools(this.name, []);
			this.resourceList = [];
			this.templateList = [];
			this.promptList = [];
			if (!this.disposed) this.listsEmitter.fire();
		}
	}

	/** The running connection closed without our asking. */
	private handleClose(error: Error): void {
		const ranForMs = this.deps.clock.now() - this.startedAt;
		const client = this.detachClient();
		void client?.close().catch(() => undefined);
		if (sessionExpired(error) && ranForMs >= SESSION_MIN_LIFETIME_MS) {
			// The Streamable HTTP session expired. It goes through the restart policy like a crash: the first in a row
			// starts a new session at once, quietly; a session that keeps expiring (a load balancer without sticky
			// sessions) gets the backoff and, in the end, the crash-loop cap.
			const decision = this.policy.recordCrash(this.deps.clock.now(), ranForMs);
			if (decision.restart && decision.attempt === 1) {
				this.logger.info(`Session expired; initializing a new session`);
				void this.launch(1);
				return;
			}
			this.logger.warn(`Session expired again: ${errorMessage(error)}`);
			this.applyDecision(decision, errorMessage(error));
			return;
		}
		// A session that expires right after it began is a broken server: a crash from the start.
		this.logger.warn(`Connection closed: ${errorMessage(error)}`);
		this.handleFailure(error, ranForMs);
	}

	/** A start failed or a running server died: decide between a delayed restart, an error, or a crash-loop stop. */
	private handleFailure(error: unknown, ranForMs: number): void {
		const message = failureMessage(error, this.server.notes);
		this.logger.error(message);
		const final = finalFailureState(error, this.server.config, message);
		if (final) return this.setState(final);
		this.applyDecision(
			this.policy.recordCrash(this.deps.clock.now(), ranForMs),
			message,
			ranForMs === 0 ? unreachableCause(error) : undefined,
		);
	}

	/** Carries out the restart policy's decision (see failureStates.ts): a delayed restart, or the crash-loop stop. */
	private applyDecision(decision: RestartDecision, message: string, unreachable?: UnreachableCause): void {
		this.setState(decisionState(this.name, decision, message, this.deps.clock.now(), unreachable));
		if (!decision.restart) return;
		const generation = this.generation;
		this.logger.info(`Restarting in ${decision.delayMs / 1000} s (attempt ${decision.attempt + 1})`);
		this.retryTimer = this.deps.clock.setTimeout(() => {
			this.retryTimer = undefined;
			if (generation !== this.generation || this.disposed) return;
			void this.launch(decision.attempt + 1);
		}, decision.delayMs);
	}
}
