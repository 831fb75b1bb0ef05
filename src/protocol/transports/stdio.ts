import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { deferred, delay } from '../../common/async';
import type { Logger } from '../../common/logger';
import { nullLogger } from '../../common/logger';
import { ErrorCode, type JsonRpcMessage } from '../jsonrpc';
import { McpError } from '../mcpError';
import { createJsonLineReader, type LineBuffer } from './lineBuffer';
import { planSpawn, spawnPlanned, windowsEnv, type EarlyStart } from './stdioSpawn';
import type { Transport } from './transport';
import { TransportEvents } from './transportEvents';

export interface StdioTransportOptions {
	/** The program to run: an absolute path, or a name looked up on the PATH the process sees. */
	command: string;
	/** Arguments, passed as they are (no shell). Default none. */
	args?: string[];
	/** Variables for the server, over the inherited ones; `null` removes an inherited variable. Default none. */
	env?: Record<string, string | null>;
	/**
	 * Pass this process's whole environment (true, the default here, as before), or only the variables a program needs
	 * to run (PATH, HOME, locale, temp folders, proxies…; see childEnvironment.ts) so secrets in the environment do not
	 * reach the server. The extension sets it from `mcpSwitchboard.inheritEnvironment` (default false).
	 */
	inheritEnvironment?: boolean;
	/** Working directory. Default this process's. */
	cwd?: string;
	/** Receives the server's stderr (info, or warn for lines that look like errors) and transport diagnostics. */
	logger?: Logger;
	/** Names the server in messages. Default: the command. */
	name?: string;
	/** The largest message accepted from the server, in bytes. Default 512 MiB; larger ones are logged and dropped. */
	maxMessageBytes?: number;
	/**
	 * How long close() waits for the server to exit after stdin ends, and again after SIGTERM. Default 2000 ms; a
	 * command-line run that is about to exit uses less, since a person is waiting for the prompt.
	 */
	closeGraceMs?: number;
	/**
	 * A process started for this server before the transport (the command line starts its servers first): taken over
	 * instead of spawning when it runs exactly what this transport would (EarlyStart.claim), else ignored.
	 */
	early?: EarlyStart;
}

/** How long close() waits after ending stdin before SIGTERM, and after SIGTERM before SIGKILL. */
const GRACE_MS = 2000;
/** After the process exits, how long to wait for the rest of its stdout (a grandchild may hold the pipe open). */
const DRAIN_AFTER_EXIT_MS = 200;
/** After stdout closes, how long the process may take to exit before it counts as a server that stopped talking. */
const STDOUT_CLOSED_GRACE_MS = 1000;
/** stderr lines kept for error messages, and the longest kept line. */
const STDERR_TAIL_LINES = 20;
const STDERR_LINE_CHARS = 1000;

const isWindows = process.platform === 'win32';

interface QueuedWrite {
	data: string;
	done: { resolve(): void; reject(error: unknown): void };
}

/**
 * MCP's stdio transport: runs the server as a child process and exchanges newline-delimited JSON-RPC over its
 * stdin and stdout; its stderr goes to the logger.
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
 *
 * On POSIX the server runs in its own process group, so close() reaches what it started too (e.g. `npx` and the
 * package it runs): stdin is ended first, as the spec asks, then the group gets SIGTERM after ~2 s and SIGKILL
 * after ~2 s more.
 */
export class StdioTransport extends TransportEvents implements Transport {
	readonly kind = 'stdio' as const;

