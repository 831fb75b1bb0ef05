/**
 * A JSON-RPC 2.0 connection over one Transport: request ids and the pending map, per-request timeouts,
 * cancellation both ways, progress routing, ordered dispatch of incoming requests and notifications, and one
 * close path. It knows nothing of MCP's methods beyond `ping`, `notifications/cancelled` and `notifications/progress`.
 *
 * Everything an incoming message causes happens synchronously inside the transport's `onMessage`, so messages
 * take effect strictly in arrival order: a progress notification that arrived before a result reaches its
 * `onProgress` before the request's promise resolves.
 *
 * Hot-path choices (see shared/notes/performance.md): cheap structural guards from jsonrpc.ts instead of zod on
 * the envelope; one timer for all deadlines, armed for the earliest one; at most one abort listener per caller
 * signal per connection, removed once no request uses that signal.
 */
import { Emitter, type Event } from '../common/event';
import { nullLogger, type Logger } from '../common/logger';
import { effectiveTimeout, MAX_TIMER_MS } from '../common/timers';
import {
	ErrorCode,
	isFailure,
	isNotification,
	isRequest,
	isSuccess,
	type JsonRpcMessage,
	type JsonRpcNotification,
	type JsonRpcRequest,
	type RequestId,
} from './jsonrpc';
import { McpError } from './mcpError';
import type { Progress } from './schema';
import { SlotTable } from '../common/slotTable';
import type { Transport } from './transports/transport';
import { errorMessage } from '../common/errors';

/** Options for one outgoing request. */
export interface RequestOptions {
	/** Aborting it rejects the request with a RequestCancelled McpError and sends `notifications/cancelled`. */
	signal?: AbortSignal;
	/**
	 * Per-request timeout in ms; default the connection's timeoutMs (60000). `Infinity` disables it, and so does
	 * anything above 2^31-1 ms (Node's timer limit; such a request simply does not time out).
	 */
	timeoutMs?: number;
	/** Restart the timeout whenever progress arrives. Default true when onProgress is given. */
	resetTimeoutOnProgress?: boolean;
	/** With resetTimeoutOnProgress: the most the request may take in all. Default: none. */
	maxTotalTimeoutMs?: number;
	/** Receives `notifications/progress` for this request (a progress token is sent only when given). */
	onProgress?: (progress: Progress) => void;
	/** Told the request's id as soon as it is assigned (a `subscriptions/listen` is known by its id). */
	onRequestId?: (id: RequestId) => void;
	/**
	 * The incoming request this one serves (a gateway forwarding a call): its cancellation cancels this request as
	 * `signal` would, without making an AbortSignal. Code that needs a signal uses `signal ?? cancelWith?.signal`.
	 */
	cancelWith?: RequestContext;
}

/**
 * Answers one incoming request. Return the result object (undefined means `{}`), or throw: an McpError is sent
 * as-is, anything else is logged and answered InternalError. `context` aborts (`context.signal`, `context.aborted`)
 * when the peer cancels the request or the connection closes; the answer is then not sent.
 */
export type RequestHandler = (
	params: Record<string, unknown> | undefined,
	context: RequestContext,
	request: JsonRpcRequest,
) => unknown;

/**
 * Sees one message on the wire: `out` sent by us, `in` received (possibly malformed: not yet validated). `text` is
 * its JSON as it crossed the wire when the transport has it (stdio both ways), so a tap need not serialise it again;
 * `bytes[start..end)`, when given, the same text as the UTF-8 bytes read (valid only during the call).
 */
export type MessageTap = (
	direction: 'in' | 'out',
	message: unknown,
	text?: string,
	bytes?: Uint8Array,
	start?: number,
	end?: number,
) => void;

/** Receives one incoming notification. A throw is logged and otherwise ignored. */
export type NotificationHandler = (
	params: Record<string, unknown> | undefined,
	notification: JsonRpcNotification,
) => void;

/** Time and a one-shot timer; injectable so tests can drive timeouts without waiting. */
export interface Clock {
	now(): number;
	setTimeout(callback: () => void, ms: number): unknown;
	clearTimeout(handle: unknown): void;
}

/** The real clock. Its timer is unref()ed: a pending request alone does not keep the process alive. */
export const systemClock: Clock = {
	now: () => Date.now(),
	setTimeout(callback, ms) {
		const timer = setTimeout(callback, ms);
		timer.unref();
		return timer;
	},
	clearTimeout(handle) {
		clearTimeout(handle as ReturnType<typeof setTimeout>);
	},
};

