import assert from 'node:assert/strict';
import { test } from 'node:test';
import { textOf } from '../../src/common/text';

test('textOf shows what a server sent in a field, never "[object Object]"', () => {
	assert.equal(textOf('image/png'), 'image/png');
	assert.equal(textOf(42), '42');
	assert.equal(textOf(false), 'false');
	assert.equal(textOf({ mime: 'x' }), '{"mime":"x"}');
	assert.equal(textOf(['a', 1]), '["a",1]');
	assert.equal(textOf(undefined, 'unknown type'), 'unknown type');
	assert.equal(textOf(null), '');
	const circular: Record<string, unknown> = {};
	circular.self = circular;
	assert.equal(textOf(circular, '?'), '?');
});
