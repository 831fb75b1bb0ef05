/** Server logs: the log-level setting applied to running servers, and errors that name their server (Show Output). */
import type * as vscode from 'vscode';
import type { FeatureDeps } from '../featureDeps';
import { notifyServerErrors } from './serverErrors';
import { watchLogLevelSetting } from './serverLogging';

/** Registers the log-level watcher and the server error notifications. */
export function register(context: vscode.ExtensionContext, deps: Pick<FeatureDeps, 'manager' | 'logs'>): void {
	const { manager, logs } = deps;
	context.subscriptions.push(
		watchLogLevelSetting(manager, (server) => logs.channel(server)),
		notifyServerErrors(manager, logs),
	);
}
