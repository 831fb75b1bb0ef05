/** Elicitation: server questions as quick inputs (the presenter is part of the Host) and URL elicitation completions. */
import type * as vscode from 'vscode';
import type { FeatureDeps } from '../featureDeps';
import type { ElicitationPresenter } from './elicitation';
import { watchElicitationCompletions } from './urlElicitations';

/** Registers the presenter's disposal and its watch for `notifications/elicitation/complete`. */
export function register(
	context: vscode.ExtensionContext,
	deps: Pick<FeatureDeps, 'manager'> & { elicitation: ElicitationPresenter },
): void {
	context.subscriptions.push(deps.elicitation, watchElicitationCompletions(deps.manager, deps.elicitation));
}
