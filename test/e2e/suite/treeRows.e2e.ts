// What the Servers view's rows say, as a user trying the extension reads them: a crashed server's reason in one line
// (the whole message in the tooltip, its log one click away), a server waiting for trust in a short row with the
// explanation in the tooltip, a finished task saying completed with its duration, and resource tabs titled by the
// resource's name and server instead of the last segment of its URI.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import type { TreeNode } from '../../../src/vscode/shared/treeNodes';
import { setTrustPromptForTests } from '../../../src/vscode/trust/trust';
import { driver, extensionApi, hasDriver, test, waitFor } from './harness';

/** Adds `servers` to the user settings (no trust question) for the test's body, and removes them after. */
async function withUserServers<T>(
	servers: Record<string, unknown>,
	body: (a: SwitchboardApi) => Promise<T>,
): Promise<T> {
	const a = await extensionApi<SwitchboardApi>();
	const config = vscode.workspace.getConfiguration('mcpSwitchboard');
	const previous = config.inspect<Record<string, unknown>>('servers')?.globalValue;
	await config.update('servers', { ...(previous ?? {}), ...servers }, vscode.ConfigurationTarget.Global);
	try {
		return await body(a);
	} finally {
		await config.update('servers', previous, vscode.ConfigurationTarget.Global);
		await waitFor(() => Object.keys(servers).every((name) => a.manager.get(name) === undefined), {
			timeoutMs: 15_000,
			message: 'the test servers removed again',
		});
	}
}

function label(item: vscode.TreeItem): string {
	return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
}

/** The text of a Markdown or plain tooltip. */
function tooltipText(item: vscode.TreeItem): string {
	return typeof item.tooltip === 'string' ? item.tooltip : (item.tooltip?.value ?? '');
}

/**
 * Reveals `node` in the Servers view (retried: reveal fails until the view has rendered). Waits that look for the row
 * call it on each look: a reveal that lands while the view repaints can leave the list where it was (a CI run at load
 * waited 20 s after a single reveal).
 */
async function reveal(a: SwitchboardApi, node: TreeNode): Promise<void> {
	await vscode.commands.executeCommand('workbench.view.extension.mcpSwitchboard');
	await waitFor(
		async () => {
			await a.treeView.reveal(node, { expand: true, select: false, focus: false });
			return true;
		},
		{ timeoutMs: 20_000, message: 'the row revealed' },
	);
}

/**
 * In the page: the text of the Servers view's row that contains `text`, and whether that row carries an action
 * labelled `action` (inline actions are in the row's DOM, shown on hover); with `click`, clicks that action.
 */
function rowScript(text: string, action: string, click: boolean): string {
	return `(() => {
		const row = [...document.querySelectorAll('.pane-body .monaco-list-row')].find((r) => r.innerText.includes(${JSON.stringify(text)}));
		if (!row) return null;
		const button = [...row.querySelectorAll('.action-label')].find((b) => (b.getAttribute('aria-label') ?? b.title ?? '').startsWith(${JSON.stringify(action)}));
		if (button && ${click}) button.click();
		return { text: row.innerText, action: Boolean(button) };
	})()`;
}

test(
	"a crashed server's error row reads as the reason from its stderr, the whole message is the tooltip, and Show Log is on the row",
	async () => {
		const name = 'crash-e2e';
		await withUserServers(
			{ [name]: { type: 'stdio', command: 'node', args: ['-e', "require('mcp-switchboard-missing-module')"] } },
			async (a) => {
				const state = await waitFor(
					() => {
						const s = a.manager.get(name)?.state;
						return s?.kind === 'error' && s.message.includes('Last stderr lines') ? s : undefined;
					},
					{
						timeoutMs: 30_000,
						message: `'${name}' in error after its crash (state: ${a.manager.get(name)?.state.kind ?? 'absent'})`,
					},
				);
				assert.match(state.message, /exited with code 1/);
				const [row] = a.tree.getChildren(a.tree.serverNode(name));
				assert.ok(row && row.kind === 'message');
				const item = a.tree.getTreeItem(row);
				// The reason, not the first line of the message ("Server "crash-e2e" exited with code 1. Last stderr lines:").
				assert.match(label(item), /^Cannot find module 'mcp-switchboard-missing-module' — exited with code 1/);
				assert.ok(!label(item).includes('Last stderr lines'), label(item));
				assert.match(
					tooltipText(item),
					/Last stderr lines:[\s\S]*Require stack/,
					'the tooltip holds the whole message with its stderr',
				);
				assert.equal(item.command?.command, 'mcpSwitchboard.showServerLog', 'a click opens the log');
				assert.equal(item.contextValue, 'mcpMessage.error');
				if (!hasDriver()) return;
				// In the workbench: the row shows the reason and carries the inline Show Server Log, which opens the log.
				const shown = await waitFor(
					async () => {
						await reveal(a, row);
						return (await driver({
							action: 'evaluate',
							script: rowScript("Cannot find module 'mcp-switchboard-missing-module'", 'Show Server Log', false),
						})) as { text: string; action: boolean } | null;
					},
					{ timeoutMs: 20_000, intervalMs: 500, message: 'the error row on screen' },
				);
				assert.ok(shown.action, `the row offers Show Server Log inline (row: ${shown.text})`);
				await driver({
					action: 'evaluate',
					script: rowScript("Cannot find module 'mcp-switchboard-missing-module'", 'Show Server Log', true),
				});
				// The Output view's channel picker shows the channel it displays.
				const channel = `[...document.querySelectorAll('.part.panel select')].map((s) => s.options[s.selectedIndex]?.text ?? '')`;
				await waitFor(
					async () => ((await driver({ action: 'evaluate', script: channel })) as string[]).includes(`MCP: ${name}`),
					{
						timeoutMs: 20_000,
						message: `the Output view showing the channel "MCP: ${name}"`,
					},
				);
				await vscode.commands.executeCommand('workbench.action.closePanel');
			},
		);
	},
	{ timeoutMs: 90_000 },
);

