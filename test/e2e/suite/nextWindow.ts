// A suite continued in a new window over the same profile (user data, globalStorage, the workspace's files): what the
// next window's activation sees is what a person sees the next time they open VS Code, which a second object in the
// same extension host cannot show.
//
// How: a test of `x.e2e.js` calls `continueInNextWindow(state)` (harness.ts). After that suite, `run()` writes the
// hand-over file (`MCP_SWITCHBOARD_E2E_HANDOVER`, set by the runner) instead of restoring the settings, and ends
// without judging; the runner sees the file and opens a new window on the same URL (run.mjs: a new page of the same
// code-server; electron.mjs: VS Code again with the same --user-data-dir). That window's `run()` reads and removes
// the file, runs `x.next.e2e.js` (every test of it, whatever the filter; `handedOver()` gives it `state`), then the
// suites the first window did not reach, and restores the settings as they were before the run.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SavedSettings } from './settingsSnapshot';

/** The file name ending of a continuation suite: `x.next.e2e.js` continues `x.e2e.js`. */
export const CONTINUATION_SUFFIX = '.next.e2e.js';

/** A test's outcome as the runners report it. */
export interface TestResult {
	name: string;
	suite: string;
	ok: boolean;
	error?: string;
	durationMs: number;
	/** Which window ran it (1 the first), when the run had more than one. */
	window?: number;
}

/** What one window leaves the next. */
export interface HandOver {
	/** The window that reads this (2 after the first). */
	window: number;
	/** The suite files it runs, in order: the continuation, then those the previous window had not reached. */
	suites: string[];
	/** The continuation suite: all its tests run, whatever the filter. */
	continuation: string;
	/** What the handing suite gave `continueInNextWindow`. */
	state: unknown;
	/** The settings files as they were before the run, put back after the continuation suite. */
	settings: SavedSettings;
	/** The results of the windows before. */
	results: TestResult[];
}

/** Whether the runner opens a next window when asked (run.mjs and electron.mjs do). */
export function runnerOpensNextWindow(): boolean {
	return Boolean(process.env.MCP_SWITCHBOARD_E2E_HANDOVER);
}

/** The continuation suite of `suite` if there is one next to it (`x.e2e.js` → `x.next.e2e.js`). */
export function continuationOf(suite: string, dir: string): string | undefined {
	if (!suite.endsWith('.e2e.js') || suite.endsWith(CONTINUATION_SUFFIX)) return undefined;
	const next = suite.slice(0, -'.e2e.js'.length) + CONTINUATION_SUFFIX;
	return fs.existsSync(path.join(dir, next)) ? next : undefined;
}

/** Writes the hand-over file for the next window (temp file + rename: the runner never reads half of it). */
export function writeHandOver(handOver: HandOver): void {
	const file = process.env.MCP_SWITCHBOARD_E2E_HANDOVER;
	if (!file) throw new Error('MCP_SWITCHBOARD_E2E_HANDOVER is not set: this runner opens no next window');
	fs.writeFileSync(`${file}.tmp`, JSON.stringify(handOver));
	fs.renameSync(`${file}.tmp`, file);
}

/** The hand-over a previous window left this one, removed from disk so no later window reads it again. */
export function takeHandOver(): HandOver | undefined {
	const file = process.env.MCP_SWITCHBOARD_E2E_HANDOVER;
	if (!file || !fs.existsSync(file)) return undefined;
	const handOver = JSON.parse(fs.readFileSync(file, 'utf8')) as HandOver;
	fs.rmSync(file, { force: true });
	return handOver;
}
