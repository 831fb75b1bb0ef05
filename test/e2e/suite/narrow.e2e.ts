// The Servers view in a narrow side bar (issue #34, point 7), in a real VS Code with server-everything: at the side
// bar's 170 px minimum a selected server row and a selected tool row give their names the room; a server row's
// actions, as a person finds them with a right-click.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import type { TreeNode } from '../../../src/vscode/shared/treeNodes';
import { needDriver, serverWithTool } from './elicitationSupport';
import { driver, extensionApi, pressKey, screenshot, test, waitFor } from './harness';

const SERVER = 'everything';

async function ready(tool = 'echo'): Promise<SwitchboardApi> {
	needDriver();
	const a = await extensionApi<SwitchboardApi>();
	if (a.manager.get(SERVER)?.state.kind === 'needsTrust')
		await vscode.commands.executeCommand('mcpSwitchboard.startServer', SERVER);
	await serverWithTool(SERVER, tool);
	return a;
}

/** The side bar's width in pixels. */
async function sideBarWidth(): Promise<number> {
	return (await driver({
		action: 'evaluate',
		script: `Math.round(document.getElementById('workbench.parts.sidebar').getBoundingClientRect().width)`,
	})) as number;
}

/** Drags the sash at the side bar's right edge, as a person resizes it, to make it `target` pixels wide. */
async function resizeSideBar(target: number): Promise<number> {
	const [left, right, middle] = (await driver({
		action: 'evaluate',
		script: `(() => { const r = document.getElementById('workbench.parts.sidebar').getBoundingClientRect(); return [r.left, r.right, r.top + r.height / 2]; })()`,
	})) as [number, number, number];
	await driver({ action: 'drag', from: [right, middle], to: [left + target, middle] });
	return waitFor(async () => (await sideBarWidth()) || undefined, { message: 'the side bar laid out' });
}

/** The Servers view's pane in the side bar (beside the Call History's). */
const SERVERS_PANE = `[...document.querySelectorAll('.part.sidebar .pane')].find((p) => (p.querySelector('.pane-header .title')?.textContent ?? '').trim().toLowerCase() === 'servers')`;

/** The Servers view's selected rows: the label, its full and shown width, and how many inline actions take room beside it. */
const SELECTED_ROWS = `[...(${SERVERS_PANE})?.querySelectorAll('.monaco-list-row.selected') ?? []].map((row) => {
	const name = row.querySelector('.label-name'); const box = row.querySelector('.monaco-icon-label-container');
	return { name: (name?.textContent ?? '').trim(), full: box?.scrollWidth ?? 0, shown: box?.clientWidth ?? 0, actions: row.querySelectorAll('.actions .action-item').length };
})`;

test(
	'at the side bar minimum width (170 px) a selected server row and a selected tool row give their names the room',
	async () => {
		const a = await ready();
		await vscode.commands.executeCommand('workbench.view.extension.mcpSwitchboard');
		const original = await sideBarWidth();
		try {
			const width = await resizeSideBar(170);
			assert.ok(width <= 175, `the side bar at its minimum (${width} px)`);
			const server: TreeNode = { kind: 'server', server: SERVER };
			const echo = a.tree
				.getChildren(a.tree.groupNode(SERVER, 'tools'))
				.find((n) => n.kind === 'tool' && n.tool.tool.name === 'echo');
			assert.ok(echo);
			for (const node of [server, echo]) {
				await waitFor(
					async () => {
						await a.treeView.reveal(node, { select: true, focus: true, expand: true });
						return true;
					},
					{ timeoutMs: 10_000, message: 'the row revealed' },
				);
				const label = node.kind === 'server' ? SERVER : 'echo';
				const seen = await waitFor(
					async () => {
						const rows = (await driver({ action: 'evaluate', script: SELECTED_ROWS })) as {
							name: string;
							full: number;
							shown: number;
							actions: number;
						}[];
						return rows.find((r) => r.name === label);
					},
					{ message: `the selected ${label} row on screen` },
				);
				console.log(`[results] at ${width} px the selected row ${JSON.stringify(seen)}`);
				// A running server's row keeps no inline action (they took the label's room: "e."); a tool row is its name
				// with one inline action (Call Tool), its title and description after it.
				assert.equal(seen.actions, node.kind === 'server' ? 0 : 1, `inline actions beside ${label}`);
				assert.ok(seen.shown >= 30, `the ${label} label has room at ${width} px: ${JSON.stringify(seen)}`);
				await screenshot(`narrow-tree-${node.kind}`);
			}
		} finally {
			await resizeSideBar(original);
		}
		// A server row's actions, as a person finds them (right-click), for the README.
		await a.treeView.reveal({ kind: 'server', server: SERVER }, { select: true, focus: true });
		await driver({
			action: 'click',
			selector: '.part.sidebar .monaco-list-row.selected[aria-level="1"]',
			button: 'right',
		});
		await waitFor(
			async () =>
				((await driver({ action: 'texts', selector: '.monaco-menu .action-label' })) as string[]).some((l) =>
					/Restart/.test(l),
				),
			{ message: 'the context menu of the server row' },
		);
		await screenshot('server-row-actions');
		await pressKey('Escape');
	},
	{ timeoutMs: 90_000 },
);