export interface ConnectionOptions {
	/** The server's name, used in error messages and logs. Default 'server'. */
	name?: string;
	/** Default nullLogger. The wire is traced only when `logger.traceEnabled`. */
	logger?: Logger;
	/** Default per-request timeout in ms. Default 60000; above 2^31-1 ms means none. */
	timeoutMs?: number;
	/**
	 * While the server waits on our answer to its own request (an elicitation or a sampling consent with the user),
	 * the requests we had in flight when it asked do not time out, for at most this long. Default 600000 (10 minutes).
	 */
	maxPauseMs?: number;
	/** How many answered incoming request ids are remembered to refuse duplicates. Default 1024. */
	answeredIdMemory?: number;
	/** Default systemClock. */
	clock?: Clock;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_PAUSE_MS = 10 * 60_000;

/** What an incoming request answered at once pauses: nothing (shared, never written to). */
const NOTHING_PAUSED: readonly PendingRequest[] = Object.freeze([]);

/** One outgoing request in flight. An object, not closures: the same shape for every request. */
class PendingRequest {
	/** When it times out (clock ms); Infinity without a timeout. */
	deadline: number;
	/** How many of the server's requests, which arrived while this one was in flight, still await our answer. */
	pauses = 0;
	/** While paused: the latest the pause may hold this request's deadline back (clock ms). */
	pauseUntil = Infinity;
	/** Where the connection keeps it (JsonRpcConnection.pending). */
	slot = 0;

	constructor(
		readonly id: number,
		readonly method: string,
		readonly resolve: (result: Record<string, unknown>) => void,
		readonly reject: (error: unknown) => void,
		readonly startedAt: number,
		readonly timeoutMs: number,
		/** Absolute cap on the deadline (clock ms); Infinity when none. */
		readonly maxDeadline: number,
		readonly resetOnProgress: boolean,
		readonly onProgress: ((progress: Progress) => void) | undefined,
		readonly signal: AbortSignal | undefined,
		readonly cancelWith: RequestContext | undefined,
	) {
		this.deadline = Math.min(startedAt + timeoutMs, maxDeadline);
	}
}

/** An outgoing request whose cancellation follows an incoming one (RequestOptions.cancelWith). */
interface CancelLink {
	readonly connection: JsonRpcConnection;
	readonly entry: PendingRequest;
}

/**
 * What a request handler gets besides the params: the incoming request's cancellation. It aborts when the peer
 * cancels the request or the connection closes. `signal` is made only when read: an AbortController costs microseconds
 * per request on Node 20 (measured 6-10 µs of a gateway call), and most handlers answer without one. A handler that
 * forwards the request passes the context itself as `cancelWith` (RequestOptions): the forwarded request is then
 * cancelled directly by this one's abort, with no AbortSignal and no 'abort' listener (adding and removing one costs
 * ~4 µs).
 */
export class RequestContext {
	private controller: AbortController | undefined;
	private abortReason: unknown;
	private isAborted = false;
	/** Outgoing requests sent with `cancelWith` this context, possibly on other connections. */
	private links: CancelLink[] | undefined;

	/** Aborts when the request is cancelled (made on first read). */
	get signal(): AbortSignal {
		if (!this.controller) {
			this.controller = new AbortController();
			if (this.isAborted) this.controller.abort(this.abortReason);
		}
		return this.controller.signal;
	}

	/** Whether the request was cancelled (or its connection closed). */
	get aborted(): boolean {
		return this.isAborted;
	}

	/** Why it was cancelled (an McpError); undefined while it was not. */
	get reason(): unknown {
		return this.abortReason;
	}

	/** @internal */
	link(connection: JsonRpcConnection, entry: PendingRequest): void {
		(this.links ??= []).push({ connection, entry });
	}

	/** @internal */
	unlink(entry: PendingRequest): void {
		const links = this.links;
		if (!links) return;
		const index = links.findIndex((link) => link.entry === entry);
		if (index !== -1) links.splice(index, 1);
	}

	/** @internal Aborts the signal, if one was made (its listeners first, as before), then every linked request. */
	abort(reason: unknown): void {
		if (this.isAborted) return;
		this.isAborted = true;
		this.abortReason = reason;
		this.controller?.abort(reason);
		const links = this.links;
		this.links = undefined;
		if (links) {
			for (const { connection, entry } of links) {
				connection.abortRequest(entry);
			}
		}
	}
}

/** One request from the server that a handler is working on. */
interface IncomingRequest {
	readonly context: RequestContext;
	/** Our requests that were in flight when it arrived: their answers may wait on ours, so their clocks stop. */
	paused: readonly PendingRequest[];
	/** Where the connection keeps it (JsonRpcConnection.incoming). */
	slot: number;
}

/** The single abort listener a connection keeps on one caller signal, shared by every request using it. */
class SignalWatch {
	readonly requests = new Set<PendingRequest>();

