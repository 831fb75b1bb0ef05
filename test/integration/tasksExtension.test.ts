// The 2026-07-28 tasks extension (io.modelcontextprotocol/tasks) in the headless client against a real process: the
// task fixture server in --modern mode (test/fixtures/servers/taskServer.js), which creates tasks at its own choice in
// answer to a plain tools/call, carries results, errors and input requests inline in tasks/get, takes answers through
// tasks/update and acknowledges tasks/cancel. Every way a task can go, and the bad input the issue names (a task that
// asks for input for ever, never ends, or is forgotten by the server): a clear error naming the server and the step.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import { McpClient, type ClientOptions, type ToolTask } from '../../src/protocol/client';
import { ErrorCode } from '../../src/protocol/jsonrpc';
import type { ElicitRequest } from '../../src/protocol/schema';
import { StdioTransport } from '../../src/protocol/transports/stdio';
import { mcpError, text } from '../fixtures/taskAssertions';

const taskServer = join(process.cwd(), 'test/fixtures/servers/taskServer.js');
const clients: McpClient[] = [];

interface Stats {
	[taskId: string]: { tool: string; status: string; gets: number; intervals: number[] };
}
interface WireEntry {
	method: string;
	meta: boolean;
	inputResponses?: Record<string, { action: string; content?: Record<string, unknown> }>;
}

async function fixture(options: ClientOptions = {}, flags: string[] = []) {
	const logger = new MemoryLogger('debug');
	const transport = new StdioTransport({
		command: process.execPath,
		args: [taskServer, '--modern', ...flags],
		name: 'tasks26',
		logger,
	});
	const client = await McpClient.connect(transport, { name: 'tasks26', logger, ...options });
	clients.push(client);
	await client.listTools();
	return { client, logger };
}

interface ListenEntry {
	asked: string[];
	granted: string[];
}

async function stats(
	client: McpClient,
): Promise<{ tasks: Stats; wire: WireEntry[]; listens: ListenEntry[]; openListens: number }> {
	const { wire, listens, openListens, ...tasks } = JSON.parse(text(await client.callTool('stats', {}))) as Stats & {
		wire: WireEntry[];
		listens: ListenEntry[];
		openListens: number;
	};
	return { tasks, wire, listens, openListens };
}

function logText(logger: MemoryLogger): string {
	return logger.entries.map((entry) => entry.message).join('\n');
}

after(async () => {
	await Promise.all(clients.map((client) => client.close()));
});

