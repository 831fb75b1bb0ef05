import type { Event } from '../../common/event';
import type { McpError } from '../mcpError';
import type { JsonRpcMessage, JsonRpcRequest } from '../jsonrpc';

/** Which wire a transport speaks; `window` is a page's postMessage channel (an MCP App in a webview, src/manager/apps). */
export type TransportKind = 'stdio' | 'http' | 'sse' | 'window';

/**
 * One message channel to one MCP server. The contract every transport keeps:
 *
 * - `start()` resolves when messages can be sent; it rejects with an McpError (code TransportFailed) that says
 *   what to check (e.g. the command and PATH for stdio, the URL and status for HTTP). Call it once.
 * - `onMessage` fires once per parsed JSON value, in arrival order, synchronously from the read loop. The value is
 *   not validated: the connection checks the envelope. Input that is not JSON is logged by the transport and skipped.
 *   A JSON array (a batch from an older server) is delivered as its elements, one by one.
 * - `send()` resolves when the message was handed to the wire (respecting back-pressure); it rejects with an
 *   McpError when it cannot be sent. HTTP transports resolve after the POST was accepted; replies arrive via onMessage.
 * - `onClose` fires exactly once, with an McpError (code ConnectionClosed) whose message says why: exit code or signal
 *   and the last stderr lines for stdio, the status or network error for HTTP, or "closed by the client".
 * - `close()` is idempotent, releases everything (no child process, socket or timer left), and resolves after onClose fired.
 */
export interface Transport {
	readonly kind: TransportKind;
	readonly onMessage: Event<unknown>;
	readonly onClose: Event<McpError>;
	start(): Promise<void>;
	/**
	 * `text`, when given, is `JSON.stringify(message)` already made by the caller (the connection makes it while a
	 * protocol view watches); a transport may write it instead of serialising the message again.
	 */
	send(message: JsonRpcMessage, text?: string): Promise<void>;
	/**
	 * While `onMessage` delivers a message: its JSON text as read from the wire, when the transport has it (stdio; not
	 * for the elements of a batch). Undefined at any other time. Lets the protocol view keep the text it was sent.
	 */
	readonly messageText?: string | undefined;
	/**
	 * With messageText: the same text as the UTF-8 bytes read, `messageBytes[messageStart..messageEnd)` (stdio), so
	 * the protocol view can copy the bytes instead of encoding the text again. Valid only during that delivery.
	 */
	readonly messageBytes?: Uint8Array | undefined;
	readonly messageStart?: number;
	readonly messageEnd?: number;
	close(): Promise<void>;
	/**
	 * HTTP transports send `MCP-Protocol-Version` on every request once set (undefined: none, as before a handshake).
	 * A modern version (2026-07-28) also switches Streamable HTTP to its sessionless form: Mcp-Method / Mcp-Name
	 * headers, modern errors from 4xx bodies, cancellation by closing the stream, no resumption.
	 */
	setProtocolVersion?(version: string | undefined): void;
	/** HTTP transports ask this for extra headers of each request (the client's `Mcp-Param-*` from `x-mcp-header`). */
	setRequestHeaders?(provider: (message: JsonRpcRequest) => Record<string, string> | undefined): void;
	/** A session id, for HTTP transports that have one (shown in the UI and logs). */
	readonly sessionId?: string | undefined;
}

/** The request an auth provider supplies credentials for: a DPoP proof (RFC 9449) is signed over both. */
export interface AuthRequest {
	/** GET, POST or DELETE. */
	method: string;
	url: URL;
}

/** What an HTTP transport tells an auth provider about a response (status and headers, names lower case). */
export interface AuthResponse {
	url: URL;
	status: number;
	headers: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * Supplies credentials to an HTTP transport per request, so tokens can be refreshed without reconnecting.
 * Implemented by the OAuth client (src/protocol/auth) or by a static-header provider.
 */
export interface HttpAuthProvider {
	/**
	 * Headers added to every request (e.g. Authorization). Called per request; may refresh a token first. `request`
	 * is the request they are for (the transports always pass it): credentials bound to a request, such as a DPoP
	 * proof, need its method and URL.
	 */
	headers(signal?: AbortSignal, request?: AuthRequest): Promise<Record<string, string>>;
	/**
	 * Called when a request is answered 401, or 403 with `insufficient_scope`. Resolves true when new credentials
	 * were obtained and the request should be sent again (the transport retries once per call); false to fail it.
	 * A 401 whose challenge says `use_dpop_nonce` (RFC 9449 section 9) is a separate case the transport also retries
	 * once: the provider resolves true when it now holds the nonce the server sent.
	 */
	onUnauthorized(
		response: { status: number; wwwAuthenticate: string | undefined; url: string },
		signal?: AbortSignal,
	): Promise<boolean>;
	/** Optional: sees every response (a server may send a new DPoP nonce with any answer, RFC 9449 section 8.2). */
	onResponse?(response: AuthResponse): void;
	/**
	 * Optional: the credentials held now for `request`, with no refresh, sign-in or network: for the session DELETE
	 * on close, which must never wait on a person. Without it, the transport resends the headers it last sent.
	 */
	currentHeaders?(request: AuthRequest): Promise<Record<string, string>>;
}