test(
	'a workspace server waiting for trust has a short row ("Needs trust"), the explanation in its tooltip, and an inline Start that asks',
	async () => {
		const name = 'trust-e2e';
		const a = await extensionApi<SwitchboardApi>();
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const previous = config.inspect<Record<string, unknown>>('servers')?.workspaceValue;
		const asked: string[] = [];
		setTrustPromptForTests(async (server) => {
			asked.push(server);
			return false;
		});
		// Workspace settings: a server the workspace defines, which nobody has allowed yet.
		await config.update(
			'servers',
			{
				...(previous ?? {}),
				[name]: { type: 'stdio', command: 'node', args: ['-e', 'setInterval(() => {}, 1000)', 'trust-e2e'] },
			},
			vscode.ConfigurationTarget.Workspace,
		);
		try {
			await waitFor(() => a.manager.get(name)?.state.kind === 'needsTrust', {
				timeoutMs: 20_000,
				message: `'${name}' waiting for trust (state: ${a.manager.get(name)?.state.kind ?? 'absent'})`,
			});
			const rowOf = () => {
				const [node] = a.tree.getChildren(a.tree.serverNode(name));
				assert.ok(node && node.kind === 'message');
				return { node, item: a.tree.getTreeItem(node) };
			};
			const { node, item } = rowOf();
			assert.equal(label(item), 'Needs trust');
			assert.equal(item.description, 'Start to review what it runs');
			assert.match(
				tooltipText(item),
				/is defined by the workspace .* and needs your permission to run/,
				'the explanation is the tooltip',
			);
			assert.equal(item.command?.command, 'mcpSwitchboard.startServer');
			assert.equal(item.contextValue, 'mcpMessage.needsTrust');
			assert.deepEqual(asked, [], 'nothing asked by itself');
			if (hasDriver()) {
				const shown = await waitFor(
					async () => {
						await reveal(a, node);
						return (await driver({ action: 'evaluate', script: rowScript('Needs trust', 'Start Server', false) })) as {
							text: string;
							action: boolean;
						} | null;
					},
					{ timeoutMs: 20_000, intervalMs: 500, message: 'the Needs trust row on screen' },
				);
				assert.match(shown.text, /Needs trust\s*Start to review what it runs/);
				assert.ok(shown.action, `the row offers Start inline (row: ${shown.text})`);
				// The inline Start is the user asking: the question comes, and refused, the row says so.
				await driver({ action: 'evaluate', script: rowScript('Needs trust', 'Start Server', true) });
			} else {
				await vscode.commands.executeCommand(item.command.command, ...((item.command.arguments ?? []) as unknown[]));
			}
			await waitFor(() => (asked as string[]).includes(name), {
				timeoutMs: 20_000,
				message: 'Start to ask whether to allow the server',
			});
			await waitFor(() => label(rowOf().item) === 'Not allowed to run', {
				timeoutMs: 20_000,
				message: `the row to say it was not allowed (it says "${label(rowOf().item)}")`,
			});
			assert.equal(rowOf().item.description, 'Start to be asked again');
			assert.match(tooltipText(rowOf().item), /was not allowed to run/);
		} finally {
			setTrustPromptForTests(undefined);
			await config.update('servers', previous, vscode.ConfigurationTarget.Workspace);
			await waitFor(() => a.manager.get(name) === undefined, { timeoutMs: 15_000, message: `'${name}' removed again` });
		}
	},
	{ timeoutMs: 90_000 },
);

test(
	'a resource opened from the tree gets a tab titled with its name and server, not the last segment of its URI',
	async () => {
		const a = await extensionApi<SwitchboardApi>();
		const server = 'everything';
		if (a.manager.get(server)?.state.kind === 'needsTrust')
			await vscode.commands.executeCommand('mcpSwitchboard.startServer', server);
		const resource = await waitFor(
			() => a.manager.get(server)?.resources.find((r) => r.mimeType?.startsWith('text/')),
			{
				timeoutMs: 60_000,
				message: `'${server}' running with a text resource (state: ${a.manager.get(server)?.state.kind ?? 'absent'})`,
			},
		);
		const title = resource.title ?? resource.name;
		const node: TreeNode = { kind: 'resource', server, resource };
		// The row's own command, as a click runs it.
		const command = a.tree.getTreeItem(node).command;
		assert.equal(command?.command, 'mcpSwitchboard.readResource');
		const uri = await vscode.commands.executeCommand<vscode.Uri | undefined>(
			command.command,
			...((command.arguments ?? []) as unknown[]),
		);
		assert.ok(uri);
		try {
			const tab = await waitFor(
				() =>
					vscode.window.tabGroups.all
						.flatMap((group) => group.tabs)
						.find((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString()),
				{
					timeoutMs: 20_000,
					message: "the resource's tab",
				},
			);
			assert.equal(tab.label, `${title} · ${server}`);
			if (hasDriver()) {
				const tabs = `[...document.querySelectorAll('.tabs-container .tab')].map((t) => t.getAttribute('aria-label') ?? t.textContent ?? '')`;
				await waitFor(
					async () =>
						((await driver({ action: 'evaluate', script: tabs })) as string[]).some((t) =>
							t.includes(`${title} · ${server}`),
						),
					{
						timeoutMs: 20_000,
						message: `a tab reading "${title} · ${server}" on screen`,
					},
				);
			}
		} finally {
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		}
	},
	{ timeoutMs: 90_000 },
);
