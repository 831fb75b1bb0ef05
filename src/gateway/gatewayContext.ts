/**
 * The model's context through one server's gateway endpoint, per session: in tool search mode the list is that
 * server's pinned tools, `search_tools` over its tools, `call_tool` (a proxy: VS Code's agent takes the tools it
 * listed when a request starts, so tools that appear after a search through list_changed would reach only its next
 * request) and `read_result`; results above their limit are capped with the whole kept for `read_result`, which
 * is listed without tool search only once the session has capped a result (VS Code shows every listed tool in the
 * server's group); each session keeps a ledger that is logged.
 * The rules live in src/manager/context/; the gateway calls these functions from its methods.
 */
import type { Logger } from '../common/logger';
import type { CallToolResult, Tool } from '../protocol/schema';
import type { NamedTool } from '../manager/types';
import { ContextLedger, SWITCHBOARD_ROW } from '../manager/context/ledger';
import {
	cappedNote,
	headOf,
	READ_RESULT_DEFINITION,
	READ_RESULT_TOOL,
	readResultAnswer,
	resultLimitFor,
	type ResultStore,
} from '../manager/context/resultStore';
import { definitionTokens, estimateTokens, resultTokens } from '../manager/context/tokens';
import {
	CALL_TOOL_DEFINITION,
	CALL_TOOL_TOOL,
	DEFAULT_SEARCH_RESULTS,
	SEARCH_TOOLS_DEFINITION,
	SEARCH_TOOLS_TOOL,
	searchAnswer,
	searchTools,
	useToolSearch,
	type ToolSearchMode,
} from '../manager/context/toolSearch';
import { isPinned } from '../manager/toolRanking';

/** The settings the gateway's context follows, read when a session lists or calls. */
export interface GatewayContextSettings {
	resultMaxTokens: number;
	resultMaxTokensByTool: Readonly<Record<string, unknown>>;
	toolSearch: ToolSearchMode;
	toolSearchThresholdTokens: number;
	pinnedTools: readonly string[];
}

/** What the gateway needs to budget its sessions' context. */
export interface GatewayContextOptions {
	settings: () => GatewayContextSettings;
	/** Where capped results are kept whole (shared with `@mcp`, so the user can open them too). */
	results: ResultStore;
}

/** What a tools/call becomes: an answer of the gateway's own, or a call of a catalog tool (through `call_tool`). */
export type OwnCall = { result: CallToolResult } | { name: string; args: Record<string, unknown> } | undefined;

function text(value: string, isError = false): CallToolResult {
	return { content: [{ type: 'text', text: value }], ...(isError ? { isError: true } : {}) };
}

/** One gateway session's context: its tool list, its own tools, its capped results and its ledger. */
export class GatewaySessionContext {
	readonly ledger = new ContextLedger();
	/** Whether this session has had a result capped (from then on `read_result` is listed). */
	private capped = false;

	/** `toolsChanged` tells the session's client to list its tools again (`read_result` appeared). */
	constructor(
		private readonly options: GatewayContextOptions,
		private readonly logger: Logger,
		private readonly session: string,
		private readonly toolsChanged: () => void = () => undefined,
	) {}

	/**
	 * The tools/list answer: every exposed tool, or in tool search mode the pinned ones and the gateway's own;
	 * `read_result` too in tool search mode or once a result was capped.
	 */
	tools(exposed: readonly Tool[], source: readonly NamedTool[]): Tool[] {
		const settings = this.options.settings();
		const searching = useToolSearch(settings.toolSearch, source, settings.toolSearchThresholdTokens);
		const listed: Tool[] = [];
		for (let i = 0; i < source.length; i++) {
			if (searching && !isPinned(source[i]!, settings.pinnedTools)) continue;
			const tool = exposed[i]!;
			this.ledger.add(source[i]!.server, 'definitions', definitionTokens(tool), tool.name);
			listed.push(tool);
		}
		const own = searching
			? [SEARCH_TOOLS_DEFINITION, CALL_TOOL_DEFINITION, READ_RESULT_DEFINITION]
			: this.capped
				? [READ_RESULT_DEFINITION]
				: [];
		for (const definition of own) {
			const tool = {
				...definition,
				annotations: { readOnlyHint: definition.name !== CALL_TOOL_TOOL },
			} as unknown as Tool;
			this.ledger.add(SWITCHBOARD_ROW, 'definitions', definitionTokens(tool), tool.name);
			listed.push(tool);
		}
		this.log();
		return listed;
	}

