// Runs the e2e suites (out/e2e/suite/*.e2e.js) inside a real VS Code: code-server 4.139.1 (VS Code 1.139.1) from
// the cache of scripts/vscode-server.mjs, driven by headless Chromium through playwright-core.
//
//   node test/e2e/run.mjs [filter ...] [--no-build]
//
// - filters keep tests whose name or suite file contains one of them (MCP_SWITCHBOARD_E2E_GREP in the host);
// - `--no-build` skips `node esbuild.mjs` (test/run.mjs has just built);
// - MCP_SWITCHBOARD_E2E_SUITE_DIR runs the index.js and suites of another build (default out/e2e/suite);
// - MCP_SWITCHBOARD_E2E_RESULTS_DIR writes this run's files there instead of test-results/ (for concurrent runs);
// - MCP_SWITCHBOARD_E2E_KEEP=1 keeps the scratch folder (profile, logs, workspace copy) for a look afterwards;
// - MCP_SWITCHBOARD_E2E_TIMEOUT_MS bounds the whole run (default 20 min); the run then fails with what it saw.
// - After the trusted run, a second, untrusted run opens test/e2e/workspace-restricted with workspace trust on and
//   the folder not trusted (Restricted Mode) and runs the `*.restricted.ts` suites; its results are merged into
//   e2e.json. It runs when no filter is given or a filter names a restricted suite file (or "restricted").
//   MCP_SWITCHBOARD_E2E_RESTRICTED=1 makes this process that untrusted run.
// - Then the installed-package run: scripts/package.mjs builds the .vsix (mcp-switchboard-<version>.vsix in the
//   repository, what users install), code-server's `--install-extension` installs it into a fresh extensions folder,
//   and the `*.vsix.ts` suites plus the suites in VSIX_ALSO run against that installed copy (the repository is not
//   the extension's development path in this run: the test-models fixture is). It runs when no filter is given or a
//   filter is "vsix" or names a `*.vsix.ts` file. MCP_SWITCHBOARD_E2E_VSIX=<file> makes this process that run.
// - A suite can be continued in a new window (suite/nextWindow.ts): when a window's tests end with a hand-over file
//   (MCP_SWITCHBOARD_E2E_HANDOVER), the page is closed and a new one opens the same URL on the same code-server, so
//   the next window has a fresh extension host over the same user data; its results include the earlier windows'.
//
// Writes test-results/e2e.json `{ passed, failed, tests: [{ name, ok, error? }] }`, test-results/e2e-console.log
// (page console: extension host and runner output), test-results/workbench.png (taken when the suites finished)
// and test-results/code-server.log. Exits non-zero when a test failed or the run broke.
import { spawnSync } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	renameSync,
	rmSync,
	writeFileSync,
	createWriteStream,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { ensureVsCode } from '../../scripts/vscode-server.mjs';
import { packageVsix } from '../../scripts/package.mjs';
import {
	chromiumPath,
	copyWorkspace,
	extensionHostLogs,
	freePort,
	installVsix,
	killTagged,
	launchChromium,
	newRunToken,
	registerInstalledExtensions,
	repoRoot,
	startCodeServer,
	waitHealthy,
	writeUserSettings,
} from '../../scripts/workbench.mjs';

const args = process.argv.slice(2);
const filters = args.filter((a) => !a.startsWith('--'));
/** This process is the untrusted run (Restricted Mode): another workspace, workspace trust on, the restricted suites. */
const restricted = process.env.MCP_SWITCHBOARD_E2E_RESTRICTED === '1';
/** This process is the installed-package run: the .vsix to install and test. */
const vsix = process.env.MCP_SWITCHBOARD_E2E_VSIX;
/**
 * Trusted-run suites that also run against the installed .vsix, besides the `*.vsix.ts` ones: activation (every
 * contributed command registered, a clean log) and the Servers tree with real calls to server-everything.
 */
const VSIX_ALSO = ['activation.e2e.js', 'ui.e2e.js'];
const timeoutMs = Number(process.env.MCP_SWITCHBOARD_E2E_TIMEOUT_MS ?? 20 * 60_000);
/**
 * How long a page action (fill, click) may wait for its element to be visible, enabled and stable. CI runs on two
 * shared cores with load averages of 20+, where the workbench can take seconds to lay out a quick input; 5 s failed
 * there. The harness's `driver()` waits longer than this for the answer (harness.ts DRIVER_ANSWER_MS).
 */
