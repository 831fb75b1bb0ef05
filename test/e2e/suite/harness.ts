// The e2e suites' runner API. Suites call `test()` at load time; `index.ts` runs what they registered.
// The registry lives on `globalThis`, because each `*.e2e.ts` is bundled on its own and would otherwise get its
// own copy of this module.
//
// Two ways in which a test acts on the workbench:
// - VS Code commands (quick input navigation, `type`), which work under every runner;
// - the page driver: run.mjs drives the page with Playwright (real key presses, clicks, DOM reads, screenshots)
//   on request. Requests are files in `MCP_SWITCHBOARD_E2E_DRIVER`; the answer is a file next to them. The
//   `@vscode/test-electron` runner has no driver: `hasDriver()` is false and the driver helpers throw, so a test
//   that needs one should check first.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { textOf } from '../../../src/common/text';
import { continuationOf, runnerOpensNextWindow } from './nextWindow';

/** The extension under test, `<publisher>.<name>` from package.json. */
export const EXTENSION_ID = 'mcp-switchboard.mcp-switchboard';

export interface TestOptions {
	/** Fails the test when it has not settled by then. Default 30 000 ms. */
	timeoutMs?: number;
}

export interface TestContext {
	/** Aborted when the test timed out, so a long wait inside it can stop early. */
	readonly signal: AbortSignal;
}

export interface RegisteredTest {
	readonly name: string;
	readonly fn: (context: TestContext) => Promise<void> | void;
	readonly timeoutMs: number;
	/** The suite file that registered it, e.g. `activation.e2e.js`. */
	suite: string;
}

/** Default per-test timeout. */
export const DEFAULT_TIMEOUT_MS = 30_000;

const registryKey = Symbol.for('mcp-switchboard.e2e.registry');
type Registry = {
	tests: RegisteredTest[];
	/** The suite file being loaded (tests register under it). */
	currentSuite: string;
	/** The suite file of the test running now. */
	runningSuite?: string;
	/** Set by `continueInNextWindow`: the suite that continues in a new window, and what it hands over. */
	handOver?: { suite: string; state: unknown };
	/** In a window that continues a suite: what the previous window handed over. */
	received?: { state: unknown };
};

/** The process-wide list of registered tests (shared by every bundled suite). */
export function registry(): Registry {
	const holder = globalThis as unknown as Record<symbol, Registry | undefined>;
	let found = holder[registryKey];
	if (!found) {
		found = { tests: [], currentSuite: '' };
		holder[registryKey] = found;
	}
	return found;
}

/**
 * Registers one test to run inside the real extension host. Tests run one at a time in registration order,
 * suite files in name order. A test fails when `fn` throws, rejects or outlives `options.timeoutMs`.
 */
export function test(name: string, fn: (context: TestContext) => Promise<void> | void, options?: TestOptions): void {
	const r = registry();
	r.tests.push({ name, fn, timeoutMs: options?.timeoutMs ?? DEFAULT_TIMEOUT_MS, suite: r.currentSuite });
}

/**
 * Asks for this suite (`x.e2e.js`) to be continued in a new window over the same profile: after its last test, the
 * runner opens a new window (a real new extension host and activation, the same globalStorage and settings files),
 * where `x.next.e2e.js` runs and gets `state` from `handedOver()`. The settings are not put back in between: the
 * continuation puts back what it must not leave (the runner restores the files after it as after any suite).
 * @returns false when it will not happen (the runner opens no next window, or there is no `x.next.e2e.js`): the
 * suite should then clean up itself.
 */
export function continueInNextWindow(state: unknown): boolean {
	const r = registry();
	if (!r.runningSuite || !runnerOpensNextWindow() || !continuationOf(r.runningSuite, __dirname)) return false;
	r.handOver = { suite: r.runningSuite, state };
	return true;
}

/**
 * In a continuation suite (`x.next.e2e.js`): what `x.e2e.js` handed over in the previous window.
 * @throws Error when this window continues nothing (the suite was loaded some other way).
 */
