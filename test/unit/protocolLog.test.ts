import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProtocolLog } from '../../src/vscode/console/protocolLog';

function clock(start = 1000): { now: () => number; advance(ms: number): void } {
	let time = start;
	return { now: () => time, advance: (ms) => (time += ms) };
}

test('a response is paired with its request (the other direction), with latency and the request method naming the tool', () => {
	const c = clock();
	const log = new ProtocolLog(100, 1e9, c.now);
	const request = log.add('out', { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo' } });
	log.add('in', { jsonrpc: '2.0', method: 'notifications/progress', params: {} });
	c.advance(42);
	const response = log.add('in', { jsonrpc: '2.0', id: 7, result: { content: [] } });
	assert.deepEqual([request.kind, request.method, request.pair], ['request', 'tools/call echo', response.seq]);
	assert.deepEqual(
		[response.kind, response.method, response.pair, response.latencyMs],
		['response', 'tools/call echo', request.seq, 42],
	);
	// A server request answered by us: in, then out.
	const serverRequest = log.add('in', { jsonrpc: '2.0', id: 0, method: 'roots/list' });
	const answer = log.add('out', { jsonrpc: '2.0', id: 0, error: { code: -32601, message: 'nope' } });
	assert.deepEqual([answer.kind, answer.pair, serverRequest.pair], ['error', serverRequest.seq, answer.seq]);
	// An out response with an id that only an *out* request had is not paired with it.
	const stray = log.add('out', { jsonrpc: '2.0', id: 7, result: {} });
	assert.equal(stray.pair, undefined);
});

test('secrets are redacted as in the trace log; malformed messages are kept as invalid', () => {
	const log = new ProtocolLog();
	const entry = log.add('out', {
		jsonrpc: '2.0',
		id: 1,
		method: 'tools/call',
		params: { arguments: { apiKey: 'sk-123', token: 'abc', text: 'visible' } },
	});
	assert.doesNotMatch(entry.text, /sk-123|abc"/);
	assert.match(entry.text, /visible/);
	assert.equal(log.add('in', 'garbage').kind, 'invalid');
	assert.equal(log.add('in', [1, 2]).kind, 'invalid');
});

test('bounded: the oldest messages go first by count and by text size; seqs stay addressable', () => {
	const log = new ProtocolLog(3, 1e9);
	for (let i = 1; i <= 5; i++) log.add('out', { jsonrpc: '2.0', method: `m${i}` });
	assert.deepEqual(
		log.entries().map((e) => e.method),
		['m3', 'm4', 'm5'],
	);
	assert.equal(log.get(1), undefined);
	assert.equal(log.get(4)?.method, 'm4');
	const small = new ProtocolLog(1000, 500);
	for (let i = 0; i < 10; i++) small.add('in', { jsonrpc: '2.0', method: 'big', params: { text: 'x'.repeat(200) } });
	assert.ok(small.size <= 2, `kept ${small.size}`);
	const huge = new ProtocolLog().add('in', { jsonrpc: '2.0', id: 1, result: { text: 'y'.repeat(200_000) } });
	assert.ok(huge.text.length < 70_000 && huge.size > 200_000, 'the text is cut, the size is the whole message');
});

test('filter by method or text, case-insensitive, and errors only', () => {
	const log = new ProtocolLog();
	log.add('out', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'Echo' } });
	log.add('in', { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'Hello' }] } });
	log.add('out', { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'x' } });
	log.add('in', { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'unknown resource' } });
	const methods = (seqs: number[]) => seqs.map((s) => `${log.get(s)!.kind}:${log.get(s)!.method}`);
	assert.deepEqual(methods(log.filter('TOOLS/')), ['request:tools/call Echo', 'response:tools/call Echo']);
	assert.deepEqual(methods(log.filter('hello')), ['response:tools/call Echo']);
	assert.deepEqual(methods(log.filter('', true)), ['error:resources/read x']);
	assert.equal(log.filter('').length, 4);
});

