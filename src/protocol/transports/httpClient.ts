import * as http from 'node:http';
import * as https from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { Logger } from '../../common/logger';
import { ErrorCode } from '../jsonrpc';
import { isLocalFailure, McpError } from '../mcpError';
import { SlotTable } from '../../common/slotTable';
import { safeUrl } from './safeUrl';
import type { HttpAuthProvider } from './transport';
import { errorMessage } from '../../common/errors';

/** The default cap on one message (a JSON body or one SSE event), in bytes: large results pass, runaway streams do not. */
export const defaultMaxMessageBytes = 256 * 1024 * 1024;

export interface HttpClientOptions {
	/** Static headers sent on every request. Values are never logged. */
	headers?: Record<string, string> | undefined;
	/** Per-request credentials; consulted again after a 401 (or 403 insufficient_scope). */
	auth?: HttpAuthProvider | undefined;
	logger: Logger;
	/** Used in messages: the server's configured name. */
	name: string;
}

export interface HttpRequest {
	method: 'GET' | 'POST' | 'DELETE';
	url: URL;
	/** Request-specific headers (Accept, session id...). They override the static ones. */
	headers: Record<string, string>;
	body?: Buffer;
	/** A key under which the request can be aborted with `abort(tag)` (the transport uses the JSON-RPC id). */
	tag?: unknown;
	/** Give up when no response headers arrived within this many ms. Default: wait (the connection times requests out). */
	timeoutMs?: number;
}

/**
 * node:http(s) with one keep-alive agent per transport, so sequential requests reuse a socket and `destroy()`
 * leaves no socket behind. Undici `fetch` and web streams are avoided on purpose: they cost several times the
 * floor per request (see notes/performance.md). Nothing here adds a listener to a shared emitter per request.
 *
 * Authorization: static headers, then `auth.headers()` per request (with the request's method and URL, for DPoP
 * proofs); a 401, or a 403 whose WWW-Authenticate says `insufficient_scope`, asks `auth.onUnauthorized()` and retries
 * once when it resolves true, plus once more for a DPoP nonce challenge. Every response is shown to
 * `auth.onResponse()`. Without a provider the request fails with an Unauthorized McpError that says the server needs
 * authorization.
 */
export class HttpClient {
	private readonly agent: http.Agent;
	/** Requests in flight; slots, not a Set: see SlotTable (a Set here promoted every request at 64 in flight). */
	private readonly active = new SlotTable<http.ClientRequest>();
	/** The slot in `active` of the request sent with each tag (numbers to numbers: nothing for a scavenge to keep). */
	private readonly tagged = new Map<unknown, number>();
	private destroyed = false;
	private refreshing: Promise<boolean> | undefined;
	private readonly targets = new WeakMap<URL, http.RequestOptions>();
	/** Config headers with lower-case names; the transport's own (accept, session id...) are lower case too and win. */
	private readonly staticHeaders: Record<string, string>;
	/** The auth provider's headers as last sent (lower-case names), for `requestWithoutAuthFlow`. */
	private lastAuthHeaders: Record<string, string> = {};

	constructor(
		base: URL,
		private readonly options: HttpClientOptions,
	) {
		this.staticHeaders = Object.fromEntries(
			Object.entries(options.headers ?? {}).map(([key, value]) => [key.toLowerCase(), value]),
		);
		const Agent = base.protocol === 'https:' ? https.Agent : http.Agent;
		this.agent = new Agent({ keepAlive: true });
	}

	/** How many requests are in flight (tests check that closing leaves none). */
	get activeRequests(): number {
		return this.active.size;
	}

