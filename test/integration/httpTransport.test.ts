import assert from 'node:assert/strict';
import { once } from 'node:events';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import { McpClient } from '../../src/protocol/client';
import {
	ErrorCode,
	isResponse,
	type JsonRpcMessage,
	type JsonRpcResponse,
	type RequestId,
} from '../../src/protocol/jsonrpc';
import { McpError } from '../../src/protocol/mcpError';
import { createTransport } from '../../src/protocol/transports/createTransport';
import {
	StreamableHttpTransport,
	type StreamableHttpTransportOptions,
} from '../../src/protocol/transports/streamableHttp';
import type { HttpAuthProvider, Transport } from '../../src/protocol/transports/transport';
import { HttpFaultServer, type FaultServerOptions } from '../fixtures/httpFaultServer';

/** Collects what a transport delivers and waits for particular messages. */
class Inbox {
	readonly messages: unknown[] = [];
	closed: McpError | undefined;
	private waiters: Array<{ match: (m: unknown) => boolean; resolve: (m: unknown) => void }> = [];

	constructor(transport: Transport) {
		transport.onMessage((message) => {
			this.messages.push(message);
			for (const waiter of this.waiters.filter((w) => w.match(message))) {
				this.waiters = this.waiters.filter((w) => w !== waiter);
				waiter.resolve(message);
			}
		});
		transport.onClose((error) => (this.closed = error));
	}

	waitFor(match: (m: unknown) => boolean, what: string, ms = 10_000): Promise<unknown> {
		const found = this.messages.find(match);
		if (found !== undefined) {
			return Promise.resolve(found);
		}
		return new Promise((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
			this.waiters.push({
				match,
				resolve: (m) => {
					clearTimeout(timer);
					resolve(m);
				},
			});
		});
	}

	response(id: RequestId): Promise<JsonRpcResponse> {
		return this.waitFor((m) => isResponse(m) && m.id === id, `response ${String(id)}`) as Promise<JsonRpcResponse>;
	}

	count(match: (m: unknown) => boolean): number {
		return this.messages.filter(match).length;
	}
}

let nextId = 1;
function call(name: string, args: Record<string, unknown> = {}): JsonRpcMessage & { id: number } {
	return { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } };
}

function textOf(response: JsonRpcResponse): string {
	assert.ok('result' in response, `expected a result, got ${JSON.stringify(response)}`);
	const content = (response.result as { content: Array<{ text: string }> }).content;
	return content[0]!.text;
}

async function initialize(transport: Transport, inbox: Inbox): Promise<void> {
	await transport.send({
		jsonrpc: '2.0',
		id: 0,
		method: 'initialize',
		params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
	});
	const reply = await inbox.response(0);
	assert.ok('result' in reply);
	transport.setProtocolVersion?.(String(reply.result.protocolVersion));
	await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
}

async function connect(server: HttpFaultServer, options: Partial<StreamableHttpTransportOptions> = {}) {
	const transport = new StreamableHttpTransport({ url: server.url, reconnectDelayMs: 20, ...options });
	const inbox = new Inbox(transport);
	await transport.start();
	await initialize(transport, inbox);
	return { transport, inbox };
}

async function withServer(
	options: FaultServerOptions,
	body: (server: HttpFaultServer) => Promise<void>,
): Promise<void> {
	const server = await HttpFaultServer.start(options);
	try {
		await body(server);
	} finally {
		await server.close();
	}
}

async function until(condition: () => boolean, what: string, ms = 5000): Promise<void> {
	const start = Date.now();
	while (!condition()) {
		if (Date.now() - start > ms) {
			throw new Error(`timed out waiting for ${what}`);
		}
		await new Promise((r) => setTimeout(r, 10));
	}
}

