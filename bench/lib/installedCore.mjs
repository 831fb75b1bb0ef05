// The headless core as `npm install mcp-switchboard` puts it on disk: the npm package's production bundles
// (scripts/package-build.mjs, as `npm run pack:cli` builds them) under node_modules/mcp-switchboard/ with the
// package's own package.json. Import rows measure this rather than the repository's dist/core.js: Node reads the
// nearest package.json on the first require of a package's file, and the repository's is the extension's manifest
// (~50 KB), which no user of the core loads; the SDK is measured installed in node_modules the same way.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProductionBundles } from '../../scripts/package-build.mjs';
import { CLI_PACKAGE_DIR } from '../../scripts/package-cli.mjs';

let staged;

/** The path of the installed package's dist/core.js (built once per bench run, removed when the process exits). */
export function installedCore() {
	staged ??= (async () => {
		const dir = mkdtempSync(join(tmpdir(), 'bench-core-'));
		process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
		const pkg = join(dir, 'node_modules', 'mcp-switchboard');
		mkdirSync(pkg, { recursive: true });
		copyFileSync(join(CLI_PACKAGE_DIR, 'package.json'), join(pkg, 'package.json'));
		await buildProductionBundles(join(pkg, 'dist'), ['core']);
		return join(pkg, 'dist', 'core.js');
	})();
	return staged;
}
