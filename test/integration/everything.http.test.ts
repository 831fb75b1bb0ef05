// server-everything over Streamable HTTP and over legacy HTTP+SSE: the shared suite for each, plus what only the
// remote transports have (a session that DELETE ends, the automatic fallback from http to sse against a real server).
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, describe, test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import { McpClient } from '../../src/protocol/client';
import { ErrorCode } from '../../src/protocol/jsonrpc';
import type { McpError } from '../../src/protocol/mcpError';
import { createTransport } from '../../src/protocol/transports/createTransport';
import type { StreamableHttpTransport } from '../../src/protocol/transports/streamableHttp';
import { freePort, startEverythingHttp } from '../fixtures/everythingHttp';
import { defineEverythingSuite } from './everythingSuite';

const servers: ChildProcess[] = [];

after(() => {
	for (const server of servers) {
		server.kill('SIGKILL');
	}
});

/** Starts server-everything in `mode` on a free port and resolves with its base URL once it listens. */
async function startEverything(mode: 'streamableHttp' | 'sse'): Promise<string> {
	const port = await freePort();
	servers.push(await startEverythingHttp(mode, port));
	return `http://127.0.0.1:${port}`;
}

defineEverythingSuite('Streamable HTTP', async (options) => {
	const base = await startEverything('streamableHttp');
	return McpClient.connect(
		createTransport({ type: 'http', url: `${base}/mcp` }, { name: options.name, logger: options.logger }),
		options,
	);
});

defineEverythingSuite('legacy HTTP+SSE', async (options) => {
	const base = await startEverything('sse');
	return McpClient.connect(
		createTransport({ type: 'sse', url: `${base}/sse` }, { name: options.name, logger: options.logger }),
		options,
	);
});

describe('server-everything over the remote transports: sessions and fallback', () => {
	test('a Streamable HTTP session has an id and close() ends it on the server (DELETE)', async () => {
		const base = await startEverything('streamableHttp');
		const transport = createTransport({ type: 'http', url: `${base}/mcp` }, { name: 'everything' });
		const client = await McpClient.connect(transport, { name: 'everything' });
		const sessionId = transport.sessionId;
		assert.match(sessionId ?? '', /^[0-9a-f-]{36}$/);
		assert.equal(transport.kind, 'http');
		await client.close();
		// The server forgot the session: a request carrying its id is refused (server-everything says 400, not 404).
		const res = await fetch(`${base}/mcp`, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				accept: 'application/json, text/event-stream',
				'mcp-session-id': sessionId!,
				'mcp-protocol-version': '2025-11-25',
			},
			body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
		});
		assert.match(await res.text(), /No valid session ID/);
		assert.equal(res.status, 400);
	});

	test('a session the server ended closes the client with sessionExpired, so the owner can start a new one', async () => {
		const base = await startEverything('streamableHttp');
		const transport = createTransport({ type: 'http', url: `${base}/mcp` }, { name: 'everything' });
		const client = await McpClient.connect(transport, { name: 'everything' });
		const closed = new Promise<Error>((resolve) => client.onDidClose(resolve));
		// End the session behind the client's back, as a server restart or an idle timeout would.
		const res = await fetch(`${base}/mcp`, {
			method: 'DELETE',
			headers: { 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-11-25' },
		});
		await res.arrayBuffer();
		await assert.rejects(client.ping(), (e: McpError) => {
			assert.equal(e.code, ErrorCode.ConnectionClosed);
			assert.match(e.message, /session expired/);
			return true;
		});
		const reason = (await closed) as McpError;
		assert.equal((reason.data as { sessionExpired?: boolean }).sessionExpired, true);
		await client.close();
	});

	test('type "http" pointed at a legacy SSE server falls back to SSE, logs it, and works', async () => {
		const base = await startEverything('sse');
		const logger = new MemoryLogger('info');
		const transport = createTransport({ type: 'http', url: `${base}/sse` }, { name: 'old-everything', logger });
		const client = await McpClient.connect(transport, { name: 'old-everything', logger });
		assert.equal(transport.kind, 'sse');
		assert.equal((transport as StreamableHttpTransport).negotiatedKind, 'sse');
		assert.equal(logger.find('falling back to the legacy HTTP+SSE transport').length, 1);
		const result = await client.callTool('echo', { message: 'via fallback' });
		assert.match(JSON.stringify(result.content), /via fallback/);
		await client.close();
	});
});
