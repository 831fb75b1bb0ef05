// The gateway as VS Code's agent meets it, driven by an MCP client nobody on this project wrote (the official SDK's
// Client over StreamableHTTPClientTransport): the Manager runs server-everything and a small fixture over stdio,
// the gateway offers each server on an endpoint of its own (as VS Code gets one server definition per server), with
// its enabled tools under their own names and the server's name in serverInfo, forwards calls with progress and
// cancellation, tells the client when its server's list changes, and refuses what it must (no token, a wrong token,
// a foreign Origin or Host, oversized or malformed bodies, unknown or disabled tools, unknown servers) while
// everything keeps running.
import assert from 'node:assert/strict';
import * as http from 'node:http';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { MemoryLogger } from '../../src/common/logger';
import type { Host } from '../../src/manager/host';
import { Manager } from '../../src/manager/manager';
import type { NamedTool } from '../../src/manager/types';
import { ManagerCatalog } from '../../src/gateway/catalog';
import { startGateway, type Gateway } from '../../src/gateway/gatewayServer';
import { everythingMain } from '../fixtures/everythingHttp';

const fixtureServer = join(process.cwd(), 'test/fixtures/servers/manager/mcpServer.js');
const logger = new MemoryLogger('info');
const host: Host = { logger: () => logger, roots: () => [] };
const manager = new Manager(host);
let disabled = new Set(['mcp__fixture__tool_0']);
const catalog = new ManagerCatalog(manager, (named: NamedTool) => !disabled.has(named.qualifiedName));
let gateway: Gateway;
const clients: Client[] = [];

/** An SDK client on one server's endpoint, as VS Code connects to each server definition. */
async function sdkClient(server = 'everything', token = gateway.token): Promise<Client> {
	const transport = new StreamableHTTPClientTransport(new URL(gateway.urlFor(server)), {
		requestInit: { headers: { authorization: `Bearer ${token}` } },
	});
	const client = new Client({ name: 'sdk-test-client', version: '1.0.0' });
	await client.connect(transport);
	clients.push(client);
	return client;
}

/** A raw POST to a server's endpoint on the gateway (everything's by default); `headers` replace the defaults. */
async function post(
	body: string,
	headers: Record<string, string> = {},
	url = gateway.urlFor('everything'),
): Promise<{ status: number; json: { error?: { code: number; message: string } } }> {
	const res = await fetch(url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			accept: 'application/json, text/event-stream',
			authorization: `Bearer ${gateway.token}`,
			...headers,
		},
		body,
	});
	return { status: res.status, json: (await res.json()) as { error?: { code: number; message: string } } };
}

const initialize = JSON.stringify({
	jsonrpc: '2.0',
	id: 1,
	method: 'initialize',
	params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

async function until(predicate: () => boolean, what: string, ms = 20_000): Promise<void> {
	const end = Date.now() + ms;
	while (!predicate()) {
		if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 25));
	}
}

before(async () => {
	await manager.reconcile([
		{
			name: 'everything',
			config: { type: 'stdio', command: process.execPath, args: [everythingMain] },
			source: { kind: 'api', label: 'test' },
			workspaceDefined: false,
		},
		{
			name: 'fixture',
			config: { type: 'stdio', command: process.execPath, args: [fixtureServer, '--wait-tool', '--tools', '2'] },
			source: { kind: 'api', label: 'test' },
			workspaceDefined: false,
		},
	]);
	assert.equal(manager.get('everything')?.state.kind, 'running');
	assert.equal(manager.get('fixture')?.state.kind, 'running');
	gateway = await startGateway(catalog, { logger });
});

after(async () => {
	for (const client of clients) await client.close().catch(() => undefined);
	await gateway.close();
	catalog.dispose();
	await manager.dispose();
});

