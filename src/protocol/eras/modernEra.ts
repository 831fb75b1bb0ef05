/**
 * The era without a handshake, 2026-07-28: `server/discover` tells the server's versions, capabilities and identity;
 * every request carries version, client capabilities, client info and the log level in its `_meta`; the server asks
 * for input inside results (input_required); change notifications come on a `subscriptions/listen` stream; tool tasks
 * are the tasks extension, at the server's choice. Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
 */
import { errorMessage } from '../../common/errors';
import { MIN_DISCOVER_AGE_MS, DEFAULT_CLIENT_INFO } from '../clientOptions';
import { systemClock, type Clock, type RequestOptions } from '../connectionOptions';
import { ErrorCode } from '../jsonrpc';
import { McpError } from '../mcpError';
import { cacheHintsOf } from '../modern/caching';
import {
	buildRequestMeta,
	explainModernError,
	ModernErrorCode,
	pickCommonVersion,
	serverInfoOf,
	supportedVersionsOf,
	withRequestMeta,
} from '../modern/requestMeta';
import { ListenStream, type ListenLists } from '../modern/subscriptions';
import { MODERN_PROTOCOL_VERSIONS } from '../protocolConstants';
import { ensureComplete, parseResult } from '../resultChecks';
import type { ClientCapabilities, LoggingLevel } from '../schema';
import { TASKS_EXTENSION } from '../tasks/extensionTask';
import { sharedCapabilities } from './capabilities';
import type { ClientEra, EraContext } from './era';
import type { DiscoverResult } from './negotiation';

/** The modern era of one connection. */
export class ModernEra implements ClientEra {
	readonly kind = 'modern';
	readonly tasksExtension = true;

	/** The `_meta` every request carries (rebuilt when the version or the log level changes). */
	private requestMeta: Record<string, unknown> = {};
	/** The level sent as `io.modelcontextprotocol/logLevel`; none means the server sends no log messages. */
	private logLevel: LoggingLevel | undefined;
	/** The version last given to the transport (for its MCP-Protocol-Version header). */
	private transportVersion: string | undefined;
	/** The `subscriptions/listen` stream, made on first use. */
	private listenStream: ListenStream | undefined;
	/** When `server/discover` stops being fresh (clock ms; Infinity without a ttlMs), see refreshDiscoveryIfStale. */
	private discoveryStaleAt = Infinity;
	private rediscovering = false;

	/** `allowed`: the modern versions this connection may use, newest first (one when pinned). */
	constructor(
		private readonly context: EraContext,
		readonly allowed: readonly string[] = MODERN_PROTOCOL_VERSIONS,
	) {}

	/** Capabilities for every request's `_meta`: roots without list changes (removed), and the tasks extension. */
	capabilities(): ClientCapabilities {
		// "The client includes io.modelcontextprotocol/tasks in its per-request capabilities": callTool follows any
		// task the server returns. https://github.com/modelcontextprotocol/ext-tasks/blob/main/specification/draft/tasks.md
		return sharedCapabilities(this.context.handlers, {}, { [TASKS_EXTENSION]: {} });
	}

	/** Sets the version: the `_meta` every request carries and, over HTTP, the MCP-Protocol-Version header. */
	useVersion(version: string): void {
		const { facts, options, transport } = this.context;
		facts.protocolVersion = version;
		this.requestMeta = buildRequestMeta({
			protocolVersion: version,
			clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
			clientCapabilities: this.capabilities(),
			logLevel: this.logLevel,
		});
		if (this.transportVersion !== version) {
			this.transportVersion = version;
			transport.setProtocolVersion?.(version);
		}
	}

	/** Takes back the version given to the transport: the probe found a legacy server. */
	forgetVersion(): void {
		this.transportVersion = undefined;
		this.context.transport.setProtocolVersion?.(undefined);
	}

	/** One `server/discover` with the current version's `_meta` (the probe, ping, a refresh). */
	discover(options?: RequestOptions): Promise<Record<string, unknown>> {
		return this.context.connection.request('server/discover', withRequestMeta(undefined, this.requestMeta), options);
	}

	/** Takes a modern server's `server/discover` answer: version, capabilities, identity, instructions. */
	adoptDiscover(raw: Record<string, unknown>, result: DiscoverResult, version: string): void {
		const { facts, logger, name } = this.context;
		facts.supportedVersions = result.supportedVersions;
		facts.serverCapabilities = result.capabilities;
		facts.serverInfo = serverInfoOf(raw) ?? { name, version: '' };
		facts.instructions = result.instructions;
		facts.discoverCacheHints = cacheHintsOf(raw);
		this.discoveryStaleAt = this.discoveryFreshUntil();
		this.useVersion(version);
		logger.info(
			`${name}: connected to ${facts.serverInfo.name} ${facts.serverInfo.version} (protocol ${version}, per-request metadata, no handshake)`,
		);
	}

