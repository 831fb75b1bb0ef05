// The production bundles that go into the two published artifacts, built into a folder of the caller's choosing (a
// staging folder), so packaging never rewrites the development build in dist/ that the tests and `npm start` run.
// The options are esbuild.mjs's for the same entry points, with `--production` (minified, no source maps): keep
// them in step when esbuild.mjs changes.
import * as esbuild from 'esbuild';
import { buildCoreBundles } from './coreBundles.mjs';
import { repoRoot } from './workbench.mjs';

const common = {
	absWorkingDir: repoRoot,
	bundle: true,
	platform: 'node',
	target: 'node20',
	format: 'cjs',
	sourcemap: false,
	minify: true,
	logLevel: 'warning',
	// See esbuild.mjs: jsonc-parser's UMD "main" cannot be bundled, its ES module build can.
	alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
};

/** What each artifact needs, keyed by the name of the file in `dist/`. */
const ENTRIES = {
	// The extension (.vsix): `vscode` is provided by the extension host.
	extension: { entryPoints: { extension: 'src/extension.ts' }, external: ['vscode'] },
	// The headless core and the command line (npm package): zod stays a run-time `require` (a declared dependency).
	// The core is dist/core.js plus a bundle per module it loads on first use (dist/core-*.js, coreBundles.mjs).
	core: { external: ['zod'] },
	'cli-main': { entryPoints: { 'cli-main': 'src/cli/main.ts' }, external: ['zod'] },
	cli: { entryPoints: { cli: 'src/cli/bin.ts' }, external: ['zod'], banner: { js: '#!/usr/bin/env node' } },
};

/** The modules the npm package's bundles leave to `require` at run time: its package.json must list them. */
export const NPM_EXTERNALS = ['zod'];

/**
 * Builds the named production bundles into `outdir` (absolute), e.g. `['extension']` → `<outdir>/extension.js`
 * (`core` → `<outdir>/core.js` and the `core-*.js` it loads on first use).
 * @param {string} outdir
 * @param {Array<keyof typeof ENTRIES>} names
 * @throws Error when esbuild reports an error (its message names the file and line).
 */
export async function buildProductionBundles(outdir, names) {
	await Promise.all(
		names.map((name) =>
			name === 'core'
				? buildCoreBundles({ ...common, ...ENTRIES.core }, outdir, repoRoot)
				: esbuild.build({ ...common, ...ENTRIES[name], outdir }),
		),
	);
}
