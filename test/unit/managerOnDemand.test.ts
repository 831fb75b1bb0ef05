// Starting on first need and stopping when idle (#28), with the fake clock and connector: what starts when, what
// keeps a server running, and what a user's own Stop means.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Manager } from '../../src/manager/manager';
import type { CachedListing, ListingStore } from '../../src/manager/listingCache';
import { FakeClock, FakeConnector, flush, stdioServer, testHost } from './managerFakes';

const MINUTE = 60_000;

/** A listing store in memory (the file store is tested against real files in test/integration/onDemand.test.ts). */
class MemoryStore implements ListingStore {
	readonly listings = new Map<string, CachedListing>();
	load(identity: string) {
		return this.listings.get(identity);
	}
	save(identity: string, listing: CachedListing) {
		this.listings.set(identity, listing);
	}
	drop(identity: string) {
		this.listings.delete(identity);
	}
}

function setup(options: { autoStart?: boolean; idleStopMs?: number; store?: ListingStore } = {}) {
	const clock = new FakeClock();
	const connector = new FakeConnector();
	const manager = new Manager(testHost(), {
		connect: connector.connect,
		clock,
		autoStart: options.autoStart ?? false,
		idleStopMs: options.idleStopMs ?? 10 * MINUTE,
		listingStore: options.store,
	});
	return { clock, connector, manager };
}

test('with autoStart off, reconcile starts nothing; a call starts only its server and answers', async () => {
	const { connector, manager } = setup();
	await manager.reconcile([stdioServer('a'), stdioServer('b'), stdioServer('c')]);
	assert.equal(connector.attempts.length, 0, 'no server started before it was needed');
	assert.deepEqual(
		manager.servers().map((s) => s.state),
		[
			{ kind: 'stopped', onDemand: 'notStarted' },
			{ kind: 'stopped', onDemand: 'notStarted' },
			{ kind: 'stopped', onDemand: 'notStarted' },
		],
	);
	const result = await manager.callTool('b', 'echo', { n: 1 });
	assert.deepEqual(result.content, [{ type: 'text', text: 'b:echo:{"n":1}' }]);
	assert.deepEqual(
		connector.attempts.map((a) => a.name),
		['b'],
	);
	assert.equal(connector.attempts[0]!.interactive, false, 'a start on need opens no sign-in by itself');
	await manager.dispose();
});

test('a server with autoStart: true starts with reconcile and never stops when idle', async () => {
	const { clock, connector, manager } = setup();
	await manager.reconcile([stdioServer('watcher', { autoStart: true }), stdioServer('lazy')]);
	assert.deepEqual(
		connector.attempts.map((a) => a.name),
		['watcher'],
	);
	await clock.advance(60 * MINUTE);
	assert.equal(manager.get('watcher')?.state.kind, 'running');
	await manager.dispose();
});

test('an unused server stops after the idle time, its tools stay offered from the cache, and a call restarts it', async () => {
	const store = new MemoryStore();
	const { clock, connector, manager } = setup({ store });
	await manager.reconcile([stdioServer('a')]);
	await manager.need('a');
	assert.equal(manager.get('a')?.state.kind, 'running');
	assert.deepEqual(
		manager.allTools().map((t) => t.qualifiedName),
		['mcp__a__echo'],
	);
	await clock.advance(9 * MINUTE);
	assert.equal(manager.get('a')?.state.kind, 'running', 'not idle long enough yet');
	await clock.advance(2 * MINUTE);
	assert.deepEqual(manager.get('a')?.state, { kind: 'stopped', onDemand: 'idle' });
	assert.equal(connector.clients[0]!.closed, true, 'its connection was closed');
	assert.deepEqual(
		manager.allTools().map((t) => t.qualifiedName),
		['mcp__a__echo'],
		'the tools listed before are still offered',
	);
	assert.equal(typeof manager.get('a')?.listedAt, 'number', 'marked as listed earlier');
	const result = await manager.callTool('a', 'echo', {});
	assert.deepEqual(result.content, [{ type: 'text', text: 'a:echo:{}' }]);
	assert.equal(connector.count('a'), 2, 'the next need started it again');
	await manager.dispose();
});