	/** The line of the message onMessage is delivering (see Transport.messageText), and its bytes. */
	messageText: string | undefined;
	messageBytes: Uint8Array | undefined;
	messageStart = 0;
	messageEnd = 0;
	private readonly logger: Logger;
	private readonly name: string;
	private child: ChildProcess | undefined;
	private reader: LineBuffer | undefined;
	private started = false;
	private closeRequested = false;
	private closeReason: McpError | undefined;
	private readonly closed = deferred<void>();
	private closePromise: Promise<void> | undefined;
	private exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
	private readonly exitedDeferred = deferred<void>();
	private stdoutEnded = false;
	private drainTimer: NodeJS.Timeout | undefined;
	private stdoutClosedTimer: NodeJS.Timeout | undefined;
	/** Why the transport itself stopped the server (it closed stdout), reported instead of "closed by the client". */
	private stopReason: McpError | undefined;
	private readonly stderrTail: string[] = [];
	private stderrPartial = '';
	/** True while stdin's buffer is full; sends queue until 'drain'. */
	private blocked = false;
	/** Set by the first write of a turn of the event loop, until that turn's check phase (see batchWrite). */
	private wroteThisTick = false;
	/** True while stdin is corked until the turn's check phase (see batchWrite). */
	private corked = false;
	private readonly queue: QueuedWrite[] = [];
	private writeError: McpError | undefined;

	constructor(private readonly options: StdioTransportOptions) {
		super();
		this.logger = options.logger ?? nullLogger;
		this.name = options.name ?? options.command;
	}

	/** The server's process id once started (tests and diagnostics). */
	get pid(): number | undefined {
		return this.child?.pid;
	}

	/** The last lines the server wrote to stderr (at most 20), oldest first. */
	get recentStderr(): readonly string[] {
		return this.stderrPartial ? [...this.stderrTail, this.stderrPartial].slice(-STDERR_TAIL_LINES) : this.stderrTail;
	}

	/**
	 * Spawns the server. Resolves once the process runs; rejects with an McpError (TransportFailed) naming the
	 * command, the working directory and the PATH the process sees when it cannot be started. Call once.
	 */
	start(): Promise<void> {
		if (this.started) {
			return Promise.reject(
				new McpError(ErrorCode.TransportFailed, `The stdio transport for "${this.name}" was already started`),
			);
		}
		this.started = true;
		if (this.closeRequested) {
			return Promise.reject(
				this.closeReason ?? McpError.connectionClosed(`Connection to "${this.name}" closed by the client`),
			);
		}
		const plan = planSpawn(this.options);
		const env = plan.env;
		const early = this.options.early?.claim(plan);
		return new Promise<void>((resolve, reject) => {
			const failed = (error: unknown) => {
				const failure = this.spawnError(error, env);
				reject(failure);
				this.finish(McpError.connectionClosed(failure.message, { cause: 'spawn' }));
			};
			let child: ChildProcess;
			if (early) {
				if (!early.child || (early.spawnError !== undefined && !early.spawned)) {
					failed(early.spawnError);
					return;
				}
				child = early.child;
			} else {
				try {
					child = spawnPlanned(plan);
				} catch (error) {
					// Synchronous failures: invalid arguments, or EINVAL from Windows for batch files.
					failed(error);
					return;
				}
			}
			this.child = child;
			let spawned = false;
			const onSpawned = () => {
				spawned = true;
				this.logger.debug(
					`${this.name}: ${early ? 'took over' : 'started'} process ${child.pid} (${this.options.command} ${(this.options.args ?? []).join(' ')})`,
				);
				resolve();
			};
			if (early?.spawned) onSpawned();
			else child.once('spawn', onSpawned);
			child.on('error', (error) => {
				if (!spawned) {
					failed(error);
				} else {
					this.logger.warn(`${this.name}: process error: ${error.message}`);
				}
			});
			// An early start may have exited before this transport took it over. What it wrote still waits in its pipes:
			// its exit is told once stderr is read to the end (for the message's last lines), or after the usual wait
			// for a pipe a grandchild keeps open.
			const exitedEarly = early?.exit;
			if (exitedEarly) {
				let told = false;
				const tell = () => {
					clearTimeout(timer);
					if (!told) this.onExit(exitedEarly.code, exitedEarly.signal);
					told = true;
				};
				const timer = setTimeout(tell, DRAIN_AFTER_EXIT_MS);
				child.stderr?.once('close', tell);
			} else {
				child.once('exit', (code, signal) => this.onExit(code, signal));
			}

			this.reader = createJsonLineReader({
				onMessage: (value, line, bytes, start, end) => {
					this.messageText = line;
					this.messageBytes = bytes;
					this.messageStart = start ?? 0;
					this.messageEnd = end ?? 0;
					this.messageEmitter.fire(value);
					this.messageText = undefined;
					this.messageBytes = undefined;
				},
				logger: this.logger,
				name: this.name,
				maxMessageBytes: this.options.maxMessageBytes,
			});
			const reader = this.reader;
			child.stdout?.on('data', (chunk: Buffer) => reader.push(chunk));
			child.stdout?.once('close', () => {
				this.stdoutEnded = true;
				if (this.exited) {
					this.afterExit();
				} else if (!this.closeRequested && !this.closeReason) {
					// Usually the exit event follows at once; a process that lives on without stdout can never answer again.
					this.stdoutClosedTimer = setTimeout(() => this.onStdoutClosedWhileRunning(), STDOUT_CLOSED_GRACE_MS);
				}
			});
			child.stdout?.on('error', (error) => this.logger.debug(`${this.name}: stdout error: ${error.message}`));

			child.stderr?.setEncoding('utf8');
			child.stderr?.on('data', (text: string) => this.onStderr(text));
			child.stderr?.on('error', (error) => this.logger.debug(`${this.name}: stderr error: ${error.message}`));

			// EPIPE and friends arrive here once the server stops reading; they fail sends, never the caller's process.
			child.stdin?.on('error', (error: NodeJS.ErrnoException) => {
				this.failWrites(McpError.connectionClosed(`Could not write to "${this.name}": ${error.code ?? error.message}`));
			});
			child.stdin?.on('drain', () => this.pump());
		});
	}

