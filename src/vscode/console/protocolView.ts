/**
 * The protocol view: a webview per server listing every JSON-RPC message — direction, time, method (with the tool,
 * prompt or resource a call names), id, size, each response paired with its request and latency — with a filter
 * (method or text, errors only), a details pane with the pretty JSON, Copy and Show in Call History, and keyboard
 * navigation. Messages come from the Manager's tap into a bounded ProtocolLog per server, recorded from the server's
 * first start whether a view is open or not (ProtocolRecorder), so opening the view shows what happened before; the text is
 * redacted as the log's trace.
 * The log processes what it recorded in batches (every 100 ms, see ProtocolLog); each batch tells the webview which
 * seqs are kept, and the webview asks for the rows it shows (a few dozen, whatever the traffic: a busy server's
 * thousands of rows a batch are never built or sent unless someone scrolls to them) and for a message's JSON,
 * pretty-printed here, only when the message is opened.
 */
import { randomBytes } from 'node:crypto';
import { Commands } from '../commandIds';
import * as vscode from 'vscode';
import type { Manager, ServerState } from '../../manager/manager';
import { stateLabel } from '../shared/serverStates';
import { DEFAULT_CAPACITY, ProtocolLog, type ProtocolEntry } from './protocolLog';
import { protocolViewHtml } from './protocolViewHtml';

/** The pretty JSON of an entry (its raw text when it was cut or is not JSON). */
export function prettyText(entry: ProtocolEntry): string {
	try {
		return JSON.stringify(JSON.parse(entry.text), null, 2);
	} catch {
		return entry.text;
	}
}

function capacity(): number {
	const value = vscode.workspace
		.getConfiguration('mcpSwitchboard')
		.get<number>('protocolView.maxMessages', DEFAULT_CAPACITY);
	return typeof value === 'number' && value >= 100 ? value : DEFAULT_CAPACITY;
}

/** How far apart a history entry's start and its request's time may be and still be the same call. */
const MAX_LINK_DISTANCE_MS = 2000;

/** The most rows the webview may ask for at once (it shows a few dozen). */
const MAX_ROWS_ASKED = 1000;

type FromWebview =
	| { type: 'ready' }
	| { type: 'rows'; seqs: number[] }
	| { type: 'filter'; query: string; errorsOnly: boolean; token: number; after?: number }
	| { type: 'details'; seq: number }
	| { type: 'copy'; seq: number }
	| { type: 'history'; seq: number };

/** What links the protocol view and the Call History (console/index.ts): a call's rows and its history entry. */
export interface CallLinks {
	/** Reveals the history entry of the call `label` (`tools/call echo`) sent at `time`; false when there is none. */
	revealInHistory(server: string, label: string, time: number): Promise<boolean>;
}

/**
 * Records each server's messages from its first start in this window into a bounded log (the view's capacity
 * setting), open view or not. Closing a view keeps its server's log; removing a server drops it. A server that has not
 * started has no log yet: a log keeps room for thousands of messages, and most of fifty configured servers may never
 * start in a window.
 */
export class ProtocolRecorder implements vscode.Disposable {
	private readonly logs = new Map<string, { log: ProtocolLog; tap: vscode.Disposable }>();
	private readonly disposables: vscode.Disposable[];

	constructor(private readonly manager: Manager) {
		this.sync();
		this.disposables = [
			manager.onDidChangeServers(() => this.sync()),
			manager.onDidChangeState(({ server, state }) => {
				if (state.kind === 'starting' || state.kind === 'running') this.log(server);
			}),
			vscode.workspace.onDidChangeConfiguration((e) => {
				if (e.affectsConfiguration('mcpSwitchboard.protocolView.maxMessages'))
					for (const { log } of this.logs.values()) log.setCapacity(capacity());
			}),
		];
	}

	/** The log of `server` (made now when the server was added a moment ago). */
	log(server: string): ProtocolLog {
		let kept = this.logs.get(server);
		if (!kept) {
			const log = new ProtocolLog(capacity());
			kept = {
				log,
				tap: this.manager.watchMessages(server, (direction, message, text, bytes, start, end) =>
					log.record(direction, message, text, bytes, start, end),
				),
			};
			this.logs.set(server, kept);
		}
		return kept.log;
	}

	private sync(): void {
		const views = this.manager.servers();
		for (const view of views) if (view.state.kind === 'starting' || view.state.kind === 'running') this.log(view.name);
		const names = new Set(views.map((view) => view.name));
		for (const [name, kept] of this.logs) {
			if (names.has(name)) continue;
			kept.tap.dispose();
			kept.log.dispose();
			this.logs.delete(name);
		}
	}

