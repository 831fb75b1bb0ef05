// The @mcp chat participant in the real VS Code: the chat panel sends "@mcp …" to the participant, which offers
// everything's tools to the "Fake Echo" model (test/e2e/fixture-extension), runs the tool call the model makes
// through the Manager against the real server-everything, and streams the model's answer into the chat.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
	CHAT_PARTICIPANT_ID,
	handleChatRequest,
	type ChatMetadata,
	type ChatOptions,
} from '../../../src/vscode/chat/chatParticipant';
import type { SwitchboardApi } from '../../../src/extension';
import { Commands } from '../../../src/vscode/commandIds';
import { resourceUri } from '../../../src/vscode/shared/resourceUris';
import { api, needDriver, quickInput, serverWithTool, waitForQuickInput } from './elicitationSupport';
import {
	answerInputBox,
	answerQuickPick,
	driver,
	extensionApi,
	pageTexts,
	pressKey,
	screenshot,
	test,
	waitFor,
} from './harness';

const SERVER = 'everything';
/** A 1×1 PNG (70 bytes). */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const ECHO = 'mcp__everything__echo';

async function fakeModel(): Promise<vscode.LanguageModelChat> {
	// Asking for models makes the workbench resolve the providers' models (see notes/real-vscode.md), so the chat
	// panel has a model to send the request to.
	const [model] = await waitFor(
		async () => {
			const models = await vscode.lm.selectChatModels({ vendor: 'switchboard-test' });
			return models.length > 0 && models;
		},
		{ timeoutMs: 20_000, message: 'the Fake Echo model of test/e2e/fixture-extension' },
	);
	assert.ok(model);
	return model;
}

/** The text of the chat panel's responses, newest last. */
async function chatResponses(): Promise<string[]> {
	return pageTexts('.interactive-item-container.interactive-response');
}

/** Sends `query` (in a new chat unless `newChat` is false) and waits for a response containing `expected`; returns that response's text. */
async function ask(query: string, expected: string, newChat = true): Promise<string> {
	needDriver();
	if (newChat) await vscode.commands.executeCommand('workbench.action.chat.newChat').then(undefined, () => undefined);
	await vscode.commands.executeCommand('workbench.action.chat.open', { query });
	return waitFor(
		async () => {
			const responses = await chatResponses();
			const last = responses[responses.length - 1] ?? '';
			if (!last.includes(expected)) throw new Error(`the last response is: ${last.slice(0, 600) || '(none)'}`);
			return last;
		},
		{ timeoutMs: 30_000, intervalMs: 250, message: `a chat response containing "${expected}"` },
	);
}

