// The settings of the model's context budget (package.json `mcpSwitchboard.context.*`), read where `@mcp` and the
// gateway need them; the rules themselves live in src/manager/context/.
import * as vscode from 'vscode';
import type { Manager } from '../../manager/manager';
import { offeredServer } from '../../gateway/catalog';
import type { GatewayContextSettings } from '../../gateway/gatewayContext';
import { collectInstructions, DEFAULT_INSTRUCTIONS_TOKENS } from '../../manager/context/instructions';
import { DEFAULT_RESULT_MAX_TOKENS } from '../../manager/context/resultStore';
import { DEFAULT_SEARCH_THRESHOLD_TOKENS, type ToolSearchMode } from '../../manager/context/toolSearch';

/** The setting names. */
export const ContextSettings = {
	instructionsMaxTokens: 'mcpSwitchboard.context.instructionsMaxTokens',
	resultMaxTokens: 'mcpSwitchboard.context.resultMaxTokens',
	resultMaxTokensByTool: 'mcpSwitchboard.context.resultMaxTokensByTool',
	toolSearch: 'mcpSwitchboard.context.toolSearch',
	toolSearchThreshold: 'mcpSwitchboard.context.toolSearchThresholdTokens',
	showLedger: 'mcpSwitchboard.context.showLedger',
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

/** The context settings a request reads once. */
export interface ContextSettingValues {
	resultMaxTokens: number;
	resultMaxTokensByTool: Readonly<Record<string, unknown>>;
	toolSearch: ToolSearchMode;
	toolSearchThresholdTokens: number;
	showLedger: boolean;
}

/** Reads the context settings. */
export function contextSettings(): ContextSettingValues {
	const config = vscode.workspace.getConfiguration();
	const byTool = config.get<unknown>(ContextSettings.resultMaxTokensByTool);
	const mode = config.get<unknown>(ContextSettings.toolSearch);
	return {
		resultMaxTokens:
			numberSetting(ContextSettings.resultMaxTokens, DEFAULT_RESULT_MAX_TOKENS) || DEFAULT_RESULT_MAX_TOKENS,
		resultMaxTokensByTool:
			typeof byTool === 'object' && byTool !== null && !Array.isArray(byTool)
				? (byTool as Record<string, unknown>)
				: {},
		toolSearch: mode === 'on' || mode === 'auto' ? mode : 'off',
		toolSearchThresholdTokens: numberSetting(ContextSettings.toolSearchThreshold, DEFAULT_SEARCH_THRESHOLD_TOKENS),
		showLedger: config.get<boolean>(ContextSettings.showLedger, true) !== false,
	};
}

/** The settings of the gateway's context budget (pinned tools are `@mcp`'s: `mcpSwitchboard.chat.pinnedTools`). */
export function gatewayContextSettings(): GatewayContextSettings {
	const pinned = vscode.workspace.getConfiguration().get<unknown>('mcpSwitchboard.chat.pinnedTools');
	return {
		...contextSettings(),
		pinnedTools: Array.isArray(pinned) ? pinned.filter((p): p is string => typeof p === 'string') : [],
	};
}

/**
 * The `instructions` of the gateway's endpoint for `server` now: that server's own, bounded (each server is an MCP
 * server of its own to VS Code, so its endpoint says what the server says). Undefined when it gave none.
 */
export function gatewayInstructions(manager: Manager, server: string): string | undefined {
	const view = manager.get(server);
	if (!view || !offeredServer(view)) return undefined;
	return collectInstructions([view], instructionsMaxTokens())[0]?.text;
}
