// The host side of the MCP Apps bridge (src/manager/apps), driven as an app would drive it: JSON-RPC messages posted
// in, answers and notifications read from what the bridge posts back.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import { AppBridge, APP_REQUEST_DENIED, type AppBridgeHost } from '../../src/manager/apps/appBridge';
import { appContentSecurityPolicy } from '../../src/manager/apps/appCsp';
import { appContent, appResourceUri, callableByApp, visibleToModel } from '../../src/manager/apps/appMeta';
import type { JsonRpcMessage } from '../../src/protocol/jsonrpc';
import { McpError } from '../../src/protocol/mcpError';
import type { CallToolResult, Tool } from '../../src/protocol/schema';

const TOOL: Tool = { name: 'get-time', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: 'ui://get-time/app.html' } } };

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

function harness(overrides: Partial<AppBridgeHost> = {}, tools: Tool[] = [TOOL]): Harness {
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
			return { content: [{ type: 'text', text: 'twelve o\'clock' }] };
		},
		readResource: async (uri) => ({ contents: [{ uri, text: 'hello' }] }),
		openLink: async (url) => {
			links.push(url);
			return true;
		},
		log: (level, text) => logs.push(`${level}: ${text}`),
		sizeChanged: (size) => sizes.push(size),
		requestTeardown: () => (h.teardownRequests! += 1),
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
		post: (message) => void sent.push(message),
		logger,
		clock: { now: () => now.value, setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (t) => clearTimeout(t as NodeJS.Timeout) },
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

const INIT = { jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: { protocolVersion: '2026-01-26', appInfo: { name: 'Get Time App', version: '1.0.0' }, appCapabilities: {} } };

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
	assert.deepEqual(Object.keys(capabilities).sort(), ['logging', 'openLinks', 'sandbox', 'serverResources', 'serverTools']);
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
	assert.deepEqual(methods(h), ['ui/notifications/tool-input', 'ui/notifications/tool-result', 'ui/notifications/host-context-changed']);
	assert.deepEqual((await h.answer(2)).result, {});
});

