// `npm run package`: a production build and a .vsix made by @vscode/vsce (a dev dependency: it is what the
// Marketplace itself uses to read and check a package, so its manifest and file rules are the real ones). vsce needs
// Node 22 or newer, and the project runs on Node 20: it runs on the Node 22 of scripts/node22.mjs (the running Node
// when that is new enough; installed from the npm registry into a cache on first use).
//
//   node scripts/package.mjs [--out file.vsix] [--release] [--version x.y.z]
//
// (default: mcp-switchboard-<version>.vsix in the repository). The package is built in a staging folder: the files
// `vsce ls` lists for the repository (.vscodeignore is the allowlist) plus a production build of dist/extension.js,
// so the development build in dist/ that the tests and `npm start` use is never rewritten. The build fails when vsce
// prints a warning or when scripts/package-check.mjs finds a Marketplace or Open VSX rule the package breaks.
//
// --release points the README's relative links (its screenshots) at the release tag in the public repository, as the
// Marketplace and Open VSX pages need (they show the README outside the package). Without it they stay relative:
// VS Code shows them from the installed folder, which the installed-package e2e run checks. --version packs the staged
// package.json with another version (the release's dry run builds what it would publish without bumping anything).
//
// The e2e runner packages with this too and runs suites against the installed .vsix (test/e2e/run.mjs), so the
// artifact users get is what is tested. Install the result with `code --install-extension <file>.vsix` (desktop
// VS Code) or code-server's `--install-extension`.
import { spawnSync } from 'node:child_process';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNode22 } from './node22.mjs';
import { buildProductionBundles } from './package-build.mjs';
import { vsceWarnings, vsixProblems } from './package-check.mjs';
import { extensionId, repoRoot } from './workbench.mjs';

const vsce = join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');

/** The public repository the listing links to (package.json's repository, homepage and bugs). */
export const PUBLIC_REPOSITORY = 'https://github.com/mcp-switchboard/mcp-switchboard';

/** Runs vsce on Node 22 in `cwd`; returns its output (echoed unless `quiet`) and fails on an exit code. */
function runVsce(node, args, cwd, quiet = false) {
	const result = spawnSync(node, [vsce, ...args], {
		cwd,
		encoding: 'utf8',
		// No terminal: vsce would ask "Do you want to continue?" after some warnings; with stdin closed it aborts.
		stdio: ['ignore', 'pipe', 'pipe'],
		maxBuffer: 64 * 1024 * 1024,
	});
	if (!quiet || result.status !== 0) {
		process.stdout.write(result.stdout ?? '');
		process.stderr.write(result.stderr ?? '');
	}
	if (result.status !== 0)
		throw new Error(`package: vsce ${args[0]} failed (exit ${result.status ?? result.signal}); its output is above`);
	return `${result.stdout}\n${result.stderr}`;
}

/** Where `npm run package` writes the .vsix unless told otherwise. */
export function defaultVsixPath(version = extensionId.version) {
	return join(repoRoot, `${extensionId.id.split('.')[1]}-${version}.vsix`);
}

/**
 * Builds the production bundle and packs the .vsix from a staging folder. Returns the .vsix's absolute path.
 * @param {{ out?: string, release?: boolean, version?: string }} [options]
 * @throws Error when the build or vsce fails, vsce warns, or the package breaks a registry rule (each named).
 */
export async function packageVsix(options = {}) {
	if (!existsSync(vsce)) throw new Error('package: @vscode/vsce is not installed: run npm install');
	const version = options.version ?? extensionId.version;
	const out = resolve(options.out ?? defaultVsixPath(version));
	const node = await ensureNode22();
	const stage = mkdtempSync(join(tmpdir(), 'mcp-switchboard-vsix-'));
	try {
		// The files vsce would pack from the repository (its own reading of .vscodeignore), except the bundle.
		const listed = runVsce(node, ['ls', '--no-dependencies'], repoRoot, true)
			.split('\n')
			.map((line) => line.trim())
			.filter((file) => file && existsSync(join(repoRoot, file)) && statSync(join(repoRoot, file)).isFile());
		for (const file of [...listed, '.vscodeignore']) {
			if (file === 'dist/extension.js') continue;
			mkdirSync(dirname(join(stage, file)), { recursive: true });
			copyFileSync(join(repoRoot, file), join(stage, file));
		}
		if (version !== extensionId.version) {
			const manifest = JSON.parse(readFileSync(join(stage, 'package.json'), 'utf8'));
			writeFileSync(join(stage, 'package.json'), `${JSON.stringify({ ...manifest, version }, null, '\t')}\n`);
		}
		await buildProductionBundles(join(stage, 'dist'), ['extension']);
		// The bundle already holds the run-time dependencies, so vsce packs no node_modules (--no-dependencies).
		const links = options.release
			? [
					'--baseContentUrl',
					`${PUBLIC_REPOSITORY}/blob/v${version}/`,
					'--baseImagesUrl',
					`${PUBLIC_REPOSITORY}/raw/v${version}/`,
				]
			: ['--no-rewrite-relative-links'];
		const output = runVsce(node, ['package', '--no-dependencies', ...links, '--out', out], stage);
		const warnings = vsceWarnings(output);
		if (warnings.length > 0) {
			throw new Error(`package: vsce warned (a listing must package cleanly):\n  ${warnings.join('\n  ')}`);
		}
	} finally {
		rmSync(stage, { recursive: true, force: true });
	}
	const problems = vsixProblems(out);
	if (problems.length > 0) {
		throw new Error(`package: ${out} breaks Marketplace / Open VSX rules:\n  ${problems.join('\n  ')}`);
	}
	return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const outArg = process.argv.indexOf('--out');
	const versionArg = process.argv.indexOf('--version');
	try {
		const file = await packageVsix({
			out: outArg > 0 ? process.argv[outArg + 1] : undefined,
			version: versionArg > 0 ? process.argv[versionArg + 1] : undefined,
			release: process.argv.includes('--release'),
		});
		console.log(`package: ${file} (${Math.round(statSync(file).size / 1024)} KB)`);
	} catch (error) {
		console.error(error instanceof Error ? error.message : String(error));
		process.exit(1);
	}
}
