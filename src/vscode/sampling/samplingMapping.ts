/**
 * The pure half of sampling: MCP `sampling/createMessage` ↔ a neutral message shape that sampling.ts turns into
 * `vscode.LanguageModelChatMessage`s one-to-one, the model choice, and the text of the "Show request" document.
 * No `vscode` here, so the mapping is unit tested in plain Node.
 *
 * Spec (2025-11-25): https://modelcontextprotocol.io/specification/2025-11-25/client/sampling
 * - messages hold text, image or audio content, and with tools `tool_use` (assistant) and `tool_result` (user) blocks;
 * - `modelPreferences.hints` "are treated as substrings that can match model names flexibly" and are evaluated in order;
 * - `toolChoice.mode` is `auto` (default), `required` or `none`;
 * - the result has `role`, `content`, `model` and `stopReason` (`endTurn`, `stopSequence`, `maxTokens`, `toolUse`).
 */
import type { ContentBlock, CreateMessageRequest, CreateMessageResult } from '../../protocol/schema';
import { plural, textOf } from '../../common/text';
import { isRecord } from '../../common/records';

/** One piece of a message, in the shapes the VS Code language model API has (text, image data, tool call, tool result). */
export type NeutralPart =
	| { kind: 'text'; text: string }
	| { kind: 'image'; mimeType: string; data: Uint8Array }
	| { kind: 'toolCall'; callId: string; name: string; input: object }
	| { kind: 'toolResult'; callId: string; text: string[] };

export interface NeutralMessage {
	role: 'user' | 'assistant';
	parts: NeutralPart[];
}

export interface NeutralTool {
	name: string;
	description: string;
	inputSchema: object;
}

/** What sampling.ts passes to `LanguageModelChat.sendRequest`. */
export interface NeutralRequest {
	messages: NeutralMessage[];
	/** `LanguageModelChatRequestOptions.modelOptions`: `max_tokens`, `temperature`, `stop` when the server set them. */
	modelOptions: Record<string, unknown>;
	/** Empty when the server sent none or `toolChoice.mode` is `none`. */
	tools: NeutralTool[];
	/** `required` maps to `LanguageModelChatToolMode.Required`; `auto` (the default) to `Auto`. */
	toolMode: 'auto' | 'required';
}

/** The first line of the user message that carries the server's system prompt (the stable API has no system role). */
export const SYSTEM_PROMPT_PREFIX = 'System instructions from the MCP server:';

export interface MappingOptions {
	/** Whether the chosen model takes image input; otherwise images become a short text note. Default false. */
	acceptsImages?: boolean;
}

function blocks(content: ContentBlock | ContentBlock[]): ContentBlock[] {
	return Array.isArray(content) ? content : [content];
}

/** A content block the model cannot take as such, as text that says what it was. */
function describeBlock(block: Record<string, unknown>): string {
	switch (block.type) {
		case 'audio':
			return `[audio omitted (${textOf(block.mimeType, 'unknown type')}): the language model API takes no audio]`;
		case 'image':
			return `[image omitted (${textOf(block.mimeType, 'unknown type')}): the chosen model does not accept images]`;
		case 'resource_link':
			return `[resource link: ${textOf(block.name, '')} ${textOf(block.uri, '')}]`.replace('  ', ' ');
		case 'resource': {
			const resource = isRecord(block.resource) ? block.resource : {};
			return typeof resource.text === 'string'
				? resource.text
				: `[embedded resource ${textOf(resource.uri, '')} (${textOf(resource.mimeType, 'binary')})]`;
		}
		default:
			return `[${String(block.type)} content: ${JSON.stringify(block)}]`;
	}
}

function decodeBase64(data: unknown): Uint8Array | undefined {
	if (typeof data !== 'string') {
		return undefined;
	}
	const bytes = Buffer.from(data, 'base64');
	return bytes.length > 0 ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : undefined;
}

/** The text of a tool_result's content: text blocks as they are, structuredContent as JSON when there is no text. */
function toolResultText(block: Record<string, unknown>): string[] {
	const content = Array.isArray(block.content) ? block.content.filter(isRecord) : [];
	const text = content.map((c) => (c.type === 'text' && typeof c.text === 'string' ? c.text : describeBlock(c)));
	if (text.length === 0 && block.structuredContent !== undefined) {
		text.push(JSON.stringify(block.structuredContent));
	}
	if (block.isError === true) {
		text.unshift('The tool call failed:');
	}
	return text.length > 0 ? text : ['(no output)'];
}

function partsOf(content: ContentBlock | ContentBlock[], options: MappingOptions): NeutralPart[] {
	const parts: NeutralPart[] = [];
	for (const block of blocks(content) as Record<string, unknown>[]) {
		switch (block.type) {
			case 'text':
				parts.push({ kind: 'text', text: typeof block.text === 'string' ? block.text : '' });
				break;
			case 'image': {
				const data = options.acceptsImages ? decodeBase64(block.data) : undefined;
				parts.push(
					data && typeof block.mimeType === 'string'
						? { kind: 'image', mimeType: block.mimeType, data }
						: { kind: 'text', text: describeBlock(block) },
				);
				break;
			}
			case 'tool_use':
				parts.push({
					kind: 'toolCall',
					callId: textOf(block.id, ''),
					name: textOf(block.name, ''),
					input: isRecord(block.input) ? block.input : {},
				});
				break;
			case 'tool_result':
				parts.push({ kind: 'toolResult', callId: textOf(block.toolUseId, ''), text: toolResultText(block) });
				break;
			default:
				parts.push({ kind: 'text', text: describeBlock(block) });
		}
	}
	return parts;
}

