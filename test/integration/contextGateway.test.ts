// The model's context through a server's gateway endpoint, as the official SDK's client (the way VS Code's agent
// connects) sees it: in tool search mode the list is that server's pinned tools, search_tools, call_tool and
// read_result; a search finds the server's own tool with its definition and call_tool runs it; without tool search
// read_result is listed only once a result was capped; a 2 MB result is capped with the whole kept and paged by
// read_result; each session's ledger is in the log.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { MemoryLogger } from '../../src/common/logger';
import type { Host } from '../../src/manager/host';
import { Manager } from '../../src/manager/manager';
import { ManagerCatalog } from '../../src/gateway/catalog';
import { startGateway, type Gateway } from '../../src/gateway/gatewayServer';
import type { GatewayContextSettings } from '../../src/gateway/gatewayContext';
import { ResultStore } from '../../src/manager/context/resultStore';
import { everythingMain } from '../fixtures/everythingHttp';

const contextServer = join(process.cwd(), 'test/fixtures/servers/contextServer.js');
const logger = new MemoryLogger('info');
const host: Host = { logger: () => logger, roots: () => [] };
const manager = new Manager(host);
const catalog = new ManagerCatalog(manager);
const results = new ResultStore();
let settings: GatewayContextSettings = {
	resultMaxTokens: 1_000,
	resultMaxTokensByTool: {},
	toolSearch: 'on',
	toolSearchThresholdTokens: 20_000,
	pinnedTools: ['mcp__everything__echo'],
};
let gateway: Gateway;
const clients: Client[] = [];

async function sdkClient(server: string): Promise<Client> {
	const client = new Client({ name: 'sdk-test-client', version: '1.0.0' });
	await client.connect(
		new StreamableHTTPClientTransport(new URL(gateway.urlFor(server)), {
			requestInit: { headers: { authorization: `Bearer ${gateway.token}` } },
		}),
	);
	clients.push(client);
	return client;
}

function textOf(result: object): string {
	return (((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[])
		.map((block) => block.text ?? '')
		.join('');
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
			name: 'ctx',
			config: { type: 'stdio', command: process.execPath, args: [contextServer] },
			source: { kind: 'api', label: 'test' },
			workspaceDefined: false,
		},
	]);
	assert.equal(manager.get('everything')?.state.kind, 'running');
	assert.equal(manager.get('ctx')?.state.kind, 'running');
	gateway = await startGateway(catalog, { logger, context: { settings: () => settings, results } });
});

after(async () => {
	for (const client of clients) await client.close().catch(() => undefined);
	await gateway.close();
	catalog.dispose();
	await manager.dispose();
});

test("tool search: the server's pinned tools and the gateway own three; a search finds get-sum, call_tool runs it", async () => {
	const client = await sdkClient('everything');
	const { tools } = await client.listTools();
	assert.deepEqual(
		tools.map((tool) => tool.name),
		['echo', 'search_tools', 'call_tool', 'read_result'],
	);
	const found = JSON.parse(
		textOf(await client.callTool({ name: 'search_tools', arguments: { query: 'add two numbers together' } })),
	) as { name: string; inputSchema: { required?: string[] } }[];
	// The tool's own name: what this endpoint lists and call_tool takes.
	assert.equal(found[0]?.name, 'get-sum', found.map((tool) => tool.name).join(', '));
	assert.deepEqual(found[0]?.inputSchema.required, ['a', 'b']);
	const sum = await client.callTool({ name: 'call_tool', arguments: { name: 'get-sum', arguments: { a: 2, b: 3 } } });
	assert.match(textOf(sum), /5/);
	// Only this server's tools are searched and called: ctx's dump is another endpoint's.
	const dump = textOf(await client.callTool({ name: 'search_tools', arguments: { query: 'dump rows' } }));
	assert.doesNotMatch(dump, /"dump"/);
	const unknown = await client
		.callTool({ name: 'call_tool', arguments: { name: 'mcp__ctx__dump' } })
		.then(textOf, (error: Error) => error.message);
	assert.match(unknown, /Unknown tool: mcp__ctx__dump/);
});

