// What a user sees of MCP Switchboard in a real VS Code: the Servers tree, Call Tool through the quick input form,
// progress and cancellation, resources, prompts, restart, logs, a broken server, and a screenshot of the tree.
// Uses the e2e workspace's server "everything" (server-everything over stdio, from test/e2e/workspace settings).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import type { CallOutcome } from '../../../src/vscode/tools/commands';
import type { TreeNode } from '../../../src/vscode/shared/treeNodes';
import { setTrustPromptForTests } from '../../../src/vscode/trust/trust';
import {
	answerInputBox,
	answerQuickPick,
	driver,
	extensionApi,
	hasDriver,
	quickInputRows,
	screenshot,
	sleep,
	test,
	waitFor,
} from './harness';

const SERVER = 'everything';

async function api(): Promise<SwitchboardApi> {
	return extensionApi<SwitchboardApi>();
}

/**
 * The workspace defines "everything", so it starts only after the trust question. A person answers it in a dialog;
 * extension tests get no dialogs, so this suite answers through the extension's test hook (for its own server only),
 * then asks again: Start first, and Reset Trust if a refusal was remembered.
 */
async function trusted(a: SwitchboardApi): Promise<void> {
	if (a.manager.get(SERVER)?.state.kind !== 'needsTrust') return;
	setTrustPromptForTests(async (server) => (server === SERVER ? true : undefined));
	try {
		await vscode.commands.executeCommand('mcpSwitchboard.startServer', SERVER);
		if (a.manager.get(SERVER)?.state.kind === 'needsTrust')
			await vscode.commands.executeCommand('mcpSwitchboard.resetTrust');
		await waitFor(() => a.manager.get(SERVER)?.state.kind !== 'needsTrust', {
			timeoutMs: 10_000,
			message: `'${SERVER}' allowed to start`,
		});
	} finally {
		setTrustPromptForTests(undefined);
	}
}

/** Waits until server "everything" runs and has listed its tools. */
async function running(timeoutMs = 30_000): Promise<SwitchboardApi> {
	const a = await api();
	await waitFor(() => a.manager.get(SERVER) !== undefined, { timeoutMs, message: `server '${SERVER}' configured` });
	await trusted(a);
	await waitFor(
		() => {
			const view = a.manager.get(SERVER);
			return view?.state.kind === 'running' && view.tools.length > 0;
		},
		{
			timeoutMs,
			message: `server '${SERVER}' running with tools (state: ${a.manager.get(SERVER)?.state.kind ?? 'not configured'})`,
		},
	);
	return a;
}

/** Waits until a quick input whose title or placeholder contains `text` is on screen (with the page driver), else a pause. */
async function quickInputShowing(text: string): Promise<void> {
	if (!hasDriver()) {
		await sleep(800);
		return;
	}
	await waitFor(
		async () =>
			(await driver({
				action: 'evaluate',
				script: `[...document.querySelectorAll('.quick-input-widget')].some((w) => { if (w.style.display === 'none' || w.offsetParent === null) return false;
					const t = (w.querySelector('.quick-input-title')?.textContent ?? '') + ' ' + (w.querySelector('.quick-input-box input')?.getAttribute('placeholder') ?? '') + ' ' + (w.querySelector('.quick-input-message')?.textContent ?? '');
					return t.includes(${JSON.stringify(text)}); })`,
			})) === true,
		{ timeoutMs: 15_000, message: `a quick input showing "${text}"` },
	);
}

function child(
	a: SwitchboardApi,
	parent: TreeNode | undefined,
	predicate: (node: TreeNode, item: vscode.TreeItem) => boolean,
): TreeNode | undefined {
	return a.tree.getChildren(parent).find((node) => predicate(node, a.tree.getTreeItem(node)));
}

function label(item: vscode.TreeItem): string {
	return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
}

async function activeText(predicate: (editor: vscode.TextEditor) => boolean, message: string): Promise<string> {
	const editor = await waitFor(
		() => {
			const e = vscode.window.activeTextEditor;
			return e && predicate(e) ? e : undefined;
		},
		{ timeoutMs: 10_000, message },
	);
	return editor.document.getText();
}

test('the Servers tree lists server-everything with its state, counts and tools', async () => {
	const a = await running();
	await vscode.commands.executeCommand('workbench.view.extension.mcpSwitchboard');
	const server = child(a, undefined, (node) => node.kind === 'server' && node.server === SERVER);
	assert.ok(server, 'a row for the server');
	const item = a.tree.getTreeItem(server);
	assert.match(String(item.description), /^\d+ tools · stdio$/);
	assert.equal(item.contextValue, 'mcpServer.running');
	const groups = a.tree.getChildren(server).map((node) => label(a.tree.getTreeItem(node)));
	assert.deepEqual(groups, ['Tools', 'Resources', 'Resource Templates', 'Prompts']);
	const toolsGroup = child(a, server, (node) => node.kind === 'group' && node.group === 'tools');
	assert.ok(toolsGroup);
	assert.equal(a.tree.getTreeItem(toolsGroup).description, String(a.manager.get(SERVER)?.tools.length));
	const tools = a.tree.getChildren(toolsGroup).map((node) => a.tree.getTreeItem(node));
	const echo = tools.find((t) => label(t) === 'echo' || String(t.id).endsWith('/tools/echo'));
	assert.ok(echo, `echo among ${tools.map(label).join(', ')}`);
	const longRunning = a.tree
		.getChildren(toolsGroup)
		.find((n) => n.kind === 'tool' && n.tool.tool.name === 'trigger-long-running-operation');
	assert.ok(longRunning);
	// Badges come from annotations; the tooltip, built on hover, carries the input schema.
	assert.match(String(a.tree.getTreeItem(longRunning).description), /read-only/);
	const resolved = a.tree.resolveTreeItem(a.tree.getTreeItem(longRunning), longRunning);
	assert.match((resolved.tooltip as vscode.MarkdownString).value, /Input schema[\s\S]*"duration"/);
	const serverTooltip = a.tree.resolveTreeItem(a.tree.getTreeItem(server), server).tooltip as vscode.MarkdownString;
	assert.match(serverTooltip.value, /Protocol: 2025/);
	// The status bar repaints debounced, and servers a previous suite configured may still be on their way out.
	await waitFor(() => /MCP 1\/1/.test(a.statusText()), {
		timeoutMs: 10_000,
		message: 'the status bar to read "MCP 1/1"',
	});
});

