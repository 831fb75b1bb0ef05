/**
 * One MCP App in a webview panel beside the tool's result: the page (appPanelHtml.ts) under the app's own CSP, and
 * an AppBridge per run of the tool. Running the same tool again replaces the app in the same panel (the old one gets
 * `ui/resource-teardown` first); closing the panel ends the bridge. No Node in the page (webviews have none), no
 * local resources (`localResourceRoots: []`), no command links.
 */
import * as vscode from 'vscode';
import type { Logger } from '../../../common/logger';
import { AppBridge, type AppBridgeHost, type AppDisplayMode, type AppFile } from '../../../manager/apps/appBridge';
import { appContentSecurityPolicy } from '../../../manager/apps/appCsp';
import type { AppContent } from '../../../manager/apps/appMeta';
import type { CallToolResult, Tool } from '../../../protocol/schema';
import { appPanelHtml } from './appPanelHtml';

/** One run of a tool whose result an app shows. */
export interface AppRun {
	server: string;
	tool: Tool;
	arguments: Record<string, unknown>;
	result: CallToolResult;
	app: AppContent;
}

/** What a panel needs from its surroundings. */
export interface AppPanelDeps {
	/** The bridge's host for this run (the Manager, consent, VS Code), given the panel for size changes and closing. */
	host(run: AppRun, panel: AppPanel): AppBridgeHost;
	logger(server: string): Logger;
	hostInfo: { name: string; version: string };
	/** Locale, time zone, platform… (the parts of the host context that do not come from the page). */
	baseContext(): Record<string, unknown>;
}

type FromPage =
	| { type: 'ready'; context: PageContext }
	| { type: 'context'; context: PageContext }
	| { type: 'app'; message: unknown }
	| { type: 'navigated' }
	| { type: 'dropped'; count: number };

interface PageContext {
	theme?: 'light' | 'dark';
	styles?: { variables?: Record<string, string> };
	width?: number;
}

function hostContextOf(page: PageContext | undefined): Record<string, unknown> {
	if (!page) return {};
	const width = typeof page.width === 'number' && page.width > 0 ? page.width : undefined;
	return {
		...(page.theme ? { theme: page.theme } : {}),
		...(page.styles ? { styles: page.styles } : {}),
		// Width fixed by the panel, height up to the app (the page grows the frame on size-changed).
		...(width !== undefined ? { containerDimensions: { width } } : {}),
	};
}

/**
 * The display modes a panel really offers: `inline` (an editor tab beside the result) and `fullscreen` (that tab's
 * editor group maximised, the others hidden, VS Code's "Toggle Maximize Editor Group"). Not `pip`: VS Code has no
 * floating overlay for a webview (a separate window is a desktop-only feature and not "over" anything).
 */
export const PANEL_DISPLAY_MODES: readonly AppDisplayMode[] = ['inline', 'fullscreen'];

export class AppPanel implements vscode.Disposable {
	private bridge: AppBridge | undefined;
	/** The panel's display mode (kept across runs of the tool in this panel). */
	private mode: AppDisplayMode = 'inline';
	/** True while this panel's editor group is maximised by a fullscreen request. */
	private maximized = false;
	private current: AppRun | undefined;
	private latestTicket = 0;
	private page: PageContext | undefined;
	private pageReady = false;
	private readonly disposables: vscode.Disposable[] = [];
	private disposed = false;
	private readonly closed = new vscode.EventEmitter<void>();
	/** Fires once when the panel closed. */
	readonly onDidClose = this.closed.event;

