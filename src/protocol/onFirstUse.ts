/**
 * The code an McpClient runs once it exists (clientRuntime.ts: the connection, the eras, server messages, the tool
 * catalog, request rounds), loaded by the first client's construction, so an import of the core never parses it
 * (#28); dist/core.js builds it into a bundle of its own (coreBundles.mjs). As modern/onFirstUse.ts does for the
 * 2026-07-28 helpers.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the point of this file: a require inside a function */
type ClientRuntime = typeof import('./clientRuntime');

let clientRuntimeModule: ClientRuntime | undefined;

/** The connection, eras, server message handlers, tool catalog and request rounds (clientRuntime.ts). */
export function clientRuntime(): ClientRuntime {
	return (clientRuntimeModule ??= require('./clientRuntime') as ClientRuntime);
}