	dispose(): void {
		for (const disposable of this.disposables) disposable.dispose();
		for (const { log, tap } of this.logs.values()) {
			tap.dispose();
			log.dispose();
		}
		this.logs.clear();
	}
}

/** One open protocol view. */
export class ProtocolPanel implements vscode.Disposable {
	private readonly disposables: vscode.Disposable[] = [];
	private disposed = false;
	private ready = false;
	/** A row to select once the page is ready (Show in Protocol View from the Call History). */
	private pendingSelect: number | undefined;

	/** `log` is the server's recorded log (ProtocolRecorder), kept when this view closes. */
	constructor(
		readonly server: string,
		readonly panel: vscode.WebviewPanel,
		readonly log: ProtocolLog,
		onDispose: () => void,
		private readonly links?: CallLinks,
	) {
		const nonce = randomBytes(16).toString('base64');
		panel.webview.options = { enableScripts: true, localResourceRoots: [] };
		panel.webview.html = protocolViewHtml(server, nonce, panel.webview.cspSource);
		this.disposables.push(
			this.log.onDidAdd(() => this.post()),
			panel.webview.onDidReceiveMessage((message: FromWebview) => void this.receive(message)),
			panel.onDidDispose(() => {
				this.dispose();
				onDispose();
			}),
		);
	}

	/** After a batch: the seqs now kept (the webview then asks for the rows it shows). */
	private post(): void {
		if (this.disposed) return;
		const { first, end } = this.log.range();
		void this.panel.webview.postMessage({ type: 'batch', first, end });
	}

	private async receive(message: FromWebview): Promise<void> {
		switch (message.type) {
			case 'ready':
				{
					const { first, end } = this.log.range();
					await this.panel.webview.postMessage({ type: 'reset', first, end });
					this.ready = true;
					if (this.pendingSelect !== undefined) this.select(this.pendingSelect);
				}
				return;
			case 'history': {
				// The call's request (the answer's pair) names what was called and when it was sent.
				const entry = this.log.get(Number(message.seq));
				const request = entry?.kind === 'request' ? entry : entry?.pair ? this.log.get(entry.pair) : undefined;
				const found =
					request?.method !== undefined &&
					(await this.links?.revealInHistory(this.server, request.method, request.time));
				if (!found)
					void vscode.window.showInformationMessage(
						`This call of ${this.server} is not in the Call History (only calls from the palette, the Servers view, @mcp, VS Code's agent, saved files and apps are).`,
					);
				return;
			}
			case 'rows': {
				const seqs = Array.isArray(message.seqs)
					? message.seqs.filter((seq): seq is number => typeof seq === 'number').slice(0, MAX_ROWS_ASKED)
					: [];
				await this.panel.webview.postMessage({ type: 'rows', columns: this.log.columnsOf(seqs) });
				return;
			}
			case 'filter':
				{
					// `after`: the webview filters a new batch alone and appends what matches.
					const after = typeof message.after === 'number' ? message.after : 0;
					const seqs = this.log.filter(String(message.query ?? ''), message.errorsOnly === true, after);
					await this.panel.webview.postMessage({
						type: 'filtered',
						token: message.token,
						seqs,
						...(after > 0 ? { after } : {}),
					});
				}
				return;
			case 'details': {
				const entry = this.log.get(Number(message.seq));
				await this.panel.webview.postMessage({
					type: 'details',
					seq: message.seq,
					text: entry ? prettyText(entry) : 'This message is no longer kept (the view keeps the newest ones).',
				});
				return;
			}
			case 'copy': {
				const entry = this.log.get(Number(message.seq));
				if (entry) {
					await vscode.env.clipboard.writeText(prettyText(entry));
					void vscode.window.setStatusBarMessage(`Copied message ${entry.seq} of ${this.server}`, 2000);
				}
				return;
			}
		}
	}

	/** Selects and opens the row `seq` (once the page is ready). */
	select(seq: number): void {
		if (!this.ready) {
			this.pendingSelect = seq;
			return;
		}
		this.pendingSelect = undefined;
		this.log.range(); // processes what was recorded, so the page knows the row
		void this.panel.webview.postMessage({ type: 'batch', ...this.log.range() });
		void this.panel.webview.postMessage({ type: 'select', seq });
	}

	dispose(): void {
		if (this.disposed) return;
		this.disposed = true;
		for (const disposable of this.disposables) disposable.dispose();
	}
}

/** The protocol views by server, and the command that opens one. */
export class ProtocolViews implements vscode.Disposable {
	private readonly panels = new Map<string, ProtocolPanel>();
	private readonly command: vscode.Disposable;
	/** Servers that connected in this window (a view of one that never did would be empty: it says so instead). */
	private readonly connected = new Set<string>();
	private readonly stateWatch: vscode.Disposable;
	/** Every server's messages since activation (what a view shows when it opens). */
	readonly recorder: ProtocolRecorder;
	/** Set by the console once the Call History exists. */
	links: CallLinks | undefined;

