/**
 * What a JsonRpcConnection keeps per request in flight, both ways: an outgoing request awaiting its answer
 * (PendingRequest, with the one abort listener per caller signal), and an incoming one a handler is working on
 * (RequestContext, IncomingRequest).
 */
import type { SlotTable } from '../common/slotTable';
import { McpError } from './mcpError';
import type { Progress } from './schema';

/** What aborts an outgoing request: the JsonRpcConnection that sent it. */
export interface RequestAborter {
	abortRequest(entry: PendingRequest): void;
}

/** What an incoming request answered at once pauses: nothing (shared, never written to). */
export const NOTHING_PAUSED: readonly PendingRequest[] = Object.freeze([]);

/** One outgoing request in flight. An object, not closures: the same shape for every request. */
export class PendingRequest {
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

	/** The RequestTimeout it fails with at its deadline: its own timeout, its total cap, or a pause that ran out. */
	timeoutError(maxPauseMs: number): McpError {
		const cappedByTotal = this.deadline === this.maxDeadline && this.maxDeadline !== Infinity;
		const ms = cappedByTotal ? this.maxDeadline - this.startedAt : this.timeoutMs;
		const error = McpError.timeout(this.method, ms);
		if (cappedByTotal) {
			error.message = `Request ${this.method} exceeded its maximum total time of ${ms} ms`;
		} else if (this.pauses > 0) {
			error.message = `Request ${this.method} timed out: the server's own request to us was still unanswered after ${maxPauseMs} ms, the longest a request waits for it`;
		}
		return error;
	}
}

/** An outgoing request whose cancellation follows an incoming one (RequestOptions.cancelWith). */
interface CancelLink {
	readonly connection: RequestAborter;
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
	link(connection: RequestAborter, entry: PendingRequest): void {
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
export interface IncomingRequest {
	readonly context: RequestContext;
	/** Our requests that were in flight when it arrived: their answers may wait on ours, so their clocks stop. */
	paused: readonly PendingRequest[];
	/** Where the connection keeps it (JsonRpcConnection.incoming). */
	slot: number;
}

/** The single abort listener a connection keeps on one caller signal, shared by every request using it. */
export class SignalWatch {
	readonly requests = new Set<PendingRequest>();

	constructor(
		private readonly connection: RequestAborter,
		readonly signal: AbortSignal,
	) {}

	/** EventListener object protocol: called on 'abort'. */
	handleEvent(): void {
		for (const request of [...this.requests]) {
			this.connection.abortRequest(request);
		}
	}
}

/** The text of an abort reason, for the `notifications/cancelled` it causes. */
export function abortReasonText(reason: unknown): string | undefined {
	if (reason instanceof Error) {
		return reason.message;
	}
	return typeof reason === 'string' ? reason : undefined;
}

/**
 * The server asked us something while these requests were in flight (an elicitation or a sampling request may be
 * with the user for minutes): their answers may depend on ours, so their clocks stop until we answered, for at most
 * maxPauseMs. Requests sent later are not paused: a ping sent while a dialog is open still times out. Returns the
 * requests it paused, for resumeRequests.
 */
export function pauseRequests(pending: SlotTable<PendingRequest>, now: number, maxPauseMs: number): PendingRequest[] {
	const paused: PendingRequest[] = [];
	pending.forEach((entry) => {
		if (entry.deadline === Infinity) {
			return;
		}
		if (entry.pauses++ === 0) {
			entry.pauseUntil = Math.min(now + maxPauseMs, entry.maxDeadline);
		}
		paused.push(entry);
	});
	return paused;
}

/** Our answer went out: a request no longer paused gets its full timeout again (the user's time is not the server's). */
export function resumeRequests(paused: readonly PendingRequest[], now: number): void {
	for (const entry of paused) {
		if (--entry.pauses === 0) {
			entry.pauseUntil = Infinity;
			entry.deadline = Math.max(entry.deadline, Math.min(now + entry.timeoutMs, entry.maxDeadline));
		}
	}
}