	/**
	 * A call of the gateway's own tools: `search_tools` and `read_result` answered here, `call_tool` turned into the
	 * call it names. Undefined for any other name, or one of these the session does not list (the server's own tool
	 * may bear it).
	 */
	ownCall(name: string, args: Record<string, unknown>, available: () => readonly NamedTool[]): OwnCall {
		if (name !== SEARCH_TOOLS_TOOL && name !== CALL_TOOL_TOOL && name !== READ_RESULT_TOOL) return undefined;
		const settings = this.options.settings();
		const searching = useToolSearch(settings.toolSearch, available(), settings.toolSearchThresholdTokens);
		if (!searching && !(name === READ_RESULT_TOOL && this.capped)) return undefined;
		if (name === SEARCH_TOOLS_TOOL) {
			const query = typeof args.query === 'string' ? args.query : '';
			const limit =
				typeof args.limit === 'number' && args.limit > 0 ? Math.min(20, args.limit) : DEFAULT_SEARCH_RESULTS;
			// The tool's own name: the one this endpoint lists and call_tool takes.
			const found = searchTools(available(), query, limit);
			return { result: this.own(searchAnswer(found, query, (named) => named.tool.name)) };
		}
		if (name === READ_RESULT_TOOL) return { result: this.own(readResultAnswer(this.options.results, args)) };
		if (name === CALL_TOOL_TOOL) {
			const target = typeof args.name === 'string' ? args.name : '';
			const inner = args.arguments;
			if (!target) return { result: text(`${CALL_TOOL_TOOL}: give the tool's name (from ${SEARCH_TOOLS_TOOL})`, true) };
			return {
				name: target,
				args:
					typeof inner === 'object' && inner !== null && !Array.isArray(inner)
						? (inner as Record<string, unknown>)
						: {},
			};
		}
		return undefined;
	}

	/** A catalog tool's result within its limit: whole, or the head, the size and a reference to the kept whole. */
	result(named: NamedTool, result: CallToolResult): CallToolResult {
		const settings = this.options.settings();
		const limit = resultLimitFor(
			settings.resultMaxTokensByTool,
			settings.resultMaxTokens,
			named.server,
			named.qualifiedName,
		);
		const tokens = resultTokens(result);
		if (tokens <= limit) {
			this.ledger.add(named.server, 'results', tokens);
			this.log();
			return result;
		}
		const whole = wholeText(result);
		const stored = this.options.results.put(named.server, named.tool.name, whole, tokens);
		const head = headOf(whole, limit);
		const capped = `${head}${cappedNote(stored, head.length)}`;
		this.ledger.add(named.server, 'results', estimateTokens(capped));
		this.logger.info(
			`gateway session ${this.session}: ${named.qualifiedName} returned about ${tokens} tokens; capped at ${limit}, kept whole as ${stored.id}`,
		);
		this.log();
		if (!this.capped) {
			this.capped = true;
			this.toolsChanged();
		}
		return { content: [{ type: 'text', text: capped }], ...(result.isError === true ? { isError: true } : {}) };
	}

	private own(answer: string): CallToolResult {
		this.ledger.add(SWITCHBOARD_ROW, 'results', estimateTokens(answer));
		this.log();
		return text(answer);
	}

	private log(): void {
		this.logger.info(`gateway session ${this.session}: ${this.ledger.logLine()}`);
	}
}

/** A result as one text: text blocks as they are, other blocks and the structured content as JSON. */
function wholeText(result: CallToolResult): string {
	const parts: string[] = [];
	for (const block of result.content ?? []) {
		const b = block as Record<string, unknown>;
		parts.push(b.type === 'text' && typeof b.text === 'string' ? b.text : JSON.stringify(b));
	}
	if (result.structuredContent !== undefined)
		parts.push(`Structured content (JSON):\n${JSON.stringify(result.structuredContent, null, 2)}`);
	return parts.join('\n');
}
