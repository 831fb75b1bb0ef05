// CONTRACT STUB: the public surface of McpClient that the Manager and the edge code against.
// The protocol-core work replaces the bodies; the signatures change only with everyone's agreement.
import type { Event } from '../common/event';
import type { Logger } from '../common/logger';
import type { Transport, TransportKind } from './transports/transport';
import type {
	CallToolResult,
	CompleteResult,
	CompletionReference,
	CreateMessageRequest,
	CreateMessageResult,
	ElicitRequest,
	ElicitResult,
	GetPromptResult,
	Implementation,
	LoggingLevel,
	LoggingMessage,
	Progress,
	Prompt,
	ReadResourceResult,
	Resource,
	ResourceTemplate,
	Root,
	ServerCapabilities,
	Tool,
} from './schema';

/**
 * Handlers for requests the server sends to the client. A capability is advertised only for a handler supplied.
 * Each receives an AbortSignal that aborts when the server cancels the request or the connection closes.
 */
export interface ClientHandlers {
	/** Answers `roots/list`; advertises `roots: { listChanged: true }`. Call `client.notifyRootsChanged()` when they change. */
	roots?: (signal: AbortSignal) => Promise<Root[]> | Root[];
	/** Answers `sampling/createMessage`; advertises `sampling` (with `tools` when `samplingTools` is true). */
	sampling?: (params: CreateMessageRequest, signal: AbortSignal) => Promise<CreateMessageResult>;
	samplingTools?: boolean;
	/** Answers `elicitation/create`; advertises `elicitation` with `form`, and `url` when `elicitationUrl` is true. */
	elicitation?: (params: ElicitRequest, signal: AbortSignal) => Promise<ElicitResult>;
	elicitationUrl?: boolean;
}

export interface ClientOptions {
	/** Sent in `initialize`. Default `{ name: 'mcp-switchboard', version: <package version> }`. */
	clientInfo?: Implementation;
	/** Default per-request timeout in ms. Default 60000. */
	timeoutMs?: number;
	/** How long `initialize` may take before connect fails. Default: timeoutMs. */
	connectTimeoutMs?: number;
	logger?: Logger;
	handlers?: ClientHandlers;
	/** A name for messages and logs (the server's configured name). Default: the transport kind. */
	name?: string;
}

export interface RequestOptions {
	signal?: AbortSignal;
	/** Per-request timeout in ms; default the client's timeoutMs. */
	timeoutMs?: number;
	/** Restart the timeout whenever progress arrives. Default true when onProgress is given. */
	resetTimeoutOnProgress?: boolean;
	/** With resetTimeoutOnProgress: the most the request may take in all. Default: none. */
	maxTotalTimeoutMs?: number;
	/** Receives `notifications/progress` for this request (a progress token is sent only when given). */
	onProgress?: (progress: Progress) => void;
}

export class McpClient {
	readonly serverInfo!: Implementation;
	readonly serverCapabilities!: ServerCapabilities;
	readonly protocolVersion!: string;
	readonly instructions: string | undefined;
	readonly transportKind!: TransportKind;
	readonly name!: string;

	/** Fires once when the connection closes, with the reason. */
	readonly onDidClose!: Event<Error>;
	readonly onDidChangeTools!: Event<void>;
	readonly onDidChangePrompts!: Event<void>;
	readonly onDidChangeResources!: Event<void>;
	readonly onDidUpdateResource!: Event<{ uri: string }>;
	readonly onDidLog!: Event<LoggingMessage>;
	readonly onDidProgress!: Event<Progress>;
	readonly onDidCompleteElicitation!: Event<{ elicitationId: string }>;

	/** Starts the transport, runs initialize + notifications/initialized; rejects with an McpError and closes on failure. */
	static connect(_transport: Transport, _options?: ClientOptions): Promise<McpClient> {
		throw new Error('not implemented');
	}

	get isClosed(): boolean {
		throw new Error('not implemented');
	}
	listTools(_options?: RequestOptions): Promise<Tool[]> {
		throw new Error('not implemented');
	}
	/** Resolves to the raw result; structuredContent is validated against the tool's outputSchema when known. */
	callTool(_name: string, _args?: Record<string, unknown>, _options?: RequestOptions): Promise<CallToolResult> {
		throw new Error('not implemented');
	}
	listResources(_options?: RequestOptions): Promise<Resource[]> {
		throw new Error('not implemented');
	}
	listResourceTemplates(_options?: RequestOptions): Promise<ResourceTemplate[]> {
		throw new Error('not implemented');
	}
	readResource(_uri: string, _options?: RequestOptions): Promise<ReadResourceResult> {
		throw new Error('not implemented');
	}
	subscribe(_uri: string, _options?: RequestOptions): Promise<void> {
		throw new Error('not implemented');
	}
	unsubscribe(_uri: string, _options?: RequestOptions): Promise<void> {
		throw new Error('not implemented');
	}
	listPrompts(_options?: RequestOptions): Promise<Prompt[]> {
		throw new Error('not implemented');
	}
	getPrompt(_name: string, _args?: Record<string, string>, _options?: RequestOptions): Promise<GetPromptResult> {
		throw new Error('not implemented');
	}
	complete(_ref: CompletionReference, _argument: { name: string; value: string }, _context?: { arguments?: Record<string, string> }, _options?: RequestOptions): Promise<CompleteResult> {
		throw new Error('not implemented');
	}
	setLoggingLevel(_level: LoggingLevel, _options?: RequestOptions): Promise<void> {
		throw new Error('not implemented');
	}
	ping(_options?: RequestOptions): Promise<void> {
		throw new Error('not implemented');
	}
	/** Sends notifications/roots/list_changed (when the roots handler was supplied). */
	notifyRootsChanged(): Promise<void> {
		throw new Error('not implemented');
	}
	/** Closes the transport; pending requests fail with ConnectionClosed. Idempotent. */
	close(): Promise<void> {
		throw new Error('not implemented');
	}
}
