// Restricted Mode, in a real VS Code with workspace trust on and the folder not trusted (the untrusted run of
// test/e2e/run.mjs opens test/e2e/workspace-restricted): what a newcomer who opens a cloned repository sees.
// Nothing of the repository's servers is evaluated or run, nothing asks, and Add Server / Import cannot be used to
// get around it (issue 12 items 1, 2, 3 and 5).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import {
	answerInputBox,
	answerQuickPick,
	extensionApi,
	quickInputClose,
	quickInputRows,
	sleep,
	test,
	waitFor,
} from './harness';
import { needDriver, quickInput, waitForQuickInput } from './elicitationSupport';

const repo = process.env.MCP_SWITCHBOARD_E2E_REPO ?? '';
const fixture = path.join(repo, 'test/fixtures/servers/manager/mcpServer.js');

function folder(): string {
	const first = vscode.workspace.workspaceFolders?.[0];
	assert.ok(first, 'a folder is open');
	return first.uri.fsPath;
}

function spawned(): string[] {
	return fs.readdirSync(folder()).filter((f) => f.startsWith('spawned-'));
}

function stateOf(api: SwitchboardApi, name: string): string {
	const view = api.manager.get(name);
	return view ? view.state.kind : 'absent';
}

/** The tooltip of a server row as VS Code asks for it on hover. */
function tooltip(api: SwitchboardApi, server: string): string {
	const node = { kind: 'server', server } as Parameters<SwitchboardApi['tree']['getTreeItem']>[0];
	const item = api.tree.resolveTreeItem(api.tree.getTreeItem(node), node);
	const tip = item.tooltip;
	return typeof tip === 'string' ? tip : (tip?.value ?? '');
}

test(
	'a newcomer opening an untrusted clone sees no prompt: its servers show "needs trust", nothing is resolved or run',
	async () => {
		needDriver();
		assert.equal(vscode.workspace.isTrusted, false, 'the untrusted run opens its folder in Restricted Mode');
		const api = await extensionApi<SwitchboardApi>();
		await api.settled();
		await waitFor(() => stateOf(api, 'ws-json') === 'needsTrust' && stateOf(api, 'ws-remote') === 'needsTrust', {
			timeoutMs: 15_000,
			message: `the mcp.json servers to show "needs trust" (ws-json: ${stateOf(api, 'ws-json')}, ws-remote: ${stateOf(api, 'ws-remote')})`,
		});
		// Watch for a while: no input box (the password input), no quick pick, no process.
		for (let i = 0; i < 10; i++) {
			const open = await quickInput();
			assert.equal(open, undefined, `no prompt at start-up, but this is open: ${JSON.stringify(open)}`);
			await sleep(200);
		}
		assert.deepEqual(spawned(), [], 'no server process was started');
		for (const view of api.manager.servers()) {
			if (view.source.kind !== 'user')
				assert.equal(view.state.kind, 'needsTrust', `${view.name} (${view.source.label}) waits for trust`);
		}

		// The tree shows the configuration as written: no input asked, no environment variable expanded, no envFile read.
		const json = api.manager.get('ws-json')!.config;
		assert.ok(json.type === 'stdio');
		assert.deepEqual(json.env, { REPO_TOKEN: '${input:repoToken}', HOME_SEEN: '${env:HOME}' });
		assert.ok(json.args?.includes('${input:repoToken}'));
		assert.match(tooltip(api, 'ws-json'), /input:repoToken/);
		const remote = api.manager.get('ws-remote')!.config;
		assert.ok(remote.type === 'http');
		assert.equal(remote.url, 'http://127.0.0.1:9/mcp?team=${input:repoToken}');
		assert.deepEqual(remote.headers, { Authorization: 'Bearer ${env:GITHUB_TOKEN}' });
		assert.match(tooltip(api, 'ws-remote'), /team=.{0,4}input:repoToken/);
		assert.doesNotMatch(
			JSON.stringify(api.manager.servers().map((v) => v.config)),
			/read-before-trust/,
			'the envFile was not merged in',
		);

		const row = api.tree.getTreeItem({ kind: 'server', server: 'ws-json' });
		assert.match(String(row.description), /^needs trust/);
		assert.equal(
			row.command?.command,
			'mcpSwitchboard.startServer',
			'a click on the row is the user asking to start it',
		);
	},
	{ timeoutMs: 60_000 },
);

test(
	'Start in Restricted Mode runs nothing and asks for no input; it says how to trust the workspace',
	async () => {
		needDriver();
		const api = await extensionApi<SwitchboardApi>();
		await vscode.commands.executeCommand('mcpSwitchboard.startServer', 'ws-json');
		await sleep(1000);
		const open = await quickInput();
		assert.equal(open, undefined, `no input box for \${input:repoToken}: ${JSON.stringify(open)}`);
		assert.equal(stateOf(api, 'ws-json'), 'needsTrust');
		assert.deepEqual(spawned(), []);
	},
	{ timeoutMs: 30_000 },
);

