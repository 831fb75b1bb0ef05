// The small things a user of the VS Code edge notices: a click on a tool row does not run it, a server that lists a URI
// twice still gets a tree, URL-elicitation links reach the browser as the server wrote them, images are saved per
// window without deleting other windows' files, and the command palette tells this extension's commands from VS Code's.
// Uses test/e2e/fixture-extension/listsServer.mjs (added to the user settings as "lists") and server-everything.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import type { CallOutcome } from '../../../src/vscode/tools/commands';
import type { TreeNode } from '../../../src/vscode/shared/treeNodes';
import { parseResourceUri, resourceUri } from '../../../src/vscode/shared/resourceUris';
import { answerQuickPick, driver, EXTENSION_ID, extensionApi, quickInputClose, sleep, test, waitFor } from './harness';
import { needDriver, repoRoot, resultText, serverWithTool, waitForQuickInput, USER_PACED } from './elicitationSupport';

const LISTS = 'lists';

/** Adds the lists fixture to the user settings (no trust question) for the test, and removes it after. */
async function withListsServer<T>(body: (a: SwitchboardApi) => Promise<T>): Promise<T> {
	const a = await extensionApi<SwitchboardApi>();
	const config = vscode.workspace.getConfiguration('mcpSwitchboard');
	const previous = config.inspect<Record<string, unknown>>('servers')?.globalValue;
	await config.update(
		'servers',
		{
			...(previous ?? {}),
			[LISTS]: {
				type: 'stdio',
				command: 'node',
				args: [path.join(repoRoot(), 'test/e2e/fixture-extension/listsServer.mjs')],
			},
		},
		vscode.ConfigurationTarget.Global,
	);
	try {
		await serverWithTool(LISTS, 'count');
		return await body(a);
	} finally {
		await config.update('servers', previous, vscode.ConfigurationTarget.Global);
		await waitFor(() => a.manager.get(LISTS) === undefined, { timeoutMs: 10_000, message: `'${LISTS}' removed again` });
	}
}

/** Reveals `node` in the Servers view (retried: reveal fails until the view has rendered). */
async function reveal(a: SwitchboardApi, node: TreeNode, select = false): Promise<void> {
	await vscode.commands.executeCommand('workbench.view.extension.mcpSwitchboard');
	await waitFor(
		async () => {
			await a.treeView.reveal(node, { expand: true, select, focus: false });
			return true;
		},
		{ timeoutMs: 10_000, message: 'the row revealed' },
	);
}

test(
	'a click on a tool row that takes no arguments selects it and does not run it; the inline ▶ runs it',
	async () => {
		needDriver();
		await withListsServer(async (a) => {
			const tool = a.tree
				.getChildren(a.tree.groupNode(LISTS, 'tools'))
				.find((n) => n.kind === 'tool' && n.tool.tool.name === 'count');
			assert.ok(tool);
			const row = `.pane-body .monaco-list-row[aria-label*="count"]`;
			// Each attempt reveals again, as below: a reveal that lands while the view repaints can leave the list where
			// it was (a full e2e run at load ~4 waited 10 s for this row after one reveal).
			await waitFor(
				async () => {
					await reveal(a, tool);
					return ((await driver({ action: 'texts', selector: row })) as string[]).length > 0;
				},
				{ timeoutMs: 30_000, intervalMs: 500, message: 'the count row on screen' },
			);
			// A click that lands while the view repaints the rows it just revealed can miss; clicking the row again only
			// selects it again (never runs it: that is what this test checks), so each look clicks until it is selected.
			// Looks are a second apart, so two clicks are never read as a double-click.
			const selected = () => a.treeView.selection.some((n) => n.kind === 'tool' && n.tool.tool.name === 'count');
			await waitFor(
				async () => {
					if (!selected()) await driver({ action: 'click', selector: row });
					return selected();
				},
				{ timeoutMs: 30_000, intervalMs: 1_000, message: 'the clicked row selected' },
			);
			await sleep(1500);
			// The row's ▶ (and the palette) still run it: this is the first call the server sees.
			const outcome = await vscode.commands.executeCommand<CallOutcome>('mcpSwitchboard.callTool', tool);
			assert.equal(outcome.result ? resultText(outcome.result) : outcome.error, '1', 'the click did not call the tool');
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		});
	},
	{ timeoutMs: 60_000 },
);

