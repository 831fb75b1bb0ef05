// The host side of the MCP Apps bridge (src/manager/apps), driven as an app would drive it: JSON-RPC messages posted
// in, answers and notifications read from what the bridge posts back.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import {
	AppBridge,
	APP_REQUEST_DENIED,
	type AppBridgeHost,
	type AppDisplayMode,
} from '../../src/manager/apps/appBridge';
import { downloadFileName } from '../../src/manager/apps/appDownload';
import { appContentSecurityPolicy } from '../../src/manager/apps/appCsp';
import { appContent, appResourceUri, callableByApp, visibleToModel } from '../../src/manager/apps/appMeta';
import type { JsonRpcMessage } from '../../src/protocol/jsonrpc';
import { McpError } from '../../src/protocol/mcpError';
import type { CallToolResult, Tool } from '../../src/protocol/schema';

const TOOL: Tool = {
	name: 'get-time',
	inputSchema: { type: 'object' },
	_meta: { ui: { resourceUri: 'ui://get-time/app.html' } },
};

interface Harness {
	bridge: AppBridge;
	sent: JsonRpcMessage[];
	calls: string[];
	links: string[];
	logs: string[];
	sizes: { width?: number; height?: number }[];
	teardownRequests: number;
	logger: MemoryLogger;
	now: { value: number };
	/** Posts a message as the app and waits for the bridge's async work to settle. */
	post(message: unknown): Promise<void>;
	/** The answer to request `id`. */
	answer(id: number | string): Promise<Record<string, unknown>>;
}

function harness(
	overrides: Partial<AppBridgeHost> = {},
	tools: Tool[] = [TOOL],
	displayModes: AppDisplayMode[] = ['inline'],
): Harness {
	const sent: JsonRpcMessage[] = [];
	const calls: string[] = [];
	const links: string[] = [];
	const logs: string[] = [];
	const sizes: { width?: number; height?: number }[] = [];
	const now = { value: 0 };
	const logger = new MemoryLogger('debug');
	const h: Partial<Harness> = { sent, calls, links, logs, sizes, teardownRequests: 0, logger, now };
	const host: AppBridgeHost = {
		tool: (name) => tools.find((t) => t.name === name),
		refusal: () => undefined,
		callTool: async (tool, args) => {
			calls.push(`${tool.name} ${JSON.stringify(args)}`);
			return { content: [{ type: 'text', text: "twelve o'clock" }] };
		},
		readResource: async (uri) => ({ contents: [{ uri, text: 'hello' }] }),
		openLink: async (url) => {
			links.push(url);
			return true;
		},
		log: (level, text) => logs.push(`${level}: ${text}`),
		sizeChanged: (size) => sizes.push(size),
		requestTeardown: () => (h.teardownRequests! += 1),
		setDisplayMode: async (mode) => mode,
		...overrides,
	};
	const bridge = new AppBridge(host, {
		server: 'basic',
		uri: 'ui://get-time/app.html',
		tool: TOOL,
		arguments: { zone: 'UTC' },
		hostInfo: { name: 'mcp-switchboard', version: '0.1.0' },
		hostContext: { theme: 'dark', displayMode: 'inline', locale: 'en' },
		csp: {},
		displayModes,
		post: (message) => void sent.push(message),
		logger,
		clock: {
			now: () => now.value,
			setTimeout: (fn, ms) => setTimeout(fn, ms),
			clearTimeout: (t) => clearTimeout(t as NodeJS.Timeout),
		},
	});
	const settle = () => new Promise((resolve) => setImmediate(resolve));
	return Object.assign(h, {
		bridge,
		post: async (message: unknown) => {
			bridge.receive(message);
			for (let i = 0; i < 5; i++) await settle();
		},
		answer: async (id: number | string) => {
			for (let i = 0; i < 50; i++) {
				const found = sent.find((m) => 'id' in m && m.id === id && !('method' in m));
				if (found) return found as unknown as Record<string, unknown>;
				await settle();
			}
			throw new Error(`no answer to ${id}: ${JSON.stringify(sent)}`);
		},
	}) as Harness;
}