test("each server's endpoint lists exactly its enabled tools under their own names, announces the server, and calls them with the token", async () => {
	assert.match(gateway.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
	assert.equal(gateway.urlFor('everything'), `${gateway.url}/everything`);
	assert.equal(gateway.urlFor('team notes/a'), `${gateway.url}/team%20notes%2Fa`);
	const client = await sdkClient('everything');
	// VS Code prefixes a server's tools with its serverInfo `title || name`: the title is the user's name for it, the
	// name the server's own.
	assert.deepEqual(
		{ name: client.getServerVersion()?.name, title: client.getServerVersion()?.title },
		{ name: 'mcp-servers/everything', title: 'everything' },
	);
	// The server's own instructions, as VS Code gets them from the servers it runs itself.
	const ownInstructions = manager.client('everything').instructions;
	assert.ok(ownInstructions, 'server-everything sends instructions');
	assert.equal(client.getInstructions(), ownInstructions);
	const { tools } = await client.listTools();
	const names = tools.map((tool) => tool.name);
	assert.ok(names.includes('echo') && names.includes('trigger-long-running-operation'), names.join(', '));
	assert.deepEqual(
		names,
		manager.get('everything')!.tools.map((named) => named.tool.name),
		"everything's own tools, each under its own name, and no other server's",
	);
	const fixture = await sdkClient('fixture');
	assert.equal(fixture.getServerVersion()?.title, 'fixture');
	const fixtureNames = (await fixture.listTools()).tools.map((tool) => tool.name);
	assert.ok(fixtureNames.includes('tool_1'), fixtureNames.join(', '));
	assert.ok(!fixtureNames.includes('tool_0'), 'a disabled tool is not offered');
	assert.equal(names.length + fixtureNames.length, manager.allTools().length - 1);
	// The server's own description, on one line: VS Code's Configure Tools shows a line break as a "⏎" glyph.
	const ownEcho = manager.get('everything')!.tools.find((named) => named.tool.name === 'echo')!.tool;
	assert.equal(
		tools.find((tool) => tool.name === 'echo')?.description,
		ownEcho.description?.trim().replace(/\s*\n\s*/g, ' '),
	);
	assert.deepEqual(
		tools.filter((tool) => tool.description?.includes('\n')).map((tool) => tool.name),
		[],
	);

	const echo = await client.callTool({ name: 'echo', arguments: { message: 'through the gateway' } });
	assert.deepEqual(echo.content, [{ type: 'text', text: 'Echo: through the gateway' }]);
	await assert.rejects(
		fixture.callTool({ name: 'echo', arguments: { message: 'wrong endpoint' } }),
		/Unknown tool: echo/,
		"a tool is called only on its own server's endpoint",
	);
	const image = await client.callTool({ name: 'get-tiny-image', arguments: {} });
	assert.ok(
		(image.content as { type: string }[]).some((block) => block.type === 'image'),
		'images pass through',
	);
	const structured = await client.callTool({
		name: 'get-structured-content',
		arguments: { location: 'New York' },
	});
	assert.ok(structured.structuredContent, 'structured content passes through');
});

test('a call to a disabled or unknown tool is a JSON-RPC error naming it; the session keeps working', async () => {
	const client = await sdkClient('fixture');
	await assert.rejects(
		client.callTool({ name: 'tool_0', arguments: {} }),
		(error: Error & { code?: number }) => error.code === -32602 && /tool_0/.test(error.message),
	);
	await assert.rejects(client.callTool({ name: 'nowhere', arguments: {} }), /Unknown tool: nowhere/);
	const ok = await client.callTool({ name: 'tool_1', arguments: {} });
	assert.deepEqual(ok.content, [{ type: 'text', text: 'called tool_1' }]);
});

test('progress reaches the caller and cancelling a call cancels it on the server behind the gateway', async () => {
	const client = await sdkClient('fixture');
	const progress: { progress: number; message?: string }[] = [];
	const controller = new AbortController();
	const call = client.callTool({ name: 'wait', arguments: {} }, undefined, {
		signal: controller.signal,
		onprogress: (p) => progress.push(p),
	});
	await until(() => progress.length > 0, 'progress from the fixture');
	assert.equal(progress[0]?.message, 'waiting');
	controller.abort('the user pressed Stop');
	await assert.rejects(call);
	// The cancellation travels client → gateway → Manager → fixture; ask the fixture until it has seen it.
	let cancelled: unknown[] = [];
	for (let i = 0; i < 100 && cancelled.length === 0; i++) {
		const result = await client.callTool({ name: 'cancelled', arguments: {} });
		cancelled = JSON.parse((result.content as { text: string }[])[0]!.text) as unknown[];
		if (cancelled.length === 0) await new Promise((r) => setTimeout(r, 50));
	}
	assert.equal(cancelled.length, 1, 'the server behind the gateway received notifications/cancelled');
});

test('the real progress of server-everything flows through', async () => {
	const client = await sdkClient();
	const progress: number[] = [];
	const result = await client.callTool(
		{ name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } },
		undefined,
		{ onprogress: (p) => progress.push(p.progress) },
	);
	assert.deepEqual(progress, [1, 2, 3]);
	assert.match(JSON.stringify(result.content), /completed/i);
});