describe('the 2026-07-28 tasks extension against the modern task fixture', { timeout: 60_000 }, () => {
	test('a server that advertises the extension; callTool follows the task it chooses to create, polling tasks/get with the request metadata', async () => {
		const { client } = await fixture();
		assert.equal(client.era, 'modern');
		assert.equal(client.supportsTasksExtension(), true);
		assert.equal(
			client.toolTaskSupport('work'),
			'forbidden',
			'no per-tool task choice in 2026-07-28: the server decides',
		);
		const statuses: string[] = [];
		let created: ToolTask | undefined;
		const result = await client.callTool(
			'work',
			{ ms: 600, steps: 3, pollInterval: 100 },
			{
				onTaskCreated: (handle) => (created = handle),
				onTaskStatus: (task) => statuses.push(`${task.status}:${task.statusMessage ?? ''}`),
			},
		);
		assert.equal(text(result), 'worked 600 ms');
		assert.ok(created, 'the task handle was given out (the Tasks list tracks it)');
		assert.equal(created.status, 'completed');
		assert.ok(
			statuses.some((s) => /^working:Step [23] of 3$/.test(s)),
			`status messages seen: ${statuses.join(', ')}`,
		);
		assert.equal(statuses.at(-1)?.split(':')[0], 'completed');
		const { tasks, wire } = await stats(client);
		assert.ok((tasks[created.taskId]?.gets ?? 0) >= 2, 'polled with tasks/get');
		assert.ok(
			wire.length > 0 && wire.every((entry) => entry.meta),
			'every tasks/* request carried the per-request _meta',
		);
		assert.ok(!wire.some((entry) => entry.method === 'tasks/result'), 'no tasks/result: the result came inline');
		assert.equal(client.liveTasks.length, 0);
	});

	test('pollIntervalMs is honoured: polls are never closer than the server asked', async () => {
		const { client } = await fixture();
		let taskId = '';
		await client.callTool(
			'work',
			{ ms: 1200, steps: 2, pollInterval: 300 },
			{ onTaskCreated: (handle) => (taskId = handle.taskId) },
		);
		const entry = (await stats(client)).tasks[taskId];
		assert.ok(entry && entry.intervals.length >= 1, `several polls: ${JSON.stringify(entry)}`);
		for (const interval of entry.intervals)
			assert.ok(
				interval >= 250,
				`interval ${interval} ms honours pollIntervalMs 300 (all: ${entry.intervals.join(', ')})`,
			);
	});

	test('input_required: inputRequests from tasks/get are answered once through the elicitation handler, sent with tasks/update, and the task completes', async () => {
		const asked: ElicitRequest[] = [];
		const { client } = await fixture({
			handlers: {
				elicitation: async (params) => {
					asked.push(params);
					// The person takes a while: polls go on meanwhile and must not ask again.
					await new Promise((resolve) => setTimeout(resolve, 500));
					return { action: 'accept', content: { answer: 'blue' } };
				},
			},
		});
		const statuses: string[] = [];
		const result = await client.callTool(
			'ask',
			{ question: 'Sky colour?', pollInterval: 50 },
			{ onTaskStatus: (task) => statuses.push(task.status) },
		);
		assert.equal(text(result), 'answer: blue');
		assert.equal(asked.length, 1, 'the same input request key is presented once, however many polls list it');
		assert.equal(asked[0]?.message, 'Sky colour?');
		assert.ok(statuses.includes('input_required'), statuses.join(', '));
		const { wire } = await stats(client);
		const updates = wire.filter((entry) => entry.method === 'tasks/update');
		assert.equal(updates.length, 1);
		assert.deepEqual(updates[0]?.inputResponses, { q1: { action: 'accept', content: { answer: 'blue' } } });
	});

	test('multi round-trip first, then a task: the input_required round is answered and retried, and the task it returns is followed', async () => {
		let asked = 0;
		const { client } = await fixture({
			handlers: { elicitation: async () => (asked++, { action: 'accept', content: { ok: true } }) },
		});
		let taskId: string | undefined;
		const result = await client.callTool('confirm', {}, { onTaskCreated: (handle) => (taskId = handle.taskId) });
		assert.equal(text(result), 'confirmed: true');
		assert.equal(asked, 1);
		assert.ok(taskId, 'the retry was answered with a task');
	});

	test('an isError result completes the task and resolves like a plain call; a JSON-RPC error fails it, naming the server and the task', async () => {
		const { client } = await fixture();
		const failed = await client.callTool('fail', {});
		assert.equal(failed.isError, true);
		assert.match(text(failed), /disk full/);
		await assert.rejects(
			client.callTool('error', {}),
			mcpError(-32603, /^Task .+ \(error\) on tasks26 failed: Internal error: the backend went away/),
		);
	});

	test('aborting the call sends tasks/cancel (cooperative) and rejects with RequestCancelled; the server marks it cancelled', async () => {
		const { client } = await fixture();
		const controller = new AbortController();
		let handle: ToolTask | undefined;
		const call = client.callTool(
			'work',
			{ ms: 20_000, steps: 10, pollInterval: 100 },
			{ signal: controller.signal, onTaskCreated: (created) => (handle = created) },
		);
		while (handle === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
		const taskId = handle.taskId;
		controller.abort(new Error('the person pressed Cancel'));
		await assert.rejects(call, mcpError(ErrorCode.RequestCancelled, /cancelled: the person pressed Cancel/));
		assert.equal(
			handle.status,
			'cancelled',
			'the handle (and the Tasks row) says cancelled once the server acknowledged',
		);
		const { tasks, wire } = await stats(client);
		assert.equal(tasks[taskId]?.status, 'cancelled');
		assert.equal(wire.filter((entry) => entry.method === 'tasks/cancel').length, 1);
	});

	test('startToolTask gives a handle either way (the server decides), and resumeToolTask picks a task up again by id', async () => {
		const { client } = await fixture();
		const direct = await client.startToolTask('forbidden', {});
		assert.equal(direct.settled, true, 'answered directly: an already settled handle');
		assert.equal(text(await direct.result()), 'forbidden tools answer at once');
		const first = await client.startToolTask('work', { ms: 800, steps: 2, pollInterval: 100 });
		assert.equal(first.settled, false);
		first.detach();
		await assert.rejects(first.result(), mcpError(ErrorCode.RequestCancelled, /Stopped waiting/));
		const again = await client.resumeToolTask(first.taskId, 'work');
		assert.equal(text(await again.result()), 'worked 800 ms');
	});

	test('bad input: a task that asks for input for ever stops at the round limit, is cancelled on the server, and the error names the server, the task and the round', async () => {
		let asked = 0;
		const { client } = await fixture({
			maxTaskInputRounds: 3,
			handlers: { elicitation: async () => (asked++, { action: 'accept', content: { answer: 'again' } }) },
		});
		let taskId = '';
		await assert.rejects(
			client.callTool('askForever', { pollInterval: 50 }, { onTaskCreated: (handle) => (taskId = handle.taskId) }),
			mcpError(
				ErrorCode.ProtocolViolation,
				/^Task .+ \(askForever\) on tasks26: the server still asks for input after 3 rounds; giving up and cancelling the task$/,
			),
		);
		assert.equal(asked, 3);
		// The cancel is sent as the handle gives up; give the server a moment to record it.
		await new Promise((resolve) => setTimeout(resolve, 100));
		assert.equal((await stats(client)).tasks[taskId]?.status, 'cancelled');
	});

	test('bad input: a task that never ends stops being polled at its TTL; a task the server forgets fails clearly; other calls go on', async () => {
		const { client } = await fixture();
		await assert.rejects(
			client.callTool('never', { ttl: 1500, pollInterval: 100 }),
			mcpError(
				ErrorCode.RequestTimeout,
				/^Task .+ \(never\) on tasks26 did not finish within its TTL of 1500 ms \(last status: working\); stopped polling$/,
			),
		);
		await assert.rejects(
			client.callTool('lose', { pollInterval: 50 }),
			mcpError(ErrorCode.InvalidParams, /^Task .+ \(lose\) is no longer known to tasks26: Task not found/),
		);
		assert.equal(text(await client.callTool('forbidden', {})), 'forbidden tools answer at once');
	});

	test('bad input: a completed task whose result has the wrong shape is a ProtocolViolation naming the server and tasks/get', async () => {
		const { client } = await fixture();
		await assert.rejects(
			client.callTool('badResult', {}),
			mcpError(ErrorCode.ProtocolViolation, /tasks26 answered tasks\/get with an invalid result/),
		);
	});
});

// SEP-2663 "Task Status Notifications" (https://modelcontextprotocol.io/seps/2663-tasks-extension): "To begin listening
// for task status notifications, clients send a subscriptions/listen request to the server including a list of task
// IDs the client is interested in"; "Each notification carries a complete DetailedTask for the current status,
// identical to what tasks/get would have returned at that moment"; "Clients MAY continue polling tasks/get in addition
// to subscribing to task status notifications".
describe('task status through subscriptions/listen (notifications/tasks)', { timeout: 60_000 }, () => {
	test('the live task ids go into subscriptions/listen; with a pollIntervalMs of 60 s the task completes on its notifications without one tasks/get, each status as it changes', async () => {
		const { client, logger } = await fixture();
		const statuses: string[] = [];
		let taskId = '';
		const result = await client.callTool(
			'work',
			{ ms: 600, steps: 3, pollInterval: 60_000 },
			{
				onTaskCreated: (handle) => (taskId = handle.taskId),
				onTaskStatus: (task) => statuses.push(`${task.status}:${task.statusMessage ?? ''}`),
			},
		);
		assert.equal(text(result), 'worked 600 ms');
		const { tasks, listens, openListens } = await stats(client);
		assert.equal(
			tasks[taskId]?.gets,
			0,
			'no tasks/get: the status and the result came pushed (the next poll was 60 s away)',
		);
		assert.ok(
			listens.some((listen) => listen.asked.includes(taskId) && listen.granted.includes(taskId)),
			`a listen asked for the task and was granted it: ${JSON.stringify(listens)}`,
		);
		assert.ok(
			statuses.includes('working:Step 2 of 3') && statuses.includes('working:Step 3 of 3'),
			`every step reached the caller (the Tasks row): ${statuses.join(', ')}`,
		);
		assert.equal(statuses.at(-1)?.split(':')[0], 'completed');
		assert.equal(openListens, 0, 'no task left and no list wanted: the listen was cancelled');
		assert.match(logText(logger), /listening for changes \(1 task\) on subscriptions\/listen/);
	});

	test('several tasks at once: one listen carries every live id, and each completes on its own notification', async () => {
		const { client } = await fixture();
		const ids: string[] = [];
		const results = await Promise.all(
			[300, 500, 700].map((ms) =>
				client.callTool(
					'work',
					{ ms, steps: 1, pollInterval: 60_000 },
					{ onTaskCreated: (handle) => ids.push(handle.taskId) },
				),
			),
		);
		assert.deepEqual(results.map(text), ['worked 300 ms', 'worked 500 ms', 'worked 700 ms']);
		const { tasks, listens } = await stats(client);
		for (const id of ids) assert.equal(tasks[id]?.gets, 0, `task ${id} was never polled`);
		assert.ok(
			listens.some((listen) => ids.every((id) => listen.granted.includes(id))),
			`one listen had all three: ${JSON.stringify(listens)}`,
		);
	});

	test('a listen the server ends is opened again with the live tasks, and their notifications still arrive', async () => {
		const { client, logger } = await fixture({ listen: { retryDelayMs: 50 } });
		let taskId = '';
		const result = await client.callTool(
			'work',
			{ ms: 800, steps: 2, pollInterval: 60_000, dropListen: true },
			{ onTaskCreated: (handle) => (taskId = handle.taskId) },
		);
		assert.equal(text(result), 'worked 800 ms');
		const { tasks, listens } = await stats(client);
		assert.ok(
			listens.filter((listen) => listen.granted.includes(taskId)).length >= 2,
			`listened again for the task: ${JSON.stringify(listens)}`,
		);
		assert.equal(tasks[taskId]?.gets, 0, 'the result came on the second listen, not by polling');
		assert.match(logText(logger), /the server ended the subscriptions\/listen stream; listening again later/);
	});

	test("a server that acknowledges without the task ids (or has no subscriptions/listen): status comes from tasks/get at the server's pollIntervalMs", async () => {
		for (const flag of ['--no-task-notifications', '--no-listen']) {
			const { client, logger } = await fixture({}, [flag]);
			let taskId = '';
			const result = await client.callTool(
				'work',
				{ ms: 900, steps: 3, pollInterval: 150 },
				{ onTaskCreated: (handle) => (taskId = handle.taskId) },
			);
			assert.equal(text(result), 'worked 900 ms', flag);
			const entry = (await stats(client)).tasks[taskId];
			assert.ok(entry && entry.gets >= 2, `${flag}: polled (${JSON.stringify(entry)})`);
			for (const interval of entry.intervals)
				assert.ok(interval >= 120, `${flag}: interval ${interval} ms honours pollIntervalMs 150`);
			assert.match(
				logText(logger),
				flag === '--no-listen'
					? /does not support subscriptions\/listen .*task status comes only from polling/
					: /the server does not send status of task .+ \(polled with tasks\/get instead\)/,
				flag,
			);
		}
	});
});
