import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Emitter } from '../../src/common/event';
import { Manager, type ServerState } from '../../src/manager/manager';
import { McpError } from '../../src/protocol/mcpError';
import { ErrorCode } from '../../src/protocol/jsonrpc';
import { FakeClock, FakeConnector, flush, stdioServer, testHost } from './managerFakes';

function setup(options: { stdio?: number } = {}, hostOverrides: Parameters<typeof testHost>[0] = {}) {
	const clock = new FakeClock();
	const connector = new FakeConnector();
	const host = testHost(hostOverrides);
	const manager = new Manager(host, {
		connect: connector.connect,
		clock,
		maxConcurrentStarts: { stdio: options.stdio ?? 4 },
	});
	const states = new Map<string, ServerState['kind'][]>();
	manager.onDidChangeState(({ server, state }) => states.set(server, [...(states.get(server) ?? []), state.kind]));
	return { clock, connector, host, manager, states };
}

test('reconcile starts every server and lists its tools under qualified names', async () => {
	const { manager, connector } = setup();
	connector.toolsFor.set('b', [
		{ name: 'x.y', inputSchema: {} },
		{ name: 'z', inputSchema: {} },
	]);
	await manager.reconcile([stdioServer('a'), stdioServer('b')]);
	assert.deepEqual(
		manager.servers().map((s) => [s.name, s.state.kind]),
		[
			['a', 'running'],
			['b', 'running'],
		],
	);
	await flush();
	assert.deepEqual(
		manager.allTools().map((t) => t.qualifiedName),
		['mcp__a__echo', 'mcp__b__x_y', 'mcp__b__z'],
	);
	assert.equal(manager.findTool('mcp__b__x_y')?.tool.name, 'x.y');
	const result = await manager.callTool('b', 'z', { n: 1 });
	assert.deepEqual(result.content, [{ type: 'text', text: 'b:z:{"n":1}' }]);
	await manager.dispose();
});

test('reconcile restarts only the server whose config changed, stops removed ones, starts new ones', async () => {
	const { manager, connector } = setup();
	await manager.reconcile([stdioServer('a'), stdioServer('b'), stdioServer('c')]);
	const firstB = connector.last('b');
	const firstC = connector.last('c');
	let serversChanged = 0;
	manager.onDidChangeServers(() => serversChanged++);

	await manager.reconcile([stdioServer('a', { args: ['changed.js'] }), stdioServer('b'), stdioServer('d')]);
	assert.equal(connector.count('a'), 2, 'a changed: restarted');
	assert.equal(connector.count('b'), 1, 'b unchanged: not restarted');
	assert.equal(firstB.closed, false);
	assert.equal(firstC.closed, true, 'c removed: stopped');
	assert.equal(connector.count('d'), 1, 'd new: started');
	assert.equal(manager.get('c'), undefined);
	assert.equal(serversChanged, 1);
	assert.deepEqual(
		manager.servers().map((s) => s.name),
		['a', 'b', 'd'],
	);

	// Same config again, key order different: nothing restarts.
	await manager.reconcile([stdioServer('a', { args: ['changed.js'] }), stdioServer('b'), stdioServer('d')]);
	assert.deepEqual([connector.count('a'), connector.count('b'), connector.count('d')], [2, 1, 1]);
	await manager.dispose();
	assert.ok(
		connector.clients.every((c) => c.closed),
		'dispose closes every client',
	);
});

test('disabled servers do not start; enabling one starts it', async () => {
	const { manager, connector } = setup();
	await manager.reconcile([stdioServer('a', { disabled: true })]);
	assert.equal(manager.get('a')?.state.kind, 'disabled');
	assert.equal(connector.count('a'), 0);
	await manager.reconcile([stdioServer('a')]);
	assert.equal(manager.get('a')?.state.kind, 'running');
	await manager.reconcile([stdioServer('a', { disabled: true })]);
	assert.equal(manager.get('a')?.state.kind, 'disabled');
	assert.equal(connector.last('a').closed, true);
	await manager.dispose();
});