test(
	"Add Server in an untrusted window offers only User settings and leaves the workspace's servers alone",
	async () => {
		needDriver();
		const settingsFile = path.join(folder(), '.vscode', 'settings.json');
		const before = fs.readFileSync(settingsFile, 'utf8');
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const previous = config.inspect<Record<string, unknown>>('servers')?.globalValue;
		const api = await extensionApi<SwitchboardApi>();
		const name = 'added-restricted';
		const adding = Promise.resolve(vscode.commands.executeCommand<string | undefined>('mcpSwitchboard.addServer'));
		try {
			await waitForQuickInput('How does the server run?');
			await answerQuickPick('Command (stdio)');
			await waitForQuickInput('Add MCP Server (2/3)');
			await answerInputBox(`node ${fixture}`);
			await waitForQuickInput('Add MCP Server (3/3)');
			await answerInputBox(name);
			// With only one place to save to, no "Save the server in" pick: the flow ends here.
			const done = await Promise.race([adding.then((r) => ({ result: r })), sleep(5000).then(() => undefined)]);
			const shown = await quickInput();
			assert.ok(
				done,
				`Add Server finished without asking where to save (showing: ${JSON.stringify(shown?.text.slice(0, 200))})`,
			);
			assert.equal(done.result, name);
			const saved = vscode.workspace
				.getConfiguration('mcpSwitchboard')
				.inspect<Record<string, unknown>>('servers')?.globalValue;
			assert.ok(saved?.[name], 'saved in user settings');
			assert.equal(fs.readFileSync(settingsFile, 'utf8'), before, "the workspace's settings.json is untouched");
			await waitFor(() => stateOf(api, name) === 'running' || stateOf(api, name) === 'starting', {
				timeoutMs: 15_000,
				message: 'the user-level server to start in Restricted Mode',
			});
		} finally {
			await quickInputClose();
			await config.update('servers', previous, vscode.ConfigurationTarget.Global);
		}
	},
	{ timeoutMs: 60_000 },
);

test(
	"Import does not offer the workspace's .cursor/mcp.json in Restricted Mode, and refuses it when named",
	async () => {
		needDriver();
		const file = path.join(folder(), '.cursor', 'mcp.json');
		assert.ok(fs.existsSync(file), 'the workspace has a Cursor file');
		const picking = Promise.resolve(vscode.commands.executeCommand<string[]>('mcpSwitchboard.importServers'));
		try {
			await waitForQuickInput('Import MCP servers from');
			// The pick's rows are drawn after its title: wait for them (the Browse row is always there) before reading.
			let rows = await quickInputRows();
			await waitFor(async () => (rows = await quickInputRows()).some((r) => r.label.includes('Browse')), {
				timeoutMs: 15_000,
				message: () => `the Browse row (rows: ${JSON.stringify(rows)})`,
			});
			assert.ok(
				!rows.some((r) => r.label.startsWith('Cursor (') && r.label !== 'Cursor (user)'),
				`no workspace file offered: ${JSON.stringify(rows.map((r) => r.label))}`,
			);
		} finally {
			await quickInputClose();
		}
		assert.deepEqual(await picking, []);
		await waitFor(async () => (await quickInput()) === undefined, { timeoutMs: 15_000, message: 'the pick to close' });

		const named = await vscode.commands.executeCommand<string[]>('mcpSwitchboard.importServers', vscode.Uri.file(file));
		assert.deepEqual(named, [], 'nothing imported from the workspace');
		const shown = await quickInput();
		assert.equal(shown, undefined, `and no pick was shown for it: ${JSON.stringify(shown)}`);
		const saved =
			vscode.workspace.getConfiguration('mcpSwitchboard').inspect<Record<string, unknown>>('servers')?.globalValue ??
			{};
		assert.equal(Object.hasOwn(saved, 'cursor-ws'), false);
	},
	{ timeoutMs: 30_000 },
);

test(
	"a call file's Run refuses in Restricted Mode, without asking: its arguments are not ones the user typed",
	async () => {
		// Issue 27 defect 1: a *.mcpcall.json from a cloned repository ran at once, Restricted Mode or not.
		needDriver();
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const previous = config.inspect<Record<string, unknown>>('servers')?.globalValue;
		const api = await extensionApi<SwitchboardApi>();
		const name = 'user-tools';
		const file = vscode.Uri.file(path.join(folder(), 'pid.mcpcall.json'));
		const pidCalls = () =>
			api.history.all().filter((e) => e.target.kind === 'tool' && e.target.server === name && e.target.name === 'pid')
				.length;
		try {
			await config.update(
				'servers',
				{ ...(previous ?? {}), [name]: { command: process.execPath, args: [fixture] } },
				vscode.ConfigurationTarget.Global,
			);
			await waitFor(() => api.manager.get(name)?.tools.some((t) => t.tool.name === 'pid'), {
				timeoutMs: 20_000,
				message: 'the user-level server running with its tools in Restricted Mode',
			});
			await vscode.workspace.fs.writeFile(
				file,
				new TextEncoder().encode(JSON.stringify({ server: name, tool: 'pid', arguments: {} })),
			);
			const before = pidCalls();
			const outcome = await vscode.commands.executeCommand<{ cancelled?: boolean; result?: unknown } | undefined>(
				'mcpSwitchboard.runInvocationFile',
				file,
			);
			assert.equal(outcome?.cancelled, true, 'the run was refused');
			assert.equal(outcome?.result, undefined);
			const open = await quickInput();
			assert.equal(open, undefined, `nothing asked: ${JSON.stringify(open)}`);
			assert.equal(pidCalls(), before, 'the tool did not run');

			// The same tool with arguments the user gives through the palette still runs.
			const typed = await vscode.commands.executeCommand<{ result?: unknown } | undefined>('mcpSwitchboard.callTool', {
				server: name,
				tool: 'pid',
				arguments: {},
			});
			assert.ok(typed?.result, 'a typed call runs');
		} finally {
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
			await vscode.workspace.fs.delete(file).then(undefined, () => undefined);
			await config.update('servers', previous, vscode.ConfigurationTarget.Global);
		}
	},
	{ timeoutMs: 60_000 },
);