test('prompts and resources of a running server are offered on its endpoint and forwarded', async () => {
	const client = await sdkClient();
	const { prompts } = await client.listPrompts();
	assert.deepEqual(
		prompts.map((prompt) => prompt.name),
		manager.get('everything')!.prompts.map((prompt) => prompt.name),
	);
	assert.ok(
		prompts.some((prompt) => prompt.name === 'simple-prompt'),
		prompts.map((p) => p.name).join(', '),
	);
	const prompt = await client.getPrompt({ name: 'args-prompt', arguments: { city: 'Lisbon' } });
	assert.match(JSON.stringify(prompt.messages), /Lisbon/);
	const { resources } = await client.listResources();
	const first = resources[0];
	assert.ok(first, 'server-everything lists resources');
	const read = await client.readResource({ uri: first.uri });
	assert.equal(read.contents[0]?.uri, first.uri);
	const templated = await client.readResource({ uri: 'demo://resource/dynamic/text/7' });
	assert.ok(templated.contents.length > 0, 'a templated URI is read from the server with templates');
	// The endpoint's server answers for itself: server-everything's own error (the SDK's) names the URI.
	await assert.rejects(client.readResource({ uri: 'nowhere://x' }), /Resource nowhere:\/\/x not found/);
	const fixture = await sdkClient('fixture');
	assert.deepEqual((await fixture.listResources()).resources, [], "the fixture's endpoint lists none of everything's");
});

test("list_changed reaches the server's client when enablement changes, and the new list matches; other servers' clients are not told", async () => {
	const client = await sdkClient();
	const fixture = await sdkClient('fixture');
	let changed = 0;
	let fixtureChanged = 0;
	client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
		changed++;
	});
	fixture.setNotificationHandler(ToolListChangedNotificationSchema, () => {
		fixtureChanged++;
	});
	// The SDK opens its GET listening stream right after initialize; give it a moment to be there.
	await new Promise((r) => setTimeout(r, 200));
	disabled = new Set(['mcp__fixture__tool_0', 'mcp__everything__echo']);
	catalog.refilter();
	await until(() => changed > 0, 'notifications/tools/list_changed');
	const names = (await client.listTools()).tools.map((tool) => tool.name);
	assert.ok(!names.includes('echo'));
	disabled = new Set(['mcp__fixture__tool_0']);
	catalog.refilter();
	await until(() => changed > 1, 'a second list_changed');
	assert.ok((await client.listTools()).tools.some((tool) => tool.name === 'echo'));
	assert.equal(fixtureChanged, 0, "the fixture's list did not change");
});

test('without the token, with a wrong one, or from a foreign Origin or Host: refused, and nothing is exposed', async () => {
	await assert.rejects(sdkClient('everything', 'wrong-token'), /401|Unauthorized/);
	const none = await post(initialize, { authorization: '' });
	assert.equal(none.status, 401);
	assert.match(none.json.error?.message ?? '', /bearer token is required/);
	const wrong = await post(initialize, { authorization: 'Bearer nope' });
	assert.equal(wrong.status, 401);
	const foreign = await post(initialize, { origin: 'https://evil.example' });
	assert.equal(foreign.status, 403);
	assert.match(foreign.json.error?.message ?? '', /origin 'https:\/\/evil\.example'/);
	// fetch does not let a caller set Host: a DNS-rebinding page's request, made with node:http.
	const rebinding = await new Promise<number>((resolve, reject) => {
		const url = new URL(gateway.urlFor('everything'));
		const req = http.request(
			{
				host: url.hostname,
				port: url.port,
				path: url.pathname,
				method: 'POST',
				headers: {
					host: `attacker.example:${url.port}`,
					authorization: `Bearer ${gateway.token}`,
					'content-type': 'application/json',
				},
			},
			(res) => {
				res.resume();
				resolve(res.statusCode ?? 0);
			},
		);
		req.on('error', reject);
		req.end(initialize);
	});
	assert.equal(rebinding, 403);
	// The same loopback origin is fine.
	const local = await post(initialize, { origin: new URL(gateway.url).origin });
	assert.equal(local.status, 200);
});

