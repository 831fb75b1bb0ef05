import * as vscode from 'vscode';
import type { TaskList } from '../tasks/taskList';
import { describeState, type Manager, type NamedTool } from '../../manager/manager';
import { indexServerTools, MAX_MODEL_TOOLS, selectTools, type Selection } from '../../manager/toolRanking';
import { EXACT_COMMANDS, runExactCommand } from './chatCommands';
import { attachedParts, modelPart } from './chatReferences';
import { userReferences } from './hiddenContext';
import { toAbortSignal } from '../cancellation';
import { MAX_TOOL_ROUNDS, progressLabel, toolFailureText, toolsMarkdown } from './chatMapping';
import { Commands } from '../commandIds';
import { type ConsentQuestion, ToolConsent } from '../tools/consent';
import { ChatConsentAnswers } from './consentCard';
import { errorMessage } from '../../common/errors';
import { ChatBudget } from './chatContext';
import { registerFullResults } from '../shared/fullResults';
import { registerLedgerTables } from './answerNotes';
import { contextSettings } from '../shared/contextSettings';
import { useToolSearch } from '../../manager/context/toolSearch';
import { estimateTokens } from '../../manager/context/tokens';
import type { LedgerRow } from '../../manager/context/ledger';
import { isRecord } from '../../common/records';

/** The participant's id (package.json `contributes.chatParticipants`). */
export const CHAT_PARTICIPANT_ID = 'mcpSwitchboard.mcp';

/** What a finished request reports in `ChatResult.metadata`: the tool calls it made, in order. */
export interface ChatMetadata {
	toolCalls: { server: string; tool: string; ok: boolean }[];
	/** The estimated tokens each server put into the model's context (the last row is the sum). */
	ledger?: LedgerRow[];
	/** The ids of results that were capped for the model and kept whole (chatContext.ts `chatResults`). */
	cappedResults?: string[];
	/** True when the model got tool search instead of every definition. */
	toolSearch?: boolean;
}

/** What a request needs besides the Manager. */
export interface ChatOptions {
	/** Asks before each tool call that is not read-only. Default: a fresh ToolConsent that remembers nothing beyond itself. */
	consent?: ToolConsent;
	/** Which tools may be offered (per-tool enablement). Default: every tool of a running server. */
	isEnabled?: (named: NamedTool) => boolean;
	/** The Tasks list: a tool call that runs as a task is followed there. Default: none. */
	tasks?: TaskList;
	/** Consent also asked in the conversation, with buttons (consentCard.ts). Default: only the quick pick. */
	answers?: ChatConsentAnswers;
}

/** The settings of tool selection (package.json `mcpSwitchboard.chat.*`). */
export const ChatSettings = {
	maxTools: 'mcpSwitchboard.chat.maxTools',
	pinnedTools: 'mcpSwitchboard.chat.pinnedTools',
} as const;

/** The words a request is ranked by: the prompt, then earlier prompts of the conversation (weighted lower). */
function selectionQuery(
	request: vscode.ChatRequest,
	history: vscode.ChatContext['history'],
): { text: string; weight: number }[] {
	const query = [{ text: request.prompt, weight: 1 }];
	for (const reference of userReferences(request.references))
		if (typeof reference.modelDescription === 'string') query.push({ text: reference.modelDescription, weight: 0.5 });
	const earlier = history
		.filter((turn): turn is vscode.ChatRequestTurn => turn instanceof vscode.ChatRequestTurn)
		.slice(-5);
	for (const turn of earlier) query.push({ text: turn.prompt, weight: 0.5 });
	return query;
}

/**
 * The tools for this request: all when they fit, else the best matches (manager/toolRanking.ts) within the model's limits —
 * `mcpSwitchboard.chat.maxTools` (at most 128) and a quarter of its input tokens (about 4 characters a token) for the
 * definitions — with `mcpSwitchboard.chat.pinnedTools` always included.
 */
function toolsForRequest(
	available: readonly NamedTool[],
	request: vscode.ChatRequest,
	history: vscode.ChatContext['history'],
): Selection {
	const config = vscode.workspace.getConfiguration();
	const maxTools = config.get<number>(ChatSettings.maxTools, MAX_MODEL_TOOLS);
	const pinned = config.get<string[]>(ChatSettings.pinnedTools, []);
	const inputTokens = request.model.maxInputTokens;
	return selectTools(available, {
		query: selectionQuery(request, history),
		maxTools,
		pinned: Array.isArray(pinned) ? pinned.filter((p) => typeof p === 'string') : [],
		maxDefinitionChars: Number.isFinite(inputTokens) && inputTokens > 0 ? inputTokens : undefined,
	});
}

