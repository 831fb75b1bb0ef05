// The 2026-07-28 tasks extension against a scripted server: what the wire may get wrong (a task where only
// tools/call may return one, a terminal status without its result, an input request the client cannot answer, a
// failing tasks/update), the notification that spares a poll, and the Mcp-Name header of tasks/* over HTTP.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import { McpClient, type ClientOptions } from '../../src/protocol/client';
import { ErrorCode } from '../../src/protocol/jsonrpc';
import { McpError } from '../../src/protocol/mcpError';
import { standardHeaders } from '../../src/protocol/modern/httpHeaders';
import { parseExtensionTask, TASKS_EXTENSION } from '../../src/protocol/tasks/extensionTask';
import { FakeServer } from '../fixtures/fakeServer';
import { linkedPair } from '../fixtures/linkedTransport';

const V = '2026-07-28';
const T0 = '2026-11-23T10:00:00.000Z';
const T1 = '2026-11-23T10:00:01.000Z';

function isMcpError(code: number, pattern: RegExp) {
	return (error: unknown) => error instanceof McpError && error.code === code && pattern.test(error.message);
}

function task(status: string, extra: Record<string, unknown> = {}) {
	return {
		taskId: 't1',
		status,
		createdAt: T0,
		lastUpdatedAt: status === 'working' ? T0 : T1,
		ttlMs: 60_000,
		pollIntervalMs: 50,
		...extra,
	};
}

async function connect(setup: (server: FakeServer) => void, options: ClientOptions = {}) {
	const pair = linkedPair();
	const server = new FakeServer(pair.server);
	server.on('server/discover', () => ({
		resultType: 'complete',
		supportedVersions: [V],
		capabilities: { tools: {}, prompts: {}, extensions: { [TASKS_EXTENSION]: {} } },
		_meta: { 'io.modelcontextprotocol/serverInfo': { name: 'fake26', version: '1' } },
	}));
	setup(server);
	// The fake server answers initialize too: pinned to 2026-07-28, the era of the tasks extension.
	const client = await McpClient.connect(pair.client, {
		name: 'fake26',
		logger: new MemoryLogger('debug'),
		protocolVersion: '2026-07-28',
		...options,
	});
	return { server, client };
}

test('a CreateTaskResult answering prompts/get is invalid ("only tools/call"); parseExtensionTask refuses a wrong resultType or a failed task without its error', async () => {
	const { client } = await connect((s) => s.on('prompts/get', () => ({ resultType: 'task', ...task('working') })));
	await assert.rejects(
		client.getPrompt('p'),
		isMcpError(
			ErrorCode.ProtocolViolation,
			/^fake26 answered prompts\/get with resultType "task", which prompts\/get may not answer \(the tasks extension allows it only for tools\/call\)$/,
		),
	);
	assert.throws(
		() => parseExtensionTask({ ...task('working'), resultType: 'complete' }, 's', 'tools/call', 'task'),
		/s answered tools\/call with an invalid task: resultType is "complete", not "task"/,
	);
	assert.throws(
		() => parseExtensionTask({ ...task('failed'), resultType: 'complete' }, 's', 'tasks/get', 'detailed'),
		/status is failed but error is not a JSON-RPC error object/,
	);
	assert.throws(
		() =>
			parseExtensionTask(
				{ ...task('input_required'), inputRequests: { a: { params: {} } } },
				's',
				'tasks/get',
				'detailed',
			),
		/input request "a" has no method/,
	);
	const read = parseExtensionTask({ ...task('working'), resultType: 'task' }, 's', 'tools/call', 'task');
	assert.equal(read.ttl, 60_000, "ttlMs is read as the task's ttl");
	assert.equal(read.pollInterval, 50, 'pollIntervalMs is read as its pollInterval');
});

