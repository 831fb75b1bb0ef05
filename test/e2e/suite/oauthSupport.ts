// What the OAuth suites (oauth.e2e.ts, oauthSignIn.e2e.ts) share: the browser tabs the sign-in opened, waiting for a
// server's state, the "sign in" row, and looking for a token in files.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import type { Manager } from '../../../src/manager/manager';
import { driver, extensionApi, waitFor, type DriverRequest } from './harness';

/** What the OAuth suites use of the extension's API. */
export interface OAuthApi {
	manager: Manager;
	logUri: vscode.Uri;
	settled: () => Promise<void>;
}

export interface BrowserTab {
	url: string;
	text: string;
}

/** The tabs the workbench opened in Chromium (the page driver's `pages` action in run.mjs); `close` closes them after. */
export async function browserTabs(close = false): Promise<BrowserTab[]> {
	return (await driver({ action: 'pages', close } as unknown as DriverRequest)) as BrowserTab[];
}

/** A server's state in one line: its kind, and for an error its message. */
export function stateOf(manager: Manager, name: string): string {
	const view = manager.get(name);
	if (!view) return 'absent';
	return view.state.kind === 'error' ? `error: ${view.state.message}` : view.state.kind;
}

/** Resolves when the server runs; the timeout error says the state it was in. */
export async function running(manager: Manager, name: string, timeoutMs: number, what: string): Promise<void> {
	await waitFor(
		() => {
			const state = stateOf(manager, name);
			if (state !== 'running') throw new Error(`'${name}' is ${state}`);
			return true;
		},
		{ timeoutMs, message: what },
	);
}

/** Waits until the server waits for the user to sign in: its needsSignIn state, the row saying "sign in", no toast. */
export async function waitForSignInRow(manager: Manager, name: string): Promise<void> {
	await waitFor(
		() => {
			const state = manager.get(name)?.state;
			return state?.kind === 'needsSignIn';
		},
		{ timeoutMs: 20_000, message: `'${name}' to wait for a sign-in (it is ${stateOf(manager, name)})` },
	);
	const { tree } = await extensionApi<{ tree: { getTreeItem(node: unknown): vscode.TreeItem } }>();
	const row = tree.getTreeItem({ kind: 'server', server: name });
	assert.match(String(row.description), /^sign in/);
	assert.equal(row.command?.command, 'mcpSwitchboard.startServer', 'a click on the row signs in');
}

/** Every file under `dir` (recursively) whose contents include `needle`. */
export function filesContaining(dir: string, needle: string): string[] {
	const found: string[] = [];
	const walk = (d: string) => {
		let entries: fs.Dirent[];
		try {
			entries = fs.readdirSync(d, { withFileTypes: true });
		} catch {
			return;
		}
		for (const entry of entries) {
			const p = path.join(d, entry.name);
			if (entry.isDirectory()) walk(p);
			else if (entry.isFile() && fs.readFileSync(p).includes(needle)) found.push(p);
		}
	};
	walk(dir);
	return found;
}

/**
 * Asserts that none of `secrets` is written in this session's logs (every host's), the workspace's `.vscode` folder
 * or the user settings' folder, and that the server `name` has a log file there (so the search looked at it).
 */
export function assertNotWritten(logUri: vscode.Uri, folder: string, name: string, secrets: string[]): void {
	const userSettings = process.env.MCP_SWITCHBOARD_E2E_USER_SETTINGS ?? '';
	const logsRoot = path.dirname(path.dirname(logUri.fsPath));
	assert.ok(fs.existsSync(logsRoot), `the log folder exists (${logsRoot})`);
	for (const where of [logsRoot, path.join(folder, '.vscode'), path.dirname(userSettings)]) {
		for (const secret of secrets)
			assert.deepEqual(filesContaining(where, secret), [], `a token, code or secret is written under ${where}`);
	}
	assert.ok(
		filesContaining(logUri.fsPath, name).length > 0,
		`'${name}' has a log file (so the search above looked at it)`,
	);
}
