/**
 * Record Session: records the JSON-RPC exchange with one server (manager/sessionRecording.ts) from now until Stop
 * Recording, then saves it as a `*.mcpsession.json` file that `mcp-switchboard replay` serves back as a fake server.
 * Offered on a server's row, in the palette and in the protocol view's title. While a recording runs, a status bar item
 * says so and counts the messages; clicking it stops and saves. Secrets are redacted as the messages arrive: secret
 * keys' values, the server's header values and secret-looking environment values, and the values of password inputs.
 */
import * as vscode from 'vscode';
import type { Manager } from '../../manager/manager';
import { configSecrets, formatSession, SessionRecorder } from '../../manager/sessionRecording';
import { Commands } from '../commandIds';
import { pickServer, serverOf, type CommandBase, type Target } from '../commandTarget';

/** What the recording commands need beyond the Manager and the logs. */
export interface RecordDeps extends CommandBase {
	/** The values of password inputs answered in this window (ServerConfiguration.secretInputValues). */
	secretInputValues(): string[];
}

/** What Stop Recording resolves with (tests and automation). */
export interface SavedSession {
	file: vscode.Uri;
	messages: number;
}

/** The recordings in progress, one per server at most. */
export class SessionRecordings implements vscode.Disposable {
	private readonly recorders = new Map<string, SessionRecorder>();
	private readonly status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 90);
	/** Refreshes the count each second, only while something is recorded. */
	private ticker: ReturnType<typeof setInterval> | undefined;

	constructor(private readonly deps: RecordDeps) {
		this.status.command = Commands.stopRecording;
	}

	isRecording(server: string): boolean {
		return this.recorders.has(server);
	}

	private secrets(manager: Manager, server: string): string[] {
		const config = manager.get(server)?.config;
		return [...(config ? configSecrets(config) : []), ...this.deps.secretInputValues()];
	}

	/** Starts recording `target`'s server (asks which when none is given); a second call on it stops and saves. */
	async record(target: Target, saveTo?: vscode.Uri): Promise<SavedSession | { recording: string } | undefined> {
		const { manager } = this.deps;
		const server =
			serverOf(target) ??
			(await pickServer(
				this.deps,
				'Record the session of which server?',
				(view) => view.state.kind === 'running',
				'No MCP server is running: start one to record its session.',
			));
		if (!server) return undefined;
		if (this.recorders.has(server)) return this.stop(server, saveTo);
		if (manager.get(server)?.state.kind !== 'running') {
			void vscode.window.showWarningMessage(
				`MCP server '${server}' is not running: start it, then record its session.`,
			);
			return undefined;
		}
		this.recorders.set(server, new SessionRecorder(manager, server, () => this.secrets(manager, server)));
		this.deps.logs.channel(server).info('Recording the session (Stop Recording saves it)');
		this.render();
		return { recording: server };
	}

	/** Stops the recording of `server` (asks which when several run) and saves it; undefined when nothing was saved. */
	async stop(server?: string, saveTo?: vscode.Uri): Promise<SavedSession | undefined> {
		if (server === undefined) {
			const names = [...this.recorders.keys()];
			server =
				names.length <= 1
					? names[0]
					: await vscode.window.showQuickPick(names, { placeHolder: 'Stop recording which server?' });
		}
		const recorder = server === undefined ? undefined : this.recorders.get(server);
		if (!server || !recorder) {
			if (this.recorders.size === 0) void vscode.window.showInformationMessage('No MCP session is being recorded.');
			return undefined;
		}
		this.recorders.delete(server);
		const session = recorder.stop();
		this.render();
		const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
		const file =
			saveTo ??
			(await vscode.window.showSaveDialog({
				title: `Save the recorded session of '${server}'`,
				defaultUri: folder ? vscode.Uri.joinPath(folder, `${server}.mcpsession.json`) : undefined,
				filters: { 'Recorded MCP session': ['mcpsession.json', 'json'] },
			}));
		if (!file) return undefined;
		await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(formatSession(session)));
		const shown = vscode.workspace.asRelativePath(file);
		this.deps.logs.channel(server).info(`Saved ${session.messages.length} recorded messages to ${shown}`);
		if (!saveTo)
			void vscode.window.showInformationMessage(
				`Saved the session of '${server}' (${session.messages.length} messages) to ${shown}. Replay it with: mcp-switchboard replay ${shown}`,
			);
		return { file, messages: session.messages.length };
	}

	private render(): void {
		if (this.recorders.size === 0) {
			clearInterval(this.ticker);
			this.ticker = undefined;
			this.status.hide();
			return;
		}
		this.ticker ??= setInterval(() => this.render(), 1000);
		const parts = [...this.recorders].map(([name, recorder]) => `${name} (${recorder.count})`);
		this.status.text = `$(record) Recording ${parts.join(', ')}`;
		this.status.tooltip = 'Recording MCP sessions: click to stop and save';
		this.status.show();
	}

	dispose(): void {
		clearInterval(this.ticker);
		for (const recorder of this.recorders.values()) recorder.dispose();
		this.recorders.clear();
		this.status.dispose();
	}
}
