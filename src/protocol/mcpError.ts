import { ErrorCode, type JsonRpcErrorObject } from './jsonrpc';

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

	constructor(
		readonly code: number,
		message: string,
		readonly data?: unknown,
		options?: { cause?: unknown },
	) {
		super(message, options);
	}

	/** The error as sent in a JSON-RPC response. */
	toJson(): JsonRpcErrorObject {
		return this.data === undefined
			? { code: this.code, message: this.message }
			: { code: this.code, message: this.message, data: this.data };
	}

	/** An McpError from a JSON-RPC error object a peer sent. */
	static fromResponse(error: JsonRpcErrorObject): McpError {
		return new McpError(error.code, error.message, error.data);
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

/** True for errors that mean the connection is gone (so callers may reconnect). */
export function isConnectionClosed(error: unknown): error is McpError {
	return error instanceof McpError && error.code === ErrorCode.ConnectionClosed;
}