test('string ids pair, capacity changes keep the newest with their pairing, and columns carry every row field', () => {
	const c = clock();
	const log = new ProtocolLog(10, 1e9, c.now);
	for (let i = 0; i < 12; i++) log.add('out', { jsonrpc: '2.0', method: 'notifications/message', params: { i } });
	const request = log.add('in', { jsonrpc: '2.0', id: 'abc', method: 'elicitation/create' });
	c.advance(5);
	const answer = log.add('out', { jsonrpc: '2.0', id: 'abc', result: {} });
	assert.deepEqual(
		[answer.kind, answer.id, answer.method, answer.pair, answer.latencyMs, request.pair],
		['response', 'abc', 'elicitation/create', request.seq, 5, answer.seq],
	);
	log.setCapacity(3);
	assert.equal(log.size, 3);
	assert.equal(log.get(request.seq)?.pair, answer.seq);
	const columns = log.columns();
	assert.equal(columns.first, answer.seq - 2);
	assert.deepEqual(columns.ids.slice(1), ['abc', 'abc']);
	assert.deepEqual(
		columns.methods.slice(1).map((m) => columns.names[m]),
		['elicitation/create', 'elicitation/create'],
	);
	assert.deepEqual(columns.latencies.slice(1), [null, 5]);
	assert.deepEqual(
		columns.flags.slice(1).map((f) => [f & 1, f >> 1]),
		[
			[1, 1],
			[0, 3],
		],
	);
});

