/**
 * What a ServerConnection works with: the connector contract (one connection to one server), what it needs from its
 * Manager, the lists it caches and its timing constants. In their own file so the connection, the connect attempt and
 * the Manager share them without a circle.
 */
import type { Logger } from '../common/logger';
import type { ClientHandlers, McpClient } from '../protocol/client';
import type { Tool } from '../protocol/schema';
import type { Clock, RestartPolicyOptions } from './backoff';
import type { Host } from './host';
import type { Limiter } from './limiter';
import type { ListingStore } from './listingCache';
import type { NamedTool, ServerConfig } from './types';

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
	/** Whether the server starts with the Manager and never stops when idle (its `autoStart`, else the default). */
	autoStart(config: ServerConfig): boolean;
	/** How long a server may go unused before it stops, in ms; 0: never (ManagerOptions.idleStopMs). */
	idleStopMs(): number;
	/** Where listings are kept between sessions (ManagerOptions.listingStore); absent: nowhere. */
	listingStore?: ListingStore;
}

/** The lists a server connection caches. */
export type ListKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

/** Every list a server's cache holds, in the order they are fetched. */
export const ALL_LISTS: readonly ListKind[] = ['tools', 'resources', 'resourceTemplates', 'prompts'];

/** One value per list kind, each made by `make`. */
export function perList<T>(make: () => T): Record<ListKind, T> {
	return { tools: make(), resources: make(), resourceTemplates: make(), prompts: make() };
}
