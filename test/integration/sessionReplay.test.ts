// Record and replay against a server nobody here wrote: the Manager records a session with server-everything (stdio),
// the recording is saved with its secrets redacted, and `mcp-switchboard replay` (dist/cli.js) serves it back over
// stdio and over Streamable HTTP. A client connected to the replay sees the same answers as the real server gave,
// and a request the recording does not have is answered with an error and reported by the replay.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import { connect } from '../../src/core';
import type { Host } from '../../src/manager/host';
import { Manager } from '../../src/manager/manager';
import { formatSession, SessionRecorder, type SessionFile } from '../../src/manager/sessionRecording';
import { waitForOutput } from '../fixtures/waitForOutput';
import { startEverythingStdio } from '../fixtures/everythingStdio';

const cli = join(process.cwd(), 'dist/cli.js');
const scratch = mkdtempSync(join(tmpdir(), 'replay-it-'));
const file = join(scratch, 'everything.mcpsession.json');
const SECRET = 'sk-live-0123456789abcdef';
after(() => rmSync(scratch, { recursive: true, force: true }));

/** What the real server answered, to compare with the replay's answers. */
const real: { tools: string[]; echo: unknown; sum: unknown; weather: unknown; resource: unknown } = {
	tools: [],
	echo: undefined,
	sum: undefined,
	weather: undefined,
	resource: undefined,
};
let session: SessionFile;

before(async () => {
	const host: Host = { logger: () => new MemoryLogger('info'), roots: () => [] };
	const manager = new Manager(host);
	try {
		await startEverythingStdio(manager);
		const recorder = new SessionRecorder(manager, 'everything', () => [SECRET]);
		const client = manager.client('everything');
		real.tools = (await client.listTools()).map((tool) => tool.name);
		real.echo = await manager.callTool('everything', 'echo', { message: 'hello replay' });
		real.sum = await manager.callTool('everything', 'get-sum', { a: 2, b: 3 });
		real.weather = await manager.callTool('everything', 'get-structured-content', { location: 'Chicago' });
		real.resource = await client.readResource('demo://resource/static/document/architecture.md');
		// A secret typed into a call (say, a token pasted into a message) must not reach the file.
		await manager.callTool('everything', 'echo', { message: `token ${SECRET}` });
		session = recorder.stop();
		writeFileSync(file, formatSession(session));
	} finally {
		await manager.dispose();
	}
});

test('the recording keeps the exchange and the handshake, with secrets redacted', () => {
	const text = readFileSync(file, 'utf8');
	assert.equal(session.server, 'everything');
	assert.equal(session.initialize?.protocolVersion, '2025-11-25');
	assert.ok(session.messages.some((m) => (m.message as { method?: string }).method === 'tools/call'));
	assert.ok(!text.includes(SECRET), 'the secret value is not in the file');
	assert.match(text, /token \[redacted\]/);
});

test('replay over stdio: a client sees the same answers; an unrecorded request is an error naming the recording', async () => {
	const client = await connect({ type: 'stdio', command: process.execPath, args: [cli, 'replay', file] });
	try {
		assert.equal(client.serverInfo.name, 'mcp-servers/everything');
		assert.deepEqual(
			(await client.listTools()).map((tool) => tool.name),
			real.tools,
		);
		assert.deepEqual(await client.callTool('echo', { message: 'hello replay' }), real.echo);
		assert.deepEqual(await client.callTool('get-sum', { a: 2, b: 3 }), real.sum);
		assert.deepEqual(await client.callTool('get-structured-content', { location: 'Chicago' }), real.weather);
		assert.deepEqual(await client.readResource('demo://resource/static/document/architecture.md'), real.resource);
		await assert.rejects(client.callTool('get-sum', { a: 40, b: 2 }), /Not in the recorded session of 'everything'/);
	} finally {
		await client.close();
	}
});

test('replay over Streamable HTTP: the same answers, and the unexpected request is reported with exit code 1', async () => {
	const child = spawn(process.execPath, [cli, 'replay', file, '--http', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
	let stderr = '';
	child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	try {
		await waitForOutput(child, /at http:\/\/127\.0\.0\.1:\d+\/mcp/, 'replay --http', 30_000);
		const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)![1]!;
		const client = await connect({ type: 'http', url });
		try {
			assert.deepEqual(await client.callTool('echo', { message: 'hello replay' }), real.echo);
			assert.deepEqual(await client.callTool('get-structured-content', { location: 'Chicago' }), real.weather);
			await assert.rejects(client.callTool('echo', { message: 'never recorded' }), /Not in the recorded session/);
		} finally {
			await client.close();
		}
	} finally {
		child.kill('SIGINT');
	}
	assert.equal(await exited, 1);
	assert.match(
		stderr,
		/replay: unexpected request: tools\/call \{"arguments":\{"message":"never recorded"\},"name":"echo"\}/,
	);
	assert.match(stderr, /replay: \d+ requests answered from the recording, 1 unexpected/);
});
