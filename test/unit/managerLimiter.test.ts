import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deferred } from '../../src/common/async';
import { Limiter } from '../../src/manager/limiter';

test('at most N tasks run at once, the rest in order of arrival; raising the limit lets waiting tasks in', async () => {
	const limiter = new Limiter(2);
	const gates = [deferred<void>(), deferred<void>(), deferred<void>(), deferred<void>()];
	const started: number[] = [];
	const runs = gates.map((gate, i) =>
		limiter.run(async () => {
			started.push(i);
			await gate.promise;
			return i;
		}),
	);
	await new Promise((r) => setImmediate(r));
	assert.deepEqual(started, [0, 1]);
	gates[1]!.resolve();
	await runs[1];
	await new Promise((r) => setImmediate(r));
	assert.deepEqual(started, [0, 1, 2]);
	limiter.setLimit(3);
	await new Promise((r) => setImmediate(r));
	assert.deepEqual(started, [0, 1, 2, 3]);
	for (const gate of gates) gate.resolve();
	assert.deepEqual(await Promise.all(runs), [0, 1, 2, 3]);
});

test('a waiting task whose signal aborts never runs and frees its place in the queue', async () => {
	const limiter = new Limiter(1);
	const gate = deferred<void>();
	const first = limiter.run(() => gate.promise);
	const abort = new AbortController();
	let ran = false;
	const waiting = limiter.run(async () => {
		ran = true;
	}, abort.signal);
	const third = limiter.run(async () => 'third');
	abort.abort(new Error('stopped'));
	await assert.rejects(waiting, /stopped/);
	gate.resolve();
	await first;
	assert.equal(await third, 'third');
	assert.equal(ran, false);
});

test('a task that throws releases its slot', async () => {
	const limiter = new Limiter(1);
	await assert.rejects(
		limiter.run(async () => Promise.reject(new Error('boom'))),
		/boom/,
	);
	assert.equal(await limiter.run(async () => 'next'), 'next');
});
