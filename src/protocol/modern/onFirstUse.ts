/**
 * The 2026-07-28 helpers that code every connection shares (the client, its tool catalog, its request rounds, the era
 * negotiation) calls only when a server speaks 2026-07-28 or answers like one: an input_required result, cache
 * `x-mcp-header` marks, a modern error. Each loads on its first call, so an import of the core and a connection
 * to an older server never parse them (#28); dist/core.js builds each into a bundle of its own (coreBundles.mjs).
 * Code that is modern throughout (eras/modernEra.ts, the HTTP transport) imports them directly. (caching.ts, a
 * few lines that every listing with cache hints reads, loads with the client's runtime, ../clientRuntime.ts.)
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the point of this file: a require inside a function */
type RequestMeta = typeof import('./requestMeta');
type InputRequests = typeof import('./inputRequests');
type HttpHeaders = typeof import('./httpHeaders');

let requestMeta: RequestMeta | undefined;
let inputRequests: InputRequests | undefined;
let httpHeaders: HttpHeaders | undefined;

/** What every modern request carries, the modern error codes and their explanations (requestMeta.ts). */
export function modernRequestMeta(): RequestMeta {
	return (requestMeta ??= require('./requestMeta') as RequestMeta);
}

/** Multi round-trip requests: input_required results and the answers to them (inputRequests.ts). */
export function modernInputRequests(): InputRequests {
	return (inputRequests ??= require('./inputRequests') as InputRequests);
}

/** `x-mcp-header` marks and the `Mcp-Param-*` headers they make (httpHeaders.ts). */
export function modernHttpHeaders(): HttpHeaders {
	return (httpHeaders ??= require('./httpHeaders') as HttpHeaders);
}
