// Tasks (MCP 2025-11-25) in the real VS Code: server-everything's `simulate-research-query` (taskSupport "required")
// called from the palette command and from @mcp with the Fake Echo model, its input_required variant answered in
// the real quick input, and the task fixture server (test/fixtures/servers/taskServer.js) for Run as task, cancel
// from the Tasks list, a failing task, and the list kept in workspace state for the next window.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import type { CallOutcome } from '../../../src/vscode/tools/commands';
import { handleChatRequest, type ChatMetadata } from '../../../src/vscode/chat/chatParticipant';
import { TASKS_STATE_KEY, TaskList } from '../../../src/vscode/tasks/taskList';
import type { TreeNode } from '../../../src/vscode/shared/treeNodes';
import { needDriver, repoRoot, serverWithTool, waitForQuickInput } from './elicitationSupport';
import { answerInputBox, answerQuickPick, extensionApi, quickInputAccept, screenshot, test, waitFor } from './harness';

const SERVER = 'everything';
const RESEARCH = 'simulate-research-query';
const TASKS = 'taskfixture';
/** The same fixture as a 2026-07-28 server with the tasks extension (`--modern`). */
const TASKS26 = 'taskfixture26';

/**
 * Each test here leaves the Tasks list as it found it (empty): the suites after this one see the tree without a
 * Tasks row. The tasks stay on the servers until their TTL; only the list forgets them.
 */
function taskTest(name: string, fn: () => Promise<void>, options: { timeoutMs: number }): void {
	test(
		name,
		async () => {
			try {
				await fn();
			} finally {
				const api = await switchboard();
				for (const entry of api.tasks.all()) api.tasks.forget(entry.server, entry.taskId);
			}
		},
		options,
	);
}

async function switchboard(): Promise<SwitchboardApi> {
	return extensionApi<SwitchboardApi>();
}

/** The Tasks row under `server` and its task rows, as the view gets them. */
function taskRows(
	api: SwitchboardApi,
	server: string,
): { group?: TreeNode; rows: { node: TreeNode; item: vscode.TreeItem }[] } {
	const group = api.tree.getChildren(api.tree.serverNode(server)).find((node) => node.kind === 'tasks');
	if (!group) return { rows: [] };
	return { group, rows: api.tree.getChildren(group).map((node) => ({ node, item: api.tree.getTreeItem(node) })) };
}

function rowOf(api: SwitchboardApi, server: string, taskId: string): vscode.TreeItem | undefined {
	return taskRows(api, server).rows.find(({ node }) => node.kind === 'task' && node.taskId === taskId)?.item;
}

async function taskFixture(name = TASKS, flags: string[] = []): Promise<void> {
	const config = vscode.workspace.getConfiguration('mcpSwitchboard');
	const servers = { ...(config.get<Record<string, unknown>>('servers') ?? {}) };
	if (!servers[name]) {
		servers[name] = {
			type: 'stdio',
			command: 'node',
			args: [path.join(repoRoot(), 'test/fixtures/servers/taskServer.js'), ...flags],
		};
		await config.update('servers', servers, vscode.ConfigurationTarget.Workspace);
	}
	await serverWithTool(name, 'work');
}

async function callTool(target: Record<string, unknown>): Promise<CallOutcome> {
	const outcome = await vscode.commands.executeCommand<CallOutcome | undefined>('mcpSwitchboard.callTool', target);
	assert.ok(outcome, 'the command returns what happened');
	return outcome;
}

