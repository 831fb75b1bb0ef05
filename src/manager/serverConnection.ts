/**
 * One configured server: its state, the current client, cached lists, and the lifecycle around them —
 * trust check, a start slot from the per-kind limiter, a connect timeout, restart on crash with backoff and a
 * crash-loop cap, transparent re-initialisation of an expired HTTP session.
 */
import { createHash } from 'node:crypto';
import { Emitter } from '../common/event';
import { DisposableStore } from '../common/disposable';
import type { Logger } from '../common/logger';
import { effectiveTimeout } from '../common/timers';
import { ErrorCode } from '../protocol/jsonrpc';
import { isLocalFailure, McpError } from '../protocol/mcpError';
import { safeUrl } from '../protocol/transports/safeUrl';
import type { CacheHints, ClientHandlers, ListOptions, McpClient } from '../protocol/client';
import type { LoggingMessage, Prompt, Resource, ResourceTemplate, Tool } from '../protocol/schema';
import { MCP_LEVEL_TO_LOG } from './logLevels';
import { RestartPolicy, type Clock, type RestartDecision, type RestartPolicyOptions } from './backoff';
import { configHash } from './config';
import { describeAsWritten } from './trustText';
import { DEPRECATION_NOTES, type DeprecatedFeature } from './deprecations';
import type { Host } from './host';
import type { Limiter } from './limiter';
import type {
	ConfigSource,
	NamedTool,
	ResolvedServer,
	ServerConfig,
	ServerState,
	ServerView,
	SignInFailure,
} from './types';
import { plural } from '../common/text';
import { unreachableCause, type UnreachableCause } from './unreachable';
import { errorMessage } from '../common/errors';

/** What a connector gets: everything needed to open one connection to one server. */
export interface ConnectRequest {
	name: string;
	config: ServerConfig;
	handlers: ClientHandlers;
	logger: Logger;
	/** The connect timeout in ms (also given to the client as its initialize timeout). */
	timeoutMs: number;
	/** stdio: pass the whole environment (true) or only the default allow-list plus the configured variables (false). */
	inheritEnvironment: boolean;
	/**
	 * Aborts when the attempt is abandoned (timeout, stop, dispose). The connector must then close whatever it
	 * opened (kill the process, drop the socket) and reject.
	 */
	signal: AbortSignal;
	/**
	 * True when the user started this attempt (Start, Restart, a click): the host may show sign-in UI. False at
	 * start-up, on a settings change and for automatic restarts, when nothing may pop up by itself.
	 */
	interactive: boolean;
	/**
	 * Pauses the connect timeout while the user is involved (an OAuth browser step); call the returned function
	 * when done, which restarts the full timeout.
	 */
	holdTimeout(): () => void;
	/** How the server's OAuth client is registered, each time that is learned (see OAuthProviderOptions.onClientRegistration). */
	noteClientRegistration?(kind: 'preregistered' | 'cimd' | 'dcr' | undefined): void;
}

/** Opens a connection: spawns or dials the server and runs the MCP handshake. Rejects with an McpError. */
export type Connector = (request: ConnectRequest) => Promise<McpClient>;

/** Default time a server has to spawn and answer `initialize`, in ms. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** Delay before re-listing after a list_changed notification; bursts of notifications collapse into one list. */
export const LIST_REFRESH_DEBOUNCE_MS = 150;
/**
 * Remote servers are listed once more this long after start: a `tools/list_changed` sent right after
 * initialisation is lost on Streamable HTTP when no GET stream is open yet (server-everything does this).
 */
export const REMOTE_RELIST_DELAY_MS = 1500;

/**
 * A list a 2026-07-28 server gave a `ttlMs` of 0 ("immediately stale") is re-fetched when next asked for, but not
 * within this long of the last listing: the views ask on every render, and a listing that changed is rendered again.
 */
export const MIN_LIST_AGE_MS = 2000;
/** After a re-fetch for freshness failed, the old list is served ("Clients MAY serve stale responses if errors occur during re-fetching") this long before the next try. */
export const FAILED_REFETCH_DELAY_MS = 30_000;