test('the text filter finds exactly what searching each shown text finds: across wraps of the byte ring, secrets, multi-byte text, and never across two messages', () => {
	const reference = (log: ProtocolLog, query: string, afterSeq = 0) => {
		const pattern = new RegExp(query.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
		return log
			.entries()
			.filter((e) => e.seq > afterSeq && ((e.method !== undefined && pattern.test(e.method)) || pattern.test(e.text)))
			.map((e) => e.seq);
	};
	let seed = 11;
	const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
	// Small, so the ring wraps and drops many times.
	const log = new ProtocolLog(300, 20_000);
	const words = [
		'Echo',
		'échO',
		'ÉCHO',
		'token',
		'api_key',
		'sk-42',
		'hello wörld',
		'€uro',
		'😀',
		'a\\/b',
		'Authorization',
	];
	const queries = [
		'"}}',
		'}}{',
		'"}}\r\n{',
		'echo',
		'ÉCHO',
		'sk-42',
		'redacted',
		'[redacted]',
		'token',
		'hello',
		'wörld',
		'😀',
		'a/b',
		'a\\/b',
		'"}{"',
		'}{',
		'"id":7',
		'not shown',
		'API_KEY',
	];
	for (let i = 0; i < 3000; i++) {
		const word = words[Math.floor(next() * words.length)]!;
		const kind = next();
		// Texts as they come over the wire (some escaped, some with a secret key, some not JSON at all).
		let text: string;
		let message: unknown;
		if (kind < 0.3) {
			message = {
				jsonrpc: '2.0',
				id: i,
				method: 'tools/call',
				params: { name: word, arguments: next() < 0.3 ? { [word]: 'sk-42' } : { text: word } },
			};
			text = JSON.stringify(message);
		} else if (kind < 0.6) {
			text = `{"jsonrpc":"2.0","id":${i - 1},"result":{"content":[{"type":"text","text":"${word}"}]}}`;
			message = JSON.parse(text);
		} else if (kind < 0.9) {
			text = `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"${word} ${i}"}}`;
			message = JSON.parse(text);
		} else {
			text = `{"token": "sk-42" ${word}`;
			message = text;
		}
		const way = next();
		if (way < 0.3) {
			const bytes = Buffer.from(`x\n${text}\n`);
			log.record(next() < 0.5 ? 'in' : 'out', message, text, bytes, 2, bytes.length - 1);
		} else if (way < 0.5) {
			// Two messages of one read, a line end apart (the search must not find a match across that either).
			const second = `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"${words[Math.floor(next() * words.length)]}"}}`;
			const bytes = Buffer.from(`${text}\r\n${second}\n{"par`);
			const end = Buffer.byteLength(text);
			log.record('in', message, text, bytes, 0, end);
			log.record('in', JSON.parse(second), second, bytes, end + 2, end + 2 + Buffer.byteLength(second));
		} else {
			log.record(next() < 0.5 ? 'in' : 'out', message, text);
		}
		if (i % 97 === 0) {
			for (const query of queries) {
				assert.deepEqual(log.filter(query), reference(log, query), `'${query}' after ${i}`);
				const after = log.lastSeq - 20;
				assert.deepEqual(
					log.filter(query, false, after),
					reference(log, query, after),
					`'${query}' newer than ${after}`,
				);
			}
		}
	}
	assert.ok(log.filter('sk-42').length > 0 && log.filter('redacted').length > 0, 'the queries match some messages');
});

test('a secret is never found by its value, and a match across two adjacent texts is no match', () => {
	const log = new ProtocolLog();
	log.record('out', undefined, '{"jsonrpc":"2.0","id":1,"method":"x","params":{"apiKey":"sk-secret-1"}}');
	log.record('in', undefined, '{"jsonrpc":"2.0","method":"y","params":{"a":"end"}}');
	log.record('in', undefined, '{"jsonrpc":"2.0","method":"y","params":{"b":"start"}}');
	assert.deepEqual(log.filter('sk-secret'), []);
	assert.deepEqual(log.filter('[REDACTED]'), [1]);
	assert.deepEqual(log.filter('}}{'), []);
	assert.deepEqual(log.filter('"END"'), [2]);
});

test('a burst of messages we send is stored together yet keeps wire order, times, texts (multi-byte too) and pairing; more than the log holds keeps the newest', async () => {
	const c = clock();
	const log = new ProtocolLog(40, 1e9, c.now, 60_000);
	const request = (id: number, text: string) => ({
		jsonrpc: '2.0',
		id,
		method: 'tools/call',
		params: { name: 'echo', arguments: { text } },
	});
	// As stdio does under load: a read's answers come in, then the requests they let through go out, in one task.
	for (let id = 1; id <= 3; id++)
		log.record('out', request(id, `first ${id}`), JSON.stringify(request(id, `first ${id}`)));
	await Promise.resolve();
	c.advance(5);
	const texts: string[] = [];
	// One read of three answers, handed over as bytes (as stdio does).
	const answers = [1, 2, 3].map((id) => JSON.stringify({ jsonrpc: '2.0', id, result: { content: [] } }));
	const read = Buffer.from(`${answers.join('\n')}\n`);
	for (let id = 1, start = 0; id <= 3; id++) {
		const answer = answers[id - 1]!;
		log.record('in', JSON.parse(answer), answer, read, start, start + answer.length);
		start += answer.length + 1;
		const text = JSON.stringify(request(id + 10, id === 2 ? 'naïve € 😀' : `next ${id}`));
		texts.push(text);
		log.record('out', request(id + 10, ''), text);
	}
	const burst = [];
	for (let id = 20; id < 25; id++) {
		const text = JSON.stringify(request(id, `burst ${id} ü`));
		texts.push(text);
		burst.push(id);
		log.record('out', request(id, ''), text);
	}
	// Read before the burst's task ended: it is there, in order.
	const entries = log.entries();
	assert.deepEqual(
		entries.map((e) => `${e.direction} ${e.kind} ${e.id}`),
		[
			'out request 1',
			'out request 2',
			'out request 3',
			'in response 1',
			'out request 11',
			'in response 2',
			'out request 12',
			'in response 3',
			'out request 13',
			...burst.map((id) => `out request ${id}`),
		],
	);
	assert.deepEqual(
		entries.filter((e) => e.direction === 'out' && Number(e.id) > 10).map((e) => e.text),
		texts,
	);
	assert.deepEqual(
		entries.filter((e) => e.kind === 'response').map((e) => [e.pair, e.latencyMs, e.method]),
		[
			[1, 5, 'tools/call echo'],
			[2, 5, 'tools/call echo'],
			[3, 5, 'tools/call echo'],
		],
	);
	assert.deepEqual(
		log.filter('naïve € 😀').map((seq) => log.get(seq)!.id),
		[12],
	);
	// A burst longer than the log: only the newest stay, each with its own text.
	for (let id = 100; id < 150; id++) log.record('out', request(id, ''), JSON.stringify(request(id, `many ${id}`)));
	await Promise.resolve();
	const kept = log.entries();
	assert.equal(kept.length, 40);
	assert.deepEqual(
		kept.map((e) => e.id),
		Array.from({ length: 40 }, (_, i) => 110 + i),
	);
	assert.ok(kept.every((e) => e.text.includes(`many ${String(e.id)}`)));
	log.dispose();
});
