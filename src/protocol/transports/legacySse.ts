import type { IncomingMessage } from 'node:http';
import { deferred } from '../../common/async';
import { Emitter } from '../../common/event';
import { nullLogger, type Logger } from '../../common/logger';
import { effectiveTimeout } from '../../common/timers';
import { ErrorCode, type JsonRpcMessage } from '../jsonrpc';
import { McpError } from '../mcpError';
import { defaultMaxMessageBytes, describeBytes, describeReply, errorMessage, HttpClient, mediaType, parseMessages } from './httpClient';
import { readSse, SseDecoder, type SseEvent } from './sseEvents';
import type { HttpAuthProvider, Transport } from './transport';

export interface LegacySseTransportOptions {
	/** The SSE endpoint (GET), e.g. `http://host/sse`. */
	url: string;
	/** Static headers sent on every request; values are never logged. */
	headers?: Record<string, string> | undefined;
	logger?: Logger | undefined;
	/** The server's configured name, for messages. Default: the URL's host. */
	name?: string | undefined;
	auth?: HttpAuthProvider | undefined;
	/** The largest SSE event accepted. Default 256 MiB. */
	maxMessageBytes?: number | undefined;
	/** How long start() waits for the `endpoint` event. Default 30000 ms. */
	endpointTimeoutMs?: number | undefined;
}

/**
 * The HTTP+SSE transport of protocol 2024-11-05, for servers that predate Streamable HTTP.
 * Spec: https://modelcontextprotocol.io/specification/2024-11-05/basic/transports#http-with-sse
 *
 * `start()` opens the GET event stream and waits for the `endpoint` event ("a URI for the client to use for
 * sending messages"), resolved against the stream's URL; an endpoint on another origin is refused. Messages are
 * POSTed there; replies arrive as `message` events. When the stream drops the transport closes with the reason
 * (the owner reconnects): there is no resumption in this protocol.
 */
export class LegacySseTransport implements Transport {
	readonly kind = 'sse' as const;

	private readonly url: URL;
	private readonly name: string;
	private readonly logger: Logger;
	private readonly http: HttpClient;
	private readonly messageEmitter = new Emitter<unknown>();
	private readonly closeEmitter = new Emitter<McpError>();
	private readonly lifetime = new AbortController();
	private endpoint: URL | undefined;
	private endpointSessionId: string | undefined;
	private postHeaders: Record<string, string> = { 'content-type': 'application/json' };
	private started = false;
	private closing: Promise<void> | undefined;
	private closeError: McpError | undefined;

	readonly onMessage = this.messageEmitter.event;
	readonly onClose = this.closeEmitter.event;

	constructor(private readonly options: LegacySseTransportOptions) {
		this.url = new URL(options.url);
		this.name = options.name ?? this.url.host;
		this.logger = options.logger ?? nullLogger;
		this.http = new HttpClient(this.url, { headers: options.headers, auth: options.auth, logger: this.logger, name: this.name });
	}

	/** The `sessionId` query parameter of the endpoint, when the server put one there. */
	get sessionId(): string | undefined {
		return this.endpointSessionId;
	}

	/**
	 * Opens the event stream and waits for the endpoint. Rejects with a TransportFailed McpError naming the status and
	 * content type for a reply that is not an event stream, when the stream ends or the timeout passes first, or when
	 * the endpoint is on another origin.
	 */
	async start(): Promise<void> {
		if (this.started) {
			throw new McpError(ErrorCode.TransportFailed, `${this.name}: start() was called twice`);
		}
		this.started = true;
		const fail = (message: string, cause?: unknown) => new McpError(ErrorCode.TransportFailed, `${this.name}: ${message}`, { url: this.url.href }, { cause });
		let res: IncomingMessage;
		try {
			res = await this.http.request({ method: 'GET', url: this.url, headers: { accept: 'text/event-stream' } }, this.lifetime.signal);
		} catch (error) {
			if (error instanceof McpError && error.code === ErrorCode.Unauthorized) {
				throw error;
			}
			throw fail(`could not open the SSE stream at ${this.url.href}: ${errorMessage(error)}`, error);
		}
		const status = res.statusCode ?? 0;
		if (status < 200 || status >= 300 || mediaType(res) !== 'text/event-stream') {
			throw fail(`GET ${this.url.href} did not open an event stream: ${await describeReply(res)}`);
		}
		const endpoint = deferred<URL>();
		const decoder = new SseDecoder({ onEvent: (event) => this.onEvent(event, endpoint) }, this.options.maxMessageBytes ?? defaultMaxMessageBytes);
		const reading = readSse(res, decoder);
		const timeoutMs = effectiveTimeout(this.options.endpointTimeoutMs ?? 30_000);
		const timer = timeoutMs === Infinity ? undefined : setTimeout(() => endpoint.reject(fail(`no endpoint event within ${timeoutMs} ms from ${this.url.href}`)), timeoutMs);
		void reading.then((end) => {
			endpoint.reject(fail(`the SSE stream at ${this.url.href} ended before the endpoint event`));
			const reason = decoder.overflow
				? 'an event was larger than the size limit'
				: end.clean
					? 'the server ended the SSE stream'
					: `the SSE stream was cut (${end.reason ?? 'unknown reason'})`;
			void this.shutdown(McpError.connectionClosed(`${this.name}: ${reason}`));
		});
		try {
			this.endpoint = await endpoint.promise;
		} catch (error) {
			res.destroy();
			throw error;
		} finally {
			clearTimeout(timer);
		}
		this.endpointSessionId = this.endpoint.searchParams.get('sessionId') ?? undefined;
		this.logger.debug(`${this.name}: legacy SSE endpoint ${this.endpoint.pathname}`);
	}

