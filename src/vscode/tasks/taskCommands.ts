import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { BlobFiles } from '../shared/blobFiles';
import type { ResultDocuments } from '../shared/resultDocument';
import { isFinished, type TaskList } from './taskList';
import { taskDescription } from './taskText';
import { errorMessage } from '../../common/errors';

/** A task row of the tree, or what a test or another command passes. */
type TaskTarget = { server: string; taskId: string } | undefined;

export interface TaskCommandDeps {
	tasks: TaskList;
	results: ResultDocuments;
	blobs: BlobFiles;
	/** Shows an error naming the server, with Show Output. */
	showError(server: string, message: string): void;
}

/**
 * How a person runs a tool whose taskSupport is `optional`: wait for the result, or run it as a task that the Tasks
 * list follows (status, cancel, result after a reload). Undefined when they pressed Escape.
 */
export async function chooseTaskMode(server: string, tool: string): Promise<'wait' | 'task' | undefined> {
	const wait = { label: '$(play) Run and wait for the result', mode: 'wait' as const };
	const task = {
		label: '$(tasklist) Run as task',
		description: 'follow it under Tasks; its result can be fetched later, also after a reload',
		mode: 'task' as const,
	};
	const chosen = await vscode.window.showQuickPick([wait, task], {
		title: `${server}: ${tool} can run as a task`,
		placeHolder: 'How should it run?',
	});
	return chosen?.mode;
}

/** The result of a finished task, as a result document (fetched again from the server after a reload). */
export async function openTaskResult(deps: TaskCommandDeps, target: TaskTarget): Promise<vscode.Uri | undefined> {
	const entry = target && deps.tasks.get(target.server, target.taskId);
	if (!entry) return undefined;
	try {
		const result = await vscode.window.withProgress(
			{ location: vscode.ProgressLocation.Window, title: `MCP: fetching the result of ${entry.tool}` },
			() => deps.tasks.result(entry.server, entry.taskId),
		);
		const shown = await deps.results.showCall(
			{ server: entry.server, tool: entry.tool, arguments: entry.arguments, result, origin: 'a task' },
			deps.blobs,
		);
		return shown.document;
	} catch (error) {
		deps.showError(entry.server, `the result of task ${entry.tool} is not available: ${errorMessage(error)}`);
		return undefined;
	}
}

/** Registers Cancel Task, Open Task Result, Remove Task and Show Tasks. */
export function registerTaskCommands(deps: TaskCommandDeps): vscode.Disposable {
	const { tasks } = deps;
	const disposables = [
		vscode.commands.registerCommand(Commands.cancelTask, async (target: TaskTarget) => {
			if (!target) return;
			try {
				await tasks.cancel(target.server, target.taskId);
			} catch (error) {
				deps.showError(target.server, `cancelling the task failed: ${errorMessage(error)}`);
			}
		}),
		vscode.commands.registerCommand(Commands.openTaskResult, (target: TaskTarget) => openTaskResult(deps, target)),
		vscode.commands.registerCommand(Commands.forgetTask, (target: TaskTarget) => {
			if (target) tasks.forget(target.server, target.taskId);
		}),
		vscode.commands.registerCommand(Commands.showTasks, async () => {
			const all = tasks.all();
			if (all.length === 0) {
				void vscode.window.showInformationMessage(
					'No MCP tasks in this workspace. Tools that run as tasks appear here when called (from the MCP view, "MCP: Call Tool" or @mcp).',
				);
				return;
			}
			const chosen = await vscode.window.showQuickPick(
				all.map((entry) => ({
					label: `${isFinished(entry) ? '$(check)' : '$(loading~spin)'} ${entry.tool}`,
					description: `${entry.server} · ${taskDescription(entry)}`,
					detail: entry.error,
					entry,
				})),
				{
					title: 'MCP Tasks',
					placeHolder: 'Pick a task: a finished one opens its result, a running one can be cancelled',
					matchOnDescription: true,
				},
			);
			if (!chosen) return;
			const { entry } = chosen;
			if (isFinished(entry)) {
				await openTaskResult(deps, entry);
				return;
			}
			const cancel = await vscode.window.showQuickPick(
				[
					{ label: '$(debug-stop) Cancel the task', cancel: true },
					{ label: 'Keep it running', cancel: false },
				],
				{ title: `${entry.tool} on ${entry.server} is ${entry.status}` },
			);
			if (cancel?.cancel) await tasks.cancel(entry.server, entry.taskId);
		}),
	];
	return vscode.Disposable.from(...disposables);
}