	/**
	 * Sends one request and resolves with the response once its headers arrived (the body is still to be read).
	 * Rejects with an McpError: TransportFailed for network errors (naming the URL and the error code),
	 * Unauthorized when the server wants credentials that could not be obtained, ConnectionClosed after destroy().
	 *
	 * Without an auth provider this is one promise from here to the response (no await on the way): every call of a
	 * Streamable HTTP client comes through here, and each async layer was allocations and microtask turns.
	 */
	request(req: HttpRequest, signal?: AbortSignal): Promise<IncomingMessage> {
		if (!this.options.auth) {
			const headers = this.headersFor(req);
			this.traceRequest(req, headers);
			return this.send(req, headers, true);
		}
		return this.requestWithAuthFlow(req, signal);
	}

	/** `request` with an auth provider: its headers per request, and the resends after a 401 (see the class comment). */
	private async requestWithAuthFlow(req: HttpRequest, signal: AbortSignal | undefined): Promise<IncomingMessage> {
		let res = await this.requestWithAuth(req, signal);
		// One resend after new credentials, and one after a DPoP nonce challenge (RFC 9449 section 9: a resource server
		// that wants a fresh nonce answers 401 `WWW-Authenticate: DPoP error="use_dpop_nonce"` with the nonce in
		// `DPoP-Nonce`). Both can happen to one request: the first request after a sign-in meets the nonce challenge.
		let renewed = false;
		let nonceResent = false;
		while (isAuthChallenge(res)) {
			const wwwAuthenticate = headerValue(res, 'www-authenticate');
			const status = res.statusCode ?? 0;
			res.resume();
			const auth = this.options.auth;
			if (!auth) {
				throw this.noCredentials(req, status, wwwAuthenticate);
			}
			const nonce = status === 401 && isDPoPNonceChallenge(wwwAuthenticate);
			if (nonce ? nonceResent : renewed) {
				throw new McpError(
					ErrorCode.Unauthorized,
					nonce
						? `${this.options.name}: the server asked for a DPoP nonce again after the request was sent with the nonce it gave (HTTP ${status})`
						: `${this.options.name}: the server refused the new credentials too (HTTP ${status})`,
					{ status, wwwAuthenticate },
				);
			}
			let retry: boolean;
			try {
				// Concurrent requests that meet the same credentials challenge share one refresh; a nonce is no flow.
				retry = nonce
					? await auth.onUnauthorized({ status, wwwAuthenticate, url: req.url.href }, signal)
					: await (this.refreshing ??= auth
							.onUnauthorized({ status, wwwAuthenticate, url: req.url.href }, signal)
							.finally(() => (this.refreshing = undefined)));
			} catch (error) {
				// The OAuth client's own errors already name the server and the step that failed: one message, not two.
				if (isLocalFailure(error, 'unauthorized')) throw error;
				throw new McpError(
					ErrorCode.Unauthorized,
					`${this.options.name}: authorization failed: ${errorMessage(error)}`,
					{ status },
					{ cause: error },
				);
			}
			if (!retry) {
				throw new McpError(
					ErrorCode.Unauthorized,
					`${this.options.name}: the server refused the credentials (HTTP ${status}) and no new ones were obtained`,
					{
						status,
						wwwAuthenticate,
					},
				);
			}
			if (nonce) {
				nonceResent = true;
			} else {
				renewed = true;
			}
			res = await this.requestWithAuth(req, signal);
		}
		return res;
	}

	/**
	 * Sends one request with the static headers and the credentials held now, without the 401 handling: whatever the
	 * answer, it is returned. The credentials come from the provider's `currentHeaders` (no refresh, no sign-in, a new
	 * DPoP proof for this request), else they are the ones last sent. For the session DELETE on close, which must
	 * never start a token refresh or a browser sign-in (Stop, Restart and deactivation would wait on a person).
	 * Rejects like `request` for network errors.
	 */
	async requestWithoutAuthFlow(req: HttpRequest): Promise<IncomingMessage> {
		let authHeaders = this.lastAuthHeaders;
		const auth = this.options.auth;
		if (auth?.currentHeaders) {
			try {
				authHeaders = lowerCaseNames(await auth.currentHeaders({ method: req.method, url: req.url }));
			} catch (error) {
				this.options.logger.debug(
					`${this.options.name}: no current credentials for ${req.method} (${errorMessage(error)}); sending the last ones`,
				);
			}
		}
		const headers: Record<string, string> = Object.assign({}, this.staticHeaders, authHeaders, req.headers);
		if (req.body) {
			headers['content-length'] = String(req.body.length);
		}
		return this.send(req, headers, false);
	}

