// Servers' instructions reach models: the gateway's initialize carries the instructions of the servers it offers
// (server-everything sends its own, about 1,500 characters), named by server and bounded, as the official SDK's
// client (the way VS Code's agent connects) reads them; a server started later shows in the next session.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MemoryLogger } from '../../src/common/logger';
import type { Host } from '../../src/manager/host';
import { Manager } from '../../src/manager/manager';
import { ManagerCatalog, offeredServer } from '../../src/gateway/catalog';
import { startGateway, type Gateway } from '../../src/gateway/gatewayServer';
import {
	chatInstructionsText,
	collectInstructions,
	GATEWAY_INSTRUCTIONS_INTRO,
	gatewayInstructionsText,
} from '../../src/manager/context/instructions';
import { everythingMain } from '../fixtures/everythingHttp';

const fixtureServer = join(process.cwd(), 'test/fixtures/servers/manager/mcpServer.js');
const logger = new MemoryLogger('info');
const host: Host = { logger: () => logger, roots: () => [] };
const manager = new Manager(host);
const catalog = new ManagerCatalog(manager);
let gateway: Gateway;
let maxTokens = 2_000;
const clients: Client[] = [];

async function gatewayInstructions(): Promise<string | undefined> {
	const client = new Client({ name: 'sdk-test-client', version: '1.0.0' });
	await client.connect(
		new StreamableHTTPClientTransport(new URL(gateway.url), {
			requestInit: { headers: { authorization: `Bearer ${gateway.token}` } },
		}),
	);
	clients.push(client);
	return client.getInstructions();
}

before(async () => {
	await manager.reconcile([
		{
			name: 'everything',
			config: { type: 'stdio', command: process.execPath, args: [everythingMain] },
			source: { kind: 'api', label: 'test' },
			workspaceDefined: false,
		},
	]);
	assert.equal(manager.get('everything')?.state.kind, 'running');
	gateway = await startGateway(catalog, {
		logger,
		instructions: () =>
			gatewayInstructionsText(collectInstructions(manager.servers().filter(offeredServer), maxTokens)),
	});
});

after(async () => {
	for (const client of clients) await client.close().catch(() => undefined);
	await gateway.close();
	catalog.dispose();
	await manager.dispose();
});

test("the gateway's initialize carries each offered server's instructions under its name", async () => {
	const text = (await gatewayInstructions()) ?? '';
	assert.ok(text.startsWith(GATEWAY_INSTRUCTIONS_INTRO), text.slice(0, 200));
	assert.match(text, /## MCP server "everything"\n\n# Everything Server – Server Instructions/);
	assert.doesNotMatch(text, /\[cut:/, 'within the default bound, whole');
});

test('a bound cuts a long text with a note; a server without instructions adds nothing', async () => {
	maxTokens = 50;
	try {
		const text = (await gatewayInstructions()) ?? '';
		const section = text.slice(text.indexOf('## MCP server "everything"'));
		assert.match(section, /\[cut: \d+ more characters of these instructions\]$/);
		assert.ok(section.length < 50 * 4 + 120, `bounded: ${section.length} characters`);
	} finally {
		maxTokens = 2_000;
	}
	await manager.reconcile([
		...manager.servers().map((server) => ({
			name: server.name,
			config: server.config,
			source: server.source,
			workspaceDefined: false,
		})),
		{
			name: 'fixture',
			config: { type: 'stdio', command: process.execPath, args: [fixtureServer, '--tools', '1'] },
			source: { kind: 'api', label: 'test' },
			workspaceDefined: false,
		},
	]);
	assert.equal(manager.get('fixture')?.state.kind, 'running');
	const text = (await gatewayInstructions()) ?? '';
	assert.doesNotMatch(text, /"fixture"/);
	assert.equal(collectInstructions(manager.servers()).length, 1);
	// @mcp's message names the server the same way.
	assert.match(chatInstructionsText(collectInstructions(manager.servers())) ?? '', /## MCP server "everything"/);
	assert.equal(collectInstructions(manager.servers(), 0).length, 0, 'a bound of 0 sends none');
});
