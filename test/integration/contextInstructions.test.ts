// Servers' instructions reach models: each server's gateway endpoint carries that server's own instructions
// (server-everything sends about 1,500 characters), bounded, as the official SDK's client (the way VS Code's agent
// connects) reads them; a server without instructions sends none.
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
import { chatInstructionsText, collectInstructions, instructionsOf } from '../../src/manager/context/instructions';
import { everythingMain } from '../fixtures/everythingHttp';

const fixtureServer = join(process.cwd(), 'test/fixtures/servers/manager/mcpServer.js');
const logger = new MemoryLogger('info');
const host: Host = { logger: () => logger, roots: () => [] };
const manager = new Manager(host);
const catalog = new ManagerCatalog(manager);
let gateway: Gateway;
let maxTokens = 2_000;
const clients: Client[] = [];

async function gatewayInstructions(server = 'everything'): Promise<string | undefined> {
	const client = new Client({ name: 'sdk-test-client', version: '1.0.0' });
	await client.connect(
		new StreamableHTTPClientTransport(new URL(gateway.urlFor(server)), {
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
		// As src/vscode/shared/contextSettings.ts gatewayInstructions does: the endpoint's server's own, bounded.
		instructions: (server) => {
			const view = manager.get(server);
			return view && offeredServer(view) ? collectInstructions([view], maxTokens)[0]?.text : undefined;
		},
	});
});

after(async () => {
	for (const client of clients) await client.close().catch(() => undefined);
	await gateway.close();
	catalog.dispose();
	await manager.dispose();
});

test("a server's endpoint's initialize carries that server's own instructions, whole within the bound", async () => {
	const text = (await gatewayInstructions()) ?? '';
	// Its own text with no heading: the endpoint is that server to the client.
	assert.ok(text.startsWith('# Everything Server – Server Instructions'), text.slice(0, 200));
	assert.equal(text, instructionsOf(manager.get('everything')!), "the server's whole text");
	assert.doesNotMatch(text, /\[cut:/, 'within the default bound, whole');
});

test('a bound cuts a long text with a note; a server without instructions adds nothing', async () => {
	maxTokens = 50;
	try {
		const text = (await gatewayInstructions()) ?? '';
		assert.ok(text.startsWith('# Everything Server – Server Instructions'), text.slice(0, 200));
		assert.match(text, /\[cut: \d+ more characters of these instructions\]$/);
		assert.ok(text.length < 50 * 4 + 120, `bounded: ${text.length} characters`);
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
	assert.equal(await gatewayInstructions('fixture'), undefined, 'the fixture gives none, so its endpoint sends none');
	assert.ok((await gatewayInstructions())?.startsWith('# Everything Server'), "everything's endpoint sends its own");
	assert.equal(collectInstructions(manager.servers()).length, 1);
	// @mcp's message names the server the same way.
	assert.match(chatInstructionsText(collectInstructions(manager.servers())) ?? '', /## MCP server "everything"/);
	assert.equal(collectInstructions(manager.servers(), 0).length, 0, 'a bound of 0 sends none');
});
