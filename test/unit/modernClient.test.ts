// McpClient against a scripted 2026-07-28 server: the probe and its outcomes, per-request metadata, version retry,
// input_required rounds, and the bad input the issue names (a server that mixes versions, lies in server/discover,
// asks for input forever, sends a huge requestState, or an unknown resultType): a clear error naming the server and
// the step, never a loop.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLogger } from '../../src/common/logger';
import { McpClient, type ClientOptions } from '../../src/protocol/client';
import { ErrorCode } from '../../src/protocol/jsonrpc';
import { McpError } from '../../src/protocol/mcpError';
import { MAX_REQUEST_STATE_CHARS } from '../../src/protocol/modern/inputRequests';
import { FakeServer, NO_REPLY } from '../fixtures/fakeServer';
import { linkedPair } from '../fixtures/linkedTransport';

const V = '2026-07-28';
const META_VERSION = 'io.modelcontextprotocol/protocolVersion';

function isMcpError(code: number, pattern?: RegExp) {
	return (error: unknown) =>
		error instanceof McpError && error.code === code && (!pattern || pattern.test(error.message));
}

/** A fake modern server: server/discover answered, initialize refused the way a modern-only server does. */
function modernServer(server: FakeServer, discover: Record<string, unknown> = {}): FakeServer {
	return server
		.on('server/discover', () => ({
			resultType: 'complete',
			supportedVersions: [V],
			capabilities: { tools: {}, prompts: {}, resources: {}, logging: {} },
			instructions: 'Be kind.',
			ttlMs: 0,
			cacheScope: 'private',
			_meta: { 'io.modelcontextprotocol/serverInfo': { name: 'modern-fake', version: '3.1.4' } },
			...discover,
		}))
		.on('initialize', () => {
			throw new McpError(-32022, 'initialize is not accepted', { supported: [V], requested: '2025-11-25' });
		})
		.on('tools/list', () => ({
			resultType: 'complete',
			ttlMs: 0,
			cacheScope: 'private',
			tools: [{ name: 'echo', inputSchema: { type: 'object' } }],
		}));
}

async function connect(setup: (server: FakeServer) => void, client: ClientOptions = {}) {
	const pair = linkedPair();
	const server = new FakeServer(pair.server);
	setup(server);
	const logger = new MemoryLogger('debug');
	const connected = await McpClient.connect(pair.client, { name: 'fake', logger, ...client });
	return { pair, server, client: connected, logger };
}

const elicitAda: ClientOptions['handlers'] = {
	roots: () => [{ uri: 'file:///w', name: 'w' }],
	elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }),
};

test('a modern server: server/discover only, no initialize; identity, capabilities and instructions come from it', async () => {
	// Remembered as modern (it needed 2026-07-28 before): the probe goes first, as the spec describes.
	const { server, client, pair } = await connect((s) => modernServer(s), { handlers: elicitAda, knownEra: 'modern' });
	assert.equal(client.era, 'modern');
	assert.equal(client.protocolVersion, V);
	assert.deepEqual(client.supportedVersions, [V]);
	assert.deepEqual(client.serverInfo, { name: 'modern-fake', version: '3.1.4' });
	assert.equal(client.instructions, 'Be kind.');
	assert.equal(server.requests('initialize').length, 0);
	assert.equal(server.notifications('notifications/initialized').length, 0);
	const meta = server.requests('server/discover')[0]?.params?._meta as Record<string, unknown>;
	assert.equal(meta[META_VERSION], V);
	assert.deepEqual(meta['io.modelcontextprotocol/clientCapabilities'], {
		roots: {},
		elicitation: { form: {} },
		extensions: { 'io.modelcontextprotocol/tasks': {} },
	});
	assert.deepEqual(meta['io.modelcontextprotocol/clientInfo'], { name: 'mcp-switchboard', version: '0.1.0' });
	assert.equal(
		meta['io.modelcontextprotocol/logLevel'],
		undefined,
		'no log level unless asked: the server then sends no log messages',
	);
	assert.deepEqual(pair.client.protocolVersions, [V]);
});

