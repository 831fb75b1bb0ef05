/**
 * What the Manager reports about a call that a person (or a model acting for one) made: which server, what was
 * asked, what came back and how long it took. The edge keeps these as the call history; the Manager only reports
 * calls that name their `origin`, so background work (list refreshes, resource-document refreshes) stays out.
 */
import type { RequestOptions } from '../protocol/client';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '../protocol/schema';

/**
 * Where a call came from: the palette or tree, the `@mcp` chat, VS Code's agent through the gateway, a saved file, the
 * history, or an MCP App (its own `tools/call` and `resources/read`, src/vscode/console/apps).
 */
export type InvocationOrigin = 'palette' | 'chat' | 'gateway' | 'file' | 'history' | 'app';

/** RequestOptions plus the origin that makes the call part of the history. */
export interface InvokeOptions extends RequestOptions {
	origin?: InvocationOrigin;
}

export type InvocationTarget =
	| { kind: 'tool'; server: string; name: string; arguments: Record<string, unknown> }
	| { kind: 'prompt'; server: string; name: string; arguments: Record<string, string> }
	| { kind: 'resource'; server: string; uri: string };

export type InvocationOutcome =
	| { kind: 'result'; result: CallToolResult | GetPromptResult | ReadResourceResult; isError: boolean }
	| { kind: 'error'; message: string; cancelled: boolean };

export interface InvocationRecord {
	target: InvocationTarget;
	origin: InvocationOrigin;
	/** Epoch ms when the call was sent. */
	startedAt: number;
	durationMs: number;
	outcome: InvocationOutcome;
}
