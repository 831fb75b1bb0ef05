// The gateway in the real VS Code: VS Code asks the extension's McpServerDefinitionProvider for its servers, lists
// "MCP Switchboard", starts it (VS Code's own MCP client connects to the gateway with the token from the
// definition), and the Switchboard servers' tools appear among VS Code's language model tools, where invoking one
// runs it on the server behind the gateway. The setting turns it off.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import { GATEWAY_ENABLED_SETTING, GATEWAY_LABEL } from '../../../src/vscode/gateway/gatewayProvider';
import { serverWithTool } from './elicitationSupport';
import { extensionApi, hasDriver, quickInputClose, quickInputRows, screenshot, test, waitFor } from './harness';

/** VS Code's name for the gateway's echo tool: it prefixes MCP tools with the server's label. */
function gatewayEcho(): vscode.LanguageModelToolInformation | undefined {
	return vscode.lm.tools.find((tool) => tool.name.endsWith('mcp__everything__echo'));
}

test(
	'VS Code lists MCP Switchboard from the provider, starts it, and its tools run through the gateway',
	async () => {
		await serverWithTool('everything', 'echo');
		const api = await extensionApi<SwitchboardApi>();
		const gateway = await waitFor(() => api.gateway.current(), { timeoutMs: 20_000, message: 'VS Code to ask the provider (the gateway starts then)' });
		assert.match(gateway.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);

		if (hasDriver()) {
			// VS Code's own list of MCP servers (MCP: List Servers) shows the provider's server.
			void vscode.commands.executeCommand('workbench.mcp.listServer');
			const rows = await waitFor(async () => {
				const found = await quickInputRows();
				return found.some((row) => row.label.includes(GATEWAY_LABEL)) && found;
			}, { timeoutMs: 15_000, message: `"${GATEWAY_LABEL}" in MCP: List Servers` });
			assert.ok(rows.some((row) => row.label.includes(GATEWAY_LABEL)));
			await screenshot('gateway-list-servers');
			await quickInputClose();
		}

		// Start every MCP server VS Code knows (ours is the only one) and wait until their tools are live.
		await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
		const echo = await waitFor(() => gatewayEcho(), { timeoutMs: 30_000, message: `the gateway's echo among vscode.lm.tools (have: ${vscode.lm.tools.map((t) => t.name).join(', ')})` });
		assert.ok(gateway.sessionCount > 0, 'VS Code opened a session on the gateway');
		// Exactly the enabled tools of running servers: as many as the Manager has.
		const offered = vscode.lm.tools.filter((tool) => /mcp__\w+__/.test(tool.name));
		assert.equal(offered.length, api.manager.allTools().length, offered.map((t) => t.name).join(', '));

		const result = await vscode.lm.invokeTool(echo.name, { input: { message: 'from VS Code' }, toolInvocationToken: undefined });
		const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
		assert.equal(text, 'Echo: from VS Code');
	},
	{ timeoutMs: 90_000 },
);

test(
	'turning the setting off stops the gateway and VS Code drops the server; on again brings it back',
	async () => {
		const api = await extensionApi<SwitchboardApi>();
		const config = vscode.workspace.getConfiguration();
		try {
			await config.update(GATEWAY_ENABLED_SETTING, false, vscode.ConfigurationTarget.Global);
			await waitFor(async () => (await api.gateway.current()) === undefined, { timeoutMs: 10_000, message: 'the gateway to stop' });
			await waitFor(() => gatewayEcho() === undefined, { timeoutMs: 20_000, message: 'VS Code to drop the gateway\'s tools' });
		} finally {
			await config.update(GATEWAY_ENABLED_SETTING, undefined, vscode.ConfigurationTarget.Global);
		}
		await waitFor(() => api.gateway.current(), { timeoutMs: 20_000, message: 'the gateway to start again' });
		await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
		await waitFor(() => gatewayEcho(), { timeoutMs: 30_000, message: 'the tools to come back' });
	},
	{ timeoutMs: 90_000 },
);

test(
	'a tool switched off in the tree (workspace setting) leaves @mcp, the gateway and VS Code\'s tools; profiles switch whole lists',
	async () => {
		const api = await extensionApi<SwitchboardApi>();
		const { enablement, tree, manager } = api;
		await serverWithTool('everything', 'echo');
		const echoNamed = manager.findTool('mcp__everything__echo');
		assert.ok(echoNamed);
		const checkbox = (node: Parameters<typeof tree.getTreeItem>[0]) => {
			const state = tree.getTreeItem(node).checkboxState;
			return typeof state === 'object' ? state.state : state;
		};
		const toolNode = { kind: 'tool' as const, server: 'everything', tool: echoNamed };
		assert.equal(checkbox(toolNode), vscode.TreeItemCheckboxState.Checked, 'the tool row shows a checked checkbox');
		await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
		await waitFor(() => gatewayEcho(), { timeoutMs: 30_000, message: 'the gateway\'s echo among VS Code\'s tools' });
		try {
			await enablement.setEnabled([{ server: 'everything', tool: 'echo' }], false);
			assert.deepEqual(vscode.workspace.getConfiguration().get('mcpSwitchboard.tools.disabled'), { everything: ['echo'] }, 'saved in the workspace settings');
			assert.equal(vscode.workspace.getConfiguration().inspect('mcpSwitchboard.tools.disabled')?.workspaceValue !== undefined, true);
			assert.equal(checkbox(toolNode), vscode.TreeItemCheckboxState.Unchecked);
			assert.equal(checkbox({ kind: 'server', server: 'everything' } as Parameters<typeof tree.getTreeItem>[0]), vscode.TreeItemCheckboxState.Unchecked, 'the server row shows that not all are on');
			assert.equal(api.gateway.catalog.findTool('mcp__everything__echo'), undefined, 'the gateway no longer offers it');
			// VS Code's agent sees exactly the enabled tools: list_changed reached VS Code, which dropped echo.
			await waitFor(() => gatewayEcho() === undefined, { timeoutMs: 20_000, message: 'VS Code to drop the switched-off tool' });
			const offered = vscode.lm.tools.filter((tool) => /mcp__\w+__/.test(tool.name));
			assert.equal(offered.length, manager.allTools().length - 1);

			// Profiles: save this list as "review", switch it back on there; the workspace list still has it off.
			await enablement.saveAs('review');
			assert.equal(enablement.activeProfile(), 'review');
			await enablement.setEnabled([{ server: 'everything', tool: 'echo' }], true);
			assert.ok(enablement.isEnabled(echoNamed), 'on in the review profile');
			await waitFor(() => gatewayEcho(), { timeoutMs: 20_000, message: 'VS Code to get echo back with the profile' });
			await enablement.switchTo(undefined);
			await waitFor(() => !enablement.isEnabled(echoNamed), { timeoutMs: 5_000, message: 'the workspace list (echo off) to be active again' });
			await enablement.switchTo('review');
			await waitFor(() => enablement.isEnabled(echoNamed), { timeoutMs: 5_000, message: 'the review profile (echo on)' });
		} finally {
			const config = vscode.workspace.getConfiguration();
			for (const key of ['mcpSwitchboard.tools.disabled', 'mcpSwitchboard.tools.profiles', 'mcpSwitchboard.tools.activeProfile']) await config.update(key, undefined, vscode.ConfigurationTarget.Workspace);
		}
		await waitFor(() => enablement.isEnabled(echoNamed), { timeoutMs: 5_000, message: 'every tool on again' });
	},
	{ timeoutMs: 90_000 },
);
