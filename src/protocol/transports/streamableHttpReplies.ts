/**
 * Reading the Streamable HTTP replies that are not a plain success: a session that is gone, a 2026-07-28 JSON-RPC
 * error in a 4xx body, and an `initialize` refused by a server that may speak only legacy HTTP+SSE.
 */
import type { IncomingMessage } from 'node:http';
import { ErrorCode, isFailure } from '../jsonrpc';
import { McpError } from '../mcpError';
import { isModernError } from '../modern/requestMeta';
import { describeBytes, headerValue, peekBody, readBody } from './httpClient';

/**
 * True when a reply to a request that carried the session id says the session is gone: 404, as the spec says
 * ("MUST respond to requests containing that session ID with HTTP 404"), or 400 whose body speaks of the session,
 * which is what servers built on the official SDK answer (server-everything: "Bad Request: No valid session ID
 * provided"). A 400 about something else comes back with its first bytes in `body` (the reply is consumed).
 */
export async function sessionGone(res: IncomingMessage): Promise<{ gone: boolean; body?: string }> {
	if (res.statusCode === 404) {
		res.resume();
		return { gone: true };
	}
	if (res.statusCode !== 400) {
		return { gone: false };
	}
	const body = await peekBody(res, 1000);
	return /session/i.test(body) ? { gone: true } : { gone: false, body };
}

/**
 * A modern server answers 400 (or 404 for an unknown method) with a JSON-RPC error body: "On 400 Bad Request, the
 * client SHOULD inspect the response body ... If the body contains a recognized modern JSON-RPC error, the server
 * speaks a modern version". That error, code and data as sent, is what `send()` rejects with; a body that is not
 * one leaves the usual handling (the response was only peeked at).
 */
export async function throwModernError(res: IncomingMessage, name: string, method: string): Promise<never> {
	const status = res.statusCode ?? 0;
	const body = await readBody(res, 1024 * 1024, `${name}: ${method}`).catch(() => Buffer.alloc(0));
	let parsed: unknown;
	try {
		parsed = JSON.parse(body.toString('utf8'));
	} catch {
		parsed = undefined;
	}
	if (isFailure(parsed)) {
		throw new McpError(
			parsed.error.code,
			`${name}: ${parsed.error.message} (HTTP ${status} to ${method})`,
			parsed.error.data,
			{ fromPeer: true },
		);
	}
	throw new McpError(
		ErrorCode.TransportFailed,
		`${name}: the server answered ${method} with HTTP ${status} (${headerValue(res, 'content-type') ?? 'no content type'}): ${describeBytes(body.subarray(0, 200), body.length > 200)}`,
		{ status },
	);
}

/**
 * A 4xx to initialize: an HTTP+SSE server (2024-11-05) answers so, and gets the fallback; but an error of 2026-07-28
 * in the body (-32020..-32022) is a Streamable HTTP server that speaks only that era refusing initialize, and goes
 * to the client as that error (thrown here), which then probes with server/discover. Else: the reply, described for
 * the fallback's messages.
 */
export async function readInitializeRefusal(res: IncomingMessage, name: string): Promise<string> {
	const status = res.statusCode ?? 0;
	const body = await readBody(res, 64 * 1024, `${name}: initialize`).catch(() => Buffer.alloc(0));
	let parsed: unknown;
	try {
		parsed = JSON.parse(body.toString('utf8'));
	} catch {
		parsed = undefined;
	}
	const refusal = isFailure(parsed)
		? new McpError(
				parsed.error.code,
				`${name}: ${parsed.error.message} (HTTP ${status} to initialize)`,
				parsed.error.data,
			)
		: undefined;
	if (isModernError(refusal)) throw refusal;
	// Kept for the error message, in case this is a Streamable HTTP server refusing the request itself.
	const reply = `HTTP ${status} (${headerValue(res, 'content-type') ?? 'no content type'}): ${describeBytes(body.subarray(0, 200), body.length > 200)}`;
	return reply;
}
