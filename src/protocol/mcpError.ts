import { ErrorCode, type JsonRpcErrorObject } from './jsonrpc';

/**
 * A failure on this side of the wire: the connection closed, a deadline passed, the caller cancelled, a capability is
 * missing, the transport failed, the peer's answer broke the protocol, authorization failed. Its own kind, apart from
 * the JSON-RPC code: the codes these failures carry (`ErrorCode.ConnectionClosed` -32000 …) are in the range servers
 * use for their own errors, so a server's -32000 is not "connection closed".
 */
export type LocalFailure =
	'closed' | 'timeout' | 'cancelled' | 'capability' | 'transport' | 'protocol' | 'unauthorized';

/** The local failure each client-side code stands for, when this side made the error. */
const LOCAL_FAILURES: ReadonlyMap<number, LocalFailure> = new Map<number, LocalFailure>([
	[ErrorCode.ConnectionClosed, 'closed'],
	[ErrorCode.RequestTimeout, 'timeout'],
	[ErrorCode.RequestCancelled, 'cancelled'],
	[ErrorCode.CapabilityMissing, 'capability'],
	[ErrorCode.TransportFailed, 'transport'],
	[ErrorCode.ProtocolViolation, 'protocol'],
	[ErrorCode.Unauthorized, 'unauthorized'],
]);

/** Marks McpErrors by a registered symbol, so `instanceof` holds across bundles that each carry their own copy. */
const mcpErrorBrand = Symbol.for('mcp-switchboard.McpError');

/**
 * Every failure the core reports is an McpError: a JSON-RPC error code, a message a person can act on,
 * and optional data (the server's `error.data`, or details such as an exit code).
 * `instanceof McpError` is true for an McpError from any copy of this module (the extension, dist/core.js and a test
 * bundle each have one), since the Manager's errors cross those boundaries.
 */
export class McpError extends Error {
	override readonly name = 'McpError';
	private readonly [mcpErrorBrand] = true;

	static override [Symbol.hasInstance](value: unknown): boolean {
		return (
			typeof value === 'object' && value !== null && (value as { [mcpErrorBrand]?: unknown })[mcpErrorBrand] === true
		);
	}

	/**
	 * The local failure this is, or undefined for an error a peer answered ({@link McpError.fromResponse}) and for the
	 * standard codes. Test this, not `code`, to tell "the connection closed" from a server that answered -32000.
	 */
	readonly local: LocalFailure | undefined;

	/**
	 * An error made on this side: a client-side `code` makes it that {@link LocalFailure}. An error that rewords its
	 * `cause` (an McpError with the same code) keeps the cause's kind, so a peer's error stays a peer's; `fromPeer` marks
	 * an error object a peer sent (a response, a task's `error` field).
	 */
	constructor(
		readonly code: number,
		message: string,
		readonly data?: unknown,
		options?: { cause?: unknown; fromPeer?: boolean },
	) {
		super(message, options?.cause === undefined ? undefined : { cause: options.cause });
		const cause = options?.cause;
		this.local = options?.fromPeer
			? undefined
			: cause instanceof McpError && cause.code === code
				? cause.local
				: LOCAL_FAILURES.get(code);
	}

	/** The error as sent in a JSON-RPC response. */
	toJson(): JsonRpcErrorObject {
		return this.data === undefined
			? { code: this.code, message: this.message }
			: { code: this.code, message: this.message, data: this.data };
	}

	/** An McpError from a JSON-RPC error object a peer sent. */
	static fromResponse(error: JsonRpcErrorObject): McpError {
		return new McpError(error.code, error.message, error.data, { fromPeer: true });
	}

	/** The connection closed; `reason` says why (exit code, signal, last stderr, stream drop...). */
	static connectionClosed(reason: string, data?: unknown): McpError {
		return new McpError(ErrorCode.ConnectionClosed, reason, data);
	}

	static timeout(method: string, ms: number): McpError {
		return new McpError(ErrorCode.RequestTimeout, `Request ${method} timed out after ${ms} ms`, { timeoutMs: ms });
	}

	static cancelled(method: string, reason?: unknown): McpError {
		const why = reason instanceof Error ? `: ${reason.message}` : typeof reason === 'string' ? `: ${reason}` : '';
		return new McpError(ErrorCode.RequestCancelled, `Request ${method} was cancelled${why}`);
	}

	static methodNotFound(method: string): McpError {
		return new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
	}

	static capabilityMissing(method: string, capability: string): McpError {
		return new McpError(
			ErrorCode.CapabilityMissing,
			`The server does not support ${method} (it did not advertise the '${capability}' capability)`,
		);
	}

	static internal(message: string): McpError {
		return new McpError(ErrorCode.InternalError, message);
	}

	static invalidParams(message: string): McpError {
		return new McpError(ErrorCode.InvalidParams, message);
	}
}

/** True for errors that mean the connection is gone (so callers may reconnect); never for a peer's -32000 answer. */
export function isConnectionClosed(error: unknown): error is McpError {
	return isLocalFailure(error, 'closed');
}

/** Whether `error` is the local failure `kind` (an error this side made, not a code a peer answered). */
export function isLocalFailure(error: unknown, kind: LocalFailure): error is McpError {
	return error instanceof McpError && error.local === kind;
}
