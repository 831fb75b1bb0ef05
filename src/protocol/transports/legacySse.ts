import type { IncomingMessage } from 'node:http';
import { deferred } from '../../common/async';
import { effectiveTimeout } from '../../common/timers';
import { ErrorCode, type JsonRpcMessage } from '../jsonrpc';
import { isLocalFailure, McpError } from '../mcpError';
import { describeBytes, describeReply, mediaType } from './httpClient';
import { errorMessage } from '../../common/errors';
import { HttpTransportBase, type HttpTransportOptions } from './httpTransportBase';
import { safeUrl } from './safeUrl';
import { readSse, SseDecoder, type SseEvent } from './sseEvents';
import type { Transport } from './transport';

/** `url` is the SSE endpoint (GET), e.g. `http://host/sse`. */
export interface LegacySseTransportOptions extends HttpTransportOptions {
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
export class LegacySseTransport extends HttpTransportBase implements Transport {
	readonly kind = 'sse' as const;

	private endpoint: URL | undefined;
	private endpointSessionId: string | undefined;
	private postHeaders: Record<string, string> = { 'content-type': 'application/json' };
	private started = false;

	constructor(private readonly options: LegacySseTransportOptions) {
		super(options);
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
		const fail = (message: string, cause?: unknown) =>
			new McpError(ErrorCode.TransportFailed, `${this.name}: ${message}`, { url: safeUrl(this.url) }, { cause });
		let res: IncomingMessage;
		try {
			res = await this.http.request(
				{ method: 'GET', url: this.url, headers: { accept: 'text/event-stream' } },
				this.lifetime.signal,
			);
		} catch (error) {
			if (isLocalFailure(error, 'unauthorized')) {
				throw error;
			}
			throw fail(`could not open the SSE stream at ${safeUrl(this.url)}: ${errorMessage(error)}`, error);
		}
		const status = res.statusCode ?? 0;
		if (status < 200 || status >= 300 || mediaType(res) !== 'text/event-stream') {
			throw fail(`GET ${safeUrl(this.url)} did not open an event stream: ${await describeReply(res)}`);
		}
		const endpoint = deferred<URL>();
		const decoder = new SseDecoder({ onEvent: (event) => this.onEvent(event, endpoint) }, this.maxBytes);
		const reading = readSse(res, decoder);
		const timeoutMs = effectiveTimeout(this.options.endpointTimeoutMs ?? 30_000);
		const timer =
			timeoutMs === Infinity
				? undefined
				: setTimeout(
						() => endpoint.reject(fail(`no endpoint event within ${timeoutMs} ms from ${safeUrl(this.url)}`)),
						timeoutMs,
					);
		void reading.then((end) => {
			endpoint.reject(fail(`the SSE stream at ${safeUrl(this.url)} ended before the endpoint event`));
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
		this.logger.debug(`${this.name}: legacy SSE endpoint ${safeUrl(this.endpoint)}`);
	}

	setProtocolVersion(version: string | undefined): void {
		// Not part of the 2024-11-05 transport, but harmless, and it tells a newer server what was negotiated.
		this.postHeaders =
			version === undefined
				? { 'content-type': 'application/json' }
				: { 'content-type': 'application/json', 'mcp-protocol-version': version };
	}

	/** POSTs one message to the endpoint; rejects with an McpError naming the status and the first bytes of a refusal. */
	async send(message: JsonRpcMessage, text?: string): Promise<void> {
		this.throwIfClosed();
		if (!this.endpoint) {
			throw new McpError(ErrorCode.TransportFailed, `${this.name}: send() before start() finished`);
		}
		const method = 'method' in message ? message.method : 'response';
		let res: IncomingMessage;
		try {
			res = await this.http.request(
				{
					method: 'POST',
					url: this.endpoint,
					headers: this.postHeaders,
					body: Buffer.from(text ?? JSON.stringify(message)),
				},
				this.lifetime.signal,
			);
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
			const error = McpError.connectionClosed(
				`${this.name}: the session expired (the server answered ${method} with HTTP 404); a new session is needed`,
				{
					sessionExpired: true,
					status,
				},
			);
			void this.shutdown(error);
			throw error;
		}
		throw new McpError(
			ErrorCode.TransportFailed,
			`${this.name}: the server refused ${method}: ${await describeReply(res)}`,
			{ status },
		);
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
				endpoint.reject(
					new McpError(
						ErrorCode.TransportFailed,
						`${this.name}: the endpoint event is not a URL: ${describeBytes(Buffer.from(event.data.slice(0, 200)))}`,
					),
				);
				return;
			}
			if (url.origin !== this.url.origin) {
				// Posting messages (and credentials) wherever the stream points would let it redirect them anywhere.
				endpoint.reject(
					new McpError(
						ErrorCode.TransportFailed,
						`${this.name}: refused the endpoint ${url.origin}${url.pathname}: it is not on the origin of ${safeUrl(this.url)}`,
					),
				);
				return;
			}
			endpoint.resolve(url);
			return;
		}
		if ((event.event !== undefined && event.event !== 'message') || event.data === '') {
			return;
		}
		const messages = this.parseEventData(event.data);
		if (!messages) {
			return;
		}
		for (const message of messages) {
			if (this.closing) {
				return;
			}
			this.messageEmitter.fire(message);
		}
	}

	private shutdown(error: McpError): Promise<void> {
		return this.closeOnce(error, async () => {
			if (error.message.includes('closed by the client')) {
				this.logger.debug(`${this.name}: closed`);
			} else {
				this.logger.info(error.message);
			}
		});
	}
}