/**
 * A session must have lived this long for its expiry to be re-initialized at once (when it is the first in a row)
 * rather than treated as a crash from the start.
 */
export const SESSION_MIN_LIFETIME_MS = 1000;

/** What a ServerConnection needs from its Manager. */
export interface ServerConnectionDeps {
	host: Host;
	connector: Connector;
	limiter(kind: ServerConfig['type']): Limiter;
	clock: Clock;
	policy?: RestartPolicyOptions;
	/** Names the tools of this server (the Manager's registry keeps them unique across servers). */
	nameTools(server: string, tools: readonly Tool[]): NamedTool[];
	/** Drops cached resource contents of the server (one URI, or all when `uri` is undefined). */
	invalidateResources(server: string, uri?: string): void;
	onDidUpdateResource(server: string, uri: string): void;
	/** Whether stdio servers get the whole environment (ManagerOptions.inheritEnvironment), read at each start. */
	inheritEnvironment(): boolean;
}

/** The lists a server connection caches. */
export type ListKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

/** Every list a server's cache holds, in the order they are fetched. */
const ALL_LISTS: readonly ListKind[] = ['tools', 'resources', 'resourceTemplates', 'prompts'];

/**
 * The hash that decides whether a reconcile restarts a server: the config plus its trust scope, and the trust text
 * when there is one (it also covers fields outside the config, such as `envFile`).
 */
export function serverHash(server: ResolvedServer): string {
	const trust =
		server.trustText === undefined ? '' : createHash('sha256').update(server.trustText).digest('hex').slice(0, 8);
	return `${configHash(server.config)}${server.workspaceDefined ? 'w' : 'u'}${trust}`;
}

/**
 * A 2026-07-28 server sends list changes only on a subscriptions/listen stream that asks for them: ask for each list
 * cached here that the server's capabilities offer (the client keeps the stream open and listens again after a drop
 * until it closes; older servers send list changes unasked and this does nothing).
 */
function listenForCachedLists(client: McpClient): void {
	const caps = client.serverCapabilities ?? {};
	client.listenForChanges({
		tools: caps.tools !== undefined,
		prompts: caps.prompts !== undefined,
		resources: caps.resources !== undefined,
	});
}

export class ServerConnection implements ServerView {
	private readonly stateEmitter = new Emitter<ServerState>();
	/** The state changed. */
	readonly onDidChangeState = this.stateEmitter.event;
	private readonly listsEmitter = new Emitter<void>();
	/** Cached tools, resources, templates or prompts changed. */
	readonly onDidChangeLists = this.listsEmitter.event;

	private server: ResolvedServer;
	private currentHash: string;
	private currentState: ServerState = { kind: 'stopped' };
	private error: string | undefined;
	private readonly policy: RestartPolicy;

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
	private readonly listSequence: Record<ListKind, { started: number; applied: number }> = {
		tools: { started: 0, applied: 0 },
		resources: { started: 0, applied: 0 },
		resourceTemplates: { started: 0, applied: 0 },
		prompts: { started: 0, applied: 0 },
	};
	/**
	 * Per list kind, until when the list is fresh by its server's `ttlMs` (2026-07-28); undefined: no time limit (an
	 * older server, or no ttlMs: the list changes on list_changed only). Once passed, the list is re-fetched the next
	 * time it is asked for, not before ("Clients SHOULD NOT treat TTL as a polling interval").
	 * Spec: https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching
	 */
	private readonly freshUntil: Record<ListKind, number | undefined> = {
		tools: undefined,
		resources: undefined,
		resourceTemplates: undefined,
		prompts: undefined,
	};
	private startedAt = 0;
	private disposed = false;
	/** Deprecated features the server used on this connection (roots, sampling, logging), in the order first seen. */
	private readonly usedDeprecated = new Set<DeprecatedFeature>();
	/** The OAuth client of this server was registered through Dynamic Client Registration (kept across connections). */
	private signedInThroughDcr = false;

