import * as vscode from 'vscode';
import type { Manager, NamedTool, ServerView } from '../../manager/manager';
import { ErrorCode } from '../../protocol/jsonrpc';
import { McpError } from '../../protocol/mcpError';
import type { CallToolResult, Progress, Prompt, Resource, ResourceTemplate } from '../../protocol/schema';
import { toAbortSignal } from '../cancellation';
import type { ServerLogs } from '../logs/logging';
import { getPrompt, readTemplate } from '../prompts/promptCommands';
import type { ResourceDocuments } from '../resources/resourceDocuments';
import type { BlobFiles } from '../resources/blobFiles';
import { renderToolResult, type ResultDocuments } from './resultDocument';
import { stateLabel, type TreeNode } from '../tree/serversTree';
import { formFromSchema } from './toolArgs';
import { askToolArguments } from './toolForm';
import { chooseTaskMode } from '../tasks/taskCommands';
import type { TaskList } from '../tasks/taskList';
import type { ToolConsent } from './consent';
import { needsSignIn } from '../auth/oauth';


/** Command ids, as contributed in package.json (category "MCP Switchboard"). */
export const Commands = {
	startServer: 'mcpSwitchboard.startServer',
	stopServer: 'mcpSwitchboard.stopServer',
	restartServer: 'mcpSwitchboard.restartServer',
	showServerLog: 'mcpSwitchboard.showServerLog',
	refresh: 'mcpSwitchboard.refresh',
	callTool: 'mcpSwitchboard.callTool',
	runAgain: 'mcpSwitchboard.runAgain',
	readResource: 'mcpSwitchboard.readResource',
	subscribeResource: 'mcpSwitchboard.subscribeResource',
	getPrompt: 'mcpSwitchboard.getPrompt',
	copyToolName: 'mcpSwitchboard.copyToolName',
	addServer: 'mcpSwitchboard.addServer',
	openSettings: 'mcpSwitchboard.openSettings',
	showServers: 'mcpSwitchboard.showServers',
} as const;

/** What the commands act on. */
export interface CommandDeps {
	manager: Manager;
	logs: ServerLogs;
	results: ResultDocuments;
	resources: ResourceDocuments;
	blobs: BlobFiles;
	/** Add Server's guided flow (addServer.ts). */
	addServer(): Thenable<unknown>;
	/** Opens the settings of the extension. */
	openSettings(): Thenable<unknown>;
	/**
	 * Marks the user's own Call Tool form as open until the result is disposed, so a server request that arrives
	 * meanwhile waits (announced) instead of replacing the half-filled form.
	 */
	userInput?(): vscode.Disposable;
	/** Given a failed call's error, handles what it asks for (e.g. URL elicitation) and says whether to retry once. */
	retryAfterError?(server: string, tool: string, error: unknown): Promise<boolean>;
	/** The Tasks list: calls that run as tasks are followed there. */
	tasks?: TaskList;
	/** Asks before a tool the server marks destructive (the palette's rule; see consent.ts). */
	consent: ToolConsent;
}

/** The outcome of a Call Tool (also the command's return value, for tests and automation). */
export interface CallOutcome {
	server: string;
	tool: string;
	arguments: Record<string, unknown>;
	result?: CallToolResult;
	/** The result document, when one was opened. */
	document?: vscode.Uri;
	cancelled?: boolean;
	error?: string;
	/** Every `notifications/progress` received, in order. */
	progress: Progress[];
	/** The task's id when the call ran as a task (taskSupport required, or "Run as task"). */
	taskId?: string;
	/** Every status message the task reported, in order. */
	taskStatus?: string[];
}

/** A call in flight, as tests and the status bar see it. */
export interface ActiveCall {
	server: string;
	tool: string;
	progress: Progress[];
	/** Cancels the call, as the notification's Cancel button does. */
	cancel(): void;
}

/**
 * Arguments a command may receive: a tree node, a server name, or `{ server, tool?, uri?, prompt?, arguments?, edit?,
 * task? }` (with `edit`, the arguments prefill the form instead of being sent as they are; `task` runs as a task).
 */
type Target = TreeNode | string | { server?: string; tool?: string; uri?: string; prompt?: string; arguments?: Record<string, unknown>; edit?: boolean; task?: boolean } | undefined;

