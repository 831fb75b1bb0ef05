import assert from 'node:assert/strict';
import { test } from 'node:test';
import { base64Size, compareNames, oneLine, plural, textOf } from '../../src/common/text';

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

test('base64Size says how much data a base64 string holds, padding counted', () => {
	assert.equal(base64Size(''), '0 B');
	assert.equal(base64Size(Buffer.from('ab').toString('base64')), '2 B');
	assert.equal(base64Size(Buffer.alloc(2048).toString('base64')), '2.0 KB');
	assert.equal(base64Size(Buffer.alloc(3 * 1024 * 1024).toString('base64')), '3.0 MB');
});

test('oneLine keeps the lines after a heading such as "Last stderr lines:" (a notification shows only one line)', () => {
	assert.equal(
		oneLine('Server "broken" exited with code 3. Last stderr lines:\nboom: cannot start\n  at main.js:1\n'),
		'Server "broken" exited with code 3. Last stderr lines: boom: cannot start at main.js:1',
	);
	assert.equal(oneLine('plain'), 'plain');
	const long = oneLine('x'.repeat(400));
	assert.equal(long.length, 300);
	assert.ok(long.endsWith('…'));
});

test('plural puts the noun in the right number: "1 time", "2 times", "0 tools", "1 entry", "3 entries"', () => {
	assert.equal(plural(1, 'time'), '1 time');
	assert.equal(plural(2, 'time'), '2 times');
	assert.equal(plural(0, 'tool'), '0 tools');
	assert.equal(plural(1, 'entry', 'entries'), '1 entry');
	assert.equal(plural(3, 'entry', 'entries'), '3 entries');
});

test('names sort ignoring case, then by code unit, as the Servers view lists them', () => {
	const names = ['zeta', 'Alpha', 'beta', 'alpha', 'B', 'a-b', 'ab', 'a_b', 's10', 's2'];
	assert.deepEqual([...names].sort(compareNames), [
		'a-b',
		'a_b',
		'ab',
		'Alpha',
		'alpha',
		'B',
		'beta',
		's10',
		's2',
		'zeta',
	]);
	assert.equal(compareNames('same', 'same'), 0);
});
