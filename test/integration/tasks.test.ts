// MCP tasks (2025-11-25) in the headless client against real processes: the task fixture server
// (test/fixtures/servers/taskServer.js) for every way a task can go, and server-everything's own task tool
// `simulate-research-query` (with its input_required variant) and its client-side task tools.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import { McpClient, type ClientOptions } from '../../src/protocol/client';
import { ErrorCode } from '../../src/protocol/jsonrpc';
import type { ElicitRequest, Progress } from '../../src/protocol/schema';
import type { Task } from '../../src/protocol/tasks/task';
import { StdioTransport } from '../../src/protocol/transports/stdio';
import { mcpError, text } from '../fixtures/taskAssertions';
import { everythingMain } from './everythingSuite';

const taskServer = join(process.cwd(), 'test/fixtures/servers/taskServer.js');
const clients: McpClient[] = [];

async function fixture(flags: string[] = [], options: ClientOptions = {}) {
	const logger = new MemoryLogger('debug');
	const transport = new StdioTransport({
		command: process.execPath,
		args: [taskServer, ...flags],
		name: 'tasks',
		logger,
	});
	const client = await McpClient.connect(transport, { name: 'tasks', logger, ...options });
	clients.push(client);
	await client.listTools();
	return { client, logger };
}

after(async () => {
	await Promise.all(clients.map((client) => client.close()));
});