	/**
	 * Writes one message and a newline to the server's stdin. Resolves when the stream accepted it; when stdin's
	 * buffer is full, later messages wait for 'drain' and keep their order. Rejects with a ConnectionClosed
	 * McpError when the process is gone or stdin broke.
	 */
	send(message: JsonRpcMessage, text?: string): Promise<void> {
		const stdin = this.child?.stdin;
		if (this.closeReason || this.closeRequested || !stdin || this.writeError) {
			return Promise.reject(
				this.writeError ?? this.closeReason ?? McpError.connectionClosed(`Connection to "${this.name}" is not open`),
			);
		}
		let data: string;
		try {
			data = (text ?? JSON.stringify(message)) + '\n';
		} catch (error) {
			return Promise.reject(
				McpError.internal(`Could not serialise a message for "${this.name}": ${(error as Error).message}`),
			);
		}
		if (!this.blocked && this.queue.length === 0) {
			this.batchWrite(stdin);
			if (stdin.write(data)) {
				return Promise.resolve();
			}
			// Accepted, but the buffer is now over its high-water mark: the caller waits for it to drain.
			this.blocked = true;
			const done = deferred<void>();
			this.queue.push({ data: '', done });
			return done.promise;
		}
		const done = deferred<void>();
		this.queue.push({ data, done });
		return done.promise;
	}

	/**
	 * Ends stdin, waits up to ~2 s for the server to exit, then sends SIGTERM to its process group, then SIGKILL
	 * ~2 s later. Resolves after the process exited, nothing of its group is left and onClose fired. Idempotent.
	 */
	close(): Promise<void> {
		if (this.closePromise) {
			return this.closePromise;
		}
		this.closeRequested = true;
		this.closePromise = this.doClose();
		return this.closePromise;
	}

	private async doClose(): Promise<void> {
		const child = this.child;
		const reason = this.stopReason ?? McpError.connectionClosed(`Connection to "${this.name}" closed by the client`);
		if (!child || child.pid === undefined || this.closeReason) {
			// Never started, failed to spawn, or already gone.
			this.finish(this.closeReason ?? reason);
			await this.reapGroup(child?.pid);
			return this.closed.promise;
		}
		this.failWrites(reason);
		child.stdin?.end();
		const grace = this.options.closeGraceMs ?? GRACE_MS;
		if (!(await this.waitForExit(grace))) {
			this.logger.info(`${this.name}: did not exit ${grace} ms after stdin closed; sending SIGTERM`);
			this.signal(child, 'SIGTERM');
			if (!(await this.waitForExit(grace))) {
				this.logger.warn(`${this.name}: did not exit ${grace} ms after SIGTERM; sending SIGKILL`);
				this.signal(child, 'SIGKILL');
				await this.waitForExit(GRACE_MS);
			}
		}
		await this.reapGroup(child.pid);
		// Normally onExit already finished; if even SIGKILL did not produce an exit event, finish anyway.
		this.finish(reason);
		return this.closed.promise;
	}