test('a call in flight, a subscription or a live task keeps a server from stopping when idle', async () => {
	const { clock, connector, manager } = setup({ idleStopMs: MINUTE });
	await manager.reconcile([stdioServer('a')]);
	await manager.need('a');
	const client = connector.clients[0]!;
	client.hasSubscriptions = true;
	await clock.advance(5 * MINUTE);
	assert.equal(manager.get('a')?.state.kind, 'running', 'a subscription keeps it');
	client.hasSubscriptions = false;
	client.liveTasks = [{}];
	await clock.advance(5 * MINUTE);
	assert.equal(manager.get('a')?.state.kind, 'running', 'a live task keeps it');
	client.liveTasks = [];
	const held = manager.use('a');
	await clock.advance(5 * MINUTE);
	assert.equal(manager.get('a')?.state.kind, 'running', 'something using it (an open app) keeps it');
	held.dispose();
	await clock.advance(2 * MINUTE);
	assert.equal(manager.get('a')?.state.kind, 'stopped');
	await manager.dispose();
});

test('an open MCP App holds its server through a restart; it idles only after the last app using it closed', async () => {
	// What an app panel does (vscode/console/apps: Manager.use while the panel is open, released when it closes).
	const { clock, connector, manager } = setup({ idleStopMs: MINUTE });
	await manager.reconcile([stdioServer('a')]);
	await manager.need('a');
	const first = manager.use('a');
	const second = manager.use('a');
	await manager.restart('a');
	assert.equal(connector.count('a'), 2, 'restarted');
	await clock.advance(10 * MINUTE);
	assert.equal(manager.get('a')?.state.kind, 'running', 'two open apps keep it across the restart');
	first.dispose();
	first.dispose();
	await clock.advance(10 * MINUTE);
	assert.equal(
		manager.get('a')?.state.kind,
		'running',
		'one app still open (a second release of the first counts once)',
	);
	second.dispose();
	await clock.advance(30_000);
	assert.equal(manager.get('a')?.state.kind, 'running', 'the idle time counts from the last release');
	await clock.advance(31_000);
	assert.deepEqual(manager.get('a')?.state, { kind: 'stopped', onDemand: 'idle' });
	await manager.dispose();
});

test("a user's Stop is not a wait for need: a call then fails and names the state", async () => {
	const { connector, manager } = setup();
	await manager.reconcile([stdioServer('a')]);
	await manager.need('a');
	await manager.stop('a');
	await assert.rejects(manager.callTool('a', 'echo', {}), /not running \(stopped\)/);
	assert.equal(connector.count('a'), 1);
	await manager.dispose();
});

test('a changed configuration drops the cached listing; a server not yet needed is still not started', async () => {
	const store = new MemoryStore();
	const { connector, manager } = setup({ store });
	await manager.reconcile([stdioServer('a')]);
	await manager.need('a');
	await manager.stop('a');
	await flush();
	assert.equal(store.listings.size, 1, 'the listing was kept');
	const second = setup({ store });
	await second.manager.reconcile([stdioServer('a')]);
	assert.deepEqual(
		second.manager.get('a')?.tools.map((t) => t.qualifiedName),
		['mcp__a__echo'],
		'the next session shows the tools without starting the server',
	);
	assert.equal(second.connector.attempts.length, 0);
	await second.manager.reconcile([stdioServer('a', { args: ['other.js'] })]);
	assert.equal(store.listings.size, 0, 'the old listing was dropped');
	assert.deepEqual(second.manager.get('a')?.tools, []);
	assert.deepEqual(second.manager.get('a')?.state, { kind: 'stopped', onDemand: 'notStarted' });
	assert.equal(second.connector.attempts.length, 0);
	assert.equal(connector.count('a'), 1);
	await second.manager.dispose();
	await manager.dispose();
});

test('listUncached starts only the servers with no listing kept, and turning autoStart on starts the rest', async () => {
	const store = new MemoryStore();
	const first = setup({ store });
	await first.manager.reconcile([stdioServer('a')]);
	await first.manager.need('a');
	await first.manager.dispose();
	const { connector, manager } = setup({ store });
	await manager.reconcile([stdioServer('a'), stdioServer('b')]);
	await manager.listUncached();
	assert.deepEqual(
		connector.attempts.map((a) => a.name),
		['b'],
	);
	assert.deepEqual(
		manager.allTools().map((t) => t.qualifiedName),
		['mcp__a__echo', 'mcp__b__echo'],
	);
	await manager.setAutoStart(true);
	assert.equal(manager.get('a')?.state.kind, 'running');
	await manager.dispose();
});