test('a crash restarts with backoff 1 s, 2 s, 4 s, 8 s; the fifth crash in 3 minutes stops with crashLoop', async () => {
	const { manager, connector, clock, states } = setup();
	await manager.reconcile([stdioServer('flaky')]);
	const delays: number[] = [];
	for (let crash = 1; crash <= 4; crash++) {
		connector.last('flaky').crash(`Server 'flaky' exited with code 3`);
		const state = manager.get('flaky')!.state;
		assert.equal(state.kind, 'error');
		assert.ok(state.kind === 'error' && state.retryAt !== undefined);
		if (state.kind === 'error') {
			assert.match(state.message, /exited with code 3/);
			delays.push(state.retryAt - clock.now());
		}
		await clock.advance(delays.at(-1)! - 1);
		assert.equal(connector.count('flaky'), crash, 'no restart before the delay');
		await clock.advance(1);
		assert.equal(connector.count('flaky'), crash + 1);
		assert.equal(manager.get('flaky')!.state.kind, 'running');
	}
	assert.deepEqual(delays, [1000, 2000, 4000, 8000]);
	connector.last('flaky').crash();
	const final = manager.get('flaky')!.state;
	assert.equal(final.kind, 'error');
	assert.ok(final.kind === 'error' && final.crashLoop === true && final.retryAt === undefined);
	assert.match(final.kind === 'error' ? final.message : '', /stopped 5 times within 3 minutes.*not restarted/);
	await clock.advance(600_000);
	assert.equal(connector.count('flaky'), 5, 'no restart after the cap');
	assert.deepEqual(states.get('flaky')!.slice(0, 4), ['starting', 'running', 'error', 'starting']);
	assert.ok(states.get('flaky')!.includes('starting'));

	// The user's Restart clears the crash count.
	await manager.restart('flaky');
	assert.equal(manager.get('flaky')!.state.kind, 'running');
	assert.match(manager.get('flaky')!.lastError ?? '', /not restarted/);
	await manager.dispose();
});

test('a command that cannot be spawned is not retried, and its message reaches the state intact', async () => {
	const { manager, connector, clock } = setup();
	const message =
		"Could not start server 'x': command 'npx' was not found on PATH (/usr/bin:/bin). Use the absolute path to 'npx'.";
	connector.behaviour.set('x', { fail: new McpError(ErrorCode.TransportFailed, message) });
	await manager.reconcile([stdioServer('x')]);
	assert.deepEqual(manager.get('x')!.state, { kind: 'error', message });
	await clock.advance(120_000);
	assert.equal(connector.count('x'), 1);
	await manager.dispose();
});

test('a hung server times out after its own timeout while others come up; its attempt is aborted', async () => {
	const { manager, connector, clock } = setup({ stdio: 1 });
	connector.behaviour.set('hung', 'hang');
	const done = manager.reconcile([stdioServer('hung', { timeoutMs: 5000 }), stdioServer('ok1'), stdioServer('ok2')]);
	await flush();
	assert.equal(manager.get('hung')!.state.kind, 'starting');
	assert.equal(manager.get('ok1')!.state.kind, 'starting', 'waits for the only stdio slot');
	await clock.advance(5000);
	await done;
	const state = manager.get('hung')!.state;
	assert.equal(state.kind, 'error');
	assert.match(state.kind === 'error' ? state.message : '', /did not finish starting within 5 s/);
	assert.deepEqual(connector.aborted, ['hung']);
	assert.equal(manager.get('ok1')!.state.kind, 'running');
	assert.equal(manager.get('ok2')!.state.kind, 'running');
	await manager.dispose();
});

test('per-kind limits: no more than N stdio starts at once', async () => {
	const { manager, connector } = setup({ stdio: 3 });
	connector.latencyMs = 5;
	await manager.reconcile(Array.from({ length: 12 }, (_, i) => stdioServer(`s${i}`)));
	assert.equal(connector.maxActive, 3);
	assert.ok(manager.servers().every((s) => s.state.kind === 'running'));
	await manager.dispose();
});

