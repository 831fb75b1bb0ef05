import type { IncomingMessage } from 'node:http';
import { delay } from '../../common/async';
import { ErrorCode, isRequest, isResponse, type JsonRpcMessage, type JsonRpcRequest, type RequestId } from '../jsonrpc';
import { isLocalFailure, McpError } from '../mcpError';
import { standardHeaders } from '../modern/httpHeaders';
import { isModernVersion } from '../protocolConstants';
import { describeBytes, describeReply, drain, headerValue, mediaType, parseMessages, readBody } from './httpClient';
import { errorMessage } from '../../common/errors';
import { HttpTransportBase, type HttpTransportOptions } from './httpTransportBase';
import { LegacySseTransport } from './legacySse';
import { safeUrl } from './safeUrl';
import { readInitializeRefusal, sessionGone, throwModernError } from './streamableHttpReplies';
import { readSse, SseDecoder, type SseEvent } from './sseEvents';
import type { Transport, TransportKind } from './transport';

/** `url` is the MCP endpoint (http: or https:). */
export interface StreamableHttpTransportOptions extends HttpTransportOptions {
	/**
	 * When the `initialize` POST is answered 400, 404 or 405, talk legacy HTTP+SSE (2024-11-05) to the same URL
	 * instead. Default false; `createTransport` turns it on for `type: 'http'`.
	 */
	fallbackToSse?: boolean | undefined;
	/** Open the optional GET listening stream after initialization. Default true. */
	listen?: boolean | undefined;
	/** Delay before reconnecting a stream when the server sent no `retry:`; doubles per failed attempt. Default 1000 ms. */
	reconnectDelayMs?: number | undefined;
	/** Cap of the reconnect delay. Default 30000 ms. */
	maxReconnectDelayMs?: number | undefined;
	/** Attempts to resume one reply stream that was cut before its response. Default 5. */
	maxResumeAttempts?: number | undefined;
}

/** Per SSE stream: what is needed to resume it and to know when it is done. */
interface StreamState {
	/** The request this stream answers (undefined for the GET listening stream). */
	readonly requestId: RequestId | undefined;
	readonly method: string;
	lastEventId: string | undefined;
	retryMs: number | undefined;
	answered: boolean;
	/** Events delivered since the last (re)connect; a stream that delivers something resets the attempt count. */
	progressed: boolean;
}

const acceptBoth = 'application/json, text/event-stream';
/** Event ids are unique per session (spec); this many are remembered to drop replays. */
const seenEventIdLimit = 10_000;

/**
 * The Streamable HTTP transport of MCP 2025-11-25.
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
 *
 * - Every message is a POST; a request is answered by JSON or by an SSE stream that may carry server requests and
 *   notifications before the response; notifications and responses are answered 202.
 * - `Mcp-Session-Id` from the initialize reply goes on every later request; `MCP-Protocol-Version` once set.
 * - After `notifications/initialized` the optional GET listening stream opens (405 means the server offers none);
 *   it reconnects with backoff and `Last-Event-ID`.
 * - A reply stream cut before its response resumes with GET + `Last-Event-ID` after the server's `retry:` delay.
 *   A stream that carried its response (success or error) is never resumed. Events whose id was seen already
 *   (servers replay across streams) and priming events with empty data are dropped.
 * - A 404 to a request carrying the session id means the session is gone: the transport closes with an McpError
 *   whose data is `{ sessionExpired: true }`, so the owner starts a new session.
 * - A request whose reply is garbage, HTML or an HTTP error fails alone: `send()` rejects, or, when the failure is
 *   found after `send()` resolved (a reply stream), an error response for that request id is delivered.
 * - `close()` sends DELETE with the session id and closes every socket.
 * - With `fallbackToSse`, an initialize answered 400/404/405 switches to legacy HTTP+SSE; `kind` then says 'sse'.
 *
 * With a modern protocol version set (2026-07-28; see setProtocolVersion) the same endpoint is used without sessions:
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
 * - Every POST carries `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` (tools/call, prompts/get, resources/read)
 *   and the client's `Mcp-Param-*` headers.
 * - A 4xx whose body is a JSON-RPC error (UnsupportedProtocolVersion, HeaderMismatch, ...) rejects `send()` with that
 *   error, code and data as the server sent them, so the client can retry or fall back.
 * - Cancellation is closing the request's stream ("Closing the SSE response stream MUST be treated by the server as
 *   cancellation"): `notifications/cancelled` is not POSTed.
 * - A reply stream cut before its response is not resumed ("A broken response stream loses the in-flight request"):
 *   the request fails with `data.streamBroken`, which the client answers by sending it again with a new id.
 */