/**
 * The neutral request for `params`. The system prompt becomes a first user message starting with
 * {@link SYSTEM_PROMPT_PREFIX}, because `LanguageModelChatMessageRole` has only User and Assistant in VS Code 1.104.
 * `maxTokens`, `temperature` and `stopSequences` go into `modelOptions` under the names OpenAI-style chat endpoints
 * use (`max_tokens`, `temperature`, `stop`): the API leaves their meaning to each model. Never throws.
 */
export function toNeutralRequest(params: CreateMessageRequest, options: MappingOptions = {}): NeutralRequest {
	const messages: NeutralMessage[] = [];
	if (params.systemPrompt) {
		messages.push({
			role: 'user',
			parts: [{ kind: 'text', text: `${SYSTEM_PROMPT_PREFIX}\n\n${params.systemPrompt}` }],
		});
	}
	for (const message of params.messages) {
		messages.push({ role: message.role, parts: partsOf(message.content, options) });
	}
	const modelOptions: Record<string, unknown> = {};
	if (typeof params.maxTokens === 'number') modelOptions.max_tokens = params.maxTokens;
	if (typeof params.temperature === 'number') modelOptions.temperature = params.temperature;
	if (params.stopSequences && params.stopSequences.length > 0) modelOptions.stop = [...params.stopSequences];
	const mode = params.toolChoice?.mode;
	const tools =
		mode === 'none'
			? []
			: (params.tools ?? []).map((tool) => ({
					name: tool.name,
					description: tool.description ?? tool.title ?? '',
					inputSchema: tool.inputSchema,
				}));
	return { messages, modelOptions, tools, toolMode: mode === 'required' && tools.length > 0 ? 'required' : 'auto' };
}

/** A piece of the model's answer: text or a tool call (the language model API streams nothing else in 1.104). */
export type ResponsePart =
	{ kind: 'text'; text: string } | { kind: 'toolCall'; callId: string; name: string; input: object };

/**
 * The `sampling/createMessage` result for the streamed parts. Text parts are joined. With tool calls the content is
 * an array of text and `tool_use` blocks and `stopReason` is `toolUse`; otherwise one text block and `endTurn`, or
 * `maxTokens` when the caller measured that the answer used the whole budget.
 */
export function toCreateMessageResult(
	parts: readonly ResponsePart[],
	model: string,
	options: { reachedMaxTokens?: boolean } = {},
): CreateMessageResult {
	const text = parts
		.filter((p): p is Extract<ResponsePart, { kind: 'text' }> => p.kind === 'text')
		.map((p) => p.text)
		.join('');
	const calls = parts.filter((p): p is Extract<ResponsePart, { kind: 'toolCall' }> => p.kind === 'toolCall');
	if (calls.length > 0) {
		const content: ContentBlock[] = [];
		if (text) {
			content.push({ type: 'text', text });
		}
		for (const call of calls) {
			content.push({ type: 'tool_use', id: call.callId, name: call.name, input: call.input });
		}
		return { role: 'assistant', content, model, stopReason: 'toolUse' };
	}
	return {
		role: 'assistant',
		content: { type: 'text', text },
		model,
		stopReason: options.reachedMaxTokens ? 'maxTokens' : 'endTurn',
	};
}

/** What the chooser needs of a model (`vscode.LanguageModelChat` has all of it). */
export interface ModelInfo {
	id: string;
	family: string;
	name: string;
	vendor: string;
}

export interface ModelChoice<T extends ModelInfo> {
	model: T;
	/** Why this one, for the log: `hint "claude"`, `setting "gpt-4o"` or `first available`. */
	reason: string;
}

function matches(model: ModelInfo, wanted: string): boolean {
	const needle = wanted.trim().toLowerCase();
	return (
		needle !== '' &&
		[model.id, model.family, model.name, `${model.vendor}/${model.id}`].some((v) => v.toLowerCase().includes(needle))
	);
}

function exact(model: ModelInfo, wanted: string): boolean {
	const needle = wanted.trim().toLowerCase();
	return [model.id, model.family, model.name, `${model.vendor}/${model.id}`].some((v) => v.toLowerCase() === needle);
}

/**
 * The model to use: the `preferred` setting when the user set one and it matches an available model (exactly, else
 * as a substring of id, family or name); else the first hint (in the server's order) that is a substring of a
 * model's id, family or name (case-insensitive); else the first available model.
 * `allowList`, when non-empty, first narrows the models to those whose id, family, name or `vendor/id` equals an entry.
 * Returns undefined when no model is left.
 */
