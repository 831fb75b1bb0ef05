/**
 * MCP Apps in VS Code: when a person runs a tool (palette, tree, Call History, a saved call) whose `_meta.ui.resourceUri`
 * names a `ui://` resource, that resource is read through the Manager (cached) and the app opens in a sandboxed
 * webview panel beside the result, one panel per server and tool. The app's requests run as the person's own would:
 * its tool calls through the Manager (origin `app`, so they are in the Call History) under the consent rule for
 * arguments nobody typed (manager/consentRule.ts: asked unless read-only, never in Restricted Mode),
 * refused for tools switched off in the MCP view or not offered to apps; links open in the browser after a quick pick.
 * `mcpSwitchboard.apps.enabled` (default true) turns rendering and the advertised extension off. An open panel keeps
 * its server from stopping when idle (`Manager.use`) until it closes.
 */
import * as vscode from 'vscode';
import { Commands } from '../../commandIds';
import type { AppBridgeHost } from '../../../manager/apps/appBridge';
import { APP_REQUEST_DENIED } from '../../../manager/apps/appBridge';
import { appContent, appResourceUri, APPS_CLIENT_CAPABILITY } from '../../../manager/apps/appMeta';
import type { InvocationRecord } from '../../../manager/invocations';
import type { Manager } from '../../../manager/manager';
import { McpError } from '../../../protocol/mcpError';
import type { CallToolResult, Tool } from '../../../protocol/schema';
import { MCP_LEVEL_TO_LOG } from '../../../manager/logLevels';
import { openExternalUrl } from '../../externalUrl';
import type { ServerLogs } from '../../logs/logging';
import type { ToolConsent } from '../../tools/consent';
import { RESULT_SCHEME } from '../../shared/resultDocument';
import { HISTORY_SCHEME } from '../historyView';
import { AppPanel, type AppRun } from './appPanel';
import { errorMessage } from '../../../common/errors';

/** Whether apps are rendered (and the extension advertised): `mcpSwitchboard.apps.enabled`, default true. */
export function appsEnabled(): boolean {
	return vscode.workspace.getConfiguration('mcpSwitchboard').get<boolean>('apps.enabled', true) !== false;
}

/** What Host.extensions advertises: MCP Apps unless switched off (read at each connect). */
export function advertisedExtensions(): Readonly<Record<string, object>> | undefined {
	return appsEnabled() ? APPS_CLIENT_CAPABILITY : undefined;
}

export interface AppViewsDeps {
	manager: Manager;
	logs: ServerLogs;
	consent: ToolConsent;
	/** False for a tool switched off in the MCP view (its checkbox). */
	isEnabled(named: { server: string; tool: { name: string } }): boolean;
	hostInfo: { name: string; version: string };
}

/** Calls a person made that open their tool's app (not a model's: chat and the gateway have their own UI). */
const OPENING_ORIGINS = new Set<InvocationRecord['origin']>(['palette', 'history', 'file']);

/** The schemes of the documents a call's result opens in (tools/resultDocument.ts, the Call History's JSON). */
const RESULT_SCHEMES = new Set([RESULT_SCHEME, HISTORY_SCHEME]);

/** Resolves once a result document is the active editor, or after `timeoutMs` (the result may fail to render). */
function resultShown(timeoutMs = 3000): Promise<void> {
	return new Promise((resolve) => {
		const done = () => {
			clearTimeout(timer);
			subscription.dispose();
			resolve();
		};
		const subscription = vscode.window.onDidChangeActiveTextEditor((editor) => {
			if (editor && RESULT_SCHEMES.has(editor.document.uri.scheme)) done();
		});
		const timer = setTimeout(done, timeoutMs);
	});
}

export class AppViews implements vscode.Disposable {
	private readonly panels = new Map<string, AppPanel>();
	private readonly subscription: vscode.Disposable;

	constructor(private readonly deps: AppViewsDeps) {
		const listener = deps.manager.onDidInvoke((record) => {
			const { target, outcome } = record;
			if (!OPENING_ORIGINS.has(record.origin) || target.kind !== 'tool' || outcome.kind !== 'result') return;
			// The call's result document opens after this event: wait for it (briefly), so the app lands beside it.
			void resultShown().then(() =>
				this.open(target.server, target.name, target.arguments, outcome.result as CallToolResult),
			);
		});
		const close = vscode.commands.registerCommand(Commands.closeApp, () => this.closeApp());
		this.subscription = vscode.Disposable.from(listener, close);
	}

	/** The open app panels (for tests and automation). */
	all(): readonly AppPanel[] {
		return [...this.panels.values()];
	}

	/** The panel of `server`'s `tool`, if open. */
	get(server: string, tool: string): AppPanel | undefined {
		return this.panels.get(JSON.stringify([server, tool]));
	}