describe('tasks against the task fixture server', { timeout: 60_000 }, () => {
	test('callTool runs a required-task tool as a task and resolves with its CallToolResult; states and progress come through the options', async () => {
		const { client } = await fixture();
		const statuses: string[] = [];
		const progress: Progress[] = [];
		let created: string | undefined;
		const result = await client.callTool(
			'work',
			{ ms: 600, steps: 3 },
			{
				task: { ttl: 30_000 },
				onTaskStatus: (task) => statuses.push(`${task.status}:${task.statusMessage ?? ''}`),
				onProgress: (p) => progress.push(p),
				onTaskCreated: (handle) => (created = handle.taskId),
			},
		);
		assert.equal(text(result), 'worked 600 ms');
		assert.ok(created, 'the handle was given out');
		assert.ok(statuses.includes('working:Step 2 of 3'), `status messages seen: ${statuses.join(', ')}`);
		assert.equal(statuses.at(-1)?.split(':')[0], 'completed');
		assert.deepEqual(
			progress.map((p) => p.progress),
			[0, 1, 2, 3],
			'progress after the CreateTaskResult still reaches the call',
		);
		assert.equal(client.liveTasks.length, 0);
	});

	test('a tool that requires a task is called as one without asking, also before any tools/list', async () => {
		const { client } = await fixture();
		const result = await client.callTool('fail', {});
		assert.equal(result.isError, true, 'a failed tool task resolves with its isError result, as a plain call would');
		assert.match(text(result), /disk full/);
		// A fresh client that never listed the tools: the server's -32601 makes it try again as a task.
		const transport = new StdioTransport({ command: process.execPath, args: [taskServer], name: 'unlisted' });
		const unlisted = await McpClient.connect(transport, { name: 'unlisted' });
		clients.push(unlisted);
		assert.match(text(await unlisted.callTool('backwards', {})), /done once/);
	});

	test('a task that ends with a JSON-RPC error rejects with that error, naming the server and the task', async () => {
		const { client } = await fixture();
		await assert.rejects(
			client.callTool('error', {}),
			mcpError(-32603, /^Task .+ \(error\) on tasks ended with an error: Internal error: the backend went away/),
		);
	});

	test('startToolTask gives a handle: status events, result(), and cancel() that sends tasks/cancel', async () => {
		const { client } = await fixture();
		const handle = await client.startToolTask('work', { ms: 20_000, steps: 20 }, { task: true });
		assert.equal(typeof handle.taskId, 'string');
		assert.equal(handle.status, 'working');
		const seen: Task[] = [];
		handle.onDidChange((task) => seen.push(task));
		await new Promise((resolve) => setTimeout(resolve, 300));
		await handle.cancel('the user pressed Cancel');
		await assert.rejects(
			handle.result(),
			mcpError(ErrorCode.RequestCancelled, /Task .+ \(work\) on tasks was cancelled: the user pressed Cancel/),
		);
		assert.equal(handle.status, 'cancelled', 'the state tasks/cancel answered');
		assert.equal((await client.getTask(handle.taskId)).status, 'cancelled', 'the server has it cancelled too');
		assert.ok(seen.some((task) => task.status === 'cancelled'));
	});

	test("aborting the call's signal cancels the task on the server", async () => {
		const { client } = await fixture();
		const controller = new AbortController();
		let taskId = '';
		const call = client.callTool(
			'work',
			{ ms: 20_000, steps: 10 },
			{ task: true, signal: controller.signal, onTaskCreated: (handle) => (taskId = handle.taskId) },
		);
		await new Promise((resolve) => setTimeout(resolve, 300));
		controller.abort(new Error('chat stopped'));
		await assert.rejects(call, mcpError(ErrorCode.RequestCancelled, /cancelled: chat stopped/));
		assert.equal((await client.getTask(taskId)).status, 'cancelled');
	});

	test('a task that never ends stops being polled at its TTL, with a message saying so', async () => {
		const { client } = await fixture();
		const started = Date.now();
		await assert.rejects(
			client.callTool('never', { ttl: 800 }),
			mcpError(
				ErrorCode.RequestTimeout,
				/did not finish within its TTL of 800 ms \(last status: working\); stopped polling/,
			),
		);
		assert.ok(Date.now() - started < 5000);
		assert.equal(client.liveTasks.length, 0);
	});

	test('a task the server loses fails with a clear error; other tasks go on', async () => {
		const { client } = await fixture();
		const other = client.callTool('work', { ms: 800, steps: 2 }, { task: true });
		await assert.rejects(
			client.callTool('lose', {}),
			mcpError(
				ErrorCode.InvalidParams,
				/Task .+ \(lose\) is no longer known to tasks: Failed to retrieve task: Task not found/,
			),
		);
		assert.equal(text(await other), 'worked 800 ms');
	});

	test('a status that goes back from a terminal one is ignored and logged', async () => {
		const { client, logger } = await fixture();
		assert.equal(text(await client.callTool('backwards', {})), 'done once');
		await new Promise((resolve) => setTimeout(resolve, 100));
		// The result may be known before the late notification: then nobody follows the task any more. Either way no error.
		assert.equal(
			logger.find('reported task').length + logger.find('which this client does not follow').length > 0,
			true,
		);
	});

	test('a result of the wrong shape rejects with a ProtocolViolation naming the server and tasks/result', async () => {
		const { client } = await fixture();
		await assert.rejects(
			client.callTool('badResult', {}),
			mcpError(ErrorCode.ProtocolViolation, /tasks answered tasks\/result with an invalid result: at content/),
		);
	});

	test('a server that claims tasks but answers -32601 on tasks/*: the task fails clearly, plain calls still work', async () => {
		const { client } = await fixture(['--no-task-methods']);
		await assert.rejects(
			client.callTool('work', { ms: 100 }, { task: true }),
			mcpError(ErrorCode.MethodNotFound, /tasks advertised tasks but does not implement tasks\/(get|result)/),
		);
		assert.equal(text(await client.callTool('work', { ms: 50, steps: 1 })), 'worked 50 ms');
	});

	test('without status notifications, polling alone follows the task and honours pollInterval changes', async () => {
		const { client } = await fixture(['--no-status']);
		const statuses: string[] = [];
		const handle = await client.startToolTask(
			'work',
			{ ms: 1200, steps: 2, pollInterval: 100, pollIntervalLater: 400 },
			{ task: true, onTaskStatus: (task) => statuses.push(task.statusMessage ?? task.status) },
		);
		assert.equal(text(await handle.result()), 'worked 1200 ms');
		assert.ok(statuses.includes('Step 2 of 2'), `statuses: ${statuses.join(', ')}`);
		const stats = JSON.parse(text(await client.callTool('stats', {}))) as Record<
			string,
			{ gets: number; intervals: number[]; told: number[] }
		>;
		const mine = stats[handle.taskId];
		assert.ok(mine, 'the server counted the polls');
		// Each wait honours the pollInterval the answer before it gave (100 ms in the first step, 400 after): bounds
		// from below only, which load cannot break; a few ms of slack for the two clocks' timer rounding.
		const waits = mine.intervals.map((ms, i) => ({ ms, told: mine.told[i] }));
		const hurried = waits.filter(({ ms, told }) => told !== undefined && ms < told - 15);
		assert.deepEqual(hurried, [], `polled sooner than told: ${JSON.stringify(waits)}`);
		// The change is followed: it polled more than once while told 100 ms, and waited 400 ms once told so.
		assert.ok(mine.told.filter((ms) => ms === 100).length >= 2, `told: ${mine.told.join(', ')}`);
		assert.ok(
			waits.some(({ told }) => told === 400),
			`no poll after the interval changed: ${JSON.stringify(waits)}`,
		);
	});

	test("the forbidden tool as a task is refused with the server's -32601; tasks/list pages through every task", async () => {
		const { client } = await fixture(['--page-size=2']);
		await assert.rejects(
			client.startToolTask('forbidden', {}, { task: true }),
			mcpError(ErrorCode.MethodNotFound, /does not support task augmentation/),
		);
		const ids = new Set<string>();
		for (let i = 0; i < 5; i++) {
			ids.add((await client.startToolTask('work', { ms: 50, steps: 1 }, { task: true })).taskId);
		}
		const listed = await client.listTasks();
		assert.deepEqual(new Set(listed.map((task) => task.taskId)), ids, 'five tasks over three pages');
		await assert.rejects(client.getTask('no-such-task'), mcpError(ErrorCode.InvalidParams, /Task not found/));
	});

	test('input_required: the client calls tasks/result, answers the elicitation the server sends there, and polling resumes', async () => {
		const asked: ElicitRequest[] = [];
		const { client } = await fixture([], {
			handlers: {
				elicitation: async (params) => {
					asked.push(params);
					return { action: 'accept', content: { answer: 'blue' } };
				},
			},
		});
		const statuses: string[] = [];
		const result = await client.callTool(
			'ask',
			{ question: 'Which colour?' },
			{ onTaskStatus: (task) => statuses.push(task.status) },
		);
		assert.equal(text(result), 'answer: blue');
		assert.equal(asked[0]?.message, 'Which colour?');
		assert.ok(statuses.includes('input_required'), `statuses: ${statuses.join(', ')}`);
	});

	test('resumeToolTask follows a task by id from another session of the same server state (here: the same client)', async () => {
		const { client } = await fixture();
		const first = await client.startToolTask('work', { ms: 600, steps: 2 }, { task: true });
		first.detach();
		const again = await client.resumeToolTask(first.taskId, 'work');
		assert.equal(text(await again.result()), 'worked 600 ms');
		await assert.rejects(
			client.resumeToolTask('gone-task', 'work'),
			mcpError(ErrorCode.InvalidParams, /Task gone-task \(work\) is no longer known to tasks/),
		);
	});

	test('the closing connection ends live tasks with ConnectionClosed', async () => {
		const { client } = await fixture();
		const call = client.callTool('never', { ttl: 60_000 });
		await new Promise((resolve) => setTimeout(resolve, 200));
		const rejected = assert.rejects(call, mcpError(ErrorCode.ConnectionClosed, /closed/));
		await client.close();
		await rejected;
	});
});

