/**
 * A protocol era as one object: how requests are built and sent, and what each feature that differs between the
 * eras does there. McpClient holds the era its negotiation chose and asks it; it never branches on the era itself.
 * - `LegacyEra` (legacyEra.ts): 2024-11-05 .. 2025-11-25, the `initialize` handshake, server requests mid-call.
 * - `ModernEra` (modernEra.ts): 2026-07-28, `server/discover` and per-request `_meta`, input inside results.
 * Which one a connection uses is decided in negotiation.ts (pure) and negotiate.ts (the I/O).
 */
import type { Logger } from '../../common/logger';
import type { ClientHandlers, ClientOptions, ProtocolEra } from '../clientOptions';
import type { JsonRpcConnection } from '../connection';
import type { RequestOptions } from '../connectionOptions';
import type { CacheHints } from '../modern/caching';
import type { ListenLists } from '../modern/subscriptions';
import type { Implementation, LoggingLevel, ServerCapabilities } from '../schema';
import type { Transport } from '../transports/transport';

/** What the server said about itself; the client shows these, its era keeps them current. */
export interface ServerFacts {
	serverInfo: Implementation;
	serverCapabilities: ServerCapabilities;
	protocolVersion: string;
	instructions: string | undefined;
	/** The versions a modern server listed in `server/discover`; undefined for a legacy server. */
	supportedVersions: readonly string[] | undefined;
	/** The caching hints of the last `server/discover` answer. */
	discoverCacheHints: CacheHints;
}

/** What an era needs from the client that holds it. */
export interface EraContext {
	readonly name: string;
	readonly logger: Logger;
	readonly connection: JsonRpcConnection;
	readonly transport: Transport;
	readonly options: ClientOptions;
	readonly handlers: ClientHandlers;
	/** Kept by the client, written by the era (negotiation, a later `server/discover`, a result's server info). */
	readonly facts: ServerFacts;
	/** True when the client serves the tasks the server starts on it (legacy capabilities name them). */
	readonly servesTasks: boolean;
	/** The server's capabilities, instructions or identity changed after a later `server/discover`. */
	discoveryChanged(): void;
}

/** One protocol era: the only place the client's behaviour differs by era. */
export interface ClientEra {
	readonly kind: ProtocolEra;
	/**
	 * True when tool tasks are the 2026-07-28 tasks extension: the server decides per call whether a tools/call runs as
	 * a task (`resultType: "task"`), `tasks/cancel` is only acknowledged, and no task is asked for. False: 2025-11-25
	 * task-augmented requests, asked for by the client when the server advertises them.
	 */
	readonly tasksExtension: boolean;
	/**
	 * Sends one request as this era builds it and resolves with the raw result (`resultType` is the caller's to check).
	 */
	send(
		method: string,
		params: Record<string, unknown> | undefined,
		options: RequestOptions | undefined,
	): Promise<Record<string, unknown>>;
	/** Asks for `notifications/resources/updated` of `uri`. */
	subscribe(uri: string, options: RequestOptions | undefined): Promise<void>;
	unsubscribe(uri: string, options: RequestOptions | undefined): Promise<void>;
	/** Which list changes the caller wants notified. */
	listenForChanges(lists: ListenLists): void;
	/** The live tasks whose status notifications are wanted. */
	watchTasks(taskIds: readonly string[]): void;
	setLoggingLevel(level: LoggingLevel, options: RequestOptions | undefined): Promise<void>;
	ping(options: RequestOptions | undefined): Promise<void>;
	notifyRootsChanged(): Promise<void>;
	/** Runs `server/discover` again when its answer is stale (2026-07-28; nothing to do before). */
	refreshDiscoveryIfStale(): void;
	/** Throws when this era forbids a server request of `method`. */
	checkServerRequest(method: string): void;
	/** False for a change notification from a `subscriptions/listen` this client cancelled. */
	acceptsNotification(params: Record<string, unknown> | undefined): boolean;
	/** `notifications/subscriptions/acknowledged`. */
	acknowledged(params: Record<string, unknown> | undefined): void;
	/** The connection closed. */
	close(): void;
}
