/**
 * Save as Session… on a Call History row: the calls already made with that row's server (all of them in the history,
 * or only that one) saved as a `*.mcpsession.json` file in Record Session's format (manager/sessionFromCalls.ts), so
 * `mcp-switchboard replay` serves them back without recording anything again. The server's handshake and lists come
 * from the Manager; secrets are redacted as Record Session redacts them.
 */
import * as vscode from 'vscode';
import type { Manager } from '../../manager/manager';
import { sessionFromCalls, type PastCall } from '../../manager/sessionFromCalls';
import { configSecrets, formatSession, handshakeOf } from '../../manager/sessionRecording';

/** A history row as this command needs it (console/callHistory.ts HistoryEntry has this shape). */
export interface HistoryRow extends PastCall {
	id: string;
}

/** What the command needs. */
export interface SessionFromHistoryDeps {
	manager: Manager;
	/** The Call History's entries, newest first. */
	history: { all(): readonly HistoryRow[] };
	/** The values of password inputs answered in this window. */
	secretInputValues(): string[];
}

/** Which calls go into the file: every call with the row's server in the history, or the row's call only. */
export type SessionScope = 'server' | 'call';

/** What the command resolves with (tests and automation). */
export interface SavedHistorySession {
	file: vscode.Uri;
	calls: number;
	skipped: string[];
}

async function chooseScope(row: HistoryRow, others: number): Promise<SessionScope | undefined> {
	if (others <= 1) return 'call';
	const server = row.target.server;
	const picked = await vscode.window.showQuickPick(
		[
			{ label: `All ${others} calls with '${server}' in the history`, scope: 'server' as const },
			{ label: 'Only this call', scope: 'call' as const },
		],
		{ title: `Save as a session of '${server}'`, placeHolder: 'Which calls go into the session file?' },
	);
	return picked?.scope;
}

/**
 * Saves `row`'s server's calls as a session file (`saveTo`, else a save dialog); `scope` skips the question of which
 * calls. Undefined when the person cancelled or there was no row.
 */
export async function saveSessionFromHistory(
	deps: SessionFromHistoryDeps,
	row: HistoryRow | undefined,
	saveTo?: vscode.Uri,
	scope?: SessionScope,
): Promise<SavedHistorySession | undefined> {
	if (!row) {
		void vscode.window.showInformationMessage('Pick a call in the MCP Call History view first.');
		return undefined;
	}
	const server = row.target.server;
	const sameServer = deps.history.all().filter((entry) => entry.target.server === server);
	scope ??= await chooseScope(row, sameServer.length);
	if (!scope) return undefined;
	const view = deps.manager.get(server);
	const state = view?.state;
	const { session, calls, skipped } = sessionFromCalls(server, scope === 'server' ? sameServer : [row], {
		...(state?.kind === 'running' ? { handshake: handshakeOf(state.client) } : {}),
		...(view
			? {
					lists: {
						tools: view.tools.map((named) => named.tool),
						prompts: view.prompts,
						resources: view.resources,
						resourceTemplates: view.resourceTemplates,
					},
				}
			: {}),
		secrets: [...(view ? configSecrets(view.config) : []), ...deps.secretInputValues()],
	});
	const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
	const file =
		saveTo ??
		(await vscode.window.showSaveDialog({
			title: `Save the calls with '${server}' as a session that replays`,
			defaultUri: folder ? vscode.Uri.joinPath(folder, `${server}.mcpsession.json`) : undefined,
			filters: { 'Recorded MCP session': ['mcpsession.json', 'json'] },
		}));
	if (!file) return undefined;
	await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(formatSession(session)));
	if (!saveTo) {
		const shown = vscode.workspace.asRelativePath(file);
		const left = skipped.length > 0 ? ` (${skipped.length} left out: ${skipped.join('; ')})` : '';
		void vscode.window.showInformationMessage(
			`Saved ${calls} call${calls === 1 ? '' : 's'} with '${server}' to ${shown}${left}. Replay it with: mcp-switchboard replay ${shown}`,
		);
	}
	return { file, calls, skipped };
}
