/**
 * Caching hints of 2026-07-28 results (`ttlMs`, `cacheScope`) on server/discover, the four lists and resources/read.
 * Spec: https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching
 */

/** What a result says about its own freshness. Both undefined for a result without hints (any legacy server). */
export interface CacheHints {
	/**
	 * How long the result may be considered fresh, in ms, counted from its arrival. "If ttlMs is negative, clients
	 * SHOULD ignore it and treat it as 0"; a value that is not a number counts as absent (undefined).
	 */
	ttlMs: number | undefined;
	/** "public": may be shared by anyone; "private": only within the same authorization context. */
	cacheScope: 'public' | 'private' | undefined;
}

export const NO_CACHE_HINTS: CacheHints = { ttlMs: undefined, cacheScope: undefined };

/** The hints of one result. */
export function cacheHintsOf(result: Record<string, unknown>): CacheHints {
	const ttl = result.ttlMs;
	const scope = result.cacheScope;
	return {
		ttlMs: typeof ttl === 'number' && Number.isFinite(ttl) ? Math.max(0, Math.floor(ttl)) : undefined,
		cacheScope: scope === 'public' || scope === 'private' ? scope : undefined,
	};
}

/**
 * The hints of a list read page by page: "each page is an independently cacheable response", so the whole list is
 * fresh only as long as its shortest-lived page, and private when any page is. A page without a ttlMs makes the
 * list's ttlMs absent.
 */
export function combineCacheHints(pages: readonly CacheHints[]): CacheHints {
	if (pages.length === 0) return NO_CACHE_HINTS;
	let ttlMs: number | undefined = Infinity;
	let anyPrivate = false;
	let anyUnscoped = false;
	for (const page of pages) {
		ttlMs = ttlMs === undefined || page.ttlMs === undefined ? undefined : Math.min(ttlMs, page.ttlMs);
		if (page.cacheScope === 'private') anyPrivate = true;
		if (page.cacheScope === undefined) anyUnscoped = true;
	}
	const cacheScope = anyPrivate ? 'private' : anyUnscoped ? undefined : 'public';
	return { ttlMs, cacheScope };
}