test(
	'@mcp in the chat panel: the model calls everything › echo, the server answers, and the answer shows in the chat',
	async () => {
		await serverWithTool(SERVER, 'echo');
		await fakeModel();
		// "call:<tool>" makes the fake model call that tool (with its required string "message" set to "Paris").
		const response = await ask(`@mcp call:${ECHO} say hello`, 'Echo: Paris');
		await screenshot('chat-echo');
		// The fake model answers with what it received: the tool result text it could only get from the real server.
		assert.match(response, /echo: \{/, "the model's answer streams into the chat");
		assert.match(
			response,
			/"toolResults":\[\{"callId":"call-1","text":"Echo: Paris"\}\]/,
			"the server's echo result went back to the model",
		);
	},
	{ timeoutMs: 90_000 },
);

test(
	'a second @mcp turn sends the earlier turns to the model as history',
	async () => {
		await serverWithTool(SERVER, 'echo');
		await fakeModel();
		await ask(`@mcp call:${ECHO} first turn`, 'Echo: Paris');
		const second = await ask(`@mcp call:${ECHO} second turn`, 'second turn', false);
		// The fake model lists the messages it received: the first prompt and the first answer come before the second prompt.
		const first = second.indexOf('first turn');
		assert.ok(first >= 0, `the first prompt reached the model: ${second.slice(0, 400)}`);
		assert.ok(second.indexOf('"role":"assistant"') > first, 'then the first answer');
		assert.ok(second.indexOf('second turn') > second.indexOf('"role":"assistant"'), 'then the new prompt');
	},
	{ timeoutMs: 90_000 },
);

test(
	"@mcp /tools lists the running servers' tools by qualified name",
	async () => {
		await serverWithTool(SERVER, 'echo');
		await fakeModel();
		const response = await ask('@mcp /tools', ECHO);
		await screenshot('chat-tools');
		assert.match(response, new RegExp(`\\b${SERVER}\\b`), 'the list names the server');
		assert.match(response, /mcp__everything__echo — Echoes back the input/i, 'echo is listed with its description');
	},
	{ timeoutMs: 60_000 },
);

/** A ChatResponseStream that records what the handler streamed. */
function recordingStream(): {
	stream: vscode.ChatResponseStream;
	markdown: string[];
	progress: string[];
	buttons: string[];
} {
	const markdown: string[] = [];
	const progress: string[] = [];
	const buttons: string[] = [];
	const known = {
		markdown: (value: string | vscode.MarkdownString) =>
			void markdown.push(typeof value === 'string' ? value : value.value),
		progress: (value: string) => void progress.push(value),
		button: (command: vscode.Command) => void buttons.push(command.command),
	};
	const stream = new Proxy(known, {
		get: (target, key) => (key in target ? target[key as keyof typeof known] : () => undefined),
	});
	return { stream: stream as unknown as vscode.ChatResponseStream, markdown, progress, buttons };
}

test(
	'the handler with the real model: progress names server and tool, the call is recorded, the answer carries the result',
	async () => {
		const { manager } = await api();
		await serverWithTool(SERVER, 'echo');
		const model = await fakeModel();
		const recorded = recordingStream();
		const request = {
			prompt: `call:${ECHO} hi`,
			command: undefined,
			model,
			references: [],
			toolReferences: [],
			toolInvocationToken: undefined,
		} as unknown as vscode.ChatRequest;
		const source = new vscode.CancellationTokenSource();
		const result = await handleChatRequest(manager, request, { history: [] }, recorded.stream, source.token);
		source.dispose();
		assert.equal(result.errorDetails, undefined, `no error: ${result.errorDetails?.message ?? ''}`);
		assert.deepEqual((result.metadata as ChatMetadata).toolCalls, [{ server: SERVER, tool: 'echo', ok: true }]);
		assert.deepEqual(recorded.progress, ['Calling everything › echo…']);
		const text = recorded.markdown.join('');
		assert.match(text, /"toolResults":\[\{"callId":"call-1","text":"Echo: Paris"\}\]/);
		// Every running tool was offered to the model under its qualified name.
		const offered = (JSON.parse(text.slice(text.indexOf('{'))) as { tools: string[] }).tools;
		assert.deepEqual(
			offered,
			manager.allTools().map((t) => t.qualifiedName),
		);
		assert.ok(offered.includes(ECHO));
		assert.equal(CHAT_PARTICIPANT_ID, 'mcpSwitchboard.mcp');
	},
	{ timeoutMs: 60_000 },
);

/** Runs the handler as the chat would, with the real Fake Echo model and a recording stream. */
async function runHandler(
	prompt: string,
	options: ChatOptions = {},
	references: vscode.ChatPromptReference[] = [],
): Promise<{
	result: vscode.ChatResult;
	calls: ChatMetadata['toolCalls'];
	text: string;
	toolResults: { callId: string; text: string }[];
	messages: { role: string; text: string }[];
	images: number;
	buttons: string[];
	/** The notes under the answer on results capped for the model. */
	notes: string[];
}> {
	const { manager } = await api();
	const model = await fakeModel();
	const recorded = recordingStream();
	const request = {
		prompt,
		command: undefined,
		model,
		references,
		toolReferences: [],
		toolInvocationToken: undefined,
	} as unknown as vscode.ChatRequest;
	const source = new vscode.CancellationTokenSource();
	try {
		const result = await handleChatRequest(manager, request, { history: [] }, recorded.stream, source.token, options);
		// The notes on capped results come after the model's answer (chatContext.ts endAnswer): not part of its echo.
		const cappedNote = /\n\n_[^\n]* returned about [^\n]*\n\n/g;
		const whole = recorded.markdown.join('');
		const notes = [...whole.matchAll(cappedNote)].map((match) => match[0]);
		const text = whole.replace(cappedNote, '');
		const json = text.slice(text.indexOf('echo: {') + 'echo: '.length);
		const echo = JSON.parse(json) as {
			toolResults: { callId: string; text: string }[];
			messages: { role: string; text: string }[];
			images: number;
		};
		return {
			result,
			calls: (result.metadata as ChatMetadata).toolCalls,
			text,
			toolResults: echo.toolResults,
			messages: echo.messages,
			images: echo.images,
			buttons: recorded.buttons,
			notes,
		};
	} finally {
		source.dispose();
	}
}

test(
	"a server's instructions reach the model through @mcp, named by the server, before the conversation",
	async () => {
		await serverWithTool(SERVER, 'echo');
		const { messages } = await runHandler(`call:${ECHO} hi`);
		// server-everything answers initialize with its instructions (docs/instructions.md in its package).
		const first = messages[0]?.text ?? '';
		assert.match(first, /## MCP server "everything"\n\n# Everything Server – Server Instructions/, first.slice(0, 300));
		assert.match(messages[1]?.text ?? '', /call:mcp__everything__echo hi/, 'the prompt follows');
	},
	{ timeoutMs: 60_000 },
);

test(
	'a failing tool call goes back to the model as an error result, and the chat answers on',
	async () => {
		await serverWithTool(SERVER, 'get-sum');
		// The fake model fills only string arguments, so get-sum (two required numbers) is called without a and b.
		const { result, calls, text, toolResults } = await runHandler('call:mcp__everything__get-sum');
		assert.equal(result.errorDetails, undefined);
		assert.deepEqual(calls, [{ server: SERVER, tool: 'get-sum', ok: false }]);
		assert.equal(toolResults.length, 1);
		assert.match(toolResults[0]?.text ?? '', /^Tool error: /, 'the model is told the call failed');
		assert.match(text, /echo: \{/, 'and its answer still streams');
	},
	{ timeoutMs: 60_000 },
);

/** A stdio MCP server whose one tool is marked destructive; its result echoes the arguments it received. */
const destructiveServer = `
const readline = require('node:readline');
const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n');
const tool = {
	name: 'wipe',
	description: 'Wipes the target',
	annotations: { destructiveHint: true, readOnlyHint: false },
	inputSchema: { type: 'object', properties: { target: { type: 'string' } }, required: ['target'] },
};
readline.createInterface({ input: process.stdin }).on('line', (line) => {
	const message = JSON.parse(line);
	if (message.id === undefined || message.method === undefined) return;
	const reply = (result) => send({ jsonrpc: '2.0', id: message.id, result });
	if (message.method === 'initialize') return reply({ protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'wiper', version: '1.0.0' } });
	if (message.method === 'tools/list') return reply({ tools: [tool] });
	if (message.method === 'tools/call') return reply({ content: [{ type: 'text', text: 'wiped ' + JSON.stringify(message.params.arguments) }] });
	if (message.method === 'ping') return reply({});
	send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
});
`;

test(
	'a tool the server marks destructive runs only after the user says so in a quick pick',
	async () => {
		needDriver();
		const { manager } = await api();
		const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-chat-wiper-')), 'server.js');
		fs.writeFileSync(script, destructiveServer);
		const name = 'wiper';
		// An earlier test's server of this name must be gone first, so the calls below reach this one.
		await waitFor(() => manager.get(name) === undefined, { timeoutMs: 15_000, message: `the earlier '${name}' gone` });
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const previous = config.inspect<Record<string, unknown>>('servers')?.globalValue;
		await config.update(
			'servers',
			{ ...(previous ?? {}), [name]: { command: process.execPath, args: [script] } },
			vscode.ConfigurationTarget.Global,
		);
		try {
			await waitFor(() => manager.get(name)?.tools.length === 1, {
				timeoutMs: 20_000,
				message: `'${name}' running with its tool`,
			});
			const ask = async (answer: string) => {
				const run = runHandler('call:mcp__wiper__wipe');
				const consent = await waitForQuickInput('may delete or overwrite data');
				assert.match(consent.text, /Arguments: \{"target":"Paris"\}/, 'the consent shows the arguments');
				await answerQuickPick(answer);
				return run;
			};
			const declined = await ask('Deny');
			assert.deepEqual(declined.calls, [{ server: name, tool: 'wipe', ok: false }]);
			assert.match(declined.toolResults[0]?.text ?? '', /^Tool error: the user declined to run wipe/);
			const allowed = await ask('Allow once');
			assert.deepEqual(allowed.calls, [{ server: name, tool: 'wipe', ok: true }]);
			assert.equal(allowed.toolResults[0]?.text, 'wiped {"target":"Paris"}');
		} finally {
			await config.update('servers', previous, vscode.ConfigurationTarget.Global);
			fs.rmSync(path.dirname(script), { recursive: true, force: true });
		}
	},
	{ timeoutMs: 60_000 },
);

/** A stdio MCP server whose read-only tool `dump` returns 2 MiB of numbered lines (and nothing else). */
const bigResultServer = `
const readline = require('node:readline');
const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n');
const lines = [];
for (let i = 0, size = 0; size < 2 * 1024 * 1024; i++) { const line = 'row ' + String(i).padStart(7, '0') + ' ' + 'x'.repeat(48); lines.push(line); size += line.length + 1; }
const text = lines.join('\\n').slice(0, 2 * 1024 * 1024);
const tool = { name: 'dump', description: 'Dumps the whole table', annotations: { readOnlyHint: true }, inputSchema: { type: 'object', properties: {} } };
readline.createInterface({ input: process.stdin }).on('line', (line) => {
	const message = JSON.parse(line);
	if (message.id === undefined || message.method === undefined) return;
	const reply = (result) => send({ jsonrpc: '2.0', id: message.id, result });
	if (message.method === 'initialize') return reply({ protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'big', version: '1.0.0' } });
	if (message.method === 'tools/list') return reply({ tools: [tool] });
	if (message.method === 'tools/call') return reply({ content: [{ type: 'text', text }] });
	if (message.method === 'ping') return reply({});
	send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
});
`;

test(
	'a 2 MB result is capped for the model (head, size, reference) and opens whole in an editor from the chat',
	async () => {
		needDriver();
		const { manager } = await api();
		const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-chat-big-')), 'server.js');
		fs.writeFileSync(script, bigResultServer);
		const name = 'bigresult';
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const previous = config.inspect<Record<string, unknown>>('servers')?.globalValue;
		await config.update(
			'servers',
			{ ...(previous ?? {}), [name]: { command: process.execPath, args: [script] } },
			vscode.ConfigurationTarget.Global,
		);
		try {
			await waitFor(() => manager.get(name)?.tools.length === 1, {
				timeoutMs: 20_000,
				message: `'${name}' running with its tool`,
			});
			// The default limit, 25,000 estimated tokens: the model gets the first 100,000 characters and a note.
			const { calls, toolResults, result, notes } = await runHandler('call:mcp__bigresult__dump');
			assert.deepEqual(calls, [{ server: name, tool: 'dump', ok: true }]);
			const sent = toolResults[0]?.text ?? '';
			assert.ok(sent.startsWith('row 0000000 '), sent.slice(0, 80));
			assert.ok(sent.length < 101_000, `the model got ${sent.length} characters, not 2 MB`);
			assert.match(
				sent,
				/\[Result cut: about 524288 tokens \(2\.0 MB\) in all, the first 100000 characters are above\. The whole result is stored as "r\d+": call read_result/,
			);
			const metadata = result.metadata as ChatMetadata;
			const id = metadata.cappedResults?.[0] ?? '';
			assert.equal(notes.length, 1, notes.join(' | '));
			assert.ok(
				notes[0]!.includes(
					`[Open Full Result](command:${Commands.openFullResult}?${encodeURIComponent(JSON.stringify([id]))}`,
				),
				notes[0],
			);
			const ledgerRow = metadata.ledger?.find((row) => row.server === name);
			assert.ok(ledgerRow && ledgerRow.results > 25_000 && ledgerRow.results < 25_200, JSON.stringify(ledgerRow));
			assert.match(id, /^r\d+$/);
			// (This handler runs in the test's bundle, with a store of its own; the panel below uses the extension's.)
			// In the chat panel, with a per-server limit of 200 tokens: the button opens the whole result.
			await config.update('context.resultMaxTokensByTool', { [name]: 200 }, vscode.ConfigurationTarget.Global);
			// The ledger's line ends the answer: waiting for its link waits for the whole answer.
			const response = await ask('@mcp call:mcp__bigresult__dump', 'By kind');
			assert.match(response, /bigresult › dump returned about 524,288 tokens \(2\.0 MB\)/);
			assert.match(
				response,
				/Result cut: .* the first 800 characters are above/,
				'the model got the head and the note',
			);
			// The model's answer stays on screen above the notes: VS Code folds only what comes before a non-Markdown part.
			assert.match(response, /echo: \{/, "the model's answer is not folded away");
			assert.match(response, /Context: about [\d,]+ tokens of MCP definitions, instructions and results \(/);
			assert.doesNotMatch(response, /<details>|<summary>/, 'no HTML the chat shows as text');
			await clickAnswerLink('Open Full Result', 'full-result');
			const opened = await waitFor(
				() => {
					const document = vscode.window.activeTextEditor?.document;
					return document?.uri.scheme === 'switchboard-full-result' && document;
				},
				{ timeoutMs: 15_000, message: 'the whole result in an editor' },
			);
			assert.equal(opened.getText().length, 2 * 1024 * 1024);
			await screenshot('chat-full-result');
			await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
			// The ledger's "By kind" link opens its table as a Markdown preview.
			await clickAnswerLink('By kind', 'ledger-table');
			const preview = await waitFor(
				() =>
					vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((tab) => tab.label.includes('MCP context')),
				{ timeoutMs: 15_000, message: 'the ledger table in a preview' },
			);
			await screenshot('chat-ledger-table');
			await vscode.window.tabGroups.close(preview);
			// Its document, for the rows of the answer above (the handler's, with the default limit).
			const uri = await vscode.commands.executeCommand<vscode.Uri>(Commands.showContextLedger, metadata.ledger);
			const table = (await vscode.workspace.openTextDocument(uri)).getText();
			assert.match(table, /\| bigresult \| 20 \| 0 \| 0 \| 25,\d{3} \| 25,\d{3} \|/, table);
			assert.match(table, /\| \*\*all\*\* \|/, table);
		} finally {
			await config.update('context.resultMaxTokensByTool', undefined, vscode.ConfigurationTarget.Global);
			await config.update('servers', previous, vscode.ConfigurationTarget.Global);
			fs.rmSync(path.dirname(script), { recursive: true, force: true });
		}
	},
	{ timeoutMs: 90_000 },
);

test(
	'in the chat panel @mcp asks before a destructive tool inside the conversation too: its Allow once button runs the tool',
	async () => {
		needDriver();
		const { manager } = await api();
		const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-chat-card-')), 'server.js');
		fs.writeFileSync(script, destructiveServer);
		const name = 'wiper';
		await waitFor(() => manager.get(name) === undefined, { timeoutMs: 15_000, message: `the earlier '${name}' gone` });
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const previous = config.inspect<Record<string, unknown>>('servers')?.globalValue;
		await config.update(
			'servers',
			{ ...(previous ?? {}), [name]: { command: process.execPath, args: [script] } },
			vscode.ConfigurationTarget.Global,
		);
		try {
			await waitFor(() => manager.get(name)?.tools.length === 1, {
				timeoutMs: 20_000,
				message: `'${name}' running with its tool`,
			});
			await fakeModel();
			await vscode.commands.executeCommand('workbench.action.chat.newChat').then(undefined, () => undefined);
			await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@mcp call:mcp__wiper__wipe' });
			// The question in the conversation: what runs, with its arguments, and a button per answer.
			let last = '';
			await waitFor(
				async () => {
					last = (await chatResponses()).at(-1) ?? '';
					// The arguments are a highlighted code block beside it (an editor; seen on the screenshot).
					return /wants\s+to\s+run\s+wipe/.test(last) && last.includes('Allow once');
				},
				{ timeoutMs: 30_000, message: () => `the consent card in the conversation (last: ${last.slice(0, 300)})` },
			);
			// The same question at the top of the window, for the keyboard.
			await waitForQuickInput('may delete or overwrite data');
			await screenshot('chat-consent-card');
			await driver({
				action: 'click',
				selector: '.interactive-item-container.interactive-response .monaco-button:has-text("Allow once")',
			});
			// The answer streams in: read it until the whole result is there (a read mid-stream ended at "wiped").
			const result = /wiped \{\\?"target\\?":\\?"Paris\\?"\}/;
			let answered = '';
			await waitFor(
				async () => {
					answered = (await chatResponses()).at(-1) ?? '';
					return answered.includes('Allowed here') && result.test(answered);
				},
				{
					timeoutMs: 30_000,
					message: () => `the tool run after the button, its result in the answer (last: ${answered.slice(-300)})`,
				},
			);
			const open = await driver({
				action: 'evaluate',
				script: `[...document.querySelectorAll('.quick-input-widget')].some((w) => w.style.display !== 'none' && w.offsetParent !== null)`,
			});
			assert.equal(open, false, 'the question at the top went away');
		} finally {
			await config.update('servers', previous, vscode.ConfigurationTarget.Global);
			fs.rmSync(path.dirname(script), { recursive: true, force: true });
		}
	},
	{ timeoutMs: 90_000 },
);

/** Resolves what `run` resolves, or fails when it is still waiting (for a question nobody should have asked) after `ms`. */
async function withoutQuestion<T>(run: Promise<T>, ms = 15_000): Promise<T> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	try {
		return await Promise.race([
			run,
			new Promise<never>(
				(_, reject) => (timer = setTimeout(() => reject(new Error('the call waited: was the user asked again?')), ms)),
			),
		]);
	} finally {
		clearTimeout(timer);
	}
}

test(
	'consent choices: allowed for this session or always in this workspace runs without asking; review forgets one, reset forgets all',
	async () => {
		needDriver();
		const { manager, consent } = await extensionApi<SwitchboardApi>();
		const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-chat-consent-')), 'server.js');
		fs.writeFileSync(script, destructiveServer);
		const name = 'wiper';
		// An earlier test's server of this name must be gone first, so the calls below reach this one.
		await waitFor(() => manager.get(name) === undefined, { timeoutMs: 15_000, message: `the earlier '${name}' gone` });
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const previous = config.inspect<Record<string, unknown>>('servers')?.globalValue;
		await config.update(
			'servers',
			{ ...(previous ?? {}), [name]: { command: process.execPath, args: [script] } },
			vscode.ConfigurationTarget.Global,
		);
		await consent.forget();
		const call = () => runHandler('call:mcp__wiper__wipe', { consent });
		const answered = async (answer: string) => {
			const run = call();
			await waitForQuickInput('may delete or overwrite data');
			// Right after the previous pick closed the widget can still show its rows for a moment (seen once in a full
			// run: one row, the old filter): wait until this pick's own four choices are on screen, in order.
			const question = await waitFor(
				async () => {
					const shown = await quickInput();
					return shown?.text.includes('may delete or overwrite data') && shown.rows.length === 4 ? shown : undefined;
				},
				{ timeoutMs: 15_000, message: 'the consent pick with its four choices' },
			);
			assert.deepEqual(question.rows, [
				'Deny',
				'Allow once',
				'Allow for this session',
				'Always allow this tool in this workspace',
			]);
			await answerQuickPick(answer);
			return run;
		};
		try {
			await waitFor(() => manager.get(name)?.tools.length === 1, {
				timeoutMs: 20_000,
				message: `'${name}' running with its tool`,
			});
			assert.deepEqual((await answered('Allow for this session')).calls, [{ server: name, tool: 'wipe', ok: true }]);
			assert.deepEqual(
				(await withoutQuestion(call())).calls,
				[{ server: name, tool: 'wipe', ok: true }],
				'allowed for the session: not asked again',
			);
			assert.deepEqual(consent.entries(), [{ server: name, tool: 'wipe', scope: 'session' }]);

			// MCP: Review Tool Permissions… lists it; picking it forgets it.
			void vscode.commands.executeCommand(Commands.reviewToolPermissions);
			await waitForQuickInput('pick one to forget it');
			await answerQuickPick(`${name} › wipe`);
			await waitFor(() => consent.entries().length === 0, {
				timeoutMs: 15_000,
				message: 'the permission to be forgotten',
			});

			assert.deepEqual((await answered('Always allow this tool in this workspace')).calls, [
				{ server: name, tool: 'wipe', ok: true },
			]);
			assert.deepEqual(consent.entries(), [{ server: name, tool: 'wipe', scope: 'always' }]);
			assert.deepEqual(
				(await withoutQuestion(call())).calls,
				[{ server: name, tool: 'wipe', ok: true }],
				'always allowed: not asked',
			);

			// MCP: Reset Tool Permissions forgets everything: the next call asks again.
			await vscode.commands.executeCommand(Commands.resetToolPermissions);
			assert.deepEqual(consent.entries(), []);
			const declined = await answered('Deny');
			assert.deepEqual(declined.calls, [{ server: name, tool: 'wipe', ok: false }]);
			assert.match(declined.toolResults[0]?.text ?? '', /declined/);
		} finally {
			await consent.forget();
			await config.update('servers', previous, vscode.ConfigurationTarget.Global);
			fs.rmSync(path.dirname(script), { recursive: true, force: true });
		}
	},
	{ timeoutMs: 90_000 },
);

test(
	"a tool without annotations asks too (the spec's defaults: not read-only, maybe destructive); Allow once runs it once",
	async () => {
		needDriver();
		const { manager } = await api();
		const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-chat-plain-')), 'server.js');
		const plain = destructiveServer.replace('annotations: { destructiveHint: true, readOnlyHint: false },', '');
		assert.notEqual(plain, destructiveServer);
		fs.writeFileSync(script, plain);
		const name = 'plain';
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const previous = config.inspect<Record<string, unknown>>('servers')?.globalValue;
		await config.update(
			'servers',
			{ ...(previous ?? {}), [name]: { command: process.execPath, args: [script] } },
			vscode.ConfigurationTarget.Global,
		);
		try {
			await waitFor(() => manager.get(name)?.tools.length === 1, {
				timeoutMs: 20_000,
				message: `'${name}' running with its tool`,
			});
			for (let i = 0; i < 2; i++) {
				const run = runHandler('call:mcp__plain__wipe');
				const question = await waitForQuickInput('does not say it only reads');
				assert.match(question.text, /plain › wipe/);
				assert.doesNotMatch(question.text, /may delete or overwrite/, 'no destructive warning without destructiveHint');
				await answerQuickPick('Allow once');
				assert.deepEqual((await run).calls, [{ server: name, tool: 'wipe', ok: true }]);
			}
		} finally {
			await config.update('servers', previous, vscode.ConfigurationTarget.Global);
			fs.rmSync(path.dirname(script), { recursive: true, force: true });
		}
	},
	{ timeoutMs: 60_000 },
);

test(
	'with 1,000 tools the request gets the best matches within 128, pinned tools always, and the answer says how many were left out',
	async () => {
		needDriver();
		const { manager } = await api();
		const name = 'many';
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const previous = config.inspect<Record<string, unknown>>('servers')?.globalValue;
		const fixture = path.join(process.env.MCP_SWITCHBOARD_E2E_REPO ?? '', 'test/fixtures/servers/manager/mcpServer.js');
		await config.update(
			'servers',
			{ ...(previous ?? {}), [name]: { command: process.execPath, args: [fixture, '--tools', '1000'] } },
			vscode.ConfigurationTarget.Global,
		);
		await config.update('chat.pinnedTools', ['mcp__many__tool_999'], vscode.ConfigurationTarget.Global);
		try {
			await waitFor(() => manager.get(name)?.tools.length === 1002, {
				timeoutMs: 30_000,
				message: `'${name}' running with its 1,002 tools`,
			});
			const total = manager.allTools().length;
			// "env" is described as "An environment variable": the request's words find it among 1,000 look-alikes.
			const run = runHandler('call:mcp__many__env which environment variable holds the PATH?');
			// The fixture's tools carry no annotations, so the call asks first.
			await waitForQuickInput('many › env');
			await answerQuickPick('Allow once');
			const { calls, text } = await run;
			assert.deepEqual(
				calls,
				[{ server: name, tool: 'env', ok: true }],
				'the model could call the matching tool: it was sent',
			);
			const offered = (JSON.parse(text.slice(text.indexOf('echo: {') + 'echo: '.length)) as { tools: string[] }).tools;
			assert.equal(offered.length, 128);
			assert.ok(offered.includes('mcp__many__env'));
			assert.ok(offered.includes('mcp__many__tool_999'), 'the pinned tool went along');
			assert.match(text, new RegExp(`128 of ${total} MCP tools sent to the model .*; ${total - 128} left out`));
			assert.match(text, /mcpSwitchboard\.chat\.pinnedTools/, 'and says how to pin');
		} finally {
			await config.update('chat.pinnedTools', undefined, vscode.ConfigurationTarget.Global);
			await config.update('servers', previous, vscode.ConfigurationTarget.Global);
		}
	},
	{ timeoutMs: 90_000 },
);

/** Runs `@mcp /<command> <prompt>` through the handler with the real Fake Echo model; what it streamed and returned. */
async function runCommand(
	command: string,
	prompt: string,
): Promise<{ result: vscode.ChatResult; text: string; buttons: string[]; progress: string[] }> {
	const { manager } = await api();
	const model = await fakeModel();
	const recorded = recordingStream();
	const request = {
		prompt,
		command,
		model,
		references: [],
		toolReferences: [],
		toolInvocationToken: undefined,
	} as unknown as vscode.ChatRequest;
	const source = new vscode.CancellationTokenSource();
	try {
		const result = await handleChatRequest(manager, request, { history: [] }, recorded.stream, source.token);
		return { result, text: recorded.markdown.join(''), buttons: recorded.buttons, progress: recorded.progress };
	} finally {
		source.dispose();
	}
}

test(
	"@mcp /servers shows each server's state with a Start or Restart button",
	async () => {
		await serverWithTool(SERVER, 'echo');
		const { text, buttons } = await runCommand('servers', '');
		assert.match(text, /\*\*everything\*\*: running · \d+ tools, \d+ prompts, \d+ resources/);
		assert.ok(buttons.includes('mcpSwitchboard.restartServer'), buttons.join(', '));
	},
	{ timeoutMs: 60_000 },
);

test(
	'@mcp /servers in the chat panel: every server line stays on screen with its button',
	async () => {
		needDriver();
		await serverWithTool(SERVER, 'echo');
		await fakeModel();
		const response = await ask('@mcp /servers', 'Restart everything');
		await screenshot('chat-servers');
		assert.match(response, /everything: running · \d+ tools/, 'the line is not folded away');
	},
	{ timeoutMs: 60_000 },
);

test(
	'@mcp /call server.tool {json} runs exactly that tool and shows its result; without arguments the schema form asks',
	async () => {
		needDriver();
		await serverWithTool(SERVER, 'echo');
		const { text, result } = await runCommand('call', 'everything.echo {"message": "exactly this"}');
		assert.match(text, /\*\*everything › echo\*\*\n\nEcho: exactly this/);
		assert.deepEqual(
			(result.metadata as { call?: { tool: string } }).call?.tool,
			'echo',
			'a follow-up can ask the model to summarise it',
		);
		const structured = await runCommand('call', 'everything.get-structured-content {"location": "New York"}');
		assert.match(structured.text, /```json\n\{/, 'structured content shows as JSON');
		// No arguments: the palette's form asks for the required message.
		const run = runCommand('call', 'everything.echo');
		await waitForQuickInput('message');
		await answerInputBox('typed in the form');
		assert.match((await run).text, /Echo: typed in the form/);
		const bad = await runCommand('call', 'everything.echo {not json');
		assert.match(bad.text, /not valid JSON/);
		const unknown = await runCommand('call', 'nowhere.tool');
		assert.match(unknown.text, /Usage: `\/call server\.tool/);
	},
	{ timeoutMs: 60_000 },
);

test(
	"@mcp /prompt server.prompt a=b puts the prompt's messages into the conversation and the model answers them",
	async () => {
		await serverWithTool(SERVER, 'echo');
		const { text, progress } = await runCommand('prompt', 'everything.args-prompt city=Lisbon');
		// args-prompt answers one user message: the count reads "1 message", in the right number.
		assert.ok(
			progress.some((p) => /everything › args-prompt: 1 message$/.test(p)),
			progress.join(' | '),
		);
		const echo = JSON.parse(text.slice(text.indexOf('echo: {') + 'echo: '.length)) as {
			messages: { role: string; text: string }[];
		};
		assert.ok(
			echo.messages.some((m) => m.role === 'user' && /Lisbon/.test(m.text)),
			"the prompt's message (with the argument) reached the model",
		);
	},
	{ timeoutMs: 60_000 },
);

test(
	"@mcp /read uri attaches the resource to the request the model answers; /read alone picks it from the Servers view's resources",
	async () => {
		needDriver();
		const manager = await serverWithTool(SERVER, 'echo');
		const resources = manager.get(SERVER)?.resources ?? [];
		const resource = resources.find((r) => r.mimeType?.startsWith('text/')) ?? resources[0];
		assert.ok(resource, 'everything lists resources');
		const { text } = await runCommand('read', `${resource.uri} what is in it?`);
		const echo = JSON.parse(text.slice(text.indexOf('echo: {') + 'echo: '.length)) as { messages: { text: string }[] };
		const sent = echo.messages.map((m) => m.text).join('\n');
		assert.ok(sent.includes(`[resource: uri ${resource.uri}`), `the resource went to the model: ${sent.slice(0, 300)}`);
		assert.ok(sent.includes('what is in it?'));
		// No URI: a quick pick of the tree's resources (filterable by name or URI); the picked one goes to the model.
		const other = resources.find((r) => r.uri !== resource.uri) ?? resource;
		const picking = runCommand('read', '');
		const pick = await waitForQuickInput('The resource to attach');
		const first = resources[0]!;
		assert.ok(
			pick.rows.includes(first.title ?? first.name),
			`the tree's resources are offered: ${pick.rows.join(', ')}`,
		);
		await answerQuickPick(other.title ?? other.name);
		const picked = await picking;
		const pickedEcho = JSON.parse(picked.text.slice(picked.text.indexOf('echo: {') + 'echo: '.length)) as {
			messages: { text: string }[];
		};
		assert.ok(
			pickedEcho.messages.some((m) => m.text.includes(`[resource: uri ${other.uri}`)),
			'the picked resource went to the model',
		);
		// Escape: nothing is read, the answer says how to use it.
		const cancelled = runCommand('read', '');
		await waitForQuickInput('The resource to attach');
		await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
		assert.match((await cancelled).text, /No resource picked\. Usage: `\/read/);
	},
	{ timeoutMs: 60_000 },
);

test(
	"a tool's image reaches the model as an image (a data part), its resource links described with URI and name",
	async () => {
		await serverWithTool(SERVER, 'get-tiny-image');
		const image = await runHandler('call:mcp__everything__get-tiny-image show me');
		assert.deepEqual(image.calls, [{ server: SERVER, tool: 'get-tiny-image', ok: true }]);
		const result = image.toolResults[0]?.text ?? '';
		assert.match(result, /^Here's the image you requested:\[data image\/png \d+ bytes\]/, result.slice(0, 300));
		const bytes = Number(/\[data image\/png (\d+) bytes\]/.exec(result)?.[1]);
		assert.ok(bytes > 1000, `the PNG's bytes, decoded: ${bytes}`);
		const links = await runHandler('call:mcp__everything__get-resource-links');
		const described = links.toolResults[0]?.text ?? '';
		assert.match(described, /\[resource link: uri \S+, name "[^"]+"/, described.slice(0, 400));
		assert.match(described, /`@mcp \/read <uri>`/, 'the model can tell the user how to attach one');
	},
	{ timeoutMs: 60_000 },
);

test(
	'references the user attaches (a file, a selection, an image file, a resource document) reach the model as content before the prompt',
	async () => {
		const manager = await serverWithTool(SERVER, 'echo');
		const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
		assert.ok(folder, 'the e2e workspace is open');
		const hello = vscode.Uri.joinPath(folder, 'hello.txt');
		const helloText = new TextDecoder().decode(await vscode.workspace.fs.readFile(hello));
		const png = vscode.Uri.joinPath(folder, 'attached-e2e.png');
		await vscode.workspace.fs.writeFile(png, Buffer.from(PNG_1X1, 'base64'));
		const resource = manager.get(SERVER)?.resources.find((r) => r.mimeType?.startsWith('text/'));
		assert.ok(resource, 'everything lists a text resource');
		try {
			const document = await vscode.workspace.openTextDocument(hello);
			const firstLine = document.lineAt(0);
			const references: vscode.ChatPromptReference[] = [
				{ id: 'vscode.file', value: hello, range: [0, 6] },
				{ id: 'vscode.selection', value: new vscode.Location(hello, firstLine.range), range: [7, 17] },
				{ id: 'vscode.file', value: png, range: [18, 24] },
				{ id: 'mcp.resource', value: resourceUri(SERVER, resource.uri), range: [25, 30] },
			];
			// No tools offered (isEnabled: none), so the model answers at once with what it received.
			const noTools: ChatOptions = { isEnabled: () => false };
			const { messages, images } = await runHandler('what do these say?', noTools, references);
			const user = messages.at(-1)?.text ?? '';
			assert.ok(user.includes(`[attached file hello.txt (plaintext)]\n${helloText}`), user.slice(0, 400));
			assert.ok(
				user.includes(`[attached selection of hello.txt, line 1 (plaintext)]\n${firstLine.text}`),
				'the selection, with its lines',
			);
			assert.ok(
				user.includes(
					'[attached image attached-e2e.png, image/png, sent as the image that follows][data image/png 70 bytes]',
				),
				'the image file as an image',
			);
			assert.ok(
				user.includes(`[attached resource of the MCP server '${SERVER}'][resource: uri ${resource.uri}`),
				'the resource document, read through its server',
			);
			assert.ok(user.endsWith('what do these say?'), 'the prompt comes last');
			assert.equal(images, 1);
			// A reference that cannot be read says so; the rest still go.
			const missing = await runHandler('and this?', noTools, [
				{ id: 'vscode.file', value: vscode.Uri.joinPath(folder, 'no-such-file.txt') },
			]);
			assert.match(
				missing.messages.at(-1)?.text ?? '',
				/^\[attached no-such-file\.txt: could not be read: .+\]and this\?$/,
			);
		} finally {
			await vscode.workspace.fs.delete(png).then(undefined, () => undefined);
		}
	},
	{ timeoutMs: 60_000 },
);

test(
	'what VS Code adds for its own agent (instruction files, its customizations index) does not reach the model; what the user attached does',
	async () => {
		await serverWithTool(SERVER, 'echo');
		const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
		assert.ok(folder, 'the e2e workspace is open');
		const hello = vscode.Uri.joinPath(folder, 'hello.txt');
		const agents = vscode.Uri.joinPath(folder, 'AGENTS.md');
		await vscode.workspace.fs.writeFile(
			agents,
			new TextEncoder().encode('# Agents\n\nAlways read files with #tool:read/readFile (AGENTS-MARKER).\n'),
		);
		try {
			// The references as VS Code 1.139 builds them for every participant (workbench `yB()` and `qOo()`).
			const references = [
				{
					id: 'vscode.customizations.index',
					value: '<skills>Delegate with #tool:agent/runSubagent (INDEX-MARKER)</skills>',
					modelDescription: 'Chat customizations index',
				},
				{
					id: `vscode.instructions.file.root__${agents.toString()}`,
					value: agents,
					modelDescription: 'Prompt instructions file',
				},
				{ id: `vscode.instructions.file.reference__${agents.toString()}`, value: agents },
				{ id: 'vscode.file', value: hello, range: [0, 6] },
			] as vscode.ChatPromptReference[];
			const { messages } = await runHandler('what does it say?', { isEnabled: () => false }, references);
			const sent = messages.map((m) => m.text).join('\n');
			assert.doesNotMatch(sent, /MARKER|#tool:/, `nothing of VS Code's own context: ${sent.slice(0, 400)}`);
			assert.ok(sent.includes('[attached file hello.txt (plaintext)]'), 'the file the user attached still goes');
			// In the chat panel, with AGENTS.md in the workspace, as a person asks.
			await fakeModel();
			const response = await ask('@mcp hello from a folder with AGENTS.md', 'hello from a folder with AGENTS.md');
			assert.doesNotMatch(response, /AGENTS-MARKER|#tool:/, response.slice(0, 600));
		} finally {
			await vscode.workspace.fs.delete(agents).then(undefined, () => undefined);
		}
	},
	{ timeoutMs: 90_000 },
);

/**
 * Marks the first visible element matching `selector` whose text is `text` (trimmed) with `data-e2e-target="<mark>"`,
 * for the driver's real click; returns 'ok' or what it saw.
 */
/**
 * Clicks the link with `text` in a chat answer once it is drawn. A long answer scrolls the link out of the chat's
 * (virtual) list view, where the mouse cannot reach it: the link gets the DOM click event a mouse click gives it.
 */
async function clickAnswerLink(text: string, mark: string): Promise<void> {
	const link = '.interactive-item-container.interactive-response a';
	await waitFor(async () => (await driver({ action: 'evaluate', script: markScript(link, text, mark) })) === 'ok', {
		timeoutMs: 30_000,
		intervalMs: 300,
		message: `the ${text} link`,
	});
	await driver({ action: 'evaluate', script: `document.querySelector('[data-e2e-target="${mark}"]')?.click()` });
}

function markScript(selector: string, text: string, mark: string): string {
	return `(() => {
		for (const old of document.querySelectorAll('[data-e2e-target="${mark}"]')) old.removeAttribute('data-e2e-target');
		const all = [...document.querySelectorAll(${JSON.stringify(selector)})];
		const found = all.find((e) => e.offsetParent !== null && (e.textContent ?? '').trim() === ${JSON.stringify(text)});
		if (!found) return 'none of ' + all.length + ': ' + all.map((e) => (e.textContent ?? '').trim()).slice(0, 12).join(' | ');
		found.setAttribute('data-e2e-target', '${mark}');
		return 'ok';
	})()`;
}

/** Waits until `selector` with `text` is on screen, then clicks it with a real mouse click (`button` right: a right-click). */
async function clickText(
	selector: string,
	text: string,
	mark: string,
	prepare?: () => PromiseLike<unknown>,
	button: 'left' | 'right' = 'left',
): Promise<void> {
	let seen = '';
	await waitFor(
		async () => {
			await prepare?.();
			seen = (await driver({ action: 'evaluate', script: markScript(selector, text, mark) })) as string;
			return seen === 'ok';
		},
		{ timeoutMs: 30_000, intervalMs: 300, message: `"${text}" on screen (${seen})` },
	);
	await driver({ action: 'click', selector: `[data-e2e-target="${mark}"]`, button });
}

test(
	"Ask @mcp About Resource from a resource row's context menu: the chat opens with /read and the resource, the question typed after it, and the model receives the resource's text",
	async () => {
		needDriver();
		const { manager, tree, treeView } = await extensionApi<SwitchboardApi>();
		await serverWithTool(SERVER, 'echo');
		await fakeModel();
		const node = tree
			.getChildren(tree.groupNode(SERVER, 'resources'))
			.find((n) => n.kind === 'resource' && n.resource.mimeType?.startsWith('text/'));
		assert.ok(node && node.kind === 'resource', 'the Servers view shows a text resource of everything');
		const read = await manager.readResource(SERVER, node.resource.uri);
		const first = read.contents[0];
		const resourceText = first && 'text' in first ? String(first.text) : '';
		assert.ok(resourceText.length > 0, 'the resource has text');
		const item = tree.getTreeItem(node).label;
		const rowLabel = typeof item === 'string' ? item : item?.label;
		assert.ok(rowLabel, 'the resource row has a label');
		await vscode.commands.executeCommand('workbench.action.chat.newChat').then(undefined, () => undefined);
		// What a person does: right-click the row, pick the entry. (A left click opens the resource in an editor and moves
		// the focus there, so Shift+F10 would open the editor's menu instead of the row's.)
		await vscode.commands.executeCommand('workbench.view.extension.mcpSwitchboard');
		const revealRow = () =>
			treeView.reveal(node, { expand: true, select: false, focus: false }).then(undefined, () => undefined);
		const menuItems = '.context-view .monaco-menu .action-label';
		let menu = '';
		await waitFor(
			async () => {
				menu = (await pageTexts(menuItems)).join(' | ');
				if (menu.includes('Ask @mcp About Resource')) return true;
				// No menu yet, or another one (a right-click that landed while the row was redrawn): close it, right-click again.
				if (menu) await pressKey('Escape');
				await clickText('.pane-body .monaco-list-row .label-name', rowLabel, 'resource-row', revealRow, 'right');
				return false;
			},
			{
				timeoutMs: 45_000,
				intervalMs: 1_000,
				message: () => `the resource row's context menu (last menu seen: ${menu || 'none'})`,
			},
		);
		await screenshot('resource-context-menu');
		await driver({ action: 'click', selector: `${menuItems}:text-is("Ask @mcp About Resource")` });
		// The chat input holds "@mcp /read <uri> " with the cursor after it: the person types the question and sends it.
		await waitFor(
			async () => {
				// The narrow chat input wraps the URI over lines (and the editor writes spaces as U+00A0): compare without spacing.
				const typed = (await pageTexts('.interactive-input-part .monaco-editor .view-lines'))
					.join('')
					.replace(/\s/g, '');
				return typed.includes(node.resource.uri) && typed.includes('@mcp/read');
			},
			{ timeoutMs: 30_000, message: "the chat input with /read and the resource's URI" },
		);
		await driver({ action: 'type', text: 'what is in it?' });
		await pressKey('Enter');
		const response = await waitFor(
			async () => {
				const last = (await chatResponses()).at(-1) ?? '';
				return last.includes('what is in it?') && last;
			},
			{ timeoutMs: 60_000, intervalMs: 250, message: 'the answer to the question about the resource' },
		);
		await screenshot('ask-about-resource');
		// The Fake Echo model answers with the messages it received: the resource's text, read through the server.
		// Three of its lines of plain prose (the echo shows the messages as JSON, so line ends are escaped there, and the chat
		// renders the answer as Markdown, so lines with Markdown marks would not read as written).
		const lines = resourceText
			.split(/\r?\n/)
			.map((line) => line.trim())
			.filter((line) => line.length > 20 && /^[A-Za-z][A-Za-z0-9 .,;:'()-]+$/.test(line))
			.slice(0, 3);
		assert.ok(lines.length > 0, 'the resource has lines to look for');
		for (const line of lines)
			assert.ok(
				response.includes(JSON.stringify(line).slice(1, -1)),
				`"${line}" of the resource reached the model: ${response.slice(0, 600)}`,
			);
		assert.ok(response.includes(node.resource.uri));
	},
	{ timeoutMs: 120_000 },
);

test(
	'a file and a selection attached in the chat panel reach the model with the @mcp request',
	async () => {
		needDriver();
		await serverWithTool(SERVER, 'echo');
		await fakeModel();
		const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
		assert.ok(folder, 'the e2e workspace is open');
		const notes = vscode.Uri.joinPath(folder, 'attached-notes.md');
		const lines = ['# Attached notes', 'The launch code word is PELICAN-42.', 'A third line nobody selected.'];
		await vscode.workspace.fs.writeFile(notes, new TextEncoder().encode(lines.join('\n')));
		try {
			// As the workbench's own "Add File to Chat" does: the chat opens with the file and a selection attached, the
			// request typed; VS Code turns the attachments into the request's references.
			await vscode.commands.executeCommand('workbench.action.chat.newChat').then(undefined, () => undefined);
			await vscode.commands.executeCommand('workbench.action.chat.open', {
				query: '@mcp what do the attached notes say?',
				// The selection is the workbench's own range type (1-based lines and columns): "A file" of hello.txt's first line.
				attachFiles: [
					notes,
					{ uri: hello(folder), range: { startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: 7 } },
				],
			});
			const response = await waitFor(
				async () => {
					const last = (await chatResponses()).at(-1) ?? '';
					return last.includes('what do the attached notes say?') && last;
				},
				{ timeoutMs: 60_000, intervalMs: 250, message: 'the answer with the attachments' },
			);
			await screenshot('chat-attached-references');
			assert.ok(
				response.includes('[attached file attached-notes.md'),
				`the file went to the model: ${response.slice(0, 800)}`,
			);
			assert.ok(response.includes('The launch code word is PELICAN-42.'), 'with its content');
			assert.ok(
				/\[attached selection of hello\.txt, line 1 \(plaintext\)\]\\nA file(?! for the tests)/.test(response),
				`the selection, with only its text: ${response.slice(0, 800)}`,
			);
		} finally {
			await vscode.workspace.fs.delete(notes).then(undefined, () => undefined);
		}
	},
	{ timeoutMs: 90_000 },
);

function hello(folder: vscode.Uri): vscode.Uri {
	return vscode.Uri.joinPath(folder, 'hello.txt');
}

test(
	'with no server running the handler says so, offers Show Servers, and still forwards the prompt to the model without tools',
	async () => {
		const model = await fakeModel();
		// A Manager with nothing configured (the extension's own has everything running, which other suites need).
		const empty = {
			servers: () => [],
			allTools: () => [],
			findTool: () => undefined,
			// Servers never listed start before the tools are chosen (#28): here there are none.
			listUncached: async () => undefined,
		} as unknown as Parameters<typeof handleChatRequest>[0];
		const recorded = recordingStream();
		const request = {
			prompt: 'hello there',
			command: undefined,
			model,
			references: [],
			toolReferences: [],
			toolInvocationToken: undefined,
		} as unknown as vscode.ChatRequest;
		const source = new vscode.CancellationTokenSource();
		const result = await handleChatRequest(empty, request, { history: [] }, recorded.stream, source.token);
		source.dispose();
		assert.equal(result.errorDetails, undefined);
		const text = recorded.markdown.join('');
		assert.match(text, /No MCP server is configured/);
		assert.deepEqual(recorded.buttons, ['mcpSwitchboard.showServers']);
		const echo = JSON.parse(text.slice(text.indexOf('echo: {') + 'echo: '.length)) as {
			tools: string[];
			messages: { text: string }[];
		};
		assert.deepEqual(echo.tools, [], 'no tools offered');
		assert.equal(echo.messages.at(-1)?.text, 'hello there');
	},
	{ timeoutMs: 30_000 },
);
