// Which server answers through the gateway (issue 27 defects 3 and 10): a resources/read of a URI no server lists
// goes only to the server whose template matches it (or whose tool linked it), never to every server in turn; and
// two servers whose names sanitise alike never share a prompt's gateway name.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Emitter } from '../../src/common/event';
import { ManagerCatalog, type GatewayCatalog } from '../../src/gateway/catalog';
import { registerGatewayMethods } from '../../src/gateway/gatewayMethods';
import type { Manager } from '../../src/manager/manager';
import { serversForUri, uriTemplateMatcher } from '../../src/manager/uriTemplate';
import { JsonRpcConnection } from '../../src/protocol/connection';
import type { CallToolResult, ReadResourceResult } from '../../src/protocol/schema';
import { linkedPair } from '../fixtures/linkedTransport';

/** A catalog of two servers with templates; `asked` records which server each read went to. */
function catalogOf(templates: { server: string; uriTemplate: string }[], asked: string[]): GatewayCatalog {
	const changed = new Emitter<void>();
	return {
		tools: () => [
			{
				server: 'linker',
				qualifiedName: 'mcp__linker__link',
				tool: { name: 'link', inputSchema: { type: 'object' } },
			},
		],
		findTool: (name) =>
			name === 'mcp__linker__link'
				? { server: 'linker', qualifiedName: name, tool: { name: 'link', inputSchema: { type: 'object' } } }
				: undefined,
		prompts: () => [],
		resources: () => [],
		resourceTemplates: () =>
			templates.map(({ server, uriTemplate }) => ({ server, template: { name: uriTemplate, uriTemplate } })),
		callTool: () =>
			Promise.resolve<CallToolResult>({
				content: [{ type: 'resource_link', uri: 'secret://from-linker/1', name: 'one' }],
			}),
		getPrompt: () => Promise.reject(new Error('no prompts')),
		readResource: (server, uri) => {
			asked.push(server);
			return Promise.resolve<ReadResourceResult>({ contents: [{ uri, text: `${server}'s content` }] });
		},
		onDidChange: changed.event,
	};
}

async function gatewaySession(catalog: GatewayCatalog): Promise<JsonRpcConnection> {
	const pair = linkedPair();
	const server = new JsonRpcConnection(pair.server, { name: 'gateway' });
	registerGatewayMethods(server, catalog);
	const client = new JsonRpcConnection(pair.client, { name: 'agent' });
	await server.start();
	await client.start();
	return client;
}

test('a URI no server lists is read only from the server whose template matches it', async () => {
	const asked: string[] = [];
	// The other server comes first in configuration order: on main it was asked first and its answer won.
	const client = await gatewaySession(
		catalogOf(
			[
				{ server: 'other', uriTemplate: 'notes://{id}' },
				{ server: 'files', uriTemplate: 'file:///{+path}' },
			],
			asked,
		),
	);
	const read = (await client.request('resources/read', { uri: 'file:///home/me/plan.md' })) as ReadResourceResult;
	assert.deepEqual(asked, ['files'], 'only the matching server learned the URI');
	assert.equal((read.contents[0] as { text: string }).text, "files's content");

	await assert.rejects(client.request('resources/read', { uri: 'https://example.com/x' }), /Resource not found/);
	assert.deepEqual(asked, ['files'], 'a URI no template matches is asked of nobody');
});

test('a catch-all template does not compete with a more specific one; equal matches ask nobody', async () => {
	const asked: string[] = [];
	const client = await gatewaySession(
		catalogOf(
			[
				{ server: 'greedy', uriTemplate: '{+anything}' },
				{ server: 'files', uriTemplate: 'file:///{+path}' },
				{ server: 'twin-a', uriTemplate: 'db://{table}' },
				{ server: 'twin-b', uriTemplate: 'db://{name}' },
			],
			asked,
		),
	);
	await client.request('resources/read', { uri: 'file:///a.txt' });
	assert.deepEqual(asked, ['files']);
	await assert.rejects(client.request('resources/read', { uri: 'db://users' }), /match it equally/);
	assert.deepEqual(asked, ['files']);
});

test("a resource link in a tool's result is read from the server whose tool linked it", async () => {
	const asked: string[] = [];
	const client = await gatewaySession(catalogOf([{ server: 'greedy', uriTemplate: '{+anything}' }], asked));
	await client.request('tools/call', { name: 'mcp__linker__link', arguments: {} });
	await client.request('resources/read', { uri: 'secret://from-linker/1' });
	assert.deepEqual(asked, ['linker']);
});

test('URI templates match by their operators', () => {
	assert.ok(uriTemplateMatcher('file:///{path}').matches('file:///a.txt'));
	assert.ok(!uriTemplateMatcher('file:///{path}').matches('file:///dir/a.txt'), 'a simple expression stops at /');
	assert.ok(uriTemplateMatcher('file:///{+path}').matches('file:///dir/a.txt'));
	assert.ok(uriTemplateMatcher('repo://{owner}/{repo}{?ref}').matches('repo://me/x?ref=main'));
	assert.ok(!uriTemplateMatcher('repo://{owner}/{repo}').matches('other://me/x'));
	assert.deepEqual(serversForUri('x://1', []), []);
});

test('servers whose names sanitise alike get distinct prompt names in the gateway, in configuration order', () => {
	const running = { kind: 'running' } as const;
	const summary = { name: 'summary', description: 'Summarise the notes' };
	const servers = [
		{ name: 'team notes', state: running, prompts: [summary], source: { kind: 'user' } },
		{ name: 'team.notes', state: running, prompts: [summary], source: { kind: 'user' } },
	];
	const none = () => ({ dispose: () => undefined });
	const manager = {
		servers: () => servers,
		onDidChangeServers: none,
		onDidChangeState: none,
		onDidChangeLists: none,
	} as unknown as Manager;
	const catalog = new ManagerCatalog(manager);
	const prompts = catalog.prompts();
	const names = prompts.map((p) => p.qualifiedName);
	assert.equal(new Set(names).size, 2, `unique: ${names.join(', ')}`);
	assert.equal(names[0], 'mcp__team_notes__summary', 'the first in configuration order keeps the plain name');
	assert.deepEqual(
		prompts.map((p) => p.server),
		['team notes', 'team.notes'],
	);
	catalog.dispose();
});
