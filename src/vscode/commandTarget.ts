import * as vscode from 'vscode';
import type { Manager, ServerView } from '../manager/manager';
import type { ServerLogs } from './logs/logging';
import { showServerError } from './logs/serverErrors';
import { stateLabel } from './shared/serverStates';
import type { TreeNode } from './shared/treeNodes';

/**
 * Arguments a command may receive: a tree node, a server name, or `{ server, tool?, uri?, prompt?, arguments?, edit?,
 * task? }` (with `edit`, the arguments prefill the form instead of being sent as they are; `task` runs as a task).
 */
export type Target =
	| TreeNode
	| string
	| {
			server?: string;
			tool?: string;
			uri?: string;
			prompt?: string;
			arguments?: Record<string, unknown>;
			edit?: boolean;
			task?: boolean;
			/**
			 * Where the arguments come from, for consent (manager/consentRule.ts): a saved file, or a history re-run
			 * (`typedHere` when it re-runs the user's own palette call). Absent: the palette.
			 */
			via?: 'file' | 'history';
			typedHere?: boolean;
	  }
	| undefined;

/** What every feature's palette commands share: the Manager, the logs, and the ways forward when nothing is there. */
export interface CommandBase {
	manager: Manager;
	logs: ServerLogs;
	/** Add Server's guided flow (serverSetup/addServer.ts). */
	addServer(): Thenable<unknown>;
	/** Opens the settings of the extension. */
	openSettings(): Thenable<unknown>;
}

/** The server a command was given: a name, or a tree node / object with `server`. */
export function serverOf(target: Target): string | undefined {
	if (typeof target === 'string') return target;
	return target && 'server' in target ? target.server : undefined;
}

/** An error naming the server, with Show Output (logs/serverErrors.ts). */
export function commandError(base: CommandBase, server: string | undefined, message: string): void {
	showServerError(base.logs, server, message);
}

/** Says there is nothing to act on, with the way forward (convention 11). */
export async function nothingConfigured(base: CommandBase): Promise<void> {
	const choice = await vscode.window.showInformationMessage(
		'No MCP servers are configured yet.',
		'Add Server',
		'Open Settings',
	);
	if (choice === 'Add Server') await base.addServer();
	if (choice === 'Open Settings') await base.openSettings();
}

/** Picks a server (only those passing `filter`); explains and resolves undefined when there is none. */
export async function pickServer(
	base: CommandBase,
	placeHolder: string,
	filter: (view: ServerView) => boolean,
	none: string,
): Promise<string | undefined> {
	const all = base.manager.servers();
	if (all.length === 0) {
		await nothingConfigured(base);
		return undefined;
	}
	const candidates = all.filter(filter);
	if (candidates.length === 0) {
		void vscode.window.showInformationMessage(none);
		return undefined;
	}
	if (candidates.length === 1) return candidates[0]?.name;
	const chosen = await vscode.window.showQuickPick(
		candidates.map((view) => ({ label: view.name, description: stateLabel(view.state) })),
		{ placeHolder, matchOnDescription: true },
	);
	return chosen?.label;
}