	/**
	 * Opens (or refreshes) the app of a tool call's result. Resolves undefined when the tool has no app, apps are off,
	 * or the server does not list the tool now; a resource that cannot be read or is not an app is shown in the panel
	 * and the server's log.
	 */
	async open(
		server: string,
		toolName: string,
		args: Record<string, unknown>,
		result: CallToolResult,
	): Promise<AppPanel | undefined> {
		if (!appsEnabled()) return undefined;
		const tool = this.deps.manager.get(server)?.tools.find((named) => named.tool.name === toolName)?.tool;
		const uri = tool ? appResourceUri(tool) : undefined;
		if (!tool || uri === undefined) return undefined;
		const key = JSON.stringify([server, toolName]);
		let view = this.panels.get(key);
		if (!view) {
			const panel = vscode.window.createWebviewPanel(
				'mcpSwitchboard.app',
				`App: ${tool.title ?? tool.name}`,
				{ viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
				{ enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [] },
			);
			view = new AppPanel(key, panel, {
				host: (run, target) => this.bridgeHost(run, target),
				logger: (name) => this.deps.logs.logger(name),
				hostInfo: this.deps.hostInfo,
				baseContext: () => ({
					locale: vscode.env.language,
					timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
					userAgent: `${vscode.env.appName} ${vscode.version}; ${this.deps.hostInfo.name} ${this.deps.hostInfo.version}`,
				}),
			});
			const created = view;
			this.panels.set(key, created);
			// An open app uses its server (the person may press its buttons at any time): the server does not stop when
			// idle until the panel closes (#28).
			const hold = this.deps.manager.use(server);
			created.onDidClose(() => {
				hold.dispose();
				if (this.panels.get(key) === created) this.panels.delete(key);
			});
		} else {
			view.panel.reveal(undefined, true);
		}
		const ticket = view.nextTicket();
		try {
			const app = appContent(uri, await this.deps.manager.readResource(server, uri));
			await view.show({ server, tool, arguments: args, result, app }, ticket);
		} catch (error) {
			const message = `could not show the app of ${toolName} (${uri}): ${errorMessage(error)}`;
			this.deps.logs.channel(server).error(message);
			view.showProblem(`MCP server '${server}' ${message}`);
		}
		return view;
	}

	/** The bridge's host for one run: the app's server only, the person's rules. */
	private bridgeHost(run: AppRun, panel: AppPanel): AppBridgeHost {
		const { manager, logs, consent } = this.deps;
		const server = run.server;
		let linkAsked = false;
		return {
			tool: (name) => manager.get(server)?.tools.find((named) => named.tool.name === name)?.tool,
			refusal: (tool: Tool) => {
				const state = manager.get(server)?.state.kind;
				if (state !== 'running') return `MCP server '${server}' is not running`;
				if (!this.deps.isEnabled({ server, tool }))
					return `The tool '${tool.name}' is switched off in the MCP view, so the app may not call it`;
				return undefined;
			},
			callTool: async (tool, args, signal) => {
				// Script in an app (perhaps from content it renders) chose these arguments, not the person (consentRule.ts).
				if (!(await consent.confirm(server, tool, args, 'app')))
					throw new McpError(APP_REQUEST_DENIED, `The call of '${tool.name}' was declined`);
				return manager.callTool(server, tool.name, args, { origin: 'app', signal });
			},
			readResource: (uri, signal) => manager.readResource(server, uri, { signal }),
			openLink: async (url) => {
				// One question at a time per app: a burst of ui/open-link requests is refused, not 50 quick picks.
				if (linkAsked) {
					logs.channel(server).warn(`app ${run.app.uri}: refused ${url} while another link question is open`);
					return false;
				}
				linkAsked = true;
				try {
					return await this.askToOpenLink(run, server, url);
				} finally {
					linkAsked = false;
				}
			},
			log: (level, text) => logs.channel(server)[MCP_LEVEL_TO_LOG[level]](`app ${run.app.uri}: ${text}`),
			sizeChanged: (size) => panel.resize(size),
			requestTeardown: () => {
				logs.channel(server).info(`app ${run.app.uri}: asked to be closed`);
				void panel.closeGracefully('the app asked to close');
			},
			setDisplayMode: (mode) => panel.setDisplayMode(mode),
			saveFile: (file) =>
				panel.saveFile(file, `Save ${file.fileName} from the app of ${run.tool.title ?? run.tool.name} (${server})`),
		};
	}

	/** Asks whether to open a link an app asked for; opens it when the person says so. */
	private async askToOpenLink(run: AppRun, server: string, url: string): Promise<boolean> {
		const open = { label: '$(link-external) Open in the browser', detail: url };
		const choice = await vscode.window.showQuickPick([open, { label: 'Do not open' }], {
			title: `The app of ${run.tool.name} (${server}) wants to open a link`,
			placeHolder: url,
			ignoreFocusOut: true,
		});
		if (choice !== open) {
			this.deps.logs.channel(server).info(`app ${run.app.uri}: the person did not open ${url}`);
			return false;
		}
		return openExternalUrl(url);
	}

	/**
	 * Closes an app panel as the spec wants (`ui/resource-teardown` first, its answer awaited): `panel`, else the
	 * active app panel. Closing the tab itself cannot do that: VS Code removes the webview before telling the extension.
	 */
	async closeApp(panel?: AppPanel): Promise<boolean> {
		const target = panel ?? this.all().find((view) => view.panel.active);
		if (!target) return false;
		await target.closeGracefully('the person closed the app');
		return true;
	}

	dispose(): void {
		this.subscription.dispose();
		for (const view of this.panels.values()) view.close();
		this.panels.clear();
	}
}