export class StreamableHttpTransport extends HttpTransportBase implements Transport {
	private readonly seenEventIds = new Set<string>();
	/** Reply streams still being read, by request id (to stop one when its request is cancelled). */
	private readonly replyStreams = new Map<RequestId, StreamState>();

	private currentSessionId: string | undefined;
	private protocolVersion: string | undefined;
	private postHeaders: Record<string, string> = { accept: acceptBoth, 'content-type': 'application/json' };
	private fallback: LegacySseTransport | undefined;
	private fallbackStarting: Promise<void> | undefined;
	private listening = false;
	/** A 2026-07-28 version is in use: no sessions, mirrored headers, no resumption. */
	private modern = false;
	private requestHeaders: ((message: JsonRpcRequest) => Record<string, string> | undefined) | undefined;

	constructor(private readonly options: StreamableHttpTransportOptions) {
		super(options);
	}

	/** 'http' until a fallback to legacy SSE happened, then 'sse'. */
	get kind(): TransportKind {
		return this.fallback ? 'sse' : 'http';
	}

	/** The transport in use after negotiation (same as `kind`). */
	get negotiatedKind(): TransportKind {
		return this.kind;
	}

	get sessionId(): string | undefined {
		return this.fallback ? this.fallback.sessionId : this.currentSessionId;
	}

	/** Does no I/O (HTTP has nothing to open before the first POST); rejects only for a URL that is not http(s). */
	async start(): Promise<void> {
		if (this.url.protocol !== 'http:' && this.url.protocol !== 'https:') {
			throw new McpError(ErrorCode.TransportFailed, `${this.name}: ${safeUrl(this.url)} is not an http(s) URL`);
		}
	}

	setProtocolVersion(version: string | undefined): void {
		this.protocolVersion = version;
		this.modern = version !== undefined && isModernVersion(version);
		this.fallback?.setProtocolVersion(version);
		this.updateHeaders();
	}

	setRequestHeaders(provider: (message: JsonRpcRequest) => Record<string, string> | undefined): void {
		this.requestHeaders = provider;
	}

	async send(message: JsonRpcMessage, text?: string): Promise<void> {
		if (this.fallbackStarting) {
			await this.fallbackStarting;
		}
		if (this.fallback) {
			return this.fallback.send(message, text);
		}
		this.throwIfClosed();
		const method = 'method' in message ? message.method : 'response';
		const requestId = isRequest(message) ? message.id : undefined;
		const modern = this.modern;
		if (modern && method === 'notifications/cancelled') {
			// "on Streamable HTTP, closing the SSE response stream is itself the cancellation signal"
			this.logger.debug(
				`${this.name}: cancelling request ${JSON.stringify((message as { params?: { requestId?: unknown } }).params?.requestId)} by closing its stream`,
			);
			this.release(message);
			return;
		}
		const isInitialize = method === 'initialize' && requestId !== undefined;
		const sentSessionId = this.currentSessionId;
		// The POST inline, not through a helper: one async layer less on every call.
		let res: IncomingMessage;
		try {
			res = await this.http.request(
				{
					method: 'POST',
					url: this.url,
					headers: modern ? this.modernHeaders(message) : this.postHeaders,
					body: Buffer.from(text ?? JSON.stringify(message)),
					tag: requestId,
				},
				this.lifetime.signal,
			);
		} catch (error) {
			this.throwIfClosed();
			this.closeIfRefused(error);
			throw error;
		}
		const status = res.statusCode ?? 0;
		if (method === 'notifications/cancelled') {
			this.release(message);
		}
		if (status < 200 || status >= 300) {
			return this.refusedPost(message, res, method, sentSessionId, isInitialize, modern);
		}
		if (status === 202 || status === 204) {
			// Drained before resolving, so the socket is back in the pool for the next request.
			await drain(res);
			this.afterAccepted(method);
			return;
		}
		if (isInitialize) {
			this.currentSessionId = headerValue(res, 'mcp-session-id');
			this.updateHeaders();
			// The session id is a bearer of the session: debug level only.
			this.logger.info(`${this.name}: using Streamable HTTP at ${safeUrl(this.url)}`);
			if (this.currentSessionId) {
				this.logger.debug(`${this.name}: session ${this.currentSessionId}`);
			}
		}
		const type = mediaType(res);
		if (type === 'text/event-stream') {
			this.readReplyStream(res, requestId, method);
			this.afterAccepted(method);
			return;
		}
		if (type === 'application/json') {
			const body = await readBody(res, this.maxBytes, `${this.name}: ${method}`);
			let messages: unknown[];
			try {
				messages = parseMessages(body.toString('utf8'));
			} catch {
				throw new McpError(
					ErrorCode.ProtocolViolation,
					`${this.name}: the server answered ${method} with invalid JSON (HTTP ${status}): ${describeBytes(body.subarray(0, 200), body.length > 200)}`,
					{
						status,
					},
				);
			}
			this.deliver(messages);
			this.afterAccepted(method);
			return;
		}
		if (requestId === undefined && res.headers['content-length'] === '0') {
			// Some servers answer a notification 200 with an empty body instead of 202.
			await drain(res);
			this.afterAccepted(method);
			return;
		}
		throw new McpError(
			ErrorCode.ProtocolViolation,
			`${this.name}: the server answered ${method} with neither JSON nor an event stream: ${await describeReply(res)}`,
			{ status },
		);
	}