test('Call Tool on echo: pick the tool, answer the input box, read the result view', async () => {
	const a = await running();
	const message = `hello from the e2e suite ${Date.now()}`;
	const call = vscode.commands.executeCommand<CallOutcome | undefined>('mcpSwitchboard.callTool');
	await quickInputShowing('Pick a tool');
	// The tool reads as in the tree: its name, with its title (server-everything's "Echo Tool") and server beside it.
	await driver({ action: 'fill', selector: '.quick-input-widget .quick-input-box input', text: 'echo' });
	const row = await waitFor(async () => (await quickInputRows()).find((r) => r.label === 'echo'), {
		message: 'the echo row in the pick',
	});
	assert.equal(row.description, 'Echo Tool · everything');
	await answerQuickPick('echo');
	await quickInputShowing('echo');
	await answerInputBox(message);
	const outcome = await call;
	assert.ok(outcome, 'the call ran');
	assert.equal(outcome.error, undefined);
	assert.deepEqual(outcome.arguments, { message });
	assert.equal(outcome.document?.scheme, 'switchboard-result');
	// The result view's tab is the active one and reads the echo; its Markdown twin holds the same text.
	const view = await waitFor(() => a.results.view.current?.panel.active && a.results.view.current, {
		message: 'the result view, active',
	});
	assert.match(view.summary, new RegExp(`Echo: ${message}`));
	assert.doesNotMatch(view.summary, /Error/);
	const text = (await vscode.workspace.openTextDocument(outcome.document)).getText();
	assert.match(text, new RegExp(`Echo: ${message}`));
	assert.doesNotMatch(text, /isError/);
});

test('Run Again repeats the last call with the same arguments', async () => {
	await running();
	const outcome = await vscode.commands.executeCommand<CallOutcome | undefined>('mcpSwitchboard.runAgain');
	assert.ok(outcome?.result);
	assert.equal(outcome.tool, 'echo');
	assert.match(JSON.stringify(outcome.result.content), /Echo: hello from the e2e suite/);
});

test('a long-running tool reports progress in a notification and can be cancelled', async () => {
	const a = await running();
	const call = vscode.commands.executeCommand<CallOutcome | undefined>('mcpSwitchboard.callTool', { server: SERVER });
	await quickInputShowing('Call Tool on');
	await answerQuickPick('trigger-long-running-operation');
	await quickInputShowing('duration');
	await answerInputBox('60');
	await quickInputShowing('steps');
	await answerInputBox('60');
	const active = await waitFor(
		() => a.activeCalls().find((c) => c.tool === 'trigger-long-running-operation' && c.progress.length >= 2),
		{
			timeoutMs: 15_000,
			message: 'two progress notifications',
		},
	);
	assert.equal(active.progress[0]?.total, 60);
	if (hasDriver()) {
		// The notification a person sees: the server and tool, and the count from notifications/progress.
		await vscode.commands.executeCommand('notifications.showList');
		try {
			await waitFor(
				async () => {
					const texts = (await driver({
						action: 'texts',
						selector: '.notifications-center .notification-list-item',
					})) as string[];
					return texts.some(
						(t) => /everything: Trigger Long Running Operation Tool: \d+\/60/.test(t) && t.includes('Cancel'),
					);
				},
				{ timeoutMs: 15_000, message: 'the progress notification with its count and Cancel button' },
			);
			// Press its Cancel button, as a person does.
			await driver({
				action: 'click',
				selector:
					'.notifications-center .notification-list-item:has-text("Trigger Long Running Operation Tool") .monaco-button:has-text("Cancel")',
			});
		} finally {
			await vscode.commands.executeCommand('notifications.hideList');
		}
	} else {
		// No page to click on (the @vscode/test-electron runner): cancel through the same token the button cancels.
		active.cancel();
	}
	const outcome = await call;
	assert.equal(outcome?.cancelled, true, `cancelled (got ${JSON.stringify(outcome)})`);
	assert.equal(outcome.result, undefined);
	assert.equal(a.activeCalls().length, 0);
	// The connection survives a cancelled call.
	const again = await vscode.commands.executeCommand<CallOutcome | undefined>('mcpSwitchboard.callTool', {
		server: SERVER,
		tool: 'echo',
		arguments: { message: 'still here' },
	});
	assert.match(JSON.stringify(again?.result?.content), /still here/);
});