test('workspace-defined servers ask for trust with what will run; refusal shows needsTrust and spawns nothing', async () => {
	const asked: { server: string; description: string }[] = [];
	let allow = false;
	const { manager, connector } = setup(
		{},
		{
			confirmTrust: async (server, description) => {
				asked.push({ server, description });
				return allow;
			},
		},
	);
	await manager.reconcile([stdioServer('ws', { args: ['--root', '/w'] }, true), stdioServer('user')]);
	assert.equal(manager.get('ws')!.state.kind, 'needsTrust');
	assert.equal(manager.get('user')!.state.kind, 'running', 'user-level servers start without asking');
	assert.equal(connector.count('ws'), 0);
	assert.deepEqual(asked, [{ server: 'ws', description: 'Command: node --root /w' }]);

	// Trust granted later: the next reconcile (fired by the trust change) asks again and starts it.
	allow = true;
	await manager.reconcile([stdioServer('ws', { args: ['--root', '/w'] }, true), stdioServer('user')]);
	assert.equal(manager.get('ws')!.state.kind, 'running');
	await manager.dispose();
});

test('stopping while a start is in flight discards the late client', async () => {
	const { manager, connector } = setup();
	connector.latencyMs = 20;
	const starting = manager.reconcile([stdioServer('slow')]);
	await flush();
	await manager.stop('slow');
	await starting;
	await new Promise((r) => setTimeout(r, 40));
	assert.equal(manager.get('slow')!.state.kind, 'stopped');
	assert.ok(connector.clients.every((c) => c.closed));
	await manager.dispose();
});

test('list_changed refreshes the tool list once per burst (debounced)', async () => {
	const { manager, connector, clock } = setup();
	await manager.reconcile([stdioServer('a')]);
	await flush();
	const client = connector.last('a');
	assert.equal(client.listToolsCalls, 1);
	let listsChanged = 0;
	manager.onDidChangeLists(() => listsChanged++);
	client.tools = [{ name: 'new', inputSchema: {} }];
	client.toolsEmitter.fire();
	client.toolsEmitter.fire();
	client.toolsEmitter.fire();
	await clock.advance(200);
	assert.equal(client.listToolsCalls, 2);
	assert.equal(listsChanged, 1);
	assert.deepEqual(
		manager.allTools().map((t) => t.qualifiedName),
		['mcp__a__new'],
	);
	assert.equal(manager.findTool('mcp__a__echo'), undefined);
	await manager.dispose();
});

test('resource reads are cached, invalidated by resources/updated, list_changed and restart', async () => {
	const { manager, connector, clock } = setup();
	await manager.reconcile([stdioServer('r')]);
	const client = connector.last('r');
	const text = async () => ((await manager.readResource('r', 'demo://a')).contents[0] as { text: string }).text;
	assert.equal(await text(), 'demo://a #1');
	assert.equal(await text(), 'demo://a #1', 'served from cache');
	const updates: string[] = [];
	manager.onDidUpdateResource(({ uri }) => updates.push(uri));
	client.updateEmitter.fire({ uri: 'demo://a' });
	assert.deepEqual(updates, ['demo://a']);
	assert.equal(await text(), 'demo://a #2');
	client.resourcesEmitter.fire();
	assert.equal(await text(), 'demo://a #3');
	await clock.advance(31_000);
	assert.equal(await text(), 'demo://a #4', 'expired after the TTL');
	await manager.restart('r');
	assert.equal(await text(), 'demo://a #1', 'a restart starts with an empty cache (new client)');
	await manager.dispose();
});

