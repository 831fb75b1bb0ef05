// The headless core (dist/core.js) as a small bundle plus one bundle per module it loads on first use, so that
// importing it parses only what the import needs (#28: the whole core in one file cost 3-6x a bare Node module load,
// most of it reading and pre-parsing code that only a connect, a Manager or OAuth runs).
//
// The rule is the code's own: every `require()` of a project module or package inside a function (the lazy loads,
// e.g. core.ts's createManager, createTransport's HTTP transports, the schemas) becomes a file of its own,
// `dist/core-<module>.js`, required at run time. dist/core.js holds everything src/core.ts imports statically. Any
// other module is kept once: in the bundle of the lazy load that alone reaches it, or, when several lazy loads reach
// it (a helper of both the Manager and the connection), in a bundle shared by exactly those (named after its first
// module), so loading a bundle loads nothing that none of its users reach. A bundle takes another's modules, the
// very same objects, through `__bundleModules` (an export of the owning bundle), so classes, enums and module state
// are never duplicated. A bundle only imports from bundles shared by more lazy loads than itself: never a cycle.
//
// esbuild's own code splitting would do this for ES modules only; the core is CommonJS and its lazy loads are
// synchronous `require()`s.
import * as esbuild from 'esbuild';
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';

const ENTRY = 'src/core.ts';
const REGISTRY = '__bundleModules';
const SHARED = 'core-shared:';

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
 * bundle owns, which of them other bundles import, and how each import statement resolved. dist/core.js owns what
 * src/core.ts reaches statically; every other module goes to the bundle of the set of lazy entries that reach it
 * (each `require()` target is an entry): a module one entry reaches alone is in that entry's bundle, one that several
 * reach is in a bundle shared by exactly those, so loading a bundle never loads a module none of its users reaches
 * (a first-found owner did: a plain connect then read the Manager's bundle for one small helper both use).
 */
async function planBundles(options, root) {
	const analysis = await esbuild.build({ ...options, entryPoints: [ENTRY], write: false, metafile: true, outdir: 'x' });
	const inputs = analysis.metafile.inputs;
	const staticImports = (file) =>
		(inputs[file]?.imports ?? []).filter((i) => !i.external && i.kind === 'import-statement').map((i) => i.path);
	const lazyImports = (file) =>
		(inputs[file]?.imports ?? []).filter((i) => !i.external && i.kind === 'require-call').map((i) => i.path);
	/** The modules `start` reaches through static imports, in the order found, not entering `outside`. */
	const reached = (start, outside) => {
		const found = new Set();
		const stack = [start];
		while (stack.length > 0) {
			const file = stack.pop();
			if (found.has(file) || outside.has(file)) continue;
			found.add(file);
			stack.push(...staticImports(file).reverse());
		}
		return found;
	};
	const core = { entry: ENTRY, name: 'core', owned: reached(ENTRY, new Set()) };
	// The lazy entries, in the order found (breadth first from dist/core.js), and what each reaches beyond it.
	const reach = new Map();
	const queue = [...core.owned].flatMap(lazyImports);
	while (queue.length > 0) {
		const entry = queue.shift();
		if (reach.has(entry) || core.owned.has(entry)) continue;
		reach.set(entry, reached(entry, core.owned));
		queue.push(...[...reach.get(entry)].flatMap(lazyImports));
	}
	const reachers = new Map(); // module → the entries that reach it, as a key
	for (const [entry, modules] of reach)
		for (const file of modules) reachers.set(file, [...(reachers.get(file) ?? []), entry].join('\0'));
	const groups = new Map(); // reachers key → the modules they share
	for (const [file, key] of reachers) groups.set(key, [...(groups.get(key) ?? []), file]);
	const bundles = [core];
	for (const modules of groups.values()) {
		// A group holds at most one entry (two would import each other); a group without one gets a made-up entry.
		const entry = modules.find((file) => reach.has(file));
		bundles.push({ entry, name: bundleName(entry ?? modules[0]), owned: new Set(modules) });
	}
	const owner = new Map(bundles.flatMap((bundle) => [...bundle.owned].map((file) => [file, bundle])));
	// How each import written in a module resolved ("importer\0specifier" → metafile path), for the build plugin.
	const resolved = new Map();
	for (const [file, input] of Object.entries(inputs))
		for (const i of input.imports) if (!i.external && i.original) resolved.set(`${file}\0${i.original}`, i.path);
	// What each bundle must hand to others: the modules of its own that another bundle imports or requires (its
	// entry's exports are the bundle's exports already).
	const shared = new Map(bundles.map((b) => [b, new Set()]));
	for (const bundle of bundles)
		for (const file of [...bundle.owned].flatMap((f) => [...staticImports(f), ...lazyImports(f)])) {
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
				if (args.kind === 'entry-point' && args.path.startsWith(SHARED))
					return { path: args.path, namespace: 'core-shared' };
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
			const lines = exported.map((file, i) => `import * as __shared${i} from ${JSON.stringify(abs(file))};`);
			const table = exported.map((file, i) => `\t${JSON.stringify(file)}: __shared${i},`).join('\n');
			const registry = `\n${lines.join('\n')}\n/** @internal The modules other core bundles take from this one. */\nexport const ${REGISTRY} = {\n${table}\n};\n`;
			// A bundle of modules several entries share has no entry of its own: its entry is the registry alone.
			build.onLoad({ filter: /.*/, namespace: 'core-shared' }, () => ({
				contents: registry,
				loader: 'js',
				resolveDir: root,
			}));
			if (exported.length === 0 || bundle.entry === undefined) return;
			const entryPath = abs(bundle.entry);
			build.onLoad({ filter: /.*/ }, (args) => {
				if (args.path !== entryPath) return undefined;
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
				entryPoints: { [bundle.name]: bundle.entry ?? `${SHARED}${bundle.name}` },
				outdir,
				plugins: [...(options.plugins ?? []), splitPlugin(plan, bundle, root)],
			}),
		),
	);
	return plan.bundles.map((b) => `${b.name}.js`);
}
