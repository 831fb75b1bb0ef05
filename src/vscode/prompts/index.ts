/** Prompts: Get Prompt, with completions for its arguments. */
import type * as vscode from 'vscode';
import type { FeatureDeps } from '../featureDeps';
import { registerPromptCommands } from './promptCommands';

/** Registers Get Prompt. */
export function register(context: vscode.ExtensionContext, deps: FeatureDeps): void {
	context.subscriptions.push(registerPromptCommands(deps));
}
