/** Tasks: the tasks started in this workspace (kept in workspace state), their rows and commands. */
import type * as vscode from 'vscode';
import { showServerError } from '../logs/serverErrors';
import type { FeatureDeps } from '../featureDeps';
import { registerTaskCommands } from './taskCommands';
import { TaskList } from './taskList';

/** Registers the task list and Show Tasks, Cancel Task, Open Task Result, Forget Task; returns the list. */
export function register(
	context: vscode.ExtensionContext,
	deps: Pick<FeatureDeps, 'manager' | 'logs' | 'results' | 'blobs'>,
): TaskList {
	const tasks = new TaskList(deps.manager, context.workspaceState);
	context.subscriptions.push(
		tasks,
		registerTaskCommands({
			tasks,
			results: deps.results,
			blobs: deps.blobs,
			showError: (server, message) => showServerError(deps.logs, server, message),
		}),
	);
	return tasks;
}
