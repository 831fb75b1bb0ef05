// The MCP views in a narrow side bar (issue #34, point 7), in a real VS Code with server-everything and
// server-filesystem: at the side bar's 170 px minimum server rows, tool rows and Call History rows show whole names
// ("everything", "filesystem", "echo", "read_file"), selected or not, with their state still drawn (icon, checkbox),
// and a task row gets the room a tool row has; a server row's actions and the Tools row's Offer All / Offer No Tools,
// as a person finds them with a right-click.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import type { TreeNode } from '../../../src/vscode/shared/treeNodes';
import { needDriver, repoRoot, serverWithTool, startedWithTool } from './elicitationSupport';
import { driver, pressKey, screenshot, test, waitFor } from './harness';

const SERVER = 'everything';

async function ready(tool = 'echo'): Promise<SwitchboardApi> {
	needDriver();
	return startedWithTool<SwitchboardApi>(SERVER, tool);
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

/** The name server-filesystem gets here: a typical one, as Add Server suggests it. */
const FS = 'filesystem';

/** Adds server-filesystem (the workspace folder its root) in the user settings; resolves the cleanup. */
async function withFilesystem(a: SwitchboardApi): Promise<() => Promise<void>> {
	const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
	assert.ok(workspace, 'a workspace folder');
	const config = vscode.workspace.getConfiguration('mcpSwitchboard');
	const previous = config.inspect<Record<string, unknown>>('servers')?.globalValue;
	const script = path.join(repoRoot(), 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
	await config.update(
		'servers',
		{ ...(previous ?? {}), [FS]: { command: process.execPath, args: [script, workspace] } },
		vscode.ConfigurationTarget.Global,
	);
	await serverWithTool(FS, 'read_file');
	return async () => {
		await a.enablement.setEnabled(
			(a.manager.get(FS)?.tools ?? []).map((named) => ({ server: FS, tool: named.tool.name })),
			true,
		);
		await config.update('servers', previous, vscode.ConfigurationTarget.Global);
	};
}

/** A side bar pane found by its title ("servers", "call history"). */
function pane(title: string): string {
	return `[...document.querySelectorAll('.part.sidebar .pane')].find((p) => (p.querySelector('.pane-header .title')?.textContent ?? '').trim().toLowerCase() === ${JSON.stringify(title)})`;
}

/** A row as drawn: its name, whether the name ends past the label's visible edge, and what else takes its room. */
interface Row {
	name: string;
	/** Selected or focused: VS Code shows the row's inline actions then (and on hover). */
	active: boolean;
	/** The name runs past the label's visible edge (the ellipsis or the inline actions hide part of it). */
	cut: boolean;
	/** The name's width and the room the label has for it, in pixels. */
	width: number;
	room: number;
	actions: number;
	checkbox: boolean;
	icon: string;
	description: string;
}

/**
 * The rows a pane has rendered. The name (`.label-name`) is an inline box laid out whole; the label container clips
 * it with an ellipsis, so a name is cut when its right edge is past the container's (scrollWidth of an inline span is
 * 0; the rectangles say it).
 */
async function rows(title: string): Promise<Row[]> {
	return (await driver({
		action: 'evaluate',
		script: `[...(${pane(title)})?.querySelectorAll('.monaco-list-row') ?? []].map((row) => {
			const name = row.querySelector('.label-name'); const box = row.querySelector('.monaco-icon-label-container');
			const n = name?.getBoundingClientRect(); const b = box?.getBoundingClientRect();
			const actions = row.querySelector('.actions');
			const icon = row.querySelector('.custom-view-tree-node-item-icon');
			return { name: (name?.textContent ?? '').trim(), active: row.classList.contains('selected') || row.classList.contains('focused'),
				cut: !n || !b || n.right > b.right + 0.5, width: Math.round(n?.width ?? 0), room: Math.round(b && n ? b.right - n.left : 0),
				actions: actions && getComputedStyle(actions).display !== 'none' ? actions.querySelectorAll('.action-item').length : 0,
				checkbox: Boolean(row.querySelector('.custom-view-tree-node-item-checkbox')),
				icon: icon ? [...icon.classList].filter((c) => c.startsWith('codicon-')).join(' ') : '',
				description: (row.querySelector('.label-description')?.textContent ?? '').trim() };
		})`,
	})) as Row[];
}

/** Asserts that none of `names` is cut among the rows of `title` on screen and not selected; returns the names seen. */
async function whole(title: string, names: readonly string[], what: string): Promise<string[]> {
	const seen = (await rows(title)).filter((row) => names.includes(row.name) && !row.active);
	const cut = seen.filter((row) => row.cut);
	assert.deepEqual(cut, [], `${what}: names cut at the side bar's minimum`);
	return seen.map((row) => row.name);
}

/** Reveals `node` selected and focused in the Servers view (retrying while the tree has not rendered it yet). */
async function select(a: SwitchboardApi, node: TreeNode): Promise<void> {
	await waitFor(
		async () => {
			await a.treeView.reveal(node, { select: true, focus: true, expand: true });
			return true;
		},
		{ timeoutMs: 10_000, message: 'the row revealed' },
	);
}

/** A tool's row node. */
function toolNode(a: SwitchboardApi, server: string, tool: string): TreeNode {
	const node = a.tree
		.getChildren(a.tree.groupNode(server, 'tools'))
		.find((n) => n.kind === 'tool' && n.tool.tool.name === tool);
	assert.ok(node, `${server} lists ${tool}`);
	return node;
}

/** Opens the context menu of the selected row of the given tree level; resolves the menu's item labels. */
async function contextMenu(level: number, expect: string): Promise<string[]> {
	// Marked in the Servers pane (a Call History row may be selected too), then right-clicked as a person does.
	await driver({
		action: 'evaluate',
		script: `(() => { document.querySelectorAll('[data-e2e-target="menu-row"]').forEach((e) => e.removeAttribute('data-e2e-target'));
			(${pane('servers')})?.querySelector('.monaco-list-row.selected[aria-level="${level}"]')?.setAttribute('data-e2e-target', 'menu-row'); })()`,
	});
	await driver({ action: 'click', selector: '[data-e2e-target="menu-row"]', button: 'right' });
	return waitFor(
		async () => {
			const items = (await driver({
				action: 'texts',
				selector: '.context-view .monaco-menu .action-label',
			})) as string[];
			return items.some((label) => label.trim() === expect) ? items.map((label) => label.trim()) : undefined;
		},
		{ message: `a context menu with ${expect}` },
	);
}

/** The servers, and tools with typical names (a word or two, up to 10 characters), of the e2e workspace. */
const SERVERS = [SERVER, FS];
const TOOLS: readonly [string, string][] = [
	[SERVER, 'echo'],
	[SERVER, 'get-sum'],
	[FS, 'read_file'],
	[FS, 'write_file'],
	[FS, 'edit_file'],
];
/**
 * Whole when not selected, cut when selected: a destructive or suspicious tool's warning glyph takes 22 px, leaving
 * its name 60 px beside the inline ▶ (DejaVu Sans, the widest common UI font: "write_file" is 59, "move_file" 63).
 */
const WHOLE_UNSELECTED = ['move_file'];

test(
	"at the side bar's 170 px minimum server and tool rows show whole names, selected or not, with icon and checkbox",
	async () => {
		const a = await ready();
		const cleanup = await withFilesystem(a);
		await vscode.commands.executeCommand('workbench.view.extension.mcpSwitchboard');
		const original = await sideBarWidth();
		try {
			const width = await resizeSideBar(170);
			assert.ok(width <= 175, `the side bar at its minimum (${width} px)`);
			const names = [...SERVERS, ...TOOLS.map(([, tool]) => tool), ...WHOLE_UNSELECTED];
			const seenWhole = new Set<string>();
			for (const server of SERVERS) {
				await select(a, { kind: 'server', server });
				const row = await waitFor(async () => (await rows('servers')).find((r) => r.name === server && r.active), {
					message: `the selected ${server} row on screen`,
				});
				console.log(`[narrow] at ${width} px ${JSON.stringify(row)}`);
				assert.equal(row.cut, false, `${server} whole when selected: ${JSON.stringify(row)}`);
				// The state stays drawn: the state icon (running: a coloured one), the tool count after the name.
				assert.match(row.icon, /codicon-/, `${server} shows its state icon`);
				assert.match(row.description, /tools/, `${server} says how many tools (cut to fit is fine)`);
				assert.equal(row.checkbox, false, 'no checkbox on a server row (Offer All / No Tools are on the Tools row)');
				for (const name of await whole('servers', names, `with ${server} selected`)) seenWhole.add(name);
			}
			for (const [server, tool] of TOOLS) {
				await select(a, toolNode(a, server, tool));
				const row = await waitFor(async () => (await rows('servers')).find((r) => r.name === tool && r.active), {
					message: `the selected ${tool} row on screen`,
				});
				console.log(`[narrow] at ${width} px ${JSON.stringify(row)}`);
				assert.equal(row.actions, 1, `${tool} keeps its inline ▶ (Call Tool)`);
				assert.equal(row.cut, false, `${tool} whole beside its inline ▶: ${JSON.stringify(row)}`);
				assert.equal(row.checkbox, true, `${tool} keeps its checkbox (offered to chat models)`);
				// A plain tool has no icon (every row under Tools is one); a destructive one keeps its warning glyph.
				const destructive = a.manager.findTool(`mcp__${server}__${tool}`)?.tool.annotations?.destructiveHint === true;
				assert.equal(row.icon.includes('codicon-warning'), destructive, `${tool}'s icon: ${row.icon || 'none'}`);
				for (const name of await whole('servers', names, `with ${tool} selected`)) seenWhole.add(name);
				if (tool === 'read_file') await screenshot('narrow-tree-tool');
			}
			for (const tool of WHOLE_UNSELECTED) {
				await a.treeView.reveal(toolNode(a, FS, tool), { select: false, focus: false });
				await waitFor(async () => (await rows('servers')).some((r) => r.name === tool), {
					message: `${tool} on screen`,
				});
				for (const name of await whole('servers', names, `with ${tool} on screen`)) seenWhole.add(name);
			}
			assert.deepEqual(
				names.filter((name) => !seenWhole.has(name)),
				[],
				'each name seen whole while another row was selected',
			);
			await select(a, { kind: 'server', server: FS });
			await screenshot('narrow-tree-server');
		} finally {
			await resizeSideBar(original);
			await cleanup();
		}
	},
	{ timeoutMs: 150_000 },
);

test(
	"at the side bar's 170 px minimum Call History rows show whole tool names beside their inline actions",
	async () => {
		const a = await ready();
		const cleanup = await withFilesystem(a);
		await vscode.commands.executeCommand('workbench.view.extension.mcpSwitchboard');
		const original = await sideBarWidth();
		try {
			const hello = path.join(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '', 'hello.txt');
			const calls: [string, string, Record<string, unknown>][] = [
				[SERVER, 'echo', { message: 'narrow' }],
				[SERVER, 'get-sum', { a: 1, b: 2 }],
				[FS, 'read_file', { path: hello }],
			];
			for (const [server, tool, args] of calls)
				await vscode.commands.executeCommand('mcpSwitchboard.callTool', { server, tool, arguments: args });
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
			const width = await resizeSideBar(170);
			await vscode.commands.executeCommand('mcpSwitchboard.history.focus');
			await vscode.commands.executeCommand('list.focusFirst');
			// Newest first: read_file, get-sum, echo; each focused in turn shows its inline Re-run (and Compare).
			for (const tool of ['read_file', 'get-sum', 'echo']) {
				const row = await waitFor(async () => (await rows('call history')).find((r) => r.name === tool && r.active), {
					message: `the focused ${tool} row in the Call History`,
				});
				console.log(`[narrow] history at ${width} px ${JSON.stringify(row)}`);
				assert.ok(row.actions >= 1, `${tool}'s inline actions shown`);
				assert.equal(row.cut, false, `${tool} whole in the Call History beside its actions: ${JSON.stringify(row)}`);
				assert.match(row.icon, /codicon-/, `${tool} shows its outcome icon`);
				if (tool === 'read_file') await screenshot('narrow-history');
				await vscode.commands.executeCommand('list.focusDown');
			}
			await whole('call history', ['read_file', 'get-sum', 'echo'], 'Call History rows');
		} finally {
			await resizeSideBar(original);
			await cleanup();
		}
	},
	{ timeoutMs: 120_000 },
);

test(
	"at the side bar's 170 px minimum a finished task row gives its name the room a tool name gets",
	async () => {
		const a = await ready('simulate-research-query');
		await vscode.commands.executeCommand('workbench.view.extension.mcpSwitchboard');
		const original = await sideBarWidth();
		let taskId: string | undefined;
		try {
			const outcome = await vscode.commands.executeCommand<{ taskId?: string } | undefined>('mcpSwitchboard.callTool', {
				server: SERVER,
				tool: 'simulate-research-query',
				arguments: { topic: 'tides' },
			});
			taskId = outcome?.taskId;
			assert.ok(taskId, 'it ran as a task');
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
			const width = await resizeSideBar(170);
			const node = await waitFor(
				() => a.tree.getChildren(a.tree.tasksNode(SERVER)).find((n) => n.kind === 'task' && n.taskId === taskId),
				{ message: 'the task row' },
			);
			await select(a, node);
			const row = await waitFor(
				async () => (await rows('servers')).find((r) => r.name === 'simulate-research-query' && r.active),
				{ message: 'the selected task row on screen' },
			);
			console.log(`[narrow] task row at ${width} px ${JSON.stringify(row)}`);
			await screenshot('narrow-task');
			// Open Result and Forget beside it, the status icon before it, no twistie's space (the Tasks row has no icon):
			// the room a plain tool's name has beside its one ▶, less one button. A 23-character name is cut at 170 px.
			assert.equal(row.actions, 2, 'Open Result and Forget inline');
			assert.match(row.icon, /codicon-/, 'the status icon');
			assert.ok(row.room >= 55, `the task's name has ${row.room} px`);
		} finally {
			if (taskId) a.tasks.forget(SERVER, taskId);
			await resizeSideBar(original);
		}
	},
	{ timeoutMs: 120_000 },
);

test(
	"a server row's right-click offers Show Configuration, Disable and Remove; the Tools row offers all or no tools",
	async () => {
		const a = await ready();
		const cleanup = await withFilesystem(a);
		await vscode.commands.executeCommand('workbench.view.extension.mcpSwitchboard');
		try {
			// A server row's actions, as a person finds them (right-click), for the README.
			await select(a, { kind: 'server', server: FS });
			const menu = await contextMenu(1, 'Show Configuration');
			for (const item of ['Show Configuration', 'Disable Server', 'Remove Server…'])
				assert.ok(menu.includes(item), `the server row's menu has ${item}: ${menu.join(' | ')}`);
			await screenshot('server-row-actions');
			await pressKey('Escape');

			// What the server row's checkbox did, now on its Tools row: Offer No Tools switches every tool off.
			const tools = a.tree.groupNode(FS, 'tools');
			await select(a, tools);
			const offered = () => (a.manager.get(FS)?.tools ?? []).filter((named) => a.enablement.isEnabled(named)).length;
			const count = a.manager.get(FS)?.tools.length ?? 0;
			assert.equal(offered(), count, 'every tool offered to start with');
			assert.ok(!(await contextMenu(2, 'Offer No Tools to Chat Models')).includes('Offer All Tools to Chat Models'));
			await driver({
				action: 'click',
				selector: '.context-view .monaco-menu .action-label:text-is("Offer No Tools to Chat Models")',
			});
			await waitFor(() => offered() === 0, { message: `no ${FS} tool offered (${offered()} still are)` });
			await waitFor(
				async () => (await rows('servers')).some((r) => r.name === FS && r.description.includes(`${count} off`)),
				{ message: `the ${FS} row saying its tools are off` },
			);
			// And Offer All brings them back (the menu now has only that one).
			await select(a, tools);
			assert.ok(!(await contextMenu(2, 'Offer All Tools to Chat Models')).includes('Offer No Tools to Chat Models'));
			await screenshot('tools-row-offer');
			await driver({
				action: 'click',
				selector: '.context-view .monaco-menu .action-label:text-is("Offer All Tools to Chat Models")',
			});
			await waitFor(() => offered() === count, { message: `every ${FS} tool offered again (${offered()} are)` });
		} finally {
			await pressKey('Escape');
			await cleanup();
		}
	},
	{ timeoutMs: 90_000 },
);