	/**
	 * A POST answered outside 2xx: a 2026-07-28 JSON-RPC error, an `initialize` for the legacy fallback, a session that
	 * is gone, or an HTTP error. Rejects (or falls back); apart from `send()` so its common path stays short.
	 */
	private async refusedPost(
		message: JsonRpcMessage,
		res: IncomingMessage,
		method: string,
		sentSessionId: string | undefined,
		isInitialize: boolean,
		modern: boolean,
	): Promise<void> {
		const status = res.statusCode ?? 0;
		if (modern && status >= 400 && status < 500 && status !== 401 && status !== 403) {
			await throwModernError(res, this.name, method);
		}

		if (isInitialize && this.options.fallbackToSse && (status === 400 || status === 404 || status === 405)) {
			return this.refusedInitialize(message, res);
		}
		// Only a 404 or a 400 can say the session is gone: no await on the way of every other answer.
		if (sentSessionId !== undefined && (status === 404 || status === 400)) {
			const check = await sessionGone(res);
			if (check.gone) {
				throw this.sessionExpired(sentSessionId, method, status);
			}
			if (check.body !== undefined) {
				throw new McpError(
					ErrorCode.TransportFailed,
					`${this.name}: the server answered ${method} with HTTP ${status} (${headerValue(res, 'content-type') ?? 'no content type'}): ${check.body}`,
					{ status },
				);
			}
		}
		throw new McpError(
			ErrorCode.TransportFailed,
			`${this.name}: the server answered ${method} with ${await describeReply(res)}`,
			{ status },
		);
	}

	/** Reads a reply stream in the background (send() resolves once the server accepted the message). */
	private readReplyStream(res: IncomingMessage, requestId: RequestId | undefined, method: string): void {
		// The stream is read in the background: send() resolves once the server accepted the message.
		const state: StreamState = {
			requestId,
			method,
			lastEventId: undefined,
			retryMs: undefined,
			answered: false,
			progressed: false,
		};
		if (requestId !== undefined) {
			this.replyStreams.set(requestId, state);
		}
		void this.readStream(res, state).finally(() => {
			if (requestId !== undefined && this.replyStreams.get(requestId) === state) {
				this.replyStreams.delete(requestId);
			}
		});
	}

	close(): Promise<void> {
		return this.shutdown(McpError.connectionClosed(`${this.name}: closed by the client`), true);
	}

	/**
	 * Nothing listens at the URL any more (the server stopped or restarted, and its sessions with it): close, so the
	 * owner reconnects with its own backoff instead of every request failing one by one. Other network errors
	 * (reset, timeout) fail only their request.
	 */
	private closeIfRefused(error: unknown): void {
		if (
			error instanceof McpError &&
			(error.data as { code?: unknown } | undefined)?.code === 'ECONNREFUSED' &&
			!this.closing
		) {
			void this.shutdown(
				McpError.connectionClosed(
					`${this.name}: the server at ${this.url.origin} refused the connection (ECONNREFUSED); is it running?`,
					{ code: 'ECONNREFUSED' },
				),
				false,
			);
		}
	}