	private toolList: readonly NamedTool[] = [];
	private resourceList: readonly Resource[] = [];
	private templateList: readonly ResourceTemplate[] = [];
	private promptList: readonly Prompt[] = [];

	constructor(
		server: ResolvedServer,
		private readonly deps: ServerConnectionDeps,
	) {
		this.server = server;
		this.currentHash = serverHash(server);
		this.policy = new RestartPolicy(deps.policy);
		if (server.config.disabled) this.currentState = { kind: 'disabled' };
	}

	get name(): string {
		return this.server.name;
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
		return this.currentHash;
	}
	get definition(): ResolvedServer {
		return this.server;
	}
	/**
	 * Deprecated features this server uses: the HTTP+SSE transport (configured, or fallen back to), and on the current
	 * connection roots, sampling and log messages. They keep working (see deprecations.ts).
	 */
	get deprecatedFeatures(): readonly DeprecatedFeature[] {
		const features: DeprecatedFeature[] = [];
		if (this.server.config.type === 'sse' || this.runningClient?.transportKind === 'sse')
			features.push('HTTP+SSE transport');
		for (const feature of this.usedDeprecated) features.push(feature);
		if (this.signedInThroughDcr) features.push('Dynamic Client Registration');
		return features;
	}

	/**
	 * Notes a deprecated feature in use. A 2026-07-28 server gets a deprecation note in its log (sampling at every
	 * request, as each one asks the user; the others once per connection); an older one, whose revision still has the
	 * feature, a debug line once.
	 */
	private noteDeprecated(feature: DeprecatedFeature, what: string): void {
		const first = !this.usedDeprecated.has(feature);
		this.usedDeprecated.add(feature);
		const modern = this.client?.era === 'modern';
		if (modern && (first || feature === 'sampling')) {
			this.logger.info(`${what}: ${feature} is ${DEPRECATION_NOTES[feature]}. It keeps working.`);
		} else if (first) {
			this.logger.debug(`${what} (${feature} is ${DEPRECATION_NOTES[feature]})`);
		}
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
		this.refreshIfStale('tools');
		return this.toolList;
	}
	set tools(tools: readonly NamedTool[]) {
		this.toolList = tools;
	}
	get resources(): readonly Resource[] {
		this.refreshIfStale('resources');
		return this.resourceList;
	}
	get resourceTemplates(): readonly ResourceTemplate[] {
		this.refreshIfStale('resourceTemplates');
		return this.templateList;
	}
	get prompts(): readonly Prompt[] {
		this.refreshIfStale('prompts');
		return this.promptList;
	}

	/**
	 * Someone needs this list: when its server's `ttlMs` has passed, it is listed again in the background (the cached
	 * one is served meanwhile, and onDidChangeLists fires if the new one differs). Cheap when fresh.
	 */
	refreshIfStale(kind: ListKind): void {
		const until = this.freshUntil[kind];
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
		this.server = server;
		this.currentHash = serverHash(server);
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
	}

