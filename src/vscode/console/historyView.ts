/**
 * The Call History view: one row per call (newest first) with server, duration, time and outcome; a click opens
 * what came back as JSON; actions re-run it, edit its arguments and re-run (the palette's form, prefilled),
 * compare it (arguments and result) with the previous call of the same tool in VS Code's diff editor, copy it as
 * JSON, or save it as a `*.mcpcall.json` file that runs again from a CodeLens or the command line.
 */
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import { formatInvocation, type Invocation } from '../../manager/invocationFile';
import type { Manager } from '../../manager/manager';
import { type CallHistory, comparisonText, type HistoryEntry, targetLabel } from './callHistory';

export const HISTORY_VIEW = 'mcpSwitchboard.history';
export const HISTORY_SCHEME = 'switchboard-history';

function duration(ms: number): string {
	return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

function outcomeText(entry: HistoryEntry): string {
	const outcome = entry.outcome;
	if (outcome.kind === 'error') return outcome.cancelled ? 'cancelled' : `failed: ${outcome.message}`;
	return outcome.isError ? 'the tool reported an error' : 'ok';
}

/** The outcome as one word in the row's description, or nothing for a call that went well. */
function outcomeWord(entry: HistoryEntry): string | undefined {
	const outcome = entry.outcome;
	if (outcome.kind === 'error') return outcome.cancelled ? 'cancelled' : 'failed';
	return outcome.isError ? 'tool error' : undefined;
}

function icon(entry: HistoryEntry): vscode.ThemeIcon {
	const outcome = entry.outcome;
	if (outcome.kind === 'error')
		return outcome.cancelled
			? new vscode.ThemeIcon('circle-slash')
			: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
	if (outcome.isError) return new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
	return new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'));
}

/** The invocation an entry stands for (what Re-run and Save use). */
export function invocationOf(entry: HistoryEntry): Invocation {
	const target = entry.target;
	switch (target.kind) {
		case 'tool':
			return { kind: 'tool', server: target.server, tool: target.name, arguments: target.arguments };
		case 'prompt':
			return { kind: 'prompt', server: target.server, prompt: target.name, arguments: target.arguments };
		case 'resource':
			return { kind: 'resource', server: target.server, uri: target.uri };
	}
}

/** The JSON a person sees for an entry's result: the server's answer as sent, or the error. */
export function resultText(entry: HistoryEntry): string {
	const outcome = entry.outcome;
	if (entry.resultDropped)
		return entry.resultDropped.notStored
			? `// The result (${entry.resultDropped.chars.toLocaleString('en-US')} characters of JSON) was shown in the window that ran it; results this large are not written to workspace storage. Re-run the call to see it.\n`
			: `// The result (${entry.resultDropped.chars.toLocaleString('en-US')} characters of JSON) was too large to keep in the history. Re-run the call to see it.\n`;
	if (outcome.kind === 'error')
		return `${JSON.stringify({ error: outcome.message, cancelled: outcome.cancelled }, null, 2)}\n`;
	return `${JSON.stringify(outcome.result, null, 2)}\n`;
}

/** The read-only document of an entry's result: `switchboard-history:/<id>/<server> <name>.json`. */
export function resultUri(entry: HistoryEntry): vscode.Uri {
	const name = `${entry.target.server} ${targetLabel(entry.target)}`.replace(/[/\\?#%]+/g, '_').slice(0, 80);
	return vscode.Uri.from({ scheme: HISTORY_SCHEME, path: `/${entry.id}/${name}.json` });
}

/** The query of the document Compare with Previous shows: the call's arguments above its result ({@link comparisonText}). */
const WITH_ARGUMENTS = 'with-arguments';

/** The read-only document of an entry's arguments and result, one side of Compare with Previous. */
export function comparisonUri(entry: HistoryEntry): vscode.Uri {
	return resultUri(entry).with({ query: WITH_ARGUMENTS });
}

/**
 * Where an invocation's arguments come from, for the consent rule (manager/consentRule.ts): a saved file, or the
 * history (`typedHere`: a re-run of the user's own palette call).
 */
export interface InvocationSource {
	via: 'file' | 'history';
	typedHere?: boolean;
}

/**
 * Runs an invocation through the palette's own commands (consent, progress, Cancel, the result document). A tool
 * call from `source` asks as the consent rule says for that path.
 */
export function runInvocation(invocation: Invocation, edit = false, source?: InvocationSource): Thenable<unknown> {
	switch (invocation.kind) {
		case 'tool':
			return vscode.commands.executeCommand(Commands.callTool, {
				server: invocation.server,
				tool: invocation.tool,
				arguments: invocation.arguments,
				edit,
				...source,
			});
		case 'prompt':
			return vscode.commands.executeCommand(Commands.getPrompt, {
				server: invocation.server,
				prompt: invocation.prompt,
				...(edit ? {} : { arguments: invocation.arguments }),
			});
		case 'resource':
			return vscode.commands.executeCommand(Commands.readResource, {
				server: invocation.server,
				uri: invocation.uri,
			});
	}
}

export class HistoryView
	implements vscode.TreeDataProvider<HistoryEntry>, vscode.TextDocumentContentProvider, vscode.Disposable
{
	private readonly changed = new vscode.EventEmitter<HistoryEntry | undefined>();
	readonly onDidChangeTreeData = this.changed.event;
	private readonly disposables: vscode.Disposable[] = [];

	constructor(
		private readonly history: CallHistory,
		manager: Manager,
	) {
		this.disposables.push(
			this.changed,
			history.onDidChange(() => this.changed.fire(undefined)),
			manager.onDidInvoke((record) => void history.add(record)),
		);
	}

	/** Every row is a root (TreeView.reveal needs this, for Show in Call History from the protocol view). */
	getParent(): undefined {
		return undefined;
	}

	getChildren(element?: HistoryEntry): HistoryEntry[] {
		return element ? [] : [...this.history.all()];
	}

	getTreeItem(entry: HistoryEntry): vscode.TreeItem {
		const item = new vscode.TreeItem(targetLabel(entry.target), vscode.TreeItemCollapsibleState.None);
		item.id = entry.id;
		const time = new Date(entry.startedAt).toLocaleTimeString();
		// Failed and cancelled in words, not by the icon alone (a screen reader and a colour-blind eye read the words).
		const word = outcomeWord(entry);
		item.description = `${word ? `${word} · ` : ''}${entry.target.server} · ${duration(entry.durationMs)} · ${time}`;
		// A folded row (an app's polls): how many calls, so it does not read as one call.
		if (entry.repeats) item.description = `${entry.repeats.count}× from the app · ${item.description}`;
		item.accessibilityInformation = {
			label: `${targetLabel(entry.target)} on ${entry.target.server}, ${outcomeText(entry)}, ${time}, ${duration(entry.durationMs)}${entry.repeats ? `, ${entry.repeats.count} calls from the app` : ''}`,
		};
		item.iconPath = icon(entry);
		item.contextValue = `mcpHistory.${entry.target.kind}`;
		const tooltip = new vscode.MarkdownString();
		tooltip.appendText(
			`${entry.target.kind} on ${entry.target.server}, from ${entry.origin}, ${new Date(entry.startedAt).toLocaleString()}, ${duration(entry.durationMs)}: ${outcomeText(entry)}`,
		);
		if (entry.repeats)
			tooltip.appendText(
				`\n\n${entry.repeats.count} calls by the app since ${new Date(entry.repeats.firstAt).toLocaleTimeString()}, kept as one row (the last call's arguments and result) so they leave your own calls in the history.`,
			);
		if (entry.target.kind !== 'resource')
			tooltip.appendCodeblock(JSON.stringify(entry.target.arguments, null, 2), 'json');
		item.tooltip = tooltip;
		item.command = { command: Commands.historyOpen, title: 'Open Result', arguments: [entry] };
		return item;
	}

	provideTextDocumentContent(uri: vscode.Uri): string {
		const id = uri.path.split('/')[1] ?? '';
		const entry = this.history.get(id);
		if (!entry) return '// This call is no longer in the history.\n';
		return uri.query === WITH_ARGUMENTS ? comparisonText(entry) : resultText(entry);
	}

	dispose(): void {
		for (const disposable of this.disposables) disposable.dispose();
	}
}

/**
 * The view's commands. `entry` comes from the row; the commands say so when invoked without one. `onOpen` also sees
 * each opened entry (MCP Apps shows a tool's app beside it).
 */
export function registerHistoryCommands(
	history: CallHistory,
	onOpen?: (entry: HistoryEntry) => void,
	showCall?: (entry: HistoryEntry) => Promise<unknown> | undefined,
): vscode.Disposable {
	const needEntry = (entry: HistoryEntry | undefined): entry is HistoryEntry => {
		if (entry && history.get(entry.id)) return true;
		void vscode.window.showInformationMessage('Pick a call in the MCP Call History view first.');
		return false;
	};
	const open = async (entry: HistoryEntry) => {
		// A tool call's result opens in the result view, as it looked when the call ran; the rest as JSON.
		const shown = showCall?.(entry);
		if (shown) {
			const view = await shown;
			onOpen?.(entry);
			return view;
		}
		const document = await vscode.workspace.openTextDocument(resultUri(entry));
		await vscode.languages.setTextDocumentLanguage(document, 'json');
		const editor = await vscode.window.showTextDocument(document, { preview: true });
		onOpen?.(entry);
		return editor;
	};
	return vscode.Disposable.from(
		vscode.commands.registerCommand(Commands.historyOpen, (entry?: HistoryEntry) =>
			needEntry(entry) ? open(entry) : undefined,
		),
		vscode.commands.registerCommand(Commands.historyRerun, (entry?: HistoryEntry) =>
			needEntry(entry)
				? runInvocation(invocationOf(entry), false, { via: 'history', typedHere: entry.origin === 'palette' })
				: undefined,
		),
		vscode.commands.registerCommand(Commands.historyEditRerun, (entry?: HistoryEntry) =>
			needEntry(entry) ? runInvocation(invocationOf(entry), true) : undefined,
		),
		vscode.commands.registerCommand(Commands.historyCompare, async (entry?: HistoryEntry) => {
			if (!needEntry(entry)) return undefined;
			const previous = history.previous(entry);
			if (!previous) {
				void vscode.window.showInformationMessage(
					`'${targetLabel(entry.target)}' on ${entry.target.server} has no earlier call in the history to compare with.`,
				);
				return undefined;
			}
			// Both sides show the arguments above the result: what changed in the call beside what changed in its answer.
			const title = `${targetLabel(entry.target)} (${entry.target.server}): ${new Date(previous.startedAt).toLocaleTimeString()} ↔ ${new Date(entry.startedAt).toLocaleTimeString()}`;
			return vscode.commands.executeCommand('vscode.diff', comparisonUri(previous), comparisonUri(entry), title, {
				preview: true,
			});
		}),
		vscode.commands.registerCommand(Commands.historyCopy, async (entry?: HistoryEntry) => {
			if (!needEntry(entry)) return undefined;
			const text = JSON.stringify(
				{
					...formatTarget(entry),
					origin: entry.origin,
					startedAt: new Date(entry.startedAt).toISOString(),
					durationMs: Math.round(entry.durationMs),
					outcome: entry.outcome,
				},
				null,
				2,
			);
			await vscode.env.clipboard.writeText(text);
			return text;
		}),
		vscode.commands.registerCommand(Commands.historySave, async (entry?: HistoryEntry, target?: vscode.Uri) => {
			if (!needEntry(entry)) return undefined;
			const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
			const suggested = `${
				targetLabel(entry.target)
					.replace(/[^A-Za-z0-9._-]+/g, '-')
					.replace(/^-+|-+$/g, '')
					.slice(0, 60) || 'call'
			}.mcpcall.json`;
			const uri =
				target ??
				(await vscode.window.showSaveDialog({
					title: 'Save the call as a file that runs again',
					saveLabel: 'Save Call',
					filters: { 'MCP call': ['mcpcall.json'] },
					...(folder ? { defaultUri: vscode.Uri.joinPath(folder, suggested) } : {}),
				}));
			if (!uri) return undefined;
			await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(formatInvocation(invocationOf(entry))));
			await vscode.window.showTextDocument(uri);
			return uri;
		}),
		vscode.commands.registerCommand(Commands.historyClear, () => history.clear()),
	);
}

function formatTarget(entry: HistoryEntry): Record<string, unknown> {
	return JSON.parse(formatInvocation(invocationOf(entry))) as Record<string, unknown>;
}
