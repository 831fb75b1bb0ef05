import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SlotTable } from '../../src/common/slotTable';

test('SlotTable: slots are reused, a removal needs the object that is there, clear() returns what was held', () => {
	const table = new SlotTable<{ name: string }>();
	const a = { name: 'a' };
	const b = { name: 'b' };
	const c = { name: 'c' };
	const slotA = table.add(a);
	const slotB = table.add(b);
	assert.notEqual(slotA, slotB);
	assert.equal(table.size, 2);
	assert.equal(table.get(slotA), a);
	assert.equal(table.get(undefined), undefined, "no slot (a key map's miss): nothing");

	assert.equal(table.remove(slotA, b), false, 'another object in that slot: nothing changes');
	assert.equal(table.get(slotA), a);
	assert.equal(table.remove(slotA, a), true);
	assert.equal(table.remove(slotA, a), false, 'removed once only');
	assert.equal(table.get(slotA), undefined);
	assert.equal(table.size, 1);

	const slotC = table.add(c);
	assert.equal(slotC, slotA, 'the freed slot is used again');
	assert.equal(table.remove(slotA, a), false, "a late removal of the slot's former object leaves the new one");
	assert.equal(table.get(slotC), c);

	const seen: string[] = [];
	table.forEach((item, slot) => seen.push(`${item.name}@${slot}`));
	assert.deepEqual(seen.sort(), [`b@${slotB}`, `c@${slotC}`].sort());

	assert.deepEqual(
		table
			.clear()
			.map((item) => item.name)
			.sort(),
		['b', 'c'],
	);
	assert.equal(table.size, 0);
	assert.equal(table.get(slotB), undefined);
	assert.equal(table.remove(slotB, b), false, 'after clear(), a late removal changes nothing');
	assert.equal(table.size, 0);
});
