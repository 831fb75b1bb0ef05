import * as vscode from 'vscode';
import type { NamedTool } from '../../manager/manager';
import { ErrorCode } from '../../protocol/jsonrpc';
import { McpError } from '../../protocol/mcpError';
import type { CallToolResult, Progress } from '../../protocol/schema';
import { toAbortSignal } from '../cancellation';
import { Commands } from '../commandIds';
import { commandError, nothingConfigured, type CommandBase, type Target } from '../commandTarget';
import type { BlobFiles } from '../shared/blobFiles';
import type { ResultDocuments } from '../shared/resultDocument';
import { formFromSchema } from './toolArgs';
import { askToolArguments } from './toolForm';
import { toolPickRow } from './toolLabels';
import { chooseTaskMode } from '../tasks/taskCommands';
import type { TaskList } from '../tasks/taskList';
import type { ToolConsent } from './consent';
import { errorMessage } from '../../common/errors';
import type { CallPath } from '../../manager/consentRule';
import type { InvocationOrigin } from '../../manager/invocations';

/** The path a call takes and, for a history re-run, whether its arguments were the user's own (consentRule.ts). */
interface Via {
	path: CallPath;
	typedHere?: boolean;
}

/** What the tool commands act on. */
export interface ToolCommandDeps extends CommandBase {
	results: ResultDocuments;
	blobs: BlobFiles;
	/**
	 * Marks the user's own Call Tool form as open until the result is disposed, so a server request that arrives
	 * meanwhile waits (announced) instead of replacing the half-filled form.
	 */
	userInput?(): vscode.Disposable;
	/** Given a failed call's error, handles what it asks for (e.g. URL elicitation) and says whether to retry once. */
	retryAfterError?(server: string, tool: string, error: unknown): Promise<boolean>;
	/** The Tasks list: calls that run as tasks are followed there. */
	tasks?: TaskList;
	/** Asks before a tool runs when the one consent rule says so (consent.ts, manager/consentRule.ts). */
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
 * Registers Call Tool, Run Again and Copy Tool Name, and keeps the calls in flight; each command stays registered
 * when nothing runs and says why it cannot act (convention 11).
 */
export class ToolCommands implements vscode.Disposable {
	private readonly disposables: vscode.Disposable[] = [];
	private lastCall: { server: string; tool: string; arguments: Record<string, unknown>; via: Via } | undefined;
	private readonly active = new Set<ActiveCall>();

	constructor(private readonly deps: ToolCommandDeps) {
		const register = (id: string, fn: (...args: never[]) => unknown) =>
			this.disposables.push(vscode.commands.registerCommand(id, fn as (...args: unknown[]) => unknown));
		register(Commands.callTool, (target: Target) => this.callTool(target));
		register(Commands.runAgain, () => this.runAgain());
		register(Commands.copyToolName, (target: Target) => this.copyToolName(target));
	}

	/** Calls in flight (tests cancel through these; a person uses the notification's Cancel). */
	get activeCalls(): readonly ActiveCall[] {
		return [...this.active];
	}

	private error(server: string | undefined, message: string): void {
		commandError(this.deps, server, message);
	}

	/**
	 * Pick a tool among every running server's tools (fuzzy on name, title, server and description), titled for what
	 * the pick is for. A tool reads as in the tree: its name, with its title beside it.
	 */
	private async pickTool(title = 'Call Tool', placeHolder = 'Pick a tool to call'): Promise<NamedTool | undefined> {
		const tools = this.deps.manager.allTools();
		if (tools.length === 0) {
			if (this.deps.manager.servers().length === 0) await nothingConfigured(this.deps);
			else
				void vscode.window.showInformationMessage(
					this.deps.manager.servers().some((v) => v.state.kind === 'running')
						? 'The running MCP servers offer no tools.'
						: 'No MCP server is running, so there are no tools to call. Start one from the MCP view.',
				);
			return undefined;
		}
		const chosen = await vscode.window.showQuickPick(
			tools.map((named) => ({ ...toolPickRow(named, true), named })),
			{
				title,
				placeHolder: `${placeHolder} (type to search names, servers and descriptions)`,
				matchOnDescription: true,
				matchOnDetail: true,
			},
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
		let via: Via = { path: 'palette' };
		if (target && typeof target === 'object' && 'kind' in target) {
			named = target.kind === 'tool' ? target.tool : undefined;
			if (!named && target.kind === 'server') return this.callToolOf(target.server);
		} else if (target && typeof target === 'object' && target.server !== undefined && target.tool !== undefined) {
			named = this.findTool(target.server, target.tool);
			if (!named) {
				this.error(
					target.server,
					this.deps.manager.get(target.server)?.state.kind === 'running'
						? `has no tool named '${target.tool}'`
						: `is not running, so '${target.tool}' cannot be called`,
				);
				return undefined;
			}
			if (target.edit) prefill = target.arguments;
			else args = target.arguments;
			task = target.task;
			if (target.via) via = { path: target.via, typedHere: target.typedHere === true };
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
				args ??= await askToolArguments(
					`${named.server}: ${named.tool.name}`,
					formFromSchema(named.tool.inputSchema),
					prefill,
				);
			} finally {
				form?.dispose();
			}
		}
		if (!args) return undefined;
		// Arguments the person edited in the form are theirs, whatever prefilled it.
		if (prefill) via = { path: 'palette' };
		return this.execute(named, args, task, via);
	}

