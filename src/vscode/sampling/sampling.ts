import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import { samplingConsentKey, type ServerIdentity } from './consentKey';
import { ErrorCode } from '../../protocol/jsonrpc';
import { McpError } from '../../protocol/mcpError';
import type { CreateMessageRequest, CreateMessageResult } from '../../protocol/schema';
import { plural, textOf } from '../../common/text';
import { reshowItems, ServerInputQueue, type Turn } from '../serverInput/inputQueue';
import {
	chooseModel,
	describeRequest,
	summarizeExchange,
	toCreateMessageResult,
	toNeutralRequest,
	type NeutralMessage,
	type ResponsePart,
} from './samplingMapping';
import { errorMessage } from '../../common/errors';

/** The user's answer to a sampling request. `show` opens the full request and asks again. */
export type ConsentChoice = 'once' | 'session' | 'always' | 'deny' | 'show';

/** What the consent prompt is told about a request. */
export interface ConsentRequest {
	server: string;
	params: CreateMessageRequest;
	/** The model that will answer, e.g. "Fake Echo (switchboard-test/fake-echo)". */
	model: string;
}

/**
 * Asks the user about one request, while it has its `turn` in the {@link ServerInputQueue}. The default is a quick
 * pick (never a modal: under the smoke-test driver a modal answers itself, and a consent nobody saw is no consent)
 * that starts on Deny; hiding it is no answer: the request waits in the queue until the user opens it again.
 */
export type ConsentPrompt = (request: ConsentRequest, signal: AbortSignal, turn: Turn) => Promise<ConsentChoice>;

/** A consent quick pick the broker shows (the e2e suites answer it through this). */
export interface SamplingPromptShown {
	server: string;
	input: vscode.QuickPick<vscode.QuickPickItem>;
}

export interface SamplingBrokerOptions {
	/** Replaces the consent quick pick (tests, or a host with its own UI). */
	prompt?: ConsentPrompt;
	/** Lists the available models. Default `vscode.lm.selectChatModels()`. */
	selectModels?: () => Thenable<readonly vscode.LanguageModelChat[]>;
	/** The queue shared with every other server-initiated UI. Default: one of its own. */
	queue?: ServerInputQueue;
}

/** Where a server is defined and its config, for the consent key; set once the Manager exists (see consentKey.ts). */
export type ServerIdentityLookup = (server: string) => ServerIdentity | undefined;

/**
 * globalState key: the consent keys (server definition + config + model, see consentKey.ts) the user chose "Always
 * allow" for. A new key name, so grants stored by name alone before are not honoured.
 */
const ALWAYS_KEY = 'mcpSwitchboard.sampling.alwaysAllowedKeys';
/** The scheme of the read-only "Show request" documents. */
export const SAMPLING_REQUEST_SCHEME = 'mcp-sampling-request';
/** JSON-RPC error code a server sees when the user refuses (the spec's example uses -1 for "User rejected sampling request"). */
export const USER_REJECTED = -1;

interface Item extends vscode.QuickPickItem {
	id: ConsentChoice;
}

/** The settings read per request (so changes apply at once). */
function samplingSettings(server: string): { preferred: string | undefined; allowList: string[] } {
	const config = vscode.workspace.getConfiguration('mcpSwitchboard.sampling');
	const preferred = config.get<string>('preferredModel')?.trim() || undefined;
	const allowed = config.get<Record<string, unknown>>('allowedModels') ?? {};
	const entry = allowed[server];
	const allowList = Array.isArray(entry) ? entry.filter((e): e is string => typeof e === 'string') : [];
	return { preferred, allowList };
}

/** Images go to the model only when this VS Code has the data part and the model says it takes images. */
function imageSupport(model: vscode.LanguageModelChat): ((data: Uint8Array, mimeType: string) => unknown) | undefined {
	// LanguageModelDataPart and model capabilities are newer than the 1.104 API this extension targets (engines),
	// so they are looked up at run time and used only when the running VS Code provides them; elsewhere the image
	// becomes a short text note. Type them properly once engines.vscode moves past the version that added them.
	const DataPart = (
		vscode as unknown as { LanguageModelDataPart?: new (data: Uint8Array, mimeType: string) => unknown }
	).LanguageModelDataPart;
	const capabilities = (model as unknown as { capabilities?: { supportsImageToText?: boolean; imageInput?: boolean } })
		.capabilities;
	const accepts = capabilities?.supportsImageToText === true || capabilities?.imageInput === true;
	return DataPart && accepts ? (data, mimeType) => new DataPart(data, mimeType) : undefined;
}

