/**
 * The developer console's parts in the editor: the Call History view, saved invocation files, the protocol view and
 * MCP Apps. Registers them and keeps the history's cap in line with `mcpSwitchboard.history.maxEntries`.
 */
import * as vscode from 'vscode';
import type { CallToolResult } from '../../protocol/schema';
import { AppViews, type AppViewsDeps } from './apps';
import { CallHistory, DEFAULT_MAX_ENTRIES } from './callHistory';
import { HISTORY_SCHEME, HISTORY_VIEW, HistoryView, registerHistoryCommands } from './historyView';
import { registerInvocationFiles } from './invocationLens';
import { ProtocolViews } from './protocolView';
import { Commands } from '../commandIds';
import type { HistoryEntry } from './callHistory';
import type { BlobFiles } from '../shared/blobFiles';
import type { ResultDocuments } from '../shared/resultDocument';

function maxEntries(): number {
	const value = vscode.workspace
		.getConfiguration('mcpSwitchboard')
		.get<number>('history.maxEntries', DEFAULT_MAX_ENTRIES);
	return typeof value === 'number' && value >= 0 ? value : DEFAULT_MAX_ENTRIES;
}

/** What other features and tests use of the console. */
export interface DevConsole {
	history: CallHistory;
	protocol: ProtocolViews;
	apps: AppViews;
}

/** Registers the Call History view and its commands, saved invocation files, the protocol view and MCP Apps. */
export function register(
	context: vscode.ExtensionContext,
	deps: AppViewsDeps & { results: ResultDocuments; blobs: BlobFiles },
): DevConsole {
	const { manager } = deps;
	const history = new CallHistory(context.workspaceState, maxEntries());
	// Opened from the Output view too (its title's Show Protocol): the server whose log was shown last comes first.
	const protocol = new ProtocolViews(manager, () => deps.logs.lastShown);
	const apps = new AppViews(deps);
	const view = new HistoryView(history, manager);
	const historyTree = vscode.window.createTreeView(HISTORY_VIEW, { treeDataProvider: view });
	// A call's rows in the protocol view and its Call History entry link to each other (matched by what was called
	// and when: the history does not know JSON-RPC ids).
	protocol.links = {
		revealInHistory: async (server, label, time) => {
			const entry = findEntry(history, server, label, time);
			if (!entry) return false;
			await historyTree.reveal(entry, { select: true, focus: true });
			return true;
		},
	};
	const disposable = vscode.Disposable.from(
		{ dispose: () => history.dispose() },
		protocol,
		apps,
		view,
		historyTree,
		vscode.commands.registerCommand(Commands.historyShowProtocol, async (entry?: HistoryEntry) => {
			if (!entry) return false;
			const found = await protocol.showCall(entry.target.server, callLabelOf(entry), entry.startedAt);
			if (!found)
				void vscode.window.showInformationMessage(
					`The protocol view of ${entry.target.server} no longer keeps this call's messages (it keeps the newest ones).`,
				);
			return found;
		}),
		vscode.workspace.registerTextDocumentContentProvider(HISTORY_SCHEME, view),
		// Open shows a tool call's app beside its JSON, with the arguments and result as recorded (nothing runs again).
		registerHistoryCommands(
			history,
			(entry) => {
				if (entry.target.kind === 'tool' && entry.outcome.kind === 'result')
					void apps.open(
						entry.target.server,
						entry.target.name,
						entry.target.arguments,
						entry.outcome.result as CallToolResult,
					);
			},
			// The same result view as the call's own (kept results only; a dropped or failed one opens as JSON).
			(entry) =>
				entry.target.kind === 'tool' && entry.outcome.kind === 'result' && !entry.resultDropped
					? deps.results.showCall(
							{
								server: entry.target.server,
								tool: entry.target.name,
								arguments: entry.target.arguments,
								result: entry.outcome.result as CallToolResult,
								origin: entry.origin,
								startedAt: entry.startedAt,
								durationMs: entry.durationMs,
							},
							deps.blobs,
						)
					: undefined,
		),
		registerInvocationFiles(manager),
		vscode.workspace.onDidChangeConfiguration((e) => {
			if (e.affectsConfiguration('mcpSwitchboard.history.maxEntries')) history.setMaxEntries(maxEntries());
		}),
	);
	context.subscriptions.push(disposable);
	return { history, protocol, apps };
}

/** The protocol view's label of an entry's request: `tools/call echo`, `prompts/get greet`, `resources/read <uri>`. */
function callLabelOf(entry: HistoryEntry): string {
	const target = entry.target;
	return target.kind === 'tool'
		? `tools/call ${target.name}`
		: target.kind === 'prompt'
			? `prompts/get ${target.name}`
			: `resources/read ${target.uri}`;
}

/** The history entry of the call `label` on `server` that started closest to `time` (within 2 s). */
function findEntry(history: CallHistory, server: string, label: string, time: number): HistoryEntry | undefined {
	let best: { entry: HistoryEntry; distance: number } | undefined;
	for (const entry of history.all()) {
		if (entry.target.server !== server || callLabelOf(entry) !== label) continue;
		const distance = Math.abs(entry.startedAt - time);
		if (distance <= 2000 && (!best || distance < best.distance)) best = { entry, distance };
	}
	return best?.entry;
}