	constructor(
		private readonly connection: JsonRpcConnection,
		readonly signal: AbortSignal,
	) {}

	/** EventListener object protocol: called on 'abort'. */
	handleEvent(): void {
		for (const request of [...this.requests]) {
			this.connection.abortRequest(request);
		}
	}
}

/**
 * A JSON-RPC connection over a Transport. Construct it before starting the transport (so no message is missed),
 * register handlers, then `start()`.
 */
export class JsonRpcConnection {
	readonly name: string;
	private readonly logger: Logger;
	private readonly clock: Clock;
	private readonly defaultTimeoutMs: number;
	private readonly maxPauseMs: number;
	private readonly answeredIdMemory: number;

	private nextId = 1;
	/**
	 * Requests in flight both ways, in slots; the maps give each one's slot by id. Not maps of the requests: a long-lived
	 * map rebuilt as entries come and go kept every request it had held alive through scavenges until a full GC (see
	 * SlotTable), a promotion per message on a busy connection.
	 */
	private readonly pending = new SlotTable<PendingRequest>();
	private readonly pendingSlots = new Map<number, number>();
	private readonly signalWatches = new Map<AbortSignal, SignalWatch>();
	private readonly incoming = new SlotTable<IncomingRequest>();
	private readonly incomingSlots = new Map<RequestId, number>();
	private readonly answered = new Set<RequestId>();
	private readonly requestHandlers = new Map<string, RequestHandler>();
	private readonly notificationHandlers = new Map<string, NotificationHandler>();

	private timer: unknown;
	private timerAt = Infinity;

	private closeError: McpError | undefined;
	private readonly closeEmitter = new Emitter<McpError>();
	private readonly subscriptions: Array<{ dispose(): void }> = [];

	/** Fires once, with the McpError (ConnectionClosed) that failed every pending request. */
	readonly onDidClose: Event<McpError> = this.closeEmitter.event;

	constructor(
		private readonly transport: Transport,
		options: ConnectionOptions = {},
	) {
		this.name = options.name ?? 'server';
		this.logger = options.logger ?? nullLogger;
		this.clock = options.clock ?? systemClock;
		this.defaultTimeoutMs = effectiveTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
		this.maxPauseMs = effectiveTimeout(options.maxPauseMs ?? DEFAULT_MAX_PAUSE_MS);
		this.answeredIdMemory = options.answeredIdMemory ?? 1024;
		this.subscriptions.push(
			transport.onMessage((message) => this.handleMessage(message)),
			transport.onClose((error) => this.handleClose(error)),
		);
	}

	/** True once the transport closed or close() was called. */
	get isClosed(): boolean {
		return this.closeError !== undefined;
	}

	/** The error the connection closed with, if it did. */
	get closedWith(): McpError | undefined {
		return this.closeError;
	}

	/** How many outgoing requests await an answer (for tests and diagnostics). */
	get pendingCount(): number {
		return this.pending.size;
	}

	/** Starts the transport. Rejects with the transport's McpError (TransportFailed) and closes the connection. */
	async start(): Promise<void> {
		try {
			await this.transport.start();
		} catch (error) {
			this.handleClose(error instanceof McpError ? error : McpError.connectionClosed(String(error)));
			throw error;
		}
	}

	/** Registers the handler for an incoming request method, replacing any previous one. `ping` is answered without one. */
	setRequestHandler(method: string, handler: RequestHandler): void {
		this.requestHandlers.set(method, handler);
	}

	/**
	 * Registers the handler for an incoming notification method. `notifications/progress` reaches it after the
	 * request's own `onProgress`; `notifications/cancelled` is handled by the connection first.
	 */
	setNotificationHandler(method: string, handler: NotificationHandler): void {
		this.notificationHandlers.set(method, handler);
	}