const PAGE_ACTION_MS = 15_000;
// Several people may run e2e in one tree at once: MCP_SWITCHBOARD_E2E_RESULTS_DIR keeps a run's files apart.
const results = process.env.MCP_SWITCHBOARD_E2E_RESULTS_DIR ?? join(repoRoot, 'test-results');
const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

process.chdir(repoRoot);
mkdirSync(results, { recursive: true });
for (const name of readdirSync(results)) {
	if (
		name === 'e2e.json' ||
		name === 'e2e-console.log' ||
		name === 'code-server.log' ||
		/^((restricted|vsix)-.*|(workbench|failure-\d+)\.png)$/.test(name)
	)
		rmSync(join(results, name), { force: true });
}

/** Writes the results file run.mjs's callers read; used for both a finished run and a broken one. */
function writeResults(summary) {
	writeFileSync(join(results, 'e2e.json'), JSON.stringify(summary, null, '\t'));
}

/** Test lines seen on the console so far: what a broken run still reports. */
const seen = [];

function brokenRun(message) {
	console.error(`e2e: ${message}`);
	const tests = [...seen, { name: 'e2e run', ok: false, error: message }];
	writeResults({ passed: tests.filter((t) => t.ok).length, failed: tests.filter((t) => !t.ok).length, tests });
}

if (!args.includes('--no-build')) {
	const build = spawnSync(process.execPath, ['esbuild.mjs'], { stdio: 'inherit' });
	if (build.status !== 0) {
		brokenRun('the build failed');
		process.exit(1);
	}
}
const suiteDir = process.env.MCP_SWITCHBOARD_E2E_SUITE_DIR ?? join(repoRoot, 'out', 'e2e', 'suite');
if (!existsSync(join(suiteDir, 'index.js'))) {
	brokenRun(`${suiteDir}/index.js is missing: run node esbuild.mjs`);
	process.exit(1);
}

/**
 * The runs after the trusted one, each a child process of this script with its own workbench: `keyword` as a filter
 * asks for all of its suites, `suffix` names its own suite files, `prepare()` returns the child's environment.
 */
const extraRuns = [
	{
		keyword: 'restricted',
		suffix: '.restricted.js',
		label: 'untrusted run (Restricted Mode) for the *.restricted suites',
		budgetMs: 5 * 60_000,
		prepare: async () => ({ MCP_SWITCHBOARD_E2E_RESTRICTED: '1' }),
	},
	{
		keyword: 'vsix',
		suffix: '.vsix.js',
		label: 'installed-package run: the .vsix installed into VS Code',
		budgetMs: 8 * 60_000,
		prepare: async () => ({ MCP_SWITCHBOARD_E2E_VSIX: await packageVsix() }),
	},
];
const inChild = restricted || vsix !== undefined;

// Only the extra runs' suites asked for: skip the trusted workbench.
if (
	!inChild &&
	filters.length > 0 &&
	filters.every((f) => extraRuns.some((r) => f === r.keyword || f.includes(r.suffix.slice(0, -'.js'.length))))
) {
	mkdirSync(results, { recursive: true });
	writeResults({ passed: 0, failed: 0, tests: [] });
	let status = 0;
	for (const run of extraRuns) status = (await extraRun(run)) || status;
	process.exit(status);
}

let vs;
try {
	vs = ensureVsCode();
	chromiumPath();
} catch (error) {
	brokenRun(error.message);
	process.exit(1);
}
// The time budget is the tests' own: it starts once VS Code is installed. A first install on a loaded machine once
// took 21 minutes (npm fetching code-server's 165 packages at load average 25), which used up a budget counted from
// this script's start, so all 101 tests were reported as not run.
const budgetStarted = Date.now();

const token = newRunToken();
const scratch = mkdtempSync(join(tmpdir(), 'mcp-switchboard-e2e-'));
const workspace = copyWorkspace(
	join(repoRoot, 'test', 'e2e', restricted ? 'workspace-restricted' : 'workspace'),
	join(scratch, 'workspace'),
);
const driverDir = join(scratch, 'driver');
mkdirSync(driverDir);
const resultsFile = join(scratch, 'results.json');
/** Written by a window whose suite goes on in a new window (suite/nextWindow.ts); read and removed by that window. */
const handOverFile = join(scratch, 'handover.json');
/** At most this many windows per run: a continuation that asks for one more each time must not loop forever. */
const MAX_WINDOWS = 5;
// The untrusted run: workspace trust on, no trust question at start-up (a smoke-test driver would answer it by
// itself), so the folder, trusted by nobody, opens in Restricted Mode, as a freshly cloned repository does.
writeUserSettings(
	join(scratch, 'user-data'),
	restricted
		? {
				'security.workspace.trust.enabled': true,
				'security.workspace.trust.startupPrompt': 'never',
				'security.workspace.trust.banner': 'never',
			}
		: {},
);