test('auto: a server that speaks only 2026-07-28 refuses initialize, then answers server/discover; no initialized is sent', async () => {
	const { server, client, logger } = await connect((s) => modernServer(s), { handlers: elicitAda });
	assert.equal(client.era, 'modern');
	assert.equal(client.protocolVersion, V);
	const order = server.received.map((m) => ('method' in m ? m.method : 'response'));
	assert.deepEqual(order, ['initialize', 'server/discover']);
	assert.equal(server.notifications('notifications/initialized').length, 0);
	assert.equal(logger.find('initialize failed').length, 1);
});

test('auto: a server that answers initialize with 2026-07-28 is probed and spoken to in 2026-07-28', async () => {
	const { server, client } = await connect((s) =>
		modernServer(s).on('initialize', () => ({
			protocolVersion: V,
			capabilities: {},
			serverInfo: { name: 'echoes-the-newest', version: '1' },
		})),
	);
	assert.equal(client.era, 'modern');
	assert.equal(client.serverInfo.name, 'modern-fake');
	assert.equal(server.requests('server/discover').length, 1);
	assert.equal(server.notifications('notifications/initialized').length, 0);
});

test('every request carries the metadata; a progress token is kept beside it; a result names a new server version', async () => {
	const { server, client } = await connect((s) =>
		modernServer(s).on('tools/call', (_p, context) => {
			context.progress(1, 2);
			return {
				resultType: 'complete',
				content: [{ type: 'text', text: 'ok' }],
				_meta: { 'io.modelcontextprotocol/serverInfo': { name: 'modern-fake', version: '3.2.0' } },
			};
		}),
	);
	const progress: number[] = [];
	await client.callTool('echo', {}, { onProgress: (p) => progress.push(p.progress) });
	const meta = server.requests('tools/call')[0]?.params?._meta as Record<string, unknown>;
	assert.equal(meta[META_VERSION], V);
	assert.equal(typeof meta.progressToken, 'number');
	assert.deepEqual(progress, [1]);
	assert.equal(client.serverInfo.version, '3.2.0');
});

test('the log level travels in _meta (logging/setLevel is gone in 2026-07-28); ping becomes server/discover; no roots/list_changed', async () => {
	const { server, client } = await connect((s) => modernServer(s), { handlers: elicitAda });
	await client.setLoggingLevel('warning');
	assert.equal(server.requests('logging/setLevel').length, 0);
	await client.listTools();
	assert.equal(
		(server.requests('tools/list')[0]?.params?._meta as Record<string, unknown>)['io.modelcontextprotocol/logLevel'],
		'warning',
	);
	await client.ping();
	assert.equal(server.requests('server/discover').length, 2);
	await client.notifyRootsChanged();
	assert.equal(server.notifications('notifications/roots/list_changed').length, 0);
	// 2026-07-28 subscribes through subscriptions/listen (modernListen.test.ts); this server offers no subscriptions.
	await assert.rejects(
		client.subscribe('file:///a'),
		isMcpError(ErrorCode.CapabilityMissing, /fake does not support resources\/subscribe/),
	);
	assert.equal(server.requests('resources/subscribe').length + server.requests('subscriptions/listen').length, 0);
});

test('the probe answered -32022 with a common version: discover again with it, never initialize', async () => {
	let first = true;
	const { server, client } = await connect(
		(s) =>
			modernServer(s).on('server/discover', (params) => {
				if (first) {
					first = false;
					throw new McpError(-32022, 'Unsupported protocol version', {
						supported: ['2027-01-01', V],
						requested: (params._meta as Record<string, unknown>)[META_VERSION],
					});
				}
				return { resultType: 'complete', supportedVersions: [V], capabilities: { tools: {} } };
			}),
		{ knownEra: 'modern' },
	);
	assert.equal(client.era, 'modern');
	assert.equal(server.requests('server/discover').length, 2);
	assert.equal(server.requests('initialize').length, 0);
	assert.deepEqual(client.serverInfo, { name: 'fake', version: '' }, 'no serverInfo: the configured name stands in');
});

