import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MessageRing } from '../../src/vscode/console/messageRing';
import { OpenRequests } from '../../src/vscode/console/openRequests';

/** A deterministic pseudo-random sequence, so a failure can be replayed. */
function random(seed: number): () => number {
	return () => {
		seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
		return seed / 2 ** 32;
	};
}

for (const [capacity, maxBytes, large] of [
	[50, 4000, 900],
	// Grows from its first 64 KiB while wrapped (the oldest dropped by count).
	[50, 1_000_000, 6000],
] as const) {
	test(`the byte ring gives back every kept text exactly, across wraps, growth, drops and capacity changes (${capacity} messages, ${maxBytes} bytes)`, () => {
		const next = random(7);
		const ring = new MessageRing(capacity, maxBytes);
		const sent = new Map<number, string>();
		for (let i = 0; i < 5000; i++) {
			// Mixed sizes and characters (2- and 3-byte UTF-8, a surrogate pair), some as bytes the way stdio hands them.
			const length = Math.floor(next() * (next() < 0.05 ? large : 120));
			// Whole code points only: a lone surrogate has no UTF-8 (the wire never carries one; JSON.stringify escapes it).
			const text = `${i}:` + [...'aé€😀b'.repeat(length / 5 + 1)].slice(0, length).join('');
			const way = next();
			if (way < 0.3) {
				const chunk = Buffer.from(`xx\n${text}\nyy`);
				const start = 3;
				sent.set(ring.pushBytes(chunk, start, chunk.length - 3, 0), text);
			} else if (way < 0.5) {
				// Several messages of one read, as stdio hands them over (line ends between, a partial line after), pushed
				// from the same bytes; sometimes a text we send comes between them, or the read is over.
				const texts = [
					text,
					...Array.from(
						{ length: Math.floor(next() * 6) },
						(_, k) => `${i}.${k}:` + 'ü€x'.repeat(Math.floor(next() * 30)),
					),
				];
				const chunk = Buffer.from(`${texts.join(next() < 0.5 ? '\n' : '\r\n')}\n{"partial`);
				let start = 0;
				for (const part of texts) {
					const end = start + Buffer.byteLength(part);
					sent.set(ring.pushBytes(chunk, start, end, 0), part);
					if (next() < 0.1) sent.set(ring.push(`${i} sent`, 0), `${i} sent`);
					if (next() < 0.05) ring.forgetChunk();
					start = end + (chunk[end] === 0x0d ? 2 : 1);
				}
				ring.forgetChunk();
			} else if (way < 0.65) {
				// A burst of texts we send, stored at once: all ASCII (one length each), or not; now and then more than the
				// ring holds (only the newest stay).
				const count = next() < 0.05 ? capacity + 5 : 1 + Math.floor(next() * 8);
				const ascii = next() < 0.7;
				const texts = Array.from({ length: count }, (_, k) =>
					count > capacity ? `${i}#${k}` : `${i}#${k}:` + (ascii ? 'ab"c' : 'aé€😀').repeat(Math.floor(next() * 30)),
				);
				const first = ring.pushAll(
					texts,
					texts.map(() => 0),
				);
				texts.forEach((part, k) => sent.set(first + k, part));
				assert.equal(ring.next, first + count);
			} else {
				sent.set(ring.push(text, 0), text);
			}
			if (i === 2500) ring.resize(20);
			if (i === 3500) ring.resize(80);
			assert.ok(ring.count <= ring.capacity);
			assert.ok(ring.bytes <= ring.maxBytes || ring.count === 1, `bytes ${ring.bytes} with ${ring.count} kept`);
			for (let seq = ring.first; seq < ring.next; seq++)
				assert.equal(ring.text(seq), sent.get(seq), `message ${seq} after ${i}`);
		}
		// The newest message is kept whatever its size; what was dropped is no longer addressable.
		const big = 'z'.repeat(10_000);
		const seq = ring.push(big, 0);
		assert.equal(ring.text(seq), big);
		if (maxBytes < big.length) {
			assert.equal(ring.count, 1);
			assert.equal(ring.has(seq - 1), false);
		}
		ring.push('after', 0);
		assert.equal(ring.text(seq + 1), 'after');
		ring.clear();
		assert.equal(ring.count, 0);
		assert.equal(ring.bytes, 0);
	});
}

test('open requests pair like a Map: integer ids in the typed table, others in a Map, bounded with the oldest forgotten', () => {
	const next = random(11);
	// Dense: up to 10,000 open in a table of 16,384, so probe runs are long and deletions shift entries back.
	const open = new OpenRequests(10_000);
	const model = new Map<string | number, number>();
	const ids: Array<string | number> = [];
	for (let seq = 1; seq <= 60_000; seq++) {
		if (next() < (seq < 25_000 ? 0.7 : 0.45) || ids.length === 0) {
			const roll = next();
			const id =
				roll < 0.8
					? Math.floor(next() * 100_000) - 50
					: roll < 0.9
						? `s${Math.floor(next() * 1000)}`
						: roll < 0.95
							? 2 ** 40 + seq
							: seq + 0.5;
			open.set(id, seq);
			model.set(id, seq);
			ids.push(id);
		} else {
			const id = ids.splice(Math.floor(next() * ids.length), 1)[0]!;
			const expected = model.get(id);
			model.delete(id);
			const got = open.take(id);
			// Forgotten (past the bound: the older half goes) is the only way to differ from the Map, and only for
			// a request with thousands newer than it.
			if (got !== expected)
				assert.ok(
					got === undefined && expected !== undefined && seq - expected > 5000,
					`id ${id}: ${got} for ${expected} at ${seq}`,
				);
			assert.equal(open.take(id), undefined, 'a request is answered once');
		}
		assert.ok(open.size <= open.max, `size ${open.size}`);
	}
	for (const id of ids) {
		const expected = model.get(id);
		model.delete(id);
		const got = open.take(id);
		if (got !== expected)
			assert.ok(
				got === undefined && expected !== undefined && 60_000 - expected > 5000,
				`id ${id}: ${got} for ${expected}`,
			);
	}
	assert.equal(open.size, 0);
});

test('a server that never answers: the oldest half is forgotten, the newest still pair', () => {
	const open = new OpenRequests(1000);
	for (let seq = 1; seq <= 5000; seq++) open.set(seq, seq);
	assert.ok(open.size <= 1000);
	assert.equal(open.take(5000), 5000);
	assert.equal(open.take(4800), 4800);
	assert.equal(open.take(1), undefined);
});
