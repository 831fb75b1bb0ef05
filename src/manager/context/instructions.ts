// Servers' `instructions` (the initialize / server/discover answer's text on how to use the server) for models:
// each server's text named by the server and bounded, so one verbose server cannot take the context.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization ("instructions")
import type { ServerView } from '../types';
import { CHARS_PER_TOKEN, estimateTokens } from './tokens';

/** The default bound of one server's instructions, in estimated tokens. */
export const DEFAULT_INSTRUCTIONS_TOKENS = 2_000;

/** One server's instructions as they go to a model. */
export interface ServerInstructions {
	server: string;
	/** The text sent (cut to the bound, with a note when cut). */
	text: string;
	/** The estimated tokens of `text`. */
	tokens: number;
	/** The estimated tokens of the server's whole text (more than `tokens` when it was cut). */
	fullTokens: number;
}

/** The instructions of a running server, or undefined (not running, none given, or only white space). */
export function instructionsOf(server: Pick<ServerView, 'state'>): string | undefined {
	if (server.state.kind !== 'running') return undefined;
	const text = server.state.client.instructions?.trim();
	return text ? text : undefined;
}

/**
 * The instructions of `servers` (those running and giving any), each cut to `maxTokensPerServer` estimated tokens.
 * A bound of 0 or less sends none.
 */
export function collectInstructions(
	servers: readonly Pick<ServerView, 'name' | 'state'>[],
	maxTokensPerServer = DEFAULT_INSTRUCTIONS_TOKENS,
): ServerInstructions[] {
	if (!(maxTokensPerServer > 0)) return [];
	const collected: ServerInstructions[] = [];
	for (const server of servers) {
		const full = instructionsOf(server);
		if (full === undefined) continue;
		const maxChars = Math.floor(maxTokensPerServer * CHARS_PER_TOKEN);
		const text =
			full.length <= maxChars
				? full
				: `${full.slice(0, maxChars)}\n[cut: ${full.length - maxChars} more characters of these instructions]`;
		collected.push({ server: server.name, text, tokens: estimateTokens(text), fullTokens: estimateTokens(full) });
	}
	return collected;
}

/** One section per server: a heading that names it, then its text. */
function sections(list: readonly ServerInstructions[]): string {
	return list.map((entry) => `## MCP server "${entry.server}"\n\n${entry.text}`).join('\n\n');
}

/**
 * The message `@mcp` puts before the conversation: what the servers behind the offered tools say about using them
 * (tools are named `mcp__<server>__<tool>`). Undefined when no server gave instructions.
 */
export function chatInstructionsText(list: readonly ServerInstructions[]): string | undefined {
	if (list.length === 0) return undefined;
	return (
		'Instructions from the MCP servers whose tools you have (a tool named mcp__<server>__<tool> belongs to that ' +
		`server; follow each server's instructions only for its own tools):\n\n${sections(list)}`
	);
}
