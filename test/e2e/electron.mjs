// Runs the same e2e suites in desktop VS Code through @vscode/test-electron, for machines with internet (it
// downloads VS Code from Microsoft's update server, which these build machines cannot reach: there, use
// test/e2e/run.mjs). On Linux without a display, run it under `xvfb-run -a`.
//
//   node test/e2e/electron.mjs [filter ...] [--no-build]
//
// VSCODE_VERSION picks the build (default `stable`; `insiders` or e.g. `1.104.0`). Writes test-results/e2e.json like
// run.mjs. This runner has no page driver: the harness's driver helpers (screenshots, key presses, DOM reads) say
// so, and tests that need them fail with that message; VS Code commands and the extension API work as usual.
// A suite continued in a new window (suite/nextWindow.ts) gets one: VS Code is started again with the same
// --user-data-dir and workspace while a window leaves a hand-over file.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { copyWorkspace, repoRoot } from '../../scripts/workbench.mjs';

const args = process.argv.slice(2);
const filters = args.filter((a) => !a.startsWith('--'));
process.chdir(repoRoot);
mkdirSync('test-results', { recursive: true });
const resultsPath = join(repoRoot, 'test-results', 'e2e.json');
rmSync(resultsPath, { force: true });

if (!args.includes('--no-build') && spawnSync(process.execPath, ['esbuild.mjs'], { stdio: 'inherit' }).status !== 0) {
	writeFileSync(
		resultsPath,
		JSON.stringify({ passed: 0, failed: 1, tests: [{ name: 'e2e run', ok: false, error: 'the build failed' }] }),
	);
	process.exit(1);
}

const scratch = mkdtempSync(join(tmpdir(), 'mcp-switchboard-electron-'));
const workspace = copyWorkspace(join(repoRoot, 'test', 'e2e', 'workspace'), join(scratch, 'workspace'));
const resultsFile = join(scratch, 'results.json');
/** Left by a window whose suite goes on in a new window (suite/nextWindow.ts); read and removed by that window. */
const handOverFile = join(scratch, 'handover.json');
const MAX_WINDOWS = 5;
const fixture = join(repoRoot, 'test', 'e2e', 'fixture-extension');

let exitCode = 0;
try {
	for (let window = 1; window === 1 || existsSync(handOverFile); window++) {
		if (window > MAX_WINDOWS) throw new Error(`a suite asked for more than ${MAX_WINDOWS} windows`);
		if (window > 1) console.log(`e2e (electron): a suite goes on in a new window: starting VS Code again (${window})`);
		await runWindow();
	}
} catch (error) {
	console.error(`e2e (electron): ${error instanceof Error ? error.message : String(error)}`);
	exitCode = 1;
}

/** One window: VS Code started on the workspace with this run's profile, until its tests end. */
async function runWindow() {
	await runTests({
		version: process.env.VSCODE_VERSION ?? 'stable',
		extensionDevelopmentPath: existsSync(join(fixture, 'package.json')) ? [repoRoot, fixture] : repoRoot,
		extensionTestsPath: join(repoRoot, 'out', 'e2e', 'suite', 'index.js'),
		extensionTestsEnv: {
			MCP_SWITCHBOARD_E2E_RESULTS: resultsFile,
			MCP_SWITCHBOARD_E2E_GREP: filters.join('|'),
			MCP_SWITCHBOARD_E2E_REPO: repoRoot,
			MCP_SWITCHBOARD_E2E_USER_SETTINGS: join(scratch, 'user-data', 'User', 'settings.json'),
			MCP_SWITCHBOARD_E2E_HANDOVER: handOverFile,
		},
		launchArgs: [
			workspace,
			'--disable-extensions', // other installed extensions stay out; the ones under development still load
			// runTests adds --disable-workspace-trust, --skip-welcome and the like itself.
			'--user-data-dir',
			join(scratch, 'user-data'),
			'--extensions-dir',
			join(scratch, 'extensions'),
		],
	});
}

if (existsSync(resultsFile)) {
	const summary = JSON.parse(readFileSync(resultsFile, 'utf8'));
	if (exitCode !== 0 && summary.failed === 0) {
		summary.failed += 1;
		summary.tests.push({ name: 'e2e run', ok: false, error: 'VS Code exited with an error' });
	}
	writeFileSync(resultsPath, JSON.stringify(summary, null, '\t'));
	console.log(`e2e (electron): ${summary.passed} passed, ${summary.failed} failed`);
} else {
	writeFileSync(
		resultsPath,
		JSON.stringify({
			passed: 0,
			failed: 1,
			tests: [{ name: 'e2e run', ok: false, error: 'the suites wrote no results' }],
		}),
	);
	exitCode = 1;
}
rmSync(scratch, { recursive: true, force: true });
process.exit(exitCode);
