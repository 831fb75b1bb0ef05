// The gateway in the real VS Code: VS Code asks the extension's McpServerDefinitionProvider for its servers and
// gets one definition per Switchboard server, labelled with the user's name for it, lists them, starts them (VS
// Code's own MCP client connects to each server's endpoint on the gateway with the token from the definition), and
// each server's tools appear among VS Code's language model tools grouped under that server (what *Configure Tools*
// shows) and named `mcp_<server>_<tool>` uncut, where invoking one runs it on the server behind the gateway. The
// setting turns it off, and a tool's checkbox in the Servers view takes that tool out of @mcp, the gateway's
// tools/list and VS Code's tools.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import { GATEWAY_ENABLED_SETTING } from '../../../src/vscode/gateway/gatewayProvider';
import { handleChatRequest } from '../../../src/vscode/chat/chatParticipant';
import { instructionsOf } from '../../../src/manager/context/instructions';
import { needDriver, serverWithTool } from './elicitationSupport';
import { driver, extensionApi, hasDriver, quickInputClose, quickInputRows, screenshot, test, waitFor } from './harness';

/**
 * VS Code's name for the echo tool of the Switchboard server 'everything': `mcp_` + the server's announced title (the
 * user's name for it, lower-cased, at most 13 characters) + `_` + the tool's own name.
 */
const ECHO = 'mcp_everything_echo';

function gatewayEcho(): vscode.LanguageModelToolInformation | undefined {
	return vscode.lm.tools.find((tool) => tool.name === ECHO);
}

/**
 * The group VS Code files an MCP tool under (1.139): `fullReferenceName` is `<definition label, lower-cased, blanks as
 * dashes>/<tool>`, the tool set *Configure Tools* shows. It is on the tool objects of `vscode.lm.tools` at run time,
 * not yet in @types/vscode 1.138.
 */
function groupOf(tool: vscode.LanguageModelToolInformation): string | undefined {
	return (tool as { fullReferenceName?: string }).fullReferenceName?.split('/')[0];
}

/** The MCP tools VS Code's agent has from Switchboard's servers: tagged `mcp`, in the group of one of them. */
function switchboardTools(api: SwitchboardApi): vscode.LanguageModelToolInformation[] {
	const groups = new Set(api.gateway.catalog.servers().map((server) => server.toLowerCase().replace(/\s+/g, '-')));
	return vscode.lm.tools.filter((tool) => tool.tags.includes('mcp') && groups.has(groupOf(tool) ?? ''));
}

test(
	'VS Code lists each Switchboard server from the provider, starts it, files its tools under it with names uncut, and they run through the gateway',
	async () => {
		await serverWithTool('everything', 'echo');
		const api = await extensionApi<SwitchboardApi>();
		const gateway = await waitFor(() => api.gateway.current(), {
			timeoutMs: 20_000,
			message: 'VS Code to ask the provider (the gateway starts then)',
		});
		assert.match(gateway.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
		assert.ok(api.gateway.catalog.servers().includes('everything'));

		if (hasDriver()) {
			// VS Code's own list of MCP servers (MCP: List Servers) shows the server under the user's name for it.
			void vscode.commands.executeCommand('workbench.mcp.listServer');
			const rows = await waitFor(
				async () => {
					const found = await quickInputRows();
					return found.some((row) => row.label.includes('everything')) && found;
				},
				{ timeoutMs: 15_000, message: '"everything" in MCP: List Servers' },
			);
			assert.ok(!rows.some((row) => row.label.includes('MCP Switchboard')), 'no server lumping them all together');
			await screenshot('gateway-list-servers');
			await quickInputClose();
		}

		// Start every MCP server VS Code knows (Switchboard's, one per server) and wait until their tools are live.
		await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
		const echo = await waitFor(() => gatewayEcho(), {
			timeoutMs: 30_000,
			message: `${ECHO} among vscode.lm.tools (have: ${vscode.lm.tools.map((t) => t.name).join(', ')})`,
		});
		assert.ok(gateway.sessionCount > 0, 'VS Code opened a session on the gateway');
		// Exactly the enabled tools of running servers: as many as the Manager has, and none under the old shape.
		const offered = switchboardTools(api);
		assert.equal(offered.length, api.manager.allTools().length, offered.map((t) => t.name).join(', '));
		assert.deepEqual(
			vscode.lm.tools.filter((tool) => tool.name.includes('mcp__')).map((tool) => tool.name),
			[],
		);
		// What *Configure Tools* shows and the agent reads: every tool of 'everything' once, in the group
		// 'everything', named mcp_everything_<its own name> — under 64 characters and never cut, the longest included.
		const own = api.manager.get('everything')!.tools.map((named) => named.tool.name);
		assert.ok(own.includes('trigger-long-running-operation'), own.join(', '));
		for (const tool of own) {
			const seen = vscode.lm.tools.filter((info) => info.name === `mcp_everything_${tool.replaceAll('.', '_')}`);
			assert.equal(seen.length, 1, `${tool}: ${seen.map((info) => info.name).join(', ')}`);
			assert.equal((seen[0] as { fullReferenceName?: string }).fullReferenceName, `everything/${tool}`);
			assert.ok(seen[0]!.tags.includes('mcp'));
		}
		assert.ok(vscode.lm.tools.some((info) => info.name === 'mcp_everything_trigger-long-running-operation'));
		const byGroup = new Map<string, number>();
		for (const tool of offered) byGroup.set(groupOf(tool)!, (byGroup.get(groupOf(tool)!) ?? 0) + 1);
		assert.equal(byGroup.get('everything'), own.length, 'one group per server, holding exactly its tools');
		assert.deepEqual(
			offered.filter((tool) => tool.name.length > 64).map((tool) => tool.name),
			[],
		);
		// A description as the server wrote it, on one line (no "⏎" glyphs in Configure Tools).
		const ownEcho = api.manager.get('everything')!.tools.find((named) => named.tool.name === 'echo')!.tool;
		assert.equal(echo.description, ownEcho.description?.trim().replace(/\s*\n\s*/g, ' '));

		const result = await vscode.lm.invokeTool(echo.name, {
			input: { message: 'from VS Code' },
			toolInvocationToken: undefined,
		});
		const text = result.content
			.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : ''))
			.join('');
		assert.equal(text, 'Echo: from VS Code');
	},
	{ timeoutMs: 90_000 },
);

