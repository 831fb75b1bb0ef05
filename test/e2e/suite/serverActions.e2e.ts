// A broken server fixed, switched off and removed where it fails (#34.2), in a real VS Code: its row's context menu
// offers Show Configuration, Disable and Remove; Show Configuration opens the file that defines it with the cursor on
// its entry; Disable (from the status bar's list) writes "disabled": true and the row reads disabled; Remove deletes
// the entry from the file. The same for a project .mcp.json (Claude Code's "mcpServers" file), whose comments stay.
// A refused URL reads "not reachable", not "crash loop" (#34.5), and Show Protocol does not open an empty view of it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import { parseJsonc } from '../../../src/manager/jsonc';
import { serverTooltip } from '../../../src/vscode/tree/serversTree';
import { freePort } from '../../fixtures/everythingHttp';
import { needDriver, waitForQuickInput } from './elicitationSupport';
import {
	answerInputBox,
	answerQuickPick,
	driver,
	extensionApi,
	hasDriver,
	pageTexts,
	pressKey,
	quickInputClose,
	quickInputRows,
	screenshot,
	test,
	waitFor,
} from './harness';

const BROKEN = 'broken-e2e';
const userSettings = process.env.MCP_SWITCHBOARD_E2E_USER_SETTINGS ?? '';
/** A server that fails the way a misconfigured one does: a line on stderr, then exit. */
const brokenEntry = {
	type: 'stdio',
	command: 'node',
	args: ['-e', "console.error('cannot read /nowhere/config.yaml'); process.exit(3)"],
};

function stateOf(api: SwitchboardApi, name: string): string | undefined {
	return api.manager.get(name)?.state.kind;
}

function userServers(): Record<string, Record<string, unknown>> {
	const parsed = parseJsonc(fs.readFileSync(userSettings, 'utf8')).value as Record<string, unknown>;
	return (parsed['mcpSwitchboard.servers'] ?? {}) as Record<string, Record<string, unknown>>;
}

function selectedText(): string {
	const editor = vscode.window.activeTextEditor;
	return editor ? editor.document.getText(editor.selection) : '';
}

/** Marks the visible tree row labelled `label` and right-clicks it, as a person does; returns the menu's entries. */
async function rowMenu(api: SwitchboardApi, label: string): Promise<string[]> {
	await vscode.commands.executeCommand('workbench.view.extension.mcpSwitchboard');
	const items = '.context-view .monaco-menu .action-label';
	let menu: string[] = [];
	await waitFor(
		async () => {
			menu = await pageTexts(items);
			if (menu.some((entry) => entry.includes('Show Configuration'))) return true;
			if (menu.length > 0) await pressKey('Escape');
			await api.treeView
				.reveal({ kind: 'server', server: label }, { select: false, focus: false })
				.then(undefined, () => undefined);
			const marked = await driver({
				action: 'evaluate',
				script: `(() => {
					const row = [...document.querySelectorAll('.pane-body .monaco-list-row .label-name')]
						.find((e) => e.offsetParent !== null && (e.textContent ?? '').trim() === ${JSON.stringify(label)});
					if (!row) return false;
					row.setAttribute('data-e2e-target', 'server-row');
					return true;
				})()`,
			});
			if (marked) await driver({ action: 'click', selector: '[data-e2e-target="server-row"]', button: 'right' });
			return false;
		},
		{ timeoutMs: 45_000, intervalMs: 1_000, message: () => `the row's context menu (last seen: ${menu.join(' | ')})` },
	);
	return menu;
}