test('the app calls its own server\'s tools through the host; unknown, app-invisible and refused tools get clear errors', async () => {
	const modelOnly: Tool = { name: 'delete-all', inputSchema: { type: 'object' }, _meta: { ui: { visibility: ['model'] } } };
	const disabled: Tool = { name: 'disabled-one', inputSchema: { type: 'object' } };
	const h = harness({ refusal: (tool) => (tool.name === 'disabled-one' ? "The tool 'disabled-one' is disabled in MCP Switchboard" : undefined) }, [TOOL, modelOnly, disabled]);
	// Before the handshake nothing runs.
	await h.post({ jsonrpc: '2.0', id: 'early', method: 'tools/call', params: { name: 'get-time' } });
	assert.equal(((await h.answer('early')).error as { code: number }).code, -32600);
	await initialized(h);
	await h.post({ jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'get-time', arguments: { zone: 'CET' } } });
	assert.deepEqual(((await h.answer(10)).result as CallToolResult).content, [{ type: 'text', text: 'twelve o\'clock' }]);
	await h.post({ jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'nope' } });
	await h.post({ jsonrpc: '2.0', id: 12, method: 'tools/call', params: { name: 'delete-all' } });
	await h.post({ jsonrpc: '2.0', id: 13, method: 'tools/call', params: { name: 'disabled-one' } });
	await h.post({ jsonrpc: '2.0', id: 14, method: 'tools/call', params: { name: 'get-time', arguments: [1, 2] } });
	const error = async (id: number) => (await h.answer(id)).error as { code: number; message: string };
	assert.match((await error(11)).message, /MCP server 'basic' has no tool named 'nope'/);
	assert.deepEqual([(await error(12)).code, (await error(12)).message], [APP_REQUEST_DENIED, "The tool 'delete-all' is not callable by apps (its _meta.ui.visibility does not include \"app\")"]);
	assert.deepEqual([(await error(13)).code, (await error(13)).message], [APP_REQUEST_DENIED, "The tool 'disabled-one' is disabled in MCP Switchboard"]);
	assert.equal((await error(14)).code, -32602);
	assert.deepEqual(h.calls, ['get-time {"zone":"CET"}'], 'only the allowed call reached the host');
	assert.ok(h.logger.entries.some((e) => e.level === 'warn' && e.message.includes("refused its call of 'disabled-one'")));
	// A host that refuses (consent denied, server stopped) is answered with its McpError as it is.
	const refusing = harness({ callTool: () => Promise.reject(new McpError(APP_REQUEST_DENIED, 'The person declined the call of get-time')) });
	await initialized(refusing);
	await refusing.post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get-time' } });
	assert.deepEqual((await refusing.answer(3)).error, { code: APP_REQUEST_DENIED, message: 'The person declined the call of get-time' });
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
	await h.post({ jsonrpc: '2.0', id: 101, method: 'ui/open-link', params: { url: 'https://modelcontextprotocol.io/' } });
	assert.deepEqual((await h.answer(101)).result, {});
	agree = false;
	await h.post({ jsonrpc: '2.0', id: 102, method: 'ui/open-link', params: { url: 'https://example.com/x' } });
	assert.deepEqual((await h.answer(102)).error, { code: APP_REQUEST_DENIED, message: 'Link opening denied by user' });
	await h.post({ jsonrpc: '2.0', id: 103, method: 'ui/open-link', params: { url: 'javascript:alert(1)' } });
	await h.post({ jsonrpc: '2.0', id: 104, method: 'ui/open-link', params: { url: 'file:///etc/passwd' } });
	assert.match(((await h.answer(103)).error as { message: string }).message, /^Invalid URL/);
	assert.match(((await h.answer(104)).error as { message: string }).message, /^Invalid URL/);
	assert.deepEqual(h.links, ['https://modelcontextprotocol.io/', 'https://example.com/x'], 'the host was asked only for the web links');

	await h.post({ jsonrpc: '2.0', id: 105, method: 'resources/read', params: { uri: 'ui://get-time/app.html' } });
	assert.deepEqual((await h.answer(105)).result, { contents: [{ uri: 'ui://get-time/app.html', text: 'hello' }] });
	await h.post({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'warning', data: { hello: 'log' } } });
	await h.post({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { width: 400.4, height: 1e12 } });
	await h.post({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { width: 'wide', height: -3 } });
	assert.deepEqual(h.logs, ['warning: {"hello":"log"}']);
	assert.deepEqual(h.sizes, [{ width: 400, height: 100_000 }], 'a nonsense size changes nothing; a huge one is capped');
	await h.post({ jsonrpc: '2.0', id: 106, method: 'ui/request-display-mode', params: { mode: 'fullscreen' } });
	assert.deepEqual((await h.answer(106)).result, { mode: 'inline' });
	// What this host cannot honour is an error, not silence.
	await h.post({ jsonrpc: '2.0', id: 107, method: 'ui/message', params: { role: 'user', content: [{ type: 'text', text: 'hi' }] } });
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
	for (const garbage of ['hello', 42, null, [1, 2], { jsonrpc: '1.0', id: 99, method: 'tools/call' }, { method: 7 }, { jsonrpc: '2.0', id: {}, method: 'x' }]) await h.post(garbage);
	assert.equal(((await h.answer(99)).error as { code: number }).code, -32600, 'an invalid request with an id is answered');
	h.now.value += 10_000; // a full bucket again
	const sentBefore = h.sent.length;
	// 1,000 requests at one instant: the burst (200) passes, the rest are dropped.
	for (let i = 0; i < 1000; i++) h.bridge.receive({ jsonrpc: '2.0', id: 1000 + i, method: 'ping' });
	await h.post({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'during the flood' } });
	assert.equal(h.sent.length - sentBefore, 200);
	assert.equal(h.bridge.channel.dropped.rate, 801);
	assert.ok(h.logger.entries.some((e) => e.level === 'warn' && /dropped messages from the app so far: \d+ for sending more than 100 messages a second/.test(e.message)));
	// A second later the app is heard again.
	h.now.value += 1000;
	await h.post({ jsonrpc: '2.0', id: 5000, method: 'tools/call', params: { name: 'get-time' } });
	assert.ok((await h.answer(5000)).result);
	// A message too large is refused, with an answer when it was a request.
	await h.post({ jsonrpc: '2.0', id: 5001, method: 'tools/call', params: { name: 'get-time', arguments: { blob: 'x'.repeat(5 * 1024 * 1024) } } });
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
	const request = h.sent.find((m) => 'method' in m && m.method === 'ui/resource-teardown') as { id: number; params: unknown } | undefined;
	assert.ok(request, 'ui/resource-teardown sent');
	assert.deepEqual(request.params, { reason: 'the panel is replaced' });
	h.bridge.receive({ jsonrpc: '2.0', id: request.id, result: {} });
	await done;
	assert.equal(h.bridge.isReady, false);
});