function errorText(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/**
 * Shows a short error naming the server, with "Show Output" opening that server's log (design convention 10) and
 * "Show Protocol" its JSON-RPC messages from then on (console/protocolView.ts).
 * The message also goes to that log unless `alreadyLogged` (the Manager logs state changes itself).
 */
export function showServerError(logs: ServerLogs, server: string | undefined, message: string, alreadyLogged = false): void {
	const text = server !== undefined ? `MCP server '${server}': ${message}` : `MCP: ${message}`;
	if (!alreadyLogged) (server !== undefined ? logs.channel(server) : logs.main).error(message);
	const actions = server !== undefined ? ['Show Output', 'Show Protocol'] : ['Show Output'];
	void vscode.window.showErrorMessage(text, ...actions).then((choice) => {
		if (choice === 'Show Output') logs.show(server);
		if (choice === 'Show Protocol') void vscode.commands.executeCommand('mcpSwitchboard.showProtocol', server);
	});
}

/**
 * One error notification when a server fails (to start, or later), not one per retry: a server is announced again
 * only after it ran or was stopped in between. The tree and the status bar keep showing the error meanwhile.
 */
export function notifyServerErrors(manager: Manager, logs: ServerLogs): vscode.Disposable {
	const announced = new Set<string>();
	const subscription = manager.onDidChangeState(({ server, state }) => {
		if (state.kind === 'running' || state.kind === 'stopped' || state.kind === 'disabled') {
			announced.delete(server);
			return;
		}
		if (state.kind !== 'error' || announced.has(server)) return;
		// A server waiting for the user to sign in is not a failure to shout about: its row says "sign in".
		if (needsSignIn(state.message)) return;
		announced.add(server);
		const first = state.message.split('\n', 1)[0] ?? state.message;
		showServerError(logs, server, first.length > 300 ? `${first.slice(0, 299)}…` : first, true);
	});
	return new vscode.Disposable(() => subscription.dispose());
}

/** Registers every command; each stays registered when nothing runs and says why it cannot act (convention 11). */
export class CommandController implements vscode.Disposable {
	private readonly disposables: vscode.Disposable[] = [];
	private lastCall: { server: string; tool: string; arguments: Record<string, unknown> } | undefined;
	private readonly active = new Set<ActiveCall>();

	constructor(private readonly deps: CommandDeps) {
		const register = (id: string, fn: (...args: never[]) => unknown) => this.disposables.push(vscode.commands.registerCommand(id, fn as (...args: unknown[]) => unknown));
		register(Commands.startServer, (target: Target) => this.lifecycle(target, 'start'));
		register(Commands.stopServer, (target: Target) => this.lifecycle(target, 'stop'));
		register(Commands.restartServer, (target: Target) => this.lifecycle(target, 'restart'));
		register(Commands.showServerLog, (target: Target) => this.showLog(target));
		register(Commands.refresh, (target: Target) => this.refresh(target));
		register(Commands.callTool, (target: Target) => this.callTool(target));
		register(Commands.runAgain, () => this.runAgain());
		register(Commands.readResource, (target: Target) => this.readResource(target));
		register(Commands.subscribeResource, (target: Target) => this.subscribe(target));
		register(Commands.getPrompt, (target: Target) => this.getPrompt(target));
		register(Commands.copyToolName, (target: Target) => this.copyToolName(target));
		register(Commands.addServer, () => deps.addServer());
		register(Commands.openSettings, () => deps.openSettings());
		register(Commands.showServers, () => this.showServers());
	}

	/** Calls in flight (tests cancel through these; a person uses the notification's Cancel). */
	get activeCalls(): readonly ActiveCall[] {
		return [...this.active];
	}

	private error(server: string | undefined, message: string): void {
		showServerError(this.deps.logs, server, message);
	}

	private serverOf(target: Target): string | undefined {
		if (typeof target === 'string') return target;
		return target && 'server' in target ? target.server : undefined;
	}

	/** Says there is nothing to act on, with the way forward. */
	private async nothingConfigured(): Promise<void> {
		const choice = await vscode.window.showInformationMessage('No MCP servers are configured yet.', 'Add Server', 'Open Settings');
		if (choice === 'Add Server') await this.deps.addServer();
		if (choice === 'Open Settings') await this.deps.openSettings();
	}

	/** Picks a server (only those passing `filter`); explains and resolves undefined when there is none. */
	private async pickServer(placeHolder: string, filter: (view: ServerView) => boolean, none: string): Promise<string | undefined> {
		const all = this.deps.manager.servers();
		if (all.length === 0) {
			await this.nothingConfigured();
			return undefined;
		}
		const candidates = all.filter(filter);
		if (candidates.length === 0) {
			void vscode.window.showInformationMessage(none);
			return undefined;
		}
		if (candidates.length === 1) return candidates[0]?.name;
		const chosen = await vscode.window.showQuickPick(
			candidates.map((view) => ({ label: view.name, description: stateLabel(view.state) })),
			{ placeHolder, matchOnDescription: true },
		);
		return chosen?.label;
	}

	private running(): (view: ServerView) => boolean {
		return (view) => view.state.kind === 'running';
	}

	private async lifecycle(target: Target, action: 'start' | 'stop' | 'restart'): Promise<void> {
		const filter: (view: ServerView) => boolean =
			action === 'start' ? (view) => view.state.kind !== 'running' && view.state.kind !== 'starting' : action === 'stop' ? (view) => view.state.kind === 'running' || view.state.kind === 'starting' || view.state.kind === 'error' : () => true;
		const server = this.serverOf(target) ?? (await this.pickServer(`Server to ${action}`, filter, action === 'start' ? 'Every MCP server is already running.' : 'No MCP server is running.'));
		if (server === undefined) return;
		try {
			await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `MCP: ${action === 'stop' ? 'stopping' : action === 'start' ? 'starting' : 'restarting'} ${server}` }, () => this.deps.manager[action](server));
		} catch (error) {
			this.error(server, `${action} failed: ${errorText(error)}`);
		}
	}

	private async showLog(target: Target): Promise<void> {
		const server = this.serverOf(target) ?? (await this.pickServer('Show the log of', () => true, ''));
		if (server !== undefined) this.deps.logs.show(server);
	}

	private async refresh(target: Target): Promise<void> {
		const servers = this.serverOf(target) !== undefined ? [this.serverOf(target) as string] : this.deps.manager.servers().filter(this.running()).map((v) => v.name);
		if (servers.length === 0) {
			if (this.deps.manager.servers().length === 0) await this.nothingConfigured();
			else void vscode.window.showInformationMessage('No MCP server is running: nothing to refresh. Start one from the MCP view.');
			return;
		}
		await Promise.all(
			servers.map((server) =>
				this.deps.manager.refresh(server).catch((error: unknown) => {
					this.error(server, `refresh failed: ${errorText(error)}`);
				}),
			),
		);
	}

	/** Pick a tool among every running server's tools (fuzzy on name, title, server and description). */
	private async pickTool(): Promise<NamedTool | undefined> {
		const tools = this.deps.manager.allTools();
		if (tools.length === 0) {
			if (this.deps.manager.servers().length === 0) await this.nothingConfigured();
			else void vscode.window.showInformationMessage(this.deps.manager.servers().some((v) => v.state.kind === 'running') ? 'The running MCP servers offer no tools.' : 'No MCP server is running, so there are no tools to call. Start one from the MCP view.');
			return undefined;
		}
		const chosen = await vscode.window.showQuickPick(
			tools.map((named) => ({ label: named.tool.name, description: `${named.server}${named.tool.title ? ` · ${named.tool.title}` : ''}`, detail: named.tool.description?.split('\n', 1)[0], named })),
			{ title: 'Call Tool', placeHolder: 'Pick a tool (type to search names, servers and descriptions)', matchOnDescription: true, matchOnDetail: true },
		);
		return chosen?.named;
	}

	private findTool(server: string, name: string): NamedTool | undefined {
		return this.deps.manager.get(server)?.tools.find((named) => named.tool.name === name);
	}

	/**
	 * Call Tool: pick (or take from the tree) a tool, fill its argument form, run it with a cancellable progress
	 * notification, open the result. Resolves with what happened (undefined when the person backed out early).
	 */
	async callTool(target: Target): Promise<CallOutcome | undefined> {
		let named: NamedTool | undefined;
		let args: Record<string, unknown> | undefined;
		let prefill: Record<string, unknown> | undefined;
		let task: boolean | undefined;
		if (target && typeof target === 'object' && 'kind' in target) {
			named = target.kind === 'tool' ? target.tool : undefined;
			if (!named && target.kind === 'server') return this.callToolOf(target.server);
		} else if (target && typeof target === 'object' && target.server !== undefined && target.tool !== undefined) {
			named = this.findTool(target.server, target.tool);
			if (!named) {
				this.error(target.server, this.deps.manager.get(target.server)?.state.kind === 'running' ? `has no tool named '${target.tool}'` : `is not running, so '${target.tool}' cannot be called`);
				return undefined;
			}
			if (target.edit) prefill = target.arguments;
			else args = target.arguments;
			task = target.task;
		} else if (typeof target === 'string') {
			return this.callToolOf(target);
		} else if (target && typeof target === 'object' && target.server !== undefined) {
			return this.callToolOf(target.server);
		}
		if (!named || !args) {
			const form = this.deps.userInput?.();
			try {
				named ??= await this.pickTool();
				if (!named) return undefined;
				args ??= await askToolArguments(`${named.server}: ${named.tool.name}`, formFromSchema(named.tool.inputSchema), prefill);
			} finally {
				form?.dispose();
			}
		}
		if (!args) return undefined;
		return this.execute(named, args, task);
	}

	private async callToolOf(server: string): Promise<CallOutcome | undefined> {
		const tools = this.deps.manager.get(server)?.tools ?? [];
		if (tools.length === 0) {
			void vscode.window.showInformationMessage(`MCP server '${server}' ${this.deps.manager.get(server)?.state.kind === 'running' ? 'offers no tools' : 'is not running'}.`);
			return undefined;
		}
		const chosen = await vscode.window.showQuickPick(
			tools.map((named) => ({ label: named.tool.name, description: named.tool.title, detail: named.tool.description?.split('\n', 1)[0], named })),
			{ title: `Call Tool on ${server}`, matchOnDescription: true, matchOnDetail: true },
		);
		return chosen ? this.callTool(chosen.named.server === server ? { kind: 'tool', server, tool: chosen.named } : undefined) : undefined;
	}

	private async runAgain(): Promise<CallOutcome | undefined> {
		const last = this.lastCall;
		if (!last) {
			void vscode.window.showInformationMessage('No tool was called yet in this window. Use "MCP Switchboard: Call Tool…" first.');
			return undefined;
		}
		const named = this.findTool(last.server, last.tool);
		if (!named) {
			this.error(last.server, this.deps.manager.get(last.server)?.state.kind === 'running' ? `no longer offers '${last.tool}'` : `is not running, so '${last.tool}' cannot run again`);
			return undefined;
		}
		return this.execute(named, last.arguments);
	}

	private async execute(named: NamedTool, args: Record<string, unknown>, task?: boolean): Promise<CallOutcome> {
		const { server, tool } = named;
		const outcome: CallOutcome = { server, tool: tool.name, arguments: args, progress: [] };
		if (!(await this.deps.consent.confirm(server, tool, args, 'palette'))) {
			outcome.cancelled = true;
			return outcome;
		}
		// A tool that may run as a task: the person chooses (a tool that requires one runs as one by itself).
		if (task === undefined && this.deps.tasks && this.deps.manager.toolTaskSupport(server, tool.name) === 'optional') {
			const mode = await chooseTaskMode(server, tool.name);
			if (!mode) {
				outcome.cancelled = true;
				return outcome;
			}
			task = mode === 'task';
		}
		this.lastCall = { server, tool: tool.name, arguments: args };
		const own = new vscode.CancellationTokenSource();
		const call: ActiveCall = { server, tool: tool.name, progress: outcome.progress, cancel: () => own.cancel() };
		this.active.add(call);
		try {
			await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `${server}: ${tool.title ?? tool.name}`, cancellable: true }, async (report, token) => {
				const cancelled = token.onCancellationRequested(() => own.cancel());
				const bridge = toAbortSignal(own.token);
				let reported = 0;
				const call = () => this.deps.manager.callTool(server, tool.name, args, {
					origin: 'palette',
					signal: bridge.signal,
					task,
					onTaskCreated: (handle) => {
						outcome.taskId = handle.taskId;
						outcome.taskStatus = [];
						this.deps.tasks?.track(server, tool.name, args, handle, 'Call Tool');
					},
					onTaskStatus: (state) => {
						const message = state.statusMessage ?? state.status.replace('_', ' ');
						outcome.taskStatus?.push(message);
						report.report({ message });
					},
					onProgress: (progress) => {
						outcome.progress.push(progress);
						if (outcome.taskId !== undefined) this.deps.tasks?.progress(server, outcome.taskId, progress);
						const counter = progress.total !== undefined ? `${progress.progress}/${progress.total}` : `${progress.progress}`;
						const message = progress.message ? `${progress.message} (${counter})` : counter;
						if (progress.total !== undefined && progress.total > 0) {
							const percent = Math.min(100, (progress.progress / progress.total) * 100);
							report.report({ message, increment: Math.max(0, percent - reported) });
							reported = Math.max(reported, percent);
						} else {
							report.report({ message });
						}
					},
				});
				try {
					try {
						outcome.result = await call();
					} catch (error) {
						if (bridge.signal.aborted || !this.deps.retryAfterError || !(await this.deps.retryAfterError(server, tool.name, error))) throw error;
						outcome.result = await call();
					}
				} catch (error) {
					// Cancelled here, or (a task) from the Tasks list: either way the person asked for it.
					if (bridge.signal.aborted || (error instanceof McpError && error.code === ErrorCode.RequestCancelled)) {
						outcome.cancelled = true;
					} else {
						outcome.error = errorText(error);
					}
				} finally {
					bridge.dispose();
					cancelled.dispose();
				}
			});
		} finally {
			this.active.delete(call);
			own.dispose();
		}
		if (outcome.cancelled) {
			this.deps.logs.channel(server).info(`Call of ${tool.name} cancelled by the user`);
			void vscode.window.showInformationMessage(`Cancelled ${tool.name} on MCP server '${server}'.`);
			return outcome;
		}
		if (outcome.error !== undefined || !outcome.result) {
			this.error(server, `${tool.name} failed: ${outcome.error ?? 'no result'}`);
			return outcome;
		}
		try {
			const markdown = await renderToolResult(server, tool.name, args, outcome.result, this.deps.blobs);
			const editor = await this.deps.results.show(server, tool.name, markdown);
			outcome.document = editor.document.uri;
		} catch (error) {
			this.error(server, `could not show the result of ${tool.name}: ${errorText(error)}`);
		}
		return outcome;
	}

	private async pickResource(): Promise<{ server: string; resource?: Resource; template?: ResourceTemplate } | undefined> {
		const items: (vscode.QuickPickItem & { server: string; resource?: Resource; template?: ResourceTemplate })[] = [];
		for (const view of this.deps.manager.servers()) {
			for (const resource of view.resources) items.push({ label: resource.title ?? resource.name, description: `${view.name} · ${resource.uri}`, server: view.name, resource });
			for (const template of view.resourceTemplates) items.push({ label: `$(symbol-variable) ${template.title ?? template.name}`, description: `${view.name} · ${template.uriTemplate}`, server: view.name, template });
		}
		if (items.length === 0) {
			if (this.deps.manager.servers().length === 0) await this.nothingConfigured();
			else void vscode.window.showInformationMessage('No running MCP server offers resources.');
			return undefined;
		}
		return vscode.window.showQuickPick(items, { title: 'Read Resource', placeHolder: 'Pick a resource or template', matchOnDescription: true });
	}

	private async readResource(target: Target): Promise<vscode.Uri | undefined> {
		let chosen: { server: string; resource?: Resource; template?: ResourceTemplate; uri?: string } | undefined;
		if (target && typeof target === 'object' && 'kind' in target) {
			if (target.kind === 'resource') chosen = { server: target.server, resource: target.resource };
			if (target.kind === 'template') chosen = { server: target.server, template: target.template };
		} else if (target && typeof target === 'object' && target.server !== undefined && target.uri !== undefined) {
			chosen = { server: target.server, uri: target.uri };
		}
		chosen ??= await this.pickResource();
		if (!chosen) return undefined;
		if (chosen.template) return readTemplate(this.promptDeps(), chosen.server, chosen.template);
		const uri = chosen.uri ?? chosen.resource?.uri;
		return uri !== undefined ? this.deps.resources.open(chosen.server, uri) : undefined;
	}

	private async subscribe(target: Target): Promise<void> {
		const node = target && typeof target === 'object' && 'kind' in target && target.kind === 'resource' ? target : undefined;
		const picked = node ? { server: node.server, resource: node.resource } : await this.pickResource();
		if (!picked?.resource) return;
		try {
			await this.deps.resources.subscribe(picked.server, picked.resource.uri);
		} catch (error) {
			this.error(picked.server, `could not subscribe to ${picked.resource.uri}: ${errorText(error)}`);
		}
	}

	private promptDeps() {
		return { manager: this.deps.manager, results: this.deps.results, resources: this.deps.resources, blobs: this.deps.blobs, showError: (server: string, message: string) => this.error(server, message) };
	}

	private async getPrompt(target: Target): Promise<vscode.TextEditor | undefined> {
		let chosen: { server: string; prompt: Prompt } | undefined;
		let given: Record<string, string> | undefined;
		if (target && typeof target === 'object' && 'kind' in target && target.kind === 'prompt') {
			chosen = { server: target.server, prompt: target.prompt };
		} else if (target && typeof target === 'object' && !('kind' in target) && target.server !== undefined && target.prompt !== undefined) {
			const prompt = this.deps.manager.get(target.server)?.prompts.find((p) => p.name === target.prompt);
			if (!prompt) {
				this.error(target.server, `has no prompt named '${target.prompt}'`);
				return undefined;
			}
			chosen = { server: target.server, prompt };
			if (target.arguments) given = Object.fromEntries(Object.entries(target.arguments).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
		} else {
			const items = this.deps.manager.servers().flatMap((view) => view.prompts.map((prompt) => ({ label: prompt.name, description: [view.name, prompt.title].filter(Boolean).join(' · '), detail: prompt.description, server: view.name, prompt })));
			if (items.length === 0) {
				if (this.deps.manager.servers().length === 0) await this.nothingConfigured();
				else void vscode.window.showInformationMessage('No running MCP server offers prompts.');
				return undefined;
			}
			chosen = await vscode.window.showQuickPick(items, { title: 'Get Prompt', matchOnDescription: true, matchOnDetail: true });
		}
		return chosen ? getPrompt(this.promptDeps(), chosen.server, chosen.prompt, given) : undefined;
	}

	private async copyToolName(target: Target): Promise<string | undefined> {
		const named = target && typeof target === 'object' && 'kind' in target && target.kind === 'tool' ? target.tool : await this.pickTool();
		if (!named) return undefined;
		await vscode.env.clipboard.writeText(named.qualifiedName);
		void vscode.window.setStatusBarMessage(`Copied ${named.qualifiedName}`, 3000);
		return named.qualifiedName;
	}

	/** The status bar's list: every server with its state, then the actions for the chosen one. */
	async showServers(): Promise<void> {
		const views = this.deps.manager.servers();
		if (views.length === 0) {
			await this.nothingConfigured();
			return;
		}
		const icon = (view: ServerView) => (view.state.kind === 'running' ? '$(vm-running)' : view.state.kind === 'error' ? '$(error)' : view.state.kind === 'starting' ? '$(loading~spin)' : '$(vm-outline)');
		const chosen = await vscode.window.showQuickPick(
			views.map((view) => ({ label: `${icon(view)} ${view.name}`, description: stateLabel(view.state), detail: view.state.kind === 'error' ? view.state.message : undefined, name: view.name })),
			{ title: 'MCP Servers', placeHolder: 'Pick a server for its actions' },
		);
		if (!chosen) return;
		const view = this.deps.manager.get(chosen.name);
		const running = view?.state.kind === 'running' || view?.state.kind === 'starting';
		const actions = [
			...(running ? [{ label: '$(debug-restart) Restart', id: Commands.restartServer }, { label: '$(debug-stop) Stop', id: Commands.stopServer }] : [{ label: '$(debug-start) Start', id: Commands.startServer }]),
			...(view?.state.kind === 'running' ? [{ label: '$(play) Call Tool…', id: Commands.callTool }] : []),
			{ label: '$(output) Show Log', id: Commands.showServerLog },
		];
		const action = await vscode.window.showQuickPick(actions, { title: chosen.name });
		if (action) await vscode.commands.executeCommand(action.id, chosen.name);
	}

	dispose(): void {
		for (const call of this.active) call.cancel();
		for (const disposable of this.disposables) disposable.dispose();
	}
}