test('a request refused with -32022 later is retried once with the version the error names; a second refusal is an error naming the server', async () => {
	let refusals = 0;
	const { server, client } = await connect((s) =>
		modernServer(s).on('tools/call', () => {
			refusals++;
			throw new McpError(-32022, 'Unsupported protocol version', { supported: [V], requested: V });
		}),
	);
	await assert.rejects(
		client.callTool('echo', {}),
		isMcpError(-32022, /fake refused tools\/call with protocol version 2026-07-28 again/),
	);
	assert.equal(refusals, 2, 'one retry, no loop');
	assert.notEqual(server.requests('tools/call')[0]?.id, server.requests('tools/call')[1]?.id);
});

test('a server that lies in server/discover (lists 2026-07-28, then supports only a version we do not speak) gets a clear error, not a loop', async () => {
	const { client } = await connect((s) =>
		modernServer(s).on('tools/list', () => {
			throw new McpError(-32022, 'Unsupported protocol version', { supported: ['2099-01-01'], requested: V });
		}),
	);
	await assert.rejects(
		client.listTools(),
		isMcpError(
			-32022,
			/fake refused tools\/list with protocol version 2026-07-28: it says it supports 2099-01-01, although server\/discover listed 2026-07-28/,
		),
	);
});

test('server/discover listing no version in common fails connect naming both sides; a legacy one listed means initialize', async () => {
	await assert.rejects(
		connect((s) => modernServer(s, { supportedVersions: ['2099-01-01'] }), { knownEra: 'modern' }),
		isMcpError(
			ErrorCode.ProtocolViolation,
			/fake: server\/discover lists protocol versions 2099-01-01; this client speaks 2026-07-28, 2025-11-25/,
		),
	);
	const { client, server } = await connect(
		(s) =>
			modernServer(s, { supportedVersions: ['2025-06-18'] }).on('initialize', (params) => ({
				protocolVersion: params.protocolVersion,
				capabilities: {},
				serverInfo: { name: 'dual', version: '1' },
			})),
		{ knownEra: 'modern' },
	);
	assert.equal(client.era, 'legacy');
	assert.equal(client.protocolVersion, '2025-06-18');
	assert.equal(server.requests('initialize')[0]?.params?.protocolVersion, '2025-06-18');
});

test('a server that mixes versions (modern, but sends an elicitation/create request) is refused and logged; nothing reaches the user', async () => {
	let asked = 0;
	const { server, logger } = await connect((s) => modernServer(s), {
		handlers: { elicitation: async () => (asked++, { action: 'decline' }) },
	});
	const answer = await server.request('elicitation/create', {
		message: 'hi',
		requestedSchema: { type: 'object', properties: {} },
	});
	assert.ok('error' in answer && answer.error.code === ErrorCode.InvalidRequest);
	assert.equal(asked, 0);
	assert.equal(logger.find('mixes protocol versions').length, 1);
});

test('pinning: a legacy version skips the probe; a modern one never falls back to initialize; an unknown one fails at once', async () => {
	const legacy = await connect(
		(s) =>
			modernServer(s).on('initialize', (p) => ({
				protocolVersion: p.protocolVersion,
				capabilities: {},
				serverInfo: { name: 'x', version: '1' },
			})),
		{ protocolVersion: '2025-03-26' },
	);
	assert.equal(legacy.client.era, 'legacy');
	assert.equal(legacy.server.requests('server/discover').length, 0);
	assert.equal(legacy.server.requests('initialize')[0]?.params?.protocolVersion, '2025-03-26');
	await assert.rejects(
		connect((s) => s, { protocolVersion: V }),
		isMcpError(
			ErrorCode.ProtocolViolation,
			/fake: the protocol version is pinned to 2026-07-28, but server\/discover failed: Method not found/,
		),
	);
	await assert.rejects(
		connect((s) => modernServer(s), { protocolVersion: '1999-01-01' }),
		isMcpError(ErrorCode.ProtocolViolation, /pinned protocol version 1999-01-01 is not one this client speaks/),
	);
});