describe('Streamable HTTP transport', () => {
	for (const replyMode of ['json', 'sse'] as const) {
		test(`calls a tool with ${replyMode} replies, sending the session id and protocol version after initialize`, async () => {
			await withServer({ replyMode }, async (server) => {
				const { transport, inbox } = await connect(server);
				assert.equal(transport.sessionId, 'session-1');
				assert.equal(transport.kind, 'http');
				const request = call('echo', { text: 'hello' });
				await transport.send(request);
				assert.equal(textOf(await inbox.response(request.id)), 'hello');
				await transport.close();

				const posts = server.requestsOf('POST');
				assert.equal(posts[0]!.headers['mcp-session-id'], undefined, 'initialize carries no session id');
				assert.equal(posts[0]!.headers.accept, 'application/json, text/event-stream');
				assert.equal(posts[0]!.headers['content-type'], 'application/json');
				for (const later of posts.slice(1)) {
					assert.equal(later.headers['mcp-session-id'], 'session-1');
					assert.equal(later.headers['mcp-protocol-version'], '2025-11-25');
				}
			});
		});
	}

	test('reuses one keep-alive socket for sequential requests', async () => {
		await withServer({}, async (server) => {
			const { transport, inbox } = await connect(server, { listen: false });
			for (let i = 0; i < 50; i++) {
				const request = call('echo', { text: `n${i}` });
				await transport.send(request);
				assert.equal(textOf(await inbox.response(request.id)), `n${i}`);
			}
			assert.equal(server.socketCount, 1);
			await transport.close();
		});
	});

	test('sends DELETE with the session id on close and leaves no socket open', async () => {
		await withServer({}, async (server) => {
			const { transport, inbox } = await connect(server);
			await transport.close();
			const deletes = server.requestsOf('DELETE');
			assert.equal(deletes.length, 1);
			assert.equal(deletes[0]!.headers['mcp-session-id'], 'session-1');
			assert.match(inbox.closed?.message ?? '', /closed by the client/);
			assert.equal(inbox.closed?.code, ErrorCode.ConnectionClosed);
			await until(() => server.openSockets === 0, 'sockets to close');
			await transport.close(); // idempotent
			await assert.rejects(transport.send(call('echo')), (e: McpError) => e.code === ErrorCode.ConnectionClosed);
		});
	});

	test('resumes a reply stream cut before its response with GET and Last-Event-ID', async () => {
		await withServer({}, async (server) => {
			const { transport, inbox } = await connect(server);
			const request = call('cut');
			await transport.send(request);
			assert.equal(textOf(await inbox.response(request.id)), 'resumed');
			assert.equal(
				inbox.count((m) => isResponse(m) && m.id === request.id),
				1,
			);
			assert.equal(
				inbox.count((m) => (m as { method?: string }).method === 'notifications/progress'),
				1,
				'the progress event before the cut arrives once',
			);
			const resumes = server.requestsOf('GET').filter((r) => r.headers['last-event-id'] !== undefined);
			assert.equal(resumes.length, 1);
			assert.match(String(resumes[0]!.headers['last-event-id']), /^c\d+-1$/);
			assert.equal(resumes[0]!.headers['mcp-session-id'], 'session-1');
			await transport.close();
		});
	});

	test('fails only that request when a stream without event ids is cut', async () => {
		await withServer({}, async (server) => {
			const { transport, inbox } = await connect(server);
			const request = call('cutNoIds');
			await transport.send(request);
			const reply = await inbox.response(request.id);
			assert.ok('error' in reply);
			assert.equal(reply.error.code, ErrorCode.TransportFailed);
			assert.match(reply.error.message, /tools\/call .*before the response and cannot be resumed/);
			const next = call('echo', { text: 'still here' });
			await transport.send(next);
			assert.equal(textOf(await inbox.response(next.id)), 'still here');
			await transport.close();
		});
	});

	test('does not reconnect after a stream that ended with an error response', async () => {
		await withServer({}, async (server) => {
			const { transport, inbox } = await connect(server);
			const request = call('errorThenEnd');
			await transport.send(request);
			const reply = await inbox.response(request.id);
			assert.ok('error' in reply);
			assert.equal(reply.error.message, 'tool exploded');
			// Give a wrongful reconnect (20 ms delay) time to happen before checking it did not.
			await new Promise((r) => setTimeout(r, 150));
			assert.equal(server.requestsOf('GET').filter((r) => r.headers['last-event-id'] !== undefined).length, 0);
			await transport.close();
		});
	});

	test('delivers a replayed server request once, so it is answered once', async () => {
		await withServer({}, async (server) => {
			const { transport, inbox } = await connect(server);
			transport.onMessage((m) => {
				const message = m as { id?: RequestId; method?: string };
				if (message.method === 'roots/list' && message.id !== undefined) {
					void transport.send({ jsonrpc: '2.0', id: message.id, result: { roots: [{ uri: 'file:///w' }] } });
				}
			});
			const request = call('ask');
			await transport.send(request);
			assert.equal(textOf(await inbox.response(request.id)), JSON.stringify({ roots: [{ uri: 'file:///w' }] }));
			assert.equal(
				inbox.count((m) => (m as { method?: string }).method === 'roots/list'),
				1,
			);
			assert.equal(server.received.filter((m) => m.method === undefined && m.id === `ask-${request.id}`).length, 1);
			await transport.close();
		});
	});

	test('closes with sessionExpired when the server answers 404 to a request with a session id', async () => {
		await withServer({}, async (server) => {
			const { transport, inbox } = await connect(server);
			server.expireSessions();
			const rejected = await transport.send(call('echo', { text: 'x' })).then(
				() => undefined,
				(e: unknown) => e,
			);
			assert.ok(rejected instanceof McpError);
			assert.equal(rejected.code, ErrorCode.ConnectionClosed);
			assert.deepEqual((rejected.data as { sessionExpired?: boolean }).sessionExpired, true);
			assert.match(rejected.message, /session expired/);
			await until(() => inbox.closed !== undefined, 'onClose');
			assert.equal((inbox.closed?.data as { sessionExpired?: boolean }).sessionExpired, true);
			assert.equal(server.requestsOf('DELETE').length, 0, 'no DELETE for a session the server forgot');
		});
	});

	test('asks the auth provider again on a 401 mid-session and retries once', async () => {
		await withServer({ token: 'first' }, async (server) => {
			let token = 'first';
			const challenges: Array<{ status: number; wwwAuthenticate: string | undefined }> = [];
			const auth: HttpAuthProvider = {
				headers: async () => ({ Authorization: `Bearer ${token}` }),
				onUnauthorized: async (response) => {
					challenges.push(response);
					token = 'second';
					return true;
				},
			};
			const { transport, inbox } = await connect(server, { auth, listen: false });
			server.options.token = 'second';
			const request = call('echo', { text: 'after refresh' });
			await transport.send(request);
			assert.equal(textOf(await inbox.response(request.id)), 'after refresh');
			assert.equal(challenges.length, 1);
			assert.equal(challenges[0]!.status, 401);
			assert.match(challenges[0]!.wwwAuthenticate ?? '', /invalid_token/);
			await transport.close();
		});
	});

	test('closing with an expired token sends DELETE with the current credentials and never starts a refresh or sign-in', async () => {
		await withServer({ token: 'first' }, async (server) => {
			let closing = false;
			let headersWhileClosing = 0;
			let challenges = 0;
			const auth: HttpAuthProvider = {
				headers: async () => {
					if (closing) {
						// What an expired token does in the OAuth provider: a refresh that may end in the browser.
						headersWhileClosing++;
						return new Promise<Record<string, string>>(() => {});
					}
					return { Authorization: 'Bearer first' };
				},
				onUnauthorized: () => {
					challenges++;
					return new Promise<boolean>(() => {}); // a browser sign-in nobody finishes
				},
			};
			const { transport, inbox } = await connect(server, { auth, listen: false });
			server.options.token = 'second'; // the token expired on the server's side
			closing = true;
			const closed = await Promise.race([
				transport.close().then(() => true),
				new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 4000)),
			]);
			assert.equal(closed, true, 'close() finished instead of waiting on a sign-in');
			assert.equal(headersWhileClosing, 0, 'the auth provider was not asked for headers');
			assert.equal(challenges, 0, 'no 401 handling (no refresh, no browser)');
			const deletes = server.requestsOf('DELETE');
			assert.equal(deletes.length, 1);
			assert.equal(deletes[0]!.headers.authorization, 'Bearer first', 'the DELETE carries the credentials in use');
			assert.equal(deletes[0]!.headers['mcp-session-id'], 'session-1');
			assert.match(inbox.closed?.message ?? '', /closed by the client/);
		});
	});

	test('fails with Unauthorized when the server needs auth and there is no provider, or the provider gives up', async () => {
		await withServer({ token: 'secret' }, async (server) => {
			const bare = new StreamableHttpTransport({ url: server.url });
			await bare.start();
			await assert.rejects(bare.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }), (e: McpError) => {
				assert.equal(e.code, ErrorCode.Unauthorized);
				assert.match(e.message, /needs authorization \(HTTP 401\)/);
				return true;
			});
			await bare.close();

			const refusing = new StreamableHttpTransport({
				url: server.url,
				auth: { headers: async () => ({}), onUnauthorized: async () => false },
			});
			await refusing.start();
			await assert.rejects(
				refusing.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }),
				(e: McpError) => e.code === ErrorCode.Unauthorized,
			);
			await refusing.close();
		});
	});

	test('a server that never answers does not block close, and the request fails', async () => {
		await withServer({}, async (server) => {
			const { transport } = await connect(server);
			const sending = transport.send(call('never')).then(
				() => undefined,
				(e: unknown) => e,
			);
			await until(
				() => server.received.some((m) => (m.params as { name?: string } | undefined)?.name === 'never'),
				'the call to arrive',
			);
			await transport.close();
			const error = await sending;
			assert.ok(error instanceof McpError);
			assert.equal(error.code, ErrorCode.ConnectionClosed);
		});
	});

	test('a cancelled request releases its connection (the server sees it close)', async () => {
		await withServer({}, async (server) => {
			const { transport, inbox } = await connect(server);
			const request = call('never');
			const sending = transport.send(request).then(
				() => undefined,
				(e: unknown) => e,
			);
			await until(() => server.received.some((m) => m.id === request.id), 'the call to arrive');
			await transport.send({
				jsonrpc: '2.0',
				method: 'notifications/cancelled',
				params: { requestId: request.id, reason: 'timed out' },
			});
			await until(() => server.abandoned === 1, 'the server to see the request closed');
			assert.ok((await sending) instanceof McpError, 'the abandoned POST fails its send');
			const next = call('echo', { text: 'next' });
			await transport.send(next);
			assert.equal(textOf(await inbox.response(next.id)), 'next');
			assert.equal(inbox.closed, undefined);
			await transport.close();
		});
	});

	test('with the client: a call to a server that never answers times out, its connection is released, and the next call works', async () => {
		await withServer({}, async (server) => {
			const transport = new StreamableHttpTransport({ url: server.url });
			const client = await McpClient.connect(transport, { name: 'hung' });
			await assert.rejects(
				client.callTool('never', {}, { timeoutMs: 200 }),
				(e: McpError) => e.code === ErrorCode.RequestTimeout,
			);
			await until(() => server.abandoned === 1, 'the abandoned POST to close');
			const result = await client.callTool('echo', { text: 'after timeout' });
			assert.deepEqual(result.content, [{ type: 'text', text: 'after timeout' }]);
			await client.close();
		});
	});

	test('HTML, garbage and HTTP 500 replies fail that request with the status, content type and first bytes; the connection survives', async () => {
		await withServer({}, async (server) => {
			const { transport, inbox } = await connect(server);
			await assert.rejects(transport.send(call('html')), (e: McpError) => {
				assert.equal(e.code, ErrorCode.ProtocolViolation);
				assert.match(e.message, /HTTP 200 \(text\/html\): "<!DOCTYPE html><html><body><h1>Sign in/);
				return true;
			});
			await assert.rejects(transport.send(call('garbage')), (e: McpError) => {
				assert.match(e.message, /invalid JSON \(HTTP 200\): "this is \{ not json"/);
				return true;
			});
			await assert.rejects(transport.send(call('status500')), (e: McpError) => {
				assert.match(e.message, /HTTP 500 \(text\/plain\): "Internal Server Error: database is down"/);
				return true;
			});
			const request = call('echo', { text: 'alive' });
			await transport.send(request);
			assert.equal(textOf(await inbox.response(request.id)), 'alive');
			assert.equal(inbox.closed, undefined);
			await transport.close();
		});
	});

	for (const replyMode of ['json', 'sse'] as const) {
		test(`receives a 20 MiB result as ${replyMode}`, async () => {
			await withServer({ replyMode }, async (server) => {
				const { transport, inbox } = await connect(server);
				const bytes = 20 * 1024 * 1024;
				const request = call('huge', { bytes });
				await transport.send(request);
				const text = textOf(await inbox.response(request.id));
				assert.equal(text.length, bytes);
				await transport.close();
			});
		});
	}

	test('a reply past maxMessageBytes fails that request clearly', async () => {
		await withServer({}, async (server) => {
			const { transport } = await connect(server, { maxMessageBytes: 1024 * 1024 });
			await assert.rejects(transport.send(call('huge', { bytes: 2 * 1024 * 1024 })), /larger than 1048576 bytes/);
			await transport.close();
		});
	});

	test('falls back to legacy SSE when initialize is answered 405, and says so', async () => {
		await withServer({ legacyOnly: true }, async (server) => {
			const logger = new MemoryLogger('debug');
			const transport = createTransport({ type: 'http', url: server.url }, { logger, name: 'old' });
			const inbox = new Inbox(transport);
			await transport.start();
			await initialize(transport, inbox);
			assert.equal(transport.kind, 'sse');
			assert.equal((transport as StreamableHttpTransport).negotiatedKind, 'sse');
			assert.match(transport.sessionId ?? '', /^legacy-/);
			assert.equal(logger.find('falling back to the legacy HTTP+SSE transport').length, 1);
			assert.equal(logger.find('using legacy HTTP+SSE').length, 1);
			const request = call('echo', { text: 'over sse' });
			await transport.send(request);
			assert.equal(textOf(await inbox.response(request.id)), 'over sse');
			await transport.close();
			assert.match(inbox.closed?.message ?? '', /closed by the client/);
		});
	});

	test('when initialize is refused and the SSE fallback fails too, the error carries both answers', async () => {
		const server = http.createServer((req, res) => {
			if (req.method === 'POST') {
				res
					.writeHead(400, { 'content-type': 'application/json' })
					.end('{"jsonrpc":"2.0","id":0,"error":{"code":-32602,"message":"Unsupported protocol version"}}');
			} else {
				res.writeHead(405).end();
			}
		});
		server.listen(0, '127.0.0.1');
		await once(server, 'listening');
		try {
			const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
			const transport = createTransport({ type: 'http', url }, {});
			await transport.start();
			await assert.rejects(
				transport.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }),
				(e: McpError) => {
					assert.equal(e.code, ErrorCode.TransportFailed);
					assert.match(
						e.message,
						/answered initialize with HTTP 400 \(application\/json\): .*Unsupported protocol version/,
					);
					assert.match(e.message, /the legacy HTTP\+SSE fallback failed too: .*HTTP 405/);
					return true;
				},
			);
			await transport.close();
		} finally {
			server.closeAllConnections();
			server.close();
		}
	});

	test('opens the GET listening stream after initialization and reconnects when it ends', async () => {
		await withServer({ getStream: true }, async (server) => {
			const { transport, inbox } = await connect(server);
			await until(() => server.requestsOf('GET').length === 1, 'the GET stream');
			const get = server.requestsOf('GET')[0]!;
			assert.equal(get.headers.accept, 'text/event-stream');
			assert.equal(get.headers['mcp-session-id'], 'session-1');
			await new Promise((r) => setTimeout(r, 20));
			server.notify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
			await inbox.waitFor(
				(m) => (m as { method?: string }).method === 'notifications/tools/list_changed',
				'list_changed',
			);
			server.endGetStreams();
			await until(() => server.requestsOf('GET').length === 2, 'the GET stream to reconnect');
			assert.match(String(server.requestsOf('GET')[1]!.headers['last-event-id']), /^g-\d+$/);
			await new Promise((r) => setTimeout(r, 20));
			server.notify({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' });
			await inbox.waitFor(
				(m) => (m as { method?: string }).method === 'notifications/resources/list_changed',
				'resources list_changed',
			);
			await transport.close();
		});
	});

	test('tolerates a server without a GET stream (405) and does not retry it', async () => {
		await withServer({}, async (server) => {
			const { transport, inbox } = await connect(server);
			await until(() => server.requestsOf('GET').length === 1, 'the GET attempt');
			await new Promise((r) => setTimeout(r, 100));
			assert.equal(server.requestsOf('GET').length, 1);
			assert.equal(inbox.closed, undefined);
			await transport.close();
		});
	});

	test('logs header names but never their values', async () => {
		await withServer({}, async (server) => {
			const logger = new MemoryLogger('trace');
			const { transport, inbox } = await connect(server, {
				logger,
				headers: { Authorization: 'Bearer secret-123', 'X-Api-Key': 'key-456' },
			});
			const request = call('echo', { text: 'x' });
			await transport.send(request);
			await inbox.response(request.id);
			await transport.close();
			assert.equal(server.requestsOf('POST')[1]!.headers.authorization, 'Bearer secret-123');
			assert.ok(logger.find('authorization').length > 0, 'header names are logged at trace level');
			assert.equal(logger.find('secret-123').length, 0);
			assert.equal(logger.find('key-456').length, 0);
		});
	});

	test('an auth provider header replaces a configured header of the same name in any case', async () => {
		await withServer({ token: 'fresh' }, async (server) => {
			const auth: HttpAuthProvider = {
				headers: async () => ({ Authorization: 'Bearer fresh' }),
				onUnauthorized: async () => false,
			};
			const { transport } = await connect(server, {
				auth,
				headers: { authorization: 'Bearer stale', 'X-Client': 'switchboard' },
			});
			await transport.close();
			const init = server.requestsOf('POST')[0]!;
			assert.equal(init.headers.authorization, 'Bearer fresh');
			assert.equal(init.headers['x-client'], 'switchboard');
		});
	});

	test('an unreachable server fails the first request with TransportFailed naming the URL and the error', async () => {
		const server = await HttpFaultServer.start();
		const url = server.url;
		await server.close();
		const transport = new StreamableHttpTransport({ url });
		await transport.start();
		await assert.rejects(transport.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }), (e: McpError) => {
			assert.equal(e.code, ErrorCode.TransportFailed);
			assert.ok(e.message.includes(`POST ${url} failed: ECONNREFUSED`), e.message);
			return true;
		});
		await transport.close();
	});

	test('a server that goes away mid-session closes the transport (its GET stream cannot reconnect), so the owner reconnects', async () => {
		const server = await HttpFaultServer.start({ getStream: true });
		const { transport, inbox } = await connect(server);
		await until(() => server.requestsOf('GET').length === 1, 'the GET stream');
		await server.close();
		await until(() => inbox.closed !== undefined, 'onClose');
		assert.equal(inbox.closed?.code, ErrorCode.ConnectionClosed);
		assert.match(inbox.closed?.message ?? '', /refused the connection \(ECONNREFUSED\); is it running\?/);
		await assert.rejects(transport.send(call('echo')), (e: McpError) => e.code === ErrorCode.ConnectionClosed);
		await transport.close();
	});

	describe('1,000 concurrent requests', () => {
		const warnings: Error[] = [];
		const onWarning = (warning: Error) => warnings.push(warning);
		before(() => process.on('warning', onWarning));
		after(() => process.off('warning', onWarning));

		test('all answered, without MaxListenersExceededWarning', async () => {
			await withServer({}, async (server) => {
				const { transport, inbox } = await connect(server);
				const requests = Array.from({ length: 1000 }, (_, i) => call('echo', { text: `c${i}` }));
				await Promise.all(requests.map((r) => transport.send(r)));
				const replies = await Promise.all(requests.map((r) => inbox.response(r.id)));
				replies.forEach((reply, i) => assert.equal(textOf(reply), `c${i}`));
				await transport.close();
			});
			assert.deepEqual(
				warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message),
				[],
			);
		});
	});
});
