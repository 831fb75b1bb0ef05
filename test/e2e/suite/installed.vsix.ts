// The extension as users get it: the .vsix that scripts/package.mjs builds, installed into VS Code with
// `--install-extension` (test/e2e/run.mjs, the installed-package run). These tests look at the installed copy itself;
// the same run then runs activation.e2e and ui.e2e against it (run.mjs VSIX_ALSO).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import { EXTENSION_ID, extensionApi, test, waitFor } from './harness';

const repo = process.env.MCP_SWITCHBOARD_E2E_REPO ?? '';
const installedFolder = process.env.MCP_SWITCHBOARD_E2E_INSTALLED ?? '';

function extension(): vscode.Extension<unknown> {
	const found = vscode.extensions.getExtension(EXTENSION_ID);
	assert.ok(found, `${EXTENSION_ID} is not loaded in the extension host`);
	return found;
}

/** Every file below `dir`, as paths relative to it with `/` separators, sorted. */
function filesBelow(dir: string, prefix = ''): string[] {
	return fs
		.readdirSync(dir, { withFileTypes: true })
		.flatMap((entry) => {
			const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
			return entry.isDirectory() ? filesBelow(path.join(dir, entry.name), relative) : [relative];
		})
		.sort();
}

/** Relative file paths that package.json points at (main, icons, JSON schemas), except the npm CLI's `bin`. */
function referencedFiles(packageJson: unknown): string[] {
	const found = new Set<string>();
	const walk = (value: unknown, key: string): void => {
		// `bin` is the command line for npm installs (dist/cli.js); an extension package has no use for it.
		if (key === 'bin') return;
		if (typeof value === 'string') {
			if (/^(\.\/)?(dist|media|schemas|docs)\//.test(value)) found.add(value.replace(/^\.\//, ''));
		} else if (value && typeof value === 'object') {
			for (const [k, v] of Object.entries(value)) walk(v, k);
		}
	};
	walk(packageJson, '');
	return [...found].sort();
}

test('the extension runs from the installed .vsix, not from the repository', async () => {
	assert.ok(installedFolder, 'MCP_SWITCHBOARD_E2E_INSTALLED names the folder the .vsix was installed into');
	assert.ok(repo, 'MCP_SWITCHBOARD_E2E_REPO names the repository');
	const where = fs.realpathSync(extension().extensionPath);
	assert.equal(where, fs.realpathSync(installedFolder), 'the extension host loaded the installed copy');
	assert.ok(
		!where.startsWith(fs.realpathSync(repo) + path.sep),
		`the extension path ${where} is not inside the repository`,
	);
	const version = (JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { version: string }).version;
	assert.equal(
		(extension().packageJSON as { version: string }).version,
		version,
		"the installed version is the repository's",
	);
	await waitFor(() => extension().isActive, { timeoutMs: 20_000, message: `${EXTENSION_ID} to activate on startup` });
	const api = await extensionApi<SwitchboardApi>();
	assert.equal(typeof api.manager.servers, 'function', 'the installed extension returns its API');
});

test('the package holds what the extension needs and nothing of the source tree', () => {
	const files = filesBelow(extension().extensionPath);
	// What a user needs: the manifest, the bundle, the files package.json points at, the license and the docs shown
	// on the extension's page (vsce stores README and CHANGELOG as readme.md / changelog.md, LICENSE as LICENSE.txt).
	const needed = [
		'package.json',
		'readme.md',
		'changelog.md',
		'LICENSE.txt',
		...referencedFiles(extension().packageJSON),
	];
	const missing = needed.filter((f) => !files.includes(f));
	assert.deepEqual(missing, [], `missing from the installed package (has: ${files.join(', ')})`);
	assert.ok(
		needed.includes('dist/extension.js') && needed.includes('media/mcp.svg'),
		`package.json's main and icon are among the needed files: ${needed.join(', ')}`,
	);
	// Nothing else: no sources, tests, source maps, dependencies (the bundle holds them) or development files.
	const allowed =
		/^(package\.json|readme\.md|changelog\.md|LICENSE\.txt|\.vsixmanifest|dist\/extension\.js|media\/[\w.-]+\.(svg|png)|schemas\/[\w.-]+\.json|docs\/[\w.-]+\.png)$/;
	const unexpected = files.filter((f) => !allowed.test(f));
	assert.deepEqual(unexpected, [], 'files in the package beyond what the extension needs');
	const bundle = fs.readFileSync(path.join(extension().extensionPath, 'dist', 'extension.js'), 'utf8');
	assert.ok(
		!/sourceMappingURL/.test(bundle),
		'the packaged bundle is the production build, without a source map reference',
	);
	assert.ok(
		bundle.length < fs.statSync(path.join(repo, 'dist', 'extension.js')).size,
		'the packaged bundle is minified: smaller than the development build',
	);
});

test('the images the README shows on the extension page are in the package', () => {
	const folder = extension().extensionPath;
	const readme = fs.readFileSync(path.join(folder, 'readme.md'), 'utf8');
	const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)]
		.map((m) => m[1] ?? '')
		.filter((src) => !/^[a-z]+:/i.test(src));
	assert.ok(images.length > 0, 'the README shows at least one image (the Servers view screenshot)');
	const missing = images.filter((src) => !fs.existsSync(path.join(folder, src)));
	assert.deepEqual(missing, [], 'README images not in the package');
});
