import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLogger } from '../../src/common/logger';
import { McpClient, type ClientOptions } from '../../src/protocol/client';
import { isPlainCallToolResult, isPlainListToolsResult } from '../../src/protocol/plainResults';
import { ErrorCode } from '../../src/protocol/jsonrpc';
import { McpError } from '../../src/protocol/mcpError';
import { outputValidatorStats } from '../../src/protocol/outputValidator';
import { schemas, SUPPORTED_PROTOCOL_VERSIONS } from '../../src/protocol/schema';
import { FakeServer, NO_REPLY, type FakeServerOptions } from '../fixtures/fakeServer';
import { linkedPair } from '../fixtures/linkedTransport';

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

async function connect(
	options: { server?: FakeServerOptions; client?: ClientOptions; setup?: (server: FakeServer) => void } = {},
) {
	const pair = linkedPair();
	const server = new FakeServer(pair.server, options.server);
	options.setup?.(server);
	const logger = new MemoryLogger('debug');
	const client = await McpClient.connect(pair.client, { name: 'fake', logger, ...options.client });
	return { pair, server, client, logger };
}

function isMcpError(code: number, pattern?: RegExp) {
	return (error: unknown) =>
		error instanceof McpError && error.code === code && (!pattern || pattern.test(error.message));
}

test('the handshake offers 2025-11-25, sends initialized after the answer, and exposes what the server said', async () => {
	const { pair, server, client } = await connect({
		server: {
			serverInfo: {
				name: 'srv',
				version: '2.0.0',
				title: 'Server',
				websiteUrl: 'https://example.com',
				icons: [{ src: 'https://example.com/i.png' }],
			},
			instructions: 'Use the echo tool.',
		},
	});
	const init = server.requests('initialize')[0];
	assert.equal(init?.params?.protocolVersion, '2025-11-25');
	assert.deepEqual(init?.params?.clientInfo, { name: 'mcp-switchboard', version: '0.1.0' });
	assert.deepEqual(init?.params?.capabilities, {});
	await flush();
	const order = server.received.map((m) => ('method' in m ? m.method : 'response'));
	// The era policy of auto: initialize first over stdio (it has a back-channel), no server/discover once answered.
	assert.deepEqual(order, ['initialize', 'notifications/initialized']);
	assert.equal(client.era, 'legacy');
	assert.equal(client.protocolVersion, '2025-11-25');
	assert.equal(client.serverInfo.title, 'Server');
	assert.equal(client.serverInfo.websiteUrl, 'https://example.com');
	assert.deepEqual(client.serverInfo.icons, [{ src: 'https://example.com/i.png' }]);
	assert.equal(client.instructions, 'Use the echo tool.');
	assert.equal(client.name, 'fake');
	assert.equal(client.transportKind, 'stdio');
	// Only the negotiated version reaches the transport (no probe's version before it).
	assert.deepEqual(pair.client.protocolVersions, ['2025-11-25']);
});

for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
	test(`a server answering protocol ${version} is accepted`, async () => {
		const { client, pair } = await connect({ server: { protocolVersion: version } });
		assert.equal(client.protocolVersion, version);
		assert.deepEqual(pair.client.protocolVersions, [version]);
	});
}

test('a server answering an unknown protocol version fails connect with both versions named, and is closed', async () => {
	const pair = linkedPair();
	const server = new FakeServer(pair.server, { protocolVersion: '2023-01-01' });
	await assert.rejects(
		McpClient.connect(pair.client, { name: 'old' }),
		isMcpError(ErrorCode.ProtocolViolation, /old answered with protocol version 2023-01-01.*offered 2025-11-25/),
	);
	assert.equal(pair.client.isClosed, true);
	assert.equal(server.notifications('notifications/initialized').length, 0);
});