test(
	'a server that lists one resource URI twice gets one row for it, and the tree still renders',
	async () => {
		needDriver();
		await withListsServer(async (a) => {
			const group = a.tree.groupNode(LISTS, 'resources');
			const rows = a.tree.getChildren(group);
			const ids = rows.map((n) => a.tree.getTreeItem(n).id);
			assert.deepEqual(ids, [
				`server/${LISTS}/resources/test://docs/readme`,
				`server/${LISTS}/resources/test://docs/notes`,
			]);
			assert.equal(a.tree.getTreeItem(group).description, '2');
			const notes = rows[1];
			assert.ok(notes);
			// Each attempt reveals again: a reveal that lands while the view repaints can leave the list where it was.
			const labels = await waitFor(
				async () => {
					await reveal(a, notes);
					const texts = (await driver({
						action: 'texts',
						selector: '.pane-body .monaco-list-row .label-name',
					})) as string[];
					return texts.includes('notes') && texts;
				},
				{ timeoutMs: 30_000, intervalMs: 500, message: 'the resource rows on screen' },
			);
			assert.equal(labels.filter((l) => l === 'readme').length, 1, `rows: ${labels.join(', ')}`);
		});
	},
	{ timeoutMs: 60_000 },
);

test(
	'a URL-elicitation link reaches the browser exactly as the server wrote it (%26 stays %26)',
	async () => {
		needDriver();
		const received: string[] = [];
		const server = http.createServer((req, res) => {
			received.push(req.url ?? '');
			res.end('<html><body>consent page</body></html>');
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		try {
			const port = (server.address() as AddressInfo).port;
			const url = `http://127.0.0.1:${port}/approve?next=a%26b%3Dc&state=x%2Fy`;
			const manager = await serverWithTool('everything', 'trigger-url-elicitation');
			const call = manager.callTool(
				'everything',
				'trigger-url-elicitation',
				{ url, message: 'Approve in the browser' },
				USER_PACED,
			);
			await waitForQuickInput('asks you to open a page on 127.0.0.1');
			await answerQuickPick('Open 127.0.0.1');
			await call;
			const path = await waitFor(() => received.find((r) => r.startsWith('/approve')), {
				timeoutMs: 15_000,
				message: 'the browser to load the page',
			});
			assert.equal(path, '/approve?next=a%26b%3Dc&state=x%2Fy');
		} finally {
			await driver({ action: 'pages', close: true } as never).catch(() => undefined);
			server.close();
		}
	},
	{ timeoutMs: 60_000 },
);

test(
	"images go to a folder of this window; another window's folder stays, and a gone window's folder is cleaned after the first save",
	async () => {
		const a = await extensionApi<SwitchboardApi>();
		const root = path.dirname(a.blobs.folder.fsPath);
		fs.mkdirSync(path.join(root, 'other-window'), { recursive: true });
		fs.writeFileSync(path.join(root, 'other-window', 'owner.json'), JSON.stringify({ pid: process.pid }));
		fs.writeFileSync(path.join(root, 'other-window', 'image.png'), 'x');
		fs.mkdirSync(path.join(root, 'gone-window'), { recursive: true });
		// A pid that cannot be running (above the kernel's pid_max).
		fs.writeFileSync(path.join(root, 'gone-window', 'owner.json'), JSON.stringify({ pid: 2 ** 30 }));
		fs.writeFileSync(path.join(root, 'gone-window', 'image.png'), 'x');
		const manager = await serverWithTool('everything', 'get-tiny-image');
		const outcome = await vscode.commands.executeCommand<CallOutcome>('mcpSwitchboard.callTool', {
			server: 'everything',
			tool: 'get-tiny-image',
			arguments: {},
		});
		assert.ok(outcome.result, outcome.error);
		assert.ok(manager);
		const saved = fs.readdirSync(a.blobs.folder.fsPath).filter((f) => f.endsWith('.png'));
		assert.ok(saved.length > 0, `the image saved in this window's folder ${a.blobs.folder.fsPath}`);
		assert.notEqual(path.basename(a.blobs.folder.fsPath), 'blobs');
		await a.blobs.cleaned;
		assert.ok(fs.existsSync(path.join(root, 'other-window', 'image.png')), 'a running window keeps its images');
		assert.ok(!fs.existsSync(path.join(root, 'gone-window')), "a gone window's folder is cleaned");
		fs.rmSync(path.join(root, 'other-window'), { recursive: true, force: true });
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	},
	{ timeoutMs: 60_000 },
);

/** Ellipses and case do not tell two palette entries apart for a reader. */
function normalized(label: string): string {
	return label
		.replace(/…|\.\.\./g, '')
		.trim()
		.toLowerCase();
}

test(
	'the command palette: every command of this extension is in the category "MCP Switchboard", and none reads like one of VS Code\'s own',
	async () => {
		needDriver();
		const ours = (
			vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as {
				contributes: { commands: { title: string; category?: string }[] };
			}
		).contributes.commands;
		const seenMcp = new Set<string>();
		try {
			for (const command of ours) {
				assert.equal(command.category, 'MCP Switchboard', `${command.title} has the category "MCP Switchboard"`);
				const label = `${command.category}: ${command.title}`;
				await vscode.commands.executeCommand('workbench.action.showCommands');
				await driver({
					action: 'fill',
					selector: '.quick-input-widget .quick-input-box input',
					text: `>${command.title.replace(/…$/, '')}`,
				});
				await sleep(400);
				const rows = (await driver({
					action: 'texts',
					selector: '.quick-input-widget .quick-input-list .monaco-list-row .label-name',
				})) as string[];
				const others = rows.map((r) => r.trim()).filter((r) => r !== label);
				for (const row of others) if (/\bMCP\b/.test(row)) seenMcp.add(row);
				const twin = others.find((row) => normalized(row) === normalized(label));
				assert.equal(twin, undefined, `"${label}" sits next to "${twin}" in the palette`);
			}
		} finally {
			await quickInputClose();
		}
		console.log(`e2e palette: other MCP entries seen next to ours: ${[...seenMcp].sort().join(' | ')}`);
	},
	{ timeoutMs: 120_000 },
);

/** The text of the fixture's `subscriptions` tool: the URIs the running process follows. */
async function followed(a: SwitchboardApi): Promise<string[]> {
	return JSON.parse(resultText(await a.manager.callTool(LISTS, 'subscriptions', {}))) as string[];
}

test(
	'a resource tab whose server is not configured or started yet waits for it (no error), and one of a stopped server is read again when it runs',
	async () => {
		const a = await extensionApi<SwitchboardApi>();
		// As at start-up: the tab asks before the configuration that defines its server is applied.
		const early = vscode.workspace.openTextDocument(resourceUri(LISTS, 'test://docs/readme'));
		await withListsServer(async () => {
			const document = await early;
			assert.match(
				document.getText(),
				/^test:\/\/docs\/readme read \d+$/,
				`the restored tab shows the resource: ${document.getText()}`,
			);

			await a.manager.stop(LISTS);
			const stopped = await vscode.workspace.openTextDocument(resourceUri(LISTS, 'test://docs/notes'));
			assert.match(stopped.getText(), /MCP server 'lists' is stopped, so test:\/\/docs\/notes cannot be read yet/);
			await a.manager.start(LISTS);
			await waitFor(() => /^test:\/\/docs\/notes read \d+$/.test(stopped.getText()), {
				timeoutMs: 15_000,
				message: `the document read again once the server runs (shows: ${stopped.getText()})`,
			});
		});
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	},
	{ timeoutMs: 90_000 },
);

test(
	'after a server restart its resource subscriptions are made again, and updates keep refreshing the document',
	async () => {
		await withListsServer(async (a) => {
			const notes = a.tree
				.getChildren(a.tree.groupNode(LISTS, 'resources'))
				.find((n) => n.kind === 'resource' && n.resource.uri === 'test://docs/notes');
			assert.ok(notes);
			await vscode.commands.executeCommand('mcpSwitchboard.subscribeResource', notes);
			assert.deepEqual(await followed(a), ['test://docs/notes']);
			const document = await waitFor(
				() =>
					vscode.workspace.textDocuments.find(
						(d) => parseResourceUri(d.uri)?.server === LISTS && parseResourceUri(d.uri)?.uri === 'test://docs/notes',
					),
				{ message: 'the subscribed document open' },
			);

			await a.manager.restart(LISTS);
			await serverWithTool(LISTS, 'subscriptions');
			await waitFor(async () => (await followed(a)).includes('test://docs/notes'), {
				timeoutMs: 15_000,
				message: 'the new server process asked to follow the URI again',
			});
			const before = document.getText();
			await a.manager.callTool(LISTS, 'touch', {});
			await waitFor(() => document.getText() !== before && /^test:\/\/docs\/notes read \d+$/.test(document.getText()), {
				timeoutMs: 15_000,
				message: `an update after the restart refreshes the document (was: ${before})`,
			});
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		});
	},
	{ timeoutMs: 90_000 },
);
