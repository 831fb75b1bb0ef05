/**
 * The gateway's front door: who may talk to it and how much. Every request must carry the window's bearer token,
 * name a loopback Host (DNS rebinding: a web page that resolves its own name to 127.0.0.1 still sends its own Host)
 * and, when it has an Origin, a loopback or VS Code origin. Bodies are read up to a limit.
 *
 * Spec: "Servers MUST validate the Origin header on all incoming connections to prevent DNS rebinding attacks. If
 * the Origin header is present and invalid, servers MUST respond with HTTP 403 Forbidden." and "When running
 * locally, servers SHOULD bind only to localhost (127.0.0.1)"
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Why a request was refused: the HTTP status and a message for the JSON-RPC error body. */
export interface Refusal {
	status: number;
	message: string;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Origins a local client may send: the same loopback address, or VS Code's own desktop shell. */
function originAllowed(origin: string, port: number): boolean {
	if (origin === 'vscode-file://vscode-app') return true;
	let url: URL;
	try {
		url = new URL(origin);
	} catch {
		return false;
	}
	return (
		(url.protocol === 'http:' || url.protocol === 'https:') &&
		LOOPBACK_HOSTS.has(url.hostname) &&
		url.port === String(port)
	);
}

/** The last expected secret's bytes: one gateway per window, so one token; not encoded again on every request. */
let expectedBytes: { secret: string; bytes: Buffer } | undefined;

/** True when both strings are equal, in time that does not depend on where they differ. */
function sameSecret(given: string, expected: string): boolean {
	if (expectedBytes?.secret !== expected) expectedBytes = { secret: expected, bytes: Buffer.from(expected) };
	const a = Buffer.from(given);
	const b = expectedBytes.bytes;
	return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Checks Host and Origin only (DNS rebinding): for a loopback listener whose path is its secret, such as the stdio
 * bridge of Check This Server, whose client (the conformance suite) sends no bearer token. Undefined: may proceed.
 */
export function checkHostAndOrigin(req: IncomingMessage, port: number): Refusal | undefined {
	const host = req.headers.host ?? '';
	const hostName = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':', 1)[0]!;
	if (!LOOPBACK_HOSTS.has(hostName) || host !== `${hostName}:${port}`) {
		return { status: 403, message: `Forbidden: Host '${host}' is not this gateway's loopback address` };
	}
	const origin = req.headers.origin;
	if (origin !== undefined && !originAllowed(origin, port)) {
		return { status: 403, message: `Forbidden: requests from the origin '${origin}' are not accepted` };
	}
	return undefined;
}

/**
 * Checks Host, Origin and the bearer token, in that order (a foreign page learns nothing about the token).
 * Returns undefined when the request may proceed.
 */
export function checkRequest(req: IncomingMessage, port: number, token: string): Refusal | undefined {
	const foreign = checkHostAndOrigin(req, port);
	if (foreign) return foreign;
	const authorization = req.headers.authorization ?? '';
	const match = /^Bearer\s+(\S+)$/i.exec(authorization);
	if (!match || !sameSecret(match[1]!, token)) {
		return {
			status: 401,
			message: authorization
				? "Unauthorized: the bearer token is not this window's gateway token"
				: 'Unauthorized: a bearer token is required',
		};
	}
	return undefined;
}

/**
 * Reads a request body of at most `maxBytes` and calls `done` once: with the body, with undefined (having stopped
 * reading) when it is larger, or with the stream's error. A callback, not a Promise: every call through the gateway
 * comes here, and the promise, its await and the async caller's own promise were allocations and microtask turns on
 * each of them.
 */
export function readBody(
	req: IncomingMessage,
	maxBytes: number,
	done: (error: Error | undefined, body: Buffer | undefined) => void,
): void {
	const declared = Number(req.headers['content-length']);
	if (Number.isFinite(declared) && declared > maxBytes) {
		req.resume();
		done(undefined, undefined);
		return;
	}
	const chunks: Buffer[] = [];
	let size = 0;
	let finished = false;
	req.on('data', (chunk: Buffer) => {
		if (finished) return;
		size += chunk.length;
		if (size > maxBytes) {
			finished = true;
			done(undefined, undefined);
			return;
		}
		chunks.push(chunk);
	});
	req.on('end', () => {
		if (finished) return;
		finished = true;
		done(undefined, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
	});
	req.on('error', (error) => {
		if (finished) return;
		finished = true;
		done(error, undefined);
	});
}
