// The headless core (dist/core.js) as a small bundle plus one bundle per module it loads on first use, so that
// importing it parses only what the import needs (#28: the whole core in one file cost 3-6x a bare Node module load,
// most of it reading and pre-parsing code that only a connect, a Manager or OAuth runs).
//
// The rule is the code's own: every `require()` of a project module or package inside a function (the lazy loads,
// e.g. core.ts's createManager, createTransport's HTTP transports, the schemas) becomes a file of its own,
// `dist/core-<module>.js`, required at run time. Everything a bundle imports statically stays in it. A module two
// bundles reach is kept once, in the first bundle that reaches it (dist/core.js first, then the lazy ones in the
// order they were found), and the later bundle takes the very same module object from it through `__bundleModules`
// (an export of the owning bundle), so classes, enums and module state are never duplicated. Static imports across
// bundles only ever point at earlier bundles, so loading one never loads a later one.
//
// esbuild's own code splitting would do this for ES modules only; the core is CommonJS and its lazy loads are
// synchronous `require()`s.
import * as esbuild from 'esbuild';
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';

const ENTRY = 'src/core.ts';
const REGISTRY = '__bundleModules';

/**
 * The file name (without .js) of the bundle whose entry is `input` (a metafile path): `core-protocol-auth-index`,
 * `core-oauth4webapi` for a package.
 */
function bundleName(input) {
	const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
	if (packageMatch) return `core-${packageMatch[1].replace(/[@/]/g, '-').replace(/^-/, '')}`;
	return `core-${input
		.replace(/^src\//, '')
		.replace(/\.[cm]?[jt]s$/, '')
		.replace(/[^A-Za-z0-9]+/g, '-')}`;
}

/**
 * Splits the core's module graph (one esbuild analysis pass over src/core.ts) into bundles: which modules each
 * bundle owns, which of them other bundles import, and how each import statement resolved.
 */
async function planBundles(options, root) {
	const analysis = await esbuild.build({ ...options, entryPoints: [ENTRY], write: false, metafile: true, outdir: 'x' });
	const inputs = analysis.metafile.inputs;
	const staticImports = (file) =>
		(inputs[file]?.imports ?? []).filter((i) => !i.external && i.kind === 'import-statement').map((i) => i.path);
	const lazyImports = (file) =>
		(inputs[file]?.imports ?? []).filter((i) => !i.external && i.kind === 'require-call').map((i) => i.path);
	const owner = new Map(); // module → the bundle (its entry module) that holds it
	const bundles = []; // { entry, name, owned: Set, foreign: Set }
	const queue = [ENTRY];
	while (queue.length > 0) {
		const entry = queue.shift();
		if (owner.has(entry)) continue; // a lazy target an earlier bundle already holds statically
		const bundle = { entry, name: entry === ENTRY ? 'core' : bundleName(entry), owned: new Set(), foreign: new Set() };
		bundles.push(bundle);
		const stack = [entry];
		while (stack.length > 0) {
			const file = stack.pop();
			if (bundle.owned.has(file) || bundle.foreign.has(file)) continue;
			if (owner.has(file)) {
				bundle.foreign.add(file);
				continue;
			}
			owner.set(file, bundle);
			bundle.owned.add(file);
			stack.push(...staticImports(file));
			for (const target of lazyImports(file)) if (!owner.has(target)) queue.push(target);
		}
	}
	// How each import written in a module resolved ("importer\0specifier" → metafile path), for the build plugin.
	const resolved = new Map();
	for (const [file, input] of Object.entries(inputs))
		for (const i of input.imports) if (!i.external && i.original) resolved.set(`${file}\0${i.original}`, i.path);
	// What each bundle must hand to others: the modules of its own that a later bundle imports (its entry's exports
	// are the bundle's exports already).
	const shared = new Map(bundles.map((b) => [b, new Set()]));
	for (const bundle of bundles)
		for (const file of bundle.foreign) if (owner.get(file).entry !== file) shared.get(owner.get(file)).add(file);
	for (const bundle of bundles)
		for (const file of [...bundle.owned].flatMap(lazyImports)) {
			const holder = owner.get(file);
			if (holder && holder !== bundle && holder.entry !== file) shared.get(holder).add(file);
		}
	const abs = (file) => resolve(root, file);
	return { bundles, owner, resolved, shared, abs };
}

/**
 * The esbuild plugin for one bundle: an import of a module another bundle owns becomes a one-line CommonJS module
 * that takes it from that bundle at run time; the entry gets the `__bundleModules` export of what others take.
 */
function splitPlugin(plan, bundle, root) {
	const { owner, resolved, shared, abs } = plan;
	const rel = (path) => relative(root, path).split('\\').join('/');
	return {
		name: 'core-bundles',
		setup(build) {
			build.onResolve({ filter: /.*/ }, (args) => {
				if (args.namespace === 'core-bundle') return { path: args.path, external: true };
				if (!args.importer || args.kind === 'entry-point') return undefined;
				const target = resolved.get(`${rel(args.importer)}\0${args.path}`);
				if (target === undefined || bundle.owned.has(target)) return undefined;
				const holder = owner.get(target);
				if (holder === undefined || holder === bundle) return undefined;
				return {
					path: target,
					namespace: 'core-bundle',
					pluginData: { holder: holder.name, whole: holder.entry === target },
				};
			});
			build.onLoad({ filter: /.*/, namespace: 'core-bundle' }, (args) => {
				const { holder, whole } = args.pluginData;
				const from = `require(${JSON.stringify(`./${holder}.js`)})`;
				return {
					contents: `module.exports = ${whole ? from : `${from}.${REGISTRY}[${JSON.stringify(args.path)}]`};`,
					loader: 'js',
					resolveDir: root,
				};
			});
			const exported = [...shared.get(bundle)];
			if (exported.length === 0) return;
			const entryPath = abs(bundle.entry);
			build.onLoad({ filter: /.*/ }, (args) => {
				if (args.path !== entryPath) return undefined;
				const lines = exported.map((file, i) => `import * as __shared${i} from ${JSON.stringify(abs(file))};`);
				const table = exported.map((file, i) => `\t${JSON.stringify(file)}: __shared${i},`).join('\n');
				const registry = `\n${lines.join('\n')}\n/** @internal The modules later core bundles take from this one. */\nexport const ${REGISTRY} = {\n${table}\n};\n`;
				return {
					contents: readFileSync(entryPath, 'utf8') + registry,
					loader: /\.tsx?$/.test(entryPath) ? 'ts' : 'js',
				};
			});
		},
	};
}

/**
 * Builds dist/core.js and its lazily loaded bundles into `outdir`. `options` are the esbuild options shared with the
 * other builds (bundle, platform, format cjs, minify, sourcemap, alias, external). Returns the bundles' file names.
 * @param {import('esbuild').BuildOptions} options
 * @param {string} outdir
 * @param {string} [root] the repository (esbuild's working directory)
 * @returns {Promise<string[]>}
 */
export async function buildCoreBundles(options, outdir, root = process.cwd()) {
	const plan = await planBundles(options, root);
	await Promise.all(
		plan.bundles.map((bundle) =>
			esbuild.build({
				...options,
				entryPoints: { [bundle.name]: bundle.entry },
				outdir,
				plugins: [...(options.plugins ?? []), splitPlugin(plan, bundle, root)],
			}),
		),
	);
	return plan.bundles.map((b) => `${b.name}.js`);
}