test('oversized, malformed and session-less bodies get clear JSON-RPC errors; the gateway keeps serving', async () => {
	const big = await post(
		JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', blob: 'x'.repeat(5 * 1024 * 1024) }),
	);
	assert.equal(big.status, 413);
	assert.equal(big.json.error?.code, -32600);
	const malformed = await post('{"jsonrpc": "2.0", "id": ');
	assert.equal(malformed.status, 400);
	assert.equal(malformed.json.error?.code, -32700);
	const batch = await post(`[${initialize}]`);
	assert.equal(batch.status, 400);
	const noSession = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
	assert.equal(noSession.status, 400);
	assert.match(noSession.json.error?.message ?? '', /Mcp-Session-Id/);
	const unknownSession = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), {
		'mcp-session-id': 'no-such-session',
	});
	assert.equal(unknownSession.status, 404);
	// No endpoint for all servers at once, none for a server the catalog does not offer.
	const base = await post(initialize, {}, gateway.url);
	assert.equal(base.status, 404);
	assert.match(base.json.error?.message ?? '', /\/mcp\/<server/);
	const unknownServer = await post(initialize, {}, gateway.urlFor('nowhere'));
	assert.equal(unknownServer.status, 404);
	assert.match(unknownServer.json.error?.message ?? '', /no server 'nowhere'/);
	const client = await sdkClient();
	assert.ok((await client.listTools()).tools.length > 0);
});

test('a call that asks for progress (as VS Code does) is answered as JSON when none comes, as an event stream when it does', async () => {
	const opened = await fetch(gateway.urlFor('everything'), {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			accept: 'application/json, text/event-stream',
			authorization: `Bearer ${gateway.token}`,
		},
		body: initialize,
	});
	const session = opened.headers.get('mcp-session-id') ?? '';
	await opened.text();
	const call = (id: number, name: string, args: Record<string, unknown>) =>
		fetch(gateway.urlFor('everything'), {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				accept: 'application/json, text/event-stream',
				authorization: `Bearer ${gateway.token}`,
				'mcp-session-id': session,
				'mcp-protocol-version': '2025-11-25',
			},
			body: JSON.stringify({
				jsonrpc: '2.0',
				id,
				method: 'tools/call',
				params: { name, arguments: args, _meta: { progressToken: `p${id}` } },
			}),
		});
	const quiet = await call(2, 'echo', { message: 'no progress here' });
	assert.equal(quiet.headers.get('content-type'), 'application/json');
	const answer = (await quiet.json()) as { id: number; result: { content: { text: string }[] } };
	assert.equal(answer.id, 2);
	assert.match(answer.result.content[0]?.text ?? '', /no progress here/);
	const busy = await call(3, 'trigger-long-running-operation', { duration: 0.3, steps: 3 });
	assert.equal(busy.headers.get('content-type'), 'text/event-stream');
	const events = (await busy.text())
		.split('\n')
		.filter((line) => line.startsWith('data: '))
		.map(
			(line) =>
				JSON.parse(line.slice(6)) as {
					method?: string;
					id?: number;
					params?: { progressToken?: string; progress?: number };
				},
		);
	assert.deepEqual(
		events.map((event) =>
			event.method === 'notifications/progress'
				? `progress ${event.params?.progressToken} ${event.params?.progress}`
				: `answer ${event.id}`,
		),
		['progress p3 1', 'progress p3 2', 'progress p3 3', 'answer 3'],
	);
});

test('a server that stops mid-call: the caller gets an error naming it, the gateway and the other server keep running', async () => {
	const client = await sdkClient('fixture');
	const everything = await sdkClient('everything');
	const call = client.callTool({ name: 'wait', arguments: {} });
	await new Promise((r) => setTimeout(r, 200));
	await manager.stop('fixture');
	await assert.rejects(call, /fixture/);
	await until(() => catalog.findTool('mcp__fixture__tool_1') === undefined, 'the stopped server to leave the catalog');
	await assert.rejects(client.callTool({ name: 'tool_1', arguments: {} }), /Unknown tool/);
	// A stopped server keeps its endpoint (VS Code keeps its definition), which lists nothing until it runs again.
	assert.deepEqual((await client.listTools()).tools, []);
	const echo = await everything.callTool({ name: 'echo', arguments: { message: 'still here' } });
	assert.match(JSON.stringify(echo.content), /still here/);
	await manager.start('fixture');
	await until(() => catalog.findTool('mcp__fixture__tool_1') !== undefined, 'the restarted server to come back');
	assert.ok((await client.listTools()).tools.some((tool) => tool.name === 'tool_1'));
});
