// MCP Apps in a real VS Code, with the published example server @modelcontextprotocol/server-basic-vanillajs: its
// get-time tool names a ui:// app; running the tool opens that app in a sandboxed webview beside the result (read
// inside its nested iframe through the page driver), the app's own button calls the tool through the Manager, its
// CSP blocks a connection it did not declare, and it gets VS Code's theme. Bad input from inside the app (garbage,
// a flood, a call of a switched-off tool, leaving its page) gets clear errors and disturbs nothing. The Call History
// reopens the app with the recorded result; the protocol view opens from the server's log.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import type { CallToolResult } from '../../../src/protocol/schema';
import { needDriver, quickInput, repoRoot, serverWithTool, waitForQuickInput } from './elicitationSupport';
import * as fs from 'node:fs';
import {
	answerInputBox,
	answerQuickPick,
	answerQuickPickAt,
	driver,
	extensionApi,
	pressKey,
	quickInputRows,
	screenshot,
	sleep,
	test,
	waitFor,
} from './harness';

const SERVER = 'basic';
const TOOL = 'get-time';

/** The user settings' servers before this suite added the example (put back by the last test). */
let original: { servers: Record<string, unknown> | undefined } | undefined;

/** Adds the example server to the user settings (no trust question); the last test removes it again. */
async function ready(): Promise<SwitchboardApi> {
	const extension = await extensionApi<SwitchboardApi>();
	const config = vscode.workspace.getConfiguration('mcpSwitchboard');
	const servers = config.inspect<Record<string, unknown>>('servers')?.globalValue ?? {};
	original ??= { servers: config.inspect<Record<string, unknown>>('servers')?.globalValue };
	if (!servers[SERVER]) {
		const script = path.join(repoRoot(), 'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js');
		await config.update(
			'servers',
			{ ...servers, [SERVER]: { type: 'stdio', command: 'node', args: [script, '--stdio'] } },
			vscode.ConfigurationTarget.Global,
		);
	}
	await serverWithTool(SERVER, TOOL, 60_000);
	return extension;
}

/** Evaluates `script` inside the app's frame (the srcdoc iframe in the panel's webview); the one value it gave. */
async function inApp<T>(script: string): Promise<T | undefined> {
	const values = (await driver({ action: 'frameEvaluate', frame: 'about:srcdoc', script }, 20_000)) as T[];
	return values[0];
}

/** Evaluates `script` in the panel's own page (the one with the caption), not the app. */
async function inPanel<T>(script: string): Promise<T | undefined> {
	const values = (await driver({
		action: 'frameEvaluate',
		script: `(() => { if (!document.getElementById('caption') || !document.getElementById('stage')) return undefined; return (${script}); })()`,
	})) as T[];
	return values[0];
}

/** A JSON-RPC request posted from inside the app, as the app would; resolves with the host's answer. */
function appRequest(method: string, params: unknown, timeoutMs = 10_000): string {
	return `new Promise((resolve) => {
		const id = 'e2e-' + Math.random();
		addEventListener('message', function listen(event) { if (event.data && event.data.id === id) { removeEventListener('message', listen); resolve(event.data); } });
		parent.postMessage({ jsonrpc: '2.0', id, method: ${JSON.stringify(method)}, params: ${JSON.stringify(params)} }, '*');
		setTimeout(() => resolve({ timeout: true }), ${timeoutMs});
	})`;
}

/** The consent question an app's call of get-time brings (it is not read-only; issue 27 defect 2). */
const APP_CONSENT = 'An MCP App wants to run';

/**
 * The app's own tools/call of get-time, started in the app; the consent question it brings is answered `answer`
 * (get-time says nothing of being read-only, so an app's call of it asks). Resolves with the host's answer.
 */
async function appCall<T>(answer = 'Run get-time', before = ''): Promise<T | undefined> {
	const key = `__call${Date.now()}`;
	await inApp(`(${before}window.${key} = ${appRequest('tools/call', { name: TOOL, arguments: {} }, 60_000)}, true)`);
	await waitForQuickInput(APP_CONSENT);
	await answerQuickPick(answer);
	return inApp<T>(`window.${key}`);
}