test(
	'a broken server in user settings: Show Configuration lands on its entry, Disable stops it, Remove deletes it',
	async () => {
		needDriver();
		const api = await extensionApi<SwitchboardApi>();
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const previous = config.inspect<Record<string, unknown>>('servers')?.globalValue;
		try {
			await config.update('servers', { ...previous, [BROKEN]: brokenEntry }, vscode.ConfigurationTarget.Global);
			await waitFor(() => stateOf(api, BROKEN) === 'error', {
				timeoutMs: 30_000,
				message: () => `'${BROKEN}' failing (it is ${stateOf(api, BROKEN)})`,
			});
			const view = api.manager.get(BROKEN);
			assert.ok(view);
			assert.match(
				serverTooltip(view).value,
				/Configured in: \[User settings\]\(command:mcpSwitchboard\.showConfiguration\?/,
				"the tooltip's source is a link to Show Configuration",
			);

			// Right-click the row: the ways to fix it are there.
			const menu = await rowMenu(api, BROKEN);
			for (const entry of ['Show Configuration', 'Disable Server', 'Remove Server…'])
				assert.ok(menu.includes(entry), `the menu offers ${entry}: ${menu.join(' | ')}`);
			assert.ok(!menu.includes('Enable Server'), 'no Enable on a server that is not disabled');
			await screenshot('server-row-actions');
			await driver({
				action: 'click',
				selector: '.context-view .monaco-menu .action-label:text-is("Show Configuration")',
			});
			await waitFor(() => selectedText() === `"${BROKEN}"`, {
				message: () =>
					`the settings file open on the entry (active: ${vscode.window.activeTextEditor?.document.uri.toString()}, selected: ${selectedText()})`,
			});
			assert.equal(
				path.basename(vscode.window.activeTextEditor?.document.uri.path ?? ''),
				'settings.json',
				'the user settings.json',
			);
			await screenshot('show-configuration-settings');

			// Disable from the status bar's list, as a person who clicked the status bar does.
			const picking = vscode.commands.executeCommand('mcpSwitchboard.showServers');
			await waitForQuickInput('Pick a server for its actions');
			await answerQuickPick(BROKEN);
			await waitFor(async () => (await quickInputRows()).some((row) => row.label === 'Disable'), {
				message: 'the actions of the server',
			});
			const actions = (await quickInputRows()).map((row) => row.label);
			for (const action of ['Show Configuration', 'Disable', 'Remove…'])
				assert.ok(actions.includes(action), `the status bar's actions offer ${action}: ${actions.join(' | ')}`);
			await answerQuickPick('Disable');
			await picking;
			await waitFor(() => stateOf(api, BROKEN) === 'disabled', {
				timeoutMs: 15_000,
				message: () => `'${BROKEN}' disabled (it is ${stateOf(api, BROKEN)})`,
			});
			assert.equal(userServers()[BROKEN]?.disabled, true, '"disabled": true in the user settings file');
			const row = api.tree.getTreeItem({ kind: 'server', server: BROKEN });
			assert.match(String(row.description), /disabled/, 'the row reads disabled');
			const disabledMenu = await rowMenu(api, BROKEN);
			assert.ok(disabledMenu.includes('Enable Server'), `a disabled server offers Enable: ${disabledMenu.join(' | ')}`);
			await pressKey('Escape');

			// Remove: asked first; then the entry leaves the file and the server the tree.
			const removing = vscode.commands.executeCommand('mcpSwitchboard.removeServer', BROKEN);
			await waitForQuickInput('Remove the server?');
			await answerQuickPick('Remove');
			assert.equal(await removing, true);
			await waitFor(() => api.manager.get(BROKEN) === undefined, {
				timeoutMs: 15_000,
				message: `'${BROKEN}' gone from the tree`,
			});
			assert.equal(userServers()[BROKEN], undefined, 'the entry is gone from the user settings file');
		} finally {
			await quickInputClose();
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
			await config.update('servers', previous, vscode.ConfigurationTarget.Global);
		}
	},
	{ timeoutMs: 150_000 },
);

test(
	"a project .mcp.json server: its entry opens, Disable and Remove edit mcpServers and keep the file's comments",
	async () => {
		needDriver();
		const api = await extensionApi<SwitchboardApi>();
		const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
		const file = path.join(folder, '.mcp.json');
		const name = 'project-e2e';
		fs.writeFileSync(
			file,
			`{\n  // kept by Claude Code too\n  "mcpServers": {\n    "${name}": { "command": "node", "args": ["-e", "process.exit(1)"] },\n    "other-e2e": { "command": "node", "args": ["-e", "process.exit(1)"] }\n  }\n}\n`,
		);
		try {
			await waitFor(() => api.manager.get(name), { timeoutMs: 20_000, message: `'${name}' in the tree` });
			const editor = await vscode.commands.executeCommand<vscode.TextEditor | undefined>(
				'mcpSwitchboard.showConfiguration',
				name,
			);
			assert.equal(editor?.document.uri.fsPath, file);
			assert.equal(selectedText(), `"${name}"`);

			assert.equal(await vscode.commands.executeCommand('mcpSwitchboard.disableServer', name), true);
			await waitFor(() => stateOf(api, name) === 'disabled', {
				timeoutMs: 15_000,
				message: () => `'${name}' disabled (it is ${stateOf(api, name)})`,
			});
			let text = fs.readFileSync(file, 'utf8');
			assert.ok(text.includes('// kept by Claude Code too'), 'the comment stays');
			const servers = (parseJsonc(text).value as { mcpServers: Record<string, Record<string, unknown>> }).mcpServers;
			assert.equal(servers[name]?.disabled, true);
			assert.equal((parseJsonc(text).value as { servers?: unknown }).servers, undefined, 'no second servers object');

			assert.equal(await vscode.commands.executeCommand('mcpSwitchboard.enableServer', name), true);
			// Present and not disabled: a read of the file while it is being written may drop the server for a moment.
			await waitFor(() => stateOf(api, name) !== undefined && stateOf(api, name) !== 'disabled', {
				timeoutMs: 15_000,
				message: () => `'${name}' enabled (it is ${stateOf(api, name) ?? 'not in the tree'})`,
			});
			assert.ok(!fs.readFileSync(file, 'utf8').includes('disabled'), 'Enable removes the field');

			const removing = vscode.commands.executeCommand('mcpSwitchboard.removeServer', name);
			await waitForQuickInput('Remove the server?');
			await answerQuickPick('Remove');
			assert.equal(await removing, true);
			await waitFor(() => api.manager.get(name) === undefined, { timeoutMs: 15_000, message: `'${name}' removed` });
			text = fs.readFileSync(file, 'utf8');
			assert.ok(text.includes('// kept by Claude Code too'));
			assert.deepEqual(
				Object.keys((parseJsonc(text).value as { mcpServers: object }).mcpServers),
				['other-e2e'],
				'only that entry left the file',
			);
		} finally {
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
			fs.rmSync(file, { force: true });
			await waitFor(() => api.manager.get('other-e2e') === undefined, {
				timeoutMs: 15_000,
				message: "'other-e2e' gone",
			});
		}
	},
	{ timeoutMs: 90_000 },
);

test(
	'a refused URL reads "not reachable (connection refused)", its cause is whole in the row, and Show Protocol says it never connected',
	async () => {
		const api = await extensionApi<SwitchboardApi>();
		const name = 'refused-e2e';
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const previous = config.inspect<Record<string, unknown>>('servers')?.globalValue;
		const port = await freePort();
		try {
			await config.update(
				'servers',
				{ ...previous, [name]: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } },
				vscode.ConfigurationTarget.Global,
			);
			await waitFor(() => stateOf(api, name) === 'error', {
				timeoutMs: 30_000,
				message: () => `'${name}' failing (it is ${stateOf(api, name)})`,
			});
			const row = api.tree.getTreeItem({ kind: 'server', server: name });
			assert.match(String(row.description), /^not reachable \(connection refused/);
			assert.doesNotMatch(String(row.description), /crash loop/);
			const [message] = api.tree.getChildren({ kind: 'server', server: name });
			assert.ok(message?.kind === 'message');
			const item = api.tree.getTreeItem(message);
			assert.equal(item.label, `Connection refused at 127.0.0.1:${port}: is the server running?`);
			const tooltip = item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : String(item.tooltip);
			assert.ok(tooltip.includes(`127.0.0.1:${port}`), `the whole cause is in the row's tooltip: ${tooltip}`);
			assert.match(tooltip, /ECONNREFUSED/);
			if (hasDriver()) {
				await vscode.commands.executeCommand('workbench.view.extension.mcpSwitchboard');
				await api.treeView.reveal(message, { select: false, focus: false }).then(undefined, () => undefined);
				await screenshot('refused-url-row');
			}

			const tabsBefore = vscode.window.tabGroups.all.flatMap((g) => g.tabs).length;
			const panel = await vscode.commands.executeCommand('mcpSwitchboard.showProtocol', name);
			assert.equal(panel, undefined, 'no empty protocol view of a server that never connected');
			assert.equal(vscode.window.tabGroups.all.flatMap((g) => g.tabs).length, tabsBefore);
			assert.ok(!vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.label === `MCP Protocol: ${name}`));
		} finally {
			await config.update('servers', previous, vscode.ConfigurationTarget.Global);
		}
	},
	{ timeoutMs: 60_000 },
);

