/**
 * When servers start and stop in the extension (#28): `mcpSwitchboard.autoStart` (default off: a server starts on its
 * first need), `mcpSwitchboard.stopWhenIdleMinutes` (default 10; 0 = never) and the listing cache in the extension's
 * global storage, which lets the Servers view, `@mcp` and the gateway show a server's tools before it runs.
 */
import * as vscode from 'vscode';
import { FileListingStore } from '../manager/listingCache';
import type { Manager, ManagerOptions } from '../manager/manager';

const SECTION = 'mcpSwitchboard';
/** Setting names, as in package.json. */
export const StartSettings = {
	autoStart: 'mcpSwitchboard.autoStart',
	stopWhenIdleMinutes: 'mcpSwitchboard.stopWhenIdleMinutes',
} as const;

/** `mcpSwitchboard.autoStart`: whether servers without their own `autoStart` start with the window. */
function autoStart(): boolean {
	return vscode.workspace.getConfiguration(SECTION).get<boolean>('autoStart') === true;
}

/** `mcpSwitchboard.stopWhenIdleMinutes` in ms (default 10 minutes; 0 or less: never). */
function idleStopMs(): number {
	const minutes = vscode.workspace.getConfiguration(SECTION).get<number>('stopWhenIdleMinutes');
	return typeof minutes === 'number' && Number.isFinite(minutes) && minutes > 0
		? minutes * 60_000
		: minutes === 0
			? 0
			: 600_000;
}

/**
 * The Manager's options for starting and stopping: the settings as they are now, and the listing store in
 * `<global storage>/listings` (one JSON file per server identity; not global state, which VS Code loads whole at start).
 */
export function startOptions(
	context: vscode.ExtensionContext,
	warn: (message: string) => void,
): Pick<ManagerOptions, 'autoStart' | 'idleStopMs' | 'listingStore'> {
	return {
		autoStart: autoStart(),
		idleStopMs: idleStopMs(),
		listingStore: new FileListingStore(listingFolder(context), warn),
	};
}

/** `<global storage>/listings` as a path: the extension host runs where its storage is, and reads it with node:fs. */
export function listingFolder(context: vscode.ExtensionContext): string {
	const folder = vscode.Uri.joinPath(context.globalStorageUri, 'listings');
	return folder.scheme === 'file' ? folder.fsPath : folder.path;
}

/** Applies changes of the two settings to the running Manager. */
export function followStartSettings(context: vscode.ExtensionContext, manager: Manager): void {
	context.subscriptions.push(
		vscode.workspace.onDidChangeConfiguration((e) => {
			if (e.affectsConfiguration(StartSettings.autoStart)) void manager.setAutoStart(autoStart());
			if (e.affectsConfiguration(StartSettings.stopWhenIdleMinutes)) manager.setIdleStopMs(idleStopMs());
		}),
	);
}