test('roots, logging level, server log messages and host handlers bound to the server name', async () => {
	const rootsChanged = new Emitter<void>();
	const elicited: string[] = [];
	const { manager, connector, host } = setup(
		{},
		{
			roots: () => [{ uri: 'file:///w', name: 'w' }],
			onDidChangeRoots: rootsChanged.event,
			loggingLevel: (server) => (server === 'a' ? 'warning' : undefined),
			elicit: async (server) => {
				elicited.push(server);
				return { action: 'decline' };
			},
		},
	);
	await manager.reconcile([stdioServer('a'), stdioServer('b')]);
	assert.deepEqual(connector.last('a').levels, ['warning']);
	assert.deepEqual(connector.last('b').levels, []);
	const request = connector.attempts.find((a) => a.name === 'b')!;
	assert.deepEqual(await request.handlers.roots!(new AbortController().signal), [{ uri: 'file:///w', name: 'w' }]);
	assert.equal(request.handlers.sampling, undefined, 'no sampling handler when the host has none');
	await request.handlers.elicitation!(
		{ message: 'hi', requestedSchema: { properties: {} } },
		new AbortController().signal,
	);
	assert.deepEqual(elicited, ['b']);

	rootsChanged.fire();
	await flush();
	assert.equal(connector.last('a').rootsNotified, 1);
	assert.equal(connector.last('b').rootsNotified, 1);

	connector.last('a').logEmitter.fire({ level: 'notice', logger: 'db', data: 'connected' });
	connector.last('a').logEmitter.fire({ level: 'critical', data: { code: 7 } });
	connector.last('a').logEmitter.fire({ level: 'warning', data: 'slow' });
	const entries = host.loggers.get('a')!.entries.filter((e) => /connected|code|slow/.test(e.message));
	assert.deepEqual(
		entries.map((e) => [e.level, e.message]),
		[
			['info', '[db] connected'],
			['error', '{"code":7}'],
			['warn', 'slow'],
		],
	);
	await manager.dispose();
});

test('an expired HTTP session goes through the restart policy: the first re-initializes at once, repeated ones back off up to the cap', async () => {
	const { manager, connector, clock } = setup();
	const expire = () => {
		const client = connector.last('h');
		client.closed = true;
		client.closeEmitter.fire(McpError.connectionClosed('session expired', { sessionExpired: true }));
	};
	await manager.reconcile([
		{
			name: 'h',
			config: { type: 'http', url: 'http://127.0.0.1:1/mcp' },
			source: { kind: 'user', label: 'User settings' },
			workspaceDefined: false,
		},
	]);

	// A session that expires after a long, stable run (a server's session lifetime): a new one at once, quietly.
	for (let i = 0; i < 3; i++) {
		await clock.advance(61_000);
		expire();
		await flush();
		assert.equal(manager.get('h')!.state.kind, 'running', `expiry ${i + 1} after a stable run: re-initialized at once`);
	}
	assert.equal(connector.count('h'), 4);
	assert.equal(manager.get('h')!.lastError, undefined, 'no error was shown');

	// A load balancer without sticky sessions: every session expires seconds after it began. The reproduction made
	// 10 connects in 12 s; now the second expiry in a row waits, and the waits grow.
	await clock.advance(61_000);
	const before = connector.count('h');
	const started = clock.now();
	for (;;) {
		await clock.advance(1_500);
		if (clock.now() - started > 12_000) break;
		if (manager.get('h')!.state.kind === 'running') expire();
		await flush();
	}
	const connects = connector.count('h') - before;
	assert.ok(connects <= 4, `${connects} connects in 12 s`);
	const state = manager.get('h')!.state;
	assert.ok(state.kind === 'error' || state.kind === 'running', state.kind);

	// And it stops at the crash-loop cap (5 in 3 minutes) with a Restart action for the user.
	for (
		let i = 0;
		i < 20 &&
		!(manager.get('h')!.state.kind === 'error' && (manager.get('h')!.state as { crashLoop?: boolean }).crashLoop);
		i++
	) {
		await clock.advance(1_500);
		if (manager.get('h')!.state.kind === 'running') expire();
		await flush();
		await clock.advance(60_000);
	}
	const final = manager.get('h')!.state;
	assert.ok(final.kind === 'error' && final.crashLoop === true, `stopped by the cap: ${JSON.stringify(final.kind)}`);
	await manager.dispose();
});

test('a session that expires right after it began is handled as a crash (backoff from the first)', async () => {
	const { manager, connector } = setup();
	await manager.reconcile([
		{
			name: 'h',
			config: { type: 'http', url: 'http://127.0.0.1:1/mcp' },
			source: { kind: 'user', label: 'User settings' },
			workspaceDefined: false,
		},
	]);
	const quick = connector.last('h');
	quick.closed = true;
	quick.closeEmitter.fire(McpError.connectionClosed('session expired', { sessionExpired: true }));
	const state = manager.get('h')!.state;
	assert.ok(state.kind === 'error' && state.retryAt !== undefined, 'expired right after starting: backoff');
	await manager.dispose();
});

