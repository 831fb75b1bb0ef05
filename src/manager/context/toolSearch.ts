// Tool search for models: instead of every tool's definition, a model gets the pinned tools and `search_tools`,
// which finds the best matches for what it wants to do (BM25 over the tools' names, titles and descriptions, the
// ranking of toolRanking.ts) and returns their full definitions; the tools it found can then be called.
import type { NamedTool } from '../types';
import { ToolIndex, toolIndexer, type ToolIndexer } from '../toolRanking';
import { definitionTokens } from './tokens';
import { expandQuery } from './queryTerms';

/** The name of the search tool. */
export const SEARCH_TOOLS_TOOL = 'search_tools';
/** The gateway's proxy for calling a found tool (VS Code's agent keeps the tools it listed at the start). */
export const CALL_TOOL_TOOL = 'call_tool';
/** How many matches a search returns unless asked for another number. */
export const DEFAULT_SEARCH_RESULTS = 5;
/** The default threshold of the automatic mode: tool search once the definitions would take more estimated tokens. */
export const DEFAULT_SEARCH_THRESHOLD_TOKENS = 20_000;

/** When tool search is used: `auto` past the threshold, `on` always, `off` never. */
export type ToolSearchMode = 'auto' | 'on' | 'off';

/** The definition of {@link SEARCH_TOOLS_TOOL} as a model receives it. */
export const SEARCH_TOOLS_DEFINITION = {
	name: SEARCH_TOOLS_TOOL,
	description:
		'Finds tools of the MCP servers for a task. Many tools are available but not listed: describe what you want to do in a few words (e.g. "create a github issue", "read a file") and get the best matching tools with their full definitions; then call the one that fits.',
	inputSchema: {
		type: 'object',
		properties: {
			query: { type: 'string', description: 'What you want to do, in a few words.' },
			limit: { type: 'integer', minimum: 1, maximum: 20, description: 'How many tools at most (default 5).' },
		},
		required: ['query'],
	},
} as const;

/** The definition of {@link CALL_TOOL_TOOL} (gateway only) as a model receives it. */
export const CALL_TOOL_DEFINITION = {
	name: CALL_TOOL_TOOL,
	description: `Calls a tool that ${SEARCH_TOOLS_TOOL} found, by the name it gave, with its arguments as its input schema says.`,
	inputSchema: {
		type: 'object',
		properties: {
			name: { type: 'string', description: `The tool's name as ${SEARCH_TOOLS_TOOL} gave it.` },
			arguments: { type: 'object', description: "The tool's arguments." },
		},
		required: ['name'],
	},
} as const;

/** Whether to search rather than send every definition, given the mode and the definitions' estimated tokens. */
export function useToolSearch(mode: ToolSearchMode, tools: readonly NamedTool[], thresholdTokens: number): boolean {
	if (mode === 'on') return true;
	if (mode === 'off') return false;
	let tokens = 0;
	for (const named of tools) {
		tokens += definitionTokens({
			name: named.qualifiedName,
			description: named.tool.description,
			inputSchema: named.tool.inputSchema,
		});
		if (tokens > thresholdTokens) return true;
	}
	return false;
}

/**
 * The best `limit` matches of `query` among `tools`, best first (ties in list order); tools sharing no word with
 * the query are not returned.
 */
export function searchTools(
	tools: readonly NamedTool[],
	query: string,
	limit = DEFAULT_SEARCH_RESULTS,
	indexer: ToolIndexer = toolIndexer,
): NamedTool[] {
	if (tools.length === 0 || limit <= 0) return [];
	const scores = ToolIndex.for(tools, indexer).score(expandQuery(query));
	// A small ordered list of the best so far: limit is a handful, tools may be thousands.
	const best: number[] = [];
	for (let i = 0; i < scores.length; i++) {
		const score = scores[i]!;
		if (score <= 0) continue;
		if (best.length === limit && score <= scores[best[best.length - 1]!]!) continue;
		let at = best.length;
		while (at > 0 && scores[best[at - 1]!]! < score) at--;
		best.splice(at, 0, i);
		if (best.length > limit) best.pop();
	}
	return best.map((i) => tools[i]!);
}

/**
 * The search's answer for a model: each match's name, description and input schema, as JSON. The name is the one the
 * model calls the tool by: `mcp__<server>__<tool>` for `@mcp`, the tool's own name on a server's gateway endpoint.
 */
export function searchAnswer(
	found: readonly NamedTool[],
	query: string,
	nameOf: (named: NamedTool) => string = (named) => named.qualifiedName,
): string {
	if (found.length === 0)
		return `No tool matches "${query}". Try other words (what the tool does, or the service it works with).`;
	return JSON.stringify(
		found.map((named) => ({
			name: nameOf(named),
			description: named.tool.description ?? named.tool.title ?? '',
			inputSchema: named.tool.inputSchema ?? { type: 'object' },
		})),
	);
}