	/** Aborts the request sent with `tag`, whether it waits for headers or streams its body. False when there is none. */
	abort(tag: unknown): boolean {
		const request = this.active.get(this.tagged.get(tag));
		if (!request) {
			return false;
		}
		this.tagged.delete(tag);
		request.destroy();
		return true;
	}

	/** Aborts every request in flight (their sockets close); new requests still work. */
	abortAll(): void {
		this.tagged.clear();
		for (const req of this.active.clear()) {
			req.destroy();
		}
	}

	/** Aborts every request in flight and closes every socket. Idempotent. */
	destroy(): void {
		this.destroyed = true;
		this.abortAll();
		this.agent.destroy();
	}

	/** Host, port and path of a URL, computed once per URL (node would convert the URL object on every request). */
	private target(url: URL): http.RequestOptions {
		let target = this.targets.get(url);
		if (!target) {
			target = {
				protocol: url.protocol,
				// An IPv6 literal comes bracketed in URL.hostname; the request options want it bare.
				hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
				port: url.port === '' ? undefined : Number(url.port),
				path: url.pathname + url.search,
				auth:
					url.username || url.password
						? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
						: undefined,
			};
			this.targets.set(url, target);
		}
		return target;
	}

	private async requestWithAuth(req: HttpRequest, signal: AbortSignal | undefined): Promise<IncomingMessage> {
		let authHeaders: Record<string, string> | undefined;
		if (this.options.auth) {
			// Lower-cased, so a provider's 'Authorization' replaces a configured 'authorization' instead of adding a second.
			authHeaders = lowerCaseNames(await this.options.auth.headers(signal, { method: req.method, url: req.url }));
			this.lastAuthHeaders = authHeaders;
		}
		const headers = this.headersFor(req, authHeaders);
		this.traceRequest(req, headers);
		return this.send(req, headers, false);
	}

	/**
	 * The headers of one request: the static ones, the request's own over them, then the provider's credentials, and
	 * the body's length. Object.assign, not `{ ...a, ...b }`: on Node 20 a spread followed by more properties takes
	 * V8's slow path, several µs per request (measured: ~6 µs for these headers, ~0.2 µs with Object.assign).
	 */
	private headersFor(req: HttpRequest, authHeaders?: Record<string, string>): Record<string, string> {
		const headers: Record<string, string> = Object.assign({}, this.staticHeaders, req.headers);
		if (authHeaders) Object.assign(headers, authHeaders);
		if (req.body) {
			headers['content-length'] = String(req.body.length);
		}
		return headers;
	}

	private traceRequest(req: HttpRequest, headers: Record<string, string>): void {
		const logger = this.options.logger;
		if (logger.traceEnabled) {
			// Header names only: values may carry tokens.
			logger.trace(`${req.method} ${safeUrl(req.url)} [${Object.keys(headers).join(', ')}]`);
		}
	}

	/** The Unauthorized error of a server that wants credentials when there is no provider to ask. */
	private noCredentials(req: HttpRequest, status: number, wwwAuthenticate: string | undefined): McpError {
		return new McpError(
			ErrorCode.Unauthorized,
			`${this.options.name}: the server at ${safeUrl(req.url)} needs authorization (HTTP ${status}); configure credentials (an Authorization header or OAuth)`,
			{ status, wwwAuthenticate },
		);
	}

