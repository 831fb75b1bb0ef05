// The settings of the model's context budget (package.json `mcpSwitchboard.context.*`), read where `@mcp` and the
// gateway need them; the rules themselves live in src/manager/context/.
import * as vscode from 'vscode';
import type { Manager } from '../../manager/manager';
import { offeredServer } from '../../gateway/catalog';
import {
	collectInstructions,
	DEFAULT_INSTRUCTIONS_TOKENS,
	gatewayInstructionsText,
} from '../../manager/context/instructions';

/** The setting names. */
export const ContextSettings = {
	instructionsMaxTokens: 'mcpSwitchboard.context.instructionsMaxTokens',
} as const;

/** A non-negative number setting, or its default when unset or not a number. */
export function numberSetting(key: string, fallback: number): number {
	const value = vscode.workspace.getConfiguration().get<unknown>(key);
	return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

/** The bound of one server's instructions, in estimated tokens (0: none sent). */
export function instructionsMaxTokens(): number {
	return numberSetting(ContextSettings.instructionsMaxTokens, DEFAULT_INSTRUCTIONS_TOKENS);
}

/** The gateway's `instructions` now: the intro and the instructions of the servers it offers, each bounded. */
export function gatewayInstructions(manager: Manager): string {
	return gatewayInstructionsText(collectInstructions(manager.servers().filter(offeredServer), instructionsMaxTokens()));
}