	constructor(
		readonly key: string,
		readonly panel: vscode.WebviewPanel,
		private readonly deps: AppPanelDeps,
	) {
		panel.webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [] };
		this.disposables.push(
			panel.webview.onDidReceiveMessage((message: FromPage) => this.receive(message)),
			panel.onDidDispose(() => this.dispose()),
		);
	}

	/** The bridge of the app shown now (tests read its state). */
	get activeBridge(): AppBridge | undefined {
		return this.bridge;
	}

	/**
	 * A number for the next run to show, taken when the run starts (before its app resource is read): only the run
	 * with the latest ticket is shown, whatever order the reads and teardowns finish in.
	 */
	nextTicket(): number {
		return ++this.latestTicket;
	}

	/** The bridge of the app shown last, also after the panel closed (tests check that it ended). */
	lastBridge: AppBridge | undefined;

	/** The run shown now. */
	get run(): AppRun | undefined {
		return this.current;
	}

	/**
	 * Shows `run`: a new page under the app's CSP (the policy lives in the page, so each app gets its own page),
	 * then the app once the page says it is ready. A previous app is torn down first.
	 */
	async show(run: AppRun, ticket = this.nextTicket()): Promise<void> {
		if (ticket !== this.latestTicket) return;
		const previous = this.bridge;
		this.bridge = undefined;
		if (previous) await previous.teardown('the tool ran again: a new app replaces this one');
		// A newer run came while the old app was torn down: it shows, this one does not (no older result, no extra bridge).
		if (this.disposed || ticket !== this.latestTicket) return;
		const logger = this.deps.logger(run.server);
		const csp = appContentSecurityPolicy(run.app.csp);
		// "Audit Trail: Host SHOULD log CSP configurations for security review."
		logger.info(`app ${run.app.uri} of ${run.tool.name}: Content-Security-Policy "${csp.policy}"`);
		if (csp.rejected.length > 0)
			logger.warn(`app ${run.app.uri}: ignored declared origins that are not origins: ${csp.rejected.join('; ')}`);
		if (run.app.permissions.length > 0)
			logger.info(
				`app ${run.app.uri}: asks for ${run.app.permissions.join(', ')}; not granted (a webview cannot pass them on)`,
			);
		this.current = run;
		this.pageReady = false;
		this.bridge = new AppBridge(this.deps.host(run, this), {
			server: run.server,
			uri: run.app.uri,
			tool: run.tool,
			arguments: run.arguments,
			hostInfo: this.deps.hostInfo,
			hostContext: {
				...this.deps.baseContext(),
				displayMode: this.mode,
				platform: vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop',
			},
			displayModes: PANEL_DISPLAY_MODES,
			csp: csp.approved,
			post: (message) => this.panel.webview.postMessage({ type: 'app', message }),
			logger,
		});
		this.lastBridge = this.bridge;
		this.bridge.toolResult(run.result);
		this.panel.title = `App: ${run.tool.title ?? run.tool.name}`;
		// The run's ticket makes each page's text new: VS Code reloads a webview only when its html changes, and the same
		// app run again has the same page otherwise (the new bridge would wait for an app that never loads).
		this.panel.webview.html = `${appPanelHtml(
			csp.policy,
			`${run.tool.title ?? run.tool.name} · ${run.server} · ${run.app.uri} (sandboxed MCP App)`,
		)}<!-- run ${ticket} -->`;
	}

	/** Shows a problem in place of the app (the page stays; the bridge is closed). */
	showProblem(text: string): void {
		void this.bridge?.dispose();
		this.bridge = undefined;
		void this.panel.webview.postMessage({ type: 'status', text, error: true });
	}

	/** The panel's display mode now. */
	get displayMode(): AppDisplayMode {
		return this.mode;
	}

	/**
	 * Shows the panel in `mode`: fullscreen maximises its editor group (the panel is made active first, since VS Code
	 * maximises the active group), inline restores the layout. Resolves the mode in effect.
	 */
	async setDisplayMode(mode: AppDisplayMode): Promise<AppDisplayMode> {
		if (this.disposed || !PANEL_DISPLAY_MODES.includes(mode) || mode === this.mode) return this.mode;
		// With one editor group the panel already fills the editor area (VS Code maximises nothing then): only a group
		// this panel maximised is restored, so going back never maximises something else.
		const toggle = mode === 'fullscreen' ? vscode.window.tabGroups.all.length > 1 : this.maximized;
		if (toggle) {
			this.panel.reveal(undefined, false);
			await vscode.commands.executeCommand('workbench.action.toggleMaximizeEditorGroup');
		}
		this.maximized = mode === 'fullscreen' && toggle;
		this.mode = mode;
		return mode;
	}

	/**
	 * Saves a file the app offers: VS Code's save dialog (the confirmation the spec asks for) suggests the app's name for
	 * it in the first workspace folder; cancelling resolves false.
	 */
	async saveFile(file: AppFile, title: string): Promise<boolean> {
		const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
		const target = await vscode.window.showSaveDialog({
			title,
			saveLabel: 'Save',
			...(folder ? { defaultUri: vscode.Uri.joinPath(folder, file.fileName) } : {}),
		});
		if (!target) return false;
		await vscode.workspace.fs.writeFile(target, file.bytes);
		return true;
	}

	/** Grows or shrinks the app's frame to the height it reported. */
	resize(size: { width?: number; height?: number }): void {
		if (size.height !== undefined) void this.panel.webview.postMessage({ type: 'size', height: size.height });
	}

	private receive(message: FromPage): void {
		if (!message || typeof message !== 'object') return;
		const run = this.current;
		switch (message.type) {
			case 'ready':
				this.page = message.context;
				if (!run || this.pageReady) return;
				this.pageReady = true;
				this.bridge?.setHostContext(hostContextOf(this.page));
				void this.panel.webview.postMessage({
					type: 'load',
					html: run.app.html,
					border: run.app.prefersBorder === true,
				});
				return;
			case 'context':
				this.page = message.context;
				this.bridge?.setHostContext(hostContextOf(this.page));
				return;
			case 'app':
				this.bridge?.receive(message.message);
				return;
			case 'navigated':
				if (run)
					this.deps
						.logger(run.server)
						.warn(`app ${run.app.uri}: tried to leave its page (a navigation, blocked by its frame-src); closed`);
				void this.bridge?.dispose();
				this.bridge = undefined;
				return;
			case 'dropped':
				if (run)
					this.deps
						.logger(run.server)
						.warn(
							`app ${run.app.uri}: the panel dropped ${Number(message.count)} messages the app sent in one second (more than 300)`,
						);
				return;
		}
	}

	/** Closes the panel at once (the extension ends). */
	close(): void {
		this.panel.dispose();
	}

	/**
	 * Closes the panel the way the spec wants: `ui/resource-teardown` to the app, its answer awaited (at most 2 s), then
	 * the panel goes (Close MCP App, the app's own request-teardown).
	 */
	async closeGracefully(reason: string): Promise<void> {
		await this.bridge?.teardown(reason);
		this.panel.dispose();
	}

	dispose(): void {
		if (this.disposed) return;
		this.disposed = true;
		const bridge = this.bridge;
		this.bridge = undefined;
		if (bridge && !bridge.isClosed && this.current) {
			// The person closed the tab: VS Code removes a webview before it tells the extension (WebviewPanel has only
			// onDidDispose, no "will close"), so the app is gone and cannot be sent ui/resource-teardown any more. What is
			// left is ended here: its requests in flight are cancelled and nothing more is sent or handled.
			this.deps
				.logger(this.current.server)
				.info(
					`app ${this.current.app.uri}: its tab was closed, so it got no ui/resource-teardown (VS Code removes a webview before telling the extension; the title bar's Close MCP App sends it first); its requests in flight were cancelled`,
				);
		}
		void bridge?.dispose();
		for (const disposable of this.disposables) disposable.dispose();
		this.closed.fire();
		this.closed.dispose();
	}
}
