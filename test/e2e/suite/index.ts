// The tests module the extension host loads (`extensionTestsPath`), for both runners: test/e2e/run.mjs
// (code-server + Playwright) and test/e2e/electron.mjs (@vscode/test-electron). `run()` loads every `*.e2e.js`
// (or, in the untrusted run, every `*.restricted.js`; in the installed-package run, the files it names) next to this file, runs the registered tests one at a time, prints `✔ name` / `✖ name: error`, writes the
// results to `MCP_SWITCHBOARD_E2E_RESULTS` when set, and rejects when any test failed (so the runner's exit
// code says so). A suite that asked to be continued in a new window ends this window after it, unjudged: the next
// window's `run()` goes on with its `*.next.e2e.js` and the rest, and reports the results of all windows
// (nextWindow.ts).
//
// Environment: `MCP_SWITCHBOARD_E2E_GREP` keeps only tests whose suite file or name contains it (several
// separated by `|`); `MCP_SWITCHBOARD_E2E_DEADLINE` (epoch ms) is when the runner gives up: tests are cut short
// before it, and those left are reported as not run, so the results and the screenshot still get written.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { extensionApi, hasDriver, registry, screenshot, sleep } from './harness';
import { continuationOf, CONTINUATION_SUFFIX, runnerOpensNextWindow, takeHandOver, writeHandOver } from './nextWindow';
import type { TestResult } from './nextWindow';
import { SettingsSnapshot } from './settingsSnapshot';
import type { RegisteredTest } from './harness';

export type { TestResult } from './nextWindow';

/** Loads the suites, runs them, and rejects with a summary when any test failed or none ran. */
export async function run(): Promise<void> {
	const r = registry();
	// A window that continues a suite of the previous one (nextWindow.ts) runs what that window left it.
	const handOver = takeHandOver();
	if (handOver) r.received = { state: handOver.state };
	const window = handOver?.window ?? 1;
	const results: TestResult[] = [...(handOver?.results ?? [])];
	const loadErrors: TestResult[] = [];
	// The untrusted run (MCP_SWITCHBOARD_E2E_SUITES=restricted, a workspace in Restricted Mode) loads only the
	// `*.restricted.js` suites; the installed-package run names its suite files (comma-separated, in that order); the
	// trusted run loads the `*.e2e.js` ones, but not the continuations (`*.next.e2e.js`), which run in a next window.
	const chosen = process.env.MCP_SWITCHBOARD_E2E_SUITES;
	const suffix = chosen === 'restricted' ? '.restricted.js' : '.e2e.js';
	const suites =
		handOver?.suites ??
		(chosen && chosen !== 'restricted'
			? chosen.split(',')
			: fs
					.readdirSync(__dirname)
					.filter((f) => f.endsWith(suffix) && !f.endsWith(CONTINUATION_SUFFIX))
					.sort());
	for (const suite of suites) {
		r.currentSuite = suite;
		try {
			// Suites are found by file name at run time, so they are loaded by path rather than imported.
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			require(path.join(__dirname, suite));
		} catch (error) {
			// A suite that fails to load is a failed test, named after the file, rather than a silent gap.
			loadErrors.push({ name: `load ${suite}`, suite, ok: false, error: describe(error), durationMs: 0 });
		}
	}
	const filters = (process.env.MCP_SWITCHBOARD_E2E_GREP ?? '').split('|').filter(Boolean);
	const selected = r.tests.filter(
		(t) =>
			filters.length === 0 ||
			t.suite === handOver?.continuation ||
			// A filter naming a continuation (`x.next`) runs the suite it continues, which hands over to it.
			filters.some((f) => t.name.includes(f) || t.suite.includes(f) || continuationOf(t.suite, __dirname)?.includes(f)),
	);
	log(
		`e2e: ${window > 1 ? `window ${window}: ` : ''}${selected.length} tests from ${suites.length} suites in VS Code ${vscode.version}${filters.length ? ` (filter ${filters.join('|')})` : ''}`,
	);
	for (const failure of loadErrors) {
		results.push(failure);
		log(`✖ ${failure.name}: ${failure.error}`);
	}

	const deadline = Number(process.env.MCP_SWITCHBOARD_E2E_DEADLINE) || Number.POSITIVE_INFINITY;
	const reserveMs = 20_000; // for the failure screenshots, the workbench screenshot and writing results
	const snapshot = new SettingsSnapshot(handOver?.settings);
	for (const [i, t] of selected.entries()) {
		const left = deadline - reserveMs - Date.now();
		if (left <= 1000) {
			results.push({
				name: t.name,
				suite: t.suite,
				ok: false,
				error: "not run: the e2e run's time budget was used up by earlier tests",
				durationMs: 0,
			});
			log(`✖ ${t.name}: not run (time budget used up)`);
			continue;
		}
		r.runningSuite = t.suite;
		const result = await runOne(t, Math.min(t.timeoutMs, left));
		if (window > 1) result.window = window;
		results.push(result);
		log(result.ok ? `✔ ${t.name} (${result.durationMs} ms)` : `✖ ${t.name}: ${result.error}`);
		if (!result.ok) {
			// Keep a picture of what went wrong, then leave the next test a clean workbench: a failed test may have
			// left a quick input, an editor or a notification open.
			await screenshot(`failure-${results.length}`).then(undefined, () => undefined);
			for (const command of [
				'workbench.action.closeQuickOpen',
				'notifications.clearAll',
				'workbench.action.closeAllEditors',
			]) {
				await vscode.commands.executeCommand(command).then(undefined, () => undefined);
			}
		}
		if (selected[i + 1]?.suite !== t.suite) {
			if (r.handOver?.suite === t.suite) {
				// The suite goes on in a new window: leave its settings, hand over, and let the runner open that window.
				handOverAfter(t.suite, suites, { window, results, snapshot, state: r.handOver.state });
				return;
			}
			const next = continuationOf(t.suite, __dirname);
			if (next)
				log(
					`e2e: ${next} not run: ${runnerOpensNextWindow() ? `${t.suite} did not ask for a next window (it failed before it did)` : 'this runner opens no next window'}`,
				);
			await restoreSettings(snapshot, t.suite);
			// A suite that opened the chat (the secondary side bar) leaves the next one its full window.
			await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar').then(undefined, () => undefined);
		}
	}

	// The workbench as the suites left it: the picture of a full run.
	try {
		await screenshot('workbench');
	} catch (error) {
		log(`e2e: no workbench screenshot: ${describe(error)}`);
	}

	const passed = results.filter((x) => x.ok).length;
	const failed = results.length - passed;
	const file = process.env.MCP_SWITCHBOARD_E2E_RESULTS;
	if (file) fs.writeFileSync(file, JSON.stringify({ passed, failed, tests: results }, null, '\t'));
	log(`e2e: ${passed} passed, ${failed} failed${hasDriver() ? '' : ' (no page driver)'}`);
	if (failed > 0) throw new Error(`${failed} of ${results.length} e2e tests failed`);
	// With a filter, matching nothing is a fine answer; without one, an empty run means the suites were lost.
	if (results.length === 0 && filters.length === 0) throw new Error('No e2e test ran');
}

