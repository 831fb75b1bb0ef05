// Which server answers through the gateway (issue 27 defects 3 and 10, issue 33): each server has its own endpoint,
// and a session reaches only its endpoint's server, so a resources/read of any URI (listed, templated, linked by a
// tool, or unknown) goes to that server and never to another one; two servers whose names sanitise alike have
// endpoints of their own, each listing its prompts under their own names.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Emitter } from '../../src/common/event';
import { ManagerCatalog, type GatewayCatalog } from '../../src/gateway/catalog';
import { registerGatewayMethods } from '../../src/gateway/gatewayMethods';
import type { Manager } from '../../src/manager/manager';
import { serversForUri, uriTemplateMatcher } from '../../src/manager/uriTemplate';
import { JsonRpcConnection } from '../../src/protocol/connection';
import type { CallToolResult, Prompt, ReadResourceResult } from '../../src/protocol/schema';
import { linkedPair } from '../fixtures/linkedTransport';

/** A catalog of servers with templates (and 'linker', whose tool links a resource); `asked` records each read's server. */
function catalogOf(templates: { server: string; uriTemplate: string }[], asked: string[]): GatewayCatalog {
	const changed = new Emitter<void>();
	const link = {
		server: 'linker',
		qualifiedName: 'mcp__linker__link',
		tool: { name: 'link', inputSchema: { type: 'object' as const } },
	};
	return {
		servers: () => ['linker', ...templates.map(({ server }) => server)],
		tools: () => [link],
		findTool: (name) => (name === link.qualifiedName ? link : undefined),
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

/** A session on `server`'s endpoint, as VS Code's client opens one per server definition. */
async function gatewaySession(catalog: GatewayCatalog, server: string): Promise<JsonRpcConnection> {
	const pair = linkedPair();
	const connection = new JsonRpcConnection(pair.server, { name: `gateway ${server}` });
	registerGatewayMethods(connection, catalog, server);
	const client = new JsonRpcConnection(pair.client, { name: 'agent' });
	await connection.start();
	await client.start();
	return client;
}

test("a URI is read only from the server whose endpoint the session opened, whatever the other servers' templates", async () => {
	const asked: string[] = [];
	// The other server comes first in configuration order and has a catch-all template: before issue 27 it was asked
	// first and its answer won.
	const catalog = catalogOf(
		[
			{ server: 'greedy', uriTemplate: '{+anything}' },
			{ server: 'files', uriTemplate: 'file:///{+path}' },
		],
		asked,
	);
	const files = await gatewaySession(catalog, 'files');
	const read = (await files.request('resources/read', { uri: 'file:///home/me/plan.md' })) as ReadResourceResult;
	assert.deepEqual(asked, ['files'], "only the endpoint's server learned the URI");
	assert.equal((read.contents[0] as { text: string }).text, "files's content");
	await files.request('resources/read', { uri: 'https://example.com/x' });
	assert.deepEqual(asked, ['files', 'files'], 'a URI no template matches goes to the same server, no other');

	const greedy = await gatewaySession(catalog, 'greedy');
	await greedy.request('resources/read', { uri: 'file:///a.txt' });
	assert.deepEqual(asked, ['files', 'files', 'greedy'], "greedy's endpoint asks greedy only");
	assert.deepEqual(
		((await files.request('resources/templates/list', {})) as { resourceTemplates: { uriTemplate: string }[] })
			.resourceTemplates,
		[{ name: 'file:///{+path}', uriTemplate: 'file:///{+path}' }],
		"an endpoint lists its own server's templates only",
	);
});

test("a resource link in a tool's result is read from the server whose tool linked it, under the tool's own name", async () => {
	const asked: string[] = [];
	const catalog = catalogOf([{ server: 'greedy', uriTemplate: '{+anything}' }], asked);
	const linker = await gatewaySession(catalog, 'linker');
	const { tools } = (await linker.request('tools/list', {})) as { tools: { name: string }[] };
	assert.deepEqual(
		tools.map((tool) => tool.name),
		['link'],
	);
	await linker.request('tools/call', { name: 'link', arguments: {} });
	await linker.request('resources/read', { uri: 'secret://from-linker/1' });
	assert.deepEqual(asked, ['linker']);
	const greedy = await gatewaySession(catalog, 'greedy');
	assert.deepEqual(((await greedy.request('tools/list', {})) as { tools: unknown[] }).tools, []);
	await assert.rejects(greedy.request('tools/call', { name: 'link', arguments: {} }), /Unknown tool: link/);
});

test('URI templates match by their operators', () => {
	assert.ok(uriTemplateMatcher('file:///{path}').matches('file:///a.txt'));
	assert.ok(!uriTemplateMatcher('file:///{path}').matches('file:///dir/a.txt'), 'a simple expression stops at /');
	assert.ok(uriTemplateMatcher('file:///{+path}').matches('file:///dir/a.txt'));
	assert.ok(uriTemplateMatcher('repo://{owner}/{repo}{?ref}').matches('repo://me/x?ref=main'));
	assert.ok(!uriTemplateMatcher('repo://{owner}/{repo}').matches('other://me/x'));
	assert.deepEqual(serversForUri('x://1', []), []);
});

test('servers whose names sanitise alike get distinct prompt names in the gateway, in configuration order', async () => {
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
	// Each has its own endpoint, where its prompt keeps its own name.
	for (const server of ['team notes', 'team.notes']) {
		const session = await gatewaySession(catalog, server);
		const listed = (await session.request('prompts/list', {})) as { prompts: Prompt[] };
		assert.deepEqual(listed.prompts, [summary], server);
	}
	catalog.dispose();
});