test('a silent legacy server: the probe times out and initialize follows; the era remembered as legacy skips the probe', async () => {
	// The client's timer is unref()ed (a real server process keeps the loop alive); this one stands in for it.
	const keepAlive = setInterval(() => undefined, 1000);
	after(() => clearInterval(keepAlive));
	const silent = await connect((s) => s.on('server/discover', () => NO_REPLY), { probeTimeoutMs: 30 });
	assert.equal(silent.client.era, 'legacy');
	assert.equal(silent.server.requests('initialize').length, 1);
	const known = await connect((s) => s.on('server/discover', () => NO_REPLY), { knownEra: 'legacy' });
	assert.equal(known.server.requests('server/discover').length, 0);
	assert.equal(known.client.era, 'legacy');
});

test('input_required: the input requests are answered by the handlers, then the call is retried with a new id, inputResponses and the requestState unchanged', async () => {
	const state = ' {"opaque": "ünïcode & spaces"} ';
	const { server, client } = await connect(
		(s) =>
			modernServer(s).on('tools/call', (params) => {
				if (params.inputResponses === undefined) {
					return {
						resultType: 'input_required',
						inputRequests: {
							who: {
								method: 'elicitation/create',
								params: {
									mode: 'form',
									message: 'Name?',
									requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
								},
							},
							where: { method: 'roots/list' },
						},
						requestState: state,
					};
				}
				return { resultType: 'complete', content: [{ type: 'text', text: JSON.stringify(params.inputResponses) }] };
			}),
		{ handlers: elicitAda },
	);
	const result = await client.callTool('echo', { x: 1 });
	assert.deepEqual(JSON.parse((result.content[0] as unknown as { text: string }).text), {
		who: { action: 'accept', content: { name: 'Ada' } },
		where: { roots: [{ uri: 'file:///w', name: 'w' }] },
	});
	const [first, retry] = server.requests('tools/call');
	assert.notEqual(first?.id, retry?.id);
	assert.equal(retry?.params?.requestState, state, 'byte for byte');
	assert.deepEqual(retry?.params?.arguments, { x: 1 });
	assert.equal(first?.params?.requestState, undefined);
	// Another call afterwards carries nothing from that one.
	await client.callTool('echo', { x: 2 }).catch(() => undefined);
	const third = server.requests('tools/call')[2];
	assert.equal(third?.params?.requestState, undefined);
	assert.equal(third?.params?.inputResponses, undefined);
});

test('input_required without a requestState: the retry carries none; with only a requestState: retried at once (load shedding)', async () => {
	let calls = 0;
	const { server, client } = await connect(
		(s) =>
			modernServer(s).on('prompts/get', (params) => {
				calls++;
				if (calls === 1) return { resultType: 'input_required', requestState: 'come back' };
				if (calls === 2) {
					assert.equal(params.requestState, 'come back');
					return { resultType: 'input_required', inputRequests: { r: { method: 'roots/list' } } };
				}
				return {
					resultType: 'complete',
					messages: [{ role: 'user', content: { type: 'text', text: String('requestState' in params) } }],
				};
			}),
		{ handlers: elicitAda },
	);
	const prompt = await client.getPrompt('p');
	assert.equal((prompt.messages[0]?.content as unknown as { text: string }).text, 'false');
	assert.equal(server.requests('prompts/get').length, 3);
});

test('a server that asks for input forever stops at the round limit with an error naming the server, the tool and the round', async () => {
	const { server, client } = await connect(
		(s) =>
			modernServer(s).on('tools/call', () => ({
				resultType: 'input_required',
				inputRequests: { again: { method: 'roots/list' } },
				requestState: 'x',
			})),
		{ handlers: elicitAda, maxInputRounds: 3 },
	);
	await assert.rejects(
		client.callTool('echo', {}),
		isMcpError(
			ErrorCode.ProtocolViolation,
			/fake: tools\/call tool "echo", round 4: the server still asks for input after 3 rounds; giving up/,
		),
	);
	assert.equal(server.requests('tools/call').length, 4);
});