test('overlapping tools/list results are applied in the order they were started: a slow old listing never overwrites a newer one', async () => {
	const { manager, connector, clock } = setup();
	let releaseFirst!: () => void;
	connector.toolsFor.set('a', [{ name: 'old', inputSchema: {} }]);
	await manager.reconcile([stdioServer('a')]);
	await flush();
	const client = connector.last('a');
	// Replay the race: the first listing (started at start-up) is held, a list_changed listing runs and finishes.
	client.listToolsHook = async (call) => {
		if (call === 2) {
			await new Promise<void>((resolve) => (releaseFirst = resolve));
			return [{ name: 'stale', inputSchema: {} }];
		}
		return [{ name: 'newest', inputSchema: {} }];
	};
	const slow = manager.refresh('a'); // the slow, older listing
	await flush();
	client.toolsEmitter.fire();
	await clock.advance(200);
	assert.deepEqual(
		manager.allTools().map((t) => t.tool.name),
		['newest'],
	);
	releaseFirst();
	await slow;
	await flush();
	assert.deepEqual(
		manager.allTools().map((t) => t.tool.name),
		['newest'],
		'the older listing that finished last was dropped',
	);
	await manager.dispose();
});

test('a resource updated while a read was in flight is not cached from that read', async () => {
	const { manager, connector } = setup();
	await manager.reconcile([stdioServer('r')]);
	const client = connector.last('r');
	let open!: () => void;
	client.readGate = new Promise<void>((resolve) => (open = resolve));
	const reading = manager.readResource('r', 'demo://a');
	await flush();
	client.updateEmitter.fire({ uri: 'demo://a' }); // the server changed it while our read was on the way
	open();
	assert.equal(((await reading).contents[0] as { text: string }).text, 'demo://a #1');
	client.readGate = undefined;
	const next = await manager.readResource('r', 'demo://a');
	assert.equal(
		(next.contents[0] as { text: string }).text,
		'demo://a #2',
		'read again, not the old content from the cache',
	);
	const cached = await manager.readResource('r', 'demo://a');
	assert.equal(
		(cached.contents[0] as { text: string }).text,
		'demo://a #2',
		'a read with no update in between is cached as before',
	);
	await manager.dispose();
});

test('a connect timeout beyond 2^31-1 ms (timeoutMs: 3e9) means no timeout, not an immediate failure', async () => {
	const connector = new FakeConnector();
	connector.latencyMs = 30;
	const manager = new Manager(testHost(), { connect: connector.connect }); // the real clock
	await manager.reconcile([stdioServer('slow', { timeoutMs: 3e9 })]);
	assert.equal(manager.get('slow')!.state.kind, 'running', manager.get('slow')!.lastError);
	await manager.dispose();
});