export function chooseModel<T extends ModelInfo>(
	models: readonly T[],
	hints: readonly { name?: string }[] | undefined,
	settings: { preferred?: string; allowList?: readonly string[] } = {},
): ModelChoice<T> | undefined {
	const allowList = (settings.allowList ?? []).filter((a) => a.trim() !== '');
	const allowed = allowList.length > 0 ? models.filter((m) => allowList.some((a) => exact(m, a))) : [...models];
	// The user's setting outranks the server's hints. Model preferences "are always advisory. The client MAY ignore
	// them." (https://modelcontextprotocol.io/specification/2025-11-25/schema#modelpreferences), and the user pays
	// for the model: a server allowed to sample must not be able to pick the most expensive one the user has access
	// to. Hints still decide among models when the user set no preference (or it matches nothing available).
	if (settings.preferred) {
		const found =
			allowed.find((m) => exact(m, settings.preferred!)) ?? allowed.find((m) => matches(m, settings.preferred!));
		if (found) {
			return { model: found, reason: `setting "${settings.preferred}"` };
		}
	}
	for (const hint of hints ?? []) {
		if (typeof hint.name === 'string') {
			const found = allowed.find((m) => matches(m, hint.name!));
			if (found) {
				return { model: found, reason: `hint "${hint.name}"` };
			}
		}
	}
	const first = allowed[0];
	return first ? { model: first, reason: 'first available' } : undefined;
}

function contentAsText(content: unknown): string {
	return blocks(content as ContentBlock | ContentBlock[])
		.map((block) => {
			const b = block as Record<string, unknown>;
			switch (b.type) {
				case 'text':
					return textOf(b.text, '');
				case 'tool_use':
					return `[tool call ${String(b.name)} (id ${String(b.id)}) with input ${JSON.stringify(b.input ?? {})}]`;
				case 'tool_result':
					return `[tool result for ${String(b.toolUseId)}${b.isError === true ? ', failed' : ''}]\n${toolResultText(b).join('\n')}`;
				case 'image':
				case 'audio': {
					const size = typeof b.data === 'string' ? Math.floor((b.data.length * 3) / 4) : 0;
					return `[${String(b.type)} ${textOf(b.mimeType, '')}, about ${size} bytes]`;
				}
				default:
					return describeBlock(b);
			}
		})
		.join('\n');
}

/**
 * The full request as a Markdown document a person can read before allowing it: server, system prompt, every
 * message, max tokens, temperature, stop sequences, model preferences, tools and tool choice, context and metadata.
 */
export function describeRequest(server: string, params: CreateMessageRequest): string {
	const lines: string[] = [`# Sampling request from "${server}"`, ''];
	lines.push(`- Max tokens: ${params.maxTokens}`);
	if (params.temperature !== undefined) lines.push(`- Temperature: ${params.temperature}`);
	if (params.stopSequences?.length)
		lines.push(`- Stop sequences: ${params.stopSequences.map((s) => JSON.stringify(s)).join(', ')}`);
	if (params.includeContext && params.includeContext !== 'none')
		lines.push(`- Include context: ${params.includeContext} (not sent: this client shares no other context)`);
	const prefs = params.modelPreferences;
	if (prefs) {
		const hints = (prefs.hints ?? []).map((h) => h.name).filter(Boolean);
		lines.push(`- Model hints: ${hints.length > 0 ? hints.join(', ') : '(none)'}`);
		for (const key of ['costPriority', 'speedPriority', 'intelligencePriority'] as const) {
			if (prefs[key] !== undefined) lines.push(`- ${key}: ${prefs[key]}`);
		}
	}
	if (params.metadata) lines.push(`- Metadata: \`${JSON.stringify(params.metadata)}\``);
	lines.push('', '## System prompt', '', params.systemPrompt ? params.systemPrompt : '(none)', '');
	params.messages.forEach((message, i) => {
		lines.push(`## Message ${i + 1} (${message.role})`, '', contentAsText(message.content), '');
	});
	if (params.tools?.length) {
		lines.push(`## Tools (tool choice: ${params.toolChoice?.mode ?? 'auto'})`, '');
		for (const tool of params.tools) {
			lines.push(
				`### ${tool.name}`,
				'',
				tool.description ?? '',
				'',
				'```json',
				JSON.stringify(tool.inputSchema, null, 2),
				'```',
				'',
			);
		}
	}
	return lines.join('\n');
}

/** One line for the server's log: how many messages, which model, and the answer's size and stop reason. */
export function summarizeExchange(params: CreateMessageRequest, result: CreateMessageResult): string {
	const out = blocks(result.content)
		.map((b) =>
			(b as Record<string, unknown>).type === 'text'
				? `${textOf((b as Record<string, unknown>).text).length} chars of text`
				: String(b.type),
		)
		.join(', ');
	return `sampling: ${plural(params.messages.length, 'message')}, ${plural(params.tools?.length ?? 0, 'tool')}, max ${plural(params.maxTokens, 'token')} → ${result.model}: ${out}, stopReason ${result.stopReason ?? '?'}`;
}
