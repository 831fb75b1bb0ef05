import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CreateMessageRequestSchema, type CreateMessageRequest } from '../../src/protocol/schema';
import {
	chooseModel,
	describeRequest,
	summarizeExchange,
	SYSTEM_PROMPT_PREFIX,
	toCreateMessageResult,
	toNeutralRequest,
	type ModelInfo,
} from '../../src/vscode/sampling/samplingMapping';

/** Parsed like the client parses it off the wire, so the tests see what sampling.ts sees. */
function request(raw: unknown): CreateMessageRequest {
	return CreateMessageRequestSchema.parse(raw);
}

// What server-everything's `trigger-sampling-request` sends.
const everything = request({
	messages: [{ role: 'user', content: { type: 'text', text: 'Resource trigger-sampling-request context: hello' } }],
	systemPrompt: 'You are a helpful test server.',
	maxTokens: 100,
	temperature: 0.7,
});

test('the system prompt becomes a first user message, clearly marked, before the server messages', () => {
	const neutral = toNeutralRequest(everything);
	assert.equal(neutral.messages.length, 2);
	assert.deepEqual(neutral.messages[0], {
		role: 'user',
		parts: [{ kind: 'text', text: `${SYSTEM_PROMPT_PREFIX}\n\nYou are a helpful test server.` }],
	});
	assert.deepEqual(neutral.messages[1], {
		role: 'user',
		parts: [{ kind: 'text', text: 'Resource trigger-sampling-request context: hello' }],
	});
});

test('maxTokens, temperature and stopSequences reach the model options; absent ones are not invented', () => {
	assert.deepEqual(toNeutralRequest(everything).modelOptions, { max_tokens: 100, temperature: 0.7 });
	const withStops = toNeutralRequest(request({ messages: [], maxTokens: 5, stopSequences: ['\n\n', 'END'] }));
	assert.deepEqual(withStops.modelOptions, { max_tokens: 5, stop: ['\n\n', 'END'] });
	assert.equal(
		toNeutralRequest(request({ messages: [], maxTokens: 5 })).messages.length,
		0,
		'no system prompt, no extra message',
	);
});

test('images go to the model as bytes when it accepts images, else as a note that says what was left out', () => {
	const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
	const params = request({
		messages: [
			{
				role: 'user',
				content: [
					{ type: 'text', text: 'What is this?' },
					{ type: 'image', data: png.toString('base64'), mimeType: 'image/png' },
				],
			},
		],
		maxTokens: 10,
	});
	const withImages = toNeutralRequest(params, { acceptsImages: true }).messages[0]!.parts[1]!;
	assert.equal(withImages.kind, 'image');
	assert.ok(withImages.kind === 'image');
	assert.equal(withImages.mimeType, 'image/png');
	assert.deepEqual(Buffer.from(withImages.data), png);

	const without = toNeutralRequest(params).messages[0]!.parts[1]!;
	assert.ok(without.kind === 'text');
	assert.match(without.text, /image omitted \(image\/png\).*does not accept images/);
});