	/**
	 * Sends a request and resolves with its `result` object (unvalidated: the caller checks its shape).
	 * Rejects with an McpError: the peer's error as sent, RequestTimeout, RequestCancelled (signal aborted),
	 * or ConnectionClosed. A timeout or an abort sends `notifications/cancelled` to the peer.
	 */
	request(
		method: string,
		params: Record<string, unknown> | undefined,
		options: RequestOptions = {},
	): Promise<Record<string, unknown>> {
		if (this.closeError) {
			return Promise.reject(this.closeError);
		}
		const signal = options.signal;
		if (signal?.aborted) {
			return Promise.reject(McpError.cancelled(method, signal.reason));
		}
		const cancelWith = options.cancelWith;
		if (cancelWith?.aborted) {
			return Promise.reject(McpError.cancelled(method, cancelWith.reason));
		}
		const id = this.nextId++;
		options.onRequestId?.(id);
		const onProgress = options.onProgress;
		if (onProgress) {
			// The token is the request id: unique per connection and routed with one map lookup.
			const meta = params?._meta;
			// Object.assign, not spreads: on Node 20 `{ ...a, b }` takes V8's slow path (measured ~5 µs vs ~0.2 µs), and
			// VS Code's agent asks for progress on every call, so every call through the gateway comes here.
			params = Object.assign({}, params, {
				_meta: Object.assign({}, typeof meta === 'object' && meta !== null ? meta : undefined, { progressToken: id }),
			});
		}
		const message: JsonRpcRequest =
			params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
		const now = this.clock.now();
		const timeoutMs = options.timeoutMs === undefined ? this.defaultTimeoutMs : effectiveTimeout(options.timeoutMs);
		const maxTotal = options.maxTotalTimeoutMs === undefined ? Infinity : effectiveTimeout(options.maxTotalTimeoutMs);
		const maxDeadline = now + maxTotal;
		const resetOnProgress = options.resetTimeoutOnProgress ?? onProgress !== undefined;
		let resolve!: (result: Record<string, unknown>) => void;
		let reject!: (error: unknown) => void;
		const promise = new Promise<Record<string, unknown>>((res, rej) => {
			resolve = res;
			reject = rej;
		});
		const entry = new PendingRequest(
			id,
			method,
			resolve,
			reject,
			now,
			timeoutMs,
			maxDeadline,
			resetOnProgress,
			onProgress,
			signal,
			cancelWith,
		);
		entry.slot = this.pending.add(entry);
		this.pendingSlots.set(id, entry.slot);
		if (signal) {
			this.watchSignal(entry, signal);
		}
		if (cancelWith) {
			cancelWith.link(this, entry);
		}
		if (entry.deadline !== Infinity) {
			this.armTimer(entry.deadline);
		}
		this.write(message).then(undefined, (error: unknown) => {
			if (this.pendingEntry(id) === entry) {
				this.settle(entry);
				entry.reject(
					error instanceof McpError
						? error
						: new McpError(ErrorCode.ConnectionClosed, `${this.name}: could not send ${method}: ${String(error)}`),
				);
			}
		});
		return promise;
	}