/**
 * Ends this window after `suite`, which asked to be continued: the next window runs its continuation and then the
 * suites after it (re-filtered there), and puts the settings back to `snapshot`.
 */
function handOverAfter(
	suite: string,
	suites: readonly string[],
	from: { window: number; results: TestResult[]; snapshot: SettingsSnapshot; state: unknown },
): void {
	const continuation = continuationOf(suite, __dirname)!;
	writeHandOver({
		window: from.window + 1,
		suites: [continuation, ...suites.slice(suites.indexOf(suite) + 1)],
		continuation,
		state: from.state,
		settings: from.snapshot.saved(),
		results: from.results,
	});
	log(`e2e: ${suite} continues in a new window with ${continuation}`);
}

/** Puts back the settings a suite changed, and waits (up to 15 s) until the extension has applied them. */
async function restoreSettings(snapshot: SettingsSnapshot, suite: string): Promise<void> {
	const changed = snapshot.restore();
	if (changed.length === 0) return;
	log(
		`e2e: ${suite} changed ${changed.map((f) => path.basename(path.dirname(f)) + '/' + path.basename(f)).join(', ')}; restored`,
	);
	try {
		const api = await extensionApi<{ settled?: () => Promise<void> } | undefined>();
		// The configuration watcher is debounced: give it a moment to see the files, then wait for it to apply them.
		await sleep(500);
		await Promise.race([api?.settled?.(), sleep(15_000)]);
	} catch {
		// An extension that failed to activate has nothing to settle; its own tests say so.
	}
}

async function runOne(t: RegisteredTest, timeoutMs: number): Promise<TestResult> {
	const started = Date.now();
	const controller = new AbortController();
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(() => {
			controller.abort();
			reject(
				new Error(
					`timed out after ${timeoutMs} ms${timeoutMs < t.timeoutMs ? " (cut short by the run's time budget)" : ''}`,
				),
			);
		}, timeoutMs);
	});
	try {
		await Promise.race([Promise.resolve().then(() => t.fn({ signal: controller.signal })), timeout]);
		return { name: t.name, suite: t.suite, ok: true, durationMs: Date.now() - started };
	} catch (error) {
		return { name: t.name, suite: t.suite, ok: false, error: describe(error), durationMs: Date.now() - started };
	} finally {
		clearTimeout(timer);
	}
}

function describe(error: unknown): string {
	if (error instanceof Error) {
		// The first stack frames say where; the whole stack is noise in a one-line summary.
		const frames = (error.stack ?? '')
			.split('\n')
			.filter((l) => l.trimStart().startsWith('at '))
			.slice(0, 3)
			.map((l) => l.trim());
		return [error.message, ...frames].join(' | ');
	}
	return String(error);
}

function log(line: string): void {
	console.log(line);
}
