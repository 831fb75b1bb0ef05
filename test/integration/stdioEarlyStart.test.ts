// A stdio server started before its transport (the command line starts its servers first, then loads the rest of
// itself): the transport takes the process over only when it would have spawned the same thing, and then behaves as
// if it had spawned it, whatever happened to the process in between (it wrote to stderr, crashed, never started).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import type { McpError } from '../../src/protocol/mcpError';
import { discardEarlyStart, StdioTransport, type StdioTransportOptions } from '../../src/protocol/transports/stdio';
import { EarlyStart, planSpawn } from '../../src/protocol/transports/stdioSpawn';
import { processAlive } from '../fixtures/processAlive';

const lineServer = join(process.cwd(), 'test/fixtures/servers/lineServer.js');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, what: string): Promise<void> {
	const deadline = Date.now() + 10_000;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await sleep(5);
	}
}

/** A transport for `options` that takes over `early`, with its messages and close reason collected. */
function transportFor(options: Omit<StdioTransportOptions, 'logger'>, early?: EarlyStart) {
	const transport = new StdioTransport({
		...options,
		logger: new MemoryLogger('debug'),
		name: 'early',
		...(early ? { early } : {}),
	});
	const messages: unknown[] = [];
	transport.onMessage((message) => messages.push(message));
	const closed = new Promise<McpError>((resolve) => transport.onClose(resolve));
	return { transport, messages, closed };
}

describe('EarlyStart: a server process started before its transport', () => {
	test('the transport takes over the same command: one process, what it wrote to stderr meanwhile is kept, messages flow', async () => {
		const options = { command: process.execPath, args: [lineServer] };
		const early = new EarlyStart(options);
		// The server writes "started pid N" to stderr at once; nobody reads its pipes until the take-over.
		await until(() => early.spawned, 'the early process to run');
		await sleep(300);
		const { transport, messages, closed } = transportFor(options, early);
		await transport.start();
		assert.equal(transport.pid, early.child?.pid, 'the transport talks to the process started early, not a new one');
		assert.ok(early.isClaimed);
		await transport.send({ jsonrpc: '2.0', id: 1, method: 'echo', params: { text: 'first' } });
		await until(() => messages.length === 1, 'the answer');
		assert.deepEqual(messages[0], { jsonrpc: '2.0', id: 1, result: { params: { text: 'first' } } });
		await until(
			() => transport.recentStderr.some((line) => line === `lineServer: started pid ${transport.pid}`),
			'the stderr line written before the take-over',
		);
		await transport.close();
		assert.match((await closed).message, /closed by the client/);
		assert.equal(processAlive(early.child!.pid!), false);
		assert.equal(early.claim(planSpawn(options)), undefined, 'a start is taken over once');
	});

	test('a different command is not taken over: the transport spawns its own, and discardEarlyStart() stops the early one even when it ignores the end of stdin and SIGTERM', async () => {
		const early = new EarlyStart({ command: process.execPath, args: [lineServer, '--linger', '--ignore-sigterm'] });
		await until(() => early.spawned, 'the early process to run');
		const { transport } = transportFor({ command: process.execPath, args: [lineServer] }, early);
		await transport.start();
		assert.notEqual(transport.pid, early.child?.pid);
		assert.equal(early.isClaimed, false);
		await transport.close();
		const pid = early.child!.pid!;
		assert.ok(processAlive(pid));
		await discardEarlyStart(early, 100);
		assert.equal(processAlive(pid), false, 'discarded: SIGTERM ignored, then SIGKILL');
	});

	test('an early start that crashed before the take-over: the transport reports its exit code and stderr, as if it had started it', async () => {
		const script = "process.stderr.write('fatal: no settings.toml\\n'); process.exit(3)";
		const options = { command: process.execPath, args: ['-e', script] };
		const early = new EarlyStart(options);
		await until(() => early.exit !== undefined, 'the early process to exit');
		const { transport, closed } = transportFor(options, early);
		await transport.start();
		const reason = await closed;
		assert.match(reason.message, /exited with code 3/);
		assert.match(reason.message, /fatal: no settings\.toml/);
		// The same message as without the early start.
		const plain = transportFor(options);
		await plain.transport.start();
		assert.equal(
			(await plain.closed).message.replace(/"early" exited/, ''),
			reason.message.replace(/"early" exited/, ''),
		);
	});

	test("an early start whose command does not exist fails the transport's start with the usual message", async () => {
		const options = { command: 'mcp-switchboard-no-such-command', args: [] };
		const early = new EarlyStart(options);
		await until(() => early.spawnError !== undefined, 'the spawn error');
		const { transport } = transportFor(options, early);
		await assert.rejects(transport.start(), (error: McpError) =>
			/command "mcp-switchboard-no-such-command" was not found \(ENOENT\)/.test(error.message),
		);
		const plain = transportFor(options);
		await assert.rejects(plain.transport.start(), (error: McpError) => /was not found \(ENOENT\)/.test(error.message));
	});
});