	/** Sends a notification. Rejects when the connection is closed or the transport cannot send it. */
	notify(method: string, params?: Record<string, unknown>): Promise<void> {
		if (this.closeError) {
			return Promise.reject(this.closeError);
		}
		return this.write(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
	}

	/** Closes the transport; every pending request fails with ConnectionClosed. Idempotent. */
	async close(): Promise<void> {
		if (!this.closeError) {
			try {
				await this.transport.close();
			} catch (error) {
				this.logger.warn(`${this.name}: closing the transport failed: ${String(error)}`);
			}
		}
		// A transport that closed without firing onClose still ends here.
		this.handleClose(McpError.connectionClosed('closed by the client'));
	}

	/** @internal Called by a SignalWatch when the caller's signal aborts, or by the RequestContext it was sent with. */
	abortRequest(entry: PendingRequest): void {
		if (this.pendingEntry(entry.id) !== entry) {
			return;
		}
		this.settle(entry);
		const reason: unknown = entry.signal?.aborted ? entry.signal.reason : entry.cancelWith?.reason;
		const error = McpError.cancelled(entry.method, reason);
		this.sendCancelled(entry, reasonText(reason) ?? 'Cancelled by the client');
		entry.reject(error);
	}

	// ---- outgoing bookkeeping ----

	private pendingEntry(id: number): PendingRequest | undefined {
		return this.pending.get(this.pendingSlots.get(id));
	}

	private incomingRequest(id: RequestId): IncomingRequest | undefined {
		return this.incoming.get(this.incomingSlots.get(id));
	}

	private watchSignal(entry: PendingRequest, signal: AbortSignal): void {
		let watch = this.signalWatches.get(signal);
		if (!watch) {
			watch = new SignalWatch(this, signal);
			this.signalWatches.set(signal, watch);
			signal.addEventListener('abort', watch);
		}
		watch.requests.add(entry);
	}

	/** Removes a request from every structure that refers to it. */
	private settle(entry: PendingRequest): void {
		if (this.pending.remove(entry.slot, entry)) {
			this.pendingSlots.delete(entry.id);
		}
		entry.cancelWith?.unlink(entry);
		const signal = entry.signal;
		if (signal) {
			const watch = this.signalWatches.get(signal);
			if (watch) {
				watch.requests.delete(entry);
				if (watch.requests.size === 0) {
					signal.removeEventListener('abort', watch);
					this.signalWatches.delete(signal);
				}
			}
		}
		// The deadline timer is left armed when nothing is pending: sequential requests then cost no timer
		// operation at all (each new deadline is later than the armed one). It fires once, finds nothing, and stops.
	}

	/**
	 * Arms the one timer for `deadline` unless it already fires earlier. Later deadlines are found by the sweep,
	 * which re-arms for the earliest remaining one: with one default timeout, that is one timer operation per
	 * timeout period however many requests pass, instead of a timer per request.
	 */
	private armTimer(deadline: number): void {
		if (deadline >= this.timerAt) {
			return;
		}
		if (this.timer !== undefined) {
			this.clock.clearTimeout(this.timer);
		}
		this.timerAt = deadline;
		// Capped at Node's limit (a longer delay would fire after 1 ms); the sweep then re-arms for what remains.
		this.timer = this.clock.setTimeout(this.sweep, Math.min(MAX_TIMER_MS, Math.max(0, deadline - this.clock.now())));
	}

	/**
	 * The server asked us something while these requests were in flight (an elicitation or a sampling request may be
	 * with the user for minutes): their answers may depend on ours, so their clocks stop until we answered, for at most
	 * maxPauseMs. Requests sent later are not paused: a ping sent while a dialog is open still times out.
	 */
	private pauseInFlight(): PendingRequest[] {
		const paused: PendingRequest[] = [];
		const now = this.clock.now();
		this.pending.forEach((entry) => {
			if (entry.deadline === Infinity) {
				return;
			}
			if (entry.pauses++ === 0) {
				entry.pauseUntil = Math.min(now + this.maxPauseMs, entry.maxDeadline);
			}
			paused.push(entry);
		});
		return paused;
	}

	/** Our answer went out: a request no longer paused gets its full timeout again (the user's time is not the server's). */
	private resume(paused: readonly PendingRequest[]): void {
		const now = this.clock.now();
		for (const entry of paused) {
			if (--entry.pauses === 0) {
				entry.pauseUntil = Infinity;
				entry.deadline = Math.max(entry.deadline, Math.min(now + entry.timeoutMs, entry.maxDeadline));
			}
		}
	}

	/** Fails every request past its deadline and re-arms the timer for the earliest remaining one. */
	private readonly sweep = (): void => {
		this.timer = undefined;
		this.timerAt = Infinity;
		const now = this.clock.now();
		let next = Infinity;
		this.pending.forEach((entry) => {
			if (entry.deadline <= now && entry.pauses > 0 && now < entry.pauseUntil) {
				// Paused (see pauseInFlight): held back one timeout period at a time, never past the pause cap.
				entry.deadline = Math.min(now + entry.timeoutMs, entry.pauseUntil);
			}
			if (entry.deadline <= now) {
				this.settle(entry);
				const elapsed = now - entry.startedAt;
				const cappedByTotal = entry.deadline === entry.maxDeadline && entry.maxDeadline !== Infinity;
				const ms = cappedByTotal ? entry.maxDeadline - entry.startedAt : entry.timeoutMs;
				const error = McpError.timeout(entry.method, ms);
				if (cappedByTotal) {
					error.message = `Request ${entry.method} exceeded its maximum total time of ${ms} ms`;
				} else if (entry.pauses > 0) {
					error.message = `Request ${entry.method} timed out: the server's own request to us was still unanswered after ${this.maxPauseMs} ms, the longest a request waits for it`;
				}
				this.logger.debug(
					`${this.name}: request ${entry.id} (${entry.method}) timed out after ${Math.round(elapsed)} ms`,
				);
				this.sendCancelled(entry, error.message);
				entry.reject(error);
			} else if (entry.deadline < next) {
				next = entry.deadline;
			}
		});
		if (next !== Infinity) {
			this.armTimer(next);
		}
	};

	private sendCancelled(entry: PendingRequest, reason: string): void {
		// Spec: "The initialize request MUST NOT be cancelled by clients"; the connection closes instead.
		if (this.closeError || entry.method === 'initialize') {
			return;
		}
		const requestId = entry.id;
		// Spec: "The sender of the cancellation notification SHOULD ... include a reason."
		// https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/cancellation
		this.write({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason } }).then(
			undefined,
			(error: unknown) =>
				this.logger.debug(`${this.name}: could not send notifications/cancelled for ${requestId}: ${String(error)}`),
		);
	}

	/**
	 * Sees every message sent ('out') and received ('in'), in wire order, before it is acted on; for the protocol
	 * view. Unset (the default) costs one check per message. A tap that throws is logged and otherwise ignored.
	 */
	messageTap: MessageTap | undefined;

