// Fifty servers cost nothing until used (#28), in the real VS Code: thirty configured servers (the Manager fixture
// server, each start appending its pid to a file) run no process while the MCP view shows them, one runs after its
// row is expanded, and once each has listed and gone idle, the tree shows every server's tools from the listing cache
// with no process running; a second Manager over the same storage (what the next window's activation builds) shows
// them too without starting any.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import { MemoryLogger } from '../../../src/common/logger';
import { FileListingStore } from '../../../src/manager/listingCache';
import { Manager, type ResolvedServer, type ServerView } from '../../../src/manager/manager';
import { serverDescription } from '../../../src/vscode/tree/serversTree';
import { driver, extensionApi, hasDriver, test, waitFor } from './harness';

const COUNT = 30;
const names = Array.from({ length: COUNT }, (_, i) => `lazy-${String(i).padStart(2, '0')}`);

function pids(file: string): number[] {
	try {
		return fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map(Number);
	} catch {
		return [];
	}
}

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

function waitsForNeed(view: ServerView | undefined): boolean {
	return view?.state.kind === 'stopped' && view.state.onDemand !== undefined;
}

/** The names of the tools under a server's Tools group, as the Servers view's provider gives them. */
function treeTools(a: SwitchboardApi, server: string): string[] {
	const groups = a.tree.getChildren({ kind: 'server', server });
	const tools = groups.find((node) => node.kind === 'group' && node.group === 'tools');
	if (!tools) return [];
	return a.tree
		.getChildren(tools)
		.map((node) => (node.kind === 'tool' ? node.tool.tool.name : ''))
		.filter(Boolean);
}

test(
	'thirty servers: none runs with the MCP view open, one after its row is expanded, and all show cached tools while stopped and in the next activation',
	async () => {
		const a = await extensionApi<SwitchboardApi>();
		const repo = path.resolve(__dirname, '../../..');
		const script = path.join(repo, 'test/fixtures/servers/manager/mcpServer.js');
		const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'lazy-e2e-'));
		const pidFile = path.join(scratch, 'pids');
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const previousServers = config.inspect<Record<string, unknown>>('servers')?.globalValue;
		const previousAutoStart = config.inspect<boolean>('autoStart')?.workspaceValue;
		const servers: Record<string, unknown> = { ...(previousServers ?? {}) };
		for (const name of names)
			servers[name] = { type: 'stdio', command: 'node', args: [script, '--pid-file', pidFile, '--tools', '2'] };
		let second: Manager | undefined;
		// The e2e workspace turns autoStart on for the other suites; this one has the default, off.
		await config.update('autoStart', false, vscode.ConfigurationTarget.Workspace);
		try {
			await config.update('servers', servers, vscode.ConfigurationTarget.Global);
			await a.settled();
			await waitFor(() => names.every((name) => a.manager.get(name)), {
				timeoutMs: 15_000,
				message: 'the thirty servers configured',
			});
			assert.ok(
				names.every((name) => waitsForNeed(a.manager.get(name))),
				'each waits for its first need',
			);

			await vscode.commands.executeCommand('workbench.view.extension.mcpSwitchboard');
			if (hasDriver()) {
				// The view has painted the rows (each reads "not started") before anything is counted. The list renders
				// only the rows in view, and the servers of earlier suites come first: bring lazy-00's row into view.
				const first = a.tree.getChildren().find((n) => n.kind === 'server' && n.server === 'lazy-00');
				assert.ok(first, 'the row of lazy-00');
				await a.treeView.reveal(first, { select: false, focus: false });
				const rows = `[...document.querySelectorAll('.pane-body .monaco-list-row')].map((r) => r.innerText).join('\\n')`;
				await waitFor(
					async () => {
						const text = (await driver({ action: 'evaluate', script: rows })) as string;
						return text.includes('lazy-00') && text.includes('not started');
					},
					{ timeoutMs: 20_000, message: 'the MCP view showing the servers as not started' },
				);
			}
			assert.deepEqual(pids(pidFile), [], 'no server process with the MCP view open');

			// Expanding a row is a need: that server, and only it, starts.
			const node = a.tree.getChildren().find((n) => n.kind === 'server' && n.server === 'lazy-07');
			assert.ok(node, 'the row of lazy-07');
			await waitFor(
				async () => {
					await a.treeView.reveal(node, { expand: true, select: false, focus: false });
					return a.manager.get('lazy-07')?.state.kind === 'running';
				},
				{ timeoutMs: 20_000, message: 'lazy-07 running after its row was expanded' },
			);
			assert.equal(pids(pidFile).length, 1, 'one process: the expanded server');
			assert.ok(names.filter((name) => name !== 'lazy-07').every((name) => waitsForNeed(a.manager.get(name))));

			// What @mcp and the gateway do before offering tools: the servers never listed start and list once.
			await a.manager.listUncached();
			assert.equal(pids(pidFile).length, COUNT, 'each server started once to be listed');

			// Unused, they all stop (1.2 s here; 10 minutes by default) and their processes exit.
			await config.update('stopWhenIdleMinutes', 0.02, vscode.ConfigurationTarget.Workspace);
			await waitFor(() => names.every((name) => a.manager.get(name)?.state.kind === 'stopped'), {
				timeoutMs: 30_000,
				message: 'all thirty stopped while idle',
			});
			await waitFor(() => pids(pidFile).every((pid) => !alive(pid)), {
				timeoutMs: 15_000,
				message: 'every server process gone',
			});
			for (const name of names) {
				const view = a.manager.get(name)!;
				assert.deepEqual(view.state, { kind: 'stopped', onDemand: 'idle' });
				assert.deepEqual(
					treeTools(a, name).sort(),
					['env', 'pid', 'tool_0', 'tool_1'],
					`${name}'s cached tools in the tree`,
				);
				assert.match(serverDescription(view), /^4 tools · stopped while idle · stdio/);
			}

			// The next window: a new Manager over the same listing folder, as activation builds it, starts nothing and
			// has every server's tools.
			const logger = new MemoryLogger('info');
			const next = new Manager(
				{ logger: () => logger },
				{ autoStart: false, listingStore: new FileListingStore(a.listingFolder) },
			);
			second = next;
			const definitions: ResolvedServer[] = names.map((name) => {
				const view = a.manager.get(name)!;
				return { name, config: view.config, source: view.source, workspaceDefined: false };
			});
			const before = pids(pidFile).length;
			await next.reconcile(definitions);
			for (const name of names) {
				const view: ServerView = next.get(name)!;
				assert.deepEqual(view.state, { kind: 'stopped', onDemand: 'notStarted' });
				assert.equal(view.tools.length, 4, `${name} lists its tools from the cache`);
				assert.match(serverDescription(view), /^4 tools · not started · stdio/);
			}
			assert.equal(pids(pidFile).length, before, 'the next activation started no server');
		} finally {
			await second?.dispose();
			await config.update('stopWhenIdleMinutes', undefined, vscode.ConfigurationTarget.Workspace);
			await config.update('servers', previousServers, vscode.ConfigurationTarget.Global);
			await config.update('autoStart', previousAutoStart, vscode.ConfigurationTarget.Workspace);
			await waitFor(() => names.every((name) => a.manager.get(name) === undefined), {
				timeoutMs: 20_000,
				message: 'the thirty servers removed again',
			});
			fs.rmSync(scratch, { recursive: true, force: true });
		}
	},
	{ timeoutMs: 180_000 },
);
