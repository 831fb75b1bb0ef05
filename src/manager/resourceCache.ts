/**
 * A cache of `resources/read` results keyed by server and URI, with a time to live and least-recently-used
 * eviction by entry count and total size. The Manager invalidates entries on `notifications/resources/updated`,
 * on `resources/list_changed` and when a server restarts or stops.
 */
import type { ReadResourceResult } from '../protocol/schema';

export interface ResourceCacheOptions {
	/**
	 * How long an entry stays fresh, in ms, unless its server said otherwise (2026-07-28 `ttlMs`, see `set`).
	 * Default 30000. 0 disables caching.
	 */
	ttlMs?: number;
	/** The most entries kept. Default 500. */
	maxEntries?: number;
	/** The most characters (text + base64 blobs) kept in all. Default 32 Mi. An entry larger than this is not kept. */
	maxChars?: number;
	/** The clock (tests pass a fake one). Default Date.now. */
	now?: () => number;
}

/** The longest a server's `ttlMs` keeps an entry (a notification still invalidates it at once). */
export const MAX_SERVER_TTL_MS = 24 * 60 * 60 * 1000;

interface Entry {
	server: string;
	uri: string;
	value: ReadResourceResult;
	expires: number;
	size: number;
}

/** Roughly the memory a result holds: its text and blob characters. */
function sizeOf(value: ReadResourceResult): number {
	let size = 64;
	for (const content of value.contents) {
		const record = content as { text?: unknown; blob?: unknown };
		if (typeof record.text === 'string') size += record.text.length;
		if (typeof record.blob === 'string') size += record.blob.length;
	}
	return size;
}

export class ResourceCache {
	// A Map iterates in insertion order: re-inserting on access makes the first key the least recently used.
	private readonly entries = new Map<string, Entry>();
	private chars = 0;
	private readonly ttlMs: number;
	private readonly maxEntries: number;
	private readonly maxChars: number;
	private readonly now: () => number;
	/**
	 * Invalidation versions, so a read that was in flight when its resource changed does not cache the old content
	 * (see `version` and `set`). Every invalidation takes the next number from `counter`.
	 */
	private counter = 0;
	private readonly uriVersions = new Map<string, number>();
	private readonly serverVersions = new Map<string, number>();
	private clearedAt = 0;

	constructor(options: ResourceCacheOptions = {}) {
		this.ttlMs = options.ttlMs ?? 30_000;
		this.maxEntries = options.maxEntries ?? 500;
		this.maxChars = options.maxChars ?? 32 * 1024 * 1024;
		this.now = options.now ?? Date.now;
	}

	private static key(server: string, uri: string): string {
		return `${server}\u0000${uri}`;
	}

	/** The cached result when present and fresh; a stale entry is dropped. */
	get(server: string, uri: string): ReadResourceResult | undefined {
		const key = ResourceCache.key(server, uri);
		const entry = this.entries.get(key);
		if (!entry) return undefined;
		if (entry.expires <= this.now()) {
			this.remove(key, entry);
			return undefined;
		}
		this.entries.delete(key);
		this.entries.set(key, entry);
		return entry.value;
	}

	/**
	 * The invalidation version of one resource: take it before reading, and pass it to `set`, which then keeps the
	 * result only if no invalidation of that URI, its server or the whole cache happened in between.
	 */
	version(server: string, uri: string): number {
		return Math.max(
			this.uriVersions.get(ResourceCache.key(server, uri)) ?? 0,
			this.serverVersions.get(server) ?? 0,
			this.clearedAt,
		);
	}

	/**
	 * Keeps a result. With `readVersion` (from `version()` before the read) it is dropped instead when the resource
	 * was invalidated while it was being read: a `notifications/resources/updated` that arrived meanwhile means the
	 * result may already be old, and caching it would serve it for the whole TTL.
	 * `serverTtlMs` is the server's own freshness hint (2026-07-28 `ttlMs`): "If ttlMs is positive, the client SHOULD
	 * consider the result fresh for that many milliseconds after receiving the response" — it replaces the cache's
	 * own TTL (up to a day); 0 ("immediately stale") keeps nothing. Absent: the cache's own TTL, as for older servers.
	 * Spec: https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching
	 */
	set(server: string, uri: string, value: ReadResourceResult, readVersion?: number, serverTtlMs?: number): void {
		if (this.ttlMs <= 0) return;
		const ttlMs = serverTtlMs === undefined ? this.ttlMs : Math.min(serverTtlMs, MAX_SERVER_TTL_MS);
		if (ttlMs <= 0) return;
		if (readVersion !== undefined && this.version(server, uri) !== readVersion) return;
		const key = ResourceCache.key(server, uri);
		const old = this.entries.get(key);
		if (old) this.remove(key, old);
		const size = sizeOf(value);
		if (size > this.maxChars) return;
		this.entries.set(key, { server, uri, value, expires: this.now() + ttlMs, size });
		this.chars += size;
		for (const [oldestKey, oldest] of this.entries) {
			if (this.entries.size <= this.maxEntries && this.chars <= this.maxChars) break;
			this.remove(oldestKey, oldest);
		}
	}

	/** Drops one URI of one server (`notifications/resources/updated`). */
	invalidate(server: string, uri: string): void {
		const key = ResourceCache.key(server, uri);
		this.uriVersions.set(key, ++this.counter);
		const entry = this.entries.get(key);
		if (entry) this.remove(key, entry);
	}

	/** Drops every entry of a server (list_changed, restart, stop). */
	invalidateServer(server: string): void {
		this.serverVersions.set(server, ++this.counter);
		// The server's version now covers its URIs: their own versions are no longer needed.
		const prefix = ResourceCache.key(server, '');
		for (const key of this.uriVersions.keys()) {
			if (key.startsWith(prefix)) this.uriVersions.delete(key);
		}
		for (const [key, entry] of this.entries) {
			if (entry.server === server) this.remove(key, entry);
		}
	}

	clear(): void {
		this.entries.clear();
		this.chars = 0;
		this.uriVersions.clear();
		this.serverVersions.clear();
		this.clearedAt = ++this.counter;
	}

	get size(): number {
		return this.entries.size;
	}

	private remove(key: string, entry: Entry): void {
		this.entries.delete(key);
		this.chars -= entry.size;
	}
}