	private tap(
		direction: 'in' | 'out',
		message: unknown,
		text: string | undefined,
		bytes?: Uint8Array,
		start?: number,
		end?: number,
	): void {
		try {
			this.messageTap?.(direction, message, text, bytes, start, end);
		} catch (error) {
			this.logger.warn(`${this.name}: the message tap failed: ${String(error)}`);
		}
	}

	private write(message: JsonRpcMessage): Promise<void> {
		let text: string | undefined;
		if (this.messageTap) {
			// Serialised once for both: the tap gets the text the transport will write (a message that cannot be
			// serialised goes to the transport without it, which then rejects the send as usual).
			try {
				text = JSON.stringify(message);
			} catch {
				text = undefined;
			}
			this.tap('out', message, text);
		}
		if (this.logger.traceEnabled) {
			this.logger.trace(`${this.name} → ${traceString(message)}`);
		}
		try {
			return this.transport.send(message, text);
		} catch (error) {
			return Promise.reject(error);
		}
	}

	// ---- incoming ----

	private handleMessage(message: unknown): void {
		if (this.closeError) {
			return;
		}
		if (this.messageTap) {
			const transport = this.transport;
			this.tap(
				'in',
				message,
				transport.messageText,
				transport.messageBytes,
				transport.messageStart,
				transport.messageEnd,
			);
		}
		if (this.logger.traceEnabled) {
			this.logger.trace(`${this.name} ← ${traceString(message)}`);
		}
		if (typeof message !== 'object' || message === null) {
			this.logger.warn(`${this.name}: ignored a message that is not a JSON-RPC object: ${preview(message)}`);
			return;
		}
		const record = message as Record<string, unknown>;
		if ('method' in record) {
			if ('id' in record) {
				if (isRequest(record)) {
					this.handleRequest(record);
				} else {
					this.logger.warn(`${this.name}: ignored an invalid request: ${preview(message)}`);
					const id = record.id;
					if (
						(typeof id === 'string' || typeof id === 'number') &&
						!this.incomingSlots.has(id) &&
						!this.answered.has(id)
					) {
						this.answered.add(id);
						this.respondError(id, new McpError(ErrorCode.InvalidRequest, 'Invalid request'));
					}
				}
			} else if (isNotification(record)) {
				this.handleNotification(record);
			} else {
				this.logger.warn(`${this.name}: ignored an invalid notification: ${preview(message)}`);
			}
			return;
		}
		if (isSuccess(record)) {
			this.handleResponse(record.id, record.result, undefined);
		} else if (isFailure(record)) {
			if (record.id === null) {
				this.logger.warn(
					`${this.name}: the server reported an error without a request id: ${record.error.code} ${record.error.message}`,
				);
			} else {
				this.handleResponse(record.id, undefined, McpError.fromResponse(record.error));
			}
		} else {
			const entry = typeof record.id === 'number' ? this.pendingEntry(record.id) : undefined;
			if (entry) {
				// A broken answer to a request we sent: fail it now, with what came, rather than letting the caller wait
				// for a timeout that blames the server's silence (and sending it a cancel for a request it answered).
				this.settle(entry);
				const error = new McpError(
					ErrorCode.ProtocolViolation,
					`${this.name} answered ${entry.method} with a malformed JSON-RPC response: ${preview(message)}`,
					{
						method: entry.method,
					},
				);
				this.logger.warn(error.message);
				entry.reject(error);
				return;
			}
			this.logger.warn(`${this.name}: ignored an invalid JSON-RPC message: ${preview(message)}`);
		}
	}

	private handleResponse(
		id: RequestId,
		result: Record<string, unknown> | undefined,
		error: McpError | undefined,
	): void {
		const entry = typeof id === 'number' ? this.pendingEntry(id) : undefined;
		if (!entry) {
			// Late answers to timed-out or cancelled requests land here, as do replays from a resumed HTTP stream.
			this.logger.debug(`${this.name}: ignored a response with unknown id ${JSON.stringify(id)}`);
			return;
		}
		this.settle(entry);
		if (error) {
			entry.reject(error);
		} else {
			entry.resolve(result as Record<string, unknown>);
		}
	}

