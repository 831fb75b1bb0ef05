// What one `@mcp` request puts into the model's context besides the conversation, kept to a budget: the servers'
// instructions, the tools offered (all that fit, or the pinned ones and `search_tools` in tool search mode), results
// capped with the whole kept for `read_result` and the editor, and the ledger of what each server cost. The rules
// live in src/manager/context/; this file is their VS Code side.
import * as vscode from 'vscode';
import type { Manager, NamedTool } from '../../manager/manager';
import type { CallToolResult } from '../../protocol/schema';
import { chatInstructionsText, collectInstructions } from '../../manager/context/instructions';
import { ContextLedger, SWITCHBOARD_ROW, type LedgerRow } from '../../manager/context/ledger';
import {
	cappedNote,
	headOf,
	READ_RESULT_DEFINITION,
	READ_RESULT_TOOL,
	readResultAnswer,
	resultLimitFor,
	type StoredResult,
} from '../../manager/context/resultStore';
import { CHARS_PER_TOKEN, definitionTokens, estimateTokens, resultTokens } from '../../manager/context/tokens';
import {
	DEFAULT_SEARCH_RESULTS,
	SEARCH_TOOLS_DEFINITION,
	SEARCH_TOOLS_TOOL,
	searchAnswer,
	searchTools,
} from '../../manager/context/toolSearch';
import { isPinned } from '../../manager/toolRanking';
import { LOAD_SKILL_TOOL, loadSkill, loadSkillDefinition, skillsOf, type Skill } from '../../manager/context/skills';
import { errorMessage } from '../../common/errors';
import { contextSettings, instructionsMaxTokens } from '../shared/contextSettings';
import { keptResults } from '../shared/fullResults';
import { cappedResultNote, ledgerLine } from './answerNotes';
import { Commands } from '../commandIds';
import { toolDescription, toolInputSchema, toolResultParts, toolResultText, type ModelPart } from './chatMapping';

/** A tool as the model receives it, with the tokens of its definition. */
function modelTool(named: NamedTool): vscode.LanguageModelChatTool {
	return { name: named.qualifiedName, description: toolDescription(named), inputSchema: toolInputSchema(named) };
}

/** A tool result for the model: its parts, and the stored whole when it was capped. */
export interface BudgetedResult {
	parts: ModelPart[];
	stored?: StoredResult;
}

/**
 * The context of one `@mcp` request. `offered` is what ranking selected (every tool when they fit); in tool search
 * mode the model gets only the pinned tools, `search_tools` and what its searches found.
 */
export class ChatBudget {
	readonly ledger = new ContextLedger();
	/** The results capped for the model in this request, said under the answer when it ends. */
	readonly capped: { named: NamedTool; stored: StoredResult }[] = [];
	private readonly found: NamedTool[] = [];
	private readResults = false;
	private skills: { server: string; skill: Skill }[] = [];
	private readonly settings = contextSettings();

	constructor(
		private readonly manager: Manager,
		private readonly enabled: readonly NamedTool[],
		private readonly offered: readonly NamedTool[],
		readonly searching: boolean,
		private readonly pinned: readonly string[],
	) {}

	/** The pinned tools in tool search mode (the model has them without searching). */
	pinnedTools(): NamedTool[] {
		return this.enabled.filter((named) => isPinned(named, this.pinned));
	}

	/**
	 * The message that goes before the conversation: the instructions of the running servers whose tools are enabled
	 * (each bounded by `mcpSwitchboard.context.instructionsMaxTokens`, named by its server). Undefined when none gave any.
	 */
	instructionsMessage(): vscode.LanguageModelChatMessage | undefined {
		const servers = new Set(this.enabled.map((named) => named.server));
		const list = collectInstructions(
			this.manager.servers().filter((server) => servers.has(server.name)),
			instructionsMaxTokens(),
		);
		const text = chatInstructionsText(list);
		if (text === undefined) return undefined;
		for (const { server, tokens } of list) this.ledger.add(server, 'instructions', tokens);
		return vscode.LanguageModelChatMessage.User(text);
	}

	/**
	 * Lists the skills of the running servers whose tools are enabled (SEP-2640 entries only: a skill's files are
	 * read when the model loads it). A server whose listing fails is left out.
	 */
	async prepareSkills(): Promise<void> {
		const servers = new Set(this.enabled.map((named) => named.server));
		for (const server of this.manager.servers()) {
			if (!servers.has(server.name) || server.state.kind !== 'running') continue;
			const skills = await skillsOf(server.state.client).catch(() => []);
			for (const skill of skills) this.skills.push({ server: server.name, skill });
		}
	}

