// Server URLs often carry credentials (user:password@, ?api_key=…). What the client logs (every level, the wire
// trace included) and what its errors say must show neither, against a real loopback server and a closed port.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import { McpClient } from '../../src/protocol/client';
import { McpError } from '../../src/protocol/mcpError';
import { createTransport } from '../../src/protocol/transports/createTransport';
import { safeUrl } from '../../src/protocol/transports/safeUrl';
import { freePort } from '../fixtures/everythingHttp';
import { HttpFaultServer } from '../fixtures/httpFaultServer';

const SECRETS = ['s3cr3t-key', 'hunter2', 'alice'];

function assertClean(text: string, where: string): void {
	for (const secret of SECRETS) {
		assert.ok(!text.includes(secret), `${where} shows ${secret}: ${text}`);
	}
}

test('safeUrl keeps scheme, host, path and query names, and hides user info, query values and the fragment', () => {
	assert.equal(
		safeUrl('https://alice:hunter2@example.com:8443/v1/mcp?api_key=s3cr3t-key&team=x#frag'),
		'https://…@example.com:8443/v1/mcp?api_key=…&team=…',
	);
	assert.equal(safeUrl('http://127.0.0.1:3001/mcp'), 'http://127.0.0.1:3001/mcp');
	assert.equal(safeUrl('not a url s3cr3t-key'), '(an invalid URL)');
});

test('Streamable HTTP: logs at every level and the wire trace never show the URL credentials', async () => {
	const server = await HttpFaultServer.start();
	const logger = new MemoryLogger('trace');
	try {
		const url = `http://alice:hunter2@127.0.0.1:${server.port}/mcp?api_key=s3cr3t-key`;
		const client = await McpClient.connect(createTransport({ type: 'http', url }, { logger, name: 'remote' }), {
			logger,
			name: 'remote',
		});
		await client.callTool('echo', { text: 'hi' });
		await client.close();
		assert.ok(server.requestsOf('POST').length >= 2, 'the real URL was used on the wire');
		assert.ok(logger.find(`http://…@127.0.0.1:${server.port}/mcp?api_key=…`).length > 0, 'the URL is shown, redacted');
		for (const entry of logger.entries) assertClean(entry.message, `a ${entry.level} log line`);
		assert.equal(
			logger.find('session-1').filter((entry) => entry.level === 'info').length,
			0,
			'the session id is not logged at info',
		);
	} finally {
		await server.close();
	}
});

for (const type of ['http', 'sse'] as const) {
	test(`${type}: the error for a server that cannot be reached names it without its credentials, in message and data`, async () => {
		const port = await freePort(); // nothing listens there
		const logger = new MemoryLogger('trace');
		const url = `http://alice:hunter2@127.0.0.1:${port}/${type === 'sse' ? 'sse' : 'mcp'}?token=s3cr3t-key`;
		const error = await McpClient.connect(createTransport({ type, url }, { logger, name: 'remote' }), {
			logger,
			name: 'remote',
			connectTimeoutMs: 5000,
		}).then(
			() => assert.fail('connected to a closed port'),
			(e: unknown) => e,
		);
		assert.ok(error instanceof McpError, String(error));
		assert.match(error.message, /127\.0\.0\.1/);
		assertClean(error.message, 'the error message');
		assertClean(JSON.stringify(error.data ?? {}), 'the error data');
		assertClean(
			String(
				(error as { cause?: unknown }).cause instanceof McpError ? (error as { cause: McpError }).cause.message : '',
			),
			'the cause',
		);
		for (const entry of logger.entries) assertClean(entry.message, `a ${entry.level} log line`);
	});
}

test('legacy SSE: a reply that is not an event stream is reported without the credentials', async () => {
	const server = await HttpFaultServer.start();
	const logger = new MemoryLogger('trace');
	try {
		// /mcp answers GET with 405 on a server that offers no listening stream: not an event stream.
		const url = `http://127.0.0.1:${server.port}/mcp?api_key=s3cr3t-key`;
		const error = await McpClient.connect(createTransport({ type: 'sse', url }, { logger, name: 'old' }), {
			logger,
			name: 'old',
			connectTimeoutMs: 5000,
		}).then(
			() => assert.fail('connected'),
			(e: unknown) => e,
		);
		assert.ok(error instanceof McpError);
		assert.match(error.message, /did not open an event stream/);
		assertClean(error.message, 'the error message');
		assertClean(JSON.stringify(error.data ?? {}), 'the error data');
		for (const entry of logger.entries) assertClean(entry.message, `a ${entry.level} log line`);
	} finally {
		await server.close();
	}
});