function toChatMessages(
	messages: readonly NeutralMessage[],
	image: ((data: Uint8Array, mimeType: string) => unknown) | undefined,
): vscode.LanguageModelChatMessage[] {
	return messages.map((message) => {
		const role =
			message.role === 'assistant'
				? vscode.LanguageModelChatMessageRole.Assistant
				: vscode.LanguageModelChatMessageRole.User;
		const parts: vscode.LanguageModelInputPart[] = message.parts.map((part): vscode.LanguageModelInputPart => {
			switch (part.kind) {
				case 'text':
					return new vscode.LanguageModelTextPart(part.text);
				case 'image':
					return (image?.(part.data, part.mimeType) ??
						new vscode.LanguageModelTextPart(`[image omitted (${part.mimeType})]`)) as vscode.LanguageModelInputPart;
				case 'toolCall':
					// The API takes tool calls only in assistant messages and results only in user messages (as does the spec).
					return message.role === 'assistant'
						? new vscode.LanguageModelToolCallPart(part.callId, part.name, part.input)
						: new vscode.LanguageModelTextPart(`[tool call ${part.name} ${JSON.stringify(part.input)}]`);
				case 'toolResult':
					return message.role === 'user'
						? new vscode.LanguageModelToolResultPart(
								part.callId,
								part.text.map((t) => new vscode.LanguageModelTextPart(t)),
							)
						: new vscode.LanguageModelTextPart(part.text.join('\n'));
			}
		});
		return new vscode.LanguageModelChatMessage(role, parts.length > 0 ? parts : '');
	});
}

function modelLabel(model: vscode.LanguageModelChat): string {
	return `${model.name} (${model.vendor}/${model.id})`;
}

/**
 * Forwards `sampling/createMessage` to `vscode.lm` with the user's consent per server.
 *
 * Consent: a quick pick per request (Allow once, Allow for this session, Always allow, Deny, Show request…);
 * "for this session" is kept in memory, "always" in globalState per server, both forgotten by {@link resetConsent}.
 * Model: the first `modelPreferences.hints` entry matching a model's id, family or name, else the setting
 * `mcpSwitchboard.sampling.preferredModel`, else the first available; `mcpSwitchboard.sampling.allowedModels`
 * may restrict a server to some models. `systemPrompt` is sent as a first user message (1.104 has no system role);
 * `maxTokens`, `temperature` and `stopSequences` as `modelOptions`; `tools` / `toolChoice` as the request's tools and
 * tool mode, with `tool_use` / `tool_result` content mapped both ways. Every exchange is logged to the server's log.
 */
export class SamplingBroker implements vscode.Disposable {
	private readonly sessionAllowed = new Set<string>();
	private readonly queue: ServerInputQueue;
	private readonly ownQueue: ServerInputQueue | undefined;
	private readonly shown = new vscode.EventEmitter<SamplingPromptShown>();
	/** Fires when the consent quick pick shows (tests answer through it). */
	readonly onDidShowPrompt: vscode.Event<SamplingPromptShown> = this.shown.event;
	private readonly documents = new Map<string, string>();
	private readonly documentChanged = new vscode.EventEmitter<vscode.Uri>();
	private readonly disposables: vscode.Disposable[] = [];
	private readonly prompt: ConsentPrompt;
	private readonly selectModels: () => Thenable<readonly vscode.LanguageModelChat[]>;
	private requestCounter = 0;
	private identify: ServerIdentityLookup = () => undefined;

