// oauth4webapi is ESM-only. esbuild bundles it into our CommonJS output without trouble, but tsc in Node16 module
// mode refuses a static import of an ESM-only package from a CommonJS file (TS1479). So: types through an
// import-mode type import, the value through a require() that esbuild resolves and bundles at build time.
import type * as OAuthLib from 'oauth4webapi' with { 'resolution-mode': 'import' };

/** The oauth4webapi module (bundled). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const oauth: typeof OAuthLib = require('oauth4webapi');
export type { OAuthLib };
