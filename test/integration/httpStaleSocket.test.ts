import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, test } from 'node:test';
import { ErrorCode, isResponse } from '../../src/protocol/jsonrpc';
import { McpError } from '../../src/protocol/mcpError';
import { StreamableHttpTransport } from '../../src/protocol/transports/streamableHttp';

/**
 * A server that hangs up, without answering, on the requests `hangUp` picks (by the request's JSON-RPC id and how
 * many requests its socket carried before): what a client meets when a server closed a kept-alive socket while idle.
 */
async function withServer(
	hangUp: (id: unknown, earlierOnSocket: number) => boolean,
	run: (url: string, attempts: Array<{ id: unknown; socket: number }>) => Promise<void>,
): Promise<void> {
	const attempts: Array<{ id: unknown; socket: number }> = [];
	const perSocket = new Map<Socket, { index: number; requests: number }>();
	const server = http.createServer((req, res) => {
		if (req.method !== 'POST') {
			req.resume();
			res.writeHead(req.method === 'DELETE' ? 204 : 405).end();
			return;
		}
		let socket = perSocket.get(req.socket);
		if (!socket) {
			socket = { index: perSocket.size, requests: 0 };
			perSocket.set(req.socket, socket);
		}
		const earlier = socket.requests++;
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown; method: string };
			attempts.push({ id: message.id, socket: socket.index });
			if (hangUp(message.id, earlier)) {
				req.socket.destroy();
				return;
			}
			const result =
				message.method === 'initialize'
					? { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'stale', version: '1' } }
					: { content: [] };
			const body = JSON.stringify({ jsonrpc: '2.0', id: message.id, result });
			res.writeHead(200, {
				'content-type': 'application/json',
				'content-length': String(Buffer.byteLength(body)),
				'mcp-session-id': 's1',
			});
			res.end(body);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	try {
		await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, attempts);
	} finally {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	}
}

/**
 * Sends initialize (and with `twoSockets`, two calls at once, so two kept-alive sockets wait in the pool), then a
 * tools/call with id 2 on a kept-alive socket; resolves with the call's answer.
 */
async function initializeThenCall(url: string, twoSockets = false): Promise<unknown> {
	const transport = new StreamableHttpTransport({ url, listen: false });
	const answers: unknown[] = [];
	transport.onMessage((message) => answers.push(message));
	try {
		await transport.start();
		await transport.send({
			jsonrpc: '2.0',
			id: 1,
			method: 'initialize',
			params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
		});
		if (twoSockets) {
			await Promise.all(
				[10, 11].map((id) =>
					transport.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: {} } }),
				),
			);
		}
		await transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: {} } });
		return answers.find((message) => isResponse(message) && message.id === 2);
	} finally {
		await transport.close();
	}
}

describe('HTTP client: a kept-alive socket the server closed', () => {
	test('a request that fails at once on a reused socket is sent once more on a fresh one, and succeeds', async () => {
		await withServer(
			(id, earlierOnSocket) => id === 2 && earlierOnSocket > 0,
			async (url, attempts) => {
				const answer = await initializeThenCall(url);
				assert.ok(answer, 'the call is answered');
				const calls = attempts.filter((attempt) => attempt.id === 2);
				assert.equal(calls.length, 2, 'sent twice: on the reused socket, then on a fresh one');
				assert.notEqual(calls[0]!.socket, calls[1]!.socket);
			},
		);
	});

	test("it is sent once more only: a second failure is the call's error, even on another reused socket", async () => {
		await withServer(
			(id) => id === 2,
			async (url, attempts) => {
				await assert.rejects(
					initializeThenCall(url, true),
					(error: unknown) =>
						error instanceof McpError && error.code === ErrorCode.TransportFailed && /ECONNRESET/.test(error.message),
				);
				const calls = attempts.filter((attempt) => attempt.id === 2);
				assert.equal(calls.length, 2);
				// Both went out on sockets that had carried a request before: the second failure alone did not stop a third.
				assert.ok(
					calls.every((call) => attempts.some((attempt) => attempt.socket === call.socket && attempt.id !== 2)),
				);
			},
		);
	});
});