test('a CreateTaskResult that is already completed (without the result) is fetched with one tasks/get; a second one without it is a ProtocolViolation', async () => {
	let gets = 0;
	const { client, server } = await connect((s) =>
		s
			.on('tools/call', () => ({ resultType: 'task', ...task('completed') }))
			.on('tasks/get', (params) => {
				gets++;
				return params.taskId === 't1' && gets === 1
					? { resultType: 'complete', ...task('completed'), result: { content: [{ type: 'text', text: 'done' }] } }
					: { resultType: 'complete', ...task('completed') };
			}),
	);
	const result = await client.callTool('x', {});
	assert.deepEqual(result.content, [{ type: 'text', text: 'done' }]);
	assert.equal(server.requests('tasks/get').length, 1);
	await assert.rejects(
		client.callTool('x', {}),
		isMcpError(
			ErrorCode.ProtocolViolation,
			/^Task t1 \(x\) on fake26: tasks\/get reported completed without the result$/,
		),
	);
});

test('an input request the client cannot answer ends the task and cancels it on the server; so does a failing tasks/update', async () => {
	const { client, server } = await connect(
		(s) =>
			s
				.on('tools/call', (params) => ({ resultType: 'task', ...task('working', { taskId: String(params.name) }) }))
				.on('tasks/get', (params) =>
					params.taskId === 'sample'
						? {
								resultType: 'complete',
								...task('input_required', {
									taskId: 'sample',
									inputRequests: { s1: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } } },
								}),
							}
						: {
								resultType: 'complete',
								...task('input_required', {
									taskId: 'gone',
									inputRequests: {
										e1: {
											method: 'elicitation/create',
											params: { message: 'Name?', requestedSchema: { type: 'object', properties: {} } },
										},
									},
								}),
							},
				)
				.on('tasks/update', () => {
					throw new McpError(-32602, 'Unknown task gone');
				})
				.on('tasks/cancel', () => ({ resultType: 'complete' })),
		{ handlers: { elicitation: async () => ({ action: 'decline' }) } },
	);
	await assert.rejects(
		client.callTool('sample', {}),
		isMcpError(
			ErrorCode.ProtocolViolation,
			/^Task sample \(sample\) on fake26, input round 1: input request "s1" asks for sampling\/createMessage, but this client did not declare the 'sampling' capability$/,
		),
	);
	await assert.rejects(
		client.callTool('gone', {}),
		isMcpError(-32602, /^Task gone \(gone\) on fake26, input round 1: tasks\/update failed: Unknown task gone$/),
	);
	await server.waitFor((m) => 'method' in m && m.method === 'tasks/cancel' && m.params?.taskId === 'gone');
	assert.deepEqual(
		server.requests('tasks/cancel').map((r) => r.params?.taskId),
		['sample', 'gone'],
	);
	assert.deepEqual(
		server.requests('tasks/update')[0]?.params?.inputResponses,
		{ e1: { action: 'decline' } },
		'a decline is an answer, sent as one',
	);
});

test('notifications/tasks carries the whole task: the result arrives without waiting for the next poll', async () => {
	const { client, server } = await connect((s) =>
		s
			.on('tools/call', () => ({ resultType: 'task', ...task('working', { pollIntervalMs: 600_000 }) }))
			.on('tasks/get', () => ({ resultType: 'complete', ...task('working', { pollIntervalMs: 600_000 }) })),
	);
	const call = client.callTool('x', {});
	await server.waitFor('tools/call');
	await new Promise((resolve) => setImmediate(resolve));
	server.notify('notifications/tasks', {
		...task('completed'),
		result: { content: [{ type: 'text', text: 'pushed' }] },
	});
	assert.deepEqual((await call).content, [{ type: 'text', text: 'pushed' }]);
	assert.equal(server.requests('tasks/get').length, 0, 'no poll was due yet');
});

test('over HTTP, tasks/get, tasks/update and tasks/cancel carry Mcp-Name = the task id', () => {
	for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
		assert.deepEqual(standardHeaders(method, { taskId: 'abc-123' }), { 'mcp-method': method, 'mcp-name': 'abc-123' });
	}
	assert.deepEqual(standardHeaders('tools/call', { name: 'echo' }), { 'mcp-method': 'tools/call', 'mcp-name': 'echo' });
});