describe('tasks against server-everything', { timeout: 60_000 }, () => {
	test('simulate-research-query (taskSupport required) completes through callTool with its stages as status messages', async () => {
		const transport = new StdioTransport({
			command: process.execPath,
			args: [everythingMain, 'stdio'],
			name: 'everything',
		});
		const client = await McpClient.connect(transport, { name: 'everything' });
		clients.push(client);
		const tools = await client.listTools();
		assert.equal(tools.find((tool) => tool.name === 'simulate-research-query')?.execution?.taskSupport, 'required');
		assert.equal(client.toolTaskSupport('simulate-research-query'), 'required');
		const messages: string[] = [];
		const result = await client.callTool(
			'simulate-research-query',
			{ topic: 'tides' },
			{ onTaskStatus: (task) => messages.push(task.statusMessage ?? task.status) },
		);
		assert.match(text(result), /# Research Report: tides/);
		assert.ok(messages.includes('Analyzing content...'), `status messages: ${messages.join(' | ')}`);
	});

	test('simulate-research-query with ambiguous: input_required, the elicitation is answered, the report uses the answer', async () => {
		const asked: ElicitRequest[] = [];
		const transport = new StdioTransport({
			command: process.execPath,
			args: [everythingMain, 'stdio'],
			name: 'everything',
		});
		const client = await McpClient.connect(transport, {
			name: 'everything',
			handlers: {
				elicitation: async (params) => {
					asked.push(params);
					return { action: 'accept', content: { interpretation: 'snake' } };
				},
			},
		});
		clients.push(client);
		await client.listTools();
		const statuses: string[] = [];
		const result = await client.callTool(
			'simulate-research-query',
			{ topic: 'python', ambiguous: true },
			{ onTaskStatus: (task) => statuses.push(task.status) },
		);
		assert.match(text(result), /Research Report: python \(snake\)/);
		assert.match(asked[0]?.message ?? '', /could have multiple interpretations/);
		assert.ok(statuses.includes('input_required'), `statuses: ${statuses.join(', ')}`);
	});

	test('the client as receiver: trigger-elicitation-request-async gets a task back, polls it and fetches the answer', async () => {
		let answered = 0;
		const transport = new StdioTransport({
			command: process.execPath,
			args: [everythingMain, 'stdio'],
			name: 'everything',
		});
		const client = await McpClient.connect(transport, {
			name: 'everything',
			handlers: {
				tasks: true,
				elicitation: async () => {
					await new Promise((resolve) => setTimeout(resolve, 1500));
					answered++;
					return { action: 'accept', content: { name: 'Ada', favoriteColor: 'Blue' } };
				},
				sampling: async () => ({
					role: 'assistant',
					content: { type: 'text', text: 'sampled as a task' },
					model: 'test-model',
				}),
			},
		});
		clients.push(client);
		// The async tools are registered after initialisation, from the client's capabilities.
		let names: string[] = [];
		for (let i = 0; i < 50 && !names.includes('trigger-elicitation-request-async'); i++) {
			names = (await client.listTools()).map((tool) => tool.name);
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		assert.ok(
			names.includes('trigger-elicitation-request-async'),
			'server-everything saw tasks.requests.elicitation.create',
		);
		const elicited = text(await client.callTool('trigger-elicitation-request-async', {}));
		assert.equal(answered, 1);
		assert.match(elicited, /Ada/);
		assert.doesNotMatch(elicited, /\[SYNC\]/, 'answered as a task, not synchronously');
		assert.ok(names.includes('trigger-sampling-request-async'));
		const sampled = text(await client.callTool('trigger-sampling-request-async', { prompt: 'Say hi' }));
		assert.match(sampled, /sampled as a task/);
	});
});