test('a resource opens in a read-only editor whose language follows its MIME type', async () => {
	const a = await running();
	const view = a.manager.get(SERVER);
	const resource = view?.resources.find((r) => r.mimeType === 'text/markdown') ?? view?.resources[0];
	assert.ok(resource, 'the server lists resources');
	const node: TreeNode = { kind: 'resource', server: SERVER, resource };
	const uri = await vscode.commands.executeCommand<vscode.Uri | undefined>('mcpSwitchboard.readResource', node);
	assert.equal(uri?.scheme, 'switchboard-resource');
	const text = await activeText((e) => e.document.uri.scheme === 'switchboard-resource', 'the resource editor');
	assert.ok(text.length > 0, 'the resource has text');
	if (resource.mimeType === 'text/markdown')
		assert.equal(vscode.window.activeTextEditor?.document.languageId, 'markdown');
});

test('a prompt with arguments asks for them and opens its messages as Markdown', async () => {
	await running();
	const call = vscode.commands.executeCommand('mcpSwitchboard.getPrompt', { server: SERVER, prompt: 'args-prompt' });
	await quickInputShowing('city');
	await answerInputBox('Springfield');
	await quickInputShowing('state');
	await answerInputBox('Illinois');
	await call;
	const text = await activeText(
		(e) => e.document.uri.scheme === 'switchboard-result' && e.document.getText().includes('args-prompt'),
		'the prompt document',
	);
	assert.match(text, /Springfield, Illinois/);
	assert.match(text, /## user/);
	assert.equal(vscode.window.activeTextEditor?.document.languageId, 'markdown');
});

test('Restart Server reconnects and the tree shows the tools again', async () => {
	const a = await running();
	const before = a.manager.get(SERVER)?.state;
	assert.equal(before?.kind, 'running');
	const states: string[] = [];
	const subscription = a.manager.onDidChangeState(({ server, state }) => {
		if (server === SERVER) states.push(state.kind);
	});
	try {
		await vscode.commands.executeCommand('mcpSwitchboard.restartServer', SERVER);
		await waitFor(
			() => {
				const state = a.manager.get(SERVER)?.state;
				return state?.kind === 'running' && before?.kind === 'running' && state.client !== before.client;
			},
			{ timeoutMs: 30_000, message: 'a new connection after restart' },
		);
	} finally {
		subscription.dispose();
	}
	assert.ok(states.includes('starting'), `went through starting (saw ${states.join(' → ')})`);
	await running();
	const server = a.tree.serverNode(SERVER);
	assert.match(String(a.tree.getTreeItem(server).description), /tools · stdio/);
});

/** The log file of the channel "MCP: <server>", found under the extension's log folder. */
function logFile(a: SwitchboardApi, server: string): string | undefined {
	const found: string[] = [];
	const walk = (dir: string) => {
		if (!fs.existsSync(dir)) return;
		for (const name of fs.readdirSync(dir)) {
			const full = path.join(dir, name);
			if (fs.statSync(full).isDirectory()) walk(full);
			// Exactly this server's channel ("MCP: everything" → "… MCP everything.log"), not another whose name contains it.
			else if (name.includes('MCP') && name.endsWith(` ${server}.log`)) found.push(full);
		}
	};
	walk(a.logUri.fsPath);
	walk(path.dirname(a.logUri.fsPath));
	return found[0];
}

test('the server log channel holds lifecycle events and, at Trace level, the JSON-RPC trace', async () => {
	const a = await running();
	await vscode.commands.executeCommand('mcpSwitchboard.showServerLog', SERVER);
	// Set the channel to Trace as a person does: "Developer: Set Log Level…", pick the channel, pick Trace.
	const setting = vscode.commands.executeCommand('workbench.action.setLogLevel');
	await quickInputShowing('');
	await answerQuickPick(`MCP: ${SERVER}`);
	// The level pick follows the channel pick; its placeholder names the channel ("MCP: everything: Select log level").
	await quickInputShowing(`MCP: ${SERVER}`);
	await answerQuickPick('Trace');
	await setting;
	const marker = `trace marker ${Date.now()}`;
	const outcome = await vscode.commands.executeCommand<CallOutcome | undefined>('mcpSwitchboard.callTool', {
		server: SERVER,
		tool: 'echo',
		arguments: { message: marker },
	});
	assert.ok(outcome?.result);
	const file = await waitFor(() => logFile(a, SERVER), {
		timeoutMs: 10_000,
		message: `a log file for "MCP: ${SERVER}" under ${a.logUri.fsPath}`,
	});
	const text = await waitFor(
		() => {
			const t = fs.readFileSync(file, 'utf8');
			return t.includes(marker) ? t : undefined;
		},
		{ timeoutMs: 10_000, message: `the traced call in ${file}` },
	);
	assert.match(text, /\[trace\].*tools\/call/);
	assert.match(text, /\[info\]/, 'lifecycle lines');
});

test('a server whose command does not exist shows in error with a helpful message', async () => {
	const a = await running();
	const config = vscode.workspace.getConfiguration('mcpSwitchboard');
	const previous = config.inspect<Record<string, unknown>>('servers')?.globalValue;
	const name = 'broken-e2e';
	await config.update(
		'servers',
		{ ...(previous ?? {}), [name]: { command: 'mcp-switchboard-no-such-command', args: [] } },
		vscode.ConfigurationTarget.Global,
	);
	try {
		const state = await waitFor(
			() => {
				const s = a.manager.get(name)?.state;
				return s?.kind === 'error' ? s : undefined;
			},
			{
				timeoutMs: 20_000,
				message: `server '${name}' in error (state: ${a.manager.get(name)?.state.kind ?? 'absent'})`,
			},
		);
		assert.match(state.message, /mcp-switchboard-no-such-command/);
		const node = a.tree.serverNode(name);
		const item = a.tree.getTreeItem(node);
		assert.equal(item.contextValue, 'mcpServer.error');
		const [messageNode] = a.tree.getChildren(node);
		assert.equal(messageNode?.kind, 'message');
		assert.match(label(a.tree.getTreeItem(messageNode)), /mcp-switchboard-no-such-command/);
		await waitFor(() => a.statusText().includes('$(warning)'), {
			timeoutMs: 15_000,
			message: 'the status bar warning',
		});
		if (hasDriver()) {
			// One error notification naming the server (toasts are hidden in this test mode; the notification center keeps it).
			await vscode.commands.executeCommand('notifications.showList');
			try {
				const messages = await waitFor(
					async () => {
						const texts = (await driver({
							action: 'texts',
							selector: '.notifications-center .notification-list-item',
						})) as string[];
						return texts.some((t) => t.includes(`MCP server '${name}'`)) ? texts : undefined;
					},
					{ timeoutMs: 15_000, message: `an error notification naming '${name}'` },
				);
				const ours = messages.filter((t) => t.includes(`MCP server '${name}'`));
				assert.equal(ours.length, 1, 'one notification, not one per retry');
				assert.match(ours[0] ?? '', /Show Output/);
			} finally {
				await vscode.commands.executeCommand('notifications.hideList');
			}
		}
	} finally {
		await config.update('servers', previous, vscode.ConfigurationTarget.Global);
	}
	await waitFor(() => a.manager.get(name) === undefined, { timeoutMs: 10_000, message: 'the broken server removed' });
});

test('screenshot: the populated Servers tree', async () => {
	const a = await running();
	await vscode.commands.executeCommand('workbench.view.extension.mcpSwitchboard');
	const toolsGroup = a.tree.groupNode(SERVER, 'tools');
	const firstTool = a.tree.getChildren(toolsGroup)[0];
	assert.ok(firstTool);
	// reveal needs the rendered tree: retry until the view has it.
	await waitFor(
		async () => {
			await a.treeView.reveal(firstTool, { expand: true, select: false, focus: false });
			return true;
		},
		{ timeoutMs: 10_000, message: 'the tool row revealed' },
	);
	await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	await sleep(500);
	const file = await screenshot('ui-tree');
	if (hasDriver()) {
		assert.ok(file && fs.existsSync(file), 'the screenshot was saved');
		const rows = (await driver({ action: 'texts', selector: '.pane-body .monaco-list-row .label-name' })) as string[];
		// Tools show their name first (the title, echo's "Echo Tool", follows in the description).
		const echoLabel = label(
			a.tree.getTreeItem({
				kind: 'tool',
				server: SERVER,
				tool: a.manager.get(SERVER)?.tools.find((t) => t.tool.name === 'echo') as never,
			}),
		);
		assert.ok(
			rows.includes(SERVER) && rows.includes(echoLabel),
			`tree rows on screen: ${rows.slice(0, 20).join(', ')}`,
		);
	}
});

test('results show images as files, structured content as JSON, clickable resource links, and isError at the top', async () => {
	await running();
	const call = (tool: string, args: Record<string, unknown>) =>
		vscode.commands.executeCommand<CallOutcome | undefined>('mcpSwitchboard.callTool', {
			server: SERVER,
			tool,
			arguments: args,
		});

	const image = await call('get-tiny-image', {});
	assert.ok(image?.document);
	const imageDocument = await vscode.workspace.openTextDocument(image.document);
	assert.match(imageDocument.getText(), /\[image \d+: image\/png, [\d.]+ (B|KB)\]/);
	const imageLinks = await vscode.commands.executeCommand<vscode.DocumentLink[]>(
		'vscode.executeLinkProvider',
		imageDocument.uri,
	);
	const file = imageLinks.find((l) => l.target?.scheme === 'file' && l.target.path.endsWith('.png'))?.target;
	assert.ok(file, `a link to the saved PNG among ${imageLinks.map((l) => l.target?.toString()).join(', ')}`);
	assert.ok(fs.statSync(file.fsPath).size > 0, 'the image was written');

	const structured = await call('get-structured-content', { location: 'New York' });
	const structuredText = (await vscode.workspace.openTextDocument(structured?.document as vscode.Uri)).getText();
	assert.match(structuredText, /## Structured content\n\n```json\n\{/);

	const links = await call('get-resource-links', { count: 2 });
	const linksDocument = await vscode.workspace.openTextDocument(links?.document as vscode.Uri);
	const documentLinks = await vscode.commands.executeCommand<vscode.DocumentLink[]>(
		'vscode.executeLinkProvider',
		linksDocument.uri,
	);
	const resourceLink = documentLinks.find((l) => l.target?.scheme === 'switchboard-resource');
	assert.ok(resourceLink?.target, `a resource link among ${documentLinks.map((l) => l.target?.toString()).join(', ')}`);
	await vscode.commands.executeCommand('vscode.open', resourceLink.target);
	const resourceText = await activeText((e) => e.document.uri.scheme === 'switchboard-resource', 'the linked resource');
	assert.ok(resourceText.length > 0);

	const failed = await call('get-sum', { a: 'not a number', b: 1 });
	const failedText = (await vscode.workspace.openTextDocument(failed?.document as vscode.Uri)).getText();
	assert.equal(failed?.result?.isError, true);
	assert.match(failedText.split('\n')[0] ?? '', /Error/);
});

test('Copy Tool Name puts the qualified name on the clipboard', async () => {
	const a = await running();
	const echo = a.manager.get(SERVER)?.tools.find((t) => t.tool.name === 'echo');
	assert.ok(echo);
	const copied = await vscode.commands.executeCommand<string>('mcpSwitchboard.copyToolName', {
		kind: 'tool',
		server: SERVER,
		tool: echo,
	} satisfies TreeNode);
	assert.equal(copied, echo.qualifiedName);
	assert.equal(await vscode.env.clipboard.readText(), echo.qualifiedName);
});

test('Add Server: a command line and a name write the setting, and the server starts', async () => {
	const a = await running();
	const config = vscode.workspace.getConfiguration('mcpSwitchboard');
	const previous = config.inspect<Record<string, unknown>>('servers')?.globalValue;
	const view = a.manager.get(SERVER);
	assert.ok(view?.config.type === 'stdio');
	// The same server program without its `stdio` argument (stdio is its default): a launch of its own, since the same
	// launch defined twice runs once under the first name (manager/configSources.ts).
	const commandLine = [view.config.command, ...(view.config.args ?? []).filter((arg) => arg !== 'stdio')]
		.map((w) => (/\s/.test(w) ? `"${w}"` : w))
		.join(' ');
	const name = 'added-e2e';
	const adding = vscode.commands.executeCommand('mcpSwitchboard.addServer');
	try {
		await quickInputShowing('How does the server run?');
		await answerQuickPick('Command (stdio)');
		await quickInputShowing('Add MCP Server (2/4)');
		await answerInputBox(commandLine);
		await quickInputShowing('Add MCP Server (3/4)');
		await answerInputBox(name);
		await quickInputShowing('Save the server in');
		await answerQuickPick('User settings');
		await adding;
		const saved = vscode.workspace
			.getConfiguration('mcpSwitchboard')
			.inspect<Record<string, { command?: string }>>('servers')?.globalValue;
		assert.equal(saved?.[name]?.command, view.config.command);
		await waitFor(() => a.manager.get(name)?.state.kind === 'running', {
			timeoutMs: 30_000,
			message: `'${name}' running`,
		});
		await waitFor(
			() =>
				a
					.statusText()
					.endsWith(
						`MCP ${a.manager.servers().filter((v) => v.state.kind === 'running').length}/${a.manager.servers().length}`,
					) && a.statusText().includes('MCP 2/'),
			{
				timeoutMs: 15_000,
				message: `the status bar to count the new server (it says "${a.statusText()}")`,
			},
		);
	} finally {
		await config.update('servers', previous, vscode.ConfigurationTarget.Global);
	}
	await waitFor(() => a.manager.get(name) === undefined, { timeoutMs: 10_000, message: `'${name}' removed` });
});

/** A minimal stdio MCP server with `count` tools; each tools/call adds one tool and sends tools/list_changed. */
const manyToolsServer = (count: number) => `
const readline = require('node:readline');
let extra = 0;
const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n');
const tools = () => Array.from({ length: ${count} + extra }, (_, i) => ({
	name: 'tool_' + String(i).padStart(4, '0'),
	description: 'Tool number ' + i,
	inputSchema: { type: 'object', properties: { x: { type: 'number' } } },
}));
readline.createInterface({ input: process.stdin }).on('line', (line) => {
	const message = JSON.parse(line);
	if (message.id === undefined || message.method === undefined) return;
	const reply = (result) => send({ jsonrpc: '2.0', id: message.id, result });
	switch (message.method) {
		case 'initialize':
			return reply({ protocolVersion: message.params.protocolVersion, capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'many-tools', version: '1.0.0' } });
		case 'tools/list':
			return reply({ tools: tools() });
		case 'tools/call':
			extra++;
			reply({ content: [{ type: 'text', text: 'added a tool' }] });
			return send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
		case 'ping':
			return reply({});
		default:
			return send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found: ' + message.method } });
	}
});
`;

test(
	'the tree stays usable with 5,000 tools and follows tools/list_changed',
	async () => {
		const a = await running();
		const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-many-')), 'server.js');
		fs.writeFileSync(script, manyToolsServer(5000));
		const name = 'many-tools';
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const previous = config.inspect<Record<string, unknown>>('servers')?.globalValue;
		await config.update(
			'servers',
			{ ...(previous ?? {}), [name]: { command: process.execPath, args: [script] } },
			vscode.ConfigurationTarget.Global,
		);
		try {
			await waitFor(() => a.manager.get(name)?.tools.length === 5000, {
				timeoutMs: 30_000,
				message: `'${name}' with 5000 tools`,
			});
			const group = a.tree.groupNode(name, 'tools');
			const started = Date.now();
			const tools = a.tree.getChildren(group);
			const items = tools.map((node) => a.tree.getTreeItem(node));
			console.log(`5,000 tool rows built in ${Date.now() - started} ms`);
			assert.equal(items.length, 5000);
			assert.equal(a.tree.getTreeItem(group).description, '5000');
			const last = tools[tools.length - 1] as TreeNode;
			await vscode.commands.executeCommand('workbench.view.extension.mcpSwitchboard');
			// Reveal, then look: a reveal that lands while the view is still rendering the 5,000 rows (or before a debounced
			// refresh repaints it) can leave the list where it was, so each attempt reveals again before it looks.
			await waitFor(
				async () => {
					await a.treeView.reveal(last, { expand: true, select: true, focus: false });
					if (!hasDriver()) return true;
					return (
						(await driver({ action: 'texts', selector: '.pane-body .monaco-list-row .label-name' })) as string[]
					).includes('tool_4999');
				},
				{ timeoutMs: 25_000, intervalMs: 500, message: 'the last of 5,000 tools revealed and tool_4999 on screen' },
			);
			// A call makes the server add a tool and announce it: the group's count follows without a manual refresh.
			await vscode.commands.executeCommand('mcpSwitchboard.callTool', {
				server: name,
				tool: 'tool_0000',
				arguments: {},
			});
			await waitFor(() => a.tree.getTreeItem(group).description === '5001', {
				timeoutMs: 10_000,
				message: 'the Tools count to become 5001',
			});
			if (hasDriver()) {
				let rows: string[] = [];
				await waitFor(
					async () => {
						rows = (await driver({ action: 'texts', selector: '.pane-body .monaco-list-row' })) as string[];
						return rows.some((row) => /Tools\s*5001/.test(row));
					},
					{
						timeoutMs: 10_000,
						message: () =>
							`the row "Tools 5001" on screen (rows: ${JSON.stringify(rows.filter((row) => !row.startsWith('tool_')))})`,
					},
				);
			}
		} finally {
			await config.update('servers', previous, vscode.ConfigurationTarget.Global);
			fs.rmSync(path.dirname(script), { recursive: true, force: true });
		}
		// On a timeout, say where the removal stopped: the setting as this extension host reads it, the server's state.
		const seen = () =>
			Object.keys(
				vscode.workspace.getConfiguration('mcpSwitchboard').inspect<Record<string, unknown>>('servers')?.globalValue ??
					{},
			);
		await waitFor(() => a.manager.get(name) === undefined, {
			timeoutMs: 10_000,
			message: () =>
				`'${name}' removed (user setting as read here: [${seen().join(', ')}]; '${name}' is ${a.manager.get(name)?.state.kind ?? 'gone'})`,
		});
		// The test's own budget covers its waits (30 + 25 + 10 + 10 + 10 s): with the default 30 s, a slow CI machine ran out
		// of time (CI: 30 s timeout while another heavy test took 27 s instead of 4 s), not any wait of its own.
	},
	{ timeoutMs: 90_000 },
);

test('a resource template asks for its variable with server completions and opens the expanded resource', async () => {
	const a = await running();
	const template = a.manager.get(SERVER)?.resourceTemplates.find((t) => t.uriTemplate.includes('/dynamic/text/'));
	assert.ok(template, 'the text template');
	const reading = vscode.commands.executeCommand<vscode.Uri | undefined>('mcpSwitchboard.readResource', {
		kind: 'template',
		server: SERVER,
		template,
	} satisfies TreeNode);
	await quickInputShowing('resourceId');
	await answerInputBox('3');
	const uri = await reading;
	assert.equal(uri?.scheme, 'switchboard-resource');
	const text = await activeText((e) => e.document.uri.toString() === uri?.toString(), 'the expanded resource');
	assert.match(text, /Resource 3: This is a plaintext resource/);
});

test(
	'Subscribe keeps an open resource document current on resources/updated',
	async () => {
		await running();
		const resource = { uri: 'demo://resource/dynamic/text/2', name: 'Dynamic text 2' };
		await vscode.commands.executeCommand('mcpSwitchboard.subscribeResource', {
			kind: 'resource',
			server: SERVER,
			resource,
		} satisfies TreeNode);
		const document = await waitFor(
			() =>
				vscode.workspace.textDocuments.find(
					(d) => d.uri.scheme === 'switchboard-resource' && d.uri.query.includes('dynamic%2Ftext%2F2'),
				),
			{ message: 'the subscribed document' },
		);
		const before = document.getText();
		assert.match(before, /Resource 2:/);
		const changed = new Promise<string>((resolve) => {
			const subscription = vscode.workspace.onDidChangeTextDocument((event) => {
				if (event.document === document) {
					subscription.dispose();
					resolve(event.document.getText());
				}
			});
		});
		// server-everything sends notifications/resources/updated every 5 s for subscribed URIs once this is toggled on.
		const toggle = () =>
			vscode.commands.executeCommand<CallOutcome | undefined>('mcpSwitchboard.callTool', {
				server: SERVER,
				tool: 'toggle-subscriber-updates',
				arguments: {},
			});
		await toggle();
		try {
			const after = await Promise.race([changed, sleep(15_000).then(() => undefined)]);
			assert.ok(after !== undefined, 'the document changed after resources/updated');
			assert.match(after, /Resource 2:/);
			assert.notEqual(after, before);
		} finally {
			await toggle();
		}
	},
	{ timeoutMs: 40_000 },
);

/** A stdio MCP server with one tool the server marks destructive; its result echoes the arguments it received. */
const destructiveServer = `
const readline = require('node:readline');
const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n');
const tool = {
	name: 'delete_items',
	description: 'Deletes the given items',
	annotations: { destructiveHint: true, readOnlyHint: false },
	inputSchema: {
		type: 'object',
		properties: {
			items: { type: 'array', items: { type: 'string' }, description: 'What to delete' },
			force: { type: 'boolean', description: 'Skip the recycle bin' },
			note: { type: 'string', description: 'Why' },
		},
		required: ['items', 'force'],
	},
};
readline.createInterface({ input: process.stdin }).on('line', (line) => {
	const message = JSON.parse(line);
	if (message.id === undefined || message.method === undefined) return;
	const reply = (result) => send({ jsonrpc: '2.0', id: message.id, result });
	if (message.method === 'initialize') return reply({ protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'destructive', version: '1.0.0' } });
	if (message.method === 'tools/list') return reply({ tools: [tool] });
	if (message.method === 'tools/call') return reply({ content: [{ type: 'text', text: 'received ' + JSON.stringify(message.params.arguments) }] });
	if (message.method === 'ping') return reply({});
	send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
});
`;

test(
	'the form handles JSON, boolean and optional fields, and a destructive tool asks before it runs',
	async () => {
		const a = await running();
		const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-destructive-')), 'server.js');
		fs.writeFileSync(script, destructiveServer);
		const name = 'destructive';
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const previous = config.inspect<Record<string, unknown>>('servers')?.globalValue;
		await config.update(
			'servers',
			{ ...(previous ?? {}), [name]: { command: process.execPath, args: [script] } },
			vscode.ConfigurationTarget.Global,
		);
		const fill = async (consent: string, note = '') => {
			const call = vscode.commands.executeCommand<CallOutcome | undefined>('mcpSwitchboard.callTool', { server: name });
			await quickInputShowing('Call Tool on');
			await answerQuickPick('delete_items');
			await quickInputShowing('items');
			await answerInputBox('["a", "b"]');
			await quickInputShowing('force');
			await answerQuickPick('true');
			await quickInputShowing('note');
			await answerInputBox(note);
			await quickInputShowing('may delete or overwrite data');
			if (note) {
				// The arguments are shown whole under the box, wrapped, not cut at the widget's edge or at N characters.
				const shown = (await driver({
					action: 'evaluate',
					script: `(() => { const w = [...document.querySelectorAll('.quick-input-widget')].find((x) => x.style.display !== 'none' && x.offsetParent !== null);
						const m = w?.querySelector('.quick-input-message');
						if (!m) return undefined; const r = document.createRange(); r.selectNodeContents(m);
						const lines = new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
						return { text: (m.textContent ?? '').trim(), lines, fits: m.scrollWidth <= m.clientWidth }; })()`,
				})) as { text: string; lines: number; fits: boolean } | undefined;
				assert.ok(shown, 'the confirmation shows the arguments under the box');
				assert.equal(shown.text, `Arguments: ${JSON.stringify({ items: ['a', 'b'], force: true, note })}`);
				assert.ok(shown.fits && shown.lines > 1, `wrapped, not cut: ${JSON.stringify({ ...shown, text: undefined })}`);
				await screenshot('destructive-consent-long-arguments');
			}
			await answerQuickPick(consent);
			return call;
		};
		try {
			await waitFor(() => a.manager.get(name)?.tools.length === 1, {
				timeoutMs: 20_000,
				message: `'${name}' running with its tool`,
			});
			const declined = await fill('Cancel');
			assert.equal(declined?.cancelled, true);
			assert.equal(declined?.result, undefined, 'nothing ran without consent');
			// A long argument (past the 300 characters the confirmation used to cut at) is shown to its last word.
			const note = `${'Clearing out the old build folders before the release, '.repeat(8)}the end.`;
			const long = await fill('Cancel', note);
			assert.equal(long?.cancelled, true);
			const accepted = await fill('Run delete_items');
			assert.deepEqual(accepted?.arguments, { items: ['a', 'b'], force: true });
			assert.match(
				JSON.stringify(accepted?.result?.content),
				/received \{\\"items\\":\[\\"a\\",\\"b\\"\],\\"force\\":true\}/,
			);
		} finally {
			await config.update('servers', previous, vscode.ConfigurationTarget.Global);
			fs.rmSync(path.dirname(script), { recursive: true, force: true });
		}
	},
	{ timeoutMs: 60_000 },
);

test('an enum argument is a quick pick of its values', async () => {
	await running();
	const call = vscode.commands.executeCommand<CallOutcome | undefined>('mcpSwitchboard.callTool', { server: SERVER });
	await quickInputShowing('Call Tool on');
	// By name, as the tree lists it (the title "Get Structured Content Tool" is beside it).
	await answerQuickPick('get-structured-content');
	await quickInputShowing('location');
	await answerQuickPick('Chicago');
	const outcome = await call;
	assert.deepEqual(outcome?.arguments, { location: 'Chicago' });
	assert.ok(outcome?.result?.structuredContent, 'structured content came back');
});

test('Stop and Start Server change the tree and the status bar', async () => {
	const a = await running();
	await vscode.commands.executeCommand('mcpSwitchboard.stopServer', SERVER);
	await waitFor(() => a.manager.get(SERVER)?.state.kind === 'stopped', { message: 'stopped' });
	const node = a.tree.serverNode(SERVER);
	assert.equal(a.tree.getTreeItem(node).contextValue, 'mcpServer.stopped');
	const children = a.tree.getChildren(node);
	assert.equal(children.length, 1);
	assert.match(label(a.tree.getTreeItem(children[0] as TreeNode)), /^Stopped\. Start it/);
	await waitFor(() => /MCP 0\//.test(a.statusText()), {
		timeoutMs: 15_000,
		message: `the status bar to count 0 running (it says "${a.statusText()}")`,
	});
	// Convention 11: with nothing running, Call Tool stays available and says why it cannot act.
	const outcome = await vscode.commands.executeCommand('mcpSwitchboard.callTool');
	assert.equal(outcome, undefined);
	await vscode.commands.executeCommand('mcpSwitchboard.startServer', SERVER);
	await running();
	assert.equal(a.tree.getTreeItem(node).contextValue, 'mcpServer.running');
});

test(
	'with no server configured the view shows the welcome with Add Server and Open Settings',
	async () => {
		const a = await running();
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const previous = config.inspect<Record<string, unknown>>('servers');
		await config.update('servers', {}, vscode.ConfigurationTarget.Workspace);
		await config.update('servers', undefined, vscode.ConfigurationTarget.Global);
		try {
			await waitFor(() => a.manager.servers().length === 0, { timeoutMs: 10_000, message: 'no servers' });
			assert.deepEqual(a.tree.getChildren(), []);
			await vscode.commands.executeCommand('workbench.view.extension.mcpSwitchboard');
			if (hasDriver()) {
				const welcome = await waitFor(
					async () =>
						((await driver({ action: 'texts', selector: '.welcome-view-content' })) as string[]).find((t) =>
							t.includes('Add Server'),
						),
					{ timeoutMs: 10_000, message: 'the welcome view' },
				);
				assert.match(welcome, /Open Settings/);
				await screenshot('ui-welcome');
			}
		} finally {
			await config.update('servers', previous?.workspaceValue, vscode.ConfigurationTarget.Workspace);
			await config.update('servers', previous?.globalValue, vscode.ConfigurationTarget.Global);
		}
		await running();
	},
	{ timeoutMs: 60_000 },
);

test('prompt arguments offer the server completions, the second narrowed by the first', async () => {
	await running();
	const call = vscode.commands.executeCommand('mcpSwitchboard.getPrompt', {
		server: SERVER,
		prompt: 'completable-prompt',
	});
	await quickInputShowing('department');
	if (hasDriver()) {
		await waitFor(
			async () => {
				const labels = (await quickInputRows()).map((row) => row.label);
				return ['Engineering', 'Sales', 'Marketing', 'Support'].every((d) => labels.includes(d));
			},
			{ timeoutMs: 15_000, message: 'the four departments suggested' },
		);
	}
	await answerQuickPick('Sales');
	await quickInputShowing('name');
	if (hasDriver()) {
		await waitFor(
			async () => {
				const labels = (await quickInputRows()).map((row) => row.label);
				return ['David', 'Eve', 'Frank'].every((n) => labels.includes(n)) && !labels.includes('Alice');
			},
			{ timeoutMs: 15_000, message: 'the Sales team suggested (completion context carries the department)' },
		);
	}
	await answerQuickPick('Eve');
	await call;
	const text = await activeText(
		(e) => e.document.uri.scheme === 'switchboard-result' && e.document.getText().includes('completable-prompt'),
		'the prompt document',
	);
	assert.match(text, /Please promote Eve to the head of the Sales team/);
});

test('the status bar item lists the servers and offers their actions', async () => {
	const a = await running();
	const before = a.manager.get(SERVER)?.state;
	assert.match(a.statusText(), /^\$\(server-process\) MCP \d+\/\d+$/);
	const showing = vscode.commands.executeCommand('mcpSwitchboard.showServers');
	await quickInputShowing('Pick a server for its actions');
	if (hasDriver()) {
		const rows = await quickInputRows();
		assert.ok(
			rows.some((row) => row.label === SERVER && row.description === 'running'),
			`a row "${SERVER} running" among ${JSON.stringify(rows)}`,
		);
	}
	await answerQuickPick(SERVER);
	await quickInputShowing(SERVER);
	await answerQuickPick('Restart');
	await showing;
	await waitFor(
		() => {
			const state = a.manager.get(SERVER)?.state;
			return state?.kind === 'running' && before?.kind === 'running' && state.client !== before.client;
		},
		{ timeoutMs: 30_000, message: 'restarted from the status bar list' },
	);
});

test("a binary resource is saved as a file and opened with VS Code's own viewer", async () => {
	await running();
	const uri = await vscode.commands.executeCommand<vscode.Uri | undefined>('mcpSwitchboard.readResource', {
		server: SERVER,
		uri: 'demo://resource/dynamic/blob/1',
	});
	assert.equal(uri?.scheme, 'file', `a file, got ${uri?.toString()}`);
	assert.match(fs.readFileSync(uri.fsPath, 'utf8'), /Resource 1: This is a base64 blob/);
	await vscode.commands.executeCommand('workbench.action.closeAllEditors');
});