const INIT = {
	jsonrpc: '2.0',
	id: 1,
	method: 'ui/initialize',
	params: { protocolVersion: '2026-01-26', appInfo: { name: 'Get Time App', version: '1.0.0' }, appCapabilities: {} },
};

async function initialized(h: Harness): Promise<void> {
	await h.post(INIT);
	await h.post({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
}

function methods(h: Harness): string[] {
	return h.sent.filter((m) => 'method' in m).map((m) => (m as { method: string }).method);
}

test('ui/initialize is answered with host info, capabilities and context (theme, tool); input and result follow the initialized notification', async () => {
	const h = harness();
	h.bridge.toolResult({ content: [{ type: 'text', text: 'done' }], structuredContent: { time: 'noon' } });
	await h.post(INIT);
	const answer = (await h.answer(1)).result as Record<string, unknown>;
	assert.equal(answer.protocolVersion, '2026-01-26');
	assert.deepEqual(answer.hostInfo, { name: 'mcp-switchboard', version: '0.1.0' });
	const capabilities = answer.hostCapabilities as Record<string, unknown>;
	assert.deepEqual(Object.keys(capabilities).sort(), [
		'logging',
		'openLinks',
		'sandbox',
		'serverResources',
		'serverTools',
	]);
	const context = answer.hostContext as Record<string, unknown>;
	assert.equal(context.theme, 'dark');
	assert.deepEqual(context.toolInfo, { tool: TOOL });
	// "The Host MUST NOT send any request or notification to the View before it receives an initialized notification."
	assert.deepEqual(methods(h), []);
	await h.post({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
	assert.deepEqual(methods(h), ['ui/notifications/tool-input', 'ui/notifications/tool-result']);
	assert.deepEqual((h.sent[1] as { params: unknown }).params, { arguments: { zone: 'UTC' } });
	assert.deepEqual((h.sent[2] as unknown as { params: CallToolResult }).params.structuredContent, { time: 'noon' });
	assert.equal(h.bridge.isReady, true);
	// Later context changes are sent as they happen; a result is sent once.
	h.bridge.setHostContext({ theme: 'light' });
	h.bridge.toolResult({ content: [] });
	h.bridge.toolCancelled('late');
	await h.post({ jsonrpc: '2.0', id: 2, method: 'ping' });
	assert.deepEqual(methods(h), [
		'ui/notifications/tool-input',
		'ui/notifications/tool-result',
		'ui/notifications/host-context-changed',
	]);
	assert.deepEqual((await h.answer(2)).result, {});
});

test("the app calls its own server's tools through the host; unknown, app-invisible and refused tools get clear errors", async () => {
	const modelOnly: Tool = {
		name: 'delete-all',
		inputSchema: { type: 'object' },
		_meta: { ui: { visibility: ['model'] } },
	};
	const disabled: Tool = { name: 'disabled-one', inputSchema: { type: 'object' } };
	const h = harness(
		{
			refusal: (tool) =>
				tool.name === 'disabled-one' ? "The tool 'disabled-one' is disabled in MCP Switchboard" : undefined,
		},
		[TOOL, modelOnly, disabled],
	);
	// Before the handshake nothing runs.
	await h.post({ jsonrpc: '2.0', id: 'early', method: 'tools/call', params: { name: 'get-time' } });
	assert.equal(((await h.answer('early')).error as { code: number }).code, -32600);
	await initialized(h);
	await h.post({
		jsonrpc: '2.0',
		id: 10,
		method: 'tools/call',
		params: { name: 'get-time', arguments: { zone: 'CET' } },
	});
	assert.deepEqual(((await h.answer(10)).result as CallToolResult).content, [{ type: 'text', text: "twelve o'clock" }]);
	await h.post({ jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'nope' } });
	await h.post({ jsonrpc: '2.0', id: 12, method: 'tools/call', params: { name: 'delete-all' } });
	await h.post({ jsonrpc: '2.0', id: 13, method: 'tools/call', params: { name: 'disabled-one' } });
	await h.post({ jsonrpc: '2.0', id: 14, method: 'tools/call', params: { name: 'get-time', arguments: [1, 2] } });
	const error = async (id: number) => (await h.answer(id)).error as { code: number; message: string };
	assert.match((await error(11)).message, /MCP server 'basic' has no tool named 'nope'/);
	assert.deepEqual(
		[(await error(12)).code, (await error(12)).message],
		[
			APP_REQUEST_DENIED,
			'The tool \'delete-all\' is not callable by apps (its _meta.ui.visibility does not include "app")',
		],
	);
	assert.deepEqual(
		[(await error(13)).code, (await error(13)).message],
		[APP_REQUEST_DENIED, "The tool 'disabled-one' is disabled in MCP Switchboard"],
	);
	assert.equal((await error(14)).code, -32602);
	assert.deepEqual(h.calls, ['get-time {"zone":"CET"}'], 'only the allowed call reached the host');
	assert.ok(
		h.logger.entries.some((e) => e.level === 'warn' && e.message.includes("refused its call of 'disabled-one'")),
	);
	// A host that refuses (consent denied, server stopped) is answered with its McpError as it is.
	const refusing = harness({
		callTool: () => Promise.reject(new McpError(APP_REQUEST_DENIED, 'The person declined the call of get-time')),
	});
	await initialized(refusing);
	await refusing.post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get-time' } });
	assert.deepEqual((await refusing.answer(3)).error, {
		code: APP_REQUEST_DENIED,
		message: 'The person declined the call of get-time',
	});
});

test('open-link opens only http(s)/mailto after the host agreed; resources/read, logs, sizes, display mode and teardown requests', async () => {
	let agree = true;
	const h = harness({
		openLink: async (url) => {
			h.links.push(url);
			return agree;
		},
	});
	await initialized(h);
	await h.post({
		jsonrpc: '2.0',
		id: 101,
		method: 'ui/open-link',
		params: { url: 'https://modelcontextprotocol.io/' },
	});
	assert.deepEqual((await h.answer(101)).result, {});
	agree = false;
	await h.post({ jsonrpc: '2.0', id: 102, method: 'ui/open-link', params: { url: 'https://example.com/x' } });
	assert.deepEqual((await h.answer(102)).error, { code: APP_REQUEST_DENIED, message: 'Link opening denied by user' });
	await h.post({ jsonrpc: '2.0', id: 103, method: 'ui/open-link', params: { url: 'javascript:alert(1)' } });
	await h.post({ jsonrpc: '2.0', id: 104, method: 'ui/open-link', params: { url: 'file:///etc/passwd' } });
	assert.match(((await h.answer(103)).error as { message: string }).message, /^Invalid URL/);
	assert.match(((await h.answer(104)).error as { message: string }).message, /^Invalid URL/);
	assert.deepEqual(
		h.links,
		['https://modelcontextprotocol.io/', 'https://example.com/x'],
		'the host was asked only for the web links',
	);

	await h.post({ jsonrpc: '2.0', id: 105, method: 'resources/read', params: { uri: 'ui://get-time/app.html' } });
	assert.deepEqual((await h.answer(105)).result, { contents: [{ uri: 'ui://get-time/app.html', text: 'hello' }] });
	await h.post({
		jsonrpc: '2.0',
		method: 'notifications/message',
		params: { level: 'warning', data: { hello: 'log' } },
	});
	await h.post({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { width: 400.4, height: 1e12 } });
	await h.post({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { width: 'wide', height: -3 } });
	assert.deepEqual(h.logs, ['warning: {"hello":"log"}']);
	assert.deepEqual(h.sizes, [{ width: 400, height: 100_000 }], 'a nonsense size changes nothing; a huge one is capped');
	await h.post({ jsonrpc: '2.0', id: 106, method: 'ui/request-display-mode', params: { mode: 'fullscreen' } });
	assert.deepEqual((await h.answer(106)).result, { mode: 'inline' });
	// What this host cannot honour is an error, not silence.
	await h.post({
		jsonrpc: '2.0',
		id: 107,
		method: 'ui/message',
		params: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
	});
	await h.post({ jsonrpc: '2.0', id: 108, method: 'ui/update-model-context', params: { content: [] } });
	await h.post({ jsonrpc: '2.0', id: 109, method: 'ui/download-file', params: { contents: [] } });
	assert.match(((await h.answer(107)).error as { message: string }).message, /^Message sending denied/);
	assert.match(((await h.answer(108)).error as { message: string }).message, /^Context update denied/);
	assert.equal(((await h.answer(109)).error as { code: number }).code, -32601);
	await h.post({ jsonrpc: '2.0', method: 'ui/notifications/request-teardown' });
	assert.equal(h.teardownRequests, 1);
});

test('garbage is ignored or answered InvalidRequest, floods are dropped and logged, and the bridge keeps working', async () => {
	const h = harness();
	await initialized(h);
	for (const garbage of [
		'hello',
		42,
		null,
		[1, 2],
		{ jsonrpc: '1.0', id: 99, method: 'tools/call' },
		{ method: 7 },
		{ jsonrpc: '2.0', id: {}, method: 'x' },
	])
		await h.post(garbage);
	assert.equal(
		((await h.answer(99)).error as { code: number }).code,
		-32600,
		'an invalid request with an id is answered',
	);
	h.now.value += 10_000; // a full bucket again
	const sentBefore = h.sent.length;
	// 1,000 requests at one instant: the burst (200) passes, the rest are dropped.
	for (let i = 0; i < 1000; i++) h.bridge.receive({ jsonrpc: '2.0', id: 1000 + i, method: 'ping' });
	await h.post({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'during the flood' } });
	assert.equal(h.sent.length - sentBefore, 200);
	assert.equal(h.bridge.channel.dropped.rate, 801);
	assert.ok(
		h.logger.entries.some(
			(e) =>
				e.level === 'warn' &&
				/dropped messages from the app so far: \d+ for sending more than 100 messages a second/.test(e.message),
		),
	);
	// A second later the app is heard again.
	h.now.value += 1000;
	await h.post({ jsonrpc: '2.0', id: 5000, method: 'tools/call', params: { name: 'get-time' } });
	assert.ok((await h.answer(5000)).result);
	// A message too large is refused, with an answer when it was a request.
	await h.post({
		jsonrpc: '2.0',
		id: 5001,
		method: 'tools/call',
		params: { name: 'get-time', arguments: { blob: 'x'.repeat(5 * 1024 * 1024) } },
	});
	assert.match(((await h.answer(5001)).error as { message: string }).message, /Message too large/);
	assert.equal(h.calls.length, 1);
	// Closing stops everything: nothing is sent afterwards.
	await h.bridge.dispose();
	const count = h.sent.length;
	h.bridge.receive({ jsonrpc: '2.0', id: 6000, method: 'ping' });
	h.bridge.toolCancelled('closed');
	assert.equal(h.sent.length, count);
});

test('teardown asks the app and waits for its answer before closing', async () => {
	const h = harness();
	await initialized(h);
	const done = h.bridge.teardown('the panel is replaced');
	await new Promise((resolve) => setImmediate(resolve));
	const request = h.sent.find((m) => 'method' in m && m.method === 'ui/resource-teardown') as
		{ id: number; params: unknown } | undefined;
	assert.ok(request, 'ui/resource-teardown sent');
	assert.deepEqual(request.params, { reason: 'the panel is replaced' });
	h.bridge.receive({ jsonrpc: '2.0', id: request.id, result: {} });
	await done;
	assert.equal(h.bridge.isReady, false);
	assert.equal(h.bridge.teardownOutcome, 'answered');
});

test('display modes: the host offers what it really does; fullscreen switches and is told to the app; pip, unknown modes and modes the app did not declare change nothing', async () => {
	const switched: AppDisplayMode[] = [];
	const h = harness({ setDisplayMode: async (mode) => (switched.push(mode), mode) }, [TOOL], ['inline', 'fullscreen']);
	await h.post({ jsonrpc: '2.0', id: 'early', method: 'ui/request-display-mode', params: { mode: 'fullscreen' } });
	assert.equal(((await h.answer('early')).error as { code: number }).code, -32600, 'not before ui/initialize');
	await h.post(INIT);
	const context = ((await h.answer(1)).result as { hostContext: Record<string, unknown> }).hostContext;
	assert.deepEqual([context.displayMode, context.availableDisplayModes], ['inline', ['inline', 'fullscreen']]);
	await h.post({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
	await h.post({ jsonrpc: '2.0', id: 2, method: 'ui/request-display-mode', params: { mode: 'fullscreen' } });
	assert.deepEqual((await h.answer(2)).result, { mode: 'fullscreen' });
	assert.deepEqual(
		h.sent
			.filter((m) => 'method' in m && m.method === 'ui/notifications/host-context-changed')
			.map((m) => (m as { params: unknown }).params),
		[{ displayMode: 'fullscreen' }],
	);
	// "If the requested mode is not available, Host SHOULD return the current display mode."
	await h.post({ jsonrpc: '2.0', id: 3, method: 'ui/request-display-mode', params: { mode: 'pip' } });
	assert.deepEqual((await h.answer(3)).result, { mode: 'fullscreen' });
	await h.post({ jsonrpc: '2.0', id: 4, method: 'ui/request-display-mode', params: { mode: 'banana' } });
	await h.post({ jsonrpc: '2.0', id: 5, method: 'ui/request-display-mode', params: {} });
	assert.equal(((await h.answer(4)).error as { code: number }).code, -32602);
	assert.match(
		((await h.answer(5)).error as { message: string }).message,
		/needs `mode`: one of inline, fullscreen, pip/,
	);
	await h.post({ jsonrpc: '2.0', id: 6, method: 'ui/request-display-mode', params: { mode: 'inline' } });
	assert.deepEqual((await h.answer(6)).result, { mode: 'inline' });
	assert.deepEqual(switched, ['fullscreen', 'inline'], 'only real changes reached the host');
	assert.equal(h.bridge.displayMode, 'inline');
	// An app that declared only inline is never switched to fullscreen.
	const inlineOnly = harness(
		{ setDisplayMode: async (mode) => (switched.push(mode), mode) },
		[TOOL],
		['inline', 'fullscreen'],
	);
	await inlineOnly.post({
		...INIT,
		params: { ...INIT.params, appCapabilities: { availableDisplayModes: ['inline'] } },
	});
	await inlineOnly.post({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
	await inlineOnly.post({ jsonrpc: '2.0', id: 7, method: 'ui/request-display-mode', params: { mode: 'fullscreen' } });
	assert.deepEqual((await inlineOnly.answer(7)).result, { mode: 'inline' });
	assert.deepEqual(switched, ['fullscreen', 'inline']);
});

test("ui/download-file: embedded text and blobs and links of the app's server are saved by the person; bad content, web links and cancels are clear errors", async () => {
	const saved: { fileName: string; mimeType?: string; text: string }[] = [];
	let agree = true;
	const reads: string[] = [];
	const h = harness({
		saveFile: async (file) => {
			if (!agree) return false;
			saved.push({ fileName: file.fileName, mimeType: file.mimeType, text: Buffer.from(file.bytes).toString('utf8') });
			return true;
		},
		readResource: async (uri) => (reads.push(uri), { contents: [{ uri, mimeType: 'text/csv', text: 'a,b\n1,2' }] }),
	});
	await h.post(INIT);
	const capabilities = ((await h.answer(1)).result as { hostCapabilities: Record<string, unknown> }).hostCapabilities;
	assert.deepEqual(capabilities.downloadFile, {}, 'advertised only when the host can save');
	await h.post({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
	const download = async (id: number, contents: unknown) => {
		await h.post({ jsonrpc: '2.0', id, method: 'ui/download-file', params: { contents } });
		return h.answer(id);
	};
	assert.deepEqual(
		(
			await download(10, [
				{
					type: 'resource',
					resource: { uri: 'file:///exports/report.json', mimeType: 'application/json', text: '{"a":1}' },
				},
			])
		).result,
		{},
	);
	assert.deepEqual(
		(
			await download(11, [
				{
					type: 'resource',
					resource: { uri: 'file:///a/..%2F..%2Fetc%2Fpasswd', blob: Buffer.from('secret?').toString('base64') },
				},
				{ type: 'resource_link', uri: 'ui://get-time/data.csv', name: 'Q4 data.csv' },
			])
		).result,
		{},
	);
	assert.deepEqual(saved, [
		{ fileName: 'report.json', mimeType: 'application/json', text: '{"a":1}' },
		{ fileName: '_.._etc_passwd', mimeType: undefined, text: 'secret?' },
		{ fileName: 'Q4 data.csv', mimeType: 'text/csv', text: 'a,b\n1,2' },
	]);
	assert.deepEqual(reads, ['ui://get-time/data.csv'], "the link was read from the app's own server");
	const error = async (id: number, contents: unknown) =>
		(await download(id, contents)).error as { code: number; message: string };
	assert.deepEqual(await error(20, []), {
		code: -32602,
		message:
			'Invalid content: ui/download-file needs `contents`, a non-empty array of embedded resources or resource links',
	});
	assert.match(
		(await error(21, [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }])).message,
		/contents\[0\] is of type "image"; only embedded resources/,
	);
	assert.match(
		(await error(22, [{ type: 'resource', resource: { uri: 'file:///x.txt' } }])).message,
		/contents\[0\]\.resource needs `text` or `blob`/,
	);
	assert.match(
		(await error(23, [{ type: 'resource', resource: { uri: 'file:///x.bin', blob: 'not base64!' } }])).message,
		/blob is not base64/,
	);
	assert.match(
		(await error(24, [{ type: 'resource', resource: { uri: 'no uri at all', text: 'x' } }])).message,
		/resource\.uri must be a URI/,
	);
	assert.deepEqual(await error(25, [{ type: 'resource_link', uri: 'https://tracker.example/x.pdf', name: 'x.pdf' }]), {
		code: APP_REQUEST_DENIED,
		message:
			"Policy violation: contents[0] links to https:// content; this host saves only embedded content and resources of the app's own server",
	});
	assert.match(
		(
			await error(
				26,
				Array.from({ length: 11 }, () => ({ type: 'resource', resource: { uri: 'file:///a', text: '' } })),
			)
		).message,
		/at most 10 files/,
	);
	assert.equal(saved.length, 3, 'nothing invalid reached the save dialog');
	agree = false;
	assert.deepEqual(await error(27, [{ type: 'resource', resource: { uri: 'file:///b.txt', text: 'b' } }]), {
		code: APP_REQUEST_DENIED,
		message: 'Download denied by user',
	});
	assert.ok(
		h.logger.entries.some((e) => e.level === 'warn' && e.message.includes('refused ui/download-file: Invalid content')),
	);
});

test('file names come from the last URI segment, sanitized', () => {
	assert.equal(downloadFileName('file:///exports/chart.svg'), 'chart.svg');
	assert.equal(downloadFileName('file:///..'), 'download');
	assert.equal(downloadFileName('file:///', 'application/pdf'), 'download.pdf');
	assert.equal(downloadFileName('file:///CON.txt', 'text/plain'), 'download.txt');
	assert.equal(downloadFileName('file:///a%00b%5Cc%3A.txt'), 'a_b_c_.txt');
	assert.equal(downloadFileName(`file:///${'x'.repeat(300)}.json`).length, 120);
	assert.ok(downloadFileName(`file:///${'x'.repeat(300)}.json`).endsWith('.json'));
});

test("closing the bridge cancels the app's requests in flight and answers nothing more; teardown records whether the app answered", async () => {
	let aborted = false;
	const h = harness({
		callTool: (_tool, _args, signal) =>
			new Promise((_resolve, reject) =>
				signal.addEventListener('abort', () => ((aborted = true), reject(new Error('aborted')))),
			),
	});
	await initialized(h);
	await h.post({ jsonrpc: '2.0', id: 30, method: 'tools/call', params: { name: 'get-time' } });
	const closing = h.bridge.teardown('closed by the test', 50);
	h.now.value += 10_000; // the harness's clock: past the teardown's 50 ms
	await closing;
	assert.equal(h.bridge.teardownOutcome, 'unanswered', 'nobody answered the teardown');
	assert.equal(aborted, true, 'the call in flight was cancelled');
	assert.equal(h.bridge.isClosed, true);
	assert.equal(
		h.sent.some((m) => 'id' in m && m.id === 30),
		false,
		'the cancelled call is not answered',
	);
	const before = h.sent.length;
	await h.post({ jsonrpc: '2.0', id: 31, method: 'tools/call', params: { name: 'get-time' } });
	h.bridge.setHostContext({ theme: 'light' });
	assert.equal(h.sent.length, before, 'nothing answered or sent after closing');
});

test('tool metadata: the ui:// resource (also the deprecated flat key), visibility defaults, and the app content of a read', () => {
	assert.equal(appResourceUri(TOOL), 'ui://get-time/app.html');
	assert.equal(appResourceUri({ _meta: { 'ui/resourceUri': 'ui://flat/app.html' } }), 'ui://flat/app.html');
	assert.equal(appResourceUri({ _meta: { ui: { resourceUri: 'https://evil.example/app.html' } } }), undefined);
	assert.equal(appResourceUri({}), undefined);
	assert.deepEqual([visibleToModel(TOOL), callableByApp(TOOL)], [true, true]);
	assert.deepEqual(
		[
			visibleToModel({ _meta: { ui: { visibility: ['app'] } } }),
			callableByApp({ _meta: { ui: { visibility: ['app'] } } }),
		],
		[false, true],
	);
	assert.deepEqual(
		[
			visibleToModel({ _meta: { ui: { visibility: ['model'] } } }),
			callableByApp({ _meta: { ui: { visibility: ['model'] } } }),
		],
		[true, false],
	);
	const content = appContent('ui://a', {
		contents: [
			{
				uri: 'ui://a',
				mimeType: 'text/html;profile=mcp-app',
				blob: Buffer.from('<p>hi</p>').toString('base64'),
				_meta: {
					ui: {
						csp: { connectDomains: ['https://api.example.com'], resourceDomains: 'nope' },
						permissions: { camera: {} },
						prefersBorder: true,
					},
				},
			},
		],
	});
	assert.deepEqual(content, {
		uri: 'ui://a',
		html: '<p>hi</p>',
		csp: { connectDomains: ['https://api.example.com'] },
		permissions: ['camera'],
		prefersBorder: true,
	});
	assert.throws(
		() => appContent('ui://a', { contents: [{ uri: 'ui://a', mimeType: 'text/html', text: '<p>' }] }),
		/is 'text\/html', not 'text\/html;profile=mcp-app'/,
	);
	assert.throws(() => appContent('ui://a', { contents: [] }), /came back empty/);
});

test('the CSP allows what the resource declares and nothing else; malformed entries are dropped and reported', () => {
	const none = appContentSecurityPolicy({});
	assert.equal(
		none.policy,
		"default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:; media-src data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'",
	);
	const declared = appContentSecurityPolicy({
		connectDomains: [
			'https://api.example.com',
			'wss://live.example.com:8443',
			"https://x.example.com; script-src 'unsafe-eval'",
			'*',
		],
		resourceDomains: ['https://*.cdn.example.com', "'unsafe-eval'", 'data:', 'https://cdn.example.com/lib/'],
		frameDomains: ['https://www.youtube.com'],
	});
	assert.match(
		declared.policy,
		/script-src 'unsafe-inline' https:\/\/\*\.cdn\.example\.com https:\/\/cdn\.example\.com\/lib\/;/,
	);
	assert.match(declared.policy, /connect-src https:\/\/api\.example\.com wss:\/\/live\.example\.com:8443;/);
	assert.match(declared.policy, /frame-src https:\/\/www\.youtube\.com;/);
	assert.doesNotMatch(declared.policy, /unsafe-eval|connect-src[^;]*\*/);
	assert.deepEqual(declared.rejected, [
		`connectDomains: "https://x.example.com; script-src 'unsafe-eval'"`,
		'connectDomains: "*"',
		`resourceDomains: "'unsafe-eval'"`,
		'resourceDomains: "data:"',
	]);
	assert.deepEqual(declared.approved.connectDomains, ['https://api.example.com', 'wss://live.example.com:8443']);
});
