/**
 * The developer console's parts in the editor: the Call History view, saved invocation files and the protocol view. Registers them
 * and keeps the history's cap in line with `mcpSwitchboard.history.maxEntries`.
 */
import * as vscode from 'vscode';
import type { Manager } from '../../manager/manager';
import { CallHistory, DEFAULT_MAX_ENTRIES } from './callHistory';
import { HISTORY_SCHEME, HISTORY_VIEW, HistoryView, registerHistoryCommands } from './historyView';
import { registerInvocationFiles } from './invocationLens';
import { ProtocolViews } from './protocolView';

function maxEntries(): number {
	const value = vscode.workspace.getConfiguration('mcpSwitchboard').get<number>('history.maxEntries', DEFAULT_MAX_ENTRIES);
	return typeof value === 'number' && value >= 0 ? value : DEFAULT_MAX_ENTRIES;
}

export function registerConsole(context: vscode.ExtensionContext, manager: Manager): { history: CallHistory; protocol: ProtocolViews; disposable: vscode.Disposable } {
	const history = new CallHistory(context.workspaceState, maxEntries());
	const protocol = new ProtocolViews(manager);
	const view = new HistoryView(history, manager);
	const disposable = vscode.Disposable.from(
		{ dispose: () => history.dispose() },
		protocol,
		view,
		vscode.window.createTreeView(HISTORY_VIEW, { treeDataProvider: view }),
		vscode.workspace.registerTextDocumentContentProvider(HISTORY_SCHEME, view),
		registerHistoryCommands(history),
		registerInvocationFiles(),
		vscode.workspace.onDidChangeConfiguration((e) => {
			if (e.affectsConfiguration('mcpSwitchboard.history.maxEntries')) history.setMaxEntries(maxEntries());
		}),
	);
	return { history, protocol, disposable };
}