	/**
	 * Sends one request and resolves with its response once the headers arrived. A request that fails at once because
	 * the kept-alive socket it went out on had been closed by the server while idle is sent once more on a fresh socket
	 * (safe: the server never saw the first attempt). With `challengeFails` (no auth provider), an auth challenge
	 * (401, or 403 insufficient_scope) rejects with the Unauthorized error that says so.
	 */
	private send(req: HttpRequest, headers: Record<string, string>, challengeFails: boolean): Promise<IncomingMessage> {
		return new Promise((resolve, reject) => this.attempt(req, headers, challengeFails, true, resolve, reject));
	}

	private attempt(
		req: HttpRequest,
		headers: Record<string, string>,
		challengeFails: boolean,
		mayResend: boolean,
		resolve: (res: IncomingMessage) => void,
		reject: (error: unknown) => void,
	): void {
		if (this.destroyed) {
			reject(McpError.connectionClosed(`${this.options.name}: the transport is closed`));
			return;
		}
		// One literal, not a spread of the cached target plus more properties (V8's slow path; see requestWithAuth).
		const target = this.target(req.url);
		const request = (req.url.protocol === 'https:' ? https : http).request({
			protocol: target.protocol,
			hostname: target.hostname,
			port: target.port,
			path: target.path,
			auth: target.auth,
			method: req.method,
			headers,
			agent: this.agent,
		});
		const slot = this.active.add(request);
		const tag = req.tag;
		if (tag !== undefined) {
			this.tagged.set(tag, slot);
		}
		// Once per request, whichever of its response's close and its error comes first (or both).
		const finished = (): void => {
			if (this.active.remove(slot, request) && tag !== undefined && this.tagged.get(tag) === slot) {
				this.tagged.delete(tag);
			}
		};
		if (req.timeoutMs !== undefined) {
			request.setTimeout(req.timeoutMs, () =>
				request.destroy(Object.assign(new Error(`no answer within ${req.timeoutMs} ms`), { code: 'ETIMEDOUT' })),
			);
		}
		let responded = false;
		request.on('response', (res) => {
			responded = true;
			this.options.auth?.onResponse?.({ url: req.url, status: res.statusCode ?? 0, headers: res.headers });
			res.on('close', finished);
			if (challengeFails && isAuthChallenge(res)) {
				const wwwAuthenticate = headerValue(res, 'www-authenticate');
				res.resume();
				reject(this.noCredentials(req, res.statusCode ?? 0, wwwAuthenticate));
				return;
			}
			resolve(res);
		});
		request.on('error', (error: NodeJS.ErrnoException) => {
			finished();
			if (this.destroyed) {
				reject(McpError.connectionClosed(`${this.options.name}: the transport is closed`));
				return;
			}
			if (mayResend && !responded && request.reusedSocket && error.code === 'ECONNRESET') {
				// A keep-alive socket the server closed while idle fails the next request at once; sending again on a
				// fresh socket is safe because the server never saw the first attempt.
				this.attempt(req, headers, challengeFails, false, resolve, reject);
				return;
			}
			const failure = new McpError(
				ErrorCode.TransportFailed,
				`${this.options.name}: ${req.method} ${safeUrl(req.url)} failed: ${error.code ?? error.message}${error.code ? ` (${error.message})` : ''}`,
				{ code: error.code, url: safeUrl(req.url) },
				{ cause: error },
			);
			reject(failure);
		});
		request.end(req.body);
	}
}

/** Header names in lower case, so one provider's 'Authorization' replaces another's 'authorization'. */
function lowerCaseNames(headers: Record<string, string>): Record<string, string> {
	const lower: Record<string, string> = {};
	for (const [key, value] of Object.entries(headers)) {
		lower[key.toLowerCase()] = value;
	}
	return lower;
}

/** A 401 asking for a DPoP nonce (RFC 9449 section 9): `WWW-Authenticate: DPoP error="use_dpop_nonce"`. */
function isDPoPNonceChallenge(wwwAuthenticate: string | undefined): boolean {
	return wwwAuthenticate !== undefined && /\buse_dpop_nonce\b/i.test(wwwAuthenticate);
}

