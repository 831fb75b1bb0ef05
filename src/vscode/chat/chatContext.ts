// What one `@mcp` request puts into the model's context besides the conversation: the servers' instructions, and
// the ledger of what each server cost (src/manager/context/ holds the rules; this file is the VS Code side).
import * as vscode from 'vscode';
import type { Manager, NamedTool } from '../../manager/manager';
import { chatInstructionsText, collectInstructions } from '../../manager/context/instructions';
import { instructionsMaxTokens } from '../shared/contextSettings';

/**
 * The message that goes before the conversation: the instructions of the running servers whose tools are offered
 * (each bounded by `mcpSwitchboard.context.instructionsMaxTokens`, named by its server). Undefined when none gave any.
 */
export function instructionsMessage(
	manager: Manager,
	offered: readonly NamedTool[],
): { message: vscode.LanguageModelChatMessage; perServer: { server: string; tokens: number }[] } | undefined {
	const servers = new Set(offered.map((named) => named.server));
	const list = collectInstructions(
		manager.servers().filter((server) => servers.has(server.name)),
		instructionsMaxTokens(),
	);
	const text = chatInstructionsText(list);
	if (text === undefined) return undefined;
	return {
		message: vscode.LanguageModelChatMessage.User(text),
		perServer: list.map(({ server, tokens }) => ({ server, tokens })),
	};
}
