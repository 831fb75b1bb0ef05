import assert from 'node:assert/strict';
import { once } from 'node:events';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { ErrorCode, isResponse, type JsonRpcResponse } from '../../src/protocol/jsonrpc';
import { McpError } from '../../src/protocol/mcpError';
import { LegacySseTransport } from '../../src/protocol/transports/legacySse';
import { HttpFaultServer } from '../fixtures/httpFaultServer';

function collect(transport: LegacySseTransport) {
	const messages: unknown[] = [];
	let closed: McpError | undefined;
	transport.onMessage((m) => messages.push(m));
	transport.onClose((e) => (closed = e));
	return {
		messages,
		get closed() {
			return closed;
		},
		async response(id: number): Promise<JsonRpcResponse> {
			for (let i = 0; i < 500; i++) {
				const found = messages.find((m) => isResponse(m) && m.id === id);
				if (found) {
					return found as JsonRpcResponse;
				}
				await new Promise((r) => setTimeout(r, 10));
			}
			throw new Error(`no response ${id}`);
		},
	};
}

/** A one-route server whose GET answers with `respond`, for endpoint and status cases the fixture does not cover. */
async function tinyServer(
	respond: (res: http.ServerResponse, port: number) => void,
): Promise<{ url: string; close(): Promise<void> }> {
	const server = http.createServer((_req, res) => respond(res, (server.address() as AddressInfo).port));
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sse`,
		close: () => {
			server.closeAllConnections();
			return new Promise((resolve) => server.close(() => resolve()));
		},
	};
}

describe('legacy HTTP+SSE transport', () => {
	test('waits for the endpoint, posts there, and reads replies as message events', async () => {
		const server = await HttpFaultServer.start();
		try {
			const transport = new LegacySseTransport({ url: server.sseUrl });
			const inbox = collect(transport);
			await transport.start();
			assert.equal(transport.kind, 'sse');
			assert.match(transport.sessionId ?? '', /^legacy-\d+$/);
			await transport.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
			const init = await inbox.response(1);
			assert.ok('result' in init);
			await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
			await transport.send({
				jsonrpc: '2.0',
				id: 2,
				method: 'tools/call',
				params: { name: 'huge', arguments: { bytes: 5 * 1024 * 1024 } },
			});
			const big = await inbox.response(2);
			assert.ok('result' in big);
			assert.equal((big.result as { content: Array<{ text: string }> }).content[0]!.text.length, 5 * 1024 * 1024);
			const posts = server.requestsOf('POST');
			assert.ok(posts.every((p) => p.path === '/sse/messages'));
			await transport.close();
			assert.match(inbox.closed?.message ?? '', /closed by the client/);
		} finally {
			await server.close();
		}
	});

	test('a dropped stream closes the transport with the reason, and sending afterwards fails', async () => {
		const server = await HttpFaultServer.start();
		const transport = new LegacySseTransport({ url: server.sseUrl });
		const inbox = collect(transport);
		await transport.start();
		await server.close(); // destroys the event stream
		for (let i = 0; i < 200 && !inbox.closed; i++) {
			await new Promise((r) => setTimeout(r, 10));
		}
		assert.equal(inbox.closed?.code, ErrorCode.ConnectionClosed);
		assert.match(inbox.closed?.message ?? '', /SSE stream (was cut|ended)|server ended the SSE stream/);
		await assert.rejects(
			transport.send({ jsonrpc: '2.0', id: 3, method: 'ping' }),
			(e: McpError) => e.code === ErrorCode.ConnectionClosed,
		);
		await transport.close();
	});

	test('refuses an endpoint on another origin', async () => {
		const tiny = await tinyServer((res) => {
			res.writeHead(200, { 'content-type': 'text/event-stream' });
			res.write('event: endpoint\ndata: http://evil.example/messages\n\n');
		});
		try {
			const transport = new LegacySseTransport({ url: tiny.url });
			await assert.rejects(transport.start(), (e: McpError) => {
				assert.equal(e.code, ErrorCode.TransportFailed);
				assert.match(e.message, /refused the endpoint http:\/\/evil\.example\/messages: it is not on the origin/);
				return true;
			});
			await transport.close();
		} finally {
			await tiny.close();
		}
	});

	test('a GET that is not an event stream fails start() with the status, content type and first bytes', async () => {
		const tiny = await tinyServer((res) =>
			res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad gateway</html>'),
		);
		try {
			const transport = new LegacySseTransport({ url: tiny.url });
			await assert.rejects(
				transport.start(),
				/did not open an event stream: HTTP 502 \(text\/html\): "<html>Bad gateway<\/html>"/,
			);
			await transport.close();
		} finally {
			await tiny.close();
		}
	});

	test('a stream that never sends the endpoint fails start() after the timeout', async () => {
		const tiny = await tinyServer((res) => {
			res.writeHead(200, { 'content-type': 'text/event-stream' });
			res.write(': waiting\n\n');
		});
		try {
			const transport = new LegacySseTransport({ url: tiny.url, endpointTimeoutMs: 100 });
			await assert.rejects(transport.start(), /no endpoint event within 100 ms/);
			await transport.close();
		} finally {
			await tiny.close();
		}
	});
});