export function handedOver<T>(): T {
	const received = registry().received;
	if (!received) throw new Error('No previous window handed anything over to this one');
	return received.state as T;
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** What a truthy check leaves of `T`. */
export type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

export interface WaitOptions {
	/** Default 10 000 ms. */
	timeoutMs?: number;
	/** Polling interval. Default 100 ms. */
	intervalMs?: number;
	/**
	 * Says what was awaited, for the error. Default: the predicate's source. A function is called when the wait
	 * times out, so the message can tell what the last look saw.
	 */
	message?: string | (() => string);
}

/**
 * Polls `predicate` until it returns a truthy value (awaited), and returns that value. An exception thrown by the
 * predicate counts as "not yet", and its message goes into the timeout error, so
 * `waitFor(() => { assert.equal(...); return true; })` reports the last failed assertion.
 * @throws Error `Timed out after N ms waiting for <message>` with the last predicate error, if any.
 */
export async function waitFor<T>(predicate: () => T | Promise<T>, options: WaitOptions = {}): Promise<Truthy<T>> {
	const timeoutMs = options.timeoutMs ?? 10_000;
	const intervalMs = options.intervalMs ?? 100;
	const deadline = Date.now() + timeoutMs;
	let lastError: unknown;
	for (;;) {
		try {
			const value = await predicate();
			if (value) return value as Truthy<T>;
		} catch (error) {
			lastError = error;
		}
		if (Date.now() >= deadline) {
			const what =
				(typeof options.message === 'function' ? options.message() : options.message) ??
				predicate.toString().slice(0, 200);
			const last =
				lastError instanceof Error
					? `; last error: ${lastError.message}`
					: lastError !== undefined
						? `; last error: ${textOf(lastError)}`
						: '';
			throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${last}`);
		}
		await sleep(intervalMs);
	}
}

/**
 * Activates the extension under test and returns what its `activate()` returned (the test API).
 * @throws Error when the extension is not installed in this host, or activation throws.
 */
export async function extensionApi<T = unknown>(): Promise<T> {
	const extension = vscode.extensions.getExtension<T>(EXTENSION_ID);
	if (!extension) throw new Error(`Extension ${EXTENSION_ID} is not loaded in this extension host`);
	return extension.isActive ? extension.exports : await extension.activate();
}

// ---- Quick input, through commands (works under every runner) ----

/** Moves the quick pick's active row down `steps` times (wrapping at the end). */
export async function quickPickNext(steps = 1): Promise<void> {
	for (let i = 0; i < steps; i++) await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
}

/** Accepts the active row of the open quick pick, or the value of the open input box. */
export async function quickInputAccept(): Promise<void> {
	await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
}

/** Closes any open quick pick or input box (as Escape would). */
export async function quickInputClose(): Promise<void> {
	await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
}

/**
 * Answers an open input box with `text` (replacing what was prefilled) and accepts, with real key presses.
 * Needs the page driver: the `type` command does not reach the quick input (checked in VS Code 1.139).
 * @throws Error when there is no driver, or the input box did not take the value.
 */
export async function answerInputBox(text: string): Promise<void> {
	await driver({ action: 'fill', selector: QUICK_INPUT_BOX, text });
	await driver({ action: 'press', key: 'Enter' });
}

/**
 * Answers an open quick pick by choosing the row labelled `label`: filters by typing it, waits for the row, moves
 * the focus to it and accepts once the page shows it focused (the list re-renders as the filter applies, so a
 * count of key presses computed from one look could land on another row). Needs the page driver (use
 * `answerQuickPickAt` without one).
 * @throws Error when no row with that label appears, or the focus does not reach it, within 15 s.
 */
export async function answerQuickPick(label: string): Promise<void> {
	await driver({ action: 'fill', selector: QUICK_INPUT_BOX, text: label });
	let seen: QuickInputRow[] = [];
	await waitFor(
		async () => {
			seen = await quickInputRows();
			const target = seen.find((row) => row.label === label);
			if (!target) return false;
			const focused = seen.find((row) => row.focused);
			if (focused?.index === target.index) return true;
			// One move per look; the next look sees where the focus went.
			if (!focused) await vscode.commands.executeCommand('quickInput.first');
			else if (focused.index < target.index) await quickPickNext(target.index - focused.index);
			else
				for (let i = target.index; i < focused.index; i++)
					await vscode.commands.executeCommand('workbench.action.quickOpenSelectPrevious');
			return false;
		},
		{
			timeoutMs: QUICK_INPUT_WAIT_MS,
			message: () =>
				`a focused quick pick row labelled "${label}" (rows seen: ${JSON.stringify(seen.map((row) => `${row.focused ? '>' : ''}${row.label}`))})`,
		},
	);
	await quickInputAccept();
}

/** Accepts the quick pick row at `index` (0 = the first), by commands only: works without the page driver. */
export async function answerQuickPickAt(index: number): Promise<void> {
	await vscode.commands.executeCommand('quickInput.first');
	await quickPickNext(index);
	await quickInputAccept();
}

const QUICK_INPUT_BOX = '.quick-input-widget .quick-input-box input';

/**
 * How long the quick input helpers wait for the page to show what they expect. The workbench can take seconds to lay
 * out a quick input on a loaded CI machine (two shared cores, load averages of 20+); a missing row still fails.
 */
const QUICK_INPUT_WAIT_MS = 15_000;

/** A visible quick input row as a person sees it. */
export interface QuickInputRow {
	/** The row's position in the whole (filtered) list: `data-index`, which counts rows scrolled out of view too. */
	index: number;
	label: string;
	description: string;
	detail: string;
	focused: boolean;
}

/** The rows of the open quick pick, top to bottom (empty when none is open). Needs the page driver. */
export async function quickInputRows(): Promise<QuickInputRow[]> {
	const result = await driver({
		action: 'evaluate',
		script: `[...document.querySelectorAll('.quick-input-widget .quick-input-list .monaco-list-row')]
			.filter((row) => row.closest('.quick-input-widget').style.display !== 'none')
			.sort((a, b) => Number(a.getAttribute('data-index')) - Number(b.getAttribute('data-index')))
			.map((row) => ({
				index: Number(row.getAttribute('data-index')),
				label: (row.querySelector('.label-name')?.textContent ?? '').trim(),
				description: (row.querySelector('.label-description')?.textContent ?? '').trim(),
				detail: (row.querySelector('.quick-input-list-label-meta, .monaco-icon-label-container + *')?.textContent ?? '').trim(),
				focused: row.classList.contains('focused'),
			}))`,
	});
	return result as QuickInputRow[];
}

// ---- Page driver (run.mjs with Playwright) ----

/** What the page driver can do. Selectors are CSS selectors in the workbench page. */
export type DriverRequest =
	| { action: 'screenshot'; name: string }
	| { action: 'press'; key: string }
	/** A mouse drag between two points of the page (x, y in CSS pixels). */
	| { action: 'drag'; from: [number, number]; to: [number, number] }
	| { action: 'type'; text: string }
	| { action: 'fill'; selector: string; text: string }
	/** A real mouse click; `button: 'right'` opens the context menu as a person's right-click does. */
	| { action: 'click'; selector: string; nth?: number; button?: 'left' | 'right' }
	| { action: 'texts'; selector: string }
	| { action: 'evaluate'; script: string }
	/** The ARIA snapshot (roles and accessible names, YAML) of the first visible match of `selector`. */
	| { action: 'ariaSnapshot'; selector: string }
	/** Evaluates `script` in every frame whose URL contains `frame` (webviews are nested iframes); returns the defined values. */
	| { action: 'frameEvaluate'; script: string; frame?: string }
	/** The browser tabs the workbench opened: their URL and text; `close` closes them afterwards. */
	| { action: 'pages'; close?: boolean };

/** True when a page driver answers requests (the code-server runner; not `@vscode/test-electron`). */
export function hasDriver(): boolean {
	return Boolean(process.env.MCP_SWITCHBOARD_E2E_DRIVER);
}

let nextRequest = 0;

/**
 * How long `driver()` waits for an answer by default: longer than run.mjs gives a page action (PAGE_ACTION_MS,
 * 15 s), so a page action that fails is reported with Playwright's own explanation, not as a missing answer.
 */
export const DRIVER_ANSWER_MS = 40_000;

/**
 * Asks run.mjs to act on the page and returns its answer: `texts` gives the `innerText` of every match,
 * `evaluate` the value of a JavaScript expression, `screenshot` the PNG's path; the others `undefined`. `fill` and
 * `click` act on visible matches only, and wait up to 15 s for one that is visible, enabled and stable.
 * @throws Error when there is no driver, the driver reports an error (with Playwright's call log and what the
 * selector matched), or no answer came within `timeoutMs` (default {@link DRIVER_ANSWER_MS}).
 */
export async function driver(request: DriverRequest, timeoutMs = DRIVER_ANSWER_MS): Promise<unknown> {
	const dir = process.env.MCP_SWITCHBOARD_E2E_DRIVER;
	if (!dir) throw new Error(`No page driver in this runner (needed for "${request.action}")`);
	const id = `${process.pid}-${++nextRequest}`;
	const answerPath = path.join(dir, `${id}.answer.json`);
	// Written under a temporary name, then renamed, so the driver never reads half a request.
	fs.writeFileSync(path.join(dir, `${id}.tmp`), JSON.stringify(request));
	fs.renameSync(path.join(dir, `${id}.tmp`), path.join(dir, `${id}.request.json`));
	const answer = await waitFor(
		() =>
			fs.existsSync(answerPath) &&
			(JSON.parse(fs.readFileSync(answerPath, 'utf8')) as { ok: boolean; value?: unknown; error?: string }),
		{
			timeoutMs,
			intervalMs: 50,
			message: `the page driver to answer ${request.action}`,
		},
	);
	fs.rmSync(answerPath, { force: true });
	if (!answer.ok) throw new Error(`Page driver ${request.action} failed: ${answer.error ?? 'unknown error'}`);
	return answer.value;
}

/** Real key presses on the page, e.g. `Enter`, `Escape`, `Control+Shift+P` (Playwright key names). Needs the driver. */
export async function pressKey(key: string): Promise<void> {
	await driver({ action: 'press', key });
}

/** `innerText` of every element matching `selector`, in document order. Needs the driver. */
export async function pageTexts(selector: string): Promise<string[]> {
	return (await driver({ action: 'texts', selector })) as string[];
}

/**
 * Saves a screenshot of the workbench as `test-results/<name>.png` and returns its path. A no-op returning
 * `undefined` when there is no driver, so suites may call it freely.
 */
export async function screenshot(name: string): Promise<string | undefined> {
	if (!hasDriver()) return undefined;
	return (await driver({ action: 'screenshot', name })) as string;
}