	/**
	 * After `notifications/cancelled` went out, nothing more is wanted from that request: its POST (or reply stream)
	 * is closed, so a server that never answers does not hold a socket per abandoned request. The spec makes the
	 * notification, not the disconnection, the cancellation, so this is only cleanup.
	 */
	private release(message: JsonRpcMessage): void {
		const requestId = (message as { params?: { requestId?: unknown } }).params?.requestId;
		if (typeof requestId !== 'string' && typeof requestId !== 'number') {
			return;
		}
		const stream = this.replyStreams.get(requestId);
		if (stream) {
			stream.answered = true; // no resume, no synthesized error
		}
		this.http.abort(requestId);
	}

	/** The POST headers of a modern request: the fixed ones, Mcp-Method / Mcp-Name, and the client's Mcp-Param-*. */
	private modernHeaders(message: JsonRpcMessage): Record<string, string> {
		if (!('method' in message)) return this.postHeaders;
		const params = message.params;
		const extra = isRequest(message) ? this.requestHeaders?.(message) : undefined;
		return { ...this.postHeaders, ...extra, ...standardHeaders(message.method, params) };
	}

	private updateHeaders(): void {
		const headers: Record<string, string> = { accept: acceptBoth, 'content-type': 'application/json' };
		if (this.currentSessionId !== undefined) {
			headers['mcp-session-id'] = this.currentSessionId;
		}
		if (this.protocolVersion !== undefined) {
			headers['mcp-protocol-version'] = this.protocolVersion;
		}
		this.postHeaders = headers;
	}

	private getHeaders(lastEventId: string | undefined): Record<string, string> {
		const headers: Record<string, string> = { accept: 'text/event-stream' };
		if (this.currentSessionId !== undefined) {
			headers['mcp-session-id'] = this.currentSessionId;
		}
		if (this.protocolVersion !== undefined) {
			headers['mcp-protocol-version'] = this.protocolVersion;
		}
		if (lastEventId !== undefined) {
			headers['last-event-id'] = lastEventId;
		}
		return headers;
	}

	private afterAccepted(method: string): void {
		if (method === 'notifications/initialized' && !this.listening && this.options.listen !== false) {
			this.listening = true;
			void this.listen();
		}
	}

	private deliver(messages: unknown[]): void {
		for (const message of messages) {
			if (this.closing) {
				return;
			}
			this.messageEmitter.fire(message);
		}
	}

	/** Fails one request whose reply broke after send() resolved, by delivering an error response for its id. */
	private failRequest(state: StreamState, message: string, data?: Record<string, unknown>): void {
		if (state.requestId === undefined || state.answered || this.closing) {
			return;
		}
		state.answered = true;
		this.logger.warn(message);
		this.messageEmitter.fire({
			jsonrpc: '2.0',
			id: state.requestId,
			error:
				data === undefined
					? { code: ErrorCode.TransportFailed, message }
					: { code: ErrorCode.TransportFailed, message, data },
		});
	}

	private onEvent(event: SseEvent, state: StreamState): void {
		if (event.id !== undefined && event.id !== '') {
			if (this.seenEventIds.has(event.id)) {
				// A replay of an event already delivered (servers replay across streams after Last-Event-ID).
				return;
			}
			this.seenEventIds.add(event.id);
			if (this.seenEventIds.size > seenEventIdLimit) {
				const oldest = this.seenEventIds.values().next().value;
				if (oldest !== undefined) {
					this.seenEventIds.delete(oldest);
				}
			}
		}
		// Priming events carry an id and empty data so the client can resume (spec 2025-11-25).
		if (event.data === '' || (event.event !== undefined && event.event !== 'message')) {
			return;
		}
		state.progressed = true;
		const messages = this.parseEventData(event.data);
		if (!messages) {
			return;
		}
		for (const message of messages) {
			if (state.requestId !== undefined && isResponse(message) && message.id === state.requestId) {
				state.answered = true;
			}
		}
		this.deliver(messages);
	}

