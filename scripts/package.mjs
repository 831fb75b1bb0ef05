// `npm run package`: a production build and a .vsix made by @vscode/vsce (a dev dependency: it is what the
// Marketplace itself uses to read and check a package, so its manifest and file rules are the real ones). vsce needs
// Node 22 or newer, and the project runs on Node 20: it runs on the Node 22 of scripts/node22.mjs (the running Node
// when that is new enough; installed from the npm registry into a cache on first use).
//
//   node scripts/package.mjs [--out file.vsix]      (default: mcp-switchboard-<version>.vsix in the repository)
//
// The e2e runner packages with this too and runs suites against the installed .vsix (test/e2e/run.mjs), so the
// artifact users get is what is tested. Install the result with `code --install-extension <file>.vsix` (desktop
// VS Code) or code-server's `--install-extension`.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNode22 } from './node22.mjs';
import { extensionId, repoRoot } from './workbench.mjs';

const vsce = join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');

function run(command, args, options = {}) {
	const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit', ...options });
	if (result.status !== 0)
		throw new Error(`package: ${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
}

/** Where `npm run package` writes the .vsix unless told otherwise. */
export function defaultVsixPath() {
	return join(repoRoot, `${extensionId.id.split('.')[1]}-${extensionId.version}.vsix`);
}

/**
 * Builds the production bundle, packs the .vsix, and rebuilds the development bundle (with source maps) that the
 * tests and `npm start` use. Returns the .vsix's absolute path.
 * @param {{ out?: string }} [options]
 * @throws Error when the build or vsce fails (vsce's own message is on stderr).
 */
export async function packageVsix(options = {}) {
	if (!existsSync(vsce)) throw new Error('package: @vscode/vsce is not installed: run npm install');
	const out = resolve(options.out ?? defaultVsixPath());
	const node = await ensureNode22();
	run(process.execPath, ['esbuild.mjs', '--production']);
	try {
		// The bundle in dist/ already holds the run-time dependencies, so vsce packs no node_modules
		// (--no-dependencies); .vscodeignore is an allowlist. The README's screenshots are packed (docs/) and their links
		// left relative (--no-rewrite-relative-links): VS Code shows them from the installed folder, and there is no
		// public repository URL to rewrite it to.
		run(node, [
			vsce,
			'package',
			'--no-dependencies',
			'--allow-missing-repository',
			'--no-rewrite-relative-links',
			'--out',
			out,
		]);
	} finally {
		run(process.execPath, ['esbuild.mjs']);
	}
	return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const outArg = process.argv.indexOf('--out');
	try {
		const file = await packageVsix({ out: outArg > 0 ? process.argv[outArg + 1] : undefined });
		console.log(`package: ${file} (${Math.round(statSync(file).size / 1024)} KB)`);
	} catch (error) {
		console.error(error instanceof Error ? error.message : String(error));
		process.exit(1);
	}
}