taskTest(
	'simulate-research-query from Call Tool runs as a task: stages in the progress, a Tasks row that ends completed, the report opens',
	async () => {
		const api = await switchboard();
		await serverWithTool(SERVER, RESEARCH);
		const toolNode = api.tree
			.getChildren(api.tree.groupNode(SERVER, 'tools'))
			.find((node) => node.kind === 'tool' && node.tool.tool.name === RESEARCH);
		assert.ok(toolNode, 'the tool is in the tree');
		assert.match(
			String(api.tree.getTreeItem(toolNode).description),
			/runs as a task/,
			'the tree says the tool runs as a task',
		);

		const outcome = await callTool({ server: SERVER, tool: RESEARCH, arguments: { topic: 'tides' } });
		assert.equal(outcome.error, undefined, `no error: ${outcome.error ?? ''}`);
		assert.ok(outcome.taskId, 'it ran as a task');
		assert.ok(
			outcome.taskStatus?.includes('Analyzing content...'),
			`status messages in the progress: ${outcome.taskStatus?.join(' | ')}`,
		);
		assert.ok(outcome.document, 'the result document opened');
		const text = (await vscode.workspace.openTextDocument(outcome.document)).getText();
		assert.match(text, /# Research Report: tides/);

		const row = await waitFor(() => rowOf(api, SERVER, outcome.taskId!), { timeoutMs: 5000, message: 'the task row' });
		await waitFor(() => /^completed/.test(String(rowOf(api, SERVER, outcome.taskId!)?.description)), {
			timeoutMs: 5000,
			message: 'the row to say completed',
		});
		assert.equal(row.contextValue, 'mcpTask.finished');
		assert.equal(row.command?.command, 'mcpSwitchboard.openTaskResult', 'a click opens the result');
		// Done, it says so and how long it took, not the last "working" message the server sent ("Synthesizing findings...").
		assert.match(
			String(rowOf(api, SERVER, outcome.taskId)?.description),
			/^completed in \d+ s$/,
			'completed, with the elapsed time',
		);
		const reopened = await vscode.commands.executeCommand<vscode.Uri | undefined>('mcpSwitchboard.openTaskResult', {
			server: SERVER,
			taskId: outcome.taskId,
		});
		assert.ok(reopened);
		assert.match((await vscode.workspace.openTextDocument(reopened)).getText(), /Research Report: tides/);
		await api.treeView.reveal(taskRows(api, SERVER).group!, { expand: true }).then(undefined, () => undefined);
		await screenshot('tasks-tree');
	},
	{ timeoutMs: 90_000 },
);

taskTest(
	'simulate-research-query from its row in the tree (the inline Call Tool): the argument form, then the task runs and its report opens',
	async () => {
		needDriver();
		const api = await switchboard();
		await serverWithTool(SERVER, RESEARCH);
		const toolNode = api.tree
			.getChildren(api.tree.groupNode(SERVER, 'tools'))
			.find((node) => node.kind === 'tool' && node.tool.tool.name === RESEARCH);
		assert.ok(toolNode);
		assert.equal(api.tree.getTreeItem(toolNode).contextValue, 'mcpTool', 'the row offers the inline Call Tool (▶)');
		// What the row's inline ▶ does: Call Tool with the row's node.
		const running = vscode.commands.executeCommand<CallOutcome | undefined>('mcpSwitchboard.callTool', toolNode);
		await waitForQuickInput('The research topic to investigate');
		await answerInputBox('coral reefs');
		await waitForQuickInput('ambiguous');
		await quickInputAccept();
		const outcome = await running;
		assert.ok(outcome?.taskId, `it ran as a task: ${JSON.stringify(outcome)}`);
		assert.equal(outcome.error, undefined);
		assert.match(
			(await vscode.workspace.openTextDocument(outcome.document!)).getText(),
			/# Research Report: coral reefs/,
		);
	},
	{ timeoutMs: 90_000 },
);

taskTest(
	'simulate-research-query with ambiguous: input_required, the question comes up in the quick input, the report uses the answer',
	async () => {
		needDriver();
		const api = await switchboard();
		await serverWithTool(SERVER, RESEARCH);
		const running = callTool({ server: SERVER, tool: RESEARCH, arguments: { topic: 'python', ambiguous: true } });
		await waitForQuickInput('Which interpretation of the topic do you mean?', 30_000);
		await waitFor(() => api.tasks.all().find((entry) => entry.tool === RESEARCH && entry.status === 'input_required'), {
			timeoutMs: 5000,
			message: 'the Tasks list to show the task waiting for input',
		});
		await answerQuickPick('Python snake species');
		await waitForQuickInput('Review what everything will receive');
		await answerQuickPick('Accept');
		const outcome = await running;
		assert.equal(outcome.error, undefined, outcome.error);
		const text = (await vscode.workspace.openTextDocument(outcome.document!)).getText();
		assert.match(text, /Research Report: python \(snake\)/);
	},
	{ timeoutMs: 90_000 },
);

taskTest(
	"in @mcp, the task's stages show in the chat progress line and its report goes back to the model",
	async () => {
		needDriver();
		const api = await switchboard();
		await serverWithTool(SERVER, RESEARCH);
		const [model] = await waitFor(
			async () => {
				const models = await vscode.lm.selectChatModels({ vendor: 'switchboard-test' });
				return models.length > 0 && models;
			},
			{ timeoutMs: 20_000, message: 'the Fake Echo model' },
		);
		const progress: string[] = [];
		const markdown: string[] = [];
		const known = {
			progress: (text: string) => void progress.push(text),
			markdown: (text: string | vscode.MarkdownString) =>
				void markdown.push(typeof text === 'string' ? text : text.value),
		};
		const stream = new Proxy(known, {
			get: (target, key) => (key in target ? target[key as keyof typeof known] : () => undefined),
		}) as unknown as vscode.ChatResponseStream;
		const request = {
			prompt: `call:mcp__everything__${RESEARCH}`,
			command: undefined,
			model,
			references: [],
			toolReferences: [],
			toolInvocationToken: undefined,
		} as unknown as vscode.ChatRequest;
		const source = new vscode.CancellationTokenSource();
		const handling = handleChatRequest(api.manager, request, { history: [] }, stream, source.token, {
			tasks: api.tasks,
			consent: api.consent,
		});
		await waitForQuickInput('The chat model wants to run everything › simulate-research-query');
		await answerQuickPick('Allow once');
		const result = await handling;
		source.dispose();
		assert.deepEqual((result.metadata as ChatMetadata).toolCalls, [{ server: SERVER, tool: RESEARCH, ok: true }]);
		assert.ok(
			progress.includes('Calling everything › simulate-research-query: Synthesizing findings...…') ||
				progress.some((line) => /Synthesizing findings/.test(line)),
			`progress lines: ${progress.join(' | ')}`,
		);
		assert.match(
			markdown.join(''),
			/Research Report: Paris/,
			'the report went back to the model (topic "Paris" from the fake model)',
		);
		assert.ok(
			api.tasks
				.all()
				.some((entry) => entry.tool === RESEARCH && entry.origin === '@mcp' && entry.status === 'completed'),
			"the chat's task is in the Tasks list",
		);
	},
	{ timeoutMs: 90_000 },
);

taskTest(
	'stopping the chat cancels its task on the server',
	async () => {
		needDriver();
		const api = await switchboard();
		await taskFixture();
		const [model] = await vscode.lm.selectChatModels({ vendor: 'switchboard-test' });
		assert.ok(model);
		const stream = new Proxy({}, { get: () => () => undefined }) as unknown as vscode.ChatResponseStream;
		// The fake model fills only required strings: `never` has none, so it runs until cancelled.
		const request = {
			prompt: `call:mcp__${TASKS}__never`,
			command: undefined,
			model,
			references: [],
			toolReferences: [],
			toolInvocationToken: undefined,
		} as unknown as vscode.ChatRequest;
		const source = new vscode.CancellationTokenSource();
		const handling = handleChatRequest(api.manager, request, { history: [] }, stream, source.token, {
			tasks: api.tasks,
			consent: api.consent,
		});
		await waitForQuickInput(`The chat model wants to run ${TASKS} › never`);
		await answerQuickPick('Allow once');
		const entry = await waitFor(
			() => api.tasks.all().find((e) => e.server === TASKS && e.tool === 'never' && e.status === 'working'),
			{ timeoutMs: 15_000, message: "the chat's task to run" },
		);
		source.cancel();
		await handling;
		source.dispose();
		await waitFor(() => api.tasks.get(TASKS, entry.taskId)?.status === 'cancelled', {
			timeoutMs: 10_000,
			message: 'the task to be cancelled',
		});
		const client = api.manager.get(TASKS)?.state;
		assert.ok(client?.kind === 'running');
		assert.equal((await client.client.getTask(entry.taskId)).status, 'cancelled', 'the server has it cancelled');
	},
	{ timeoutMs: 60_000 },
);

taskTest(
	'an optional tool offers "Run as task"; the Tasks row cancels it; a failed task says why',
	async () => {
		needDriver();
		const api = await switchboard();
		await taskFixture();
		const toolNode = api.tree
			.getChildren(api.tree.groupNode(TASKS, 'tools'))
			.find((node) => node.kind === 'tool' && node.tool.tool.name === 'work');
		assert.match(String(api.tree.getTreeItem(toolNode!).description), /can run as a task/);
		const running = callTool({ server: TASKS, tool: 'work', arguments: { ms: 60_000, steps: 60 } });
		await waitForQuickInput('can run as a task');
		await answerQuickPick('Run as task');
		const entry = await waitFor(
			() =>
				api.tasks
					.all()
					.find(
						(e) => e.server === TASKS && e.tool === 'work' && e.status === 'working' && e.statusMessage !== undefined,
					),
			{ timeoutMs: 10_000, message: 'the task to run' },
		);
		const item = rowOf(api, TASKS, entry.taskId);
		assert.equal(item?.contextValue, 'mcpTask.live', 'a live row (the Cancel button)');
		assert.match(String(item?.description), /^working · Step \d+ of 60/);
		await vscode.commands.executeCommand('mcpSwitchboard.cancelTask', { server: TASKS, taskId: entry.taskId });
		const outcome = await running;
		assert.equal(outcome.cancelled, true, 'the call reports the cancel');
		await waitFor(() => api.tasks.get(TASKS, entry.taskId)?.status === 'cancelled', {
			timeoutMs: 5000,
			message: 'cancelled in the list',
		});

		// "Run and wait" runs it as a plain call.
		const plain = callTool({ server: TASKS, tool: 'work', arguments: { ms: 100, steps: 1 } });
		await waitForQuickInput('can run as a task');
		await answerQuickPick('Run and wait for the result');
		const waited = await plain;
		assert.equal(waited.taskId, undefined);

		const failed = await callTool({ server: TASKS, tool: 'error', arguments: {} });
		assert.match(
			failed.error ?? '',
			/Task .+ \(error\) on taskfixture ended with an error: Internal error: the backend went away/,
		);
		const row = await waitFor(() => rowOf(api, TASKS, failed.taskId!), { timeoutMs: 5000, message: 'the failed row' });
		assert.match(String(row.description), /^failed · The backend went away/);
	},
	{ timeoutMs: 60_000 },
);

taskTest(
	"the task list is kept in workspace state: a new window's list shows the tasks and fetches a result again from the server",
	async () => {
		const api = await switchboard();
		await taskFixture();
		const outcome = await callTool({ server: TASKS, tool: 'work', arguments: { ms: 200, steps: 1 }, task: true });
		assert.ok(outcome.taskId);
		const stored = api.tasks.get(TASKS, outcome.taskId);
		assert.equal(stored?.status, 'completed');
		// What the next window reads: the same workspace state, in a new TaskList (as after a reload).
		const memento = new Map<string, unknown>();
		const state = {
			get: <T>(key: string, fallback?: T) => (memento.has(key) ? memento.get(key) : fallback) as T,
			update: (key: string, value: unknown) =>
				Promise.resolve(void memento.set(key, JSON.parse(JSON.stringify(value)))),
			keys: () => [...memento.keys()],
		} as unknown as vscode.Memento;
		const persisted = JSON.parse(
			JSON.stringify(api.tasks.all().map(({ result: _r, progress: _p, ...rest }) => rest)),
		) as unknown[];
		await state.update(TASKS_STATE_KEY, persisted);
		const next = new TaskList(api.manager, state);
		try {
			const restored = next.get(TASKS, outcome.taskId);
			assert.ok(restored, 'the task is listed again');
			assert.equal(restored.result, undefined, 'no result in memory: it comes from the server');
			const result = await next.result(TASKS, outcome.taskId);
			assert.equal((result.content[0] as { text?: string }).text, 'worked 200 ms');
			// A task the server no longer knows: a clear error naming the server.
			const gone = {
				server: TASKS,
				taskId: 'gone-task',
				tool: 'work',
				arguments: {},
				status: 'working',
				startedAt: Date.now(),
				origin: 'Call Tool',
			};
			await state.update(TASKS_STATE_KEY, [gone]);
			const third = new TaskList(api.manager, state);
			await waitFor(() => third.get(TASKS, 'gone-task')?.error, {
				timeoutMs: 10_000,
				message: 'the lost task to be marked',
			});
			assert.match(
				third.get(TASKS, 'gone-task')?.error ?? '',
				/MCP server 'taskfixture': Task gone-task \(work\) is no longer known to taskfixture/,
			);
			third.dispose();
		} finally {
			next.dispose();
		}
		// The real workspace state holds the ids for the next window.
		assert.ok(api.tasks.all().length > 0);
	},
	{ timeoutMs: 60_000 },
);

taskTest(
	"a 2026-07-28 server's own task (tasks extension): its question comes up in the quick input, the answer goes back with tasks/update, the Tasks row ends completed; Cancel on a row cancels on the server",
	async () => {
		needDriver();
		const api = await switchboard();
		await taskFixture(TASKS26, ['--modern']);
		const running = api.manager.get(TASKS26)?.state;
		assert.ok(
			running?.kind === 'running' && running.client.era === 'modern' && running.client.supportsTasksExtension(),
			'the fixture speaks 2026-07-28 with the tasks extension',
		);
		const asking = callTool({ server: TASKS26, tool: 'ask', arguments: { question: 'Which colour is the sea?' } });
		await waitForQuickInput('Which colour is the sea?', 30_000);
		await waitFor(
			() => api.tasks.all().find((e) => e.server === TASKS26 && e.tool === 'ask' && e.status === 'input_required'),
			{ timeoutMs: 5000, message: 'the Tasks list to show the task waiting for input' },
		);
		await answerInputBox('teal');
		await waitForQuickInput(`Review what ${TASKS26} will receive`);
		await answerQuickPick('Accept');
		const outcome = await asking;
		assert.equal(outcome.error, undefined, outcome.error);
		assert.ok(outcome.taskId, 'the server ran it as a task');
		assert.match((await vscode.workspace.openTextDocument(outcome.document!)).getText(), /answer: teal/);
		await waitFor(() => /^completed/.test(String(rowOf(api, TASKS26, outcome.taskId!)?.description)), {
			timeoutMs: 5000,
			message: 'the row to say completed',
		});

		// The same Cancel as for a 2025-11-25 task: tasks/cancel (an acknowledgement), then the server reports it cancelled.
		const long = callTool({ server: TASKS26, tool: 'work', arguments: { ms: 60_000, steps: 60 } });
		const entry = await waitFor(
			() =>
				api.tasks
					.all()
					.find(
						(e) => e.server === TASKS26 && e.tool === 'work' && e.status === 'working' && e.statusMessage !== undefined,
					),
			{ timeoutMs: 10_000, message: 'the task to run' },
		);
		assert.equal(rowOf(api, TASKS26, entry.taskId)?.contextValue, 'mcpTask.live', 'a live row (the Cancel button)');
		await vscode.commands.executeCommand('mcpSwitchboard.cancelTask', { server: TASKS26, taskId: entry.taskId });
		assert.equal((await long).cancelled, true, 'the call reports the cancel');
		await waitFor(() => api.tasks.get(TASKS26, entry.taskId)?.status === 'cancelled', {
			timeoutMs: 5000,
			message: 'cancelled in the list',
		});
		assert.ok(running.kind === 'running');
		assert.equal((await running.client.getTask(entry.taskId)).status, 'cancelled', 'the server has it cancelled');
	},
	{ timeoutMs: 90_000 },
);