test('an initialize error or malformed answer fails connect and closes the transport', async () => {
	const failing = linkedPair();
	new FakeServer(failing.server).on('initialize', () => {
		throw new McpError(-32603, 'database unavailable');
	});
	await assert.rejects(McpClient.connect(failing.client), /database unavailable/);
	assert.equal(failing.client.isClosed, true);

	const malformed = linkedPair();
	new FakeServer(malformed.server).on('initialize', () => ({
		protocolVersion: '2025-11-25',
		serverInfo: { name: 'x' },
	}));
	await assert.rejects(
		McpClient.connect(malformed.client, { name: 'bad' }),
		isMcpError(ErrorCode.ProtocolViolation, /bad answered initialize with an invalid result/),
	);
	assert.equal(malformed.client.isClosed, true);
});

test('connect fails with the transport error when the transport cannot start', async () => {
	const pair = linkedPair();
	pair.client.startError = new McpError(
		ErrorCode.TransportFailed,
		'Cannot start "nope": command not found (check PATH)',
	);
	await assert.rejects(McpClient.connect(pair.client), isMcpError(ErrorCode.TransportFailed, /check PATH/));
});

test('connect times out after connectTimeoutMs when the server never answers initialize', async () => {
	const pair = linkedPair();
	new FakeServer(pair.server).on('initialize', () => NO_REPLY);
	// The timeout timer is unref()ed (a real transport's process or socket keeps Node alive); the linked pair holds nothing.
	const keepAlive = setInterval(() => {}, 1000);
	try {
		await assert.rejects(
			McpClient.connect(pair.client, { connectTimeoutMs: 20 }),
			isMcpError(ErrorCode.RequestTimeout, /initialize/),
		);
	} finally {
		clearInterval(keepAlive);
	}
	// Spec: initialize is never cancelled; the client just closes.
	assert.equal(pair.client.sent.filter((m) => 'method' in m && m.method === 'notifications/cancelled').length, 0);
	assert.equal(pair.client.isClosed, true);
});

test('capabilities are advertised only for the handlers supplied', async () => {
	const all = await connect({
		client: {
			handlers: {
				roots: () => [],
				sampling: async () => ({ role: 'assistant', content: { type: 'text', text: '' }, model: 'm' }),
				samplingTools: true,
				elicitation: async () => ({ action: 'decline' }),
				elicitationUrl: true,
			},
		},
	});
	assert.deepEqual(all.server.requests('initialize')[0]?.params?.capabilities, {
		roots: { listChanged: true },
		sampling: { tools: {} },
		elicitation: { form: {}, url: {} },
	});
	const some = await connect({ client: { handlers: { elicitation: async () => ({ action: 'decline' }) } } });
	assert.deepEqual(some.server.requests('initialize')[0]?.params?.capabilities, { elicitation: { form: {} } });
});

test('methods the server did not advertise fail with CapabilityMissing without being sent', async () => {
	const { client, server } = await connect({ server: { capabilities: { tools: {}, resources: {} } } });
	server.on('ping', () => ({}));
	await assert.rejects(
		client.listPrompts(),
		isMcpError(ErrorCode.CapabilityMissing, /fake does not support prompts\/list.*'prompts'/),
	);
	await assert.rejects(client.getPrompt('p'), isMcpError(ErrorCode.CapabilityMissing));
	await assert.rejects(
		client.complete({ type: 'ref/prompt', name: 'p' }, { name: 'a', value: '' }),
		isMcpError(ErrorCode.CapabilityMissing, /completions/),
	);
	await assert.rejects(client.setLoggingLevel('info'), isMcpError(ErrorCode.CapabilityMissing, /logging/));
	await assert.rejects(client.subscribe('file:///a'), isMcpError(ErrorCode.CapabilityMissing, /resources\.subscribe/));
	await client.ping();
	await flush();
	const sent = server.received.filter((m) => 'method' in m).map((m) => ('method' in m ? m.method : ''));
	assert.deepEqual(sent, ['initialize', 'notifications/initialized', 'ping']);
});