/** A Memento that lives as long as the object (the default consent's "always" choices are not kept). */
function memoryMemento(): vscode.Memento {
	const values = new Map<string, unknown>();
	return {
		keys: () => [...values.keys()],
		get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback),
		update: async (key: string, value: unknown) =>
			void (value === undefined ? values.delete(key) : values.set(key, value)),
	};
}

/** Prior turns of this participant as plain text messages (tool calls of earlier turns are not replayed). */
function historyMessages(history: vscode.ChatContext['history']): vscode.LanguageModelChatMessage[] {
	const messages: vscode.LanguageModelChatMessage[] = [];
	for (const turn of history) {
		if (turn instanceof vscode.ChatRequestTurn) {
			if (turn.prompt.trim()) messages.push(vscode.LanguageModelChatMessage.User(turn.prompt));
		} else if (turn instanceof vscode.ChatResponseTurn) {
			const text = turn.response
				.map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : ''))
				.join('')
				.trim();
			if (text) messages.push(vscode.LanguageModelChatMessage.Assistant(text));
		}
	}
	return messages;
}

/**
 * The tools this request offers the model (every enabled one, the best matches past the limit, or in tool search mode
 * the pinned ones and `search_tools`), told to the user when some are left out.
 */
function planTools(
	manager: Manager,
	request: vscode.ChatRequest,
	context: vscode.ChatContext,
	stream: vscode.ChatResponseStream,
	isEnabled: (named: NamedTool) => boolean,
	settings: ReturnType<typeof contextSettings>,
): ChatBudget {
	const enabled = manager.allTools().filter(isEnabled);
	const pinned = vscode.workspace.getConfiguration().get<unknown>(ChatSettings.pinnedTools);
	const pins = Array.isArray(pinned) ? pinned.filter((p): p is string => typeof p === 'string') : [];
	const searching = useToolSearch(settings.toolSearch, enabled, settings.toolSearchThresholdTokens);
	const selection = searching
		? { tools: [], leftOut: 0, all: false }
		: toolsForRequest(enabled, request, context.history);
	const budget = new ChatBudget(manager, enabled, selection.tools, searching, pins);
	if (searching) {
		stream.markdown(
			`_Tool search: the model gets ${budget.pinnedTools().length} pinned tools and \`search_tools\` to find among ${enabled.length} MCP tools._\n\n`,
		);
	} else if (selection.leftOut > 0) {
		stream.markdown(
			`_${selection.tools.length} of ${enabled.length} MCP tools sent to the model (the best matches for your request); ${selection.leftOut} left out. ` +
				'To always send a tool, add its name (e.g. `mcp__server__tool`, or `mcp__server__*`) to the setting `mcpSwitchboard.chat.pinnedTools`._\n\n',
		);
		stream.button({
			command: 'workbench.action.openSettings',
			arguments: [ChatSettings.pinnedTools],
			title: 'Pin Tools',
		});
	}
	return budget;
}

/**
 * Handles one `@mcp` request. `/tools` lists the running servers' tools. Otherwise the prompt (after the prior
 * turns as text) goes to `request.model` with every running server's tools; tool calls run through the Manager
 * (cancelled with the request) for at most {@link MAX_TOOL_ROUNDS} rounds, and the model's text streams to the
 * response. A failing tool goes back to the model as an error result; a failing model or request ends the answer
 * with a short message. Never throws.
 */
