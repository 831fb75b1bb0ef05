// `npm run package`: a production build and a .vsix made by @vscode/vsce, run with the Node 24 of the VS Code cache
// (vsce needs Node 22 or newer; the machine's Node may be 20). vsce is fetched by npx on first use, so this is a
// manual command for machines that reach the npm registry, not a CI step.
//
// Install the result with `code --install-extension mcp-switchboard-<version>.vsix` (desktop VS Code) or
// code-server's `--install-extension`.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureVsCode } from './vscode-server.mjs';
import { extensionId, repoRoot } from './workbench.mjs';

const VSCE = '@vscode/vsce@3';

function run(command, args, options = {}) {
	const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit', ...options });
	if (result.status !== 0) {
		console.error(`package: ${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
		process.exit(1);
	}
}

run(process.execPath, ['esbuild.mjs', '--production']);
const vs = ensureVsCode();
const out = `${extensionId.id.split('.')[1]}-${extensionId.version}.vsix`;
// npx resolves `node` from PATH: put Node 24 first. The bundle in dist/ already holds the runtime dependencies,
// so vsce packs no node_modules (--no-dependencies); .vscodeignore is an allowlist. The README's screenshot is packed
// (docs/) and its link left relative (--no-rewrite-relative-links): VS Code shows it from the installed folder, and
// there is no public repository URL to rewrite it to.
run('npx', ['--yes', VSCE, 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '--out', out], {
	env: { ...process.env, PATH: `${join(vs.nodeDir, 'bin')}:${process.env.PATH ?? ''}` },
});
// Back to the development build (with source maps) that the tests and `npm start` use.
run(process.execPath, ['esbuild.mjs']);
console.log(`package: ${join(repoRoot, out)}`);
