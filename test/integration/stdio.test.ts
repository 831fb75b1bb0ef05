import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import { ErrorCode } from '../../src/protocol/jsonrpc';
import { JsonRpcConnection } from '../../src/protocol/connection';
import type { McpError } from '../../src/protocol/mcpError';
import { StdioTransport } from '../../src/protocol/transports/stdio';
import { processAlive } from '../fixtures/processAlive';

// Tests run from the repository root (test/run.mjs changes into it).
const lineServer = join(process.cwd(), 'test/fixtures/servers/lineServer.js');
const isPosix = process.platform !== 'win32';

/** A transport to the line server, with every message and the close reason collected. */
async function startServer(flags: string[] = [], extra: { maxMessageBytes?: number } = {}) {
	const logger = new MemoryLogger('debug');
	const transport = new StdioTransport({
		command: process.execPath,
		args: [lineServer, ...flags],
		logger,
		name: 'line-server',
		...extra,
	});
	const messages: Array<Record<string, unknown>> = [];
	const waiters: Array<{ id: unknown; resolve: (m: Record<string, unknown>) => void }> = [];
	let closeReason: McpError | undefined;
	let closeCount = 0;
	const closed = new Promise<McpError>((resolve) => {
		transport.onClose((reason) => {
			closeReason = reason;
			closeCount += 1;
			resolve(reason);
		});
	});
	transport.onMessage((value) => {
		const message = value as Record<string, unknown>;
		messages.push(message);
		const i = waiters.findIndex((w) => w.id === message.id);
		if (i >= 0) {
			waiters.splice(i, 1)[0]!.resolve(message);
		}
	});
	await transport.start();
	let nextId = 1;
	/** Sends a request and resolves with its response. */
	const request = (method: string, params: Record<string, unknown> = {}) => {
		const id = nextId++;
		const response = new Promise<Record<string, unknown>>((resolve) => waiters.push({ id, resolve }));
		return transport.send({ jsonrpc: '2.0', id, method, params }).then(() => response);
	};
	/** Resolves once `count` messages arrived in all. */
	const received = async (count: number) => {
		while (messages.length < count && closeReason === undefined) {
			await new Promise((r) => setTimeout(r, 5));
		}
		return messages;
	};
	return {
		transport,
		logger,
		messages,
		request,
		received,
		closed,
		get closeReason() {
			return closeReason;
		},
		get closeCount() {
			return closeCount;
		},
	};
}

const tempDir = mkdtempSync(join(tmpdir(), 'stdio-test-'));
after(() => rmSync(tempDir, { recursive: true, force: true }));