	/** Reads a reply stream to its end and resumes it while its response is still missing. */
	private async readStream(res: IncomingMessage, state: StreamState): Promise<void> {
		let attempts = 0;
		for (;;) {
			const decoder = new SseDecoder({ onEvent: (event) => this.onEvent(event, state) }, this.maxBytes);
			decoder.lastEventId = state.lastEventId;
			state.progressed = false;
			const end = await readSse(res, decoder);
			state.lastEventId = decoder.lastEventId;
			state.retryMs = decoder.retryMs ?? state.retryMs;
			if (this.closing || state.answered) {
				return;
			}
			if (decoder.overflow) {
				this.failRequest(state, `${this.name}: the reply to ${state.method} is larger than ${this.maxBytes} bytes`);
				return;
			}
			const why = end.clean ? 'ended' : `was cut (${end.reason ?? 'unknown reason'})`;
			if (this.modern) {
				// "Resumable SSE streams via Last-Event-ID are not supported" in 2026-07-28; the client sends the request again.
				this.failRequest(state, `${this.name}: the reply stream for ${state.method} ${why} before the response`, {
					streamBroken: true,
				});
				return;
			}
			if (state.lastEventId === undefined) {
				this.failRequest(
					state,
					`${this.name}: the reply stream for ${state.method} ${why} before the response and cannot be resumed (the server sent no event ids)`,
				);
				return;
			}
			attempts = state.progressed ? 1 : attempts + 1;
			const maxAttempts = this.options.maxResumeAttempts ?? 5;
			let resumed: IncomingMessage | undefined;
			let failure = '';
			while (!resumed && attempts <= maxAttempts) {
				try {
					await delay(this.retryDelay(state, attempts), this.lifetime.signal);
				} catch {
					return; // closed
				}
				this.logger.debug(
					`${this.name}: the reply stream for ${state.method} ${why}; resuming after event ${state.lastEventId}`,
				);
				const result = await this.openGet(state.lastEventId, state.requestId);
				if (this.closing || state.answered) {
					result.res?.resume();
					return;
				}
				if (result.res) {
					resumed = result.res;
				} else {
					failure = result.error;
					if (result.final) {
						break;
					}
					attempts++;
				}
			}
			if (!resumed) {
				this.failRequest(
					state,
					`${this.name}: the reply stream for ${state.method} ${why} before the response and could not be resumed: ${failure}`,
				);
				return;
			}
			res = resumed;
		}
	}

	/** The GET listening stream: server requests and notifications outside any request. */
	private async listen(): Promise<void> {
		const state: StreamState = {
			requestId: undefined,
			method: 'GET stream',
			lastEventId: undefined,
			retryMs: undefined,
			answered: false,
			progressed: false,
		};
		let attempts = 0;
		while (!this.closing) {
			const result = await this.openGet(state.lastEventId);
			if (this.closing) {
				result.res?.resume();
				return;
			}
			if (result.res) {
				const decoder = new SseDecoder({ onEvent: (event) => this.onEvent(event, state) }, this.maxBytes);
				decoder.lastEventId = state.lastEventId;
				state.progressed = false;
				const end = await readSse(result.res, decoder);
				state.lastEventId = decoder.lastEventId;
				state.retryMs = decoder.retryMs ?? state.retryMs;
				attempts = state.progressed || end.clean ? 1 : attempts + 1;
				if (!this.closing) {
					this.logger.debug(
						`${this.name}: the listening stream ${end.clean ? 'ended' : `was cut (${end.reason ?? ''})`}; reconnecting`,
					);
				}
			} else if (result.status === 405) {
				// "The server MUST either return Content-Type: text/event-stream ... or else return HTTP 405"
				this.logger.debug(`${this.name}: the server offers no listening stream (HTTP 405)`);
				return;
			} else if (result.final) {
				this.logger.warn(`${this.name}: the listening stream is not available: ${result.error}`);
				return;
			} else {
				attempts++;
				this.logger.debug(`${this.name}: the listening stream failed: ${result.error}`);
			}
			try {
				await delay(this.retryDelay(state, attempts), this.lifetime.signal);
			} catch {
				return;
			}
		}
	}

