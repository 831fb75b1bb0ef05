// The Manager inside the real VS Code: servers come from the `mcpSwitchboard.servers` setting, a settings change
// restarts only the server whose config changed, and a workspace server that is not allowed spawns nothing.
// The e2e workbench runs with workspace trust disabled (always trusted), so the refused case is exercised through
// the trust question answering "Don't Allow" (the same decision path: confirmTrust → false → needsTrust, no spawn);
// Restricted Mode itself is covered by the untrusted run (restricted.restricted.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Manager } from '../../../src/manager/manager';
import { setTrustPromptForTests } from '../../../src/vscode/trust/trust';
import { answerInputBox, extensionApi, hasDriver, sleep, test, waitFor } from './harness';
import { quickInput, waitForQuickInput } from './elicitationSupport';

interface Api {
	manager: Manager;
	settled: () => Promise<void>;
}

const repo = process.env.MCP_SWITCHBOARD_E2E_REPO ?? '';
const fixture = path.join(repo, 'test/fixtures/servers/manager/mcpServer.js');

async function api(): Promise<Api> {
	const found = await extensionApi<Api>();
	assert.ok(found && typeof found === 'object' && 'manager' in found, 'activate() returns { manager }');
	return found;
}

function serverEntry(args: string[] = []): Record<string, unknown> {
	return { command: 'node', args: [fixture, ...args] };
}

/** Runs `fn` with extra workspace servers added to the setting, then restores the setting as it was. */
async function withServers(
	extra: Record<string, unknown>,
	fn: (update: (next: Record<string, unknown>) => Promise<void>) => Promise<void>,
): Promise<void> {
	assert.ok(repo && fs.existsSync(fixture), `the fixture server exists (${fixture})`);
	const config = vscode.workspace.getConfiguration('mcpSwitchboard');
	const original = config.inspect<Record<string, unknown>>('servers')?.workspaceValue;
	const update = (next: Record<string, unknown>) =>
		Promise.resolve(config.update('servers', { ...(original ?? {}), ...next }, vscode.ConfigurationTarget.Workspace));
	try {
		await update(extra);
		await fn(update);
	} finally {
		await config.update('servers', original, vscode.ConfigurationTarget.Workspace);
	}
}

function stateOf(manager: Manager, name: string): string {
	const view = manager.get(name);
	if (!view) return 'absent';
	return view.state.kind === 'error' ? `error: ${view.state.message}` : view.state.kind;
}

async function running(manager: Manager, name: string, timeoutMs = 20_000): Promise<void> {
	await waitFor(() => stateOf(manager, name) === 'running', {
		timeoutMs,
		message: `server '${name}' to run (it is ${stateOf(manager, name)})`,
	});
}

async function pidOf(manager: Manager, name: string): Promise<number> {
	const result = await manager.callTool(name, 'pid', {});
	return Number((result.content[0] as unknown as { text: string }).text);
}

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

test(
	'servers in the settings start, and leave when removed from the settings',
	async () => {
		const { manager } = await api();
		let pid = 0;
		await withServers({ 'e2e-a': serverEntry(), 'e2e-b': serverEntry(['--tools', '5']) }, async () => {
			await running(manager, 'e2e-a');
			await running(manager, 'e2e-b');
			const b = manager.get('e2e-b')!;
			assert.equal(b.source.kind, 'workspace');
			await waitFor(() => manager.findTool('mcp__e2e-b__tool_4'), {
				message: 'the tools of e2e-b under qualified names',
			});
			pid = await pidOf(manager, 'e2e-a');
			assert.ok(alive(pid));
		});
		await waitFor(() => !manager.get('e2e-a') && !manager.get('e2e-b'), {
			message: 'the removed servers to leave the Manager',
		});
		await waitFor(() => !alive(pid), { message: `the process of e2e-a (${pid}) to exit` });
	},
	{ timeoutMs: 60_000 },
);

test(
	'a settings change restarts only the server whose config changed',
	async () => {
		const { manager } = await api();
		await withServers({ 'e2e-keep': serverEntry(), 'e2e-change': serverEntry(['--tools', '1']) }, async (update) => {
			await running(manager, 'e2e-keep');
			await running(manager, 'e2e-change');
			const keepPid = await pidOf(manager, 'e2e-keep');
			const changePid = await pidOf(manager, 'e2e-change');
			const everythingClient =
				manager.get('everything')?.state.kind === 'running' ? manager.client('everything') : undefined;

			await update({ 'e2e-keep': serverEntry(), 'e2e-change': serverEntry(['--tools', '7']) });
			await waitFor(() => manager.get('e2e-change')?.tools.length === 9, {
				timeoutMs: 20_000,
				message: 'e2e-change to restart with 7 tools',
			});
			const newPid = await pidOf(manager, 'e2e-change');
			assert.notEqual(newPid, changePid, 'the changed server runs in a new process');
			await waitFor(() => !alive(changePid), { message: 'the old process of the changed server to exit' });
			assert.equal(await pidOf(manager, 'e2e-keep'), keepPid, 'the unchanged server kept its process');
			if (everythingClient)
				assert.equal(manager.client('everything'), everythingClient, "the workspace's other server was not restarted");
		});
	},
	{ timeoutMs: 60_000 },
);

