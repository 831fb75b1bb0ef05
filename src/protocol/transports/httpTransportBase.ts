import { deferred } from '../../common/async';
import { nullLogger, type Logger } from '../../common/logger';
import { McpError } from '../mcpError';
import { defaultMaxMessageBytes, describeBytes, HttpClient, parseMessages } from './httpClient';
import type { HttpAuthProvider } from './transport';
import { TransportEvents } from './transportEvents';

/** What both HTTP transports (Streamable HTTP and legacy HTTP+SSE) are configured with. */
export interface HttpTransportOptions {
	/** The endpoint (http: or https:): the MCP endpoint, or the SSE endpoint of a legacy server. */
	url: string;
	/** Static headers sent on every request; values are never logged. */
	headers?: Record<string, string> | undefined;
	logger?: Logger | undefined;
	/** The server's configured name, for messages. Default: the URL's host. */
	name?: string | undefined;
	/** Per-request credentials; without one a 401 fails with an Unauthorized McpError. */
	auth?: HttpAuthProvider | undefined;
	/** The largest JSON body or SSE event accepted. Default 256 MiB. */
	maxMessageBytes?: number | undefined;
}

/**
 * The part the two HTTP transports share: the HTTP client, the message and close events, the lifetime signal, the
 * decoding of SSE message data, and the one close path that runs exactly once.
 */
export abstract class HttpTransportBase extends TransportEvents {
	protected readonly url: URL;
	protected readonly name: string;
	protected readonly logger: Logger;
	protected readonly http: HttpClient;
	protected readonly maxBytes: number;
	/** Aborted on close: cancels reconnect delays and auth calls. */
	protected readonly lifetime = new AbortController();
	/** Set (before any work) by the first close; later closes return it. */
	protected closing: Promise<void> | undefined;
	protected closeError: McpError | undefined;

	constructor(options: HttpTransportOptions) {
		super();
		this.url = new URL(options.url);
		this.name = options.name ?? this.url.host;
		this.logger = options.logger ?? nullLogger;
		this.maxBytes = options.maxMessageBytes ?? defaultMaxMessageBytes;
		this.http = new HttpClient(this.url, {
			headers: options.headers,
			auth: options.auth,
			logger: this.logger,
			name: this.name,
		});
	}

	protected throwIfClosed(): void {
		if (this.closing) {
			throw this.closeError ?? McpError.connectionClosed(`${this.name}: the transport is closed`);
		}
	}

	/** The JSON-RPC messages in one SSE event's data; data that is not JSON is logged and gives undefined. */
	protected parseEventData(data: string): unknown[] | undefined {
		try {
			return parseMessages(data);
		} catch {
			this.logger.warn(
				`${this.name}: skipped an event that is not JSON: ${describeBytes(Buffer.from(data.slice(0, 200)), data.length > 200)}`,
			);
			return undefined;
		}
	}

	/**
	 * The one close path: aborts the lifetime, runs `work` (ending a session, closing a fallback), closes every socket,
	 * fires onClose once with `error` and disposes the events. A second call returns the first one's promise.
	 */
	protected closeOnce(error: McpError, work: () => Promise<void>): Promise<void> {
		if (this.closing) {
			return this.closing;
		}
		this.closeError = error;
		const done = deferred<void>();
		// Set before any work: closing a fallback, or an onClose listener, may land here again.
		this.closing = done.promise;
		void (async () => {
			this.lifetime.abort();
			await work();
			this.http.destroy();
			this.closeEmitter.fire(error);
			this.closeEmitter.dispose();
			this.messageEmitter.dispose();
		})().finally(() => done.resolve());
		return this.closing;
	}
}
