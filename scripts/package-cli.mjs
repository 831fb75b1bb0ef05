// `npm run pack:cli`: the npm package of the command line and the headless core (packages/cli/package.json), built
// from the same sources as the extension and packed with `npm pack`:
//
//   node scripts/package-cli.mjs [--out-dir DIR] [--version x.y.z]   (default: the repository; prints the path last)
//
// The package is staged in a temporary folder: packages/cli/package.json and README.md, the repository's LICENSE,
// production builds of dist/core.js, dist/cli.js and dist/cli-main.js (scripts/package-build.mjs), and TypeScript
// declarations of the headless API (src/core.ts and what it exports) from `tsc --emitDeclarationOnly` in types/.
// Nothing in the repository changes except the tarball. --version packs the staged package.json with another version
// (the release's dry run). Fails when the two package.json versions differ, when a
// bundle requires a package that packages/cli/package.json does not depend on, or when npm pack warns.
import { spawnSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import {
	chmodSync,
	copyFileSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProductionBundles, NPM_EXTERNALS } from './package-build.mjs';
import { repoRoot } from './workbench.mjs';

/** The folder of the npm package's own files (package.json, README.md). */
export const CLI_PACKAGE_DIR = join(repoRoot, 'packages', 'cli');
const BUNDLES = ['core', 'cli-main', 'cli'];

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** npm and tsc run without the outer `npm run`'s npm_* variables, which would point them at the repository. */
function cleanEnv() {
	return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_')));
}

function run(command, args, cwd) {
	const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: cleanEnv(), maxBuffer: 64 * 1024 * 1024 });
	if (result.status !== 0) {
		process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
		throw new Error(`pack:cli: ${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
	}
	return result;
}

/** Why packages/cli/package.json does not match the repository (version, dependencies); empty when it does. */
export function manifestProblems() {
	const root = readJson(join(repoRoot, 'package.json'));
	const cli = readJson(join(CLI_PACKAGE_DIR, 'package.json'));
	const problems = [];
	if (cli.version !== root.version)
		problems.push(`packages/cli/package.json is version ${cli.version}, package.json ${root.version}`);
	for (const name of NPM_EXTERNALS) {
		if (cli.dependencies?.[name] !== root.dependencies?.[name])
			problems.push(
				`packages/cli/package.json depends on ${name}@${cli.dependencies?.[name]}, the extension on ${root.dependencies?.[name]}`,
			);
	}
	const extra = Object.keys(cli.dependencies ?? {}).filter((name) => !NPM_EXTERNALS.includes(name));
	if (extra.length > 0)
		problems.push(`packages/cli/package.json depends on ${extra.join(', ')}, which the bundles include`);
	return problems;
}

/** The packages named by module specifiers, except Node's own: `zod/mini` is `zod`, `@scope/name/sub` `@scope/name`. */
function packagesOf(specifiers) {
	const names = specifiers.map((s) =>
		s
			.split('/')
			.slice(0, s.startsWith('@') ? 2 : 1)
			.join('/'),
	);
	return [...new Set(names)].filter((name) => !name.startsWith('node:') && !builtinModules.includes(name));
}

/** The packages a bundle leaves to `require` at run time. */
function requiredPackages(bundle) {
	return packagesOf([...readFileSync(bundle, 'utf8').matchAll(/\brequire\("([^"./][^"]*)"\)/g)].map((m) => m[1]));
}

/** Every .d.ts file below `dir`. */
function declarationFiles(dir) {
	return readdirSync(dir, { recursive: true, encoding: 'utf8' })
		.filter((f) => f.endsWith('.d.ts'))
		.map((f) => join(dir, f));
}

/**
 * oauth4webapi is bundled into dist/core.js, so the package does not install it, yet the OAuth provider's internal
 * declarations name a few of its types (through protocol/auth/oauthLib.d.ts), which a user's `tsc` would then fail to
 * find. None is part of the documented API: they become opaque (`unknown`) in a replacement oauthLib.d.ts.
 */
function opaqueOAuthLibTypes(typesDir) {
	const files = declarationFiles(typesDir);
	const used = new Set(
		files.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/\bOAuthLib\.(\w+)/g)].map((m) => m[1])),
	);
	writeFileSync(
		join(typesDir, 'protocol', 'auth', 'oauthLib.d.ts'),
		[
			'// oauth4webapi is bundled into dist/core.js and not installed with this package: its types are opaque here.',
			'export declare namespace OAuthLib {',
			...[...used].sort().map((name) => `\ttype ${name} = unknown;`),
			'}',
			'/** The bundled oauth4webapi module, loaded on the first call. */',
			'export declare function oauth(): unknown;',
			'',
		].join('\n'),
	);
}

/** Fails when a declaration imports a package the npm package does not depend on (a user's tsc would not find it). */
function checkDeclarationImports(typesDir) {
	for (const file of declarationFiles(typesDir)) {
		const text = readFileSync(file, 'utf8');
		const imported = [...text.matchAll(/(?:from\s+|import\()\s*['"]([^'"./][^'"]*)['"]/g)].map((m) => m[1]);
		const undeclared = packagesOf(imported).filter((name) => !NPM_EXTERNALS.includes(name));
		if (undeclared.length > 0)
			throw new Error(
				`pack:cli: ${file.slice(typesDir.length + 1)} imports ${undeclared.join(', ')}, not a dependency of the package`,
			);
	}
}

/**
 * Stages and packs the npm package into `outDir`. Returns the tarball's absolute path, its size in bytes and the
 * files it holds.
 * @param {{ outDir?: string, version?: string }} [options]
 * @returns {Promise<{ tarball: string, size: number, files: string[] }>}
 */
export async function packCli(options = {}) {
	const outDir = resolve(options.outDir ?? repoRoot);
	const problems = manifestProblems();
	if (problems.length > 0) throw new Error(`pack:cli: ${problems.join('; ')}`);
	const stage = mkdtempSync(join(tmpdir(), 'mcp-switchboard-npm-'));
	try {
		const manifest = readJson(join(CLI_PACKAGE_DIR, 'package.json'));
		if (options.version) manifest.version = options.version;
		writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, '\t')}\n`);
		copyFileSync(join(CLI_PACKAGE_DIR, 'README.md'), join(stage, 'README.md'));
		copyFileSync(join(repoRoot, 'LICENSE'), join(stage, 'LICENSE'));
		await buildProductionBundles(join(stage, 'dist'), BUNDLES);
		chmodSync(join(stage, 'dist', 'cli.js'), 0o755);
		// Every bundle, including the core's lazily loaded dist/core-*.js.
		for (const bundle of readdirSync(join(stage, 'dist')).filter((f) => f.endsWith('.js'))) {
			const undeclared = requiredPackages(join(stage, 'dist', bundle)).filter((n) => !NPM_EXTERNALS.includes(n));
			if (undeclared.length > 0)
				throw new Error(`pack:cli: dist/${bundle} requires ${undeclared.join(', ')}, not a dependency of the package`);
		}
		// Declarations of src/core.ts and every module its types reach; the compiler options are tsconfig.json's that
		// shape declarations (tsconfig.json itself covers tests and the vscode edge, and emits nothing).
		run(
			process.execPath,
			[
				join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'),
				join(repoRoot, 'src', 'core.ts'),
				'--declaration',
				'--emitDeclarationOnly',
				'--outDir',
				join(stage, 'types'),
				'--rootDir',
				join(repoRoot, 'src'),
				'--target',
				'ES2022',
				'--module',
				'Node16',
				'--moduleResolution',
				'Node16',
				'--lib',
				'ES2022',
				'--types',
				'node',
				'--strict',
				'--esModuleInterop',
				'--skipLibCheck',
			],
			repoRoot,
		);
		opaqueOAuthLibTypes(join(stage, 'types'));
		checkDeclarationImports(join(stage, 'types'));
		const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
		const packed = run(npm, ['pack', '--json', '--pack-destination', outDir], stage);
		const warnings = (packed.stderr ?? '').split('\n').filter((line) => /\bwarn/i.test(line));
		if (warnings.length > 0) throw new Error(`pack:cli: npm pack warned:\n  ${warnings.join('\n  ')}`);
		const [info] = JSON.parse(packed.stdout);
		const tarball = join(outDir, info.filename);
		return { tarball, size: statSync(tarball).size, files: info.files.map((f) => f.path).sort() };
	} finally {
		rmSync(stage, { recursive: true, force: true });
	}
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const outArg = process.argv.indexOf('--out-dir');
	const versionArg = process.argv.indexOf('--version');
	try {
		const { tarball, size, files } = await packCli({
			outDir: outArg > 0 ? process.argv[outArg + 1] : undefined,
			version: versionArg > 0 ? process.argv[versionArg + 1] : undefined,
		});
		console.log(`pack:cli: ${files.length} files, ${Math.round(size / 1024)} KB`);
		console.log(tarball);
	} catch (error) {
		console.error(error instanceof Error ? error.message : String(error));
		process.exit(1);
	}
}