function isAuthChallenge(res: IncomingMessage): boolean {
	return (
		res.statusCode === 401 ||
		(res.statusCode === 403 && /insufficient_scope/i.test(headerValue(res, 'www-authenticate') ?? ''))
	);
}

/** A response header as one string (the first value when repeated). */
export function headerValue(res: IncomingMessage, name: string): string | undefined {
	const value = res.headers[name];
	return Array.isArray(value) ? value[0] : value;
}

/** The media type of a response without parameters, lower case ('' when absent). */
export function mediaType(res: IncomingMessage): string {
	const value = headerValue(res, 'content-type') ?? '';
	const semi = value.indexOf(';');
	return (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase();
}

/**
 * Reads a whole body. Rejects with a ProtocolViolation McpError past `maxBytes` (and stops reading), or with
 * TransportFailed when the connection drops first.
 */
export function readBody(res: IncomingMessage, maxBytes: number, what: string): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		res.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > maxBytes) {
				res.destroy();
				reject(
					new McpError(ErrorCode.ProtocolViolation, `${what}: the reply is larger than ${maxBytes} bytes`, {
						maxBytes,
					}),
				);
				return;
			}
			chunks.push(chunk);
		});
		res.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
		res.on('error', (error) =>
			reject(
				new McpError(ErrorCode.TransportFailed, `${what}: the reply was cut off (${error.message})`, undefined, {
					cause: error,
				}),
			),
		);
		res.on('close', () => {
			if (!res.complete) {
				reject(new McpError(ErrorCode.TransportFailed, `${what}: the reply was cut off`));
			}
		});
	});
}

/** Up to `max` bytes of a body, for error messages (a stuck body gives up after `ms`). */
export async function peekBody(res: IncomingMessage, max = 200, ms = 2000): Promise<string> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let done = false;
		const finish = () => {
			if (done) {
				return;
			}
			done = true;
			clearTimeout(timer);
			res.removeAllListeners('data');
			res.destroy();
			resolve(describeBytes(Buffer.concat(chunks, Math.min(size, max)).subarray(0, max), size > max));
		};
		const timer = setTimeout(finish, ms);
		res.on('data', (chunk: Buffer) => {
			chunks.push(chunk);
			size += chunk.length;
			if (size >= max) {
				finish();
			}
		});
		res.on('end', finish);
		res.on('error', finish);
		res.on('close', finish);
	});
}

/** The first bytes of a body, printable, quoted, for an error message. */
export function describeBytes(bytes: Buffer, more = false): string {
	// eslint-disable-next-line no-control-regex
	const unprintable = /[\x00-\x1f\x7f]+/g;
	const text = bytes.toString('utf8').replace(unprintable, ' ').trim();
	return text === '' ? 'an empty body' : JSON.stringify(text) + (more ? '…' : '');
}

/** A short description of an unexpected reply: "HTTP 500 (text/html): \"<html>...\"". */
export async function describeReply(res: IncomingMessage): Promise<string> {
	const type = headerValue(res, 'content-type') ?? 'no content type';
	return `HTTP ${res.statusCode ?? 0} (${type}): ${await peekBody(res)}`;
}

/**
 * The JSON-RPC messages in one JSON text: an array (a batch from an older server) gives its elements.
 * Throws a SyntaxError for text that is not JSON.
 */
export function parseMessages(text: string): unknown[] {
	const value: unknown = JSON.parse(text);
	return Array.isArray(value) ? value : [value];
}

/** Reads and drops a body; resolves when it ended or the connection closed. */
export function drain(res: IncomingMessage): Promise<void> {
	return new Promise((resolve) => {
		if (res.readableEnded || res.destroyed) {
			resolve();
			return;
		}
		// Wait for 'end' even when the body is empty: the agent frees the socket only after it.
		res.on('end', resolve);
		res.on('close', resolve);
		res.resume();
	});
}