test(
	"a server's endpoint's initialize carries that server's own instructions",
	async () => {
		await serverWithTool('everything', 'echo');
		const api = await extensionApi<SwitchboardApi>();
		const gateway = await waitFor(() => api.gateway.current(), { timeoutMs: 20_000, message: 'the gateway' });
		// The initialize a client sends (VS Code's own client sends the same request), with the definition's token.
		const response = await fetch(gateway.urlFor('everything'), {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				accept: 'application/json, text/event-stream',
				authorization: `Bearer ${gateway.token}`,
			},
			body: JSON.stringify({
				jsonrpc: '2.0',
				id: 1,
				method: 'initialize',
				params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } },
			}),
		});
		const answer = (await response.json()) as { result?: { instructions?: string } };
		const instructions = answer.result?.instructions ?? '';
		// The server's own text, no heading (the endpoint is that server to VS Code), whole within the default bound.
		assert.match(instructions, /^# Everything Server – Server Instructions/);
		assert.equal(instructions, instructionsOf(api.manager.get('everything')!));
	},
	{ timeoutMs: 60_000 },
);

test(
	'turning the setting off stops the gateway and VS Code drops the server; on again brings it back',
	async () => {
		const api = await extensionApi<SwitchboardApi>();
		const config = vscode.workspace.getConfiguration();
		try {
			await config.update(GATEWAY_ENABLED_SETTING, false, vscode.ConfigurationTarget.Global);
			await waitFor(async () => (await api.gateway.current()) === undefined, {
				timeoutMs: 10_000,
				message: 'the gateway to stop',
			});
			await waitFor(() => gatewayEcho() === undefined, {
				timeoutMs: 20_000,
				message: "VS Code to drop the gateway's tools",
			});
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
	"a tool switched off in the tree (workspace setting) leaves @mcp, the gateway and VS Code's tools; profiles switch whole lists",
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
		await waitFor(() => gatewayEcho(), { timeoutMs: 30_000, message: "the gateway's echo among VS Code's tools" });
		try {
			await enablement.setEnabled([{ server: 'everything', tool: 'echo' }], false);
			assert.deepEqual(
				vscode.workspace.getConfiguration().get('mcpSwitchboard.tools.disabled'),
				{ everything: ['echo'] },
				'saved in the workspace settings',
			);
			assert.equal(
				vscode.workspace.getConfiguration().inspect('mcpSwitchboard.tools.disabled')?.workspaceValue !== undefined,
				true,
			);
			assert.equal(checkbox(toolNode), vscode.TreeItemCheckboxState.Unchecked);
			// The server row (no checkbox since #34 point 7) and its Tools row say that one is off.
			assert.match(
				String(tree.getTreeItem({ kind: 'server', server: 'everything' }).description),
				/ · 1 off · /,
				'the server row shows that not all are on',
			);
			assert.match(String(tree.getTreeItem(tree.groupNode('everything', 'tools')).description), / · 1 off$/);
			assert.equal(api.gateway.catalog.findTool('mcp__everything__echo'), undefined, 'the gateway no longer offers it');
			// VS Code's agent sees exactly the enabled tools: list_changed reached VS Code, which dropped echo.
			await waitFor(() => gatewayEcho() === undefined, {
				timeoutMs: 20_000,
				message: 'VS Code to drop the switched-off tool',
			});
			assert.equal(switchboardTools(api).length, manager.allTools().length - 1);

			// Profiles: save this list as "review", switch it back on there; the workspace list still has it off.
			await enablement.saveAs('review');
			assert.equal(enablement.activeProfile(), 'review');
			await enablement.setEnabled([{ server: 'everything', tool: 'echo' }], true);
			assert.ok(enablement.isEnabled(echoNamed), 'on in the review profile');
			await waitFor(() => gatewayEcho(), { timeoutMs: 20_000, message: 'VS Code to get echo back with the profile' });
			await enablement.switchTo(undefined);
			await waitFor(() => !enablement.isEnabled(echoNamed), {
				timeoutMs: 15_000,
				message: 'the workspace list (echo off) to be active again',
			});
			await enablement.switchTo('review');
			await waitFor(() => enablement.isEnabled(echoNamed), {
				timeoutMs: 15_000,
				message: 'the review profile (echo on)',
			});
		} finally {
			const config = vscode.workspace.getConfiguration();
			for (const key of [
				'mcpSwitchboard.tools.disabled',
				'mcpSwitchboard.tools.profiles',
				'mcpSwitchboard.tools.activeProfile',
			])
				await config.update(key, undefined, vscode.ConfigurationTarget.Workspace);
		}
		await waitFor(() => enablement.isEnabled(echoNamed), { timeoutMs: 15_000, message: 'every tool on again' });
	},
	{ timeoutMs: 90_000 },
);

test(
	"a click on a tool's checkbox in the Servers view switches it off for @mcp and the gateway's tools/list; a second click brings it back",
	async () => {
		needDriver();
		const api = await extensionApi<SwitchboardApi>();
		const { enablement, tree, treeView, manager } = api;
		await serverWithTool('everything', 'echo');
		await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
		await waitFor(() => gatewayEcho(), { timeoutMs: 30_000, message: "the gateway's echo among VS Code's tools" });
		const echoNode = tree
			.getChildren(tree.groupNode('everything', 'tools'))
			.find((node) => node.kind === 'tool' && node.tool.tool.name === 'echo');
		assert.ok(echoNode);
		const echo = manager.findTool('mcp__everything__echo');
		assert.ok(echo && enablement.isEnabled(echo), 'echo starts switched on');
		// What a person clicks: the checkbox VS Code draws on the echo row.
		const label = tree.getTreeItem(echoNode).label;
		const rowLabel = typeof label === 'string' ? label : label?.label;
		assert.ok(rowLabel, 'the echo row has a label');
		// The row is found by its label as drawn; its checkbox gets a marker so Playwright can click it like a person.
		// The marker stays on the element until the tree draws the row anew, which makes a new element (unmarked): a
		// new token then says the checkbox moved or was replaced since the last look.
		const marked = '[data-e2e-target="echo-checkbox"]';
		const lookAtCheckbox = `(() => {
			const row = [...document.querySelectorAll('.pane-body .monaco-list-row')].find((r) => (r.querySelector('.label-name')?.textContent ?? '').trim() === ${JSON.stringify(rowLabel)});
			const box = row?.querySelector('.custom-view-tree-node-item-checkbox');
			if (!box) return row ? 'row without checkbox: ' + row.innerHTML.slice(0, 300) : 'no row';
			if (!box.hasAttribute('data-e2e-target')) {
				for (const old of document.querySelectorAll('${marked}')) old.removeAttribute('data-e2e-target');
				box.setAttribute('data-e2e-target', 'echo-checkbox');
				box.setAttribute('data-e2e-token', String((globalThis.__e2eTokens = (globalThis.__e2eTokens ?? 0) + 1)));
			}
			const r = box.getBoundingClientRect();
			return { token: box.getAttribute('data-e2e-token'), box: [r.x, r.y, r.width, r.height].map(Math.round).join(','), checked: box.getAttribute('aria-checked') === 'true' };
		})()`;
		type Look = { token: string; box: string; checked: boolean };
		const look = async (): Promise<Look | string> =>
			(await driver({ action: 'evaluate', script: lookAtCheckbox })) as Look | string;
		// Checkbox events the extension host received for the echo row: proof that a click landed, whatever the
		// settings write that follows takes on a loaded machine.
		let echoEvents = 0;
		const watching = treeView.onDidChangeCheckboxState((event) => {
			if (
				event.items.some(
					([node]) => node.kind === 'tool' && node.server === 'everything' && node.tool.tool.name === 'echo',
				)
			)
				echoEvents++;
		});
		/**
		 * Waits until the echo row's checkbox is on screen and at rest (the same element in the same place over three
		 * looks, showing what the extension holds), as a person waits for a list to stop moving before clicking in it:
		 * a click on a row the tree redraws between mouse down and mouse up is no click.
		 */
		const atRest = async (): Promise<Look> => {
			await vscode.commands.executeCommand('workbench.view.extension.mcpSwitchboard');
			let seen = '';
			let previous: Look | undefined;
			let steady = 0;
			return waitFor(
				async () => {
					const now = await look();
					if (typeof now === 'string') {
						// Not on screen (yet): bring it there. Only then, since a reveal may draw the row anew.
						seen = now;
						steady = 0;
						await treeView
							.reveal(echoNode, { expand: true, select: false, focus: false })
							.then(undefined, (error: Error) => (seen = `${now}; reveal: ${error.message}`));
						return undefined;
					}
					const same = previous !== undefined && previous.token === now.token && previous.box === now.box;
					previous = now;
					steady = same && now.checked === enablement.isEnabled(echo) ? steady + 1 : 0;
					seen = `checkbox ${JSON.stringify(now)}, the extension has echo ${enablement.isEnabled(echo) ? 'on' : 'off'}`;
					return steady >= 2 ? now : undefined;
				},
				{
					timeoutMs: 30_000,
					intervalMs: 300,
					message: () => `the echo row's checkbox on screen and at rest (${seen})`,
				},
			);
		};
		/**
		 * Clicks the checkbox's centre to switch echo `on` (true) or off, as a person would, and waits for the
		 * extension to have it so. A click that did not take (no checkbox event reached the extension, the extension and
		 * the checkbox still show the old state) is tried once more on the checkbox found anew; one that did take is
		 * only waited for, so the tool is never switched twice.
		 */
		const clickCheckbox = async (on: boolean, what: string): Promise<void> => {
			const before = echoEvents;
			await atRest();
			await driver({ action: 'click', selector: marked });
			const took = () => enablement.isEnabled(echo) === on;
			const tookOrLanded = await waitFor(() => took() || echoEvents > before, { timeoutMs: 5_000, message: '' }).then(
				() => true,
				() => false,
			);
			if (!tookOrLanded) {
				const now = await atRest();
				if (!took() && echoEvents === before && now.checked !== on) {
					console.log(
						`e2e: the click on echo's checkbox did not reach the extension (checkbox ${JSON.stringify(now)}); clicking it again`,
					);
					await driver({ action: 'click', selector: marked });
				}
			}
			await waitFor(took, { timeoutMs: 20_000, message: `${what} (checkbox events for echo: ${echoEvents - before})` });
		};
		try {
			await clickCheckbox(false, 'the click to switch echo off');
			await screenshot('tool-checkbox-off');
			assert.deepEqual(
				vscode.workspace.getConfiguration().inspect('mcpSwitchboard.tools.disabled')?.workspaceValue,
				{ everything: ['echo'] },
				'saved in the workspace settings',
			);
			// The gateway's tools/list, as an MCP client reads it, no longer has echo.
			assert.equal(api.gateway.catalog.findTool('mcp__everything__echo'), undefined);
			const listed = await gatewayToolNames(api);
			assert.ok(!listed.includes('echo') && listed.includes('get-tiny-image'), listed.join(', '));
			await waitFor(() => gatewayEcho() === undefined, {
				timeoutMs: 20_000,
				message: "VS Code's agent to drop echo (list_changed)",
			});
			// @mcp offers the model every enabled tool but echo.
			const offered = await mcpOfferedTools(api);
			assert.ok(
				!offered.includes('mcp__everything__echo') && offered.includes('mcp__everything__get-tiny-image'),
				offered.join(', '),
			);

			await clickCheckbox(true, 'the second click to switch echo on');
			assert.ok((await gatewayToolNames(api)).includes('echo'));
			assert.ok((await mcpOfferedTools(api)).includes('mcp__everything__echo'));
			await waitFor(() => gatewayEcho(), { timeoutMs: 20_000, message: "VS Code's agent to get echo back" });
		} finally {
			watching.dispose();
			await vscode.workspace
				.getConfiguration()
				.update('mcpSwitchboard.tools.disabled', undefined, vscode.ConfigurationTarget.Workspace);
		}
	},
	{ timeoutMs: 120_000 },
);

// Last in this file, so later suites run without VS Code's MCP client attached: with it, every list change of any
// server (ui.e2e's 5,000 tools) makes VS Code fetch and register the whole list again in its own extension host and
// window, load that belongs to this suite and slowed the next suites' steps on a slow CI machine.
test(
	"turning the gateway off ends VS Code's session on it; on again, it listens afresh with no session until VS Code starts it",
	async () => {
		const api = await extensionApi<SwitchboardApi>();
		const config = vscode.workspace.getConfiguration();
		const before = await waitFor(() => api.gateway.current(), { timeoutMs: 20_000, message: 'the gateway running' });
		try {
			await config.update(GATEWAY_ENABLED_SETTING, false, vscode.ConfigurationTarget.Global);
			await waitFor(async () => (await api.gateway.current()) === undefined, {
				timeoutMs: 10_000,
				message: 'the gateway to stop',
			});
			assert.equal(before.sessionCount, 0, 'every session ended with the gateway');
			await waitFor(() => gatewayEcho() === undefined, {
				timeoutMs: 20_000,
				message: "VS Code to drop the gateway's tools",
			});
		} finally {
			await config.update(GATEWAY_ENABLED_SETTING, undefined, vscode.ConfigurationTarget.Global);
		}
		const after = await waitFor(() => api.gateway.current(), {
			timeoutMs: 20_000,
			message: 'the gateway to start again',
		});
		assert.notEqual(after, before, 'a new listener');
	},
	{ timeoutMs: 60_000 },
);

/**
 * The tools/list of everything's endpoint on the gateway as an MCP client gets it: initialize, then tools/list over
 * HTTP with the window's token.
 */
async function gatewayToolNames(api: SwitchboardApi): Promise<string[]> {
	const gateway = await api.gateway.current();
	assert.ok(gateway, 'the gateway runs');
	const url = gateway.urlFor('everything');
	const headers = {
		'content-type': 'application/json',
		accept: 'application/json, text/event-stream',
		authorization: `Bearer ${gateway.token}`,
	};
	const opened = await fetch(url, {
		method: 'POST',
		headers,
		body: JSON.stringify({
			jsonrpc: '2.0',
			id: 1,
			method: 'initialize',
			params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } },
		}),
	});
	const session = opened.headers.get('mcp-session-id') ?? '';
	await opened.text();
	const listed = await fetch(url, {
		method: 'POST',
		headers: { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
		body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
	});
	const body = (await listed.json()) as { result: { tools: { name: string }[] } };
	await fetch(url, { method: 'DELETE', headers: { ...headers, 'mcp-session-id': session } });
	return body.result.tools.map((tool) => tool.name);
}

