// Tasks in the client over an in-memory pair with a scripted server and a manual clock: when tasks/get is sent
// (pollInterval honoured, one timer for all tasks, none when no task is live), and the client as a task receiver.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import { McpClient } from '../../src/protocol/client';
import { ErrorCode } from '../../src/protocol/jsonrpc';
import { McpError } from '../../src/protocol/mcpError';
import { RELATED_TASK_META, parseTask } from '../../src/protocol/tasks/task';
import { FakeServer, ManualClock, NO_REPLY } from '../fixtures/fakeServer';
import { linkedPair } from '../fixtures/linkedTransport';

const flush = async () => {
	for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

const TASK_CAPS = { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };

function task(taskId: string, status: string, extra: Record<string, unknown> = {}) {
	return {
		taskId,
		status,
		createdAt: '2025-11-25T10:00:00Z',
		lastUpdatedAt: '2025-11-25T10:00:00Z',
		ttl: 60_000,
		...extra,
	};
}

async function setup() {
	const pair = linkedPair();
	const server = new FakeServer(pair.server, { capabilities: TASK_CAPS });
	const clock = new ManualClock();
	const logger = new MemoryLogger('debug');
	const client = await McpClient.connect(pair.client, { name: 'fake', logger, taskClock: clock });
	return { server, clock, client, logger };
}

test('tasks/get follows the pollInterval of the latest answer; one timer serves every task; none is armed once no task is live', async () => {
	const { server, clock, client } = await setup();
	const states = new Map<string, { status: string; pollInterval: number }>([
		['a', { status: 'working', pollInterval: 1000 }],
		['b', { status: 'working', pollInterval: 300 }],
	]);
	let created = 0;
	server.on('tools/call', () => {
		const id = created++ === 0 ? 'a' : 'b';
		return { task: task(id, 'working', { pollInterval: states.get(id)!.pollInterval }) };
	});
	server.on('tasks/get', (params) => {
		const state = states.get(String(params.taskId))!;
		return task(String(params.taskId), state.status, { pollInterval: state.pollInterval });
	});
	server.on('tasks/result', (params) => ({
		content: [{ type: 'text', text: `result ${String(params.taskId)}` }],
		_meta: { [RELATED_TASK_META]: { taskId: params.taskId } },
	}));
	assert.equal(clock.armed, 0, 'no task, no timer');
	const a = await client.startToolTask('slow', {}, { task: true });
	const b = await client.startToolTask('slow', {}, { task: true });
	assert.equal(clock.armed, 1, 'two live tasks, one timer');
	const gets = () => server.requests('tasks/get').map((r) => String(r.params?.taskId));
	clock.advance(300);
	await flush();
	assert.deepEqual(gets(), ['b']);
	clock.advance(300);
	await flush();
	assert.deepEqual(gets(), ['b', 'b']);
	// a's server slows b down: the next poll of b follows the new interval.
	states.get('b')!.pollInterval = 2000;
	clock.advance(300);
	await flush();
	assert.deepEqual(gets(), ['b', 'b', 'b']);
	clock.advance(100);
	await flush();
	assert.deepEqual(gets(), ['b', 'b', 'b', 'a'], 'a at 1000 ms');
	clock.advance(1900);
	await flush();
	assert.deepEqual(gets(), ['b', 'b', 'b', 'a', 'a', 'b'], 'a at 2000, b at 2900 (900 + 2000)');
	states.get('a')!.status = 'completed';
	states.get('b')!.status = 'completed';
	clock.advance(2000);
	await flush();
	assert.equal((await a.result()).content[0]?.text, 'result a');
	assert.equal((await b.result()).content[0]?.text, 'result b');
	assert.equal(clock.armed, 0, 'both done: no timer left');
	assert.equal(client.liveTasks.length, 0);
});

test('a pollInterval of 0 does not spin, and a status notification acts at once', async () => {
	const { server, clock, client } = await setup();
	server.on('tools/call', () => ({ task: task('t', 'working', { pollInterval: 0 }) }));
	server.on('tasks/get', () => task('t', 'working', { pollInterval: 0 }));
	server.on('tasks/result', () => ({ content: [{ type: 'text', text: 'done' }] }));
	const handle = await client.startToolTask('x', {}, { task: true });
	clock.advance(10);
	await flush();
	assert.equal(server.requests('tasks/get').length, 0, 'not before the 50 ms floor');
	clock.advance(40);
	await flush();
	assert.equal(server.requests('tasks/get').length, 1);
	server.notify('notifications/tasks/status', task('t', 'completed'));
	await flush();
	assert.equal((await handle.result()).content[0]?.text, 'done');
	assert.equal(clock.armed, 0);
});

test('a task without a terminal status stops being polled at its TTL; a status going backwards is ignored', async () => {
	const { server, clock, client, logger } = await setup();
	server.on('tools/call', () => ({ task: task('t', 'working', { ttl: 5000, pollInterval: 1000 }) }));
	server.on('tasks/get', () => task('t', 'working', { ttl: 5000, pollInterval: 1000 }));
	const result = client.callTool('x', {}, { task: true });
	const rejected = assert.rejects(
		result,
		(error: unknown) =>
			error instanceof McpError &&
			error.code === ErrorCode.RequestTimeout &&
			/within its TTL of 5000 ms/.test(error.message),
	);
	for (let i = 0; i < 6; i++) {
		clock.advance(1000);
		await flush();
	}
	await rejected;
	const polls = server.requests('tasks/get').length;
	clock.advance(10_000);
	await flush();
	assert.equal(server.requests('tasks/get').length, polls, 'no poll after the TTL');
	assert.equal(clock.armed, 0);

	// Backwards: cancelled, then "working" again.
	server.on('tools/call', () => ({ task: task('u', 'working', { pollInterval: 1000 }) }));
	server.on('tasks/result', () => NO_REPLY);
	const handle = await client.startToolTask('x', {}, { task: true });
	server.notify('notifications/tasks/status', task('u', 'input_required', { lastUpdatedAt: '2025-11-25T10:00:05Z' }));
	// A queued notification delivered late (older lastUpdatedAt) does not undo the newer state.
	server.notify('notifications/tasks/status', task('u', 'working', { lastUpdatedAt: '2025-11-25T10:00:02Z' }));
	await flush();
	assert.equal(handle.status, 'input_required');
	server.notify(
		'notifications/tasks/status',
		task('u', 'failed', { statusMessage: 'boom', lastUpdatedAt: '2025-11-25T10:00:06Z' }),
	);
	server.notify('notifications/tasks/status', task('u', 'working', { lastUpdatedAt: '2025-11-25T10:00:07Z' }));
	await flush();
	assert.equal(handle.status, 'failed');
	assert.equal(logger.find('a terminal status is final').length, 1);
	await handle.cancel();
});

test('the task data is checked at the wire: a bad status or a missing taskId is a ProtocolViolation naming the server', () => {
	assert.throws(
		() => parseTask({ taskId: 't', status: 'sleeping', createdAt: 'x' }, 'srv', 'tasks/get'),
		/srv answered tasks\/get with an invalid task: status "sleeping" is not one of/,
	);
	assert.throws(
		() => parseTask({ status: 'working', createdAt: 'x' }, 'srv', 'tasks/get'),
		/taskId is not a non-empty string/,
	);
	assert.equal(parseTask({ taskId: 't', status: 'working', createdAt: 'x', lastUpdatedAt: 'x' }, 'srv', 'm').ttl, null);
});

test('as a receiver, the client answers task-augmented elicitation with a task and serves tasks/get, tasks/result, tasks/cancel and tasks/list', async () => {
	const pair = linkedPair();
	const server = new FakeServer(pair.server, { capabilities: { tools: {} } });
	let answer!: (value: { action: 'accept'; content: Record<string, string> }) => void;
	let aborted = false;
	const client = await McpClient.connect(pair.client, {
		name: 'fake',
		handlers: {
			tasks: true,
			elicitation: (_params, signal) =>
				new Promise((resolve) => {
					answer = resolve;
					signal.addEventListener('abort', () => (aborted = true));
				}),
		},
	});
	const ask = (method: string, params: Record<string, unknown>): Promise<unknown> => server.request(method, params);
	assert.deepEqual(server.requests('initialize')[0]?.params?.capabilities, {
		elicitation: { form: {} },
		tasks: { list: {}, cancel: {}, requests: { elicitation: { create: {} } } },
	});
	const elicit = {
		message: 'Name?',
		requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
		task: { ttl: 30_000 },
	};
	const created = (await ask('elicitation/create', elicit)) as {
		result: { task: { taskId: string; status: string; ttl: number } };
	};
	const taskId = created.result.task.taskId;
	assert.equal(created.result.task.status, 'working');
	assert.equal(created.result.task.ttl, 30_000);
	const got = (await ask('tasks/get', { taskId })) as { result: { status: string } };
	assert.equal(got.result.status, 'working');
	const pending = ask('tasks/result', { taskId });
	answer({ action: 'accept', content: { name: 'Ada' } });
	const result = (await pending) as { result: Record<string, unknown> };
	assert.deepEqual(result.result, {
		action: 'accept',
		content: { name: 'Ada' },
		_meta: { [RELATED_TASK_META]: { taskId } },
	});
	await server.waitFor(
		(m) =>
			'method' in m &&
			m.method === 'notifications/tasks/status' &&
			(m.params as { status?: string }).status === 'completed',
	);
	const refused = (await ask('tasks/cancel', { taskId })) as { error?: { code: number; message: string } };
	assert.equal(refused.error?.code, ErrorCode.InvalidParams, 'a terminal task cannot be cancelled');
	// A second one, cancelled by the server while the user still looks at it.
	const second = ((await ask('elicitation/create', elicit)) as { result: { task: { taskId: string } } }).result.task
		.taskId;
	const cancelled = (await ask('tasks/cancel', { taskId: second })) as { result: { status: string } };
	assert.equal(cancelled.result.status, 'cancelled');
	assert.equal(aborted, true, "the UI's signal aborted");
	const listed = (await ask('tasks/list', {})) as { result: { tasks: Array<{ taskId: string }> } };
	assert.deepEqual(
		listed.result.tasks.map((t) => t.taskId),
		[taskId, second],
	);
	const unknown = (await ask('tasks/get', { taskId: 'nope' })) as { error?: { code: number } };
	assert.equal(unknown.error?.code, ErrorCode.InvalidParams);
	// A plain elicitation that belongs to a server-side task answers with the related-task _meta.
	const related = ask('elicitation/create', {
		message: 'More?',
		requestedSchema: { type: 'object', properties: {} },
		_meta: { [RELATED_TASK_META]: { taskId: 'server-task' } },
	});
	await flush();
	answer({ action: 'accept', content: {} });
	assert.deepEqual(((await related) as { result: { _meta: unknown } }).result._meta, {
		[RELATED_TASK_META]: { taskId: 'server-task' },
	});
	await client.close();
});

test('cancel sends tasks/cancel to a server that supports tasks without advertising tasks.cancel, and says what it answered', async () => {
	const pair = linkedPair();
	// Tasks for tools/call, no `cancel` in the capability: the official SDK's example servers advertise exactly this.
	const server = new FakeServer(pair.server, {
		capabilities: { tools: {}, tasks: { requests: { tools: { call: {} } } } },
	});
	const clock = new ManualClock();
	const client = await McpClient.connect(pair.client, {
		name: 'fake',
		logger: new MemoryLogger('debug'),
		taskClock: clock,
	});
	server.on('tools/call', (params) => ({ task: task(`t-${String(params.name)}`, 'working') }));
	server.on('tasks/cancel', (params) =>
		task(String(params.taskId), 'cancelled', { lastUpdatedAt: '2025-11-25T10:00:01Z' }),
	);

	const accepted = await client.startToolTask('slow', {}, { task: true });
	const outcome = await accepted.cancel();
	assert.deepEqual(
		server.requests('tasks/cancel').map((r) => r.params?.taskId),
		['t-slow'],
		'sent although not advertised',
	);
	assert.equal(outcome.kind, 'cancelled');
	assert.equal(accepted.status, 'cancelled', 'the state the server answered');
	await assert.rejects(accepted.result(), (error: McpError) => error.code === ErrorCode.RequestCancelled);

	// A server without tasks/cancel answers "method not found": the user learns the task may still be running.
	server.on('tasks/cancel', () => {
		throw new McpError(ErrorCode.MethodNotFound, 'Method not found');
	});
	const refused = await client.startToolTask('other', {}, { task: true });
	const second = await refused.cancel('Cancelled by the user');
	assert.equal(second.kind, 'unsupported');
	assert.match(
		second.message,
		/fake does not support cancelling tasks .*Method not found.*; it may still be running there/,
	);
	await assert.rejects(refused.result(), (error: McpError) => {
		assert.equal(error.code, ErrorCode.RequestCancelled);
		assert.match(error.message, /was cancelled: Cancelled by the user; fake does not support cancelling tasks/);
		return true;
	});
	assert.equal((await refused.cancel()).kind, 'settled', 'a second cancel sends nothing');
	assert.equal(server.requests('tasks/cancel').length, 2);
	await client.close();
});

test("a server's own -32000 answer to tasks/get is a failed poll, not 'connection closed': the task goes on", async () => {
	const { server, clock, client } = await setup();
	let gets = 0;
	server.on('tools/call', () => ({ task: task('t', 'working', { pollInterval: 100 }) }));
	server.on('tasks/get', () => {
		// The server's own error in the range the client uses for its local failures (-32000 is ConnectionClosed's code).
		if (++gets === 1) throw new McpError(-32000, 'Server busy, try again');
		return task('t', 'completed');
	});
	server.on('tasks/result', () => ({ content: [{ type: 'text', text: 'done after a busy answer' }] }));
	const handle = await client.startToolTask('x', {}, { task: true });
	clock.advance(100);
	await flush();
	assert.equal(server.requests('tasks/get').length, 1);
	assert.notEqual(handle.status, 'failed', 'one busy answer does not end the task');
	clock.advance(100);
	await flush();
	assert.equal((await handle.result()).content[0]?.text, 'done after a busy answer');
});

test('McpError.local: made here it is the local failure; answered by a peer with the same code it is not', () => {
	assert.equal(McpError.connectionClosed('gone').local, 'closed');
	assert.equal(McpError.timeout('tools/call', 10).local, 'timeout');
	const answered = McpError.fromResponse({ code: ErrorCode.ConnectionClosed, message: 'Server busy' });
	assert.equal(answered.local, undefined);
	assert.equal(answered.code, -32000, 'the code callers and users see is the server’s');
	// Reworded with its cause, a peer's error stays a peer's.
	assert.equal(
		new McpError(answered.code, `tasks/get: ${answered.message}`, undefined, { cause: answered }).local,
		undefined,
	);
	assert.equal(new McpError(ErrorCode.InvalidParams, 'bad').local, undefined, 'standard codes are never local');
});
