import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { InvocationRecord } from '../../src/manager/invocations';
import {
	CallHistory,
	MAX_RESULT_CHARS,
	MAX_STORED_CHARS,
	MAX_STORED_RESULT_CHARS,
	comparisonText,
	type KeyValueStore,
} from '../../src/vscode/console/callHistory';

function memoryStore(): KeyValueStore & { data: Map<string, unknown>; writes: number } {
	const data = new Map<string, unknown>();
	const store = {
		data,
		writes: 0,
		get: <T>(key: string) => (data.has(key) ? (JSON.parse(JSON.stringify(data.get(key))) as T) : undefined),
		update: async (key: string, value: unknown) => {
			store.writes++;
			data.set(key, value);
		},
	};
	return store;
}

function withResult(record: InvocationRecord, chars: number): InvocationRecord {
	return {
		...record,
		outcome: { kind: 'result', result: { content: [{ type: 'text', text: 'r'.repeat(chars) }] }, isError: false },
	};
}

function call(message: string, at: number, server = 'everything'): InvocationRecord {
	return {
		target: { kind: 'tool', server, name: 'echo', arguments: { message } },
		origin: 'palette',
		startedAt: at,
		durationMs: 12,
		outcome: { kind: 'result', result: { content: [{ type: 'text', text: `Echo: ${message}` }] }, isError: false },
	};
}

test('entries are newest first, capped, and survive a new history over the same storage (a window reload)', async () => {
	const store = memoryStore();
	const history = new CallHistory(store, 3);
	for (let i = 1; i <= 5; i++) history.add(call(`m${i}`, 1000 + i));
	assert.deepEqual(
		history.all().map((e) => (e.target.kind === 'tool' ? e.target.arguments.message : '')),
		['m5', 'm4', 'm3'],
	);
	await history.flushed();
	const reloaded = new CallHistory(store, 3);
	assert.deepEqual(
		reloaded.all().map((e) => e.id),
		history.all().map((e) => e.id),
	);
	const next = reloaded.add(call('m6', 2000));
	assert.ok(!history.all().some((e) => e.id === next.id), 'ids stay unique after a reload');
	reloaded.setMaxEntries(1);
	assert.equal(reloaded.all().length, 1);
});

test('previous() finds the last earlier call of the same server and tool, not another tool or server', () => {
	const history = new CallHistory(memoryStore());
	const first = history.add(call('a', 1));
	history.add(call('x', 2, 'other'));
	history.add({ ...call('y', 3), target: { kind: 'tool', server: 'everything', name: 'get-sum', arguments: {} } });
	const latest = history.add(call('b', 4));
	assert.equal(history.previous(latest)?.id, first.id);
	assert.equal(history.previous(first), undefined);
});

test('Compare with Previous shows each call as its arguments above its result, so a changed argument shows', () => {
	const history = new CallHistory(memoryStore());
	const older = history.add(call('before', 1));
	const newer = history.add(call('after', 2));
	const text = comparisonText(newer);
	assert.deepEqual(JSON.parse(text), {
		arguments: { message: 'after' },
		result: { content: [{ type: 'text', text: 'Echo: after' }] },
	});
	assert.ok(text.indexOf('"arguments"') < text.indexOf('"result"'), 'the arguments come first');
	// The two sides differ in the argument line as well as in the result.
	const before = comparisonText(older).split('\n');
	const after = text.split('\n');
	assert.deepEqual(
		after.filter((line, i) => line !== before[i]),
		['    "message": "after"', '        "text": "Echo: after"'],
	);
	const failed = history.add({
		...call('x', 3),
		outcome: { kind: 'error', message: 'connection closed', cancelled: false },
	});
	assert.deepEqual(JSON.parse(comparisonText(failed)), {
		arguments: { message: 'x' },
		error: 'connection closed',
		cancelled: false,
	});
	const read = history.add({ ...call('r', 4), target: { kind: 'resource', server: 'everything', uri: 'demo://a' } });
	assert.equal((JSON.parse(comparisonText(read)) as { uri: string }).uri, 'demo://a');
});

test('a result too large to keep is listed with its size, not stored', async () => {
	const store = memoryStore();
	const history = new CallHistory(store);
	const big = call('big', 1);
	big.outcome = {
		kind: 'result',
		result: { content: [{ type: 'text', text: 'x'.repeat(MAX_RESULT_CHARS + 10) }] },
		isError: false,
	};
	const entry = history.add(big);
	assert.ok(entry.resultDropped && entry.resultDropped.chars > MAX_RESULT_CHARS);
	await history.flushed();
	assert.ok(JSON.stringify(store.data.get('mcpSwitchboard.callHistory')).length < 10_000);
});

