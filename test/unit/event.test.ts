import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from '../../src/common/event';
import { DisposableStore, toDisposable } from '../../src/common/disposable';

test('a listener that throws does not stop the others', () => {
	const errors: unknown[] = [];
	const emitter = new Emitter<number>((e) => errors.push(e));
	const seen: number[] = [];
	emitter.event(() => {
		throw new Error('boom');
	});
	emitter.event((v) => seen.push(v));
	emitter.fire(7);
	assert.deepEqual(seen, [7]);
	assert.equal(errors.length, 1);
});

test('unsubscribing during fire does not skip the next listener', () => {
	const emitter = new Emitter<void>();
	const calls: string[] = [];
	const a = emitter.event(() => {
		calls.push('a');
		a.dispose();
	});
	emitter.event(() => calls.push('b'));
	emitter.fire();
	emitter.fire();
	assert.deepEqual(calls, ['a', 'b', 'b']);
});

test('a store disposes in reverse order and disposes late additions at once', () => {
	const order: number[] = [];
	const store = new DisposableStore();
	store.add(toDisposable(() => order.push(1)));
	store.add(toDisposable(() => order.push(2)));
	store.dispose();
	assert.deepEqual(order, [2, 1]);
	store.add(toDisposable(() => order.push(3)));
	assert.deepEqual(order, [2, 1, 3]);
});