test('list methods follow nextCursor to the end', async () => {
	const pages =
		<T>(items: T[], size: number) =>
		(params: Record<string, unknown>) => {
			const start = params.cursor === undefined ? 0 : Number(params.cursor);
			const next = start + size < items.length ? String(start + size) : undefined;
			return { page: items.slice(start, start + size), next };
		};
	const tools = Array.from({ length: 25 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' } }));
	const resources = Array.from({ length: 7 }, (_, i) => ({ uri: `file:///${i}`, name: `r${i}` }));
	const templates = Array.from({ length: 3 }, (_, i) => ({ uriTemplate: `x://{id}/${i}`, name: `t${i}` }));
	const prompts = Array.from({ length: 5 }, (_, i) => ({ name: `p${i}` }));
	const { client, server } = await connect({
		setup: (s) => {
			const page = (items: unknown[], field: string) => (params: Record<string, unknown>) => {
				const { page: slice, next } = pages(items, 2)(params);
				return next === undefined ? { [field]: slice } : { [field]: slice, nextCursor: next };
			};
			s.on('tools/list', page(tools, 'tools'));
			s.on('resources/list', page(resources, 'resources'));
			s.on('resources/templates/list', page(templates, 'resourceTemplates'));
			s.on('prompts/list', page(prompts, 'prompts'));
		},
	});
	assert.deepEqual(await client.listTools(), tools);
	assert.equal(server.requests('tools/list').length, 13);
	assert.deepEqual(await client.listResources(), resources);
	assert.deepEqual(await client.listResourceTemplates(), templates);
	assert.deepEqual(await client.listPrompts(), prompts);
	assert.equal(server.requests('tools/list')[0]?.params, undefined, 'the first page is asked without a cursor');
	assert.deepEqual(server.requests('tools/list')[1]?.params, { cursor: '2' });
});

test('a server that repeats a cursor does not loop forever', async () => {
	const { client, server, logger } = await connect({
		setup: (s) =>
			s.on('tools/list', (params) => ({
				tools: [{ name: `t-${String(params.cursor)}`, inputSchema: {} }],
				nextCursor: params.cursor === 'A' ? 'B' : 'A',
			})),
	});
	const tools = await client.listTools();
	assert.deepEqual(
		tools.map((t) => t.name),
		['t-undefined', 't-A', 't-B'],
	);
	assert.equal(server.requests('tools/list').length, 3);
	assert.equal(logger.find('repeated the cursor "A"').length, 1);
});

test('a result of the wrong shape is a ProtocolViolation naming the method and path', async () => {
	const { client } = await connect({ setup: (s) => s.on('tools/list', () => ({ tools: [{ name: 3 }] })) });
	await assert.rejects(client.listTools(), isMcpError(ErrorCode.ProtocolViolation, /tools\/list.*tools\.0\.name/));
});

const weatherSchema = {
	type: 'object',
	properties: {
		temperature: { type: 'number' },
		conditions: { type: 'string' },
		wind: { type: 'object', properties: { speed: { type: 'number' } }, required: ['speed'] },
	},
	required: ['temperature', 'conditions'],
};

function toolServer(s: FakeServer, structured: (name: string) => unknown, toolCount = 3, schema = weatherSchema) {
	s.on('tools/list', () => ({
		tools: Array.from({ length: toolCount }, (_, i) => ({
			name: `tool${i}`,
			inputSchema: { type: 'object' },
			outputSchema: structuredClone(schema),
		})),
	}));
	s.on('tools/call', (params) => {
		const name = String(params.name);
		const value = structured(name);
		return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
	});
}

test('structuredContent is validated against the outputSchema: valid passes, invalid names the tool and path', async () => {
	let answer: unknown = { temperature: 21.5, conditions: 'sunny', extra: 'kept' };
	const { client } = await connect({ setup: (s) => toolServer(s, () => answer) });
	await client.listTools();
	const ok = await client.callTool('tool0', { city: 'Oslo' });
	assert.deepEqual(ok.structuredContent, { temperature: 21.5, conditions: 'sunny', extra: 'kept' });
	answer = { temperature: 'warm', conditions: 'sunny' };
	await assert.rejects(
		client.callTool('tool0'),
		isMcpError(ErrorCode.ProtocolViolation, /Tool "tool0".*outputSchema at temperature/),
	);
	answer = { temperature: 1, conditions: 'x', wind: { speed: 'fast' } };
	await assert.rejects(
		client.callTool('tool0'),
		(e: unknown) =>
			e instanceof McpError && /at wind\.speed/.test(e.message) && (e.data as { tool: string }).tool === 'tool0',
	);
});

test('a tool with an outputSchema that returns no structuredContent is an error, unless the result isError', async () => {
	const { client } = await connect({
		setup: (s) => {
			toolServer(s, () => undefined, 1);
			s.on('tools/call', (params) =>
				params.name === 'fail' ? { content: [], isError: true } : { content: [{ type: 'text', text: 'plain' }] },
			);
		},
	});
	await client.listTools();
	await assert.rejects(client.callTool('tool0'), isMcpError(ErrorCode.ProtocolViolation, /no structuredContent/));
	const errorResult = await client.callTool('fail');
	assert.equal(errorResult.isError, true);
});

test("validators are built lazily on a tool's first call, once, and never on tools/list", async () => {
	const { client } = await connect({ setup: (s) => toolServer(s, () => ({ temperature: 1, conditions: 'c' }), 100) });
	const before = outputValidatorStats.compiled;
	await client.listTools();
	assert.equal(outputValidatorStats.compiled - before, 0, 'listing builds nothing');
	for (let i = 0; i < 50; i++) {
		await client.callTool('tool7');
	}
	assert.equal(outputValidatorStats.compiled - before, 1, 'fifty calls build one validator');
	await client.callTool('tool8');
	assert.equal(outputValidatorStats.compiled - before, 2);
	await client.listTools(); // the same schemas again, as new objects
	await client.callTool('tool7');
	assert.equal(outputValidatorStats.compiled - before, 2, 'an unchanged schema after a new list is not rebuilt');
});

test('a changed outputSchema after a new tools/list gets a new validator', async () => {
	let schema: Record<string, unknown> = weatherSchema;
	const { client, server } = await connect({
		setup: (s) => toolServer(s, () => ({ temperature: 1, conditions: 'c' }), 1),
	});
	server.on('tools/list', () => ({ tools: [{ name: 'tool0', inputSchema: {}, outputSchema: schema }] }));
	await client.listTools();
	await client.callTool('tool0');
	schema = { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] };
	await client.listTools();
	await assert.rejects(client.callTool('tool0'), /at count/);
});

test('before any tools/list, callTool does not validate', async () => {
	const { client } = await connect({ setup: (s) => toolServer(s, () => ({ temperature: 'not a number' })) });
	const result = await client.callTool('tool0');
	assert.deepEqual(result.structuredContent, { temperature: 'not a number' });
});

test('every content block type passes through intact', async () => {
	const content = [
		{
			type: 'text',
			text: 'hello',
			annotations: { audience: ['user'], priority: 0.5, lastModified: '2025-01-01T00:00:00Z' },
			_meta: { a: 1 },
		},
		{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
		{ type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav', annotations: { audience: ['assistant'] } },
		{
			type: 'resource_link',
			uri: 'file:///a.txt',
			name: 'a.txt',
			title: 'A',
			description: 'd',
			mimeType: 'text/plain',
			size: 3,
			icons: [{ src: 'x.png' }],
		},
		{
			type: 'resource',
			resource: { uri: 'demo://b', mimeType: 'application/octet-stream', blob: 'AAEC', _meta: { m: true } },
			annotations: { priority: 1 },
		},
		{ type: 'resource', resource: { uri: 'demo://c', text: 'body' } },
		{ type: 'future_block', whatever: { nested: [1, 2, 3] } },
	];
	const { client } = await connect({
		setup: (s) => s.on('tools/call', () => ({ content, _meta: { 'io.example/trace': 'abc' }, unknownTopLevel: 1 })),
	});
	const result = await client.callTool('any');
	assert.deepEqual(result.content, content);
	assert.deepEqual(result._meta, { 'io.example/trace': 'abc' });
	assert.equal((result as Record<string, unknown>).unknownTopLevel, 1);
});

test('callTool sends name and arguments, reports progress and can be cancelled', async () => {
	const { client, server } = await connect({
		setup: (s) => {
			s.on('tools/call', (params, context) => {
				if (params.name === 'slow') return NO_REPLY;
				context.progress(1, 2);
				context.progress(2, 2);
				return { content: [{ type: 'text', text: 'done' }] };
			});
		},
	});
	const progress: number[] = [];
	const all: number[] = [];
	client.onDidProgress((p) => all.push(p.progress));
	const result = await client.callTool('work', { n: 1 }, { onProgress: (p) => progress.push(p.progress) });
	assert.deepEqual(progress, [1, 2]);
	assert.deepEqual(all, [1, 2]);
	assert.deepEqual(result.content, [{ type: 'text', text: 'done' }]);
	assert.deepEqual(server.requests('tools/call')[0]?.params?.arguments, { n: 1 });
	const controller = new AbortController();
	const slow = client.callTool('slow', {}, { signal: controller.signal });
	controller.abort('stop');
	await assert.rejects(slow, isMcpError(ErrorCode.RequestCancelled));
	await flush();
	assert.equal(server.notifications('notifications/cancelled').length, 1);
});

test('resources, prompts, completion and logging send the right params and parse the answers', async () => {
	const { client, server } = await connect({
		setup: (s) => {
			s.on('resources/read', (p) => ({ contents: [{ uri: p.uri, mimeType: 'text/plain', text: 'hi' }] }));
			s.on('resources/subscribe', () => ({}));
			s.on('resources/unsubscribe', () => ({}));
			s.on('prompts/get', (p) => ({
				description: 'd',
				messages: [
					{ role: 'user', content: { type: 'text', text: `city=${(p.arguments as Record<string, string>).city}` } },
				],
			}));
			s.on('completion/complete', (p) => ({
				completion: {
					values: [`${(p.context as { arguments: Record<string, string> }).arguments.city}-1`],
					total: 1,
					hasMore: false,
				},
			}));
			s.on('logging/setLevel', () => ({}));
		},
	});
	assert.deepEqual(await client.readResource('demo://x'), {
		contents: [{ uri: 'demo://x', mimeType: 'text/plain', text: 'hi' }],
	});
	await client.subscribe('demo://x');
	await client.unsubscribe('demo://x');
	const prompt = await client.getPrompt('args-prompt', { city: 'Paris' });
	assert.deepEqual(prompt.messages[0]?.content, { type: 'text', text: 'city=Paris' });
	const completion = await client.complete(
		{ type: 'ref/prompt', name: 'p' },
		{ name: 'state', value: '' },
		{ arguments: { city: 'Lyon' } },
	);
	assert.deepEqual(completion.completion.values, ['Lyon-1']);
	assert.deepEqual(server.requests('completion/complete')[0]?.params, {
		ref: { type: 'ref/prompt', name: 'p' },
		argument: { name: 'state', value: '' },
		context: { arguments: { city: 'Lyon' } },
	});
	await client.setLoggingLevel('warning');
	assert.deepEqual(server.requests('logging/setLevel')[0]?.params, { level: 'warning' });
	assert.deepEqual(server.requests('resources/subscribe')[0]?.params, { uri: 'demo://x' });
});

test('server notifications surface as events', async () => {
	const { client, server } = await connect();
	const seen: string[] = [];
	client.onDidChangeTools(() => seen.push('tools'));
	client.onDidChangePrompts(() => seen.push('prompts'));
	client.onDidChangeResources(() => seen.push('resources'));
	client.onDidUpdateResource((e) => seen.push(`updated ${e.uri}`));
	client.onDidLog((m) => seen.push(`log ${m.level} ${String(m.logger)} ${JSON.stringify(m.data)}`));
	client.onDidCompleteElicitation((e) => seen.push(`elicitation ${e.elicitationId}`));
	server.notify('notifications/tools/list_changed');
	server.notify('notifications/prompts/list_changed');
	server.notify('notifications/resources/list_changed');
	server.notify('notifications/resources/updated', { uri: 'demo://1' });
	server.notify('notifications/message', { level: 'error', logger: 'db', data: { msg: 'down' } });
	server.notify('notifications/message', { level: 'shouting', data: 'invalid level is dropped' });
	server.notify('notifications/elicitation/complete', { elicitationId: 'e-1' });
	await flush();
	assert.deepEqual(seen, [
		'tools',
		'prompts',
		'resources',
		'updated demo://1',
		'log error db {"msg":"down"}',
		'elicitation e-1',
	]);
});

test('server requests reach the supplied handlers; an absent handler is MethodNotFound', async () => {
	const samplingSeen: unknown[] = [];
	const { server } = await connect({
		client: {
			handlers: {
				roots: () => [{ uri: 'file:///work', name: 'work' }],
				sampling: async (params) => {
					samplingSeen.push(params);
					return {
						role: 'assistant',
						content: { type: 'text', text: 'hi' },
						model: 'test-model',
						stopReason: 'endTurn',
					};
				},
			},
		},
	});
	const roots = await server.request('roots/list');
	assert.ok('result' in roots);
	assert.deepEqual(roots.result, { roots: [{ uri: 'file:///work', name: 'work' }] });
	const sampled = await server.request('sampling/createMessage', {
		messages: [{ role: 'user', content: { type: 'text', text: 'q' } }],
		maxTokens: 10,
	});
	assert.ok('result' in sampled);
	assert.deepEqual(sampled.result, {
		role: 'assistant',
		content: { type: 'text', text: 'hi' },
		model: 'test-model',
		stopReason: 'endTurn',
	});
	assert.deepEqual(samplingSeen, [
		{ messages: [{ role: 'user', content: { type: 'text', text: 'q' } }], maxTokens: 10 },
	]);
	const invalid = await server.request('sampling/createMessage', { messages: 'nope' });
	assert.ok('error' in invalid && invalid.error.code === ErrorCode.InvalidParams);
	const missing = await server.request('elicitation/create', {
		message: 'm',
		requestedSchema: { type: 'object', properties: {} },
	});
	assert.ok('error' in missing && missing.error.code === ErrorCode.MethodNotFound);
});

test('elicitation: form requests reach the handler; URL mode is refused unless enabled; a refusal is an answer', async () => {
	const asked: unknown[] = [];
	const { server } = await connect({
		client: {
			handlers: {
				elicitation: async (params) => {
					asked.push(params);
					return params.mode === 'url'
						? { action: 'decline' }
						: { action: 'accept', content: { name: 'Ada', age: 36, ok: true } };
				},
			},
		},
	});
	const form = await server.request('elicitation/create', {
		message: 'Who?',
		requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
	});
	assert.ok('result' in form);
	assert.deepEqual(form.result, { action: 'accept', content: { name: 'Ada', age: 36, ok: true } });
	const url = await server.request('elicitation/create', {
		mode: 'url',
		message: 'Log in',
		url: 'https://example.com',
		elicitationId: 'e1',
	});
	assert.ok('error' in url && url.error.code === ErrorCode.InvalidParams);
	assert.equal(asked.length, 1);
});

test('notifyRootsChanged sends list_changed only when roots are offered', async () => {
	const withRoots = await connect({ client: { handlers: { roots: () => [] } } });
	await withRoots.client.notifyRootsChanged();
	await flush();
	assert.equal(withRoots.server.notifications('notifications/roots/list_changed').length, 1);
	const without = await connect();
	await without.client.notifyRootsChanged();
	await flush();
	assert.equal(without.server.notifications('notifications/roots/list_changed').length, 0);
});

test('close is idempotent, fires onDidClose once and fails pending calls naming the server', async () => {
	const { client, server } = await connect({
		client: { name: 'everything' },
		setup: (s) => s.on('tools/call', () => NO_REPLY),
	});
	void server;
	const closes: Error[] = [];
	client.onDidClose((e) => closes.push(e));
	const pending = client.callTool('slow');
	await Promise.all([client.close(), client.close()]);
	await client.close();
	await assert.rejects(pending, isMcpError(ErrorCode.ConnectionClosed, /everything/));
	assert.equal(client.isClosed, true);
	assert.equal(closes.length, 1);
	await assert.rejects(client.ping(), isMcpError(ErrorCode.ConnectionClosed));
});

test('a crash surfaces through onDidClose with the transport reason', async () => {
	const { client, pair } = await connect({ client: { name: 'srv' } });
	const closed = new Promise<Error>((resolve) => client.onDidClose(resolve));
	pair.client.closeWithReason('process exited with code 1; last stderr: Error: boom');
	const error = await closed;
	assert.match(error.message, /^srv: process exited with code 1; last stderr: Error: boom$/);
});

test('tools/call results: the structural fast path accepts exactly what CallToolResultSchema accepts', () => {
	const samples: Array<Record<string, unknown>> = [
		{ content: [] },
		{ content: [{ type: 'text', text: 'a' }], isError: false, _meta: {}, extra: 1 },
		{ content: [{ type: 'x' }], structuredContent: { a: 1 } },
		{ content: 'text' },
		{ content: [{ text: 'no type' }] },
		{ content: [null] },
		{ content: [['text']] },
		{ content: [], isError: 'yes' },
		{ content: [], structuredContent: [1] },
		{ content: [], _meta: 'm' },
	];
	for (const sample of samples) {
		if (isPlainCallToolResult(sample)) {
			assert.equal(schemas().CallToolResultSchema.safeParse(sample).success, true, JSON.stringify(sample));
		}
	}
	const verdicts = samples.map((s) => isPlainCallToolResult(s));
	assert.deepEqual(verdicts, [true, true, true, false, false, false, false, false, false, false]);
	const schemaVerdicts = samples.map((s) => schemas().CallToolResultSchema.safeParse(s).success);
	assert.deepEqual(schemaVerdicts, verdicts);
});

test('the structural tools/list check accepts exactly what ListToolsResultSchema accepts', () => {
	const tool = { name: 't', inputSchema: { type: 'object' } };
	const samples: Record<string, unknown>[] = [
		{ tools: [] },
		{ tools: [tool], nextCursor: 'c2', _meta: {} },
		{
			tools: [
				{
					...tool,
					title: 'T',
					description: 'd',
					outputSchema: { type: 'object' },
					annotations: {
						title: 'a',
						readOnlyHint: true,
						destructiveHint: false,
						idempotentHint: true,
						openWorldHint: false,
						extra: 1,
					},
					icons: [{ src: 'https://x/i.png', mimeType: 'image/png', sizes: ['16x16'], theme: 'dark' }],
					execution: { taskSupport: 'optional' },
					_meta: { k: 1 },
					unknown: [1],
				},
			],
		},
		{ tools: [{ ...tool, name: 1 }] },
		{ tools: [{ name: 't' }] },
		{ tools: [{ ...tool, inputSchema: [] }] },
		{ tools: [{ ...tool, description: null }] },
		{ tools: [{ ...tool, annotations: { readOnlyHint: 'yes' } }] },
		{ tools: [{ ...tool, icons: [{ mimeType: 'image/png' }] }] },
		{ tools: [{ ...tool, icons: [{ src: 'x', sizes: [16] }] }] },
		{ tools: [{ ...tool, execution: { taskSupport: 3 } }] },
		{ tools: [{ ...tool, outputSchema: 'object' }] },
		{ tools: [tool], nextCursor: 5 },
		{ tools: 'none' },
		{},
	];
	const verdicts = samples.map((s) => isPlainListToolsResult(s));
	assert.deepEqual(verdicts, [
		true,
		true,
		true,
		false,
		false,
		false,
		false,
		false,
		false,
		false,
		false,
		false,
		false,
		false,
		false,
	]);
	assert.deepEqual(
		samples.map((s) => schemas().ListToolsResultSchema.safeParse(s).success),
		verdicts,
	);
});

test('a malformed tools/list is a ProtocolViolation naming the path', async () => {
	const { client } = await connect({
		setup: (s) =>
			s.on('tools/list', () => ({
				tools: [
					{ name: 'ok', inputSchema: {} },
					{ name: 'bad', inputSchema: {}, annotations: { readOnlyHint: 'yes' } },
				],
			})),
	});
	await assert.rejects(
		client.listTools(),
		isMcpError(ErrorCode.ProtocolViolation, /tools\/list.*tools\.1\.annotations\.readOnlyHint/),
	);
});

test('a malformed tools/call result is a ProtocolViolation naming the path; a missing content becomes []', async () => {
	let answer: Record<string, unknown> = { content: [{ text: 'no type' }] };
	const { client } = await connect({ setup: (s) => s.on('tools/call', () => answer) });
	await assert.rejects(client.callTool('t'), isMcpError(ErrorCode.ProtocolViolation, /tools\/call.*content\.0\.type/));
	answer = { isError: true };
	assert.deepEqual(await client.callTool('t'), { content: [], isError: true });
});

test('a roots handler answer of the wrong shape becomes an error answer and a log line naming the server, not a malformed result', async () => {
	const { server, logger } = await connect({
		client: {
			handlers: {
				// What a careless host might return: a path instead of a file:// URI, a number for a name.
				roots: () => [{ uri: '/home/me/project', name: 7 } as unknown as { uri: string; name: string }],
			},
		},
	});
	const answer = await server.request('roots/list');
	assert.ok('error' in answer, 'the server gets an error answer');
	assert.equal(answer.error.code, ErrorCode.InternalError);
	assert.match(
		answer.error.message,
		/fake: the roots handler returned an invalid answer to roots\/list: at roots\.0\.uri: must be a file:\/\/ URI/,
	);
	assert.ok(
		logger.find('fake: the roots handler returned an invalid answer').some((entry) => entry.level === 'error'),
		'the problem is logged as an error with the server name',
	);

	const notArray = await connect({ client: { handlers: { roots: () => undefined as unknown as [] } } });
	const second = await notArray.server.request('roots/list');
	assert.ok('error' in second);
	assert.match(second.error.message, /at roots: /);
});

test('overlapping tools/list: outputSchema validation uses the newest listing started, even when an older one finishes last', async () => {
	let releaseOld!: () => void;
	let listings = 0;
	const schemaOf = (type: string) => ({ type: 'object', properties: { n: { type } }, required: ['n'] });
	const { server, client } = await connect({
		setup: (s) =>
			s.on('tools/list', async () => {
				listings++;
				if (listings === 1) {
					await new Promise<void>((resolve) => (releaseOld = resolve));
					return { tools: [{ name: 'count', inputSchema: { type: 'object' }, outputSchema: schemaOf('string') }] };
				}
				return { tools: [{ name: 'count', inputSchema: { type: 'object' }, outputSchema: schemaOf('number') }] };
			}),
	});
	server.on('tools/call', () => ({ content: [], structuredContent: { n: 1 } }));
	const older = client.listTools();
	await flush();
	await client.listTools();
	releaseOld();
	await older;
	const result = await client.callTool('count', {});
	assert.deepEqual(result.structuredContent, { n: 1 }, 'checked against the newer schema (n: number)');
});

test('extensions the host implements (MCP Apps) are advertised as capabilities.extensions in initialize', async () => {
	const ui = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
	const { server } = await connect({ client: { handlers: { extensions: ui } } });
	assert.deepEqual(server.requests('initialize')[0]?.params?.capabilities, { extensions: ui });
	const none = await connect({ client: { handlers: { extensions: {} } } });
	assert.deepEqual(none.server.requests('initialize')[0]?.params?.capabilities, {}, 'an empty map advertises nothing');
});
