// Test-only extension: registers "Fake Echo", a deterministic language model, so the sampling suites run end to end
// without Copilot or the network. Plain CommonJS so it needs no build step.
//
// What the model answers (the same input always gives the same output):
// - when the request offers tools and the conversation has no tool result yet: one tool call to the first tool
//   (or to the tool named by "call:<name>" in the last message, if offered), id "call-1", with every required
//   string property of its input schema set to "Paris";
// - otherwise text: "echo: " + JSON of what it received ({ messages: [{ role, text }], modelOptions, tools, toolMode,
//   toolResults, images }), so a test can check what reached the model, cut to max_tokens × 4 characters. Data parts
//   (images) show as "[data <mime> <bytes> bytes]" where they were, in messages and in tool results.
'use strict';
const vscode = require('vscode');

const VENDOR = 'switchboard-test';
const MODEL = {
	id: 'fake-echo',
	name: 'Fake Echo',
	family: 'echo',
	version: '1',
	maxInputTokens: 100000,
	maxOutputTokens: 4096,
	tooltip: 'A deterministic fake model for the MCP Switchboard e2e suites',
	capabilities: { toolCalling: true, imageInput: true },
};

function roleName(role) {
	return role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : 'user';
}

/** A data part (an image, for example), as VS Code hands it over. */
function isData(part) {
	return Boolean(part) && typeof part === 'object' && 'mimeType' in part && 'data' in part;
}

function describeMessages(messages) {
	const described = [];
	const toolResults = [];
	let images = 0;
	for (const message of messages) {
		const texts = [];
		for (const part of message.content) {
			if (part instanceof vscode.LanguageModelTextPart) texts.push(part.value);
			else if (part instanceof vscode.LanguageModelToolCallPart)
				texts.push(`[call ${part.name} ${JSON.stringify(part.input)}]`);
			else if (part instanceof vscode.LanguageModelToolResultPart) {
				const text = part.content
					.map((c) =>
						c instanceof vscode.LanguageModelTextPart
							? c.value
							: isData(c)
								? `[data ${c.mimeType} ${c.data.byteLength} bytes]`
								: '?',
					)
					.join('');
				toolResults.push({ callId: part.callId, text });
				texts.push(`[result ${part.callId}]`);
			} else if (isData(part)) {
				images++;
				texts.push(`[data ${part.mimeType} ${part.data.byteLength} bytes]`);
			}
		}
		described.push({ role: roleName(message.role), text: texts.join('') });
	}
	return { described, toolResults, images };
}

function toolInput(tool) {
	const schema = tool.inputSchema || {};
	const input = {};
	for (const name of schema.required || []) {
		const prop = (schema.properties || {})[name] || {};
		if (prop.type === 'string') input[name] = 'Paris';
	}
	return input;
}

/** @type {vscode.LanguageModelChatProvider} */
const provider = {
	provideLanguageModelChatInformation() {
		return [MODEL];
	},
	async provideLanguageModelChatResponse(_model, messages, options, progress, token) {
		const { described, toolResults, images } = describeMessages(messages);
		const tools = options.tools || [];
		if (tools.length > 0 && toolResults.length === 0) {
			// "call:<tool name>" in the last message picks that tool (chat suite); otherwise the first tool.
			const last = described[described.length - 1];
			const asked = last && /call:([\w.-]+)/.exec(last.text);
			const tool = (asked && tools.find((t) => t.name === asked[1])) || tools[0];
			progress.report(new vscode.LanguageModelToolCallPart('call-1', tool.name, toolInput(tool)));
			return;
		}
		const answer = {
			messages: described,
			modelOptions: options.modelOptions || {},
			tools: tools.map((t) => t.name),
			toolMode: options.toolMode === vscode.LanguageModelChatToolMode.Required ? 'required' : 'auto',
			toolResults,
			images,
		};
		let text = `echo: ${JSON.stringify(answer)}`;
		// Honours max_tokens (about 4 characters a token, as provideTokenCount counts), so a small budget truncates.
		const limit = Number((options.modelOptions || {}).max_tokens);
		if (Number.isFinite(limit) && limit > 0) text = text.slice(0, limit * 4);
		// Streamed in pieces, as a real model would.
		for (let i = 0; i < text.length; i += 40) {
			if (token.isCancellationRequested) return;
			progress.report(new vscode.LanguageModelTextPart(text.slice(i, i + 40)));
		}
	},
	async provideTokenCount(_model, text) {
		const value = typeof text === 'string' ? text : JSON.stringify(text);
		return Math.ceil(value.length / 4);
	},
};

function activate(context) {
	context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider(VENDOR, provider));
}

function deactivate() {}

module.exports = { activate, deactivate };