test('stored garbage is ignored, not a crash; clear empties the store', async () => {
	const store = memoryStore();
	store.data.set('mcpSwitchboard.callHistory', [
		null,
		3,
		{ id: 'x' },
		{ id: '1-1', target: { kind: 'tool' }, outcome: { kind: 'error' }, startedAt: 1 },
	]);
	const history = new CallHistory(store);
	assert.equal(history.all().length, 1);
	history.clear();
	await history.flushed();
	assert.deepEqual(store.data.get('mcpSwitchboard.callHistory'), []);
});

// Issue 27 defect 4: every call rewrote the whole list (one call rewrote 50 MiB), with no total cap, results included.

test('a burst of calls is written to storage once, not once per call', async () => {
	const store = memoryStore();
	const history = new CallHistory(store);
	for (let i = 0; i < 100; i++) history.add(call(`m${i}`, i));
	assert.equal(store.writes, 0, 'nothing written while the calls come');
	await history.flushed();
	assert.equal(store.writes, 1);
	assert.equal((store.data.get('mcpSwitchboard.callHistory') as unknown[]).length, 100);
});

test('what is written is capped in total, newest kept; large results stay in memory only', async () => {
	const store = memoryStore();
	const history = new CallHistory(store);
	for (let i = 0; i < 200; i++) history.add(withResult(call(`m${i}`, i), 100_000));
	assert.equal(history.all().length, 200, 'the window still lists every call');
	await history.flushed();
	const written = store.data.get('mcpSwitchboard.callHistory') as { id: string }[];
	assert.ok(JSON.stringify(written).length <= MAX_STORED_CHARS, `${JSON.stringify(written).length} characters written`);
	assert.doesNotMatch(JSON.stringify(written), /r{1000}/, 'no large result body reached storage');
	assert.equal(written[0]?.id, history.all()[0]?.id, 'the newest entry is written first');

	const small = history.add(withResult(call('small', 999), 100));
	const large = history.add(withResult(call('large', 1000), MAX_STORED_RESULT_CHARS + 100));
	assert.match(JSON.stringify(history.get(large.id)?.outcome), /r{1000}/, 'this window still shows the large result');
	await history.flushed();
	const reloaded = new CallHistory(store);
	assert.deepEqual(reloaded.get(large.id)?.resultDropped?.notStored, true, 'after a reload it says it was not kept');
	assert.match(JSON.stringify(reloaded.get(small.id)?.outcome), /r{100}/, 'a small result is kept across a reload');
	assert.ok(JSON.stringify(store.data.get('mcpSwitchboard.callHistory')).length <= MAX_STORED_CHARS);
});

test('app calls fold into one row per server, tool and origin, with a cap of their own', () => {
	const history = new CallHistory(memoryStore(), 3);
	const poll = (tool: string, at: number, server = 'monitor'): InvocationRecord => ({
		...call('x', at, server),
		target: { kind: 'tool', server, name: tool, arguments: { at } },
		origin: 'app',
	});
	history.add(call('mine', 1));
	for (let i = 0; i < 50; i++) history.add(poll('poll-stats', 10 + i));
	history.add(poll('poll-stats', 100, 'other'));
	for (let i = 0; i < 30; i++) history.add(poll(`tool-${i}`, 200 + i));
	history.add(call('mine again', 300));
	const rows = history.all();
	assert.deepEqual(
		rows.filter((e) => e.origin === 'palette').map((e) => e.target.kind === 'tool' && e.target.arguments.message),
		['mine again', 'mine'],
	);
	const folded = rows.filter((e) => e.repeats);
	assert.equal(folded.length, 3, 'folded rows are capped by the history cap when it is smaller than theirs');
	assert.ok(
		rows.every((e) => !e.repeats || e.repeats.count === 1),
		'the newest folded rows are the last tools the app called',
	);
	const big = new CallHistory(memoryStore(), 200);
	for (let i = 0; i < 50; i++) big.add(poll('poll-stats', 10 + i));
	big.add(poll('poll-stats', 100, 'other'));
	for (let i = 0; i < 30; i++) big.add(poll(`tool-${i}`, 200 + i));
	assert.equal(big.all().length, 20, 'at most 20 folded rows');
	big.setMaxEntries(0);
	assert.equal(big.all().length, 0, 'a cap of 0 keeps nothing');
	const one = new CallHistory(memoryStore(), 200);
	for (let i = 0; i < 50; i++) one.add(poll('poll-stats', 10 + i));
	assert.deepEqual(
		one.all().map((e) => [e.repeats?.count, e.repeats?.firstAt, e.target.kind === 'tool' && e.target.arguments.at]),
		[[50, 10, 59]],
	);
});
