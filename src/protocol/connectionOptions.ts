/**
 * The options and callback types of a JsonRpcConnection and of one request on it, and the clock it keeps time by.
 */
import type { Logger } from '../common/logger';
import type { JsonRpcNotification, JsonRpcRequest, RequestId } from './jsonrpc';
import type { RequestContext } from './inFlightRequests';
import type { Progress } from './schema';

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