/** Whether the open quick input shows a Back button in its title bar. */
async function backButtonShown(): Promise<boolean> {
	return (await driver({
		action: 'evaluate',
		script: `(() => {
			const widget = [...document.querySelectorAll('.quick-input-widget')].find((w) => w.style.display !== 'none' && w.offsetParent !== null);
			const back = widget?.querySelector('.quick-input-titlebar .codicon-quick-input-back, .quick-input-titlebar [aria-label^="Back"]');
			return !!back && back.offsetParent !== null;
		})()`,
	})) as boolean;
}

test(
	'Add Server counts its four steps, goes Back keeping answers, suggests the package name and saves to .vscode/mcp.json',
	async () => {
		needDriver();
		const api = await extensionApi<SwitchboardApi>();
		const repo = process.env.MCP_SWITCHBOARD_E2E_REPO ?? '';
		const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
		const mcpJson = path.join(folder, '.vscode', 'mcp.json');
		const before = fs.existsSync(mcpJson) ? fs.readFileSync(mcpJson, 'utf8') : undefined;
		const everything = path.join(repo, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
		const filesystem = path.join(repo, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
		const adding = Promise.resolve(vscode.commands.executeCommand<string | undefined>('mcpSwitchboard.addServer'));
		try {
			await waitForQuickInput('Add MCP Server (1/4)');
			assert.equal(await backButtonShown(), false, 'no Back on the first step');
			await answerQuickPick('Command (stdio)');
			await waitForQuickInput('Add MCP Server (2/4)');
			assert.equal(await backButtonShown(), true, 'Back on the second step');
			await answerInputBox(`node ${everything}`);
			let shown = await waitForQuickInput('Add MCP Server (3/4)');
			assert.equal(shown.value, 'everything-2', "the package's name, numbered past the running 'everything'");
			assert.equal(await backButtonShown(), true, 'Back on the third step');

			await vscode.commands.executeCommand('workbench.action.quickInputBack');
			shown = await waitForQuickInput('Add MCP Server (2/4)');
			assert.equal(shown.value, `node ${everything}`, 'Back shows the command typed before');
			await answerInputBox(`node ${filesystem} ${folder}`);
			shown = await waitForQuickInput('Add MCP Server (3/4)');
			assert.equal(shown.value, 'filesystem', 'the suggestion follows the new command');
			await answerInputBox('filesystem');

			shown = await waitForQuickInput('Add MCP Server (4/4)');
			assert.equal(await backButtonShown(), true, 'Back on the last step');
			for (const target of ['User settings', 'Workspace settings', '.vscode/mcp.json'])
				assert.ok(shown.rows.includes(target), `offers ${target}: ${shown.rows.join(' | ')}`);
			await screenshot('add-server-save-in');
			await answerQuickPick('.vscode/mcp.json');
			assert.equal(await adding, 'filesystem');
			const saved = parseJsonc(fs.readFileSync(mcpJson, 'utf8')).value as {
				servers: Record<string, { command?: string; args?: string[] }>;
			};
			assert.equal(saved.servers.filesystem?.command, 'node');
			assert.deepEqual(saved.servers.filesystem?.args, [filesystem, folder]);
			const view = await waitFor(() => api.manager.get('filesystem'), {
				timeoutMs: 20_000,
				message: 'the added server in the tree',
			});
			assert.equal(view.source.kind, 'mcpJson');
		} finally {
			await quickInputClose();
			if (before === undefined) fs.rmSync(mcpJson, { force: true });
			else fs.writeFileSync(mcpJson, before);
			await waitFor(() => api.manager.get('filesystem') === undefined, {
				timeoutMs: 20_000,
				message: "'filesystem' gone",
			});
		}
	},
	{ timeoutMs: 120_000 },
);