export async function handleChatRequest(
	manager: Manager,
	request: vscode.ChatRequest,
	context: vscode.ChatContext,
	stream: vscode.ChatResponseStream,
	token: vscode.CancellationToken,
	options: ChatOptions = {},
): Promise<vscode.ChatResult> {
	const metadata: ChatMetadata = { toolCalls: [] };
	const consent = options.consent ?? new ToolConsent(memoryMemento());
	const servers = manager.servers();
	const showServers = () => stream.button({ command: Commands.showServers, title: 'Show Servers' });
	if (request.command === 'tools') {
		stream.markdown(toolsMarkdown(servers, (server) => describeState(server.state)));
		if (!servers.some((server) => server.state.kind === 'running')) showServers();
		return { metadata };
	}
	let seed: vscode.LanguageModelChatMessage[] | undefined;
	if (request.command && EXACT_COMMANDS.has(request.command)) {
		const outcome = await runExactCommand(manager, request, stream, token);
		if ('done' in outcome)
			return { ...outcome.done, metadata: { ...metadata, ...(outcome.done.metadata as object | undefined) } };
		seed = outcome.messages;
	}
	// Servers never listed start now (the others answer from their cached listing and start when a tool is called).
	await manager.listUncached();
	if (!servers.some((server) => server.state.kind === 'running' || server.listedAt !== undefined)) {
		stream.markdown(
			servers.length === 0
				? '_No MCP server is configured, so no MCP tools are available._\n\n'
				: '_No MCP server is running, so no MCP tools are available._\n\n',
		);
		showServers();
	}

	const isEnabled = options.isEnabled ?? (() => true);
	const settings = contextSettings();
	const budget = planTools(manager, request, context, stream, isEnabled, settings);
	metadata.toolSearch = budget.searching || undefined;
	const bridge = toAbortSignal(token);
	try {
		// What the user attached (files, selections, resource documents) goes to the model as content, before the prompt.
		// Not what VS Code added for its own agent (instruction files, its customizations index: hiddenContext.ts).
		// An attached skill counts in the ledger under skills, as one the model loads does.
		const attached = (
			await attachedParts(manager, userReferences(request.references), bridge.signal, (server, text) =>
				budget.ledger.add(server, 'skills', estimateTokens(text)),
			)
		).map(modelPart);
		const prompt = seed ?? [vscode.LanguageModelChatMessage.User([new vscode.LanguageModelTextPart(request.prompt)])];
		if (attached.length > 0 && seed) prompt.unshift(vscode.LanguageModelChatMessage.User(attached));
		else if (attached.length > 0)
			prompt[0] = vscode.LanguageModelChatMessage.User([...attached, new vscode.LanguageModelTextPart(request.prompt)]);
		// The servers' instructions go first, as VS Code's chat models take no system message from an extension.
		const instructions = budget.instructionsMessage();
		await budget.prepareSkills();
		const messages = [...(instructions ? [instructions] : []), ...historyMessages(context.history), ...prompt];
		const finish = () => {
			budget.endAnswer(stream, settings.showLedger);
			metadata.ledger = budget.ledgerRows();
			return { metadata };
		};
		for (let round = 0; round < MAX_TOOL_ROUNDS; round++) {
			const tools = budget.tools();
			const response = await request.model.sendRequest(
				messages,
				tools.length > 0
					? { tools, justification: 'MCP Switchboard offers the tools of your running MCP servers to the model.' }
					: {},
				token,
			);
			let text = '';
			const calls: vscode.LanguageModelToolCallPart[] = [];
			for await (const part of response.stream) {
				if (part instanceof vscode.LanguageModelTextPart) {
					text += part.value;
					stream.markdown(part.value);
				} else if (part instanceof vscode.LanguageModelToolCallPart) {
					calls.push(part);
				}
			}
			if (calls.length === 0 || token.isCancellationRequested) return finish();
			messages.push(
				vscode.LanguageModelChatMessage.Assistant([
					...(text ? [new vscode.LanguageModelTextPart(text)] : []),
					...calls,
				]),
			);
			const results: vscode.LanguageModelToolResultPart[] = [];
			for (const call of calls)
				results.push(
					await runTool(
						manager,
						budget,
						consent,
						isEnabled,
						call,
						stream,
						bridge.signal,
						metadata,
						options.tasks,
						options.answers,
					),
				);
			if (token.isCancellationRequested) return finish();
			messages.push(vscode.LanguageModelChatMessage.User(results));
		}
		stream.markdown(`\n\n_Stopped after ${MAX_TOOL_ROUNDS} rounds of tool calls._`);
		return finish();
	} catch (error) {
		if (token.isCancellationRequested) return { metadata };
		const message = errorMessage(error);
		const model = `${request.model.name}`;
		return { metadata, errorDetails: { message: `${model}: ${message.split('\n', 1)[0] ?? message}` } };
	} finally {
		bridge.dispose();
	}
}