test(
	'a workspace server is not asked about until the user starts it; refused, it spawns nothing; allowed, it runs',
	async () => {
		const { manager } = await api();
		const pidFile = path.join(os.tmpdir(), `mcp-e2e-trust-${process.pid}-${Date.now()}.pids`);
		const asked: string[] = [];
		let answer = false;
		setTrustPromptForTests(async (server, description) => {
			asked.push(`${server}: ${description}`);
			return answer;
		});
		try {
			// Forget earlier decisions so this server's first start asks (the command is registered by registerConfigCommands).
			await vscode.commands.executeCommand('mcpSwitchboard.resetTrust');
			await withServers({ 'e2e-untrusted': serverEntry(['--pid-file', pidFile]) }, async (update) => {
				await waitFor(() => manager.get('e2e-untrusted')?.state.kind === 'needsTrust', {
					timeoutMs: 15_000,
					message: `e2e-untrusted to need trust (it is ${stateOf(manager, 'e2e-untrusted')})`,
				});
				await sleep(500);
				assert.equal(asked.length, 0, 'a new workspace server raises no question by itself');
				assert.equal(fs.existsSync(pidFile), false, 'no process was spawned');

				// The user clicks Start and refuses.
				await manager.start('e2e-untrusted');
				const question = asked.find((q) => q.startsWith('e2e-untrusted:')) ?? '';
				assert.ok(question, 'Start asked the user');
				assert.ok(
					question.includes(fixture) && question.includes('--pid-file'),
					`the question shows exactly what will run: ${question}`,
				);
				assert.equal(manager.get('e2e-untrusted')?.state.kind, 'needsTrust');
				await sleep(300);
				assert.equal(fs.existsSync(pidFile), false, 'no process was spawned');

				answer = true;
				await manager.start('e2e-untrusted');
				await running(manager, 'e2e-untrusted');
				assert.equal(fs.readFileSync(pidFile, 'utf8').trim().split('\n').length, 1, 'one process after allowing');

				// The answer is remembered: a restart does not ask again.
				const askedBefore = asked.length;
				await manager.restart('e2e-untrusted');
				await running(manager, 'e2e-untrusted');
				assert.equal(asked.length, askedBefore, 'a restart with the same command does not ask');

				// A changed command line stops the server and waits (no question by itself); Start asks about the new one.
				answer = false;
				await update({ 'e2e-untrusted': serverEntry(['--pid-file', pidFile, '--tools', '9']) });
				await waitFor(() => manager.get('e2e-untrusted')?.state.kind === 'needsTrust', {
					timeoutMs: 15_000,
					message: 'the changed server to need trust again',
				});
				assert.equal(asked.length, askedBefore, 'the settings change itself asks nothing');
				await manager.start('e2e-untrusted');
				assert.equal(asked.length, askedBefore + 1, 'Start asked once more, for the new command line');
				assert.ok(asked.at(-1)!.includes('--tools 9'), asked.at(-1));
				assert.equal(manager.get('e2e-untrusted')?.state.kind, 'needsTrust');
			});
		} finally {
			setTrustPromptForTests(undefined);
			fs.rmSync(pidFile, { force: true });
		}
	},
	{ timeoutMs: 60_000 },
);