	/** The tools of the next model round (counted in the ledger once each). */
	tools(): vscode.LanguageModelChatTool[] {
		const tools: vscode.LanguageModelChatTool[] = [];
		const own = (definition: { name: string; description: string; inputSchema: object }) => {
			this.ledger.add(SWITCHBOARD_ROW, 'definitions', definitionTokens(definition), definition.name);
			tools.push(definition);
		};
		const named = this.searching ? [...this.pinnedTools(), ...this.found] : this.offered;
		const seen = new Set<string>();
		for (const tool of named) {
			if (seen.has(tool.qualifiedName)) continue;
			seen.add(tool.qualifiedName);
			const definition = modelTool(tool);
			this.ledger.add(
				tool.server,
				'definitions',
				definitionTokens({
					name: definition.name,
					description: definition.description,
					inputSchema: definition.inputSchema,
				}),
				tool.qualifiedName,
			);
			tools.push(definition);
		}
		if (this.searching) own(SEARCH_TOOLS_DEFINITION);
		if (this.skills.length > 0) own(loadSkillDefinition(this.skills));
		if (this.readResults) own(READ_RESULT_DEFINITION);
		return tools;
	}

	/** The answer to a call of one of Switchboard's own tools, or undefined when `name` is not one. */
	async ownToolAnswer(name: string, input: Record<string, unknown>, signal: AbortSignal): Promise<string | undefined> {
		let answer: string | undefined;
		if (name === LOAD_SKILL_TOOL && this.skills.length > 0) return this.loadSkill(input, signal);
		if (name === SEARCH_TOOLS_TOOL && this.searching) {
			const query = typeof input.query === 'string' ? input.query : '';
			const limit =
				typeof input.limit === 'number' && input.limit > 0 ? Math.min(20, input.limit) : DEFAULT_SEARCH_RESULTS;
			const matches = searchTools(this.enabled, query, limit);
			for (const match of matches) if (!this.found.includes(match)) this.found.push(match);
			answer = searchAnswer(matches, query);
		} else if (name === READ_RESULT_TOOL) {
			answer = readResultAnswer(keptResults, input);
		}
		if (answer !== undefined) this.ledger.add(SWITCHBOARD_ROW, 'results', estimateTokens(answer));
		return answer;
	}

	/** Loads the skill the model asked for (verified against its entry; see manager/context/skills.ts). */
	private async loadSkill(input: Record<string, unknown>, signal: AbortSignal): Promise<string> {
		const wanted = typeof input.skill === 'string' ? input.skill.trim() : '';
		const matches = this.skills.filter(
			({ server, skill }) => `${server}/${skill.frontmatter.name}` === wanted || skill.frontmatter.name === wanted,
		);
		const found = matches.length === 1 ? matches[0] : undefined;
		if (!found)
			return `Tool error: ${matches.length > 1 ? `"${wanted}" names several skills; give it as server/name` : `there is no skill "${wanted}"`}.`;
		try {
			const loaded = await loadSkill(this.manager.client(found.server), found.skill, { signal });
			const text = `[skill ${found.server}/${found.skill.frontmatter.name}, ${loaded.bytes} bytes, verified]
${loaded.text}`;
			this.ledger.add(found.server, 'skills', estimateTokens(text));
			return text;
		} catch (error) {
			return `Tool error: ${errorMessage(error)}`;
		}
	}

	/**
	 * A tool result for the model within the limit of its tool (`mcpSwitchboard.context.resultMaxTokens`, per server
	 * or tool in `…resultMaxTokensByTool`): whole when within it, else the head, the size and a reference to the whole,
	 * which is kept for `read_result` (offered from the next round) and the editor.
	 */
	result(named: NamedTool, result: CallToolResult): BudgetedResult {
		const limit = resultLimitFor(
			this.settings.resultMaxTokensByTool,
			this.settings.resultMaxTokens,
			named.server,
			named.qualifiedName,
		);
		const tokens = resultTokens(result);
		if (tokens <= limit) {
			const parts = toolResultParts(result, Math.max(limit * CHARS_PER_TOKEN, 1_000));
			this.ledger.add(named.server, 'results', tokens);
			return { parts };
		}
		const whole = toolResultText(result, Infinity);
		const stored = keptResults.put(named.server, named.tool.name, whole, tokens);
		const head = headOf(whole, limit);
		const text = `${head}${cappedNote(stored, head.length)}`;
		this.readResults = true;
		this.ledger.add(named.server, 'results', estimateTokens(text));
		return { parts: [{ kind: 'text', text }], stored };
	}

	/**
	 * Ends the answer: a note on each result that was cut for the model in this request, with its Open Full Result
	 * link, then the ledger's line when `showLedger`. Parts of their own (not markdown() of the model's text), and
	 * Markdown only (answerNotes.ts says why).
	 */
	endAnswer(stream: vscode.ChatResponseStream, showLedger: boolean): void {
		for (const { named, stored } of this.capped)
			stream.markdown(cappedResultNote(named, stored, Commands.openFullResult));
		if (showLedger && this.ledger.total().total > 0)
			stream.push(new vscode.ChatResponseMarkdownPart(ledgerLine(this.ledgerRows(), Commands.showContextLedger)));
	}

	/** The ledger's rows for the answer's metadata. */
	ledgerRows(): LedgerRow[] {
		return [...this.ledger.rows(), this.ledger.total()];
	}
}
