/**
 * One MCP App in a webview panel beside the tool's result: the page (appPanelHtml.ts) under the app's own CSP, and
 * an AppBridge per run of the tool. Running the same tool again replaces the app in the same panel (the old one gets
 * `ui/resource-teardown` first); closing the panel ends the bridge. No Node in the page (webviews have none), no
 * local resources (`localResourceRoots: []`), no command links.
 */
import * as vscode from 'vscode';
import type { Logger } from '../../../common/logger';
import { AppBridge, type AppBridgeHost } from '../../../manager/apps/appBridge';
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

export class AppPanel implements vscode.Disposable {
	private bridge: AppBridge | undefined;
	private current: AppRun | undefined;
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

	/** The run shown now. */
	get run(): AppRun | undefined {
		return this.current;
	}

	/**
	 * Shows `run`: a new page under the app's CSP (the policy lives in the page, so each app gets its own page),
	 * then the app once the page says it is ready. A previous app is torn down first.
	 */
	async show(run: AppRun): Promise<void> {
		const previous = this.bridge;
		this.bridge = undefined;
		if (previous) await previous.teardown('the tool ran again: a new app replaces this one');
		if (this.disposed) return;
		const logger = this.deps.logger(run.server);
		const csp = appContentSecurityPolicy(run.app.csp);
		// "Audit Trail: Host SHOULD log CSP configurations for security review."
		logger.info(`app ${run.app.uri} of ${run.tool.name}: Content-Security-Policy "${csp.policy}"`);
		if (csp.rejected.length > 0) logger.warn(`app ${run.app.uri}: ignored declared origins that are not origins: ${csp.rejected.join('; ')}`);
		if (run.app.permissions.length > 0) logger.info(`app ${run.app.uri}: asks for ${run.app.permissions.join(', ')}; not granted (a webview cannot pass them on)`);
		this.current = run;
		this.pageReady = false;
		this.bridge = new AppBridge(this.deps.host(run, this), {
			server: run.server,
			uri: run.app.uri,
			tool: run.tool,
			arguments: run.arguments,
			hostInfo: this.deps.hostInfo,
			hostContext: { ...this.deps.baseContext(), displayMode: 'inline', availableDisplayModes: ['inline'], platform: vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop' },
			csp: csp.approved,
			post: (message) => this.panel.webview.postMessage({ type: 'app', message }),
			logger,
		});
		this.bridge.toolResult(run.result);
		this.panel.title = `App: ${run.tool.title ?? run.tool.name}`;
		this.panel.webview.html = appPanelHtml(csp.policy, `${run.tool.title ?? run.tool.name} · ${run.server} · ${run.app.uri} (sandboxed MCP App)`);
	}

	/** Shows a problem in place of the app (the page stays; the bridge is closed). */
	showProblem(text: string): void {
		void this.bridge?.dispose();
		this.bridge = undefined;
		void this.panel.webview.postMessage({ type: 'status', text, error: true });
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
				void this.panel.webview.postMessage({ type: 'load', html: run.app.html, border: run.app.prefersBorder === true });
				return;
			case 'context':
				this.page = message.context;
				this.bridge?.setHostContext(hostContextOf(this.page));
				return;
			case 'app':
				this.bridge?.receive(message.message);
				return;
			case 'navigated':
				if (run) this.deps.logger(run.server).warn(`app ${run.app.uri}: tried to leave its page (a navigation, blocked by its frame-src); closed`);
				void this.bridge?.dispose();
				this.bridge = undefined;
				return;
			case 'dropped':
				if (run) this.deps.logger(run.server).warn(`app ${run.app.uri}: the panel dropped ${Number(message.count)} messages the app sent in one second (more than 300)`);
				return;
		}
	}

	/** Closes the panel (the app asked to be torn down, or the extension ends). */
	close(): void {
		this.panel.dispose();
	}

	dispose(): void {
		if (this.disposed) return;
		this.disposed = true;
		// The panel is gone already: VS Code gives no moment to ask the app first, so the bridge just ends.
		void this.bridge?.dispose();
		this.bridge = undefined;
		for (const disposable of this.disposables) disposable.dispose();
		this.closed.fire();
		this.closed.dispose();
	}
}