test('client() and callTool() name the server and its state when it is not running', async () => {
	const { manager } = setup();
	await manager.reconcile([stdioServer('off', { disabled: true })]);
	assert.throws(() => manager.client('off'), /Server 'off' is not running \(disabled/);
	await assert.rejects(manager.callTool('nope', 't', {}), /No MCP server named 'nope'/);
	await manager.dispose();
});

test('50 servers with 100 tools each: reconcile and lookup stay fast and names unique', async () => {
	const { manager, connector } = setup({ stdio: 50 });
	for (let s = 0; s < 50; s++)
		connector.toolsFor.set(
			`s${s}`,
			Array.from({ length: 100 }, (_, i) => ({ name: `tool_${i}`, inputSchema: {} })),
		);
	const servers = Array.from({ length: 50 }, (_, i) => stdioServer(`s${i}`));
	await manager.reconcile(servers);
	await flush();
	const tools = manager.allTools();
	assert.equal(tools.length, 5000);
	assert.equal(new Set(tools.map((t) => t.qualifiedName)).size, 5000);
	for (const tool of tools) assert.equal(manager.findTool(tool.qualifiedName), tool);
	await manager.reconcile(servers.map((s, i) => (i === 7 ? stdioServer('s7', { args: ['v2'] }) : s)));
	assert.equal(connector.attempts.length, 51);
	await manager.dispose();
});

// Caching hints of 2026-07-28: https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching

test('2026-07-28 ttlMs on tools/list: the list is re-fetched after its ttl when next asked for, not before; list_changed still invalidates at once', async () => {
	const { manager, connector, clock } = setup();
	connector.prepare = (client) => {
		client.era = 'modern';
		client.listHints = { ttlMs: 5_000, cacheScope: 'public' };
	};
	await manager.reconcile([stdioServer('m')]);
	await flush();
	const client = connector.last('m');
	assert.equal(client.listToolsCalls, 1);
	assert.deepEqual(
		client.listening,
		[{ tools: true, prompts: false, resources: true }],
		'the lists it caches are listened for',
	);
	await clock.advance(4_000);
	assert.equal(manager.get('m')?.tools.length, 1);
	manager.allTools();
	await flush();
	assert.equal(client.listToolsCalls, 1, '"the client SHOULD consider the result fresh for that many milliseconds"');
	await clock.advance(60_000);
	assert.equal(
		client.listToolsCalls,
		1,
		'"Clients SHOULD NOT treat TTL as a polling interval": nothing while nobody asks',
	);
	let events = 0;
	manager.onDidChangeLists(() => events++);
	client.tools = [...client.tools, { name: 'new', inputSchema: { type: 'object' } }];
	assert.equal(manager.allTools().length, 1, 'the stale list is served while the new one is fetched');
	manager.allTools();
	await flush();
	assert.equal(
		client.listToolsCalls,
		2,
		'"Once the TTL expires, the response is stale and the client SHOULD re-fetch on next access" (once)',
	);
	assert.equal(manager.allTools().length, 2);
	assert.equal(events, 1);
	client.toolsEmitter.fire();
	await clock.advance(200);
	assert.equal(client.listToolsCalls, 3, '"the notification acts as an immediate invalidation signal"');
	await manager.dispose();
});

test('2026-07-28 server/discover answered differently after its ttlMs (McpClient.onDidChangeDiscovery): the row re-renders, the client listens for the lists of the new capabilities, and the lists are fetched again', async () => {
	const { manager, connector, clock } = setup();
	connector.prepare = (client) => {
		client.era = 'modern';
	};
	await manager.reconcile([stdioServer('d')]);
	await flush();
	const client = connector.last('d');
	assert.equal(client.listToolsCalls, 1);
	const states: string[] = [];
	manager.onDidChangeState(({ server, state }) => states.push(`${server}:${state.kind}`));
	client.serverCapabilities = { ...client.serverCapabilities, prompts: { listChanged: true } };
	client.instructions = 'New instructions.';
	client.discoveryEmitter.fire();
	await clock.advance(200);
	assert.deepEqual(
		client.listening.at(-1),
		{ tools: true, prompts: true, resources: true },
		'prompts are now listened for',
	);
	assert.equal(client.listToolsCalls, 2, 'the lists were fetched again');
	assert.deepEqual(states, ['d:running'], 'the row re-renders (same state, new capabilities and instructions)');
	const state = manager.get('d')?.state;
	assert.ok(state?.kind === 'running' && state.client.instructions === 'New instructions.');
	await manager.dispose();
});

test('2026-07-28 server/discover answered again without a capability: that list empties (the server withdrew it), the others stay', async () => {
	const { manager, connector, clock } = setup();
	connector.prepare = (client) => {
		client.era = 'modern';
	};
	await manager.reconcile([stdioServer('d')]);
	await flush();
	const client = connector.last('d');
	assert.equal(manager.get('d')?.tools.length, 1);
	assert.equal(manager.get('d')?.resources.length, 1);
	let events = 0;
	manager.onDidChangeLists(() => events++);
	const { tools: _withdrawn, ...rest } = client.serverCapabilities;
	client.serverCapabilities = rest;
	client.discoveryEmitter.fire();
	await clock.advance(200);
	assert.equal(manager.get('d')?.tools.length, 0, 'no tools capability any more: no tools offered');
	assert.equal(manager.allTools().length, 0);
	assert.equal(client.listToolsCalls, 1, 'nothing asked of a capability the server does not have');
	assert.equal(manager.get('d')?.resources.length, 1, 'resources are still advertised and still listed');
	assert.equal(events, 1);
	await manager.dispose();
});

test('2026-07-28 ttlMs 0: re-fetched when asked, at most every 2 s; an unchanged list fires no event; an older server is never re-listed by time', async () => {
	const { manager, connector, clock } = setup();
	connector.prepare = (client) => {
		client.era = client.name === 'modern' ? 'modern' : 'legacy';
		client.listHints = { ttlMs: 0, cacheScope: 'private' };
	};
	await manager.reconcile([stdioServer('modern'), stdioServer('legacy')]);
	await flush();
	const modern = connector.last('modern');
	const legacy = connector.last('legacy');
	let events = 0;
	manager.onDidChangeLists(() => events++);
	void manager.get('modern')?.tools;
	await flush();
	assert.equal(modern.listToolsCalls, 1, 'not within 2 s of the last listing');
	await clock.advance(2_000);
	void manager.get('modern')?.tools;
	void manager.get('modern')?.tools;
	await flush();
	assert.equal(modern.listToolsCalls, 2);
	assert.equal(events, 0, 'the same list again: nothing to render');
	await clock.advance(600_000);
	void manager.get('legacy')?.tools;
	manager.allTools();
	await flush();
	assert.equal(legacy.listToolsCalls, 1, 'hints mean nothing from a server before 2026-07-28');
	await manager.dispose();
});

test('2026-07-28 ttlMs on resources/read: a read lives for the server ttlMs instead of the cache own 30 s; ttlMs 0 and a read that took the user input are not cached', async () => {
	const { manager, connector, clock } = setup();
	connector.prepare = (client) => {
		client.era = 'modern';
	};
	await manager.reconcile([stdioServer('r')]);
	const client = connector.last('r');
	const text = async () => ((await manager.readResource('r', 'demo://a')).contents[0] as { text: string }).text;
	client.readExtra = { resultType: 'complete', ttlMs: 5_000, cacheScope: 'private' };
	assert.equal(await text(), 'demo://a #1');
	await clock.advance(4_000);
	assert.equal(await text(), 'demo://a #1', 'fresh within the server ttlMs');
	await clock.advance(2_000);
	assert.equal(await text(), 'demo://a #2', 'stale after the server ttlMs, well before the 30 s default');
	client.readExtra = { resultType: 'complete', ttlMs: 0, cacheScope: 'public' };
	await clock.advance(6_000);
	assert.equal(await text(), 'demo://a #3');
	assert.equal(await text(), 'demo://a #4', '"If ttlMs is 0, the response SHOULD be considered immediately stale"');
	client.readExtra = { resultType: 'complete', ttlMs: 3_600_000 };
	assert.equal(await text(), 'demo://a #5');
	await clock.advance(31 * 60_000);
	assert.equal(await text(), 'demo://a #5', 'an hour-long ttlMs outlives the default 30 s');
	client.updateEmitter.fire({ uri: 'demo://a' });
	assert.equal(await text(), 'demo://a #6', 'an update notification still invalidates at once');
	client.readExtra = {};
	client.readNeedsInput = true;
	await clock.advance(3_600_000);
	assert.equal(await text(), 'demo://a #7');
	assert.equal(
		await text(),
		'demo://a #8',
		'"Results produced by retrying a request through the multi round-trip requests mechanism ... MUST NOT be cached"',
	);
	await manager.dispose();
});

test('deprecated features in use (https://modelcontextprotocol.io/specification/2026-07-28/deprecated): HTTP+SSE, roots, sampling and logging are listed for the view and noted in the log of a 2026-07-28 server; they keep working', async () => {
	const { manager, connector, host } = setup(
		{},
		{
			roots: () => [{ uri: 'file:///w', name: 'w' }],
			sample: async () => ({ role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' }),
		},
	);
	connector.prepare = (client) => {
		client.era = client.name === 'modern' ? 'modern' : 'legacy';
	};
	const sse = {
		name: 'old-sse',
		config: { type: 'sse' as const, url: 'http://127.0.0.1:1/sse' },
		source: { kind: 'user' as const, label: 'User settings' },
		workspaceDefined: false,
	};
	await manager.reconcile([stdioServer('modern'), stdioServer('legacy'), sse]);
	assert.deepEqual(manager.get('old-sse')?.deprecatedFeatures, ['HTTP+SSE transport']);
	assert.deepEqual(manager.get('modern')?.deprecatedFeatures, []);
	const handlers = connector.attempts.find((a) => a.name === 'modern')!.handlers;
	assert.deepEqual(
		await handlers.roots!(new AbortController().signal),
		[{ uri: 'file:///w', name: 'w' }],
		'roots keep working',
	);
	await handlers.roots!(new AbortController().signal);
	const sampled = await handlers.sampling!({ messages: [], maxTokens: 5 }, new AbortController().signal);
	assert.equal(sampled.model, 'm', 'sampling keeps working');
	await handlers.sampling!({ messages: [], maxTokens: 5 }, new AbortController().signal);
	connector.last('modern').logEmitter.fire({ level: 'info', data: 'hello' });
	assert.deepEqual(manager.get('modern')?.deprecatedFeatures, ['roots', 'sampling', 'logging']);
	const log = host.loggers.get('modern')!;
	assert.equal(
		log.find('roots is deprecated in MCP 2026-07-28 (SEP-2577)').length,
		1,
		'roots noted once per connection',
	);
	assert.equal(
		log.find('sampling is deprecated in MCP 2026-07-28 (SEP-2577)').length,
		2,
		'every sampling request is noted',
	);
	assert.equal(log.find('logging is deprecated in MCP 2026-07-28').length, 1);
	await connector.attempts.find((a) => a.name === 'legacy')!.handlers.roots!(new AbortController().signal);
	assert.deepEqual(manager.get('legacy')?.deprecatedFeatures, ['roots']);
	assert.equal(
		host.loggers
			.get('legacy')!
			.find('deprecated in MCP 2026-07-28')
			.filter((e) => e.level === 'info').length,
		0,
		'an older server (its revision still has roots) gets no notice, only a debug line',
	);
	await manager.restart('modern');
	assert.deepEqual(manager.get('modern')?.deprecatedFeatures, [], 'counted per connection');
	await manager.dispose();
});

test('a crash under a one-attempt policy (the command line) reports the crash itself, not "stopped 1 times"', async () => {
	const clock = new FakeClock();
	const connector = new FakeConnector();
	const manager = new Manager(testHost({}), { connect: connector.connect, clock, restartPolicy: { maxCrashes: 0 } });
	await manager.reconcile([stdioServer('once')]);
	connector.last('once').crash(`Server 'once' exited with code 3`);
	const state = manager.get('once')!.state;
	assert.equal(state.kind, 'error');
	assert.equal(state.kind === 'error' ? state.message : '', `Server 'once' exited with code 3`);
	await manager.dispose();
});

test('a failed start carries what resolving noted: an unset ${env:X} in the url is named next to "connection refused"', async () => {
	const clock = new FakeClock();
	const connector = new FakeConnector();
	const manager = new Manager(testHost({}), { connect: connector.connect, clock, restartPolicy: { maxCrashes: 0 } });
	const note = `Server 'demo': field "url": environment variable MCP_SWITCHBOARD_DEMO_HTTP_PORT is not set (used as an empty value, as in VS Code)`;
	await manager.reconcile([{ ...stdioServer('demo'), notes: [note] }]);
	connector.last('demo').crash(`Server 'demo': connection refused`);
	const state = manager.get('demo')!.state;
	assert.equal(state.kind === 'error' ? state.message : '', `Server 'demo': connection refused\n${note}`);
	await manager.dispose();
});
