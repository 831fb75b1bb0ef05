// Builds the extension and the headless core with esbuild; `tsc` only typechecks (npm run typecheck).
import * as esbuild from 'esbuild';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildCoreBundles } from './scripts/coreBundles.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/** Every *.test.ts below a folder, so new test files need no registration. */
function testFiles(dir) {
	const found = [];
	for (const name of readdirSync(dir)) {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) found.push(...testFiles(path));
		else if (name.endsWith('.test.ts')) found.push(path);
	}
	return found;
}

const common = {
	bundle: true,
	platform: 'node',
	target: 'node20',
	format: 'cjs',
	sourcemap: !production,
	minify: production,
	logLevel: 'warning',
	// jsonc-parser's "main" is a UMD build whose inner require('./impl/…') calls esbuild cannot follow (the bundle then
	// fails at run time with "Cannot find module './impl/format'"); its ES module build bundles cleanly.
	alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
};

const builds = [
	// The extension: `vscode` is provided by the extension host.
	{ ...common, entryPoints: { extension: 'src/extension.ts' }, outdir: 'dist', external: ['vscode'] },
	// The command line (`mcp-switchboard`, package.json "bin"): plain Node like the core, zod required at run time.
	// dist/cli.js is a small launcher that loads dist/cli-main.js with V8's code cache (src/cli/bin.ts).
	// Minified in every build: a command-line run is mostly start-up, and half the text is ~10 ms less to read, hash and
	// compile on a run without V8's code cache (the first run, or a new Node); stack traces map back with cli-main.js.map
	// (`node --enable-source-maps`).
	{ ...common, entryPoints: { 'cli-main': 'src/cli/main.ts' }, outdir: 'dist', external: ['zod'], minify: true },
	// The launcher holds what runs before the servers start (arguments, configuration files, the spawn; earlyStart.ts):
	// it is compiled on every run without a code cache, so it is minified too.
	{
		...common,
		entryPoints: { cli: 'src/cli/bin.ts' },
		outdir: 'dist',
		external: ['zod'],
		minify: true,
		banner: { js: '#!/usr/bin/env node' },
	},
	// Unit and integration tests: plain Node, no vscode either.
	{
		...common,
		entryPoints: [...testFiles('test/unit'), ...testFiles('test/integration')],
		outdir: 'out/test',
		outbase: 'test',
		// The official SDK (a test client here) is loaded from node_modules as is: bundled, its zod import breaks.
		// oidc-provider (the real authorization server of test/fixtures/oidcServer.ts) is ESM with its own koa: loaded as is.
		external: ['@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*', 'oidc-provider'],
		sourcemap: true,
		minify: false,
	},
	// Suites that run inside a real VS Code extension host: the runner module plus each `*.e2e.ts` (trusted run),
	// `*.restricted.ts` (untrusted run, Restricted Mode) and `*.vsix.ts` (the installed .vsix) as its own bundle, which index.ts finds next to itself at run
	// time (so a new suite needs no registration).
	{
		...common,
		entryPoints: [
			'test/e2e/suite/index.ts',
			...readdirSync('test/e2e/suite')
				.filter((f) => /\.(e2e|restricted|vsix)\.ts$/.test(f))
				.map((f) => join('test/e2e/suite', f)),
		],
		outdir: 'out/e2e',
		outbase: 'test/e2e',
		external: ['vscode', 'oidc-provider'],
		sourcemap: true,
		minify: false,
	},
];

// The headless core: plain Node. No `external: ['vscode']`, so a vscode import reachable from the core fails the build.
// zod stays a runtime `require` (it is a declared dependency): parsing its bundled 325 KB would cost most of the
// import time, while the core loads it only on first use. dist/core.js holds what an import needs; each module the
// core loads on first use is a bundle of its own beside it (scripts/coreBundles.mjs). Minified in every build, as the
// command line is: an import is mostly reading and parsing, and half the text is half of that (core.js.map maps back).
const core = { ...common, external: ['zod'], minify: true };

if (watch) {
	for (const options of builds) {
		const context = await esbuild.context(options);
		await context.watch();
	}
	// The core's split needs a whole build each time: rebuilt whenever its sources change.
	const coreWatch = await esbuild.context({
		...core,
		entryPoints: ['src/core.ts'],
		write: false,
		outdir: 'dist',
		plugins: [{ name: 'core-bundles', setup: (build) => build.onEnd(() => buildCoreBundles(core, 'dist')) }],
	});
	await coreWatch.watch();
	console.log('esbuild: watching');
} else {
	await Promise.all([...builds.map((options) => esbuild.build(options)), buildCoreBundles(core, 'dist')]);
}