test(
	'the trust question shows header templates as written, and a changed template asks again (no silent restart)',
	async () => {
		const { manager } = await api();
		const asked: string[] = [];
		setTrustPromptForTests(async (server, description) => {
			if (server === 'e2e-remote') asked.push(description);
			return true;
		});
		// Nothing listens on port 9 of loopback: allowed, the server fails to connect, which is fine here.
		const remote = (template: string) => ({
			'e2e-remote': {
				type: 'http',
				url: 'http://127.0.0.1:9/mcp',
				headers: { Authorization: template, 'X-Client': 'e2e' },
			},
		});
		try {
			await vscode.commands.executeCommand('mcpSwitchboard.resetTrust');
			await withServers(remote('Bearer ${env:E2E_TOKEN_ONE}'), async (update) => {
				await waitFor(() => manager.get('e2e-remote')?.state.kind === 'needsTrust', {
					timeoutMs: 15_000,
					message: `e2e-remote to need trust (it is ${stateOf(manager, 'e2e-remote')})`,
				});
				assert.equal(asked.length, 0, 'nothing asked before Start');
				await manager.start('e2e-remote');
				assert.equal(asked.length, 1);
				assert.match(asked[0]!, /Header Authorization: "Bearer \$\{env:E2E_TOKEN_ONE\}"/, asked[0]);
				assert.match(asked[0]!, /Header X-Client: e2e/);
				await waitFor(
					() =>
						manager.get('e2e-remote')?.state.kind !== 'needsTrust' &&
						manager.get('e2e-remote')?.state.kind !== 'starting',
					{ timeoutMs: 15_000, message: 'the allowed server to try to connect' },
				);

				await update(remote('Bearer ${env:E2E_TOKEN_TWO}'));
				await waitFor(() => manager.get('e2e-remote')?.state.kind === 'needsTrust', {
					timeoutMs: 15_000,
					message: `the changed header to need trust again (it is ${stateOf(manager, 'e2e-remote')})`,
				});
				assert.equal(asked.length, 1, 'the change itself asks nothing and starts nothing');
				await manager.start('e2e-remote');
				assert.equal(asked.length, 2, 'Start asks again');
				assert.match(asked[1]!, /Bearer \$\{env:E2E_TOKEN_TWO\}/, asked[1]);
			});
		} finally {
			setTrustPromptForTests(undefined);
		}
	},
	{ timeoutMs: 60_000 },
);

test(
	'a user-level stdio server without cwd runs in the first workspace folder',
	async () => {
		const { manager } = await api();
		const folder = vscode.workspace.workspaceFolders?.[0];
		assert.ok(folder);
		const relative = `cwd-check-${Date.now()}.pids`;
		const expected = path.join(folder.uri.fsPath, relative);
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const original = config.inspect<Record<string, unknown>>('servers')?.globalValue;
		try {
			await config.update(
				'servers',
				{ ...(original ?? {}), 'e2e-cwd': serverEntry(['--pid-file', relative]) },
				vscode.ConfigurationTarget.Global,
			);
			await running(manager, 'e2e-cwd');
			assert.ok(
				fs.existsSync(expected),
				`the relative --pid-file was written in the workspace folder ${folder.uri.fsPath} (extension host cwd: ${process.cwd()})`,
			);
		} finally {
			await config.update('servers', original, vscode.ConfigurationTarget.Global);
			fs.rmSync(expected, { force: true });
		}
	},
	{ timeoutMs: 60_000 },
);

