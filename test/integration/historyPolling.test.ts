// An MCP App that polls (the system-monitor example calls its app-only tool every ~2 s) must not push the person's
// own calls out of the Call History: a real Manager over server-everything reports 300 app calls and 5 palette calls
// into the history store the extension uses, with its default cap of 200.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import { Manager } from '../../src/manager/manager';
import { CallHistory, DEFAULT_MAX_ENTRIES, type KeyValueStore } from '../../src/vscode/console/callHistory';
import { startEverythingStdio } from '../fixtures/everythingStdio';

function memoryStore(): KeyValueStore {
	const data = new Map<string, unknown>();
	return {
		get: <T>(key: string) => (data.has(key) ? (JSON.parse(JSON.stringify(data.get(key))) as T) : undefined),
		update: async (key: string, value: unknown) => void data.set(key, value),
	};
}

test('300 polls from an app leave the 5 calls the person made in the history', { timeout: 120_000 }, async (t) => {
	const manager = new Manager({ logger: () => new MemoryLogger('info') });
	t.after(() => manager.dispose());
	const store = memoryStore();
	const history = new CallHistory(store, DEFAULT_MAX_ENTRIES, 0);
	t.after(() => history.dispose());
	manager.onDidInvoke((record) => void history.add(record));
	await startEverythingStdio(manager);

	for (let i = 0; i < 300; i++) {
		if (i % 60 === 30) await manager.callTool('everything', 'echo', { message: `mine ${i}` }, { origin: 'palette' });
		await manager.callTool('everything', 'get-sum', { a: i, b: 1 }, { origin: 'app' });
		if (i % 100 === 50) await manager.callTool('everything', 'echo', { message: `app echo ${i}` }, { origin: 'app' });
	}

	const rows = history.all();
	const mine = rows.filter((e) => e.origin === 'palette');
	assert.deepEqual(
		mine.map((e) => (e.target.kind === 'tool' ? e.target.arguments.message : '')),
		['mine 270', 'mine 210', 'mine 150', 'mine 90', 'mine 30'],
		'every call the person made is still listed, newest first',
	);
	const fromApp = rows.filter((e) => e.origin === 'app');
	assert.deepEqual(
		fromApp.map((e) => [e.target.kind === 'tool' ? e.target.name : '', e.repeats?.count]),
		[
			['get-sum', 300],
			['echo', 3],
		],
		'the app calls are one row per tool, counting the calls',
	);
	const newest = fromApp[0];
	assert.deepEqual(
		newest?.target.kind === 'tool' && newest.target.arguments,
		{ a: 299, b: 1 },
		'the row is the last poll',
	);
	assert.equal(rows.length, 7);

	// After a reload the folded rows are still one row each.
	await history.flushed();
	const reloaded = new CallHistory(store, DEFAULT_MAX_ENTRIES, 0);
	assert.equal(reloaded.all().length, 7);
	reloaded.add({ ...newest!, startedAt: Date.now() });
	assert.equal(reloaded.all().filter((e) => e.origin === 'app').length, 2, 'a poll after a reload joins its row');
	assert.equal(reloaded.all()[0]?.repeats?.count, 301);
	reloaded.dispose();
});