describe('StdioTransport with a real process', () => {
	test('exchanges messages, and close() ends the server and reports "closed by the client" once', async () => {
		const server = await startServer();
		assert.ok(server.transport.pid! > 0);
		const response = await server.request('echo', { text: 'héllo' });
		assert.deepEqual(response, { jsonrpc: '2.0', id: 1, result: { params: { text: 'héllo' } } });
		const first = server.transport.close();
		const second = server.transport.close();
		await Promise.all([first, second]);
		assert.equal(server.closeCount, 1);
		assert.equal(server.closeReason?.code, ErrorCode.ConnectionClosed);
		assert.match(server.closeReason.message, /"line-server" closed by the client/);
		assert.equal(processAlive(server.transport.pid!), false);
		await assert.rejects(
			server.transport.send({ jsonrpc: '2.0', method: 'late' }),
			(e: McpError) => e.code === ErrorCode.ConnectionClosed,
		);
		await server.transport.close(); // still fine after the fact
		assert.equal(server.closeCount, 1);
	});

	test('a lone message is written at once; the rest of a burst in the same tick leaves in one writev, in order', async () => {
		const server = await startServer();
		// The child's stdin, to see how the transport hands data to the pipe (not part of its API).
		const stdin = (
			server.transport as unknown as {
				child: { stdin: { writableLength: number; _writev: (...args: unknown[]) => void } };
			}
		).child.stdin;
		const writevSizes: number[] = [];
		const original = stdin._writev.bind(stdin);
		stdin._writev = (chunks: unknown, callback: unknown) => {
			writevSizes.push((chunks as unknown[]).length);
			original(chunks, callback);
		};
		// One request alone: handed to the pipe synchronously, nothing left buffered in the stream for a later tick.
		const lone = server.request('echo', { n: 0 });
		assert.equal(stdin.writableLength, 0, 'the lone message waits in the stream instead of being written');
		await lone;
		assert.deepEqual(writevSizes, []);
		// A burst of 50 in one tick: the first goes at once, the other 49 together when the tick ends.
		const burst = Array.from({ length: 50 }, (_, i) => server.request('echo', { n: i + 1 }));
		const answers = await Promise.all(burst);
		assert.deepEqual(writevSizes, [49]);
		assert.deepEqual(
			answers.map((a) => (a.result as { params: { n: number } }).params.n),
			Array.from({ length: 50 }, (_, i) => i + 1),
		);
		// The server saw them in the order they were sent (its answers come back in its reading order).
		assert.deepEqual(
			server.messages.slice(1).map((m) => m.id),
			Array.from({ length: 50 }, (_, i) => i + 2),
		);
		await server.transport.close();
	});

	test('runs in the given directory with the given variables merged over the parent environment', async () => {
		const logger = new MemoryLogger();
		const transport = new StdioTransport({
			command: process.execPath,
			args: [lineServer],
			env: { SWITCHBOARD_TEST_VAR: 'set by config' },
			cwd: tempDir,
			logger,
		});
		const answers: Array<Record<string, unknown>> = [];
		transport.onMessage((m) => answers.push((m as { result: Record<string, unknown> }).result));
		await transport.start();
		await transport.send({ jsonrpc: '2.0', id: 1, method: 'env', params: { name: 'SWITCHBOARD_TEST_VAR' } });
		await transport.send({ jsonrpc: '2.0', id: 2, method: 'env', params: { name: 'PATH' } });
		while (answers.length < 2) {
			await new Promise((r) => setTimeout(r, 5));
		}
		assert.deepEqual(answers[0], { value: 'set by config', cwd: realpathSync(tempDir) });
		assert.equal(answers[1]!.value, process.env.PATH, 'the parent environment is inherited');
		await transport.close();
	});

	test('the close reason keeps only the last 20 stderr lines', async () => {
		const server = await startServer();
		const lines = Array.from({ length: 30 }, (_, i) => `progress line ${i + 1}`);
		void server.request('crash', { code: 1, stderr: lines });
		const reason = await server.closed;
		assert.match(reason.message, /progress line 11\n/);
		assert.match(reason.message, /progress line 30$/);
		assert.doesNotMatch(reason.message, /progress line 10\n/);
		assert.equal((reason.data as { stderr: string[] }).stderr.length, 20);
		await server.transport.close();
	});

	test('close() before start() fires onClose once, and start() then refuses', async () => {
		const transport = new StdioTransport({ command: process.execPath, args: [lineServer], name: 'never-started' });
		const reasons: McpError[] = [];
		transport.onClose((reason) => reasons.push(reason));
		await transport.close();
		await assert.rejects(transport.start(), (error: McpError) => error.code === ErrorCode.ConnectionClosed);
		assert.equal(reasons.length, 1);
		assert.match(reasons[0]!.message, /"never-started" closed by the client/);
		assert.equal(transport.pid, undefined, 'nothing was spawned');
	});

	test('close() right after start() was called, before the process is up, still ends it', async () => {
		const transport = new StdioTransport({ command: process.execPath, args: [lineServer] });
		const started = transport.start();
		const closed = transport.close();
		await started.catch(() => undefined);
		await closed;
		assert.ok(transport.pid !== undefined);
		assert.equal(processAlive(transport.pid), false);
	});

	test('a crash mid-call closes with the exit code and the last stderr lines', async () => {
		const server = await startServer();
		void server.request('crash', { code: 3, stderr: ['Error: database is locked', '    at open (db.js:10)'] });
		const reason = await server.closed;
		assert.equal(reason.code, ErrorCode.ConnectionClosed);
		assert.match(reason.message, /Server "line-server" exited with code 3/);
		assert.match(reason.message, /Error: database is locked\n {4}at open \(db\.js:10\)/);
		assert.deepEqual((reason.data as { exitCode: number }).exitCode, 3);
		// stderr went to the logger too, the error-looking line as a warning.
		assert.equal(server.logger.find('[stderr] Error: database is locked')[0]?.level, 'warn');
		assert.equal(server.logger.find('[stderr] lineServer: started')[0]?.level, 'info');
		await assert.rejects(server.transport.send({ jsonrpc: '2.0', id: 99, method: 'echo' }), /exited with code 3/);
		await server.transport.close();
		assert.equal(server.closeCount, 1);
	});

	test('a request pending when the server crashes fails with the exit code and the last stderr lines', async () => {
		const logger = new MemoryLogger('debug');
		const transport = new StdioTransport({ command: process.execPath, args: [lineServer], logger, name: 'crashy' });
		const connection = new JsonRpcConnection(transport, { name: 'crashy', logger });
		await connection.start();
		assert.deepEqual(await connection.request('echo', { n: 1 }), { params: { n: 1 } });
		const call = connection.request('crash', { code: 7, stderr: ['TypeError: Cannot read properties of undefined'] });
		await assert.rejects(call, (error: McpError) => {
			assert.equal(error.code, ErrorCode.ConnectionClosed);
			assert.match(error.message, /Server "crashy" exited with code 7/);
			assert.match(error.message, /TypeError: Cannot read properties of undefined/);
			return true;
		});
		assert.equal(connection.isClosed, true);
		await connection.close();
	});

	test('a server killed by a signal is reported with the signal', { skip: !isPosix }, async () => {
		const server = await startServer();
		process.kill(server.transport.pid!, 'SIGKILL');
		const reason = await server.closed;
		assert.match(reason.message, /was killed by signal SIGKILL/);
		await server.transport.close();
	});

	test('lines that are not JSON are logged and skipped; CRLF and batches are read', async () => {
		const server = await startServer();
		const text =
			'Debugger listening on ws://127.0.0.1\n' +
			'{"jsonrpc":"2.0","method":"a"}\r\n' +
			'{not json\n' +
			'\r\n' +
			'[{"jsonrpc":"2.0","method":"b"},{"jsonrpc":"2.0","method":"c"}]\r\n';
		await server.transport.send({ jsonrpc: '2.0', id: 1, method: 'raw', params: { text } });
		const response = await server.request('echo', { after: true });
		assert.deepEqual(
			server.messages.map((m) => m.method ?? m.id),
			['a', 'b', 'c', response.id],
		);
		assert.equal(server.logger.find('skipped output that is not JSON').length, 2);
		assert.equal(server.closeReason, undefined, 'bad lines do not end the connection');
		await server.transport.close();
	});

	test('a message written one byte at a time, with multibyte characters, arrives intact', async () => {
		const server = await startServer();
		const message = { jsonrpc: '2.0', method: 'split', params: { text: 'é € 日本 😀 🎉 ü' } };
		const hex = Buffer.from(JSON.stringify(message) + '\r\n', 'utf8').toString('hex');
		await server.transport.send({ jsonrpc: '2.0', id: 1, method: 'bytes', params: { hex, gapMs: 1 } });
		const [received] = await server.received(1);
		assert.deepEqual(received, message);
		await server.transport.close();
	});

	test('a 50 MiB message goes to the server and comes back intact', async () => {
		const server = await startServer();
		// Mostly ASCII with multibyte characters sprinkled in, so chunk cuts land inside characters too.
		const unit = 'abcdefghijklmnopqrstuvwxyz0123456789-é€😀';
		const text = unit.repeat(Math.ceil((50 * 1024 * 1024) / Buffer.byteLength(unit)));
		assert.ok(Buffer.byteLength(text) >= 50 * 1024 * 1024);
		const response = await server.request('echo', { text });
		const echoed = (response.result as { params: { text: string } }).params.text;
		assert.equal(echoed.length, text.length);
		assert.ok(echoed === text, 'the echoed text equals the sent text');
		await server.transport.close();
	});

	test('a message over maxMessageBytes is dropped with an error, and the connection keeps working', async () => {
		const server = await startServer([], { maxMessageBytes: 1024 * 1024 });
		await server.transport.send({
			jsonrpc: '2.0',
			id: 1,
			method: 'echo',
			params: { text: 'x'.repeat(2 * 1024 * 1024) },
		});
		const response = await server.request('echo', { small: true });
		assert.deepEqual(response.result, { params: { small: true } });
		assert.equal(server.messages.length, 1, 'only the small answer arrived');
		assert.match(
			server.logger.entries.find((e) => e.level === 'error')!.message,
			/dropped a message larger than the limit of 1\.0 MiB/,
		);
		await server.transport.close();
	});

	test('many large concurrent sends to a slow reader wait for drain and arrive intact and in order', async () => {
		const server = await startServer(['--slow-read']);
		const count = 40;
		const payloads = Array.from(
			{ length: count },
			(_, seq) => `${seq}:`.padEnd(256 * 1024, String.fromCharCode(97 + (seq % 26))) + 'ü',
		);
		let settledEarly = 0;
		const sends = payloads.map((payload, seq) => {
			const sent = server.transport.send({ jsonrpc: '2.0', id: seq, method: 'digest', params: { seq, payload } });
			void sent.then(() => {
				if (server.messages.length === 0) settledEarly += 1;
			});
			return sent;
		});
		await Promise.all(sends);
		const messages = await server.received(count);
		assert.deepEqual(
			messages.map((m) => (m.result as { seq: number }).seq),
			payloads.map((_, seq) => seq),
			'the server received the messages in the order they were sent',
		);
		for (const [seq, message] of messages.entries()) {
			const result = message.result as { length: number; sha256: string };
			assert.equal(result.length, payloads[seq]!.length);
			assert.equal(
				result.sha256,
				createHash('sha256').update(payloads[seq]!).digest('hex'),
				`payload ${seq} arrived intact`,
			);
		}
		assert.ok(settledEarly < count, 'some sends waited for the slow reader (back-pressure)');
		await server.transport.close();
	});

	test('writing after the server closed its stdin rejects the send instead of throwing', async () => {
		const server = await startServer(['--linger']);
		await server.request('closeStdin');
		let rejection: unknown;
		for (let i = 0; i < 50 && rejection === undefined; i++) {
			await server.transport
				.send({ jsonrpc: '2.0', method: 'noise', params: { text: 'x'.repeat(64 * 1024) } })
				.catch((e) => {
					rejection = e;
				});
			await new Promise((r) => setTimeout(r, 5));
		}
		assert.ok(rejection, 'a send was rejected');
		assert.equal((rejection as McpError).code, ErrorCode.ConnectionClosed);
		assert.match((rejection as McpError).message, /Could not write to "line-server": EPIPE/);
		await server.transport.close();
		assert.equal(processAlive(server.transport.pid!), false);
	});

	test('a server that closes its stdout but keeps running is stopped, and the reason says so', async () => {
		const server = await startServer(['--linger']);
		const pid = server.transport.pid!;
		await server.transport.send({
			jsonrpc: '2.0',
			id: 1,
			method: 'closeStdout',
			params: { stderr: ['redirecting output to a log file'] },
		});
		const reason = await server.closed;
		assert.equal(reason.code, ErrorCode.ConnectionClosed);
		assert.match(reason.message, /Server "line-server" closed its stdout but kept running/);
		assert.match(reason.message, /redirecting output to a log file/);
		await server.transport.close();
		assert.equal(processAlive(pid), false, 'the server was stopped');
		assert.equal(server.closeCount, 1);
	});

	test('a command that does not exist fails start() naming the command, the directory and the PATH', async () => {
		const transport = new StdioTransport({
			command: 'no-such-mcp-server-xyz',
			args: ['--stdio'],
			env: { PATH: '/opt/nowhere:/usr/bin' },
			cwd: tempDir,
		});
		const closed = new Promise<McpError>((resolve) => transport.onClose(resolve));
		await assert.rejects(transport.start(), (error: McpError) => {
			assert.equal(error.code, ErrorCode.TransportFailed);
			assert.match(error.message, /command "no-such-mcp-server-xyz" was not found \(ENOENT\)/);
			assert.ok(error.message.includes(`Working directory: ${tempDir}`));
			assert.ok(error.message.includes('PATH seen by the server: /opt/nowhere:/usr/bin'));
			assert.match(error.message, /absolute path/);
			return true;
		});
		assert.equal((await closed).code, ErrorCode.ConnectionClosed);
		await transport.close();
	});

	// Even root needs an execute bit to run a file, so this holds for every user.
	test('a file without execute permission fails with EACCES and says what to check', { skip: !isPosix }, async () => {
		const script = join(tempDir, 'not-executable.sh');
		writeFileSync(script, '#!/bin/sh\necho hi\n');
		chmodSync(script, 0o644);
		const transport = new StdioTransport({ command: script });
		await assert.rejects(transport.start(), (error: McpError) => {
			assert.equal(error.code, ErrorCode.TransportFailed);
			assert.match(error.message, /is not executable \(EACCES\).*chmod \+x/);
			return true;
		});
		await transport.close();
	});

	test('a working directory that does not exist is named as the problem', async () => {
		const transport = new StdioTransport({
			command: process.execPath,
			args: [lineServer],
			cwd: join(tempDir, 'missing'),
		});
		await assert.rejects(transport.start(), /its working directory ".*missing" does not exist/);
		await transport.close();
	});

	test(
		'close() leaves nothing behind: a server that ignores stdin end and SIGTERM, and its grandchild that ignores SIGTERM',
		{ skip: !isPosix },
		async () => {
			const server = await startServer(['--linger', '--ignore-sigterm']);
			const response = await server.request('spawn');
			const grandchild = (response.result as { pid: number }).pid;
			const serverPid = server.transport.pid!;
			assert.ok(processAlive(grandchild));
			await server.transport.close();
			assert.equal(server.closeCount, 1);
			assert.match(server.closeReason!.message, /closed by the client/);
			assert.equal(processAlive(serverPid), false, 'the server is gone');
			assert.equal(processAlive(grandchild), false, 'the grandchild is gone');
			assert.ok(server.logger.find('sending SIGKILL').length > 0, 'it took SIGKILL');
		},
	);

	test('a grandchild that outlives a well-behaved server is stopped by close() too', { skip: !isPosix }, async () => {
		const server = await startServer();
		const grandchild = ((await server.request('spawn')).result as { pid: number }).pid;
		await server.transport.close();
		assert.equal(processAlive(server.transport.pid!), false);
		assert.equal(processAlive(grandchild), false, 'the grandchild is gone');
	});
});