/** Runs one tool call and turns whatever happens (result, isError, throw, unknown tool, refusal) into a result part. */
async function runTool(
	manager: Manager,
	budget: ChatBudget,
	consent: ToolConsent,
	isEnabled: (named: NamedTool) => boolean,
	call: vscode.LanguageModelToolCallPart,
	stream: vscode.ChatResponseStream,
	signal: AbortSignal,
	metadata: ChatMetadata,
	tasks?: TaskList,
	answers?: ChatConsentAnswers,
): Promise<vscode.LanguageModelToolResultPart> {
	const answer = (text: string) =>
		new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart(text)]);
	const own = await budget.ownToolAnswer(call.name, isRecord(call.input) ? call.input : {}, signal);
	if (own !== undefined) return answer(own);
	const found = manager.findTool(call.name);
	const named = found && isEnabled(found) ? found : undefined;
	if (!named)
		return answer(`Tool error: there is no tool ${call.name} (its MCP server may have stopped or changed its tools).`);
	const { server, tool } = named;
	const args = isRecord(call.input) ? call.input : {};
	const alsoAsk =
		answers && ((question: ConsentQuestion, withdrawn: AbortSignal) => answers.ask(stream, question, withdrawn));
	if (!(await consent.confirm(server, tool, args, 'chat', { alsoAsk }))) {
		metadata.toolCalls.push({ server, tool: tool.name, ok: false });
		stream.markdown(`\n\n_Not run: ${server} › ${tool.name} (declined)._\n\n`);
		return answer(`Tool error: the user declined to run ${tool.name}. Do not retry it unless the user asks.`);
	}
	stream.progress(progressLabel(server, tool.name));
	try {
		// A tool that runs as a task: its status messages show in the progress line while the chat waits without
		// blocking; stopping the chat aborts the signal, which cancels the task on the server (tasks/cancel).
		let taskId: string | undefined;
		const result = await manager.callTool(server, tool.name, args, {
			origin: 'chat',
			signal,
			onProgress: (progress) => {
				stream.progress(progressLabel(server, tool.name, progress.message));
				if (taskId !== undefined) tasks?.progress(server, taskId, progress);
			},
			onTaskCreated: (handle) => {
				taskId = handle.taskId;
				tasks?.track(server, tool.name, args, handle, '@mcp');
			},
			onTaskStatus: (task) =>
				stream.progress(progressLabel(server, tool.name, task.statusMessage ?? task.status.replace('_', ' '))),
		});
		metadata.toolCalls.push({ server, tool: tool.name, ok: result.isError !== true });
		const budgeted = budget.result(named, result);
		if (budgeted.stored) {
			(metadata.cappedResults ??= []).push(budgeted.stored.id);
			// Said at the end of the answer (finish()): here, between tool steps, VS Code may fold it away with them.
			budget.capped.push({ named, stored: budgeted.stored });
		}
		return new vscode.LanguageModelToolResultPart(call.callId, budgeted.parts.map(modelPart));
	} catch (error) {
		metadata.toolCalls.push({ server, tool: tool.name, ok: false });
		const text = toolFailureText(server, tool.name, error);
		if (!signal.aborted)
			stream.markdown(`\n\n_${text.replace(/^Tool error: /, '').replace(/([\\*_[\]<>])/g, '\\$1')}_\n\n`);
		return answer(text);
	}
}

/**
 * Registers `@mcp` ({@link CHAT_PARTICIPANT_ID}) with the extension's icon. Dispose to unregister.
 * Fails only if VS Code lacks the chat API (then nothing is registered and a no-op disposable is returned).
 */
export function registerChatParticipant(
	context: vscode.ExtensionContext,
	manager: Manager,
	options: ChatOptions = {},
): vscode.Disposable {
	if (typeof vscode.chat?.createChatParticipant !== 'function') return new vscode.Disposable(() => undefined);
	// Consent for the model's calls is also asked in the conversation, next to the message (consentCard.ts).
	const answers = new ChatConsentAnswers();
	const participant = vscode.chat.createChatParticipant(CHAT_PARTICIPANT_ID, (request, chatContext, stream, token) =>
		handleChatRequest(manager, request, chatContext, stream, token, { answers, ...options }),
	);
	participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'mcp.svg');
	participant.followupProvider = {
		provideFollowups: (result) => {
			const called = (result.metadata as { call?: { server: string; tool: string } } | undefined)?.call;
			if (called)
				return [{ prompt: `Summarise the result of ${called.server} › ${called.tool}`, label: 'Summarise the result' }];
			const calls = (result.metadata as ChatMetadata | undefined)?.toolCalls ?? [];
			return calls.length === 0
				? []
				: [{ prompt: 'List the available tools', command: 'tools', label: 'List the MCP tools' }];
		},
	};
	// Each server's tools are indexed for ranking when its list arrives, so a request only combines the indexes.
	const indexing = indexServerTools(manager);
	// From a resource row of the Servers view (or the palette): the chat opens with `@mcp /read <uri> ` typed, for the
	// question to follow; without a row, `/read` alone offers the resources to pick from.
	const ask = vscode.commands.registerCommand(
		Commands.askAboutResource,
		(element?: { kind?: string; resource?: { uri?: unknown } }) => {
			const uri =
				element?.kind === 'resource' && typeof element.resource?.uri === 'string' ? element.resource.uri : undefined;
			return vscode.commands.executeCommand('workbench.action.chat.open', {
				query: `@mcp /read ${uri ? `${uri} ` : ''}`,
				isPartialQuery: uri !== undefined,
			});
		},
	);
	return vscode.Disposable.from(
		participant,
		ask,
		indexing,
		answers,
		registerFullResults(Commands.openFullResult),
		registerLedgerTables(Commands.showContextLedger),
	);
}