	/**
	 * Opens a GET event stream. Returns the response, or why not and whether trying again makes sense.
	 * A 404 with a session id closes the transport (session expired).
	 */
	private async openGet(
		lastEventId: string | undefined,
		tag?: RequestId,
	): Promise<{ res?: IncomingMessage; status?: number; error: string; final: boolean }> {
		let res: IncomingMessage;
		try {
			res = await this.http.request(
				{ method: 'GET', url: this.url, headers: this.getHeaders(lastEventId), tag },
				this.lifetime.signal,
			);
		} catch (error) {
			this.closeIfRefused(error);
			const final = isLocalFailure(error, 'unauthorized');
			return { error: errorMessage(error), final };
		}
		const status = res.statusCode ?? 0;
		const check = this.currentSessionId !== undefined ? await sessionGone(res) : { gone: false };
		if (check.gone && this.currentSessionId !== undefined) {
			this.sessionExpired(this.currentSessionId, 'GET', status);
			return { status, error: 'the session expired', final: true };
		}
		if (check.body !== undefined) {
			return { status, error: `HTTP ${status}: ${check.body}`, final: true };
		}
		if (status >= 200 && status < 300 && mediaType(res) === 'text/event-stream') {
			return { res, status, error: '', final: false };
		}
		const error = await describeReply(res);
		return {
			status,
			error,
			final: status === 405 || (status >= 400 && status < 500 && status !== 408 && status !== 429),
		};
	}

	private retryDelay(state: StreamState, attempts: number): number {
		if (state.retryMs !== undefined && attempts <= 1) {
			return state.retryMs;
		}
		const base = state.retryMs ?? this.options.reconnectDelayMs ?? 1000;
		return Math.min(base * 2 ** Math.max(0, attempts - 1), this.options.maxReconnectDelayMs ?? 30_000);
	}

	private sessionExpired(sessionId: string, method: string, status: number): McpError {
		const error = McpError.connectionClosed(
			`${this.name}: the session expired (the server answered ${method} with HTTP ${status} for session ${sessionId}); a new session is needed`,
			{ sessionExpired: true, status, sessionId },
		);
		void this.shutdown(error, false);
		return error;
	}

	/** An `initialize` answered 400, 404 or 405: a 2026-07-28 refusal goes to the client, anything else falls back. */
	private async refusedInitialize(message: JsonRpcMessage, res: IncomingMessage): Promise<void> {
		return this.fallBack(message, await readInitializeRefusal(res, this.name));
	}

	private async fallBack(initialize: JsonRpcMessage, reply: string): Promise<void> {
		this.logger.info(
			`${this.name}: ${safeUrl(this.url)} answered initialize with ${reply}; falling back to the legacy HTTP+SSE transport`,
		);
		// The same endpoint, credentials and limits; the Streamable-only options mean nothing there.
		const legacy = new LegacySseTransport({ ...this.options, logger: this.logger, name: this.name });
		legacy.onMessage((message) => this.messageEmitter.fire(message));
		legacy.onClose((error) => void this.shutdown(error, false));
		const starting = legacy.start();
		this.fallbackStarting = starting.then(
			() => undefined,
			() => undefined,
		);
		try {
			await starting;
		} catch (error) {
			void legacy.close();
			throw new McpError(
				ErrorCode.TransportFailed,
				`${this.name}: ${safeUrl(this.url)} answered initialize with ${reply}, and the legacy HTTP+SSE fallback failed too: ${errorMessage(error)}`,
				undefined,
				{ cause: error },
			);
		} finally {
			this.fallbackStarting = undefined;
		}
		if (this.closing) {
			await legacy.close();
			this.throwIfClosed();
		}
		this.fallback = legacy;
		if (this.protocolVersion !== undefined) {
			legacy.setProtocolVersion(this.protocolVersion);
		}
		this.logger.info(`${this.name}: using legacy HTTP+SSE at ${safeUrl(this.url)}`);
		await legacy.send(initialize);
	}

	/** The one close path: stops streams and timers, ends the session (DELETE) when asked, fires onClose once. */
	private shutdown(error: McpError, deleteSession: boolean): Promise<void> {
		return this.closeOnce(error, async () => {
			this.http.abortAll();
			if (this.fallback) {
				await this.fallback.close();
			} else if (deleteSession && this.currentSessionId !== undefined) {
				// "Clients that no longer need a particular session ... SHOULD send an HTTP DELETE" (spec); 405 is fine.
				// With the credentials already in use and no 401 handling: closing must never wait on a token refresh or a
				// browser sign-in, and gives the server two seconds to answer.
				try {
					const res = await this.http.requestWithoutAuthFlow({
						method: 'DELETE',
						url: this.url,
						headers: this.getHeaders(undefined),
						timeoutMs: 2000,
					});
					res.resume();
					this.logger.debug(`${this.name}: DELETE session ${this.currentSessionId}: HTTP ${res.statusCode ?? 0}`);
				} catch (deleteError) {
					this.logger.debug(`${this.name}: DELETE session failed: ${errorMessage(deleteError)}`);
				}
			}
		});
	}
}