	/** `recent()` names the server a person looked at last (its log), offered first when the command asks. */
	constructor(
		private readonly manager: Manager,
		private readonly recent: () => string | undefined = () => undefined,
	) {
		this.recorder = new ProtocolRecorder(manager);
		this.command = vscode.commands.registerCommand(Commands.showProtocol, (target?: unknown) => this.show(target));
		const watch = manager.onDidChangeState(({ server, state }) => {
			if (state.kind === 'running') this.connected.add(server);
		});
		for (const view of manager.servers()) if (view.state.kind === 'running') this.connected.add(view.name);
		this.stateWatch = new vscode.Disposable(() => watch.dispose());
	}

	/**
	 * Opens the view of `server` on the request of the call `label` sent closest to `time` (from the Call History);
	 * resolves with false when the log no longer keeps it.
	 */
	async showCall(server: string, label: string, time: number): Promise<boolean> {
		const log = this.recorder.log(server);
		let best: { seq: number; distance: number } | undefined;
		for (const entry of log.entries()) {
			if (entry.kind !== 'request' || entry.direction !== 'out' || entry.method !== label) continue;
			const distance = Math.abs(entry.time - time);
			if (!best || distance < best.distance) best = { seq: entry.seq, distance };
		}
		const view = await this.show(server);
		if (!view || !best || best.distance > MAX_LINK_DISTANCE_MS) return false;
		view.select(best.seq);
		return true;
	}

	/** The open view of `server`, if any (for tests). */
	get(server: string): ProtocolPanel | undefined {
		return this.panels.get(server);
	}

	/** Opens (or reveals) the view of the server named by `target` (a name, a tree node, `{ server }`), else asks. */
	async show(target?: unknown): Promise<ProtocolPanel | undefined> {
		let server =
			typeof target === 'string'
				? target
				: typeof target === 'object' && target !== null && typeof (target as { server?: unknown }).server === 'string'
					? (target as { server: string }).server
					: undefined;
		if (server === undefined) {
			const recent = this.recent();
			const names = this.manager
				.servers()
				.map((view) => ({ label: view.name, description: view.state.kind }))
				.sort((a, b) => Number(b.label === recent) - Number(a.label === recent));
			if (names.length === 0) {
				void vscode.window.showInformationMessage('No MCP server is configured. Add one from the MCP view first.');
				return undefined;
			}
			server = (
				await vscode.window.showQuickPick(names, { title: 'Show Protocol of MCP Server', placeHolder: 'Pick a server' })
			)?.label;
			if (server === undefined) return undefined;
		}
		const open = this.panels.get(server);
		if (open) {
			open.panel.reveal();
			return open;
		}
		const view = this.manager.get(server);
		if (!view) {
			void vscode.window.showErrorMessage(`No MCP server named '${server}' is configured.`);
			return undefined;
		}
		if (!this.connected.has(server) && view.state.kind !== 'running' && view.state.kind !== 'starting') {
			this.sayNeverConnected(server, view.state);
			return undefined;
		}
		return this.open(server);
	}

	/**
	 * A server that never connected has no messages: an empty view would read as "nothing happened". Says so, and
	 * offers to start it with the view open, so its connection attempt (and why it fails) is recorded.
	 */
	private sayNeverConnected(server: string, state: ServerState): void {
		const name = server;
		void vscode.window
			.showInformationMessage(
				`MCP server '${name}' has not connected in this window (${stateLabel(state)}), so it has no protocol messages to show. Start it to see its messages here.`,
				'Start and Watch',
				'Show Output',
			)
			.then((choice) => {
				if (choice === 'Show Output') void vscode.commands.executeCommand(Commands.showServerLog, name);
				if (choice === 'Start and Watch') {
					this.open(name);
					void vscode.commands.executeCommand(Commands.startServer, name);
				}
			});
	}

	private open(server: string): ProtocolPanel {
		const open = this.panels.get(server);
		if (open) {
			open.panel.reveal();
			return open;
		}
		const panel = vscode.window.createWebviewPanel(
			'mcpSwitchboard.protocol',
			`MCP Protocol: ${server}`,
			vscode.ViewColumn.Active,
			{ retainContextWhenHidden: true },
		);
		const view = new ProtocolPanel(
			server,
			panel,
			this.recorder.log(server),
			() => this.panels.delete(server),
			this.links,
		);
		this.panels.set(server, view);
		return view;
	}

	dispose(): void {
		this.command.dispose();
		this.stateWatch.dispose();
		this.recorder.dispose();
		for (const panel of this.panels.values()) panel.panel.dispose();
		this.panels.clear();
	}
}