test('audio and other blocks become text that names them', () => {
	const parts = toNeutralRequest(
		request({
			messages: [
				{
					role: 'user',
					content: [
						{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
						{ type: 'resource', resource: { uri: 'file:///a.txt', text: 'file body' } },
					],
				},
			],
			maxTokens: 10,
		}),
	).messages[0]!.parts;
	assert.deepEqual(
		parts.map((p) => (p.kind === 'text' ? p.text : p.kind)),
		['[audio omitted (audio/wav): the language model API takes no audio]', 'file body'],
	);
});

// A tool loop as the spec's "sampling with tools" describes it: the assistant asked for a tool, the server ran it.
const toolLoop = request({
	messages: [
		{ role: 'user', content: { type: 'text', text: 'What is the weather in Paris?' } },
		{ role: 'assistant', content: [{ type: 'tool_use', id: 'call-1', name: 'get_weather', input: { city: 'Paris' } }] },
		{
			role: 'user',
			content: [{ type: 'tool_result', toolUseId: 'call-1', content: [{ type: 'text', text: '18°C, cloudy' }] }],
		},
	],
	tools: [
		{
			name: 'get_weather',
			description: 'Weather for a city',
			inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
		},
		{ name: 'get_time', title: 'Local time', inputSchema: { type: 'object' } },
	],
	toolChoice: { mode: 'auto' },
	maxTokens: 200,
});

test('tools become language model tools; tool_use and tool_result become tool call and tool result parts', () => {
	const neutral = toNeutralRequest(toolLoop);
	assert.deepEqual(neutral.tools, [
		{
			name: 'get_weather',
			description: 'Weather for a city',
			inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
		},
		{ name: 'get_time', description: 'Local time', inputSchema: { type: 'object' } },
	]);
	assert.equal(neutral.toolMode, 'auto');
	assert.deepEqual(neutral.messages[1], {
		role: 'assistant',
		parts: [{ kind: 'toolCall', callId: 'call-1', name: 'get_weather', input: { city: 'Paris' } }],
	});
	assert.deepEqual(neutral.messages[2], {
		role: 'user',
		parts: [{ kind: 'toolResult', callId: 'call-1', text: ['18°C, cloudy'] }],
	});
});

test('a failed tool result says so, and structured content is used when there is no text', () => {
	const neutral = toNeutralRequest(
		request({
			messages: [
				{
					role: 'user',
					content: [
						{ type: 'tool_result', toolUseId: 'a', content: [{ type: 'text', text: 'city not found' }], isError: true },
						{ type: 'tool_result', toolUseId: 'b', content: [], structuredContent: { temp: 18 } },
					],
				},
			],
			maxTokens: 10,
		}),
	);
	assert.deepEqual(neutral.messages[0]!.parts, [
		{ kind: 'toolResult', callId: 'a', text: ['The tool call failed:', 'city not found'] },
		{ kind: 'toolResult', callId: 'b', text: ['{"temp":18}'] },
	]);
});

test('toolChoice required forces a tool call; none sends no tools at all', () => {
	assert.equal(toNeutralRequest({ ...toolLoop, toolChoice: { mode: 'required' } }).toolMode, 'required');
	const none = toNeutralRequest({ ...toolLoop, toolChoice: { mode: 'none' } });
	assert.deepEqual(none.tools, []);
	assert.equal(none.toolMode, 'auto');
});

test('a text answer is one text block with stopReason endTurn, or maxTokens when the budget ran out', () => {
	const parts = [
		{ kind: 'text', text: 'Hello, ' },
		{ kind: 'text', text: 'world' },
	] as const;
	assert.deepEqual(toCreateMessageResult(parts, 'fake-echo'), {
		role: 'assistant',
		content: { type: 'text', text: 'Hello, world' },
		model: 'fake-echo',
		stopReason: 'endTurn',
	});
	assert.equal(toCreateMessageResult(parts, 'fake-echo', { reachedMaxTokens: true }).stopReason, 'maxTokens');
});

test('tool calls in the answer become tool_use blocks after the text, with stopReason toolUse', () => {
	const result = toCreateMessageResult(
		[
			{ kind: 'text', text: 'Let me check.' },
			{ kind: 'toolCall', callId: 'c1', name: 'get_weather', input: { city: 'Paris' } },
			{ kind: 'toolCall', callId: 'c2', name: 'get_time', input: {} },
		],
		'fake-echo',
	);
	assert.deepEqual(result, {
		role: 'assistant',
		content: [
			{ type: 'text', text: 'Let me check.' },
			{ type: 'tool_use', id: 'c1', name: 'get_weather', input: { city: 'Paris' } },
			{ type: 'tool_use', id: 'c2', name: 'get_time', input: {} },
		],
		model: 'fake-echo',
		stopReason: 'toolUse',
	});
	// Round trip: the server sends the answer back as the assistant's turn; it maps to the same tool calls.
	const next = toNeutralRequest(request({ messages: [{ role: 'assistant', content: result.content }], maxTokens: 1 }));
	assert.deepEqual(next.messages[0]!.parts.slice(1), [
		{ kind: 'toolCall', callId: 'c1', name: 'get_weather', input: { city: 'Paris' } },
		{ kind: 'toolCall', callId: 'c2', name: 'get_time', input: {} },
	]);
});

const models: ModelInfo[] = [
	{ id: 'gpt-4o-mini', family: 'gpt-4o-mini', name: 'GPT-4o mini', vendor: 'copilot' },
	{ id: 'claude-sonnet-4.5', family: 'claude-sonnet-4.5', name: 'Claude Sonnet 4.5', vendor: 'copilot' },
	{ id: 'fake-echo', family: 'echo', name: 'Fake Echo', vendor: 'switchboard-test' },
];

test('the model is the first hint that matches id, family or name, in the server order', () => {
	assert.equal(chooseModel(models, [{ name: 'claude' }, { name: 'gpt' }])?.model.id, 'claude-sonnet-4.5');
	assert.equal(chooseModel(models, [{ name: 'llama' }, { name: 'GPT-4O' }])?.model.id, 'gpt-4o-mini');
	assert.equal(chooseModel(models, [{ name: 'Echo' }])?.model.id, 'fake-echo', 'family or name, case-insensitive');
	assert.equal(chooseModel(models, [{ name: 'claude' }])?.reason, 'hint "claude"');
});

test('without a matching hint the setting decides, then the first available model', () => {
	assert.deepEqual(chooseModel(models, [{ name: 'llama' }], { preferred: 'fake-echo' }), {
		model: models[2],
		reason: 'setting "fake-echo"',
	});
	assert.deepEqual(chooseModel(models, undefined, { preferred: 'nothing-like-it' }), {
		model: models[0],
		reason: 'first available',
	});
	assert.equal(chooseModel([], [{ name: 'gpt' }]), undefined);
});

test("the user's preferred model outranks the server's hints; hints decide when the setting matches nothing", () => {
	assert.deepEqual(chooseModel(models, [{ name: 'claude' }], { preferred: 'gpt-4o-mini' }), {
		model: models[0],
		reason: 'setting "gpt-4o-mini"',
	});
	assert.deepEqual(chooseModel(models, [{ name: 'claude' }], { preferred: 'nothing-like-it' }), {
		model: models[1],
		reason: 'hint "claude"',
	});
});

test('a per-server allow-list narrows the models before hints are matched', () => {
	const allowList = ['fake-echo', 'switchboard-test/other'];
	assert.equal(chooseModel(models, [{ name: 'claude' }], { allowList })?.model.id, 'fake-echo');
	assert.equal(chooseModel(models, [], { allowList: ['copilot/claude-sonnet-4.5'] })?.model.id, 'claude-sonnet-4.5');
	assert.equal(
		chooseModel(models, [], { allowList: ['gpt'] }),
		undefined,
		'allow-list entries match whole names, not substrings',
	);
	assert.equal(chooseModel(models, [], { allowList: [''] })?.model.id, 'gpt-4o-mini', 'a blank entry is no allow-list');
});

test('the "Show request" document shows everything that will be sent', () => {
	const text = describeRequest('everything', {
		...toolLoop,
		systemPrompt: 'Be brief.',
		temperature: 0.2,
		stopSequences: ['END'],
		modelPreferences: { hints: [{ name: 'claude' }], intelligencePriority: 0.8 },
	});
	for (const expected of [
		'Sampling request from "everything"',
		'Max tokens: 200',
		'Temperature: 0.2',
		'Stop sequences: "END"',
		'Model hints: claude',
		'intelligencePriority: 0.8',
		'Be brief.',
		'## Message 1 (user)',
		'What is the weather in Paris?',
		'[tool call get_weather (id call-1) with input {"city":"Paris"}]',
		'18°C, cloudy',
		'## Tools (tool choice: auto)',
		'### get_weather',
	]) {
		assert.ok(text.includes(expected), `missing ${expected}`);
	}
});

test('the log line names the model, the answer and the stop reason', () => {
	const line = summarizeExchange(everything, toCreateMessageResult([{ kind: 'text', text: 'hi' }], 'fake-echo'));
	assert.equal(line, 'sampling: 1 message, 0 tools, max 100 tokens → fake-echo: 2 chars of text, stopReason endTurn');
});