const consoleLog = createWriteStream(join(results, 'e2e-console.log'));
let server;
let browser;
let exitCode;
let finished = false;

async function cleanup() {
	if (browser) await browser.close().catch(() => undefined);
	const killed = await killTagged(token, { groupLeader: server?.child.pid });
	if (killed.length > 0) console.error(`e2e: SIGKILL for what outlived SIGTERM by 3 s:\n  ${killed.join('\n  ')}`);
	if (server) {
		try {
			cpSync(server.logFile, join(results, 'code-server.log'));
			const hostLogs = extensionHostLogs(server.userDataDir);
			if (hostLogs.length > 0)
				writeFileSync(
					join(results, 'e2e-exthost.log'),
					hostLogs.map((f) => `==> ${f}\n${readFileSync(f, 'utf8')}`).join('\n'),
				);
		} catch {
			// logs are a courtesy
		}
	}
	await new Promise((r) => consoleLog.end(r));
	if (!process.env.MCP_SWITCHBOARD_E2E_KEEP) rmSync(scratch, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
	process.on(signal, async () => {
		brokenRun(`interrupted by ${signal}`);
		await cleanup();
		process.exit(130);
	});
}

/**
 * What the suite's harness asks of the page (see harness.ts `driver()`): one request file, one answer file. Serves
 * until the run finishes or `window.closed` (a next window takes over).
 */
async function serveDriver(page, window) {
	const visible = (selector) => page.locator(selector).filter({ visible: true });
	const handle = async (request) => {
		switch (request.action) {
			case 'screenshot': {
				const file = join(results, `${request.name.replace(/[^\w.-]/g, '_')}.png`);
				await page.screenshot({ path: file });
				return file;
			}
			case 'press':
				return void (await page.keyboard.press(request.key));
			// A mouse drag from one point to another (a sash, as a person resizes the side bar).
			case 'drag':
				await page.mouse.move(request.from[0], request.from[1]);
				await page.mouse.down();
				await page.mouse.move(request.to[0], request.to[1], { steps: 8 });
				return void (await page.mouse.up());
			case 'type':
				return void (await page.keyboard.type(request.text, { delay: 10 }));
			// Only visible matches: the workbench keeps closed widgets in the DOM (a closed quick input stays, display: none),
			// and `.first()` of every match could be such a hidden one, which Playwright would then wait on until its
			// timeout. The action's own waits (visible, enabled, editable, stable, receives events) stay Playwright's.
			case 'fill':
				return void (await visible(request.selector).first().fill(request.text, { timeout: PAGE_ACTION_MS }));
			case 'click':
				return void (await visible(request.selector)
					.nth(request.nth ?? 0)
					.click({ timeout: PAGE_ACTION_MS, button: request.button ?? 'left' }));
			case 'texts':
				return await page.locator(request.selector).allInnerTexts();
			case 'evaluate':
				return await page.evaluate(request.script);
			// What a screen reader is given: the accessibility tree of the first visible match, as Playwright's ARIA snapshot
			// (roles, accessible names, states as YAML).
			case 'ariaSnapshot':
				return await visible(request.selector).first().ariaSnapshot({ timeout: PAGE_ACTION_MS });
			// Webviews live in nested iframes: evaluate in every frame whose URL contains `frame` and return the values
			// that are not undefined (e.g. what a webview's page shows, or a key press sent to it).
			case 'frameEvaluate': {
				const values = [];
				for (const frame of page
					.frames()
					.filter((f) => f !== page.mainFrame() && f.url().includes(request.frame ?? ''))) {
					const value = await frame.evaluate(request.script).catch(() => undefined);
					if (value !== undefined && value !== null) values.push(value);
				}
				return values;
			}
			// Pages the workbench opened in the browser (vscode.env.openExternal opens a tab, as in a person's browser):
			// where each ended up and what it shows. `close: true` closes them afterwards.
			case 'pages': {
				const found = [];
				for (const other of page
					.context()
					.pages()
					.filter((p) => p !== page)) {
					await other.waitForLoadState('load', { timeout: 5000 }).catch(() => undefined);
					found.push({
						url: other.url(),
						text: await other
							.locator('body')
							.innerText({ timeout: 2000 })
							.catch(() => ''),
					});
					if (request.close) await other.close();
				}
				return found;
			}
			default:
				throw new Error(`unknown action ${request.action}`);
		}
	};
	while (!finished && !window.closed) {
		for (const name of readdirSync(driverDir)
			.filter((n) => n.endsWith('.request.json'))
			.sort()) {
			const base = join(driverDir, name.slice(0, -'.request.json'.length));
			let answer;
			let request;
			try {
				request = JSON.parse(readFileSync(`${base}.request.json`, 'utf8'));
				rmSync(`${base}.request.json`);
				answer = { ok: true, value: await handle(request) };
			} catch (error) {
				answer = {
					ok: false,
					error: await driverError(page, request, error).catch(() => String(error?.message ?? error)),
				};
			}
			writeFileSync(`${base}.tmp-answer`, JSON.stringify(answer));
			renameSync(`${base}.tmp-answer`, `${base}.answer.json`);
		}
		await new Promise((r) => setTimeout(r, 50));
	}
}

/**
 * A failed page action as the CI log should show it: Playwright's message with its call log (what it waited for and
 * what it found, e.g. "element is not visible", "<div …> intercepts pointer events"), then what the selector matches
 * now (each match: visible or hidden, disabled, read-only, where, its start tag). Bounded, so one failure cannot
 * flood the log.
 */
async function driverError(page, request, error) {
	const message = stripVTControlCharacters(String(error?.message ?? error)).trim();
	if (!request?.selector) return message.slice(0, 3000);
	const matches = await page
		.locator(request.selector)
		.evaluateAll((elements) =>
			elements
				.slice(0, 6)
				.map((element) => {
					const rect = element.getBoundingClientRect();
					const style = element.ownerDocument.defaultView.getComputedStyle(element);
					const shown = rect.width > 0 && rect.height > 0 && style.visibility !== 'hidden';
					const disabled = element.disabled === true || element.getAttribute('aria-disabled') === 'true';
					const readOnly = element.readOnly === true;
					const tag = element.outerHTML.slice(0, element.outerHTML.indexOf('>') + 1).slice(0, 200);
					return `${shown ? 'visible' : 'hidden'}${disabled ? ', disabled' : ''}${readOnly ? ', read-only' : ''} at ${Math.round(rect.x)},${Math.round(rect.y)} ${Math.round(rect.width)}x${Math.round(rect.height)}: ${tag}`;
				})
				.concat(elements.length > 6 ? [`… and ${elements.length - 6} more`] : []),
		)
		.catch((e) => [`(could not list the matches: ${String(e?.message ?? e).split('\n')[0]})`]);
	const found = `now matching ${JSON.stringify(request.selector)}: ${matches.length === 0 ? 'nothing' : `\n  ${matches.join('\n  ')}`}`;
	return `${message.slice(0, 2500)}\n${found}`;
}

/**
 * The page console as plain text: the workbench's log service prefixes `%c INFO color: #33f ` (the extension host's
 * console reaches the page through it).
 */
function plainConsole(text) {
	return text
		.replace(/^%c\s*(TRACE|DEBUG|INFO|WARN|ERR)\s+color:\s*#\w+\s*/, '')
		.replace(/%c/g, '')
		.trim();
}

/** Console lines worth showing live (the runner's lines and the extension's own); the log file gets all of them. */
function interesting(text) {
	return /^(✔|✖|e2e:)/.test(text) || (/mcp-switchboard|MCP Switchboard/i.test(text) && !/Creating a socket/.test(text));
}

try {
	const port = await freePort();
	const fixture = join(repoRoot, 'test', 'e2e', 'fixture-extension');
	// The installed-package run installs the .vsix as a user does; the fixture extension is then the development
	// path (below), so the repository's own folder is not loaded at all.
	const installed = vsix ? installVsix(vsix, { scratch }) : undefined;
	if (installed) console.log(`e2e: installed ${vsix} into ${installed}`);
	else if (existsSync(join(fixture, 'package.json')))
		registerInstalledExtensions(join(scratch, 'extensions'), [fixture]);
	server = startCodeServer({
		port,
		workspace,
		scratch,
		token,
		smokeTestDriver: true,
		workspaceTrust: restricted,
		env: {
			...(restricted ? { MCP_SWITCHBOARD_E2E_SUITES: 'restricted' } : {}),
			...(installed
				? {
						MCP_SWITCHBOARD_E2E_SUITES: [
							...readdirSync(suiteDir).filter((f) => f.endsWith('.vsix.js')),
							...VSIX_ALSO,
						].join(','),
						MCP_SWITCHBOARD_E2E_INSTALLED: installed,
					}
				: {}),
			MCP_SWITCHBOARD_E2E_RESULTS: resultsFile,
			MCP_SWITCHBOARD_E2E_DRIVER: driverDir,
			MCP_SWITCHBOARD_E2E_HANDOVER: handOverFile,
			MCP_SWITCHBOARD_E2E_GREP: filters.join('|'),
			MCP_SWITCHBOARD_E2E_REPO: repoRoot,
			MCP_SWITCHBOARD_E2E_USER_SETTINGS: join(scratch, 'user-data', 'User', 'settings.json'),
			// The suites stop starting tests this long before the overall timeout, so their results still arrive.
			MCP_SWITCHBOARD_E2E_DEADLINE: String(budgetStarted + timeoutMs - 30_000),
		},
	});
	console.log(`e2e: VS Code (code-server) on ${server.url} from ${vs.dir}`);
	await waitHealthy(server.url, server.child);
	console.log(`e2e: code-server ready after ${elapsed()}`);

	const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
	// The workbench reads the payload into a Map, so only one extensionDevelopmentPath counts: the fixture
	// extension is registered as installed instead (before code-server starts, above), except in the
	// installed-package run, where the extension under test is the installed .vsix.
	const payload = [
		['extensionDevelopmentPath', remote(installed ? fixture : repoRoot)],
		['extensionTestsPath', remote(join(suiteDir, 'index.js'))],
	];
	const url = `${server.url}?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;

	browser = await launchChromium(token);
	const serverGone = new Promise((_, reject) =>
		server.child.on('exit', (code, signal) =>
			reject(new Error(`code-server exited (${code ?? signal}) during the run`)),
		),
	);
	const timedOut = new Promise((_, reject) =>
		setTimeout(
			() => reject(new Error(`the e2e run did not finish within ${timeoutMs / 1000} s of VS Code being installed`)),
			budgetStarted + timeoutMs - Date.now(),
		).unref(),
	);
	exitCode = await runWindow(url, { serverGone, timedOut });
	// A suite asked to go on in a new window: the same URL again, so a new workbench and extension host start over the
	// same user data (globalStorage, settings) and the workspace copy, as when a person opens VS Code the next time.
	for (let window = 2; existsSync(handOverFile) && window <= MAX_WINDOWS; window++) {
		console.log(`e2e: window ${window - 1} handed over (exit code ${exitCode}); opening window ${window}`);
		exitCode = await runWindow(url, { serverGone, timedOut });
	}
	if (existsSync(handOverFile)) throw new Error(`a suite asked for more than ${MAX_WINDOWS} windows`);
	finished = true;
	console.log(`e2e: the workbench reported exit code ${exitCode} after ${elapsed()}`);

	if (existsSync(resultsFile)) {
		const summary = JSON.parse(readFileSync(resultsFile, 'utf8'));
		writeResults(summary);
		if (exitCode !== 0 && summary.failed === 0) {
			// The runner failed outside any test (e.g. in run() itself): count it.
			summary.failed += 1;
			summary.tests.push({ name: 'e2e run', ok: false, error: `the extension host exited with ${exitCode}` });
			writeResults(summary);
		}
	} else {
		brokenRun(`the suites wrote no results (exit code ${exitCode}); see test-results/e2e-console.log`);
		exitCode = exitCode || 1;
	}
} catch (error) {
	finished = true;
	brokenRun(error.message);
	if (browser) {
		const page = browser.contexts()[0]?.pages()[0];
		await page?.screenshot({ path: join(results, 'workbench.png') }).catch(() => undefined);
	}
	exitCode = 1;
}

await cleanup();

/**
 * Opens the workbench at `url` in a new page (closing the previous one), serves its driver, and resolves with the exit
 * code it reports when its tests end; rejects when code-server exits, the page crashes or the run's time is up.
 */
async function runWindow(url, { serverGone, timedOut }) {
	for (const open of browser.contexts().flatMap((context) => context.pages())) await open.close();
	const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
	const exited = new Promise((resolveExit) => {
		page.exposeFunction('codeAutomationExit', async (code) => {
			resolveExit(Number(code));
		});
	});
	page.on('console', (message) => {
		const text = message.text();
		consoleLog.write(`[${message.type()}] ${text}\n`);
		const plain = plainConsole(text);
		if (interesting(plain)) console.log(plain);
		const line = /^(✔|✖) (.*?)(?: \(\d+ ms\)$|: ([^]*))?$/.exec(plain);
		if (line) seen.push({ name: line[2], ok: line[1] === '✔', ...(line[3] ? { error: line[3] } : {}) });
	});
	page.on('pageerror', (error) => consoleLog.write(`[pageerror] ${error.message}\n`));
	// Tabs the workbench opens (vscode.env.openExternal): where they went, without the query (OAuth state and codes).
	page.context().on('page', (opened) => {
		opened.on('load', () => {
			const url = URL.canParse(opened.url()) ? new URL(opened.url()) : undefined;
			consoleLog.write(`[browser tab] loaded ${url ? url.origin + url.pathname : opened.url()}\n`);
		});
	});
	const crashed = new Promise((_, reject) => page.on('crash', () => reject(new Error('the workbench page crashed'))));
	// The workbench page's first load can take longer than Playwright's default 30 s on a loaded machine (load averages
	// of 20+ on two cores here: one restricted run failed at 30 s); two minutes still fail a workbench that never loads.
	await page.goto(url, { timeout: 120_000 });
	const window = { closed: false };
	void serveDriver(page, window);
	try {
		return await Promise.race([exited, serverGone, crashed, timedOut]);
	} finally {
		window.closed = true;
	}
}

/**
 * Runs one of `extraRuns` in a second workbench (this script again, as a child process) when the filters ask for it,
 * and merges its results into e2e.json, each test marked with the run's keyword. Returns the exit status.
 */
async function extraRun(run) {
	const suites = existsSync(suiteDir) ? readdirSync(suiteDir).filter((f) => f.endsWith(run.suffix)) : [];
	if (suites.length === 0) return 0;
	if (filters.length > 0 && !filters.some((f) => f === run.keyword || suites.some((s) => s.includes(f)))) return 0;
	const childResults = mkdtempSync(join(tmpdir(), `mcp-switchboard-e2e-${run.keyword}-results-`));
	console.log(`e2e: ${run.label}`);
	let env;
	try {
		env = await run.prepare();
	} catch (error) {
		env = undefined;
		console.error(`e2e: ${run.keyword} run: ${error.message}`);
	}
	// The keyword means every suite of the run; otherwise only the filters that name one of its suite files.
	const childFilters = filters.includes(run.keyword) ? [] : filters.filter((f) => suites.some((s) => s.includes(f)));
	const child =
		env &&
		spawnSync(process.execPath, [process.argv[1], '--no-build', ...childFilters], {
			stdio: 'inherit',
			env: {
				...process.env,
				...env,
				MCP_SWITCHBOARD_E2E_RESULTS_DIR: childResults,
				MCP_SWITCHBOARD_E2E_TIMEOUT_MS: String(Math.min(timeoutMs, run.budgetMs)),
			},
		});
	const file = join(childResults, 'e2e.json');
	const mine = existsSync(join(results, 'e2e.json'))
		? JSON.parse(readFileSync(join(results, 'e2e.json'), 'utf8'))
		: { passed: 0, failed: 0, tests: [] };
	const theirs = existsSync(file)
		? JSON.parse(readFileSync(file, 'utf8'))
		: {
				passed: 0,
				failed: 1,
				tests: [
					{
						name: `${run.keyword} e2e run`,
						ok: false,
						error: env ? 'it wrote no results' : 'its preparation failed (see above)',
					},
				],
			};
	if (child && child.status !== 0 && theirs.failed === 0) {
		theirs.failed += 1;
		theirs.tests.push({ name: `${run.keyword} e2e run`, ok: false, error: `exited with ${child.status}` });
	}
	writeResults({
		passed: mine.passed + theirs.passed,
		failed: mine.failed + theirs.failed,
		tests: [...mine.tests, ...theirs.tests.map((t) => ({ ...t, run: run.keyword }))],
	});
	for (const name of existsSync(childResults) ? readdirSync(childResults) : []) {
		if (name.endsWith('.png') || name.endsWith('.log'))
			cpSync(join(childResults, name), join(results, `${run.keyword}-${name}`));
	}
	rmSync(childResults, { recursive: true, force: true });
	console.log(`e2e: ${run.keyword} run: ${theirs.passed} passed, ${theirs.failed} failed`);
	return theirs.failed > 0 || !child || child.status !== 0 ? 1 : 0;
}

if (!inChild) {
	for (const run of extraRuns) exitCode = (await extraRun(run)) || exitCode;
}
console.log(`e2e: done in ${elapsed()}`);
process.exit(exitCode);
