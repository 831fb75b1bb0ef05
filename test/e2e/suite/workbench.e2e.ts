// The workbench for server authors in a real VS Code, against server-everything: Record Session on a running server
// records its JSON-RPC exchange until Stop Recording, which saves a *.mcpsession.json file that
// `mcp-switchboard replay` serves back (the replay itself is tested in test/integration/sessionReplay.test.ts).
// Dev mode: a server whose `dev.watch` matches a file restarts when the file changes, and the Servers view shows the
// tool the edited server now has; with `dev.debug` the server runs under the Node inspector and VS Code's
// debugger attaches to it (a breakpoint e2e is still to come).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import { Commands } from '../../../src/vscode/commandIds';
import { serverWithTool } from './elicitationSupport';
import { extensionApi, test, waitFor } from './harness';

const SERVER = 'everything';

async function ready(): Promise<SwitchboardApi> {
	const extension = await extensionApi<SwitchboardApi>();
	if (extension.manager.get(SERVER)?.state.kind === 'needsTrust')
		await vscode.commands.executeCommand(Commands.startServer, SERVER);
	await serverWithTool(SERVER, 'echo');
	return extension;
}

test('Record Session saves the exchange with a server as a replayable file', async () => {
	const extension = await ready();
	const folder = vscode.workspace.workspaceFolders![0]!.uri;
	const file = vscode.Uri.joinPath(folder, 'recorded.mcpsession.json');
	try {
		assert.deepEqual(await vscode.commands.executeCommand(Commands.recordSession, SERVER), { recording: SERVER });
		assert.equal(extension.workbench.recordings.isRecording(SERVER), true);
		await extension.manager.callTool(SERVER, 'echo', { message: 'recorded in VS Code' });
		const saved = await vscode.commands.executeCommand<{ file: vscode.Uri; messages: number }>(
			Commands.stopRecording,
			SERVER,
			file,
		);
		assert.ok(saved.messages >= 2, `at least the call and its answer (got ${saved.messages})`);
		assert.equal(extension.workbench.recordings.isRecording(SERVER), false);
		const session = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(file))) as {
			format: string;
			server: string;
			initialize: { serverInfo: { name: string } };
			messages: { dir: string; message: { method?: string; params?: { name?: string }; result?: unknown } }[];
		};
		assert.equal(session.format, 'mcp-switchboard-session/1');
		assert.equal(session.server, SERVER);
		assert.equal(session.initialize.serverInfo.name, 'mcp-servers/everything');
		const call = session.messages.find((m) => m.dir === 'out' && m.message.params?.name === 'echo');
		assert.ok(call, 'the echo call is in the file');
		assert.match(JSON.stringify(session.messages), /Echo: recorded in VS Code/);
	} finally {
		await vscode.workspace.fs.delete(file).then(undefined, () => undefined);
	}
});

const DEV = 'devserver';

/** A small MCP server (stdio, no dependencies) whose tools are `tools`; each answers "<name> ran". */
function devServerSource(tools: string[]): string {
	return [
		"const readline = require('node:readline');",
		`const TOOLS = ${JSON.stringify(tools)};`,
		'const send = (message) => process.stdout.write(JSON.stringify(message) + "\\n");',
		"readline.createInterface({ input: process.stdin }).on('line', (line) => {",
		'	const message = JSON.parse(line);',
		'	if (message.id === undefined) return;',
		"	if (message.method === 'initialize')",
		"		return send({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'dev-e2e', version: '1.0.0' } } });",
		"	if (message.method === 'tools/list')",
		"		return send({ jsonrpc: '2.0', id: message.id, result: { tools: TOOLS.map((name) => ({ name, inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } })) } });",
		"	if (message.method === 'tools/call') {",
		'		const text = message.params.name + " ran"; // the breakpoint line',
		"		return send({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text }] } });",
		'	}',
		"	send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });",
		'});',
		'',
	].join('\n');
}

/** Adds the dev server (user settings: no trust question) with `dev`, runs `body`, removes it again. */
async function withDevServer(
	dev: Record<string, unknown>,
	body: (a: SwitchboardApi, file: vscode.Uri) => Promise<void>,
) {
	const a = await extensionApi<SwitchboardApi>();
	const folder = vscode.workspace.workspaceFolders![0]!.uri;
	const file = vscode.Uri.joinPath(folder, 'dev-server.js');
	await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(devServerSource(['alpha'])));
	const config = vscode.workspace.getConfiguration('mcpSwitchboard');
	const previous = config.inspect<Record<string, unknown>>('servers')?.globalValue;
	await config.update(
		'servers',
		{ ...(previous ?? {}), [DEV]: { type: 'stdio', command: 'node', args: [file.fsPath], dev } },
		vscode.ConfigurationTarget.Global,
	);
	try {
		await serverWithTool(DEV, 'alpha');
		await body(a, file);
	} finally {
		await config.update('servers', previous, vscode.ConfigurationTarget.Global);
		await waitFor(() => a.manager.get(DEV) === undefined, { timeoutMs: 10_000, message: `'${DEV}' removed again` });
		await vscode.workspace.fs.delete(file).then(undefined, () => undefined);
	}
}

function toolRows(a: SwitchboardApi): string[] {
	return a.tree.getChildren(a.tree.groupNode(DEV, 'tools')).map((node) => {
		const label = a.tree.getTreeItem(node).label;
		return typeof label === 'string' ? label : (label?.label ?? '');
	});
}

test(
	'dev.watch: editing a watched file restarts the server, and the Servers view shows its new tool',
	async () => {
		await withDevServer({ watch: 'dev-server.js' }, async (a, file) => {
			assert.deepEqual(toolRows(a), ['alpha']);
			await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(devServerSource(['alpha', 'beta'])));
			const rows = await waitFor(() => (toolRows(a).includes('beta') ? toolRows(a) : undefined), {
				timeoutMs: 30_000,
				message: 'the new tool beta in the Servers view after the edit',
			});
			assert.deepEqual(rows, ['alpha', 'beta']);
			assert.equal(a.workbench.devMode.restarts.get(DEV), 1, 'one restart for the edit');
			const result = await a.manager.callTool(DEV, 'beta', {});
			assert.deepEqual(result.content, [{ type: 'text', text: 'beta ran' }]);
		});
	},
	{ timeoutMs: 90_000 },
);

test(
	"dev.debug: the server starts under the Node inspector and VS Code's debugger attaches to it",
	async () => {
		await withDevServer({ debug: { type: 'node' } }, async (a) => {
			const session = await waitFor(() => a.workbench.devMode.debugSessions.get(DEV), {
				timeoutMs: 30_000,
				message: 'the debug session attached to the dev server',
			});
			const configuration = session.configuration;
			// js-debug takes the attach as its own type (pwa-node).
			assert.match(configuration.type, /node$/);
			assert.equal(configuration.request, 'attach');
			const config = a.manager.get(DEV)?.config;
			assert.equal(config?.type, 'stdio');
			// The tools still answer while the debugger is attached.
			const result = await a.manager.callTool(DEV, 'alpha', {});
			assert.deepEqual(result.content, [{ type: 'text', text: 'alpha ran' }]);
			await vscode.debug.stopDebugging(session);
		});
	},
	{ timeoutMs: 90_000 },
);