	setProtocolVersion(version: string | undefined): void {
		// Not part of the 2024-11-05 transport, but harmless, and it tells a newer server what was negotiated.
		this.postHeaders = version === undefined ? { 'content-type': 'application/json' } : { 'content-type': 'application/json', 'mcp-protocol-version': version };
	}

	/** POSTs one message to the endpoint; rejects with an McpError naming the status and the first bytes of a refusal. */
	async send(message: JsonRpcMessage): Promise<void> {
		this.throwIfClosed();
		if (!this.endpoint) {
			throw new McpError(ErrorCode.TransportFailed, `${this.name}: send() before start() finished`);
		}
		const method = 'method' in message ? message.method : 'response';
		let res: IncomingMessage;
		try {
			res = await this.http.request({ method: 'POST', url: this.endpoint, headers: this.postHeaders, body: Buffer.from(JSON.stringify(message)) }, this.lifetime.signal);
		} catch (error) {
			this.throwIfClosed();
			throw error;
		}
		const status = res.statusCode ?? 0;
		if (status >= 200 && status < 300) {
			res.resume();
			return;
		}
		if (status === 404) {
			res.resume();
			const error = McpError.connectionClosed(`${this.name}: the session expired (the server answered ${method} with HTTP 404); a new session is needed`, {
				sessionExpired: true,
				status,
			});
			void this.shutdown(error);
			throw error;
		}
		throw new McpError(ErrorCode.TransportFailed, `${this.name}: the server refused ${method}: ${await describeReply(res)}`, { status });
	}

	close(): Promise<void> {
		return this.shutdown(McpError.connectionClosed(`${this.name}: closed by the client`));
	}

	private onEvent(event: SseEvent, endpoint: { resolve(url: URL): void; reject(error: unknown): void }): void {
		if (event.event === 'endpoint') {
			let url: URL;
			try {
				url = new URL(event.data.trim(), this.url);
			} catch {
				endpoint.reject(new McpError(ErrorCode.TransportFailed, `${this.name}: the endpoint event is not a URL: ${describeBytes(Buffer.from(event.data.slice(0, 200)))}`));
				return;
			}
			if (url.origin !== this.url.origin) {
				// Posting messages (and credentials) wherever the stream points would let it redirect them anywhere.
				endpoint.reject(
					new McpError(ErrorCode.TransportFailed, `${this.name}: refused the endpoint ${url.origin}${url.pathname}: it is not on the origin of ${this.url.href}`),
				);
				return;
			}
			endpoint.resolve(url);
			return;
		}
		if ((event.event !== undefined && event.event !== 'message') || event.data === '') {
			return;
		}
		let messages: unknown[];
		try {
			messages = parseMessages(event.data);
		} catch {
			this.logger.warn(`${this.name}: skipped an event that is not JSON: ${describeBytes(Buffer.from(event.data.slice(0, 200)), event.data.length > 200)}`);
			return;
		}
		for (const message of messages) {
			if (this.closing) {
				return;
			}
			this.messageEmitter.fire(message);
		}
	}

	private throwIfClosed(): void {
		if (this.closing) {
			throw this.closeError ?? McpError.connectionClosed(`${this.name}: the transport is closed`);
		}
	}

	private shutdown(error: McpError): Promise<void> {
		if (this.closing) {
			return this.closing;
		}
		this.closeError = error;
		const done = deferred<void>();
		// Set before any work: an onClose listener may call close() again.
		this.closing = done.promise;
		void (async () => {
			this.lifetime.abort();
			this.http.destroy();
			if (error.message.includes('closed by the client')) {
				this.logger.debug(`${this.name}: closed`);
			} else {
				this.logger.info(error.message);
			}
			this.closeEmitter.fire(error);
			this.closeEmitter.dispose();
			this.messageEmitter.dispose();
		})().finally(() => done.resolve());
		return this.closing;
	}
}
