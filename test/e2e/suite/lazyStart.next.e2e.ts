// lazyStart.e2e.ts, continued in the next window (nextWindow.ts): a new workbench and extension host over the same
// profile, opened with the thirty servers configured and each listed once in the window before. Activation starts
// none of them; every row of the MCP view shows its tools from the listing cache ("4 tools · not started"); expanding
// one row starts exactly that server. Then the thirty go again.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import { serverDescription } from '../../../src/vscode/tree/serversTree';
import { extensionApi, handedOver, hasDriver, test, waitFor } from './harness';
import {
	alive,
	names,
	pids,
	revealRow,
	shownRows,
	TOOLS,
	treeTools,
	waitsForNeed,
	type LazyHandOver,
} from './lazyStartSupport';

test(
	'the next window: thirty servers show their cached tools with none started, and expanding one starts exactly it',
	async () => {
		const from = handedOver<LazyHandOver>();
		const a = await extensionApi<SwitchboardApi>();
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		try {
			assert.equal(a.listingFolder, from.listingFolder, 'the same globalStorage as the window before');
			await waitFor(() => names.every((name) => a.manager.get(name)), {
				timeoutMs: 15_000,
				message: 'the thirty servers configured in the new window',
			});
			// The window's first rows (timed from activation, firstRows.ts): every server shown, none started, the
			// thirty from their kept listings.
			const first = await a.firstRows;
			assert.equal(first.servers, a.manager.servers().length);
			assert.equal(first.running, a.manager.servers().filter((s) => s.state.kind === 'running').length);
			assert.ok(first.cached >= names.length, `${first.cached} rows from kept listings`);
			assert.ok(first.ms > 0);
			const mainLog = vscode.Uri.joinPath(a.logUri, 'MCP Switchboard.log').fsPath;
			await waitFor(
				() =>
					/\d+ servers shown \d+ ms after activation began \(\d+ running, \d+ from kept listings\)/.test(
						fs.readFileSync(mainLog, 'utf8'),
					),
				{ timeoutMs: 10_000, message: `the first rows' time in ${mainLog}` },
			);
			const before = pids(from.pidFile);
			assert.equal(before.length, names.length, 'each started once, in the window before');
			assert.ok(
				before.every((pid) => !alive(pid)),
				'no server process of the window before is alive',
			);

			await vscode.commands.executeCommand('workbench.view.extension.mcpSwitchboard');
			for (const name of names) {
				const view = a.manager.get(name)!;
				assert.deepEqual(view.state, { kind: 'stopped', onDemand: 'notStarted' }, name);
				assert.equal(typeof view.listedAt, 'number', `${name} marked as listed in an earlier window`);
				assert.deepEqual(treeTools(a, name).sort(), TOOLS, `${name}'s cached tools in the tree`);
				assert.match(serverDescription(view), /^4 tools · not started · stdio/);
			}
			if (hasDriver()) {
				// What a person sees: every row, brought into view in turn (the list renders only the rows in view).
				const seen: Record<string, string> = {};
				for (const name of names) {
					if (seen[name] !== undefined) continue;
					await waitFor(
						async () => {
							await revealRow(a, name);
							Object.assign(seen, await shownRows());
							return seen[name] !== undefined;
						},
						{ timeoutMs: 20_000, message: `the row of ${name} in the MCP view` },
					);
				}
				for (const name of names) assert.match(seen[name] ?? '', /^4 tools · not started · stdio/, `${name}'s row`);
			}
			assert.equal(pids(from.pidFile).length, before.length, 'the new window started no server');

			// Expanding a row is a need: that server, and only it, starts.
			await waitFor(
				async () => {
					await revealRow(a, 'lazy-07', true);
					return a.manager.get('lazy-07')?.state.kind === 'running';
				},
				{ timeoutMs: 20_000, message: 'lazy-07 running after its row was expanded' },
			);
			const after = pids(from.pidFile);
			assert.equal(after.length, before.length + 1, 'one more process: the expanded server');
			assert.ok(alive(after.at(-1)!), 'and it is alive');
			assert.ok(names.filter((name) => name !== 'lazy-07').every((name) => waitsForNeed(a.manager.get(name))));
		} finally {
			await config.update('servers', from.previousServers, vscode.ConfigurationTarget.Global);
			await config.update('autoStart', from.previousAutoStart, vscode.ConfigurationTarget.Workspace);
			await waitFor(() => names.every((name) => a.manager.get(name) === undefined), {
				timeoutMs: 20_000,
				message: 'the thirty servers removed again',
			});
			fs.rmSync(from.scratch, { recursive: true, force: true });
		}
	},
	{ timeoutMs: 180_000 },
);
