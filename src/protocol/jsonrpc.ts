/**
 * JSON-RPC 2.0 message shapes and cheap structural guards for the hot path.
 * Full zod validation is reserved for results the client interprets (see schema.ts).
 * Spec: https://www.jsonrpc.org/specification
 */

export type RequestId = string | number;

export interface JsonRpcRequest {
	jsonrpc: '2.0';
	id: RequestId;
	method: string;
	params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
	jsonrpc: '2.0';
	method: string;
	params?: Record<string, unknown>;
}

export interface JsonRpcSuccess {
	jsonrpc: '2.0';
	id: RequestId;
	result: Record<string, unknown>;
}

export interface JsonRpcErrorObject {
	code: number;
	message: string;
	data?: unknown;
}

export interface JsonRpcFailure {
	jsonrpc: '2.0';
	/** null when the server could not read the request's id (e.g. a parse error). */
	id: RequestId | null;
	error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** Standard JSON-RPC and MCP error codes. */
export const ErrorCode = {
	ParseError: -32700,
	InvalidRequest: -32600,
	MethodNotFound: -32601,
	InvalidParams: -32602,
	InternalError: -32603,
	/** MCP: the server needs the user to complete a URL elicitation first (2025-11-25). */
	UrlElicitationRequired: -32042,
	/** MCP resource not found (servers commonly use -32002; server-everything uses -32602). */
	ResourceNotFound: -32002,
	// Client-side codes (not sent on the wire by servers):
	/** The connection closed (process exit, stream drop, close()). */
	ConnectionClosed: -32000,
	/** The request timed out. */
	RequestTimeout: -32001,
	/** The request was cancelled by the caller. */
	RequestCancelled: -32800,
	/** A server capability needed by the method was not advertised. */
	CapabilityMissing: -32010,
	/** The transport could not be started (spawn failed, HTTP connect failed, ...). */
	TransportFailed: -32011,
	/** The server answered something the client cannot accept (bad result shape, version, ...). */
	ProtocolViolation: -32012,
	/** Authorization failed or was refused. */
	Unauthorized: -32013,
} as const;

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is RequestId {
	return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** Params must be an object when present (MCP never uses positional params). */
function paramsOk(value: unknown): boolean {
	return value === undefined || isObject(value);
}

export function isRequest(message: unknown): message is JsonRpcRequest {
	return (
		isObject(message) &&
		message.jsonrpc === '2.0' &&
		typeof message.method === 'string' &&
		isId(message.id) &&
		paramsOk(message.params)
	);
}

export function isNotification(message: unknown): message is JsonRpcNotification {
	return (
		isObject(message) &&
		message.jsonrpc === '2.0' &&
		typeof message.method === 'string' &&
		!('id' in message) &&
		paramsOk(message.params)
	);
}

export function isSuccess(message: unknown): message is JsonRpcSuccess {
	return (
		isObject(message) &&
		message.jsonrpc === '2.0' &&
		isId(message.id) &&
		isObject(message.result) &&
		!('method' in message)
	);
}

export function isFailure(message: unknown): message is JsonRpcFailure {
	return (
		isObject(message) &&
		message.jsonrpc === '2.0' &&
		(isId(message.id) || message.id === null) &&
		isObject(message.error) &&
		typeof message.error.code === 'number' &&
		typeof message.error.message === 'string'
	);
}

export function isResponse(message: unknown): message is JsonRpcResponse {
	return isSuccess(message) || isFailure(message);
}
