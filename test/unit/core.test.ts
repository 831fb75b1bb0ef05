import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { connect, ErrorCode, McpError } from '../../src/core';

// npm test runs from the repository root and builds dist/ first.
const root = process.cwd();
const benchServer = resolve(root, 'bench/servers/rawServer.mjs');

test('requiring dist/core.js does no work: no zod, no child_process or http until the first connect', () => {
	const script = `
		const before = new Set(process.moduleLoadList);
		const core = require('./dist/core.js');
		const loaded = process.moduleLoadList.filter((m) => !before.has(m));
		console.log(JSON.stringify({
			exports: ['connect', 'McpClient', 'McpError', 'ErrorCode', 'consoleLogger', 'createTransport'].filter((k) => typeof core[k] !== 'undefined'),
			zod: globalThis.__zod_globalConfig !== undefined,
			heavy: loaded.filter((m) => /child_process|http|tls|crypto|net$/.test(m)),
		}));`;
	const result = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' })) as {
		exports: string[];
		zod: boolean;
		heavy: string[];
	};
	assert.deepEqual(result.exports, [
		'connect',
		'McpClient',
		'McpError',
		'ErrorCode',
		'consoleLogger',
		'createTransport',
	]);
	assert.equal(result.zod, false, 'zod was evaluated at import');
	assert.deepEqual(result.heavy, []);
});

test('connect() starts a stdio server, initializes, lists, calls with output validation and closes', async () => {
	const client = await connect({ type: 'stdio', command: process.execPath, args: [benchServer, '--tools', '3'] });
	try {
		assert.equal(client.serverInfo.name, 'bench-raw');
		assert.equal(client.protocolVersion, '2025-11-25');
		assert.equal(client.name, process.execPath.split('/').pop(), 'the default name is the command');
		const tools = await client.listTools();
		assert.deepEqual(
			tools.map((t) => t.name),
			['echo', 'big', 'tool0', 'tool1', 'tool2'],
		);
		const echoed = await client.callTool('echo', { text: 'héllo ✓' });
		assert.deepEqual(echoed.content, [{ type: 'text', text: 'héllo ✓' }]);
		const structured = await client.callTool('tool2', {});
		assert.deepEqual(structured.structuredContent, {
			id: 2,
			label: 'tool 2',
			tags: ['x', 'y'],
			score: 0.5,
			nested: { ok: true },
			kind: 'b',
		});
		await client.ping();
		const big = await client.callTool('big', { mib: 2 });
		assert.equal((big.content[0] as unknown as { text: string }).text.length, 2 * 1024 * 1024);
	} finally {
		await client.close();
	}
	assert.equal(client.isClosed, true);
	await assert.rejects(client.ping(), (e: unknown) => e instanceof McpError && e.code === ErrorCode.ConnectionClosed);
});

test('connect() to a server that exits at once rejects with the exit code, naming the server', async () => {
	await assert.rejects(
		connect(
			{
				type: 'stdio',
				command: process.execPath,
				args: ['-e', 'process.stderr.write("no config file" + String.fromCharCode(10)); process.exit(3)'],
			},
			{ name: 'broken' },
		),
		(error: unknown) => {
			assert.ok(error instanceof McpError);
			assert.equal(error.code, ErrorCode.ConnectionClosed);
			assert.match(error.message, /broken/);
			assert.match(error.message, /code 3/);
			assert.match(error.message, /no config file/);
			assert.equal(error.message.split('broken').length - 1, 1, 'the name appears once');
			return true;
		},
	);
});

test('connect() with a command that does not exist says which command', async () => {
	await assert.rejects(connect({ type: 'stdio', command: 'mcp-switchboard-no-such-command' }), (error: unknown) => {
		assert.ok(error instanceof McpError);
		assert.match(error.message, /mcp-switchboard-no-such-command/);
		return true;
	});
});