/** The tools @mcp offers the Fake Echo model for a request, with the extension's own enablement. */
async function mcpOfferedTools(api: SwitchboardApi): Promise<string[]> {
	const [model] = await waitFor(
		async () => {
			const models = await vscode.lm.selectChatModels({ vendor: 'switchboard-test' });
			return models.length > 0 && models;
		},
		{ timeoutMs: 20_000, message: 'the Fake Echo model' },
	);
	const markdown: string[] = [];
	const stream = new Proxy(
		{
			markdown: (value: string | vscode.MarkdownString) =>
				void markdown.push(typeof value === 'string' ? value : value.value),
		},
		{ get: (target, key) => (key in target ? target[key as 'markdown'] : () => undefined) },
	) as unknown as vscode.ChatResponseStream;
	// get-tiny-image is read-only: the fake model's call runs without a consent question, then it echoes what it got.
	const request = {
		prompt: 'call:mcp__everything__get-tiny-image',
		command: undefined,
		model,
		references: [],
		toolReferences: [],
		toolInvocationToken: undefined,
	} as unknown as vscode.ChatRequest;
	const source = new vscode.CancellationTokenSource();
	await handleChatRequest(api.manager, request, { history: [] }, stream, source.token, {
		isEnabled: api.enablement.isEnabled,
	});
	source.dispose();
	const text = markdown.join('');
	return (JSON.parse(text.slice(text.indexOf('echo: {') + 'echo: '.length)) as { tools: string[] }).tools;
}
