// The workbench for server authors in a real VS Code, against server-everything: Record Session on a running server
// records its JSON-RPC exchange until Stop Recording, which saves a *.mcpsession.json file that
// `mcp-switchboard replay` serves back (the replay itself is tested in test/integration/sessionReplay.test.ts); Save as
// Session… on a Call History row saves the calls already made the same way, and the replay serves them. Call files
// with `expect` show a Test lens and, after a run, passed or failed with the reason beside it.
// Dev mode: a server whose `dev.watch` matches a file restarts when the file changes, and the Servers view shows the
// tool the edited server now has; with `dev.debug` the server runs under the Node inspector, VS Code's debugger
// attaches to it, and a breakpoint in a tool stops the call until Continue. Check This Server runs the official
// conformance suite against the stdio server through the loopback bridge and opens its report.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import { Commands } from '../../../src/vscode/commandIds';
import { repoRoot, serverWithTool, startedWithTool } from './elicitationSupport';
import type { ConformanceReport } from '../../../src/manager/conformance';
import { connect } from '../../../src/core';
import { EXTENSION_ID, extensionApi, hasDriver, pageTexts, screenshot, test, waitFor } from './harness';

const SERVER = 'everything';

function ready(): Promise<SwitchboardApi> {
	return startedWithTool<SwitchboardApi>(SERVER, 'echo');
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

/** The titles of the Run / Test lenses and verdicts on `file`, as the editor asks the provider for them. */
async function lensTitles(file: vscode.Uri): Promise<string[]> {
	const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', file);
	return (lenses ?? [])
		.filter((lens) => lens.command?.command === Commands.runInvocationFile)
		.map((lens) => lens.command!.title);
}

/** Runs `file` as clicking its Test lens does, failing with what the workbench shows when it does not settle. */
async function clickTestLens(file: vscode.Uri): Promise<{ report: { passed: boolean; failures: string[] } }> {
	const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', file);
	const test = lenses?.find((lens) => lens.command?.title.includes('Test'));
	assert.ok(test?.command, `a Test lens on ${file.path}`);
	let settled = false;
	const running = Promise.resolve(
		vscode.commands.executeCommand<{ report: { passed: boolean; failures: string[] } }>(
			test.command.command,
			...((test.command.arguments ?? []) as unknown[]),
		),
	).finally(() => (settled = true));
	await waitFor(() => settled, { timeoutMs: 45_000, message: `the Test lens's run of ${file.path}` }).catch(
		async (error: unknown) => {
			const shown = hasDriver() ? await pageTexts('.quick-input-widget, .notification-list-item-message') : [];
			throw new Error(`${String(error)}; the workbench shows: ${JSON.stringify(shown)}`);
		},
	);
	return running;
}

test(
	'a call file with expect shows Test, and after a run its lens reads passed, or failed with the reason',
	async () => {
		await ready();
		const folder = vscode.workspace.workspaceFolders![0]!.uri;
		const passing = vscode.Uri.joinPath(folder, 'echo-passes.mcpcall.json');
		const failing = vscode.Uri.joinPath(folder, 'echo-fails.mcpcall.json');
		const call = (expect: Record<string, unknown>) =>
			new TextEncoder().encode(
				`${JSON.stringify({ server: SERVER, tool: 'echo', arguments: { message: 'expected text' }, expect }, null, 2)}\n`,
			);
		await vscode.workspace.fs.writeFile(passing, call({ isError: false, text: 'expected text', match: '^Echo: ' }));
		await vscode.workspace.fs.writeFile(failing, call({ text: 'something else' }));
		try {
			for (const file of [passing, failing]) {
				await vscode.window.showTextDocument(file);
				assert.deepEqual(
					await waitFor(async () => {
						const titles = await lensTitles(file);
						return titles.length > 0 && titles;
					}),
					['$(play) Test echo on everything'],
				);
			}

			const passed = await clickTestLens(passing);
			assert.deepEqual(passed.report, { passed: true, failures: [] });
			const failed = await clickTestLens(failing);
			assert.equal(failed.report.passed, false);
			const reason = 'text does not contain "something else": got "Echo: expected text"';
			assert.deepEqual(failed.report.failures, [reason]);

			// What the person sees: the two files side by side, each with its verdict beside the Test lens.
			// One above the other, so each verdict has the editor's whole width; the MCP view beside them.
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
			await vscode.commands.executeCommand('workbench.view.extension.mcpSwitchboard');
			await vscode.commands.executeCommand('workbench.action.editorLayoutTwoRows');
			await vscode.window.showTextDocument(passing, { viewColumn: vscode.ViewColumn.One });
			await vscode.window.showTextDocument(failing, { viewColumn: vscode.ViewColumn.Two });
			assert.deepEqual(
				await waitFor(async () => ((await lensTitles(passing)).length === 2 ? lensTitles(passing) : undefined)),
				['$(play) Test echo on everything', '$(pass) passed'],
			);
			assert.deepEqual(
				await waitFor(async () => ((await lensTitles(failing)).length === 2 ? lensTitles(failing) : undefined)),
				['$(play) Test echo on everything', `$(error) failed: ${reason}`],
			);
			if (hasDriver()) {
				// The editors draw their lenses after their own debounce; in a full run an earlier suite's panel can leave
				// them a few lines each. Close the panel, and say what the lens lines held if the verdicts never show.
				await vscode.commands.executeCommand('workbench.action.closePanel');
				let texts = '';
				const shown = await waitFor(
					async () => {
						texts = (await pageTexts('.codelens-decoration')).join(' | ');
						return /passed/.test(texts) && /failed: text does not contain "something else"/.test(texts) && texts;
					},
					{
						timeoutMs: 45_000,
						message: () => `both verdicts in the editors' CodeLens lines (they read: ${texts || 'nothing'})`,
					},
				);
				assert.match(shown, /Test echo on everything/);
				await screenshot('server-authors');
			}
		} finally {
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
			await vscode.commands.executeCommand('workbench.action.editorLayoutSingle');
			await vscode.workspace.fs.delete(passing).then(undefined, () => undefined);
			await vscode.workspace.fs.delete(failing).then(undefined, () => undefined);
		}
	},
	{ timeoutMs: 150_000 },
);

test("Save as Session… on a Call History row saves the server's calls as a file the replay serves", async () => {
	const extension = await ready();
	const folder = vscode.workspace.workspaceFolders![0]!.uri;
	const file = vscode.Uri.joinPath(folder, 'from-history.mcpsession.json');
	const echoed = (message: string) =>
		extension.history
			.all()
			.find((e) => e.target.kind === 'tool' && e.target.name === 'echo' && e.target.arguments.message === message);
	await vscode.commands.executeCommand(Commands.callTool, {
		server: SERVER,
		tool: 'echo',
		arguments: { message: 'saved from the history' },
	});
	const entry = await waitFor(() => echoed('saved from the history'), { message: 'the echo call in the history' });
	const client = { close: async () => undefined } as { close(): Promise<void> };
	try {
		const saved = await vscode.commands.executeCommand<{ calls: number; skipped: string[] }>(
			Commands.historySaveSession,
			entry,
			file,
			'server',
		);
		const everythingCalls = extension.history.all().filter((e) => e.target.server === SERVER);
		assert.equal(saved.calls + saved.skipped.length, everythingCalls.length, 'every call with the server is counted');
		const session = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(file))) as {
			format: string;
			server: string;
			initialize: { serverInfo: { name: string } };
		};
		assert.equal(session.format, 'mcp-switchboard-session/1');
		assert.equal(session.server, SERVER);
		assert.equal(session.initialize.serverInfo.name, 'mcp-servers/everything');

		// `mcp-switchboard replay` serves it: a client lists the tools and gets the answer the history holds.
		const cli = vscode.Uri.joinPath(vscode.extensions.getExtension(EXTENSION_ID)!.extensionUri, 'dist', 'cli.js');
		const replay = await connect({
			type: 'stdio',
			command: process.execPath,
			args: [cli.fsPath, 'replay', file.fsPath],
		});
		client.close = () => replay.close();
		assert.ok((await replay.listTools()).some((tool) => tool.name === 'echo'));
		const answer = await replay.callTool('echo', { message: 'saved from the history' });
		assert.deepEqual(answer, entry.outcome.kind === 'result' ? entry.outcome.result : undefined);
	} finally {
		await client.close();
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

/** A DAP message as a tracker sees it. */
interface DapMessage {
	type?: string;
	event?: string;
	command?: string;
	body?: {
		reason?: string;
		threadId?: number;
		breakpoint?: { verified?: boolean; line?: number };
		breakpoints?: { verified?: boolean; line?: number; message?: string }[];
	};
}

/**
 * Watches every debug session's DAP traffic from the adapter (a tracker on '*': js-debug's parent attach session and
 * the child session it starts for the Node process alike), keeping the stops and the breakpoint states it reports.
 */
function watchDebugAdapters() {
	const stops: { session: vscode.DebugSession; threadId: number; reason: string }[] = [];
	const seen: string[] = [];
	let verified = false;
	const registration = vscode.debug.registerDebugAdapterTrackerFactory('*', {
		createDebugAdapterTracker: (session) => ({
			onDidSendMessage: (raw: unknown) => {
				const message = raw as DapMessage;
				if (message.type === 'event' && message.event === 'stopped') {
					stops.push({ session, threadId: message.body?.threadId ?? 0, reason: message.body?.reason ?? '' });
					seen.push(`${session.name}: stopped (${message.body?.reason})`);
				} else if (message.type === 'event' && message.event === 'breakpoint') {
					verified ||= message.body?.breakpoint?.verified === true;
					seen.push(`${session.name}: breakpoint ${JSON.stringify(message.body?.breakpoint)}`);
				} else if (message.type === 'response' && message.command === 'setBreakpoints') {
					verified ||= message.body?.breakpoints?.some((b) => b.verified) === true;
					seen.push(`${session.name}: setBreakpoints ${JSON.stringify(message.body?.breakpoints)}`);
				}
			},
		}),
	});
	return {
		stops,
		verified: () => verified,
		/** What the adapters said, for a failure's message. */
		seen: () => seen.join('\n') || 'nothing',
		dispose: () => {
			registration.dispose();
		},
	};
}

test(
	"dev.debug: VS Code's debugger attaches, and a breakpoint in the server's tool holds the call until Continue",
	async () => {
		// The breakpoint goes on the line of the tool's answer in the server's own file (1-based in DAP).
		const line = devServerSource(['alpha'])
			.split('\n')
			.findIndex((text) => text.includes('the breakpoint line'));
		const adapters = watchDebugAdapters();
		let breakpoint: vscode.SourceBreakpoint | undefined;
		try {
			await withDevServer({ debug: { type: 'node' } }, async (a, file) => {
				const session = await waitFor(() => a.workbench.devMode.debugSessions.get(DEV), {
					timeoutMs: 30_000,
					message: 'the debug session attached to the dev server',
				});
				// js-debug takes the attach as its own type (pwa-node).
				assert.match(session.configuration.type, /node$/);
				assert.equal(session.configuration.request, 'attach');
				breakpoint = new vscode.SourceBreakpoint(new vscode.Location(file, new vscode.Position(line, 0)));
				vscode.debug.addBreakpoints([breakpoint]);
				await waitFor(adapters.verified, { timeoutMs: 30_000, message: 'the debugger to bind the breakpoint' }).catch(
					(error: unknown) => {
						throw new Error(`${String(error)}; the adapters said:\n${adapters.seen()}`);
					},
				);
				let settled = false;
				const call = a.manager.callTool(DEV, 'alpha', {}).finally(() => (settled = true));
				const stop = await waitFor(() => adapters.stops[0], {
					timeoutMs: 30_000,
					message: 'the debugger to stop at the breakpoint in the tool',
				}).catch((error: unknown) => {
					throw new Error(`${String(error)}; the adapters said:\n${adapters.seen()}`);
				});
				assert.equal(stop.reason, 'breakpoint');
				console.log(
					`dev.debug e2e: stopped in session "${stop.session.name}" (${stop.session.id === session.id ? 'the attach session itself' : `a child of "${stop.session.parentSession?.name ?? 'none'}"`}); the adapters said:\n${adapters.seen()}`,
				);
				// The stop comes from the session js-debug starts for the Node process, under the attach session.
				assert.ok(
					stop.session.id === session.id || stop.session.parentSession?.id === session.id,
					`stopped in ${stop.session.name}, a session of the attach`,
				);
				const stack = (await stop.session.customRequest('stackTrace', { threadId: stop.threadId, levels: 1 })) as {
					stackFrames: { line: number; source?: { path?: string } }[];
				};
				assert.equal(stack.stackFrames[0]?.line, line + 1, 'stopped on the line of the breakpoint');
				assert.match(stack.stackFrames[0]?.source?.path ?? '', /dev-server\.js$/);
				assert.equal(settled, false, 'the call waits while the server is stopped');
				await stop.session.customRequest('continue', { threadId: stop.threadId });
				assert.deepEqual((await call).content, [{ type: 'text', text: 'alpha ran' }]);
				vscode.debug.removeBreakpoints([breakpoint]);
				breakpoint = undefined;
				await vscode.debug.stopDebugging(session);
			});
		} finally {
			if (breakpoint) vscode.debug.removeBreakpoints([breakpoint]);
			adapters.dispose();
			// The stop opened the server's file in an editor; the file is gone now.
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		}
	},
	{ timeoutMs: 120_000 },
);

test(
	'Check This Server on a stdio server: the conformance suite runs against fresh copies through the bridge, and its report opens',
	async () => {
		// The suite needs Node 22 or newer, which npx on this PATH may not be: the extension host's own Node runs the
		// project's copy of the suite (MCP_SWITCHBOARD_CONFORMANCE). In Electron that Node is Electron's, run as Node.
		const suite = path.join(repoRoot(), 'node_modules/conformance-0.1/dist/index.js');
		const saved = { suite: process.env.MCP_SWITCHBOARD_CONFORMANCE, asNode: process.env.ELECTRON_RUN_AS_NODE };
		process.env.MCP_SWITCHBOARD_CONFORMANCE = JSON.stringify([process.execPath, suite]);
		if (process.versions.electron) process.env.ELECTRON_RUN_AS_NODE = '1';
		try {
			const extension = await ready();
			assert.equal(extension.manager.get(SERVER)?.config.type, 'stdio');
			const report = await vscode.commands.executeCommand<ConformanceReport | undefined>(Commands.checkServer, SERVER);
			assert.ok(report, 'the check ran to its report');
			assert.equal(report.failure, undefined, `the suite ran: ${report.failure ?? ''}`);
			const passed = report.scenarios.filter((scenario) => scenario.passed).map((scenario) => scenario.name);
			// 30 server scenarios in 0.1.16; server-everything passes 11 over its own HTTP (conformanceStdio.test.ts)
			// and, through the bridge, DNS rebinding protection besides, which the bridge enforces.
			assert.ok(report.scenarios.length >= 20, `scenarios: ${report.scenarios.map((s) => s.name).join(', ')}`);
			assert.ok(passed.includes('dns-rebinding-protection'), `passed: ${passed.join(', ')}`);
			assert.ok(passed.length >= 10, `passed: ${passed.join(', ')}`);
			assert.equal(extension.manager.get(SERVER)?.state.kind, 'running', 'the running instance was left alone');
			// What the person sees: the report as a Markdown preview, each scenario with its verdict.
			const shown = await waitFor(
				() =>
					vscode.workspace.textDocuments.find((document) => document.getText().includes('dns-rebinding-protection')),
				{ timeoutMs: 30_000, message: 'the report loaded by its preview' },
			);
			// Read-only, not an untitled file: closing it never asks the person to save a report.
			assert.equal(shown.uri.scheme, 'switchboard-result');
			assert.equal(shown.isDirty, false);
			await waitFor(
				() =>
					vscode.window.tabGroups.all
						.flatMap((group) => group.tabs)
						.some((tab) => tab.input instanceof vscode.TabInputWebview && /markdown/i.test(tab.input.viewType)),
				{ timeoutMs: 30_000, message: 'the report in a Markdown preview tab' },
			);
			await screenshot('check-this-server');
		} finally {
			for (const [key, value] of [
				['MCP_SWITCHBOARD_CONFORMANCE', saved.suite],
				['ELECTRON_RUN_AS_NODE', saved.asNode],
			] as const) {
				if (value === undefined) delete process.env[key];
				else process.env[key] = value;
			}
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		}
	},
	{ timeoutMs: 300_000 },
);