test(
	'a .vscode/mcp.json server with a password input: asked once (hidden), remembered, passed to the server',
	async () => {
		assert.ok(hasDriver(), 'this test answers the real input box and needs the page driver (test/e2e/run.mjs)');
		const { manager } = await api();
		const folder = vscode.workspace.workspaceFolders?.[0];
		assert.ok(folder);
		const file = path.join(folder.uri.fsPath, '.vscode', 'mcp.json');
		assert.equal(fs.existsSync(file), false, 'the e2e workspace has no mcp.json of its own');
		const id = `e2eToken${Date.now()}`;
		const write = (args: string[]) =>
			fs.writeFileSync(
				file,
				JSON.stringify({
					inputs: [{ type: 'promptString', id, description: 'The token for the e2e server', password: true }],
					servers: {
						'e2e-json': {
							type: 'stdio',
							command: 'node',
							args: [fixture, ...args],
							env: { E2E_TOKEN: `\${input:${id}}` },
						},
					},
				}),
			);
		setTrustPromptForTests(async () => true);
		try {
			write([]);
			// Nothing of a workspace server is resolved before the user starts and allows it: no input box yet.
			await waitFor(() => manager.get('e2e-json')?.state.kind === 'needsTrust', {
				timeoutMs: 20_000,
				message: `e2e-json to wait for trust (it is ${stateOf(manager, 'e2e-json')})`,
			});
			await sleep(1000);
			assert.equal(await quickInput(), undefined, 'no input box before the server is allowed');
			const written = manager.get('e2e-json')?.config;
			assert.deepEqual(
				written?.type === 'stdio' ? written.env : undefined,
				{ E2E_TOKEN: `\${input:${id}}` },
				'the view holds the config as written',
			);
			const starting = manager.start('e2e-json');
			const box = await waitForQuickInput(id, 20_000);
			assert.equal(box.password, true, 'a password input hides what is typed');
			await answerInputBox('s3cret-value');
			await starting;
			await running(manager, 'e2e-json');
			const view = manager.get('e2e-json')!;
			assert.equal(view.source.kind, 'mcpJson');
			assert.match(view.source.label, /\.vscode\/mcp\.json/);
			const result = await manager.callTool('e2e-json', 'env', { name: 'E2E_TOKEN' });
			assert.equal((result.content[0] as unknown as { text: string }).text, 's3cret-value');

			// A change to the file waits for trust again; allowed, it re-resolves without asking for the stored value.
			write(['--tools', '4']);
			await waitFor(() => manager.get('e2e-json')?.state.kind === 'needsTrust', {
				timeoutMs: 20_000,
				message: `the changed e2e-json to wait for trust (it is ${stateOf(manager, 'e2e-json')})`,
			});
			await manager.start('e2e-json');
			assert.equal(await quickInput(), undefined, 'the stored password is not asked again');
			await waitFor(
				() => manager.get('e2e-json')?.tools.length === 6 && manager.get('e2e-json')?.state.kind === 'running',
				{
					timeoutMs: 20_000,
					message: `e2e-json to restart with the changed args (it is ${stateOf(manager, 'e2e-json')})`,
				},
			);
			const again = await manager.callTool('e2e-json', 'env', { name: 'E2E_TOKEN' });
			assert.equal((again.content[0] as unknown as { text: string }).text, 's3cret-value');
		} finally {
			setTrustPromptForTests(undefined);
			fs.rmSync(file, { force: true });
			await vscode.commands.executeCommand('mcpSwitchboard.clearInputs');
		}
		await waitFor(() => !manager.get('e2e-json'), {
			timeoutMs: 15_000,
			message: 'the server to leave when mcp.json is deleted',
		});
	},
	{ timeoutMs: 60_000 },
);

test(
	'Import shows env and cwd, keeps a token out of settings.json, and the server gets it from secret storage',
	async () => {
		assert.ok(hasDriver(), 'this test reads and answers the real quick pick');
		const { manager } = await api();
		const token = `tok-${Date.now()}-abcdef`;
		const file = path.join(os.tmpdir(), `claude_desktop_config-${process.pid}-${Date.now()}.json`);
		fs.writeFileSync(
			file,
			JSON.stringify({
				mcpServers: {
					'e2e-imported': { command: 'node', args: [fixture], env: { E2E_API_TOKEN: token, E2E_PLAIN: 'visible' } },
				},
			}),
		);
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const previousServers = config.inspect<Record<string, unknown>>('servers')?.globalValue;
		const previousInputs = config.inspect<unknown[]>('inputs')?.globalValue;
		try {
			const importing = Promise.resolve(
				vscode.commands.executeCommand<string[]>('mcpSwitchboard.importServers', vscode.Uri.file(file)),
			);
			const pick = await waitForQuickInput('Import MCP servers from');
			assert.ok(pick.text.includes('Runs: node'), pick.text);
			assert.ok(pick.text.includes('In: (the workspace folder'), `the working folder is shown: ${pick.text}`);
			assert.ok(pick.text.includes('E2E_PLAIN="visible"'), `every env variable is shown: ${pick.text}`);
			assert.ok(pick.text.includes('E2E_API_TOKEN=•••• (to secret storage)'), pick.text);
			assert.ok(!pick.text.includes(token), 'the token itself is not shown');
			await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
			assert.deepEqual(await importing, ['e2e-imported']);

			const userSettings = fs.readFileSync(process.env.MCP_SWITCHBOARD_E2E_USER_SETTINGS ?? '', 'utf8');
			assert.ok(!userSettings.includes(token), 'the token is not in settings.json');
			assert.ok(userSettings.includes('${input:e2e-imported.env.E2E_API_TOKEN}'), userSettings);
			await running(manager, 'e2e-imported');
			const result = await manager.callTool('e2e-imported', 'env', { name: 'E2E_API_TOKEN' });
			assert.equal(
				(result.content[0] as unknown as { text: string }).text,
				token,
				'the server gets the token from secret storage, without a prompt',
			);
		} finally {
			await config.update('servers', previousServers, vscode.ConfigurationTarget.Global);
			await config.update('inputs', previousInputs, vscode.ConfigurationTarget.Global);
			await vscode.commands.executeCommand('mcpSwitchboard.clearInputs');
			fs.rmSync(file, { force: true });
		}
	},
	{ timeoutMs: 60_000 },
);