	constructor(
		private readonly context: vscode.ExtensionContext,
		private readonly log: (server: string) => vscode.LogOutputChannel,
		options: SamplingBrokerOptions = {},
	) {
		this.prompt = options.prompt ?? ((request, signal, turn) => this.quickPickConsent(request, signal, turn));
		this.ownQueue = options.queue ? undefined : new ServerInputQueue();
		this.queue = options.queue ?? (this.ownQueue as ServerInputQueue);
		this.selectModels = options.selectModels ?? (() => vscode.lm.selectChatModels());
		// A content provider makes "Show request" documents read-only (an untitled document could be edited and
		// would suggest the edit is what gets sent).
		this.disposables.push(
			vscode.workspace.registerTextDocumentContentProvider(SAMPLING_REQUEST_SCHEME, {
				onDidChange: this.documentChanged.event,
				provideTextDocumentContent: (uri) =>
					this.documents.get(uri.toString()) ?? 'This sampling request is no longer available.',
			}),
		);
	}

	/** Tells the broker where each server is defined (the Manager's view), so consent is keyed on more than a name. */
	setServerIdentity(lookup: ServerIdentityLookup): void {
		this.identify = lookup;
	}

	/**
	 * Asks for consent (unless remembered), then sends the request to the chosen model and returns its answer.
	 * Throws an McpError the server sees: code -1 when the user declines, InternalError when no model is available
	 * or the model fails, RequestCancelled when `signal` aborts.
	 */
	async sample(server: string, params: CreateMessageRequest, signal: AbortSignal): Promise<CreateMessageResult> {
		const log = this.log(server);
		log.info(
			`Sampling request: ${plural(params.messages.length, 'message')}, max ${plural(params.maxTokens, 'token')}${params.tools?.length ? `, ${plural(params.tools.length, 'tool')}` : ''}`,
		);
		if (log.logLevel <= vscode.LogLevel.Trace) {
			log.trace(`Sampling request in full: ${JSON.stringify(params)}`);
		}
		const settings = samplingSettings(server);
		const models = await this.selectModels();
		const choice = chooseModel(models, params.modelPreferences?.hints, settings);
		if (!choice) {
			const why =
				models.length === 0
					? 'No language model is available in VS Code (install or sign in to a chat model provider)'
					: `None of the available language models is allowed for ${server} by mcpSwitchboard.sampling.allowedModels`;
			log.warn(`Sampling refused: ${why}`);
			throw new McpError(ErrorCode.InternalError, why);
		}
		const model = choice.model;
		log.info(`Sampling model: ${modelLabel(model)} (by ${choice.reason})`);

		await this.consent(
			server,
			params,
			modelLabel(model),
			samplingConsentKey(this.identify(server), `${model.vendor}/${model.id}`, server),
			signal,
		);
		throwIfAborted(signal);

		const image = imageSupport(model);
		const neutral = toNeutralRequest(params, { acceptsImages: image !== undefined });
		const options: vscode.LanguageModelChatRequestOptions = {
			justification: `The MCP server "${server}" asked for a model response (sampling/createMessage).`,
			modelOptions: neutral.modelOptions,
		};
		if (neutral.tools.length > 0) {
			options.tools = neutral.tools;
			options.toolMode =
				neutral.toolMode === 'required'
					? vscode.LanguageModelChatToolMode.Required
					: vscode.LanguageModelChatToolMode.Auto;
		}
		const source = new vscode.CancellationTokenSource();
		const onAbort = () => source.cancel();
		signal.addEventListener('abort', onAbort, { once: true });
		try {
			const response = await model.sendRequest(toChatMessages(neutral.messages, image), options, source.token);
			const parts: ResponsePart[] = [];
			for await (const chunk of response.stream) {
				throwIfAborted(signal);
				if (chunk instanceof vscode.LanguageModelTextPart) {
					parts.push({ kind: 'text', text: chunk.value });
				} else if (chunk instanceof vscode.LanguageModelToolCallPart) {
					parts.push({ kind: 'toolCall', callId: chunk.callId, name: chunk.name, input: chunk.input });
				}
			}
			throwIfAborted(signal);
			const text = parts.map((p) => (p.kind === 'text' ? p.text : '')).join('');
			// The API does not say why a response ended: an answer that fills the budget most likely hit it.
			const reachedMaxTokens =
				text !== '' &&
				!parts.some((p) => p.kind === 'toolCall') &&
				(await countTokens(model, text, source.token)) >= params.maxTokens;
			const result = toCreateMessageResult(parts, model.id, { reachedMaxTokens });
			log.info(summarizeExchange(params, result));
			if (log.logLevel <= vscode.LogLevel.Trace) {
				log.trace(`Sampling result in full: ${JSON.stringify(result)}`);
			}
			return result;
		} catch (error) {
			if (signal.aborted) {
				log.info('Sampling cancelled');
				throw McpError.cancelled('sampling/createMessage', signal.reason);
			}
			if (error instanceof McpError) {
				throw error;
			}
			const message =
				error instanceof vscode.LanguageModelError ? `${error.message} (${error.code})` : errorMessage(error);
			log.error(`Sampling failed on ${modelLabel(model)}: ${message}`);
			throw new McpError(ErrorCode.InternalError, `The language model failed: ${message}`);
		} finally {
			signal.removeEventListener('abort', onAbort);
			source.dispose();
		}
	}