	/**
	 * One request with the request metadata in `_meta`; an UnsupportedProtocolVersion answer is retried once with a
	 * version both sides speak ("The client SHOULD select a mutually supported version from the supported list and
	 * retry the request"), and a reply stream that broke before its answer is re-issued once with a new id ("clients
	 * MUST re-issue it as a new request with a new request ID"). The server's identity is taken from each result's
	 * `_meta`.
	 */
	async send(
		method: string,
		params: Record<string, unknown> | undefined,
		options: RequestOptions | undefined,
	): Promise<Record<string, unknown>> {
		const { connection, facts, logger, name } = this.context;
		if (this.discoveryStaleAt !== Infinity) this.refreshDiscoveryIfStale();
		for (let attempt = 0; ; attempt++) {
			const version = facts.protocolVersion;
			try {
				const raw = await connection.request(method, withRequestMeta(params, this.requestMeta), options);
				if (raw._meta !== undefined) {
					this.noteServerInfo(raw);
				}
				return raw;
			} catch (error) {
				if (error instanceof McpError && error.code === ModernErrorCode.UnsupportedProtocolVersion) {
					const supported = supportedVersionsOf(error);
					const common = pickCommonVersion(supported, this.allowed);
					if (common !== undefined && attempt === 0) {
						logger.warn(
							`${name}: ${method} was refused with protocol version ${version} (the server supports ${supported.join(', ')}); retrying with ${common}`,
						);
						this.useVersion(common);
						continue;
					}
					throw new McpError(
						error.code,
						`${name} refused ${method} with protocol version ${version}${attempt > 0 ? ' again' : ''}: it says it supports ${supported.join(', ') || 'nothing it named'}, although server/discover listed ${facts.supportedVersions?.join(', ') ?? '?'}; restart the server to negotiate again`,
						error.data,
					);
				}
				if (attempt === 0 && error instanceof McpError) {
					if ((error.data as { streamBroken?: unknown } | undefined)?.streamBroken === true) {
						logger.warn(`${name}: ${error.message}; sending ${method} again with a new request id`);
						continue;
					}
				}
				throw explainModernError(name, error, method);
			}
		}
	}

	/**
	 * 2026-07-28 has no resources/subscribe: adds the URI to the `subscriptions/listen` filter and resolves once the
	 * server acknowledged a listen including it; rejects with CapabilityMissing when the acknowledgment leaves it out.
	 */
	subscribe(uri: string, _options: RequestOptions | undefined): Promise<void> {
		return this.listener().subscribe(uri);
	}

	/** The URI leaves the `subscriptions/listen` filter. */
	unsubscribe(uri: string, _options: RequestOptions | undefined): Promise<void> {
		this.listenStream?.unsubscribe(uri);
		return Promise.resolve();
	}

	/**
	 * Modern servers send list changes only on a `subscriptions/listen` stream that asked for them: this opens,
	 * changes or (all false) ends that stream, and keeps it open, listening again after a drop with a backoff.
	 */
	listenForChanges(lists: ListenLists): void {
		if (this.context.connection.isClosed) return;
		this.listener().want(lists);
	}

	/** Status of live extension tasks is pushed on subscriptions/listen when the server agrees (polled regardless). */
	watchTasks(taskIds: readonly string[]): void {
		if (!this.context.connection.isClosed && (taskIds.length > 0 || this.listenStream))
			this.listener().watchTasks(taskIds);
	}

	/** 2026-07-28 removed `logging/setLevel`: the level goes into every later request's `_meta`; nothing is sent now. */
	setLoggingLevel(level: LoggingLevel, _options: RequestOptions | undefined): Promise<void> {
		this.logLevel = level;
		this.useVersion(this.context.facts.protocolVersion);
		return Promise.resolve();
	}

	/** 2026-07-28 removed `ping`: `server/discover` stands in. */
	async ping(options: RequestOptions | undefined): Promise<void> {
		await this.send('server/discover', undefined, options);
	}

	/** A modern server asks for roots inside each request (2026-07-28 removed the notification): nothing to send. */
	notifyRootsChanged(): Promise<void> {
		return Promise.resolve();
	}

