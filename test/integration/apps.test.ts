// MCP Apps against a server nobody on this project wrote: @modelcontextprotocol/server-basic-vanillajs (the published
// example) over stdio, through the Manager. Its get-time tool names a ui:// app; the Manager reads that resource,
// which is an app (text/html;profile=mcp-app); and an AppBridge whose host is the Manager carries an app's tools/call
// to the real server and back, with the tool's input and result delivered after the handshake.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import { AppBridge } from '../../src/manager/apps/appBridge';
import { appContent, appResourceUri, APPS_CLIENT_CAPABILITY } from '../../src/manager/apps/appMeta';
import type { Host } from '../../src/manager/host';
import { Manager } from '../../src/manager/manager';
import type { JsonRpcMessage } from '../../src/protocol/jsonrpc';
import type { CallToolResult } from '../../src/protocol/schema';

// Its bin (package exports name only the library); test/run.mjs runs from the repository root.
const script = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js');

test(
	"server-basic-vanillajs: the tool names its app, the Manager reads it, and the app's tools/call reaches the server",
	{ timeout: 60_000 },
	async () => {
		const logger = new MemoryLogger('info');
		const host: Host = { logger: () => logger, extensions: () => APPS_CLIENT_CAPABILITY };
		const manager = new Manager(host);
		try {
			await manager.reconcile([
				{
					name: 'basic',
					config: { type: 'stdio', command: process.execPath, args: [script, '--stdio'] },
					source: { kind: 'api', label: 'test' },
					workspaceDefined: false,
				},
			]);
			const view = manager.get('basic');
			assert.equal(view?.state.kind, 'running', view?.state.kind === 'error' ? view.state.message : view?.state.kind);
			const listed = () => manager.get('basic')?.tools.find((t) => t.tool.name === 'get-time')?.tool;
			for (const end = Date.now() + 20_000; !listed() && Date.now() < end;)
				await new Promise((resolve) => setTimeout(resolve, 50));
			const tool = listed();
			assert.ok(tool, 'get-time is listed');
			const uri = appResourceUri(tool);
			assert.equal(uri, 'ui://get-time/mcp-app.html');
			const app = appContent(uri, await manager.readResource('basic', uri));
			assert.match(app.html, /<title>Get Time App<\/title>/);
			assert.deepEqual(app.csp, {}, 'the example declares no origins: the restrictive default applies');

			const result = await manager.callTool('basic', 'get-time', {});
			const sent: JsonRpcMessage[] = [];
			const bridge = new AppBridge(
				{
					tool: (name) => manager.get('basic')?.tools.find((t) => t.tool.name === name)?.tool,
					refusal: () => undefined,
					callTool: (t, args, signal) => manager.callTool('basic', t.name, args, { signal, origin: 'app' }),
					readResource: (u, signal) => manager.readResource('basic', u, { signal }),
					openLink: async () => false,
					log: () => undefined,
					sizeChanged: () => undefined,
					requestTeardown: () => undefined,
					setDisplayMode: async (mode) => mode,
				},
				{
					server: 'basic',
					uri,
					tool,
					arguments: {},
					hostInfo: { name: 'test', version: '1' },
					hostContext: { theme: 'light' },
					csp: {},
					displayModes: ['inline'],
					post: (m) => void sent.push(m),
					logger,
				},
			);
			bridge.toolResult(result);
			bridge.receive({
				jsonrpc: '2.0',
				id: 1,
				method: 'ui/initialize',
				params: { protocolVersion: '2026-01-26', appInfo: { name: 'probe', version: '0' }, appCapabilities: {} },
			});
			bridge.receive({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
			bridge.receive({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get-time', arguments: {} } });
			const end = Date.now() + 20_000;
			let answer: { result?: CallToolResult } | undefined;
			while (!answer && Date.now() < end) {
				answer = sent.find((m) => 'id' in m && m.id === 2 && !('method' in m)) as
					{ result?: CallToolResult } | undefined;
				await new Promise((resolve) => setTimeout(resolve, 20));
			}
			assert.match(
				String((answer?.result?.structuredContent as { time?: string } | undefined)?.time),
				/^\d{4}-\d\d-\d\dT/,
			);
			const methods = sent.filter((m) => 'method' in m).map((m) => (m as { method: string }).method);
			assert.deepEqual(methods, ['ui/notifications/tool-input', 'ui/notifications/tool-result']);
			await bridge.dispose();
		} finally {
			await manager.dispose();
		}
	},
);
