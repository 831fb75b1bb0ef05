import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_TOOL_NAME_LENGTH, qualifyToolName, sanitizeName, ToolNameRegistry } from '../../src/manager/toolNames';

const make = (server: string) => (item: { name: string }, qualifiedName: string) => ({
	server,
	tool: item.name,
	qualifiedName,
});

test('names are mcp__<server>__<tool>, sanitised to [A-Za-z0-9_-]', () => {
	assert.equal(sanitizeName('my server.v2/ü'), 'my_server_v2__');
	const registry = new ToolNameRegistry<{ qualifiedName: string }>();
	registry.setServers(['github', 'my server']);
	assert.deepEqual(
		registry
			.setTools('github', [{ name: 'create_issue' }, { name: 'search.code' }], make('github'))
			.map((t) => t.qualifiedName),
		['mcp__github__create_issue', 'mcp__github__search_code'],
	);
	assert.equal(
		registry.setTools('my server', [{ name: 'echo' }], make('my server'))[0]!.qualifiedName,
		'mcp__my_server__echo',
	);
});

test('long names are cut to 64 characters with a stable hash, distinct for shared prefixes', () => {
	const long = 'a'.repeat(80);
	const one = qualifyToolName('srv', `${long}_one`);
	const two = qualifyToolName('srv', `${long}_two`);
	assert.equal(one.length, MAX_TOOL_NAME_LENGTH);
	assert.equal(two.length, MAX_TOOL_NAME_LENGTH);
	assert.notEqual(one, two);
	assert.equal(one, qualifyToolName('srv', `${long}_one`));
	assert.match(one, /^mcp__srv__a+_[0-9a-z]{6}$/);
});

test('unique across servers and tools that sanitise alike, with reverse lookup', () => {
	const registry = new ToolNameRegistry<{ server: string; tool: string; qualifiedName: string }>();
	registry.setServers(['my server', 'my_server', 'x']);
	const a = registry.setTools('my server', [{ name: 'a.b' }, { name: 'a_b' }], make('my server'));
	const b = registry.setTools('my_server', [{ name: 'a_b' }], make('my_server'));
	const names = [...a, ...b].map((t) => t.qualifiedName);
	assert.equal(new Set(names).size, 3);
	for (const name of names) {
		assert.match(name, /^[A-Za-z0-9_-]{1,64}$/);
		const found = registry.lookup(name);
		assert.ok(found);
		assert.equal(found.value.qualifiedName, name);
	}
	assert.equal(registry.lookup(a[1]!.qualifiedName)!.tool, 'a_b');
	assert.equal(registry.lookup(a[1]!.qualifiedName)!.server, 'my server');
	assert.equal(registry.lookup(b[0]!.qualifiedName)!.server, 'my_server');
	assert.equal(registry.lookup('mcp__nope__x'), undefined);
});

test("one server's tool change does not rename another server's tools; removed servers are forgotten", () => {
	const registry = new ToolNameRegistry<{ qualifiedName: string }>();
	registry.setServers(['a', 'b']);
	const before = registry.setTools('b', [{ name: 't' }], make('b'))[0]!.qualifiedName;
	registry.setTools('a', [{ name: 't' }, { name: 'u' }], make('a'));
	registry.setTools('a', [{ name: 'v' }], make('a'));
	assert.equal(registry.qualifiedName('b', 't'), before);
	assert.equal(registry.lookup('mcp__a__t'), undefined);
	assert.ok(registry.lookup('mcp__a__v'));
	registry.setServers(['b']);
	assert.equal(registry.lookup('mcp__a__v'), undefined);
	assert.equal(registry.size, 1);
});

test('5,000 tools over 50 servers: every name unique and found again', () => {
	const registry = new ToolNameRegistry<{ qualifiedName: string }>();
	const servers = Array.from({ length: 50 }, (_, i) => `server-${i}`);
	registry.setServers(servers);
	const all: string[] = [];
	for (const server of servers) {
		const tools = Array.from({ length: 100 }, (_, i) => ({ name: `tool_${i}_${'x'.repeat(i % 70)}` }));
		all.push(...registry.setTools(server, tools, make(server)).map((t) => t.qualifiedName));
	}
	assert.equal(new Set(all).size, 5000);
	assert.ok(all.every((n) => n.length <= 64 && registry.lookup(n)?.value.qualifiedName === n));
});