test('a huge requestState, input_required with neither field, an unknown input method or resultType, and input_required on tools/list: clear errors', async () => {
	const huge = 'x'.repeat(MAX_REQUEST_STATE_CHARS + 1);
	const { client } = await connect(
		(s) =>
			modernServer(s)
				.on('tools/call', (params) => {
					const name = params.name;
					if (name === 'huge') return { resultType: 'input_required', requestState: huge };
					if (name === 'empty') return { resultType: 'input_required' };
					if (name === 'weird')
						return { resultType: 'input_required', inputRequests: { k: { method: 'tools/call', params: {} } } };
					if (name === 'sampling')
						return {
							resultType: 'input_required',
							inputRequests: { k: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } } },
						};
					if (name === 'badTask') return { resultType: 'task', task: {} };
					return { resultType: 'deferred' };
				})
				.on('prompts/list', () => ({ resultType: 'input_required', requestState: 's' })),
		{ handlers: elicitAda },
	);
	await assert.rejects(
		client.callTool('huge', {}),
		isMcpError(
			ErrorCode.ProtocolViolation,
			/fake: tools\/call tool "huge", round 1: the server sent a requestState of 1048577 characters/,
		),
	);
	await assert.rejects(
		client.callTool('empty', {}),
		isMcpError(
			ErrorCode.ProtocolViolation,
			/round 1: the server answered input_required with neither inputRequests nor requestState/,
		),
	);
	await assert.rejects(
		client.callTool('weird', {}),
		isMcpError(
			ErrorCode.ProtocolViolation,
			/input request "k" asks for tools\/call, which is not an input request this client answers/,
		),
	);
	await assert.rejects(
		client.callTool('sampling', {}),
		isMcpError(
			ErrorCode.ProtocolViolation,
			/asks for sampling\/createMessage, but this client did not declare the 'sampling' capability/,
		),
	);
	await assert.rejects(
		client.callTool('other', {}),
		isMcpError(
			ErrorCode.ProtocolViolation,
			/fake answered tools\/call with resultType "deferred", which this client does not know/,
		),
	);
	// "task" is the tasks extension's (followed by callTool); one without a task's fields is refused, naming the server.
	await assert.rejects(
		client.callTool('badTask', {}),
		isMcpError(
			ErrorCode.ProtocolViolation,
			/^fake answered tools\/call with an invalid task: taskId is not a non-empty string$/,
		),
	);
	await assert.rejects(
		client.listPrompts(),
		isMcpError(
			ErrorCode.ProtocolViolation,
			/fake answered prompts\/list with resultType "input_required", which prompts\/list may not answer/,
		),
	);
});

test('a tampered requestState refused by the server in a later round: the error names the server, the call and the round', async () => {
	const { client } = await connect(
		(s) =>
			modernServer(s).on('resources/read', (params) => {
				if (params.requestState === undefined)
					return {
						resultType: 'input_required',
						inputRequests: { r: { method: 'roots/list' } },
						requestState: 'signed',
					};
				throw new McpError(ErrorCode.InvalidParams, 'requestState failed verification');
			}),
		{ handlers: elicitAda },
	);
	await assert.rejects(
		client.readResource('file:///x'),
		isMcpError(
			ErrorCode.InvalidParams,
			/fake: resources\/read resource file:\/\/\/x failed in round 2 \(after the input it asked for was sent\): requestState failed verification/,
		),
	);
});

test('cancelling while the user answers an input request stops the call: no retry is sent', async () => {
	const controller = new AbortController();
	const { server, client } = await connect(
		(s) =>
			modernServer(s).on('tools/call', () => ({
				resultType: 'input_required',
				inputRequests: {
					q: {
						method: 'elicitation/create',
						params: { message: 'Name?', requestedSchema: { type: 'object', properties: {} } },
					},
				},
			})),
		{
			handlers: {
				elicitation: (_params, signal) =>
					new Promise((_resolve, reject) => {
						signal.addEventListener('abort', () =>
							reject(new McpError(ErrorCode.RequestCancelled, 'cancelled by the user')),
						);
						controller.abort();
					}),
			},
		},
	);
	await assert.rejects(
		client.callTool('echo', {}, { signal: controller.signal }),
		isMcpError(ErrorCode.RequestCancelled),
	);
	assert.equal(server.requests('tools/call').length, 1);
});

