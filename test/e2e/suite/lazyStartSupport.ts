// What lazyStart.e2e.ts and its continuation in the next window (lazyStart.next.e2e.ts) share: the thirty servers
// (the Manager fixture server, each start appending its pid to a file) and how the suites look at them.
import * as fs from 'node:fs';
import type { SwitchboardApi } from '../../../src/extension';
import type { ServerView } from '../../../src/manager/manager';
import { driver } from './harness';

export const COUNT = 30;
export const names = Array.from({ length: COUNT }, (_, i) => `lazy-${String(i).padStart(2, '0')}`);
/** The tools each of them lists (`--tools 2` plus the fixture's own). */
export const TOOLS = ['env', 'pid', 'tool_0', 'tool_1'];

/** What the first window hands the next: where the pids are, and the settings to put back at the end. */
export interface LazyHandOver {
	pidFile: string;
	scratch: string;
	listingFolder: string;
	previousServers: Record<string, unknown> | undefined;
	previousAutoStart: boolean | undefined;
}

/** The pid of every server process started so far, one line each in `file`. */
export function pids(file: string): number[] {
	try {
		return fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map(Number);
	} catch {
		return [];
	}
}

export function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

export function waitsForNeed(view: ServerView | undefined): boolean {
	return view?.state.kind === 'stopped' && view.state.onDemand !== undefined;
}

/** The names of the tools under a server's Tools group, as the Servers view's provider gives them. */
export function treeTools(a: SwitchboardApi, server: string): string[] {
	const groups = a.tree.getChildren({ kind: 'server', server });
	const tools = groups.find((node) => node.kind === 'group' && node.group === 'tools');
	if (!tools) return [];
	return a.tree
		.getChildren(tools)
		.map((node) => (node.kind === 'tool' ? node.tool.tool.name : ''))
		.filter(Boolean);
}

/** Brings `server`'s row into view (the list renders only the rows in view), retrying until the tree has it. */
export async function revealRow(a: SwitchboardApi, server: string, expand = false): Promise<void> {
	const node = a.tree.getChildren().find((n) => n.kind === 'server' && n.server === server);
	if (!node) throw new Error(`no row for ${server}`);
	// Servers just configured: the view re-fetches its rows after the tree's debounced refresh (100 ms), and VS Code
	// refuses a reveal that meets that re-fetch ("Cannot resolve tree item"); the row is there a moment later.
	const deadline = Date.now() + 10_000;
	for (;;) {
		try {
			await a.treeView.reveal(node, { select: false, focus: false, expand });
			return;
		} catch (error) {
			if (!/Cannot resolve tree item/.test(String(error)) || Date.now() > deadline) throw error;
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	}
}

/** The server rows the MCP view shows now, as a person reads them: name → description. Needs the page driver. */
export async function shownRows(): Promise<Record<string, string>> {
	return (await driver({
		action: 'evaluate',
		script: `Object.fromEntries([...document.querySelectorAll('.pane-body .monaco-list-row')]
			.map((row) => [(row.querySelector('.label-name')?.textContent ?? '').trim(), (row.querySelector('.label-description')?.textContent ?? '').trim()])
			.filter(([name]) => name.startsWith('lazy-')))`,
	})) as Record<string, string>;
}
