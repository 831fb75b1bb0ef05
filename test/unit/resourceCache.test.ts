import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ResourceCache } from '../../src/manager/resourceCache';

const result = (text: string) => ({ contents: [{ uri: 'x', text }] });

test('entries expire after the TTL', () => {
	let now = 0;
	const cache = new ResourceCache({ ttlMs: 1000, now: () => now });
	cache.set('s', 'u', result('v1'));
	now = 999;
	assert.deepEqual(cache.get('s', 'u'), result('v1'));
	now = 1000;
	assert.equal(cache.get('s', 'u'), undefined);
	assert.equal(cache.size, 0);
});

test('least recently used entries are evicted first, by count and by size', () => {
	const cache = new ResourceCache({ maxEntries: 2 });
	cache.set('s', 'a', result('a'));
	cache.set('s', 'b', result('b'));
	cache.get('s', 'a');
	cache.set('s', 'c', result('c'));
	assert.ok(cache.get('s', 'a'));
	assert.equal(cache.get('s', 'b'), undefined);
	assert.ok(cache.get('s', 'c'));

	const bySize = new ResourceCache({ maxChars: 300 });
	bySize.set('s', 'big1', result('x'.repeat(150)));
	bySize.set('s', 'big2', result('x'.repeat(150)));
	assert.equal(bySize.get('s', 'big1'), undefined);
	assert.ok(bySize.get('s', 'big2'));
	bySize.set('s', 'huge', result('x'.repeat(1000)));
	assert.equal(bySize.get('s', 'huge'), undefined);
});

test('keyed by server and URI; invalidation by URI and by server', () => {
	const cache = new ResourceCache();
	cache.set('a', 'u', result('a'));
	cache.set('b', 'u', result('b'));
	cache.set('a', 'v', result('av'));
	assert.deepEqual(cache.get('b', 'u'), result('b'));
	cache.invalidate('a', 'u');
	assert.equal(cache.get('a', 'u'), undefined);
	assert.ok(cache.get('a', 'v'));
	cache.invalidateServer('a');
	assert.equal(cache.get('a', 'v'), undefined);
	assert.ok(cache.get('b', 'u'));
});