test('a legacy server result without resultType is complete; one with an unknown resultType is refused', async () => {
	const { client } = await connect((s) =>
		s.on('tools/call', (params) =>
			params.name === 'odd' ? { resultType: 'weird', content: [] } : { content: [{ type: 'text', text: 'fine' }] },
		),
	);
	assert.equal(client.era, 'legacy');
	assert.equal((await client.callTool('plain', {})).content.length, 1);
	await assert.rejects(client.callTool('odd', {}), isMcpError(ErrorCode.ProtocolViolation, /resultType "weird"/));
});

test('a legacy server that answers any unknown method with an empty result is not taken for a modern one', async () => {
	const { client, server } = await connect((s) => s.on('server/discover', () => ({})));
	assert.equal(client.era, 'legacy');
	assert.equal(server.requests('initialize').length, 1);
});

test('caching hints: a paged list is as fresh as its shortest-lived page and private when any page is; a negative ttlMs counts as 0; an MRTR result is marked uncacheable', async () => {
	// https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching#interaction-with-pagination
	const { client } = await connect(
		(s) =>
			modernServer(s, { ttlMs: -5, cacheScope: 'public' })
				.on('tools/list', (params) =>
					params.cursor === undefined
						? {
								resultType: 'complete',
								ttlMs: 10_000,
								cacheScope: 'public',
								tools: [{ name: 'a', inputSchema: { type: 'object' } }],
								nextCursor: 'p2',
							}
						: {
								resultType: 'complete',
								ttlMs: 3_000,
								cacheScope: 'private',
								tools: [{ name: 'b', inputSchema: { type: 'object' } }],
							},
				)
				.on('prompts/list', () => ({ resultType: 'complete', prompts: [] }))
				.on('resources/read', (params) =>
					params.uri === 'file:///ask' && params.inputResponses === undefined
						? { resultType: 'input_required', inputRequests: { r: { method: 'roots/list' } }, requestState: 's' }
						: {
								resultType: 'complete',
								ttlMs: 60_000,
								cacheScope: 'public',
								contents: [{ uri: params.uri, text: 'x' }],
							},
				),
		{ handlers: elicitAda },
	);
	assert.deepEqual(
		client.discoverCacheHints,
		{ ttlMs: 0, cacheScope: 'public' },
		'"If ttlMs is negative, clients SHOULD ignore it and treat it as 0"',
	);
	const hints: unknown[] = [];
	assert.equal((await client.listTools({ onCacheHints: (h) => hints.push(h) })).length, 2);
	await client.listPrompts({ onCacheHints: (h) => hints.push(h) });
	assert.deepEqual(hints, [
		{ ttlMs: 3_000, cacheScope: 'private' },
		{ ttlMs: undefined, cacheScope: undefined },
	]);
	const plain = await client.readResource('file:///plain');
	const asked = await client.readResource('file:///ask');
	assert.equal(client.neededInput(plain), false);
	assert.equal(
		client.neededInput(asked),
		true,
		'"requests carrying inputResponses or requestState MUST NOT be cached"',
	);
});

test("2026-07-28: the MCP Apps extension travels in every request's client capabilities, beside the tasks extension", async () => {
	const ui = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
	const { server } = await connect((s) => modernServer(s), { handlers: { ...elicitAda, extensions: ui } });
	const meta = server.requests('server/discover')[0]?.params?._meta as Record<string, unknown>;
	// "The client includes io.modelcontextprotocol/tasks in its per-request capabilities" (ext-tasks): the host's own
	// extensions are added to it, not put in its place (a server requiring tasks refused every call when they were).
	assert.deepEqual(meta['io.modelcontextprotocol/clientCapabilities'], {
		roots: {},
		elicitation: { form: {} },
		extensions: { 'io.modelcontextprotocol/tasks': {}, ...ui },
	});
});