	private async waitForExit(ms: number): Promise<boolean> {
		if (this.exited) {
			return true;
		}
		const timeout = new AbortController();
		const exited = this.exitedDeferred.promise.then(() => true);
		const timedOut = delay(ms, timeout.signal).then(
			() => false,
			() => false,
		);
		const result = await Promise.race([exited, timedOut]);
		timeout.abort();
		return result;
	}

	/** Sends a signal to the server's process group (POSIX) or terminates its tree (Windows). */
	private signal(child: ChildProcess, signal: NodeJS.Signals): void {
		const pid = child.pid;
		if (pid === undefined) {
			return;
		}
		if (isWindows) {
			// /T reaches the children (npx, cmd shims) while the parent still exists; /F because console programs have
			// no SIGTERM. Either signal means the same here.
			spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true, stdio: 'ignore' }).on('error', () =>
				child.kill(signal),
			);
			return;
		}
		try {
			process.kill(-pid, signal);
		} catch {
			try {
				child.kill(signal);
			} catch {
				// Already gone.
			}
		}
	}

	/**
	 * After the server exited, its group may hold processes it started (a grandchild that outlived it):
	 * SIGTERM them, and SIGKILL what is left after the grace period.
	 */
	private async reapGroup(pid: number | undefined): Promise<void> {
		if (isWindows || pid === undefined || !groupAlive(pid)) {
			return;
		}
		this.logger.debug(`${this.name}: stopping processes left in group ${pid}`);
		signalGroup(pid, 'SIGTERM');
		const deadline = Date.now() + GRACE_MS;
		while (Date.now() < deadline) {
			await delay(50);
			if (!groupAlive(pid)) {
				return;
			}
		}
		this.logger.warn(`${this.name}: processes in group ${pid} ignored SIGTERM; sending SIGKILL`);
		signalGroup(pid, 'SIGKILL');
		for (let i = 0; i < 20 && groupAlive(pid); i++) {
			await delay(50);
		}
	}

	private onExit(code: number | null, signal: NodeJS.Signals | null): void {
		this.exited = { code, signal };
		clearTimeout(this.stdoutClosedTimer);
		this.exitedDeferred.resolve();
		this.logger.debug(`${this.name}: process exited (${describeExit(code, signal)})`);
		if (this.closeReason) {
			// Already reported (a failed spawn, or the pipes were released): nothing left to wait for.
			return;
		}
		if (this.stdoutEnded) {
			this.afterExit();
		} else {
			// Let the last of stdout arrive, unless a grandchild keeps the pipe open.
			this.drainTimer = setTimeout(() => this.afterExit(), DRAIN_AFTER_EXIT_MS);
		}
	}

	/** The process exited and its stdout is read (or the wait ran out): report why, once. */
	private afterExit(): void {
		if (this.closeReason || !this.exited) {
			return;
		}
		this.reader?.end();
		const { code, signal } = this.exited;
		if (this.closeRequested) {
			this.finish(
				this.stopReason ??
					McpError.connectionClosed(`Connection to "${this.name}" closed by the client`, { exitCode: code, signal }),
			);
			return;
		}
		const stderr = this.recentStderr;
		let message = `Server "${this.name}" ${describeExit(code, signal)}`;
		if (stderr.length > 0) {
			message += `. Last stderr lines:\n${stderr.join('\n')}`;
		}
		this.logger.warn(message);
		this.finish(McpError.connectionClosed(message, { exitCode: code, signal, stderr: [...stderr] }));
		// A crashed server may leave what it started running; clean that up in the background.
		const pid = this.child?.pid;
		if (pid !== undefined && !isWindows && groupAlive(pid)) {
			void this.reapGroup(pid);
		}
	}

	/** The server closed its stdout but did not exit: nothing it does can reach the client any more, so stop it. */
	private onStdoutClosedWhileRunning(): void {
		this.stdoutClosedTimer = undefined;
		if (this.exited || this.closeReason || this.closeRequested) {
			return;
		}
		const stderr = this.recentStderr;
		let message = `Server "${this.name}" closed its stdout but kept running, so it cannot answer any more; it was stopped`;
		if (stderr.length > 0) {
			message += `. Last stderr lines:\n${stderr.join('\n')}`;
		}
		this.logger.warn(message);
		this.stopReason = McpError.connectionClosed(message, { stderr: [...stderr] });
		void this.close();
	}

	/** The one close path: fails queued writes, releases the streams, fires onClose once. */
	private finish(reason: McpError): void {
		if (this.closeReason) {
			return;
		}
		this.closeReason = reason;
		clearTimeout(this.drainTimer);
		clearTimeout(this.stdoutClosedTimer);
		this.drainTimer = this.stdoutClosedTimer = undefined;
		this.failWrites(reason);
		const child = this.child;
		if (child) {
			// Release the pipes so nothing keeps the caller's event loop alive; a grandchild may still hold the other ends.
			child.stdout?.removeAllListeners('data');
			child.stdout?.destroy();
			child.stderr?.destroy();
			child.stdin?.destroy();
		}
		if (this.stderrPartial) {
			this.pushStderrLine(this.stderrPartial);
			this.stderrPartial = '';
		}
		this.closeEmitter.fire(reason);
		this.closeEmitter.dispose();
		this.messageEmitter.dispose();
		this.closed.resolve();
	}

	/**
	 * Messages sent in one turn of the event loop (a burst of calls, answers to a burst of server requests, or calls
	 * that arrive on many sockets at once, as the gateway's do: each HTTP request is its own tick) leave in one
	 * writev system call instead of one write each: under load that is most of the transport's own CPU per message.
	 * The first message of a turn goes out at once, uncorked: a lone request (the sequential case) then pays neither
	 * a delay nor the writable's buffering, which together were a tenth of a round trip. From the second message of
	 * the same turn on, stdin is corked until the turn's check phase (setImmediate), which runs as soon as the
	 * callbacks of that turn are done. `write()` still reports back-pressure as usual, and `end()` flushes a corked
	 * stream.
	 */
	private batchWrite(stdin: NonNullable<ChildProcess['stdin']>): void {
		if (!this.wroteThisTick) {
			this.wroteThisTick = true;
			setImmediate(this.endTick, stdin);
		} else if (!this.corked) {
			this.corked = true;
			stdin.cork();
		}
	}

	private readonly endTick = (stdin: NonNullable<ChildProcess['stdin']>): void => {
		this.wroteThisTick = false;
		if (this.corked) {
			this.corked = false;
			if (!stdin.destroyed) {
				stdin.uncork();
			}
		}
	};

	private pump(): void {
		const stdin = this.child?.stdin;
		if (!stdin) {
			return;
		}
		this.blocked = false;
		while (this.queue.length > 0 && !this.blocked) {
			const next = this.queue.shift()!;
			if (next.data === '') {
				// The send that filled the buffer: its message is written, and the buffer has drained.
				next.done.resolve();
				continue;
			}
			if (stdin.write(next.data)) {
				next.done.resolve();
			} else {
				this.blocked = true;
				// Resolve this one on the next drain, ahead of what is still queued.
				this.queue.unshift({ data: '', done: next.done });
			}
		}
	}

	private failWrites(reason: McpError): void {
		this.writeError ??= reason;
		const queued = this.queue.splice(0);
		for (const item of queued) {
			item.done.reject(reason);
		}
	}

	private onStderr(text: string): void {
		const lines = (this.stderrPartial + text).split('\n');
		this.stderrPartial = lines.pop() ?? '';
		if (this.stderrPartial.length > 64 * 1024) {
			// A very long line without a newline: keep its head, so memory stays bounded.
			this.pushStderrLine(this.stderrPartial);
			this.stderrPartial = '';
		}
		for (const line of lines) {
			this.pushStderrLine(line);
		}
	}

	private pushStderrLine(raw: string): void {
		const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
		if (line.trim() === '') {
			return;
		}
		if (/\b(error|fatal|exception|panic)\b/i.test(line)) {
			this.logger.warn(`[stderr] ${line}`);
		} else {
			this.logger.info(`[stderr] ${line}`);
		}
		this.stderrTail.push(line.length > STDERR_LINE_CHARS ? `${line.slice(0, STDERR_LINE_CHARS)}…` : line);
		if (this.stderrTail.length > STDERR_TAIL_LINES) {
			this.stderrTail.shift();
		}
	}

	private spawnError(error: unknown, env: NodeJS.ProcessEnv): McpError {
		const err = error as NodeJS.ErrnoException;
		const command = this.options.command;
		const cwd = this.options.cwd ?? process.cwd();
		const path = pathOf(env) ?? '(not set)';
		const where = `Working directory: ${cwd}. PATH seen by the server: ${path}.`;
		let message: string;
		if (err.code === 'ENOENT' && this.options.cwd !== undefined && !isDirectory(this.options.cwd)) {
			message = `Could not start server "${this.name}": its working directory "${this.options.cwd}" does not exist.`;
		} else if (err.code === 'ENOENT') {
			message =
				`Could not start server "${this.name}": command "${command}" was not found (ENOENT). ${where} ` +
				'Use the absolute path of the command: editors started from a desktop often lack the PATH of your shell.';
		} else if (err.code === 'EACCES') {
			message =
				`Could not start server "${this.name}": command "${command}" is not executable (EACCES). ` +
				`Check that it is a program (not a folder) and that it has execute permission (chmod +x). ${where}`;
		} else {
			message = `Could not start server "${this.name}": command "${command}" failed to start (${err.code ?? err.message}). ${where}`;
		}
		return new McpError(ErrorCode.TransportFailed, message, { command, cwd, path, errno: err.code }, { cause: error });
	}
}