	private async callToolOf(server: string): Promise<CallOutcome | undefined> {
		const tools = this.deps.manager.get(server)?.tools ?? [];
		if (tools.length === 0) {
			void vscode.window.showInformationMessage(
				`MCP server '${server}' ${this.deps.manager.get(server)?.state.kind === 'running' ? 'offers no tools' : 'is not running'}.`,
			);
			return undefined;
		}
		const chosen = await vscode.window.showQuickPick(
			// As in the tree and the other pick: the name, with the title beside it.
			tools.map((named) => ({ ...toolPickRow(named, false), named })),
			{ title: `Call Tool on ${server}`, matchOnDescription: true, matchOnDetail: true },
		);
		return chosen
			? this.callTool(chosen.named.server === server ? { kind: 'tool', server, tool: chosen.named } : undefined)
			: undefined;
	}

	private async runAgain(): Promise<CallOutcome | undefined> {
		const last = this.lastCall;
		if (!last) {
			void vscode.window.showInformationMessage(
				'No tool was called yet in this window. Use "MCP Switchboard: Call Tool…" first.',
			);
			return undefined;
		}
		const named = this.findTool(last.server, last.tool);
		if (!named) {
			this.error(
				last.server,
				this.deps.manager.get(last.server)?.state.kind === 'running'
					? `no longer offers '${last.tool}'`
					: `is not running, so '${last.tool}' cannot run again`,
			);
			return undefined;
		}
		return this.execute(named, last.arguments, undefined, last.via);
	}

	private async execute(
		named: NamedTool,
		args: Record<string, unknown>,
		task?: boolean,
		via: Via = { path: 'palette' },
	): Promise<CallOutcome> {
		const { server, tool } = named;
		const outcome: CallOutcome = { server, tool: tool.name, arguments: args, progress: [] };
		if (!(await this.deps.consent.confirm(server, tool, args, via.path, { typedHere: via.typedHere }))) {
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
		// Run Again repeats what was allowed: a call the person typed stays theirs, a file's call asks again.
		this.lastCall = { server, tool: tool.name, arguments: args, via };
		const origin: InvocationOrigin =
			via.path === 'file' ? 'file' : via.path === 'history' && !via.typedHere ? 'history' : 'palette';
		const startedAt = Date.now();
		const own = new vscode.CancellationTokenSource();
		const call: ActiveCall = { server, tool: tool.name, progress: outcome.progress, cancel: () => own.cancel() };
		this.active.add(call);
		try {
			await vscode.window.withProgress(
				{
					location: vscode.ProgressLocation.Notification,
					title: `${server}: ${tool.title ?? tool.name}`,
					cancellable: true,
				},
				async (report, token) => {
					const cancelled = token.onCancellationRequested(() => own.cancel());
					const bridge = toAbortSignal(own.token);
					const showProgress = progressReporter(report);
					const call = () =>
						this.deps.manager.callTool(server, tool.name, args, {
							origin,
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
								showProgress(progress);
							},
						});
					try {
						try {
							outcome.result = await call();
						} catch (error) {
							if (
								bridge.signal.aborted ||
								!this.deps.retryAfterError ||
								!(await this.deps.retryAfterError(server, tool.name, error))
							)
								throw error;
							outcome.result = await call();
						}
					} catch (error) {
						// Cancelled here, or (a task) from the Tasks list: either way the person asked for it.
						if (bridge.signal.aborted || (error instanceof McpError && error.code === ErrorCode.RequestCancelled)) {
							outcome.cancelled = true;
						} else {
							outcome.error = errorMessage(error);
						}
					} finally {
						bridge.dispose();
						cancelled.dispose();
					}
				},
			);
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
			// One result view per call, in the preview tab the next result reuses (shared/resultView.ts).
			const shown = await this.deps.results.showCall(
				{
					server,
					tool: tool.name,
					arguments: args,
					result: outcome.result,
					origin,
					startedAt,
					durationMs: Date.now() - startedAt,
				},
				this.deps.blobs,
			);
			outcome.document = shown.document;
		} catch (error) {
			this.error(server, `could not show the result of ${tool.name}: ${errorMessage(error)}`);
		}
		return outcome;
	}

	private async copyToolName(target: Target): Promise<string | undefined> {
		const named =
			target && typeof target === 'object' && 'kind' in target && target.kind === 'tool'
				? target.tool
				: await this.pickTool('Copy Tool Name', 'Pick a tool whose qualified name to copy');
		if (!named) return undefined;
		await vscode.env.clipboard.writeText(named.qualifiedName);
		// Said where the person looks: a status bar flash alone went unnoticed.
		void vscode.window.setStatusBarMessage(`$(check) Copied ${named.qualifiedName}`, 5000);
		void vscode.window.showInformationMessage(
			`Copied '${named.qualifiedName}', the name chat models know this tool by, to the clipboard.`,
		);
		return named.qualifiedName;
	}

	dispose(): void {
		for (const call of this.active) call.cancel();
		for (const disposable of this.disposables) disposable.dispose();
	}
}

/** Shows a call's progress in its notification: the message and count, and a bar when the server gives a total. */
function progressReporter(
	report: vscode.Progress<{ message?: string; increment?: number }>,
): (progress: Progress) => void {
	let reported = 0;
	return (progress) => {
		const counter = progress.total !== undefined ? `${progress.progress}/${progress.total}` : `${progress.progress}`;
		const message = progress.message ? `${progress.message} (${counter})` : counter;
		if (progress.total !== undefined && progress.total > 0) {
			const percent = Math.min(100, (progress.progress / progress.total) * 100);
			report.report({ message, increment: Math.max(0, percent - reported) });
			reported = Math.max(reported, percent);
		} else {
			report.report({ message });
		}
	};
}