	/** Forgets every remembered consent (the command "MCP Switchboard: Reset Sampling Consent"). */
	async resetConsent(): Promise<void> {
		this.sessionAllowed.clear();
		await this.context.globalState.update(ALWAYS_KEY, undefined);
	}

	/** Whether a consent key (server definition, config and model) may sample without asking, and why. */
	private remembered(key: string): 'session' | 'always' | undefined {
		if (this.alwaysAllowed().includes(key)) {
			return 'always';
		}
		return this.sessionAllowed.has(key) ? 'session' : undefined;
	}

	dispose(): void {
		for (const d of this.disposables) d.dispose();
		this.shown.dispose();
		this.documentChanged.dispose();
		this.ownQueue?.dispose();
	}

	private alwaysAllowed(): string[] {
		const stored = this.context.globalState.get<unknown>(ALWAYS_KEY);
		return Array.isArray(stored) ? stored.filter((s): s is string => typeof s === 'string') : [];
	}

	private async consent(
		server: string,
		params: CreateMessageRequest,
		model: string,
		key: string,
		signal: AbortSignal,
	): Promise<void> {
		const log = this.log(server);
		const remembered = this.remembered(key);
		if (remembered) {
			log.info(`Sampling allowed (remembered: ${remembered === 'always' ? 'always' : 'this session'})`);
			return;
		}
		throwIfAborted(signal);
		// One prompt at a time, in the queue every server-initiated UI shares: a request the server cancels while it
		// waits leaves the queue at once; one the user dismisses from the waiting list is denied.
		const ask = async (turn: Turn): Promise<ConsentChoice | 'aborted'> => {
			// Remembered while this one waited (the user chose "session" or "always" for an earlier request).
			if (this.remembered(key)) {
				return 'once';
			}
			for (;;) {
				if (signal.aborted) return 'aborted';
				const choice = await this.prompt({ server, params, model }, signal, turn);
				if (choice !== 'show') {
					return choice;
				}
				await this.showRequest(server, params);
			}
		};
		const choice = await this.queue.run({ server, summary: `wants to use a language model (${model})`, signal }, ask, {
			dismissed: () => 'deny',
			aborted: () => 'aborted',
		});
		if (choice === 'aborted' || signal.aborted) {
			throw McpError.cancelled('sampling/createMessage', signal.reason);
		}
		switch (choice) {
			case 'always':
				await this.context.globalState.update(ALWAYS_KEY, [...new Set([...this.alwaysAllowed(), key])]);
				log.info(`Sampling allowed: always for this server as configured now, with ${model}`);
				return;
			case 'session':
				this.sessionAllowed.add(key);
				log.info('Sampling allowed for this session');
				return;
			case 'once':
				log.info('Sampling allowed once');
				return;
			case 'deny':
			case 'show':
				log.info('Sampling declined by the user');
				throw new McpError(USER_REJECTED, `The user declined ${server}'s sampling request`);
		}
	}

	/** Opens the full request in a read-only Markdown document beside the editor. */
	private async showRequest(server: string, params: CreateMessageRequest): Promise<void> {
		const uri = vscode.Uri.from({
			scheme: SAMPLING_REQUEST_SCHEME,
			path: `/${encodeURIComponent(server)}/request-${++this.requestCounter}.md`,
		});
		this.documents.set(uri.toString(), describeRequest(server, params));
		// Keep the last few only: they are small, but a chatty server should not grow this forever.
		while (this.documents.size > 20) {
			const oldest = this.documents.keys().next().value;
			if (oldest === undefined) break;
			this.documents.delete(oldest);
		}
		const document = await vscode.workspace.openTextDocument(uri);
		await vscode.window.showTextDocument(document, {
			preview: true,
			preserveFocus: true,
			viewColumn: vscode.ViewColumn.Beside,
		});
	}

