import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { MemoryLogger } from '../../src/common/logger';
import { JsonRpcConnection } from '../../src/protocol/connection';
import type { ConnectionOptions } from '../../src/protocol/connectionOptions';
import type { RequestContext } from '../../src/protocol/inFlightRequests';
import { ErrorCode, type JsonRpcMessage } from '../../src/protocol/jsonrpc';
import { McpError } from '../../src/protocol/mcpError';
import { FakeServer, ManualClock, NO_REPLY } from '../fixtures/fakeServer';
import { linkedPair } from '../fixtures/linkedTransport';

/** Lets every queued delivery on the linked pair happen. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

async function setup(options: ConnectionOptions = {}) {
	const pair = linkedPair();
	const server = new FakeServer(pair.server);
	const logger = options.logger instanceof MemoryLogger ? options.logger : new MemoryLogger('debug');
	const connection = new JsonRpcConnection(pair.client, { name: 'fake', logger, ...options });
	await connection.start();
	return { pair, server, connection, logger };
}

function cancelledFor(server: FakeServer, id: number) {
	return server.notifications('notifications/cancelled').find((m) => 'params' in m && m.params?.requestId === id);
}

test('a request resolves with its result; ids are unique', async () => {
	const { server, connection } = await setup();
	server.on('echo', (params) => ({ back: params.value }));
	const [a, b] = await Promise.all([
		connection.request('echo', { value: 1 }),
		connection.request('echo', { value: 2 }),
	]);
	assert.deepEqual(a, { back: 1 });
	assert.deepEqual(b, { back: 2 });
	const ids = server.requests('echo').map((r) => r.id);
	assert.equal(new Set(ids).size, 2);
	assert.equal(connection.pendingCount, 0);
});

test('an error response rejects with an McpError carrying code, message and data', async () => {
	const { server, connection } = await setup();
	server.on('boom', () => {
		throw new McpError(-32602, 'bad argument', { field: 'x' });
	});
	await assert.rejects(connection.request('boom', {}), (error: unknown) => {
		assert.ok(error instanceof McpError);
		assert.equal(error.code, -32602);
		assert.equal(error.message, 'bad argument');
		assert.deepEqual(error.data, { field: 'x' });
		return true;
	});
});

test('progress sent before a result reaches onProgress before the promise resolves, every one of them', async () => {
	const { server, connection } = await setup();
	server.on('work', (_params, context) => {
		for (let i = 1; i <= 5; i++) {
			context.progress(i, 5, `step ${i}`);
		}
		return { done: true };
	});
	const seen: string[] = [];
	const result = connection
		.request('work', {}, { onProgress: (p) => seen.push(`progress ${p.progress}/${p.total} ${p.message}`) })
		.then((r) => {
			seen.push('result');
			return r;
		});
	assert.deepEqual(await result, { done: true });
	assert.deepEqual(seen, [
		'progress 1/5 step 1',
		'progress 2/5 step 2',
		'progress 3/5 step 3',
		'progress 4/5 step 4',
		'progress 5/5 step 5',
		'result',
	]);
	const sent = server.requests('work')[0];
	assert.equal(
		(sent?.params?._meta as Record<string, unknown>).progressToken,
		sent?.id,
		'the progress token is sent only with onProgress',
	);
});

test('no progress token is sent without onProgress, and existing _meta is kept with one', async () => {
	const { server, connection } = await setup();
	server.on('m', () => ({}));
	await connection.request('m', { a: 1 });
	await connection.request('m', { a: 2, _meta: { trace: 'x' } }, { onProgress: () => {} });
	const [first, second] = server.requests('m');
	assert.deepEqual(first?.params, { a: 1 });
	assert.deepEqual(second?.params, { a: 2, _meta: { trace: 'x', progressToken: second?.id } });
});

test('a request times out after the default 60 s and sends notifications/cancelled with a reason', async () => {
	const clock = new ManualClock();
	const { server, connection } = await setup({ clock });
	server.on('slow', () => NO_REPLY);
	const promise = connection.request('slow', {});
	let settled = false;
	promise.catch(() => {}).finally(() => (settled = true));
	await flush();
	clock.advance(59_999);
	await flush();
	assert.equal(settled, false);
	clock.advance(1);
	await assert.rejects(
		promise,
		(error: unknown) =>
			error instanceof McpError && error.code === ErrorCode.RequestTimeout && /slow.*60000 ms/.test(error.message),
	);
	await flush();
	const id = server.requests('slow')[0]?.id as number;
	const cancelled = cancelledFor(server, id);
	assert.ok(cancelled && 'params' in cancelled && typeof cancelled.params?.reason === 'string');
	assert.equal(clock.armed, 0, 'no timer stays armed once nothing is pending');
});

test('one timer serves every request: sequential and concurrent requests do not set a timer each', async () => {
	const clock = new ManualClock();
	const { server, connection } = await setup({ clock });
	server.on('echo', (p) => p);
	for (let i = 0; i < 100; i++) {
		await connection.request('echo', { i });
	}
	await Promise.all(Array.from({ length: 100 }, (_, i) => connection.request('echo', { i })));
	assert.equal(clock.scheduled, 1);
	// Once it fires with nothing pending, it is not re-armed.
	clock.advance(60_000);
	assert.equal(clock.armed, 0);
});

test('progress restarts the timeout when asked; without reset the request times out', async () => {
	const clock = new ManualClock();
	const { server, connection } = await setup({ clock });
	const contexts: Array<Parameters<Parameters<FakeServer['on']>[1]>[1]> = [];
	server.on('long', (_p, context) => {
		contexts.push(context);
		return NO_REPLY;
	});
	const reset = connection.request('long', {}, { timeoutMs: 1000, onProgress: () => {} });
	const noReset = connection.request(
		'long',
		{},
		{ timeoutMs: 1000, onProgress: () => {}, resetTimeoutOnProgress: false },
	);
	noReset.catch(() => {});
	await flush();
	for (let i = 0; i < 4; i++) {
		clock.advance(800);
		for (const context of contexts) context.progress(i);
		await flush();
	}
	await assert.rejects(noReset, (e: unknown) => e instanceof McpError && e.code === ErrorCode.RequestTimeout);
	// 3200 ms in, the resetting request is still alive; its server answers now.
	const [first] = contexts;
	server.send({ jsonrpc: '2.0', id: first!.request.id, result: { ok: true } });
	assert.deepEqual(await reset, { ok: true });
});

test('maxTotalTimeoutMs caps a request that keeps reporting progress', async () => {
	const clock = new ManualClock();
	const { server, connection } = await setup({ clock });
	let context: Parameters<Parameters<FakeServer['on']>[1]>[1] | undefined;
	server.on('long', (_p, c) => {
		context = c;
		return NO_REPLY;
	});
	const promise = connection.request('long', {}, { timeoutMs: 1000, maxTotalTimeoutMs: 2500, onProgress: () => {} });
	let settledAt: number | undefined;
	promise.catch(() => (settledAt = clock.time));
	const start = clock.time;
	await flush();
	for (let i = 0; i < 5 && settledAt === undefined; i++) {
		clock.advance(800);
		context?.progress(i);
		await flush();
	}
	await assert.rejects(
		promise,
		(e: unknown) =>
			e instanceof McpError && e.code === ErrorCode.RequestTimeout && /maximum total time of 2500 ms/.test(e.message),
	);
	assert.ok(settledAt !== undefined && settledAt - start >= 2500 && settledAt - start < 3300);
});

test('aborting the signal rejects with RequestCancelled and sends notifications/cancelled with the reason', async () => {
	const { server, connection } = await setup();
	server.on('slow', () => NO_REPLY);
	const controller = new AbortController();
	const promise = connection.request('slow', {}, { signal: controller.signal });
	await flush();
	controller.abort('the user pressed stop');
	await assert.rejects(
		promise,
		(e: unknown) =>
			e instanceof McpError && e.code === ErrorCode.RequestCancelled && /the user pressed stop/.test(e.message),
	);
	await flush();
	const cancelled = cancelledFor(server, server.requests('slow')[0]?.id as number);
	assert.ok(cancelled && 'params' in cancelled);
	assert.equal(cancelled.params?.reason, 'the user pressed stop');
	// A late answer to the cancelled request is ignored.
	server.send({ jsonrpc: '2.0', id: server.requests('slow')[0]!.id, result: {} });
	await flush();
	assert.equal(connection.pendingCount, 0);
});

test('an already aborted signal fails at once without sending anything', async () => {
	const { server, connection } = await setup();
	const signal = AbortSignal.abort('nope');
	await assert.rejects(
		connection.request('x', {}, { signal }),
		(e: unknown) => e instanceof McpError && e.code === ErrorCode.RequestCancelled,
	);
	await flush();
	assert.equal(server.received.length, 0);
});

test('10,000 requests on one AbortSignal leave no listener behind and raise no MaxListenersExceededWarning', async () => {
	const { server, connection } = await setup();
	server.on('echo', (params) => params);
	const warnings: Error[] = [];
	const onWarning = (warning: Error) => warnings.push(warning);
	process.on('warning', onWarning);
	try {
		const controller = new AbortController();
		const all: Array<Promise<unknown>> = [];
		for (let i = 0; i < 10_000; i++) {
			all.push(connection.request('echo', { i }, { signal: controller.signal }));
		}
		assert.equal(
			getEventListeners(controller.signal, 'abort').length,
			1,
			'one listener per signal, however many requests',
		);
		await Promise.all(all);
		for (let i = 0; i < 100; i++) {
			await connection.request('echo', { i }, { signal: controller.signal });
		}
		assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
		await flush();
	} finally {
		process.off('warning', onWarning);
	}
	assert.deepEqual(
		warnings.filter((w) => w.name === 'MaxListenersExceededWarning'),
		[],
	);
});

test('one abort cancels every request sharing the signal', async () => {
	const { server, connection } = await setup();
	server.on('slow', () => NO_REPLY);
	const controller = new AbortController();
	const requests = [1, 2, 3].map(() => connection.request('slow', {}, { signal: controller.signal }));
	controller.abort();
	for (const request of requests) {
		await assert.rejects(request, (e: unknown) => e instanceof McpError && e.code === ErrorCode.RequestCancelled);
	}
	await flush();
	assert.equal(server.notifications('notifications/cancelled').length, 3);
});

test('a request does not time out while the server waits on our answer to its own request (a person filling a form)', async () => {
	const clock = new ManualClock();
	const { server, connection } = await setup({ clock });
	let release!: (value: Record<string, unknown>) => void;
	connection.setRequestHandler('elicitation/create', () => new Promise((resolve) => (release = resolve)));
	server.on('book', () => NO_REPLY);
	const call = connection.request('book', {});
	let settled = false;
	call.catch(() => {}).finally(() => (settled = true));
	await flush();
	const asked = server.request('elicitation/create', { message: 'Which date?' }, 'e1');
	await flush();
	clock.advance(5 * 60_000);
	await flush();
	assert.equal(settled, false, 'five minutes with the user did not time the call out');
	release({ action: 'accept', content: { date: '2026-12-01' } });
	await asked;
	await flush();
	clock.advance(59_999);
	await flush();
	assert.equal(settled, false, 'after the answer the call has its full timeout again');
	clock.advance(1);
	await assert.rejects(call, (error: unknown) => error instanceof McpError && error.code === ErrorCode.RequestTimeout);
});

test('maxTotalTimeoutMs still caps a request while the server waits on us', async () => {
	const clock = new ManualClock();
	const { server, connection } = await setup({ clock });
	connection.setRequestHandler('sampling/createMessage', () => new Promise(() => {}));
	server.on('think', () => NO_REPLY);
	const call = connection.request('think', {}, { timeoutMs: 1_000, maxTotalTimeoutMs: 10_000 });
	call.catch(() => {});
	await flush();
	void server.request('sampling/createMessage', {}, 's1');
	await flush();
	clock.advance(9_999);
	await flush();
	clock.advance(1);
	await assert.rejects(
		call,
		(error: unknown) => error instanceof McpError && /maximum total time of 10000 ms/.test(error.message),
	);
});

test('an incoming notifications/cancelled aborts the handler and its answer is not sent', async () => {
	const { server, connection } = await setup();
	let handlerSignal: AbortSignal | undefined;
	let release!: () => void;
	connection.setRequestHandler('sampling/createMessage', (_params, context) => {
		handlerSignal = context.signal;
		return new Promise((resolve) => (release = () => resolve({ late: true })));
	});
	const answer = server.request('sampling/createMessage', {}, 'req-1');
	let answered = false;
	void answer.then(() => (answered = true));
	await flush();
	server.notify('notifications/cancelled', { requestId: 'req-1', reason: 'no longer needed' });
	await flush();
	assert.equal(handlerSignal?.aborted, true);
	assert.match(String((handlerSignal?.reason as Error).message), /no longer needed/);
	release();
	await flush();
	assert.equal(answered, false);
	assert.equal(server.transport.peer.sent.filter((m) => 'id' in m && m.id === 'req-1').length, 0);
});

test('a request forwarded with cancelWith an incoming request is cancelled downstream when the caller cancels or goes away, without an AbortSignal', async () => {
	// A gateway: `front` answers a caller (`server` here) by forwarding to `back`'s peer with the handler's context.
	const { server, connection: front } = await setup();
	const behind = await setup();
	behind.server.on('slow', () => NO_REPLY);
	const contexts: RequestContext[] = [];
	const forwarded: Promise<unknown>[] = [];
	front.setRequestHandler('tools/call', (_params, context) => {
		contexts.push(context);
		const call = behind.connection.request('slow', {}, { cancelWith: context });
		forwarded.push(call.catch((error: unknown) => error));
		return call;
	});
	void server.request('tools/call', {}, 'a').catch(() => undefined);
	await flush();
	assert.equal(contexts[0]!.aborted, false);
	server.notify('notifications/cancelled', { requestId: 'a', reason: 'the user pressed stop' });
	await flush();
	assert.equal(contexts[0]!.aborted, true);
	// A signal read only after the cancellation is born aborted, with the reason.
	assert.equal(contexts[0]!.signal.aborted, true);
	assert.match(String((contexts[0]!.signal.reason as Error).message), /the user pressed stop/);
	const first = (await forwarded[0]) as McpError;
	assert.equal(first.code, ErrorCode.RequestCancelled);
	const firstId = behind.server.requests('slow')[0]!.id as number;
	assert.match(
		String((cancelledFor(behind.server, firstId) as unknown as { params: { reason: string } }).params.reason),
		/the user pressed stop/,
	);
	// The caller's connection closing cancels what it asked for too.
	void server.request('tools/call', {}, 'b').catch(() => undefined);
	await flush();
	await front.close();
	await flush();
	assert.equal(((await forwarded[1]) as McpError).code, ErrorCode.RequestCancelled);
	assert.ok(cancelledFor(behind.server, behind.server.requests('slow')[1]!.id as number), 'the server behind was told');
	assert.equal(behind.connection.pendingCount, 0);
});

test('ping is answered without a handler, and ping can be sent', async () => {
	const { server, connection } = await setup();
	const answer = await server.request('ping');
	assert.ok('result' in answer);
	assert.deepEqual(answer.result, {});
	server.on('ping', () => ({}));
	assert.deepEqual(await connection.request('ping', undefined), {});
});

test('a response with an unknown id is ignored and logged; the connection keeps working', async () => {
	const { server, connection, logger } = await setup();
	server.on('echo', (p) => p);
	server.send({ jsonrpc: '2.0', id: 999, result: {} });
	server.send({ jsonrpc: '2.0', id: 'nobody', error: { code: 1, message: 'x' } });
	await flush();
	assert.equal(logger.find('unknown id 999').length, 1);
	assert.equal(logger.find('unknown id "nobody"').length, 1);
	assert.deepEqual(await connection.request('echo', { a: 1 }), { a: 1 });
});

test('a repeated incoming request id is never answered twice', async () => {
	const { server, connection, logger } = await setup();
	let calls = 0;
	let release!: () => void;
	connection.setRequestHandler('roots/list', () => {
		calls++;
		return new Promise((resolve) => (release = () => resolve({ roots: [] })));
	});
	server.send({ jsonrpc: '2.0', id: 7, method: 'roots/list' });
	server.send({ jsonrpc: '2.0', id: 7, method: 'roots/list' }); // while the first is in flight
	await flush();
	release();
	await flush();
	server.send({ jsonrpc: '2.0', id: 7, method: 'roots/list' }); // after it was answered
	await flush();
	assert.equal(calls, 1);
	const answers = server.transport.peer.sent.filter((m) => 'id' in m && m.id === 7);
	assert.equal(answers.length, 1);
	assert.equal(logger.find('repeated request id 7').length, 2);
});

test('malformed input is logged and skipped without closing the connection', async () => {
	const { pair, server, connection, logger } = await setup();
	server.on('echo', (p) => p);
	for (const value of [
		'not json-rpc',
		42,
		null,
		[1, 2],
		{ jsonrpc: '1.0', id: 1, result: {} },
		{ id: 1 },
		{ jsonrpc: '2.0', method: 'x', params: [1] },
	]) {
		pair.client.inject(value);
	}
	// An invalid request that carries an id is answered InvalidRequest.
	pair.client.inject({ jsonrpc: '2.0', id: 'bad', method: 'tools/call', params: 'nope' });
	await flush();
	assert.equal(connection.isClosed, false);
	assert.ok(logger.find('ignored').length >= 7);
	const invalid = pair.client.sent.find((m) => 'id' in m && m.id === 'bad');
	assert.ok(invalid && 'error' in invalid && invalid.error.code === ErrorCode.InvalidRequest);
	assert.deepEqual(await connection.request('echo', { ok: 1 }), { ok: 1 });
});

test('handlers: unknown method is -32601, an unexpected error is logged and -32603, an McpError is sent as-is', async () => {
	const { server, connection, logger } = await setup();
	connection.setRequestHandler('explode', () => {
		throw new TypeError('cannot read x of undefined');
	});
	connection.setRequestHandler('refuse', async () => {
		throw new McpError(-1, 'User rejected sampling request', { why: 'user' });
	});
	connection.setRequestHandler('fine', async (params) => ({ got: params }));
	const unknown = await server.request('nope/method');
	assert.ok('error' in unknown && unknown.error.code === ErrorCode.MethodNotFound);
	const exploded = await server.request('explode');
	assert.ok('error' in exploded && exploded.error.code === ErrorCode.InternalError);
	assert.match(exploded.error.message, /cannot read x/);
	assert.equal(logger.find('cannot read x of undefined').filter((e) => e.level === 'error').length, 1);
	const refused = await server.request('refuse');
	assert.ok('error' in refused);
	assert.deepEqual(refused.error, { code: -1, message: 'User rejected sampling request', data: { why: 'user' } });
	const fine = await server.request('fine', { a: 1 });
	assert.ok('result' in fine);
	assert.deepEqual(fine.result, { got: { a: 1 } });
});

test('close rejects every pending request with ConnectionClosed naming the server and the reason; onDidClose fires once', async () => {
	const { pair, server, connection } = await setup({ name: 'everything' });
	server.on('slow', () => NO_REPLY);
	let handlerSignal: AbortSignal | undefined;
	connection.setRequestHandler('elicitation/create', (_p, context) => {
		handlerSignal = context.signal;
		return new Promise(() => {});
	});
	void server.request('elicitation/create', {});
	const closes: McpError[] = [];
	connection.onDidClose((e) => closes.push(e));
	const pending = [connection.request('slow', {}), connection.request('slow', {})];
	await flush();
	pair.client.closeWithReason('the process exited with code 3; stderr: boom', { exitCode: 3 });
	for (const request of pending) {
		await assert.rejects(request, (e: unknown) => {
			assert.ok(e instanceof McpError);
			assert.equal(e.code, ErrorCode.ConnectionClosed);
			assert.match(e.message, /everything/);
			assert.match(e.message, /exited with code 3; stderr: boom/);
			assert.deepEqual(e.data, { exitCode: 3 });
			return true;
		});
	}
	assert.equal(handlerSignal?.aborted, true);
	await connection.close();
	assert.equal(closes.length, 1);
	await assert.rejects(
		connection.request('slow', {}),
		(e: unknown) => e instanceof McpError && e.code === ErrorCode.ConnectionClosed,
	);
	await assert.rejects(
		connection.notify('x'),
		(e: unknown) => e instanceof McpError && e.code === ErrorCode.ConnectionClosed,
	);
});

test('close() by the client is idempotent and fails pending requests', async () => {
	const { server, connection } = await setup();
	server.on('slow', () => NO_REPLY);
	const pending = connection.request('slow', {});
	await Promise.all([connection.close(), connection.close()]);
	await assert.rejects(pending, /closed by the client/);
	assert.equal(connection.isClosed, true);
});

test('a send failure rejects the request', async () => {
	const { pair, connection } = await setup();
	pair.client.sendError = new McpError(ErrorCode.TransportFailed, 'POST failed: 500');
	await assert.rejects(connection.request('x', {}), /POST failed: 500/);
	assert.equal(connection.pendingCount, 0);
});

test('the wire is traced only at trace level, with credentials redacted', async () => {
	const traced = await setup({ logger: new MemoryLogger('trace') });
	traced.server.on('login', () => ({ access_token: 'secret-token-value', ok: true }));
	await traced.connection.request(
		'login',
		{ headers: { Authorization: 'Bearer abc123' }, apiKey: 'k-999', query: 'visible' },
		{ onProgress: () => {} },
	);
	const lines = traced.logger.entries.filter((e) => e.level === 'trace').map((e) => e.message);
	assert.ok(lines.some((l) => l.includes('→') && l.includes('visible') && l.includes('progressToken')));
	assert.ok(lines.some((l) => l.includes('←') && l.includes('"ok":true')));
	for (const secret of ['abc123', 'k-999', 'secret-token-value']) {
		assert.ok(!lines.some((l) => l.includes(secret)), `${secret} must not be logged`);
	}
	traced.server.on('big', () => ({ text: 'x'.repeat(1024 * 1024) }));
	await traced.connection.request('big', {});
	const bigLine = traced.logger.entries.find((e) => e.level === 'trace' && e.message.includes('xxxx'));
	assert.ok(
		bigLine && bigLine.message.length < 70 * 1024 && /… \(\d+ characters\)$/.test(bigLine.message),
		'a huge message is cut in the trace',
	);
	const quiet = await setup({ logger: new MemoryLogger('debug') });
	quiet.server.on('login', () => ({}));
	await quiet.connection.request('login', {});
	assert.equal(quiet.logger.entries.filter((e) => e.level === 'trace').length, 0);
});

test('notifications reach their handler in order; a throwing handler is logged and does not stop the next', async () => {
	const { server, connection, logger } = await setup();
	const seen: unknown[] = [];
	connection.setNotificationHandler('notifications/message', (params) => {
		if (params?.data === 'bad') throw new Error('listener bug');
		seen.push(params?.data);
	});
	for (const data of ['a', 'bad', 'b', 'c']) {
		server.notify('notifications/message', { level: 'info', data });
	}
	await flush();
	assert.deepEqual(seen, ['a', 'b', 'c']);
	assert.equal(logger.find('listener bug').length, 1);
});

test('a request sent while a dialog for the server is open still times out (only requests in flight when it asked are paused)', async () => {
	const clock = new ManualClock();
	const { server, connection } = await setup({ clock });
	connection.setRequestHandler('elicitation/create', () => new Promise(() => {})); // the user never answers
	server.on('ping', () => NO_REPLY);
	void server.request('elicitation/create', { message: 'Which date?' }, 'e1');
	await flush();
	const ping = connection.request('ping', undefined, { timeoutMs: 200 });
	let settled = false;
	ping.catch(() => {}).finally(() => (settled = true));
	clock.advance(3_000);
	await flush();
	assert.equal(settled, true, 'the ping was not frozen by the open dialog');
	await assert.rejects(
		ping,
		(error: unknown) =>
			error instanceof McpError &&
			error.code === ErrorCode.RequestTimeout &&
			/timed out after 200 ms/.test(error.message),
	);
});

test('the pause of a request in flight while the server waits on us is capped (maxPauseMs, default 10 minutes)', async () => {
	const clock = new ManualClock();
	const { server, connection } = await setup({ clock });
	connection.setRequestHandler('elicitation/create', () => new Promise(() => {}));
	server.on('book', () => NO_REPLY);
	const call = connection.request('book', {});
	let settled = false;
	call.catch(() => {}).finally(() => (settled = true));
	await flush();
	void server.request('elicitation/create', { message: 'Which date?' }, 'e1');
	await flush();
	clock.advance(10 * 60_000 - 1);
	await flush();
	assert.equal(settled, false, 'held while the user may still be answering');
	clock.advance(1);
	await assert.rejects(
		call,
		(error: unknown) =>
			error instanceof McpError &&
			error.code === ErrorCode.RequestTimeout &&
			/still unanswered after 600000 ms/.test(error.message),
	);

	const short = await setup({ clock, maxPauseMs: 5_000 });
	short.connection.setRequestHandler('sampling/createMessage', () => new Promise(() => {}));
	short.server.on('think', () => NO_REPLY);
	const think = short.connection.request('think', {}, { timeoutMs: 1_000 });
	think.catch(() => {});
	await flush();
	void short.server.request('sampling/createMessage', {}, 's1');
	await flush();
	clock.advance(5_000);
	await assert.rejects(think, (error: unknown) => error instanceof McpError && error.code === ErrorCode.RequestTimeout);
});

test('a malformed response to a known id fails that request at once with a preview, and no cancel is sent', async () => {
	const clock = new ManualClock();
	const { server, connection } = await setup({ clock });
	server.on('list', (_params, context) => {
		server.send({ jsonrpc: '2.0', id: context.request.id, result: [1, 2, 3] } as unknown as JsonRpcMessage);
		return NO_REPLY;
	});
	await assert.rejects(connection.request('list', {}), (error: unknown) => {
		assert.ok(error instanceof McpError);
		assert.equal(error.code, ErrorCode.ProtocolViolation);
		assert.match(error.message, /fake answered list with a malformed JSON-RPC response: .*"result":\[1,2,3\]/);
		return true;
	});
	server.on('nojsonrpc', (_params, context) => {
		server.send({ id: context.request.id, result: {} } as unknown as JsonRpcMessage);
		return NO_REPLY;
	});
	await assert.rejects(
		connection.request('nojsonrpc', {}),
		(error: unknown) => error instanceof McpError && error.code === ErrorCode.ProtocolViolation,
	);
	await flush();
	assert.equal(
		server.notifications('notifications/cancelled').length,
		0,
		'the server answered; it is not told the request was cancelled',
	);
	assert.equal(connection.pendingCount, 0);
});

test('a timeout beyond 2^31-1 ms means no timeout: no timer re-armed every millisecond, no failure at once', async () => {
	let armed = 0;
	const counting = {
		now: () => Date.now(),
		setTimeout(callback: () => void, ms: number) {
			armed++;
			const timer = setTimeout(callback, ms);
			timer.unref();
			return timer;
		},
		clearTimeout: (handle: unknown) => clearTimeout(handle as NodeJS.Timeout),
	};
	const { server, connection } = await setup({ clock: counting });
	server.on('slow', () => NO_REPLY);
	const call = connection.request('slow', {}, { timeoutMs: 1e10 });
	let settled = false;
	call.catch(() => {}).finally(() => (settled = true));
	await new Promise((resolve) => setTimeout(resolve, 50));
	assert.equal(settled, false, 'still waiting');
	assert.ok(armed <= 1, `the timer was armed ${armed} times in 50 ms`);

	const withDefault = await setup({ clock: counting, timeoutMs: 3e9 });
	withDefault.server.on('slow', () => NO_REPLY);
	const second = withDefault.connection.request('slow', {});
	let secondSettled = false;
	second.catch(() => {}).finally(() => (secondSettled = true));
	await new Promise((resolve) => setTimeout(resolve, 30));
	assert.equal(secondSettled, false, 'a connection default beyond the limit does not fail requests at once');
	await connection.close();
	await withDefault.connection.close();
});