/**
 * Stops an early start no transport took over, the way a transport closes its server: it takes the process over (the
 * same command gives the same plan: the environment does not change within a run), ends stdin, then signals its
 * process group (its tree on Windows) and reaps what is left of the group. Nothing when it was taken over already.
 */
export async function discardEarlyStart(early: EarlyStart, closeGraceMs: number): Promise<void> {
	if (early.isClaimed) return;
	const { command, args, env, cwd, inheritEnvironment } = early.command;
	const transport = new StdioTransport({ command, args, env, cwd, inheritEnvironment, closeGraceMs, early });
	await transport.start().catch(() => undefined);
	await transport.close();
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
	if (signal) {
		return `was killed by signal ${signal}`;
	}
	return code === null ? 'exited' : `exited with code ${code}`;
}

function isDirectory(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}

/** PATH from an environment; Windows spells it in any case. */
function pathOf(env: NodeJS.ProcessEnv): string | undefined {
	return isWindows ? windowsEnv(env, 'PATH') : env.PATH;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(-pgid, signal);
	} catch {
		// ESRCH: the group is gone.
	}
}

/**
 * True when a process of group `pgid` still runs. Zombies do not count: they are dead, waiting for a parent
 * (or a PID 1 that does not reap) to collect them, and a signal to the group would still "succeed" because of them.
 */
function groupAlive(pgid: number): boolean {
	try {
		process.kill(-pgid, 0);
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
	if (process.platform !== 'linux') {
		return true;
	}
	try {
		for (const entry of readdirSync('/proc')) {
			if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) {
				continue;
			}
			let stat: string;
			try {
				stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
			} catch {
				continue;
			}
			// "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so parse after the last ')'.
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') {
				return true;
			}
		}
		return false;
	} catch {
		return true;
	}
}