	private setState(state: ServerState): void {
		if (state.kind === 'error' || state.kind === 'needsSignIn') this.error = state.message;
		this.currentState = state;
		this.stateEmitter.fire(state);
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
			let allowed = false;
			try {
				allowed = await this.deps.host.confirmTrust(server.name, server.trustText ?? describeAsWritten(config), {
					ask: askTrust,
				});
			} catch (error) {
				this.logger.warn(`Trust check failed: ${errorMessage(error)}`);
			}
			if (generation !== this.generation) return;
			if (!allowed) {
				this.setState({
					kind: 'needsTrust',
					refused: askTrust,
					reason: askTrust
						? `Server '${server.name}' is defined by the workspace (${server.source.label}) and was not allowed to run. Start it again to be asked again, or run "MCP Switchboard: Reset Server Trust Decisions".`
						: `Server '${server.name}' is defined by the workspace (${server.source.label}) and needs your permission to run: Start it to see what it runs and decide.`,
				});
				return;
			}
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

	/** Runs the connector, abandoning it (and making it close what it opened) after `timeoutMs`. */
	private connectWithTimeout(
		config: ServerConfig,
		timeoutMs: number,
		abort: AbortController,
		interactive: boolean,
	): Promise<McpClient> {
		return new Promise<McpClient>((resolve, reject) => {
			let settled = false;
			const onTimeout = () => {
				if (settled) return;
				settled = true;
				const what = config.type === 'stdio' ? `'${config.command}'` : safeUrl(config.url);
				const error = new McpError(
					ErrorCode.RequestTimeout,
					`Server '${this.name}' did not finish starting within ${Math.round(timeoutMs / 100) / 10} s (${what} gave no answer to initialize). Check that it is an MCP server, or raise "timeoutMs" in its configuration.`,
					{ timeoutMs },
				);
				abort.abort(error);
				reject(error);
			};
			let timer: { dispose(): void } = this.deps.clock.setTimeout(onTimeout, timeoutMs);
			let holds = 0;
			const holdTimeout = () => {
				if (holds++ === 0) timer.dispose();
				let released = false;
				return () => {
					if (released) return;
					released = true;
					if (--holds === 0 && !settled) timer = this.deps.clock.setTimeout(onTimeout, timeoutMs);
				};
			};
			const onAbort = () => {
				if (settled) return;
				settled = true;
				timer.dispose();
				reject(abort.signal.reason);
			};
			abort.signal.addEventListener('abort', onAbort, { once: true });
			const handlers = this.handlers();
			this.deps
				.connector({
					name: this.name,
					config,
					handlers,
					logger: this.logger,
					timeoutMs,
					signal: abort.signal,
					holdTimeout,
					interactive,
					inheritEnvironment: this.deps.inheritEnvironment(),
					noteClientRegistration: (kind) => (this.signedInThroughDcr = kind === 'dcr'),
				})
				.then(
					(client) => {
						abort.signal.removeEventListener('abort', onAbort);
						if (settled) {
							void client.close().catch(() => undefined);
							return;
						}
						settled = true;
						timer.dispose();
						resolve(client);
					},
					(error: unknown) => {
						abort.signal.removeEventListener('abort', onAbort);
						if (settled) return;
						settled = true;
						timer.dispose();
						reject(error);
					},
				);
		});
	}

	/** Host features offered to the server, bound to its name; a feature the host lacks is not advertised. */
	private handlers(): ClientHandlers {
		const host = this.deps.host;
		const name = this.name;
		const handlers: ClientHandlers = {};
		if (host.roots) {
			handlers.roots = () => {
				this.noteDeprecated('roots', 'The server asked for the roots');
				return [...host.roots!()];
			};
		}
		if (host.elicit) {
			handlers.elicitation = (params, signal) => host.elicit!(name, params, signal);
			handlers.elicitationUrl = host.elicitUrl !== false;
		}
		if (host.sample) {
			handlers.sampling = (params, signal) => {
				this.noteDeprecated('sampling', 'The server asked for a model completion (sampling)');
				return host.sample!(name, params, signal);
			};
			handlers.samplingTools = host.sampleTools !== false;
		}
		// The server may run our elicitation and sampling as tasks (MCP 2025-11-25): it polls them, the user answers meanwhile.
		if (host.elicit || host.sample) handlers.tasks = true;
		const extensions = host.extensions?.();
		if (extensions) handlers.extensions = extensions;
		return handlers;
	}

	private attach(client: McpClient, generation: number): void {
		this.connectionStore.dispose();
		this.connectionStore = new DisposableStore();
		const store = this.connectionStore;
		this.client = client;
		this.startedAt = this.deps.clock.now();
		this.usedDeprecated.clear();
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
		store.add(client.onDidLog((message) => this.writeLog(message)));
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

	private writeLog(message: LoggingMessage): void {
		this.noteDeprecated('logging', 'The server sent log messages (notifications/message)');
		const text = typeof message.data === 'string' ? message.data : JSON.stringify(message.data);
		const line = message.logger ? `[${message.logger}] ${text}` : text;
		this.logger[MCP_LEVEL_TO_LOG[message.level] ?? 'info'](line);
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
		const caps = client.serverCapabilities ?? {};
		const hints: Partial<Record<ListKind, CacheHints>> = {};
		const get = async <T>(
			kind: ListKind,
			enabled: unknown,
			list: (options: ListOptions) => Promise<T[]>,
		): Promise<{ items: T[]; number: number } | undefined> => {
			if (!kinds.has(kind)) return undefined;
			const number = ++this.listSequence[kind].started;
			// A capability the server no longer advertises (server/discover answered without it) empties its list: keeping
			// the old one would offer tools the server has withdrawn.
			if (!enabled) return { items: [], number };
			try {
				return { items: await list({ onCacheHints: (h) => (hints[kind] = h) }), number };
			} catch (error) {
				if (generation === this.generation) {
					this.logger.warn(`Listing ${kind} failed: ${errorMessage(error)}`);
					if (forFreshness) this.freshUntil[kind] = this.deps.clock.now() + FAILED_REFETCH_DELAY_MS;
				}
				return undefined;
			}
		};
		const [toolsResult, resourcesResult, templatesResult, promptsResult] = await Promise.all([
			get('tools', caps.tools, (options) => client.listTools(options)),
			get('resources', caps.resources, (options) => client.listResources(options)),
			get('resourceTemplates', caps.resources, (options) => client.listResourceTemplates(options)),
			get('prompts', caps.prompts, (options) => client.listPrompts(options)),
		]);
		if (generation !== this.generation || this.client !== client) return;
		// Checked here, where results are applied (synchronously): a result older than the one shown is dropped.
		const fresh = <T>(kind: ListKind, result: { items: T[]; number: number } | undefined): T[] | undefined => {
			if (!result) return undefined;
			const sequence = this.listSequence[kind];
			if (result.number < sequence.applied) {
				this.logger.debug(`Dropped a ${kind} listing that finished after a newer one`);
				return undefined;
			}
			sequence.applied = result.number;
			return result.items;
		};
		// A re-fetch for freshness that found the same list changes nothing (the views would render, ask, and re-fetch).
		const differs = (kind: ListKind, items: readonly unknown[] | undefined, old: readonly unknown[]): boolean => {
			if (!items) return false;
			const now = this.deps.clock.now();
			const ttl = client.era === 'modern' ? hints[kind]?.ttlMs : undefined;
			this.freshUntil[kind] = ttl === undefined ? undefined : now + Math.max(ttl, MIN_LIST_AGE_MS);
			return !forFreshness || items.length !== old.length || JSON.stringify(items) !== JSON.stringify(old);
		};
		const tools = fresh('tools', toolsResult);
		const resources = fresh('resources', resourcesResult);
		const resourceTemplates = fresh('resourceTemplates', templatesResult);
		const prompts = fresh('prompts', promptsResult);
		let changed = false;
		if (
			tools &&
			differs(
				'tools',
				tools,
				this.toolList.map((named) => named.tool),
			)
		) {
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
		if (changed) this.listsEmitter.fire();
	}

	private detachClient(): McpClient | undefined {
		const client = this.client;
		this.client = undefined;
		this.connectionStore.dispose();
		this.connectionStore = new DisposableStore();
		this.dirty.clear();
		this.deps.invalidateResources(this.name);
		for (const kind of Object.keys(this.freshUntil) as ListKind[]) this.freshUntil[kind] = undefined;
		const hadLists =
			this.toolList.length + this.resourceList.length + this.templateList.length + this.promptList.length > 0;
		if (hadLists) {
			this.toolList = this.deps.nameTools(this.name, []);
			this.resourceList = [];
			this.templateList = [];
			this.promptList = [];
			if (!this.disposed) this.listsEmitter.fire();
		}
		return client;
	}

	/** The running connection closed without our asking. */
	private handleClose(error: Error): void {
		const ranForMs = this.deps.clock.now() - this.startedAt;
		const client = this.detachClient();
		void client?.close().catch(() => undefined);
		const expired =
			error instanceof McpError && (error.data as { sessionExpired?: unknown } | undefined)?.sessionExpired === true;
		if (expired && ranForMs >= SESSION_MIN_LIFETIME_MS) {
			// The Streamable HTTP session expired (the server answered 404 to our session id). It goes through the restart
			// policy like a crash: the first in a row starts a new session at once, quietly; a session that keeps expiring
			// (a load balancer without sticky sessions) gets the backoff and, in the end, the crash-loop cap.
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
		// "connection refused" alone hides that the URL's port came from an unset environment variable.
		const notes = this.server.notes ?? [];
		const message = notes.length > 0 ? `${errorMessage(error)}\n${notes.join('\n')}` : errorMessage(error);
		this.logger.error(message);
		if (signInRequired(error)) {
			this.setState({ kind: 'needsSignIn', message });
			return;
		}
		if (!isRetryable(error, this.server.config)) {
			const signIn = signInFailure(error);
			this.setState(signIn ? { kind: 'error', message, signIn } : { kind: 'error', message });
			return;
		}
		this.applyDecision(
			this.policy.recordCrash(this.deps.clock.now(), ranForMs),
			message,
			ranForMs === 0 ? unreachableCause(error) : undefined,
		);
	}

	/**
	 * Carries out the restart policy's decision: a delayed restart, or the crash-loop stop. `unreachable`: the start
	 * could not connect at all, which the state and its words say instead of a crash.
	 */
	private applyDecision(decision: RestartDecision, message: string, unreachable?: UnreachableCause): void {
		const now = this.deps.clock.now();
		const cause = unreachable ? { unreachable } : {};
		if (!decision.restart) {
			const what = unreachable ? 'could not be reached' : 'stopped';
			const again = unreachable ? 'tried' : 'restarted';
			this.setState({
				kind: 'error',
				crashLoop: true,
				...cause,
				// One allowed attempt (the command line's policy) stopped: the crash itself is the whole story.
				message:
					decision.crashes <= 1
						? message
						: `Server '${this.name}' ${what} ${plural(decision.crashes, 'time')} within ${plural(Math.max(1, Math.round(decision.windowMs / 60_000)), 'minute')}, so it is not ${again} again. Last error: ${message}`,
			});
			return;
		}
		const generation = this.generation;
		this.setState({ kind: 'error', message, retryAt: now + decision.delayMs, ...cause });
		this.logger.info(`Restarting in ${decision.delayMs / 1000} s (attempt ${decision.attempt + 1})`);
		this.retryTimer = this.deps.clock.setTimeout(() => {
			this.retryTimer = undefined;
			if (generation !== this.generation || this.disposed) return;
			void this.launch(decision.attempt + 1);
		}, decision.delayMs);
	}
}

/** Whether `error` is the OAuth client's "the sign-in waits for the user" (not a failure). */
function signInRequired(error: unknown): boolean {
	if (!isLocalFailure(error, 'unauthorized')) return false;
	return (error.data as { signInRequired?: unknown } | undefined)?.signInRequired === true;
}

/** The OAuth step that failed and why, when `error` is the OAuth client's (its McpError data names both). */
function signInFailure(error: unknown): SignInFailure | undefined {
	if (!isLocalFailure(error, 'unauthorized')) return undefined;
	const data = error.data as { step?: unknown; reason?: unknown } | undefined;
	return typeof data?.step === 'string' && typeof data.reason === 'string'
		? { step: data.step, reason: data.reason }
		: undefined;
}

/**
 * Whether trying again can help. A command that cannot be spawned (not found, not executable) or a refused
 * authorization fails the same way every time: show the error instead of looping.
 */
function isRetryable(error: unknown, config: ServerConfig): boolean {
	if (!(error instanceof McpError)) return true;
	if (error.local === 'unauthorized') return false;
	if (error.local === 'transport' && config.type === 'stdio') return false;
	return true;
}
