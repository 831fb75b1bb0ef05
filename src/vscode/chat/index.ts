/** Chat: the `@mcp` participant. */
import type * as vscode from 'vscode';
import type { NamedTool } from '../../manager/manager';
import type { FeatureDeps } from '../featureDeps';
import type { TaskList } from '../tasks/taskList';
import type { ToolConsent } from '../tools/consent';
import { registerChatParticipant } from './chatParticipant';

/** What chat needs beyond the shared deps. */
export interface ChatDeps extends Pick<FeatureDeps, 'manager'> {
	consent: ToolConsent;
	tasks: TaskList;
	/** Which tools models get. */
	isEnabled: (named: NamedTool) => boolean;
}

/** Registers the `@mcp` participant and Ask About Resource. */
export function register(context: vscode.ExtensionContext, deps: ChatDeps): void {
	const { manager, consent, tasks, isEnabled } = deps;
	context.subscriptions.push(registerChatParticipant(context, manager, { consent, tasks, isEnabled }));
}
