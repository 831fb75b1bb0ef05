/**
 * The options and handlers of McpClient, and the types its methods take: what a caller of the client writes. Their
 * own file so that the client's parts (the eras, the negotiation, the tool catalog) can share them without importing
 * the client.
 */
import type { RequestOptions } from './connectionOptions';
import type { CacheHints } from './modern/caching';
import type {
	CallToolResult,
	CreateMessageRequest,
	CreateMessageResult,
	ElicitRequest,
	ElicitResult,
	Implementation,
	Root,
} from './schema';
import type { Task, TaskMetadata } from './tasks/task';
import type { TaskHandle } from './tasks/taskHandle';
import type { Clock } from './connectionOptions';
import type { Logger } from '../common/logger';

/**
 * A `server/discover` with a ttlMs of 0 (or less than this) is run again at most this often (ms): it carries
 * capabilities and instructions, which change rarely, and a ttlMs of 0 (the Python SDK's default) must not add a
 * discovery to every request ("The client MAY re-fetch every time", not must).
 */
export const MIN_DISCOVER_AGE_MS = 10_000;

/** Options of the list methods. */
export interface ListOptions extends RequestOptions {
	/**
	 * Receives the caching hints of the whole listing (2026-07-28 `ttlMs` / `cacheScope`, the shortest-lived page
	 * counts) once the last page arrived. Both fields are undefined for a server that sends none.
	 */
	onCacheHints?: (hints: CacheHints) => void;
}

/** Sent in `initialize` unless the caller supplies its own clientInfo. Kept in step with package.json by hand. */
export const DEFAULT_CLIENT_INFO: Implementation = { name: 'mcp-switchboard', version: '0.1.0' };

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
	/**
	 * Lets the server run `sampling/createMessage` and `elicitation/create` as tasks (MCP 2025-11-25): the client then
	 * answers such a request at once with a task and serves tasks/get, tasks/result, tasks/cancel and tasks/list for
	 * it; advertises `tasks` with the request types of the handlers supplied. Default false.
	 */
	tasks?: boolean;
	/**
	 * MCP extensions the host implements, advertised as `capabilities.extensions` in every era (keys are extension
	 * identifiers, values their settings), e.g. `{ 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } }`.
	 * Capabilities are an open object, so a server that knows no extensions ignores it; MCP Apps shows this very form
	 * with protocol version 2024-11-05 (https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx).
	 * Default: none.
	 */
	extensions?: Readonly<Record<string, object>>;
}

/** A tool call running as a task on the server: its id, status events, `result()` and `cancel()` (see TaskHandle). */
export type ToolTask = TaskHandle<CallToolResult>;

/** Options of `callTool` and `startToolTask`: a request's own, plus how a task runs. */
export interface CallToolOptions extends RequestOptions {
	/**
	 * Run the call as a task: `true`, or the task metadata to send (`{ ttl }`, default 1 hour). Default: only when the
	 * tool's `execution.taskSupport` (from the last tools/list) is `required`; `false`: never. The request timeout
	 * then applies to each request (the creating one, every tasks/get), not to the task, which ends on a terminal
	 * status, on cancel (aborting `signal` sends tasks/cancel) or at its TTL.
	 */
	task?: boolean | TaskMetadata;
	/** Each new state of the task when the call runs as one (status, statusMessage). */
	onTaskStatus?: (task: Task) => void;
	/** The task's handle as soon as the server created it (to list it, or to cancel it). */
	onTaskCreated?: (task: ToolTask) => void;
}

export interface ClientOptions {
	/** Sent in `initialize`. Default `{ name: 'mcp-switchboard', version: <package version> }`. */
	clientInfo?: Implementation;
	/** Default per-request timeout in ms. Default 60000. */
	timeoutMs?: number;
	/** How long `initialize` may take before connect fails. Default: timeoutMs. */
	connectTimeoutMs?: number;
	/** Where lifecycle messages, server stderr and (at trace level) the wire go. Default: nothing is logged. */
	logger?: Logger;
	/** Handlers for server requests; a capability is advertised only for a handler given. Default: none. */
	handlers?: ClientHandlers;
	/** A name for messages and logs (the server's configured name). Default: the transport kind. */
	name?: string;
	/** Time source for request timeouts; tests pass a manual clock. Default: the system clock. */
	clock?: Clock;
	/**
	 * Pins the protocol version: a modern one (2026-07-28) skips the fallback to `initialize`, a legacy one skips the
	 * `server/discover` probe and offers only that version in `initialize`. Default: detect (probe, then fall back).
	 */
	protocolVersion?: string | undefined;
	/**
	 * What an earlier connection to the same server found: 'legacy' goes straight to `initialize` (and probes only if
	 * that fails), 'modern' probes as usual. Default: unknown (probe).
	 */
	knownEra?: ProtocolEra | undefined;
	/**
	 * How long the `server/discover` probe waits before taking the server for a legacy one that stays silent. Default
	 * 10000 ms over stdio; over HTTP the status answers at once, so the connect timeout applies.
	 */
	probeTimeoutMs?: number | undefined;
	/** The most `input_required` rounds one request may take before it fails. Default 10. */
	maxInputRounds?: number | undefined;
	/** Time source for task polling; tests pass a manual clock. Default: the system clock. */
	taskClock?: Clock;
	/** 2026-07-28 tasks extension: the most rounds of input requests one task may ask for. Default 50. */
	maxTaskInputRounds?: number | undefined;
	/**
	 * 2026-07-28 `subscriptions/listen`: how long the server has to acknowledge a listen (default: timeoutMs, else
	 * 60000 ms) and the first delay before listening again after the stream dropped (default 1000 ms, doubling to 30 s).
	 */
	listen?: { ackTimeoutMs?: number; retryDelayMs?: number; maxRetryDelayMs?: number; clock?: Clock } | undefined;
}

/** 'modern': 2026-07-28 and later, per-request metadata; 'legacy': the `initialize` handshake (2025-11-25 and before). */
export type ProtocolEra = 'modern' | 'legacy';
