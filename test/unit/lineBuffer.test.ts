import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import { createJsonLineReader, LineBuffer } from '../../src/protocol/transports/lineBuffer';

function collect(maxMessageBytes?: number) {
	const lines: string[] = [];
	const oversize: number[] = [];
	const buffer = new LineBuffer({
		onLine: (line) => lines.push(line),
		onOversize: (bytes) => oversize.push(bytes),
		maxMessageBytes,
	});
	return { buffer, lines, oversize };
}

// Two-, three- and four-byte characters, so a split can land inside each kind.
const text = '{"a":"é"}\n{"b":"€ 日本"}\r\n\n{"c":"😀🎉"}\n';
const expected = ['{"a":"é"}', '{"b":"€ 日本"}', '{"c":"😀🎉"}'];

describe('LineBuffer', () => {
	test('split into two chunks at every byte offset, including inside multibyte characters, gives the same lines', () => {
		const bytes = Buffer.from(text, 'utf8');
		for (let at = 0; at <= bytes.length; at++) {
			const { buffer, lines } = collect();
			buffer.push(bytes.subarray(0, at));
			buffer.push(bytes.subarray(at));
			assert.deepEqual(lines, expected, `split at byte ${at}`);
		}
	});

	test('fed one byte at a time gives the same lines', () => {
		const { buffer, lines } = collect();
		for (const byte of Buffer.from(text, 'utf8')) {
			buffer.push(Buffer.from([byte]));
		}
		assert.deepEqual(lines, expected);
	});

	test('split into three chunks at every pair of offsets gives the same lines', () => {
		const bytes = Buffer.from(text, 'utf8');
		for (let a = 0; a <= bytes.length; a++) {
			for (let b = a; b <= bytes.length; b++) {
				const { buffer, lines } = collect();
				buffer.push(bytes.subarray(0, a));
				buffer.push(bytes.subarray(a, b));
				buffer.push(bytes.subarray(b));
				assert.deepEqual(lines, expected, `split at ${a} and ${b}`);
			}
		}
	});

	test('strips exactly one trailing carriage return and skips empty lines', () => {
		const { buffer, lines } = collect();
		buffer.push(Buffer.from('one\r\n\r\n\n two \ntwo\r\r\n'));
		assert.deepEqual(lines, ['one', ' two ', 'two\r']);
	});

	test('a line with no newline yet is held until it comes, and end() delivers the rest', () => {
		const { buffer, lines } = collect();
		buffer.push(Buffer.from('{"partial":'));
		assert.deepEqual(lines, []);
		assert.equal(buffer.pending, 11);
		buffer.push(Buffer.from('1}\n{"last":true}'));
		assert.deepEqual(lines, ['{"partial":1}']);
		buffer.end();
		assert.deepEqual(lines, ['{"partial":1}', '{"last":true}']);
		assert.equal(buffer.pending, 0);
	});

	test('a line longer than the limit is dropped with a report, and reading resumes at the next line', () => {
		const { buffer, lines, oversize } = collect(100);
		const long = 'x'.repeat(250);
		// Spread over chunks, so the limit trips while the line is still arriving.
		buffer.push(Buffer.from('before\n' + long.slice(0, 60)));
		buffer.push(Buffer.from(long.slice(60, 180)));
		buffer.push(Buffer.from(long.slice(180) + '\nafter\n'));
		assert.deepEqual(lines, ['before', 'after']);
		assert.equal(oversize.length, 1);
		assert.ok(oversize[0]! > 100);
		assert.equal(buffer.pending, 0);
	});

	test('an oversized line inside one chunk is dropped too, and a line of exactly the limit passes', () => {
		const { buffer, lines, oversize } = collect(10);
		buffer.push(Buffer.from('12345678901\n1234567890\nok\n'));
		assert.deepEqual(lines, ['1234567890', 'ok']);
		assert.deepEqual(oversize, [11]);
	});

	test('many chunks of one large line are joined intact', () => {
		const { buffer, lines } = collect();
		const line = 'é'.repeat(300_000); // 600,000 bytes
		const bytes = Buffer.from(line + '\n');
		for (let i = 0; i < bytes.length; i += 65_537) {
			buffer.push(bytes.subarray(i, i + 65_537)); // odd size: cuts land inside characters
		}
		assert.equal(lines.length, 1);
		assert.equal(lines[0], line);
	});
});

describe('createJsonLineReader', () => {
	test('parses each line, delivers array elements one by one, and logs and skips what is not JSON', () => {
		const logger = new MemoryLogger();
		const messages: unknown[] = [];
		const reader = createJsonLineReader({ onMessage: (m) => messages.push(m), logger, name: 'fixture' });
		const garbage = 'npm WARN something ' + 'y'.repeat(500);
		reader.push(Buffer.from(`{"id":1}\n${garbage}\n[{"id":2},{"id":3}]\n   \n{"id":4\n{"id":5}\n`));
		assert.deepEqual(messages, [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 5 }]);
		const warnings = logger.entries.filter((e) => e.level === 'warn');
		assert.equal(warnings.length, 2, 'one warning per skipped line; whitespace alone is not reported');
		assert.match(
			warnings[0]!.message,
			/fixture: skipped output that is not JSON: npm WARN something y+… \(519 characters\)/,
		);
		assert.ok(warnings[0]!.message.length < 320, 'the log shows a preview, not the whole line');
		assert.match(warnings[1]!.message, /\{"id":4$/);
	});

	test('a message over the size limit is reported as an error naming the limit, and later messages still arrive', () => {
		const logger = new MemoryLogger();
		const messages: unknown[] = [];
		const reader = createJsonLineReader({
			onMessage: (m) => messages.push(m),
			logger,
			name: 'fixture',
			maxMessageBytes: 64,
		});
		reader.push(Buffer.from(`{"big":"${'z'.repeat(100)}"}\n{"small":1}\n`));
		assert.deepEqual(messages, [{ small: 1 }]);
		const errors = logger.entries.filter((e) => e.level === 'error');
		assert.equal(errors.length, 1);
		assert.match(errors[0]!.message, /fixture: dropped a message larger than the limit of 64 bytes/);
		assert.match(errors[0]!.message, /maxMessageBytes/);
	});
});
