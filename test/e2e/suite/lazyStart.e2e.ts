// Fifty servers cost nothing until used (#28), in the real VS Code: thirty configured servers (the Manager fixture
// server, each start appending its pid to a file) run no process while the MCP view shows them, one runs after its
// row is expanded, and once each has listed and gone idle, the tree shows every server's tools from the listing cache
// with no process running. Then the suite goes on in the next window (lazyStart.next.e2e.ts: a new workbench and
// extension host over the same profile); a runner without next windows gets a second Manager over the same storage
// instead (what the next window's activation builds).
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
import { continueInNextWindow, driver, extensionApi, hasDriver, test, waitFor } from './harness';
import {
	alive,
	COUNT,
	names,
	pids,
	revealRow,
	TOOLS,
	treeTools,
	waitsForNeed,
	type LazyHandOver,
} from './lazyStartSupport';

test(
	'thirty servers: none runs with the MCP view open, one after its row is expanded, and all show cached tools while stopped',
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
		let continues = false;
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
				await revealRow(a, 'lazy-00');
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
			await waitFor(
				async () => {
					await revealRow(a, 'lazy-07', true);
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
				assert.deepEqual(treeTools(a, name).sort(), TOOLS, `${name}'s cached tools in the tree`);
				assert.match(serverDescription(view), /^4 tools · stopped while idle · stdio/);
			}
			await config.update('stopWhenIdleMinutes', undefined, vscode.ConfigurationTarget.Workspace);

			// The next window opens with the thirty servers configured and autoStart off: they stay for it.
			const handOver: LazyHandOver = {
				pidFile,
				scratch,
				listingFolder: a.listingFolder,
				previousServers,
				previousAutoStart,
			};
			continues = continueInNextWindow(handOver);
			if (!continues) await nextActivationInThisHost(a, pidFile);
		} finally {
			await config.update('stopWhenIdleMinutes', undefined, vscode.ConfigurationTarget.Workspace);
			if (!continues) {
				await config.update('servers', previousServers, vscode.ConfigurationTarget.Global);
				await config.update('autoStart', previousAutoStart, vscode.ConfigurationTarget.Workspace);
				await waitFor(() => names.every((name) => a.manager.get(name) === undefined), {
					timeoutMs: 20_000,
					message: 'the thirty servers removed again',
				});
				fs.rmSync(scratch, { recursive: true, force: true });
			}
		}
	},
	{ timeoutMs: 180_000 },
);

/**
 * Without a next window (a runner that opens none): a new Manager over the same listing folder, as activation builds
 * it, starts nothing and has every server's tools.
 */
async function nextActivationInThisHost(a: SwitchboardApi, pidFile: string): Promise<void> {
	console.log('e2e: lazyStart: this runner opens no next window; a second Manager over the same storage stands in');
	const logger = new MemoryLogger('info');
	const next = new Manager(
		{ logger: () => logger },
		{ autoStart: false, listingStore: new FileListingStore(a.listingFolder) },
	);
	try {
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
		await next.dispose();
	}
}