	/**
	 * Runs `server/discover` again, in the background, when its answer is past its `ttlMs` and a request needs the
	 * server ("Once the TTL expires, the response is stale and the client SHOULD re-fetch on next access"; "Clients
	 * SHOULD NOT treat TTL as a polling interval", https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching).
	 * The request goes on with what is known ("Clients MAY serve stale responses"); new capabilities, instructions or
	 * server identity fire onDidChangeDiscovery. A ttlMs of 0 re-runs it at most every MIN_DISCOVER_AGE_MS; none, never.
	 */
	refreshDiscoveryIfStale(): void {
		const { connection, logger, name, facts } = this.context;
		if (this.rediscovering || connection.isClosed || this.clock.now() < this.discoveryStaleAt) return;
		this.rediscovering = true;
		logger.debug(`${name}: server/discover is older than its ttlMs; discovering again`);
		this.discover()
			.then((raw) => this.adoptRediscover(ensureComplete(name, 'server/discover', raw)))
			.catch((error: unknown) => {
				if (connection.isClosed) return;
				// What is known stays in use; asked again after the same delay instead of on every request.
				this.discoveryStaleAt = this.clock.now() + Math.max(facts.discoverCacheHints.ttlMs ?? 0, MIN_DISCOVER_AGE_MS);
				logger.warn(
					`${name}: server/discover (run again after its ttlMs) failed: ${errorMessage(error)}; keeping what the server said before`,
				);
			})
			.finally(() => (this.rediscovering = false));
	}

	/** "The server MUST NOT write JSON-RPC requests": a 2026-07-28 server asks inside results (input_required). */
	checkServerRequest(method: string): void {
		const { logger, name, facts } = this.context;
		logger.warn(
			`${name}: the server sent a ${method} request, which a ${facts.protocolVersion} server may not send (it mixes protocol versions); refused`,
		);
		throw new McpError(
			ErrorCode.InvalidRequest,
			`${method} requests are not part of protocol ${facts.protocolVersion}; use input_required results`,
		);
	}

	/** A change notification tagged with the id of a listen this client cancelled (a replaced filter) is a duplicate. */
	acceptsNotification(params: Record<string, unknown> | undefined): boolean {
		return this.listenStream === undefined || this.listenStream.accepts(params);
	}

	acknowledged(params: Record<string, unknown> | undefined): void {
		this.listenStream?.acknowledged(params);
	}

	close(): void {
		this.listenStream?.close();
	}

	private listener(): ListenStream {
		if (!this.listenStream) {
			const { connection, options, logger, name } = this.context;
			const listen = options.listen;
			this.listenStream = new ListenStream({
				name,
				logger,
				clock: listen?.clock ?? options.clock ?? systemClock,
				request: (params, requestOptions) =>
					connection.request('subscriptions/listen', withRequestMeta(params, this.requestMeta), requestOptions),
				isClosed: () => connection.isClosed,
				ackTimeoutMs: listen?.ackTimeoutMs ?? options.timeoutMs,
				initialDelayMs: listen?.retryDelayMs,
				maxDelayMs: listen?.maxRetryDelayMs,
			});
		}
		return this.listenStream;
	}

	private noteServerInfo(raw: Record<string, unknown>): void {
		const info = serverInfoOf(raw);
		const facts = this.context.facts;
		if (info && (info.name !== facts.serverInfo.name || info.version !== facts.serverInfo.version)) {
			facts.serverInfo = info;
		}
	}

	private get clock(): Clock {
		return this.context.options.clock ?? systemClock;
	}

	private discoveryFreshUntil(): number {
		const ttl = this.context.facts.discoverCacheHints.ttlMs;
		return ttl === undefined ? Infinity : this.clock.now() + Math.max(ttl, MIN_DISCOVER_AGE_MS);
	}

	/** A later `server/discover` answer: capabilities, instructions, identity and hints replaced; the version kept if still listed. */
	private adoptRediscover(raw: Record<string, unknown>): void {
		const { facts, logger, name } = this.context;
		const result = parseResult(name, 'DiscoverResultSchema', raw, 'server/discover');
		const before = JSON.stringify([facts.serverCapabilities, facts.instructions, facts.serverInfo]);
		if (!result.supportedVersions.includes(facts.protocolVersion)) {
			const common = pickCommonVersion(result.supportedVersions, this.allowed);
			if (common === undefined) {
				logger.warn(
					`${name}: server/discover now lists ${result.supportedVersions.join(', ') || '(none)'}, none of which this client speaks; restart the server to negotiate again`,
				);
			} else {
				logger.info(`${name}: server/discover now lists ${result.supportedVersions.join(', ')}; using ${common}`);
				this.useVersion(common);
			}
		}
		facts.supportedVersions = result.supportedVersions;
		facts.serverCapabilities = result.capabilities;
		facts.serverInfo = serverInfoOf(raw) ?? facts.serverInfo;
		facts.instructions = result.instructions;
		facts.discoverCacheHints = cacheHintsOf(raw);
		this.discoveryStaleAt = this.discoveryFreshUntil();
		if (JSON.stringify([facts.serverCapabilities, facts.instructions, facts.serverInfo]) !== before) {
			logger.info(
				`${name}: server/discover answered differently after its ttlMs (capabilities, instructions or identity changed)`,
			);
			this.context.discoveryChanged();
		}
	}
}