	private quickPickConsent(request: ConsentRequest, signal: AbortSignal, turn: Turn): Promise<ConsentChoice> {
		const { server, params, model } = request;
		const pick = vscode.window.createQuickPick<Item>();
		// The title names who asks and which model answers; the placeholder what is sent (the full text: Show request).
		pick.title = `${server} wants to use a language model: ${model}`;
		const first = params.messages.find((m) => m.role === 'user');
		const text = first ? firstText(first.content) : '';
		const preview = text.length > 80 ? `${text.slice(0, 79)}…` : text;
		pick.placeholder = `${plural(params.messages.length, 'message')}, up to ${plural(params.maxTokens, 'token')}${params.tools?.length ? `, ${plural(params.tools.length, 'tool')}` : ''}${preview ? `: "${preview}"` : ''}`;
		// Deny first: Enter on a prompt that popped up unasked must not spend the user's model quota.
		pick.items = [
			{ id: 'deny', label: '$(close) Deny', description: `${server} gets an error` },
			{ id: 'once', label: '$(check) Allow once', description: 'this request only' },
			{ id: 'session', label: '$(pass) Allow for this session', description: `with ${model}, until VS Code restarts` },
			{
				id: 'always',
				label: '$(verified) Always allow',
				description: `for ${server} as configured now, with ${model}; reset with "MCP Switchboard: Reset Sampling Consent"`,
			},
			{
				id: 'show',
				label: '$(eye) Show request…',
				description: 'system prompt, messages, tokens, model preferences, tools',
			},
		];
		pick.ignoreFocusOut = true;
		return new Promise<ConsentChoice>((resolve, reject) => {
			let settled = false;
			const settle = (choice: ConsentChoice | Error) => {
				if (settled) return;
				settled = true;
				signal.removeEventListener('abort', onAbort);
				for (const d of disposables) d.dispose();
				pick.dispose();
				if (choice instanceof Error) reject(choice);
				else resolve(choice);
			};
			const onAbort = () => settle(McpError.cancelled('sampling/createMessage', signal.reason));
			const disposables = [
				pick.onDidAccept(() => {
					// Enter with no row focused yet takes the safe choice.
					settle(pick.selectedItems[0]?.id ?? pick.activeItems[0]?.id ?? 'deny');
				}),
				// Hidden (Escape, Ctrl+P, another quick input) is not a refusal: wait until the user opens it again.
				pick.onDidHide(() => {
					if (settled) return;
					void turn.hidden().then((how) => {
						if (settled) return;
						if (how === 'resume') show(true);
						else settle(how === 'dismiss' ? 'deny' : McpError.cancelled('sampling/createMessage', signal.reason));
					});
				}),
			];
			const show = (again = false) => {
				pick.show();
				if (again) reshowItems(pick);
				this.shown.fire({ server, input: pick });
			};
			signal.addEventListener('abort', onAbort, { once: true });
			show();
		});
	}
}

function firstText(content: unknown): string {
	const blocks = Array.isArray(content) ? content : [content];
	for (const block of blocks) {
		if (typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text') {
			return textOf((block as { text?: unknown }).text).replace(/\s+/g, ' ');
		}
	}
	return '';
}

function throwIfAborted(signal: AbortSignal): void {
	if (signal.aborted) {
		throw McpError.cancelled('sampling/createMessage', signal.reason);
	}
}

async function countTokens(
	model: vscode.LanguageModelChat,
	text: string,
	token: vscode.CancellationToken,
): Promise<number> {
	try {
		return await model.countTokens(text, token);
	} catch {
		return 0;
	}
}

/** Registers "MCP Switchboard: Reset Sampling Consent" (`mcpSwitchboard.resetSamplingConsent`). */
export function registerSamplingCommands(broker: SamplingBroker): vscode.Disposable {
	return vscode.commands.registerCommand(Commands.resetSamplingConsent, async () => {
		await broker.resetConsent();
		void vscode.window.showInformationMessage('Sampling consent reset: every server will ask again.');
	});
}
