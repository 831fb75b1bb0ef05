// Save as Session… from the Call History: the history's calls of one server become the JSON-RPC exchange they were,
// in Record Session's format, and the replay's own book (manager/sessionReplay.ts) answers them as the server did.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FAILED_CALL_CODE, sessionFromCalls, type PastCall } from '../../src/manager/sessionFromCalls';
import { REDACTED, SESSION_FORMAT } from '../../src/manager/sessionRecording';
import { ReplayBook, NOT_RECORDED } from '../../src/manager/sessionReplay';

const SECRET = 'sk-test-abcdef123456';

function echo(message: string, at: number, text = `Echo: ${message}`): PastCall {
	return {
		target: { kind: 'tool', server: 'everything', name: 'echo', arguments: { message } },
		outcome: { kind: 'result', result: { content: [{ type: 'text', text }] }, isError: false },
		startedAt: at,
	};
}

// The history lists newest first; the file is oldest first, with other servers' calls left out.
const history: PastCall[] = [
	echo('third', 300),
	{
		target: { kind: 'resource', server: 'everything', uri: 'demo://doc' },
		outcome: { kind: 'result', result: { contents: [{ uri: 'demo://doc', text: 'the doc' }] }, isError: false },
		startedAt: 250,
	},
	{
		target: { kind: 'tool', server: 'everything', name: 'get-sum', arguments: { a: 1, b: 2 } },
		outcome: { kind: 'error', message: 'MCP error -32602: a must be a number', cancelled: false },
		startedAt: 200,
	},
	{
		target: { kind: 'tool', server: 'everything', name: 'slow', arguments: {} },
		outcome: { kind: 'error', message: 'Cancelled', cancelled: true },
		startedAt: 190,
	},
	{ ...echo('huge', 180), resultDropped: { chars: 300_000 } },
	{
		target: { kind: 'prompt', server: 'everything', name: 'args-prompt', arguments: { city: 'Lyon' } },
		outcome: { kind: 'result', result: { messages: [] }, isError: false },
		startedAt: 150,
	},
	{ ...echo('elsewhere', 120), target: { kind: 'tool', server: 'other', name: 'echo', arguments: { message: 'x' } } },
	echo(`token ${SECRET}`, 100),
	echo('first', 50),
];

const tools = [{ name: 'echo', inputSchema: { type: 'object' as const } }];

test("the server's calls are written oldest first after its list, each request with its answer", () => {
	const { session, calls, skipped } = sessionFromCalls('everything', history, {
		lists: { tools, prompts: [], resources: [], resourceTemplates: [] },
		now: new Date('2026-11-28T12:00:00Z'),
	});
	assert.equal(session.format, SESSION_FORMAT);
	assert.equal(session.server, 'everything');
	assert.equal(session.recordedAt, '2026-11-28T12:00:00.000Z');
	assert.equal(calls, 6);
	const requests = session.messages
		.filter((m) => m.dir === 'out')
		.map((m) => {
			const message = m.message as { method: string; params?: { name?: string; uri?: string } };
			return `${message.method} ${message.params?.name ?? message.params?.uri ?? ''}`.trim();
		});
	assert.deepEqual(requests, [
		'tools/list',
		'tools/call echo',
		'tools/call echo',
		'prompts/get args-prompt',
		'tools/call get-sum',
		'resources/read demo://doc',
		'tools/call echo',
	]);
	// Each answer follows its request, with the same id.
	for (let i = 0; i < session.messages.length; i += 2) {
		const [out, answer] = [session.messages[i]!, session.messages[i + 1]!];
		assert.equal(out.dir, 'out');
		assert.equal(answer.dir, 'in');
		assert.equal((answer.message as { id: number }).id, (out.message as { id: number }).id);
	}
	assert.deepEqual(skipped, [
		'tool echo: its result was too large for the history to keep',
		'tool slow: cancelled, so the server never answered',
	]);
});

test('the replay answers each call as the history saw it; a failed call is an error with its message', () => {
	const { session } = sessionFromCalls('everything', history, {
		lists: { tools, prompts: [], resources: [], resourceTemplates: [] },
	});
	const book = new ReplayBook(session);
	assert.deepEqual(book.answer('tools/list', undefined), { result: { tools } });
	assert.deepEqual(book.answer('tools/call', { name: 'echo', arguments: { message: 'third' } }), {
		result: { content: [{ type: 'text', text: 'Echo: third' }] },
	});
	assert.deepEqual(book.answer('prompts/get', { name: 'args-prompt', arguments: { city: 'Lyon' } }), {
		result: { messages: [] },
	});
	assert.deepEqual(book.answer('resources/read', { uri: 'demo://doc' }), {
		result: { contents: [{ uri: 'demo://doc', text: 'the doc' }] },
	});
	assert.deepEqual(book.answer('tools/call', { name: 'get-sum', arguments: { a: 1, b: 2 } }), {
		error: { code: FAILED_CALL_CODE, message: 'MCP error -32602: a must be a number' },
	});
	const stray = book.answer('tools/call', { name: 'slow', arguments: {} });
	assert.ok('error' in stray && stray.error.code === NOT_RECORDED, 'the cancelled call is not in the file');
	assert.deepEqual(book.unexpected, ['tools/call {"arguments":{},"name":"slow"}']);
});

test('secrets are redacted in requests, answers and the handshake', () => {
	const { session } = sessionFromCalls('everything', history, {
		secrets: [SECRET],
		handshake: {
			protocolVersion: '2025-11-25',
			capabilities: { tools: {} },
			serverInfo: { name: 'everything' },
			instructions: `use ${SECRET} to log in`,
		},
	});
	const text = JSON.stringify(session);
	assert.ok(!text.includes(SECRET), 'the secret is nowhere in the file');
	assert.ok(text.includes(`token ${REDACTED}`), 'the call that held it is there, redacted');
	assert.equal(session.initialize?.instructions, `use ${REDACTED} to log in`);
	assert.equal(session.initialize?.protocolVersion, '2025-11-25');
});

test('without a running connection the handshake names the server and the capabilities its calls need', () => {
	const { session } = sessionFromCalls('everything', history);
	assert.deepEqual(session.initialize, {
		protocolVersion: '2025-06-18',
		capabilities: { tools: {}, prompts: {}, resources: {} },
		serverInfo: { name: 'everything', version: '0.0.0' },
	});
	assert.equal(
		session.messages.some((m) => (m.message as { method?: string }).method === 'tools/list'),
		false,
		'no lists were given, so none is written',
	);
});

test('a single call makes a file of that call alone', () => {
	const { session, calls } = sessionFromCalls('everything', [echo('only', 1)]);
	assert.equal(calls, 1);
	assert.equal(session.messages.length, 2);
	assert.deepEqual(session.initialize?.capabilities, { tools: {} });
});
