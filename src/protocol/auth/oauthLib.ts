// oauth4webapi is ESM-only. esbuild bundles it into our CommonJS output without trouble, but tsc in Node16 module
// mode refuses a static import of an ESM-only package from a CommonJS file (TS1479). So: types through an
// import-mode type import, the value through a require() that esbuild resolves and bundles at build time.
// The require runs on first use, so importing dist/core.js stays cheap for callers that never meet OAuth.
import type * as OAuthLib from 'oauth4webapi' with { 'resolution-mode': 'import' };

let loaded: typeof OAuthLib | undefined;

/** The oauth4webapi module (bundled), loaded on the first call. */
export function oauth(): typeof OAuthLib {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	loaded ??= require('oauth4webapi') as typeof OAuthLib;
	return loaded;
}

export type { OAuthLib };