test("without tool search the server's tools are listed; read_result once a result was capped, told by list_changed", async () => {
	settings = { ...settings, toolSearch: 'off' };
	try {
		const { tools } = await (await sdkClient('everything')).listTools();
		const own = manager.allTools().filter((named) => named.server === 'everything');
		assert.deepEqual(
			tools.map((tool) => tool.name),
			own.map((named) => named.tool.name),
		);
		const client = await sdkClient('ctx');
		const before = (await client.listTools()).tools.map((tool) => tool.name);
		assert.ok(!before.includes('read_result'), before.join(', '));
		// Tools the session does not list are not the gateway's to answer: a name is the server's tool or unknown.
		for (const name of ['search_tools', 'read_result']) {
			const refused = await client.callTool({ name, arguments: { query: 'x', id: 'r1' } }).then(textOf, String);
			assert.match(refused, new RegExp(`Unknown tool: ${name}`));
		}
		const changed = new Promise<void>((resolve) =>
			client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
		);
		// The SDK opens its GET listening stream right after initialize; give it a moment to be there.
		await new Promise((r) => setTimeout(r, 200));
		const capped = textOf(await client.callTool({ name: 'dump' }));
		assert.match(capped, /call read_result with \{"id": "r\d+", "offset": \d+\}/);
		await changed;
		const after = (await client.listTools()).tools.map((tool) => tool.name);
		assert.deepEqual(after, [...before, 'read_result']);
	} finally {
		settings = { ...settings, toolSearch: 'on' };
	}
});

test('a 2 MB result is capped for the client and read_result pages the whole; images count', async () => {
	const client = await sdkClient('ctx');
	const capped = textOf(await client.callTool({ name: 'call_tool', arguments: { name: 'dump' } }));
	assert.ok(capped.startsWith('row 0000000 '));
	assert.ok(capped.length < 4_000 + 400, `capped to ${capped.length} characters`);
	const reference = /stored as "(r\d+)".*"offset": (\d+)/s.exec(capped);
	assert.ok(reference, capped.slice(-300));
	const id = reference[1]!;
	assert.equal(results.get(id)?.text.length, 2 * 1024 * 1024, 'the whole is kept');
	const page = textOf(
		await client.callTool({ name: 'read_result', arguments: { id, offset: Number(reference[2]), maxChars: 61 } }),
	);
	assert.match(page, /^\[characters 4000–4061 of 2097152; read on with offset 4061\]\n/);
	assert.equal(page.slice(page.indexOf('\n') + 1), results.get(id)?.text.slice(4_000, 4_061));
	// An image is counted at 1,600 tokens: above a limit of 1,000, so it is capped too (its JSON kept whole).
	const pixel = textOf(await client.callTool({ name: 'call_tool', arguments: { name: 'pixel' } }));
	assert.match(pixel, /Result cut: about 16\d\d tokens/);
	const small = await client.callTool({
		name: 'call_tool',
		arguments: { name: 'dump', arguments: { bytes: 100 } },
	});
	assert.equal(textOf(small).length, 100, 'a result within the limit is whole');
});

test("each session's ledger is in the log: definitions, results and the gateway's own tools by server", () => {
	const lines = logger.entries.map((entry) => entry.message).filter((message) => message.includes('estimated tokens'));
	assert.ok(lines.length > 0);
	assert.match(
		lines.at(-1)!,
		/^gateway session \w{8}: estimated tokens \d+ \(definitions \d+, instructions 0, skills 0, results \d+\); /,
	);
	assert.ok(
		lines.some((line) => /; ctx \d+ \(definitions 0, instructions 0, skills 0, results \d+\)/.test(line)),
		lines.at(-1),
	);
});