test('tool metadata: the ui:// resource (also the deprecated flat key), visibility defaults, and the app content of a read', () => {
	assert.equal(appResourceUri(TOOL), 'ui://get-time/app.html');
	assert.equal(appResourceUri({ _meta: { 'ui/resourceUri': 'ui://flat/app.html' } }), 'ui://flat/app.html');
	assert.equal(appResourceUri({ _meta: { ui: { resourceUri: 'https://evil.example/app.html' } } }), undefined);
	assert.equal(appResourceUri({}), undefined);
	assert.deepEqual([visibleToModel(TOOL), callableByApp(TOOL)], [true, true]);
	assert.deepEqual([visibleToModel({ _meta: { ui: { visibility: ['app'] } } }), callableByApp({ _meta: { ui: { visibility: ['app'] } } })], [false, true]);
	assert.deepEqual([visibleToModel({ _meta: { ui: { visibility: ['model'] } } }), callableByApp({ _meta: { ui: { visibility: ['model'] } } })], [true, false]);
	const content = appContent('ui://a', {
		contents: [{ uri: 'ui://a', mimeType: 'text/html;profile=mcp-app', blob: Buffer.from('<p>hi</p>').toString('base64'), _meta: { ui: { csp: { connectDomains: ['https://api.example.com'], resourceDomains: 'nope' }, permissions: { camera: {} }, prefersBorder: true } } }],
	});
	assert.deepEqual(content, { uri: 'ui://a', html: '<p>hi</p>', csp: { connectDomains: ['https://api.example.com'] }, permissions: ['camera'], prefersBorder: true });
	assert.throws(() => appContent('ui://a', { contents: [{ uri: 'ui://a', mimeType: 'text/html', text: '<p>' }] }), /is 'text\/html', not 'text\/html;profile=mcp-app'/);
	assert.throws(() => appContent('ui://a', { contents: [] }), /came back empty/);
});

test('the CSP allows what the resource declares and nothing else; malformed entries are dropped and reported', () => {
	const none = appContentSecurityPolicy({});
	assert.equal(none.policy, "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:; media-src data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'");
	const declared = appContentSecurityPolicy({
		connectDomains: ['https://api.example.com', 'wss://live.example.com:8443', "https://x.example.com; script-src 'unsafe-eval'", '*'],
		resourceDomains: ['https://*.cdn.example.com', "'unsafe-eval'", 'data:', 'https://cdn.example.com/lib/'],
		frameDomains: ['https://www.youtube.com'],
	});
	assert.match(declared.policy, /script-src 'unsafe-inline' https:\/\/\*\.cdn\.example\.com https:\/\/cdn\.example\.com\/lib\/;/);
	assert.match(declared.policy, /connect-src https:\/\/api\.example\.com wss:\/\/live\.example\.com:8443;/);
	assert.match(declared.policy, /frame-src https:\/\/www\.youtube\.com;/);
	assert.doesNotMatch(declared.policy, /unsafe-eval|connect-src[^;]*\*/);
	assert.deepEqual(declared.rejected, [`connectDomains: "https://x.example.com; script-src 'unsafe-eval'"`, 'connectDomains: "*"', `resourceDomains: "'unsafe-eval'"`, 'resourceDomains: "data:"']);
	assert.deepEqual(declared.approved.connectDomains, ['https://api.example.com', 'wss://live.example.com:8443']);
});
