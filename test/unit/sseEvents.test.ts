import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SseDecoder, type SseEvent } from '../../src/protocol/transports/sseEvents';

function decode(chunks: string[], maxChars?: number): { events: SseEvent[]; decoder: SseDecoder; retries: number[] } {
	const events: SseEvent[] = [];
	const retries: number[] = [];
	const decoder = new SseDecoder({ onEvent: (e) => events.push(e), onRetry: (ms) => retries.push(ms) }, maxChars);
	for (const chunk of chunks) {
		decoder.feed(chunk);
	}
	return { events, decoder, retries };
}

const stream =
	'\uFEFFid: p-0\nretry: 1500\ndata: \n\n' + // priming event: an id and empty data
	': a comment\n' +
	'event: message\nid: 7\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n' +
	'data: {"a":\ndata: 1}\r\n\r\n' + // two data lines, CRLF
	'event: endpoint\ndata: /messages?sessionId=abc\n\n' +
	'id: 8\ndata: {"text":"caf\u00e9 \u2603"}\n\n';

const expected: SseEvent[] = [
	{ id: 'p-0', event: undefined, data: '' },
	{ id: '7', event: 'message', data: '{"jsonrpc":"2.0","id":1,"result":{}}' },
	{ id: undefined, event: undefined, data: '{"a":\n1}' },
	{ id: undefined, event: 'endpoint', data: '/messages?sessionId=abc' },
	{ id: '8', event: undefined, data: '{"text":"caf\u00e9 \u2603"}' },
];

describe('SseDecoder', () => {
	test('decodes events, ids, types, multi-line data, comments, CRLF and a BOM', () => {
		const { events, decoder, retries } = decode([stream]);
		assert.deepEqual(events, expected);
		assert.equal(decoder.lastEventId, '8');
		assert.equal(decoder.retryMs, 1500);
		assert.deepEqual(retries, [1500]);
	});

	test('gives the same events however the stream is split into chunks', () => {
		for (let at = 1; at < stream.length; at++) {
			const { events } = decode([stream.slice(0, at), stream.slice(at)]);
			assert.deepEqual(events, expected, `split at ${at}`);
		}
		const { events } = decode([...stream]);
		assert.deepEqual(events, expected, 'one character per chunk');
	});

	test('keeps the last event id across events without one (what a resume sends as Last-Event-ID)', () => {
		const { decoder } = decode(['id: a\ndata: 1\n\ndata: 2\n\n']);
		assert.equal(decoder.lastEventId, 'a');
	});

	test('an event that grows past the limit stops the decoder instead of buffering without end', () => {
		const { events, decoder } = decode(
			['data: small\n\n', `data: ${'x'.repeat(5000)}`, 'more', '\n\ndata: after\n\n'],
			1000,
		);
		assert.deepEqual(
			events.map((e) => e.data),
			['small'],
		);
		assert.equal(decoder.overflow, true);
	});

	test('a 20 MiB event fed in 64 KiB chunks arrives whole', () => {
		const big = 'y'.repeat(20 * 1024 * 1024);
		const text = `id: big\ndata: ${big}\n\n`;
		const chunks: string[] = [];
		for (let i = 0; i < text.length; i += 65536) {
			chunks.push(text.slice(i, i + 65536));
		}
		const { events } = decode(chunks);
		assert.equal(events.length, 1);
		assert.equal(events[0]!.data.length, big.length);
		assert.equal(events[0]!.id, 'big');
	});
});