	private handleNotification(message: JsonRpcNotification): void {
		const params = message.params;
		switch (message.method) {
			case 'notifications/progress': {
				const token = params?.progressToken;
				const entry = typeof token === 'number' ? this.pendingEntry(token) : undefined;
				if (entry?.onProgress && typeof params?.progress === 'number') {
					if (entry.resetOnProgress && entry.timeoutMs !== Infinity) {
						const deadline = Math.min(this.clock.now() + entry.timeoutMs, entry.maxDeadline);
						if (deadline > entry.deadline) {
							entry.deadline = deadline;
						}
					}
					try {
						entry.onProgress(params as Progress);
					} catch (error) {
						this.logger.error(`${this.name}: an onProgress callback of ${entry.method} threw: ${String(error)}`);
					}
				} else if (!entry) {
					this.logger.debug(`${this.name}: progress for unknown token ${JSON.stringify(token)}`);
				}
				break;
			}
			case 'notifications/cancelled': {
				const requestId = params?.requestId;
				const incoming =
					typeof requestId === 'string' || typeof requestId === 'number' ? this.incomingRequest(requestId) : undefined;
				if (incoming) {
					const reason = typeof params?.reason === 'string' ? params.reason : undefined;
					this.logger.debug(
						`${this.name}: the server cancelled its request ${JSON.stringify(requestId)}${reason ? `: ${reason}` : ''}`,
					);
					incoming.context.abort(McpError.cancelled(String(requestId), reason ?? 'cancelled by the server'));
				}
				break;
			}
		}
		const handler = this.notificationHandlers.get(message.method);
		if (handler) {
			try {
				handler(params, message);
			} catch (error) {
				this.logger.error(
					`${this.name}: the handler of ${message.method} threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
				);
			}
		} else if (message.method !== 'notifications/progress' && message.method !== 'notifications/cancelled') {
			this.logger.debug(`${this.name}: no handler for notification ${message.method}`);
		}
	}

	private handleRequest(message: JsonRpcRequest): void {
		const id = message.id;
		if (this.incomingSlots.has(id) || this.answered.has(id)) {
			// Spec: the request id "MUST NOT have been previously used by the requestor within the same session".
			this.logger.warn(`${this.name}: ignored a repeated request id ${JSON.stringify(id)} (${message.method})`);
			return;
		}
		const handler = this.requestHandlers.get(message.method);
		if (!handler) {
			this.remember(id);
			if (message.method === 'ping') {
				this.respond(id, {});
			} else {
				this.respondError(id, McpError.methodNotFound(message.method));
			}
			return;
		}
		const context = new RequestContext();
		const incoming: IncomingRequest = { context, paused: NOTHING_PAUSED, slot: 0 };
		incoming.slot = this.incoming.add(incoming);
		this.incomingSlots.set(id, incoming.slot);
		let result: unknown;
		try {
			result = handler(message.params, context, message);
		} catch (error) {
			this.finishIncoming(message, incoming, false, error);
			return;
		}
		if (result instanceof Promise) {
			// Only an answer that takes time pauses anything (a synchronous one is sent right away).
			incoming.paused = this.pauseInFlight();
			result.then(
				(value) => this.finishIncoming(message, incoming, true, value),
				(error) => this.finishIncoming(message, incoming, false, error),
			);
		} else {
			this.finishIncoming(message, incoming, true, result);
		}
	}

	private finishIncoming(message: JsonRpcRequest, incoming: IncomingRequest, ok: boolean, value: unknown): void {
		const id = message.id;
		const context = incoming.context;
		if (this.incoming.remove(incoming.slot, incoming)) {
			if (this.incomingSlots.get(id) === incoming.slot) {
				this.incomingSlots.delete(id);
			}
			this.resume(incoming.paused);
		}
		this.remember(id);
		if (context.aborted || this.closeError) {
			// Spec: after a cancellation the receiver "SHOULD NOT send a response for the cancelled request".
			this.logger.debug(`${this.name}: not answering cancelled request ${JSON.stringify(id)} (${message.method})`);
			return;
		}
		if (ok) {
			this.respond(id, typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});
		} else if (value instanceof McpError) {
			this.respondError(id, value);
		} else {
			this.logger.error(
				`${this.name}: the handler of ${message.method} failed: ${value instanceof Error ? (value.stack ?? value.message) : String(value)}`,
			);
			const text = errorMessage(value);
			this.respondError(id, McpError.internal(`Internal error: ${text}`));
		}
	}

	private remember(id: RequestId): void {
		this.answered.add(id);
		if (this.answered.size > this.answeredIdMemory) {
			// Sets iterate in insertion order: the first is the oldest.
			const oldest = this.answered.values().next().value;
			if (oldest !== undefined) {
				this.answered.delete(oldest);
			}
		}
	}

	private respond(id: RequestId, result: Record<string, unknown>): void {
		this.write({ jsonrpc: '2.0', id, result }).then(undefined, (error: unknown) =>
			this.logger.warn(`${this.name}: could not send the answer to request ${JSON.stringify(id)}: ${String(error)}`),
		);
	}

	private respondError(id: RequestId, error: McpError): void {
		this.write({ jsonrpc: '2.0', id, error: error.toJson() }).then(undefined, (sendError: unknown) =>
			this.logger.warn(
				`${this.name}: could not send the error answer to request ${JSON.stringify(id)}: ${String(sendError)}`,
			),
		);
	}

	// ---- closing ----

	/** The one close path: fails every pending request, aborts every incoming handler, fires onDidClose once. */
	private handleClose(reason: McpError): void {
		if (this.closeError) {
			return;
		}
		// Transports usually name the server already ('Server "x" exited with code 1 ...'); otherwise prefix it.
		const named = reason.message.startsWith(this.name) || reason.message.includes(`"${this.name}"`);
		const message = named ? reason.message : `${this.name}: ${reason.message}`;
		const error = new McpError(ErrorCode.ConnectionClosed, message, reason.data, { cause: reason });
		this.closeError = error;
		if (this.timer !== undefined) {
			this.clock.clearTimeout(this.timer);
			this.timer = undefined;
			this.timerAt = Infinity;
		}
		const entries = this.pending.clear();
		this.pendingSlots.clear();
		for (const entry of entries) {
			this.settle(entry);
			entry.reject(error);
		}
		this.incomingSlots.clear();
		for (const incoming of this.incoming.clear()) {
			incoming.context.abort(error);
		}
		for (const subscription of this.subscriptions) {
			subscription.dispose();
		}
		this.logger.info(`${this.name}: connection closed: ${reason.message}`);
		this.closeEmitter.fire(error);
		this.closeEmitter.dispose();
	}
}

function reasonText(reason: unknown): string | undefined {
	if (reason instanceof Error) {
		return reason.message;
	}
	return typeof reason === 'string' ? reason : undefined;
}

/** Keys whose values never reach a log: credentials, tokens, cookies. `progressToken` is not a secret. */
const SECRET_KEY = /authorization|cookie|password|secret|token|api[-_]?key/i;
/**
 * Any text SECRET_KEY could match, anywhere in serialised JSON (keys or values): a superset, so a message that
 * skips the replacer can have no key to redact.
 */
export const SECRET_KEY_IN_JSON = new RegExp(SECRET_KEY.source, 'i');

/** A JSON.stringify replacer that writes `[redacted]` for the value of a secret-looking key (the trace's rule). */
export function redact(key: string, value: unknown): unknown {
	return key !== 'progressToken' && key !== 'cursor' && SECRET_KEY.test(key) && value !== undefined
		? '[redacted]'
		: value;
}

/** The longest trace line kept; a 50 MiB result would otherwise freeze the output view that shows it. */
const MAX_TRACE_CHARS = 64 * 1024;

/** The wire form of a message for the trace, with secrets redacted and cut at 64 KiB. Built only when tracing. */
export function traceString(message: unknown): string {
	return traceJson(message).text;
}

/** traceString's text plus the length of the whole redacted JSON (before the cut), for the protocol view. */
export function traceJson(message: unknown): { text: string; length: number } {
	let text: string;
	try {
		// A replacer function makes JSON.stringify several times slower, and most messages have no secret-looking key:
		// stringify plainly, and again with the replacer only when such a key appears in the text.
		text = JSON.stringify(message) ?? String(message);
		if (SECRET_KEY_IN_JSON.test(text)) text = JSON.stringify(message, redact) ?? text;
	} catch {
		text = String(message);
	}
	return cutTrace(text);
}

/**
 * traceJson for a message whose JSON text is at hand (as it crossed the wire): the same redaction and cut, without
 * serialising the message again. Text that mentions a secret-looking key is parsed and serialised with the redaction;
 * text that cannot be parsed then is not shown at all (it might hold the secret).
 */
export function traceJsonText(json: string): { text: string; length: number } {
	let text = json;
	if (SECRET_KEY_IN_JSON.test(json)) {
		try {
			text = JSON.stringify(JSON.parse(json), redact) ?? json;
		} catch {
			text = `[not shown: ${json.length} characters that are not JSON and may hold a secret]`;
		}
	}
	return cutTrace(text);
}

function cutTrace(text: string): { text: string; length: number } {
	if (text.length <= MAX_TRACE_CHARS) return { text, length: text.length };
	// A slice would keep the whole string alive behind it (V8 sliced strings): copy the head, so a 50 MiB message
	// kept in the protocol view costs 64 KiB.
	const head = Buffer.from(text.slice(0, MAX_TRACE_CHARS), 'utf8').toString('utf8');
	return { text: `${head}… (${text.length} characters)`, length: text.length };
}

function preview(message: unknown): string {
	const text = traceString(message);
	return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