/** A loopback server that counts the requests it gets (and would answer any origin). */
async function listener(): Promise<{ url: string; hits: string[]; close(): void }> {
	const hits: string[] = [];
	const server = http.createServer((request, response) => {
		hits.push(request.url ?? '');
		response.writeHead(200, { 'content-type': 'text/html', 'access-control-allow-origin': '*' });
		response.end('<p>elsewhere</p>');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address() as { port: number };
	return { url: `http://127.0.0.1:${address.port}`, hits, close: () => server.close() };
}

function timeOf(result: CallToolResult | undefined): unknown {
	return (result?.structuredContent as { time?: unknown } | undefined)?.time;
}

async function openApp(extension: SwitchboardApi): Promise<CallToolResult> {
	await vscode.commands.executeCommand('mcpSwitchboard.callTool', { server: SERVER, tool: TOOL, arguments: {} });
	const entry = await waitFor(
		() =>
			extension.history.all().find((e) => e.target.kind === 'tool' && e.target.name === TOOL && e.origin === 'palette'),
		{ message: 'the palette call in the history' },
	);
	assert.equal(entry.outcome.kind, 'result');
	await waitFor(() => extension.apps.get(SERVER, TOOL)?.activeBridge?.isReady, {
		timeoutMs: 30_000,
		message: 'the app to finish ui/initialize in its panel',
	});
	return (entry.outcome as { result: CallToolResult }).result;
}

test(
	'running a tool with an MCP App renders the app in a sandboxed webview; its button calls the tool; its CSP holds',
	async () => {
		needDriver();
		const extension = await ready();
		const result = await openApp(extension);
		const time = timeOf(result);
		assert.match(String(time), /^\d{4}-\d\d-\d\dT/);
		// The app shows the tool's result, which it got as ui/notifications/tool-result.
		await waitFor(async () => (await inApp<string>(`document.getElementById('server-time')?.textContent`)) === time, {
			message: `the app showing the result's time ${String(time)}`,
		});
		const view = extension.apps.get(SERVER, TOOL);
		assert.equal(view?.activeBridge?.appInfo?.name, 'Get Time App');
		// VS Code's theme reached the app as the spec's style variables (applied by the app to its own document).
		const colours = await inPanel<{ editor: string }>(
			`({ editor: getComputedStyle(document.documentElement).getPropertyValue('--vscode-editor-background').trim() })`,
		);
		assert.ok(colours?.editor, "the panel page has VS Code's colours");
		await waitFor(
			async () =>
				(await inApp<string>(
					`getComputedStyle(document.documentElement).getPropertyValue('--color-background-primary').trim()`,
				)) === colours.editor,
			{ message: 'the app using the editor background as --color-background-primary' },
		);

		// The app's own button: tools/call from the app. Script in an app chose it, not the person, and get-time does not
		// say it only reads: it asks first, and Cancel runs nothing (issue 27 defect 2).
		const before = extension.history.all().length;
		await inApp(`(document.getElementById('get-time-btn').click(), true)`);
		const question = await waitForQuickInput(APP_CONSENT);
		assert.match(question.text, /basic › get-time/);
		await answerQuickPick('Cancel');
		await waitFor(async () => (await quickInput()) === undefined, { message: 'the question closed' });
		assert.equal(extension.history.all().length, before, 'the declined call did not run');
		// Allowed, it runs through the Manager (it lands in the history with origin "app").
		await inApp(`(document.getElementById('get-time-btn').click(), true)`);
		await waitForQuickInput(APP_CONSENT);
		await answerQuickPick('Run get-time');
		const appCall = await waitFor(
			() =>
				extension.history
					.all()
					.slice(0, extension.history.all().length - before)
					.find((e) => e.origin === 'app'),
			{ message: "the app's tools/call in the history" },
		);
		const newTime = timeOf(appCall.outcome.kind === 'result' ? (appCall.outcome.result as CallToolResult) : undefined);
		assert.ok(newTime !== undefined && newTime !== time, 'a new time came back');
		await waitFor(
			async () => (await inApp<string>(`document.getElementById('server-time')?.textContent`)) === newTime,
			{ message: 'the app showing the new time' },
		);

		// The sandbox: no same-origin access to the panel, and no connection the resource did not declare.
		assert.equal(
			await inApp<string>(
				`(() => { try { return String(parent.document.title); } catch (e) { return 'blocked: ' + e.name; } })()`,
			),
			'blocked: SecurityError',
		);
		const loopback = await listener();
		try {
			const outcome = await inApp<string>(
				`fetch(${JSON.stringify(`${loopback.url}/leak`)}).then(() => 'connected', (e) => 'refused: ' + e.message)`,
			);
			assert.match(String(outcome), /^refused/);
			assert.deepEqual(loopback.hits, [], 'nothing reached the undeclared origin');
		} finally {
			loopback.close();
		}
		await screenshot('mcp-app');
	},
	{ timeoutMs: 120_000 },
);

test(
	'an app that posts garbage, floods, calls a switched-off tool or leaves its page gets clear errors; nothing else is disturbed',
	async () => {
		needDriver();
		const extension = await ready();
		if (!extension.apps.get(SERVER, TOOL)?.activeBridge?.isReady) await openApp(extension);
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		// Garbage: not JSON-RPC at all, a request of another version; the last is answered InvalidRequest.
		const invalid = await appCall<{ error?: { code: number } }>(
			'Run get-time',
			`['hello', 42, null, { method: 7 }].forEach((g) => parent.postMessage(g, '*')), `,
		);
		assert.ok(invalid && !('timeout' in invalid), 'the bridge still answers after garbage');
		const unknown = await inApp<{ error?: { code: number; message: string } }>(appRequest('ui/no-such-method', {}));
		assert.equal(unknown?.error?.code, -32601, 'a method this host does not offer is MethodNotFound');
		const message = await inApp<{ error?: { code: number; message: string } }>(
			appRequest('ui/message', { role: 'user', content: [{ type: 'text', text: 'hi' }] }),
		);
		assert.match(message?.error?.message ?? '', /^Message sending denied/);

		// A switched-off tool: refused with a message that says so, and the server never sees the call.
		await config.update('tools.disabled', { [SERVER]: [TOOL] }, vscode.ConfigurationTarget.Global);
		try {
			await waitFor(() => !extension.enablement.isEnabled({ server: SERVER, tool: { name: TOOL } }), {
				message: 'get-time switched off',
			});
			const calls = extension.history.all().length;
			const refused = await inApp<{ error?: { code: number; message: string } }>(
				appRequest('tools/call', { name: TOOL, arguments: {} }),
			);
			assert.equal(refused?.error?.code, -32000);
			assert.match(refused?.error?.message ?? '', /switched off in the MCP view/);
			assert.equal(extension.history.all().length, calls, 'no call reached the Manager');
		} finally {
			await config.update('tools.disabled', undefined, vscode.ConfigurationTarget.Global);
		}

		// A flood: the app posts 1,000 messages a second until the bridge has dropped some; once it stops, the app is
		// heard again. The page forwards at most 300 a second; the bridge takes a burst of 200, then 100 a second, and drops
		// the rest. One burst is not enough on a loaded machine: the forwarded messages can reach the extension host spread
		// over a second or more, within the bridge's rate (a run at load 16 saw fewer than 50 dropped in 15 s), so the
		// flood lasts until the drop is seen, as a misbehaving app's would.
		const bridge = extension.apps.get(SERVER, TOOL)?.activeBridge;
		const droppedNow = () => bridge?.channel.dropped.rate ?? 0;
		await inApp(
			`(() => { const flood = () => { for (let i = 0; i < 200; i++) parent.postMessage({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'debug', data: 'flood ' + i } }, '*'); }; flood(); globalThis.e2eFlood = setInterval(flood, 200); return true; })()`,
		);
		const dropped = await waitFor(() => (droppedNow() >= 50 ? droppedNow() : undefined), {
			timeoutMs: 30_000,
			message: () => `the bridge dropping at least 50 of the flood (dropped ${droppedNow()})`,
		}).finally(() => inApp(`(clearInterval(globalThis.e2eFlood), true)`));
		assert.ok(dropped >= 50, `dropped ${dropped}`);
		// The flood is over once nothing more is dropped for a second (what was forwarded has arrived); the bridge's
		// allowance refills at 100 a second meanwhile.
		let last = droppedNow();
		let quietSince = Date.now();
		await waitFor(
			() => {
				if (droppedNow() !== last) [last, quietSince] = [droppedNow(), Date.now()];
				return Date.now() - quietSince >= 1000;
			},
			{ timeoutMs: 30_000, intervalMs: 100, message: () => `the flood to stop arriving (dropped ${droppedNow()})` },
		);
		await waitFor(() => extension.enablement.isEnabled({ server: SERVER, tool: { name: TOOL } }), {
			message: 'get-time switched on again',
		});
		const after = await appCall<{ result?: CallToolResult }>();
		assert.ok(timeOf(after?.result), `the app is answered after the flood: ${JSON.stringify(after)}`);

		// Leaving its page: the navigation is blocked by frame-src, the panel says so and closes the app; nothing loads.
		const loopback = await listener();
		try {
			await inApp(`(location.href = ${JSON.stringify(`${loopback.url}/away`)}, true)`).catch(() => undefined);
			const status = await waitFor(
				async () => {
					const text = await inPanel<string>(`document.getElementById('status').textContent`);
					return text?.includes('tried to leave its page') ? text : undefined;
				},
				{ message: 'the panel saying the app tried to leave' },
			);
			assert.match(status, /it was closed/);
			await waitFor(() => extension.apps.get(SERVER, TOOL)?.activeBridge === undefined, {
				message: 'the bridge closed',
			});
			assert.deepEqual(loopback.hits, [], 'the other page was never requested');
		} finally {
			loopback.close();
		}
		// The rest of the extension is undisturbed: the server runs and answers a palette call.
		assert.equal(extension.manager.get(SERVER)?.state.kind, 'running');
		const again = await extension.manager.callTool(SERVER, TOOL, {});
		assert.ok(timeOf(again));
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	},
	{ timeoutMs: 150_000 },
);

test(
	'Open in the Call History shows the app again with the recorded result (nothing runs again)',
	async () => {
		needDriver();
		const extension = await ready();
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		await waitFor(() => extension.apps.get(SERVER, TOOL) === undefined, { message: 'the app panel closed' });
		const entry = extension.history
			.all()
			.find(
				(e) =>
					e.target.kind === 'tool' && e.target.name === TOOL && e.origin === 'palette' && e.outcome.kind === 'result',
			);
		assert.ok(entry, 'a palette call of get-time in the history');
		const recorded = timeOf((entry.outcome as { result: CallToolResult }).result);
		const count = extension.history.all().length;
		await vscode.commands.executeCommand('mcpSwitchboard.history.open', entry);
		await waitFor(() => extension.apps.get(SERVER, TOOL)?.activeBridge?.isReady, {
			timeoutMs: 30_000,
			message: 'the app opened from the history',
		});
		await waitFor(
			async () => (await inApp<string>(`document.getElementById('server-time')?.textContent`)) === recorded,
			{ message: `the app showing the recorded time ${String(recorded)}` },
		);
		assert.equal(extension.history.all().length, count, 'opening ran nothing');
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	},
	{ timeoutMs: 90_000 },
);

/** The tab of the open app panel (VS Code's tab API: what a person sees in the tab bar). */
function appTab(): vscode.Tab | undefined {
	return vscode.window.tabGroups.all
		.flatMap((group) => group.tabs)
		.find((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('mcpSwitchboard.app'));
}

/** Waits until the quick input (here VS Code's own save dialog) is shown with a value ending in `suffix`; its value. */
async function quickInputShown(suffix: string): Promise<string> {
	return waitFor(
		async () => {
			const value = (await driver({
				action: 'evaluate',
				script: `(() => { const w = document.querySelector('.quick-input-widget'); if (!w || w.style.display === 'none') return undefined; return w.querySelector('.quick-input-box input')?.value ?? ''; })()`,
			})) as string | undefined;
			return typeof value === 'string' && value.endsWith(suffix) ? value : undefined;
		},
		{ timeoutMs: 30_000, message: `VS Code's save dialog suggesting a path ending in ${suffix}` },
	);
}

test(
	"closing the app's tab like a person ends its bridge (nothing more runs); the next call opens a fresh app",
	async () => {
		needDriver();
		const extension = await ready();
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		await waitFor(() => extension.apps.get(SERVER, TOOL) === undefined, { message: 'no app panel' });
		await openApp(extension);
		const first = extension.apps.get(SERVER, TOOL);
		const bridge = first?.activeBridge;
		assert.ok(first && bridge?.isReady);
		const tab = await waitFor(() => appTab(), { message: "the app's tab" });
		assert.equal(tab.label, 'App: Get Time');
		await vscode.window.tabGroups.close(tab);
		await waitFor(() => extension.apps.get(SERVER, TOOL) === undefined, {
			message: 'the panel forgotten once its tab closed',
		});
		assert.equal(bridge.isClosed, true, 'the bridge ended with its tab');
		assert.equal(appTab(), undefined);
		// What the dead app would still say is not handled: its call never reaches the Manager.
		// App calls fold into one row per tool (#34.1): count the calls the rows hold, not the rows.
		const appCalls = () =>
			extension.history
				.all()
				.filter((e) => e.origin === 'app')
				.reduce((sum, e) => sum + (e.repeats?.count ?? 1), 0);
		const appCallsBefore = appCalls();
		bridge.receive({ jsonrpc: '2.0', id: 'after-close', method: 'tools/call', params: { name: TOOL, arguments: {} } });

		// The same tool again: a fresh panel, bridge and handshake, showing the new result; its own button works.
		const result = await openApp(extension);
		const second = extension.apps.get(SERVER, TOOL);
		assert.ok(second && second !== first, 'a new panel');
		assert.ok(second.activeBridge && second.activeBridge !== bridge, 'a new bridge');
		await waitFor(
			async () => (await inApp<string>(`document.getElementById('server-time')?.textContent`)) === timeOf(result),
			{ message: 'the fresh app showing the new result' },
		);
		await inApp(`(document.getElementById('get-time-btn').click(), true)`);
		await waitForQuickInput(APP_CONSENT);
		await answerQuickPick('Run get-time');
		await waitFor(() => appCalls() > appCallsBefore, { message: "the fresh app's call in the history" });
		assert.equal(appCalls(), appCallsBefore + 1, "one app call: the fresh app's, none from the closed one");
	},
	{ timeoutMs: 120_000 },
);

test(
	'Close MCP App in the editor title sends ui/resource-teardown; the real app answers before its panel goes',
	async () => {
		needDriver();
		const extension = await ready();
		if (!extension.apps.get(SERVER, TOOL)?.activeBridge?.isReady) await openApp(extension);
		const view = extension.apps.get(SERVER, TOOL);
		const bridge = view?.activeBridge;
		assert.ok(view && bridge);
		view.panel.reveal(undefined, false);
		const button = '.editor-actions .action-label[aria-label^="Close MCP App"]';
		await waitFor(
			async () => ((await driver({ action: 'texts', selector: button })) as string[]).length > 0 && view.panel.active,
			{ message: 'Close MCP App in the title of the active app panel' },
		);
		await driver({ action: 'click', selector: button });
		await waitFor(() => extension.apps.get(SERVER, TOOL) === undefined, { message: 'the app panel closed' });
		assert.equal(
			bridge.teardownOutcome,
			'answered',
			'the app answered ui/resource-teardown before its panel was disposed',
		);
		assert.equal(bridge.isClosed, true);
	},
	{ timeoutMs: 90_000 },
);

test(
	'display modes: the app goes fullscreen (its editor group maximised) and back; pip and unknown modes change nothing',
	async () => {
		needDriver();
		const extension = await ready();
		await openApp(extension);
		const view = extension.apps.get(SERVER, TOOL);
		assert.ok(view);
		// What the app is told: inline now, and the two modes this host really offers.
		await inApp(
			`(window.__modes = [], addEventListener('message', (e) => { if (e.data && e.data.method === 'ui/notifications/host-context-changed' && e.data.params && e.data.params.displayMode) window.__modes.push(e.data.params.displayMode); }), true)`,
		);
		const inlineWidth = await waitFor(
			async () => (await inPanel<number>(`document.getElementById('stage').clientWidth`)) || undefined,
			{ message: "the panel's width" },
		);
		const full = await inApp<{ result?: { mode: string } }>(
			appRequest('ui/request-display-mode', { mode: 'fullscreen' }, 30_000),
		);
		assert.deepEqual(full?.result, { mode: 'fullscreen' });
		assert.equal(view.displayMode, 'fullscreen');
		const fullWidth = await waitFor(
			async () => {
				const width = (await inPanel<number>(`document.getElementById('stage').clientWidth`)) ?? 0;
				return width > inlineWidth * 1.4 ? width : undefined;
			},
			{ message: `the app wider than ${inlineWidth}px (its group maximised)` },
		);
		await waitFor(async () => (await inApp<string[]>(`window.__modes`))?.includes('fullscreen'), {
			message: 'host-context-changed with displayMode fullscreen in the app',
		});
		await screenshot('mcp-app-fullscreen');
		// pip is not offered: the current mode comes back; a mode the spec does not know is InvalidParams.
		const pip = await inApp<{ result?: { mode: string } }>(appRequest('ui/request-display-mode', { mode: 'pip' }));
		assert.deepEqual(pip?.result, { mode: 'fullscreen' });
		const banana = await inApp<{ error?: { code: number; message: string } }>(
			appRequest('ui/request-display-mode', { mode: 'banana' }),
		);
		assert.equal(banana?.error?.code, -32602);
		assert.match(banana?.error?.message ?? '', /one of inline, fullscreen, pip/);
		const back = await inApp<{ result?: { mode: string } }>(
			appRequest('ui/request-display-mode', { mode: 'inline' }, 30_000),
		);
		assert.deepEqual(back?.result, { mode: 'inline' });
		await waitFor(
			async () =>
				((await inPanel<number>(`document.getElementById('stage').clientWidth`)) ?? fullWidth) < fullWidth * 0.8,
			{ message: 'the app back to its inline width' },
		);
		assert.deepEqual(await inApp<string[]>(`window.__modes`), ['fullscreen', 'inline']);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	},
	{ timeoutMs: 120_000 },
);

test(
	"ui/download-file saves through VS Code's save dialog; a cancel, bad content and web links are clear errors",
	async () => {
		needDriver();
		const extension = await ready();
		await openApp(extension);
		const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
		assert.ok(folder, 'a workspace folder');
		const target = path.join(folder, 'apps-e2e-download.json');
		fs.rmSync(target, { force: true });
		const contents = [
			{
				type: 'resource',
				resource: { uri: 'file:///exports/report.json', mimeType: 'application/json', text: '{"from":"the app"}' },
			},
		];
		// The request stays open while the person answers the dialog: started in the app, read later.
		await inApp(`(window.__download = ${appRequest('ui/download-file', { contents }, 120_000)}, true)`);
		// The dialog suggests the app's file name in the workspace folder.
		const suggested = await quickInputShown('/report.json');
		assert.ok(suggested.startsWith(folder), suggested);
		await answerInputBox(target);
		const saved = await waitFor(
			async () => {
				const answer = await inApp<{ result?: unknown; error?: unknown; timeout?: boolean }>(
					`Promise.race([window.__download, new Promise((r) => setTimeout(() => r(undefined), 200))])`,
				);
				return answer;
			},
			{ timeoutMs: 30_000, message: "the app's answer to ui/download-file" },
		);
		assert.deepEqual(saved, { jsonrpc: '2.0', id: (saved as { id?: unknown }).id, result: {} });
		assert.equal(fs.readFileSync(target, 'utf8'), '{"from":"the app"}');

		// Cancelled: the app hears "denied", nothing is written.
		await inApp(
			`(window.__download = ${appRequest('ui/download-file', { contents: [{ type: 'resource', resource: { uri: 'file:///other.txt', text: 'no' } }] }, 120_000)}, true)`,
		);
		await quickInputShown('/other.txt');
		await pressKey('Escape');
		const cancelled = await waitFor(
			async () =>
				inApp<{ error?: { code: number; message: string } }>(
					`Promise.race([window.__download, new Promise((r) => setTimeout(() => r(undefined), 200))])`,
				),
			{ timeoutMs: 30_000, message: 'the answer to the cancelled download' },
		);
		assert.deepEqual(cancelled.error && [cancelled.error.code, cancelled.error.message], [
			-32000,
			'Download denied by user',
		]);
		assert.equal(fs.existsSync(path.join(folder, 'other.txt')), false);

		// Bad content is refused before any dialog: a wrong type, a broken blob, a web link.
		const image = await inApp<{ error?: { code: number; message: string } }>(
			appRequest('ui/download-file', { contents: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] }),
		);
		assert.equal(image?.error?.code, -32602);
		assert.match(image?.error?.message ?? '', /is of type "image"; only embedded resources/);
		const blob = await inApp<{ error?: { code: number; message: string } }>(
			appRequest('ui/download-file', {
				contents: [{ type: 'resource', resource: { uri: 'file:///x.bin', blob: '%%%' } }],
			}),
		);
		assert.match(blob?.error?.message ?? '', /blob is not base64/);
		const link = await inApp<{ error?: { code: number; message: string } }>(
			appRequest('ui/download-file', {
				contents: [{ type: 'resource_link', uri: 'https://example.com/x.pdf', name: 'x.pdf' }],
			}),
		);
		assert.match(link?.error?.message ?? '', /^Policy violation/);
		const open = (await driver({
			action: 'evaluate',
			script: `(() => { const w = document.querySelector('.quick-input-widget'); return Boolean(w && w.style.display !== 'none'); })()`,
		})) as boolean;
		assert.equal(open, false, 'no dialog opened for bad content');
		// The app still works.
		const after = await appCall<{ result?: CallToolResult }>();
		assert.ok(timeOf(after?.result));
		fs.rmSync(target, { force: true });
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	},
	{ timeoutMs: 150_000 },
);

test(
	'a burst of ui/open-link requests asks once (about the first); the rest are refused at once, not 50 quick picks',
	async () => {
		// Issue 27 defect 2: every request opened its own quick pick, each replacing the last.
		needDriver();
		const extension = await ready();
		if (!extension.apps.get(SERVER, TOOL)?.activeBridge?.isReady) await openApp(extension);
		const links = Array.from({ length: 50 }, (_, i) => `https://example.com/burst/${i + 1}`);
		await inApp(
			`(window.__links = Promise.all(${JSON.stringify(links)}.map((url) => ${appRequest('ui/open-link', { url: '__URL__' }, 60_000).replace('"__URL__"', 'url')})), true)`,
		);
		const question = await waitForQuickInput('wants to open a link');
		assert.match(question.text + question.placeholder, /burst\/1$|burst\/1\b/, 'the question is about the first link');
		// The others were answered while the question is open: the app is not left waiting, and nothing replaced it.
		await sleep(1000);
		const still = await quickInput();
		assert.match(`${still?.text} ${still?.placeholder}`, /burst\/1\b/, 'the first question stays on screen');
		await answerQuickPick('Do not open');
		const answers = await inApp<unknown[]>(`window.__links`);
		assert.equal(answers?.length, 50, 'every request was answered');
		// The answered pick can stay on screen for a moment while it closes; then nothing may follow it.
		await waitFor(async () => (await quickInput()) === undefined, {
			timeoutMs: 5_000,
			message: 'the answered link question to close',
		});
		await sleep(1000);
		assert.equal(await quickInput(), undefined, 'no other link question followed');
	},
	{ timeoutMs: 90_000 },
);

test(
	'running the tool twice while the app is torn down shows the newer result, with one bridge open',
	async () => {
		// Issue 27 defect 8: the older run finished its teardown last and replaced the newer one, leaving a bridge open.
		needDriver();
		const extension = await ready();
		if (!extension.apps.get(SERVER, TOOL)?.activeBridge?.isReady) await openApp(extension);
		const view = extension.apps.get(SERVER, TOOL);
		assert.ok(view);
		const older: CallToolResult = {
			content: [{ type: 'text', text: '2001-01-01T00:00:00.000Z' }],
			structuredContent: { time: '2001-01-01T00:00:00.000Z' },
		};
		const newer: CallToolResult = {
			content: [{ type: 'text', text: '2002-02-02T00:00:00.000Z' }],
			structuredContent: { time: '2002-02-02T00:00:00.000Z' },
		};
		// Both runs start within the old app's teardown window.
		const first = extension.apps.open(SERVER, TOOL, {}, older);
		const second = extension.apps.open(SERVER, TOOL, {}, newer);
		await Promise.all([first, second]);
		assert.equal(view.run?.result, newer, 'the newer run is the one shown');
		const bridge = await waitFor(() => (view.activeBridge?.isReady ? view.activeBridge : undefined), {
			timeoutMs: 30_000,
			message: 'the app of the newer run ready',
		});
		assert.equal(view.lastBridge, bridge, 'no bridge was made after the newer one');
		await waitFor(
			async () => (await inApp<string>(`document.getElementById('server-time')?.textContent`)) === timeOf(newer),
			{ message: 'the app showing the newer time' },
		);
		await sleep(1000);
		assert.equal(view.run?.result, newer, 'and it stays');
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	},
	{ timeoutMs: 90_000 },
);

test(
	"a frame the app nests cannot pose as the extension to the panel's page",
	async () => {
		// Issue 27 defect 11: the relay page took messages from any window other than the app frame as the extension's.
		needDriver();
		const extension = await ready();
		if (!extension.apps.get(SERVER, TOOL)?.activeBridge?.isReady) await openApp(extension);
		const nested = `<script>parent.parent.postMessage({ type: 'status', text: 'forged by a nested frame', error: true }, '*');</script>`;
		await inApp(
			`(() => { const f = document.createElement('iframe'); f.srcdoc = ${JSON.stringify(nested)}; document.body.appendChild(f); return true; })()`,
		);
		await sleep(1500);
		const status = await inPanel<string>(`document.getElementById('status').textContent`);
		assert.doesNotMatch(status ?? '', /forged/, 'the forged status was ignored');
		assert.equal(
			await inPanel<number>(`document.querySelectorAll('#stage iframe').length`),
			1,
			'the app is still there',
		);
		assert.ok(extension.apps.get(SERVER, TOOL)?.activeBridge?.isReady, 'its bridge still runs');
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	},
	{ timeoutMs: 60_000 },
);

test(
	'an open app keeps its server from stopping when idle; once the app is closed, the server stops',
	async () => {
		needDriver();
		const extension = await ready();
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const previousAutoStart = config.inspect<boolean>('autoStart')?.workspaceValue;
		// The e2e workspace starts servers with autoStart, which never idles: here the server starts on need and stops
		// after 1.2 s unused (10 minutes by default).
		await config.update('autoStart', false, vscode.ConfigurationTarget.Workspace);
		await config.update('stopWhenIdleMinutes', 0.02, vscode.ConfigurationTarget.Workspace);
		try {
			await extension.settled();
			await openApp(extension);
			assert.equal(extension.manager.get(SERVER)?.state.kind, 'running');
			// Five idle periods with the app open and nothing called: the server runs throughout.
			for (const end = Date.now() + 6000; Date.now() < end;) {
				assert.equal(extension.manager.get(SERVER)?.state.kind, 'running', 'the open app holds its server');
				await sleep(100);
			}
			assert.ok(extension.apps.get(SERVER, TOOL)?.activeBridge?.isReady, "the app's bridge still runs");
			// Closing its tab, as a person does, releases the server.
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
			await waitFor(() => extension.apps.get(SERVER, TOOL) === undefined, { message: 'the app panel closed' });
			await waitFor(
				() => {
					assert.deepEqual(extension.manager.get(SERVER)?.state, { kind: 'stopped', onDemand: 'idle' });
					return true;
				},
				{ timeoutMs: 20_000, message: 'the server stopped while idle after its app closed' },
			);
		} finally {
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
			await config.update('stopWhenIdleMinutes', undefined, vscode.ConfigurationTarget.Workspace);
			await config.update('autoStart', previousAutoStart, vscode.ConfigurationTarget.Workspace);
			await extension.settled();
		}
	},
	{ timeoutMs: 90_000 },
);

test(
	"Show Protocol opens from the server's log (the Output view's title), offering that server first",
	async () => {
		needDriver();
		const extension = await ready();
		await vscode.commands.executeCommand('mcpSwitchboard.showServerLog', SERVER);
		const selector = '.part.panel .title-actions .action-label[aria-label^="Show Protocol"]';
		await waitFor(async () => ((await driver({ action: 'texts', selector })) as string[]).length > 0, {
			message: "Show Protocol in the Output view's title",
		});
		await driver({ action: 'click', selector });
		// The server picker opens after the click: wait for it (with this server first) before answering it.
		await waitFor(async () => (await quickInputRows())[0]?.label === SERVER, {
			timeoutMs: 30_000,
			message: `the server picker offering '${SERVER}' first`,
		});
		await answerQuickPickAt(0);
		try {
			const panel = await waitFor(() => extension.protocol.get(SERVER), { message: `the protocol view of ${SERVER}` });
			assert.equal(panel.server, SERVER);
		} finally {
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
			await vscode.commands.executeCommand('workbench.action.closePanel');
			// The next suites count servers: the example goes again (the settings file alone is put back only after the run).
			await vscode.workspace
				.getConfiguration('mcpSwitchboard')
				.update('servers', original?.servers, vscode.ConfigurationTarget.Global);
			await waitFor(() => extension.manager.get(SERVER) === undefined, {
				timeoutMs: 15_000,
				message: `'${SERVER}' removed again`,
			});
		}
	},
	{ timeoutMs: 60_000 },
);
