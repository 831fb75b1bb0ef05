/**
 * McpClient: one MCP server over one Transport, in either era. Modern servers (2026-07-28) get no handshake: the
 * client probes with `server/discover` and puts version, capabilities and client info in every request's `_meta`;
 * legacy servers (2024-11-05 .. 2025-11-25) get the `initialize` handshake. Then capability gating, typed and
 * paginated methods, multi round-trip requests, server notifications as events, and server requests routed to the
 * handlers the host supplied. Wire mechanics (ids, timeouts, cancellation, ordering) live in JsonRpcConnection.
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle and
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
 */
import { Emitter, type Event } from '../common/event';
import { nullLogger, type Logger } from '../common/logger';
import { JsonRpcConnection, systemClock, type Clock, type MessageTap, type RequestOptions } from './connection';
import { ErrorCode } from './jsonrpc';
import { McpError } from './mcpError';
import { answerInputRequests, DEFAULT_MAX_INPUT_ROUNDS, parseInputRequired } from './modern/inputRequests';
import { paramHeadersOf, paramHeaderValues, type ParamHeader } from './modern/httpHeaders';
import { ListenStream, type ListenLists } from './modern/subscriptions';
import { cacheHintsOf, combineCacheHints, type CacheHints } from './modern/caching';
import {
	buildRequestMeta,
	isModernError,
	ModernErrorCode,
	pickCommonVersion,
	serverInfoOf,
	supportedVersionsOf,
	withRequestMeta,
} from './modern/requestMeta';
import type { OutputValidator } from './outputValidator';
import {
	DEFAULT_CLIENT_INFO,
	MIN_DISCOVER_AGE_MS,
	type CallToolOptions,
	type ClientHandlers,
	type ClientOptions,
	type ListOptions,
	type ProtocolEra,
	type ToolTask,
} from './clientOptions';
import {
	isPlainCallToolResult,
	isPlainInitializeResult,
	isPlainListToolsResult,
	isPlainListPromptsResult,
	isPlainListResourcesResult,
	isPlainListResourceTemplatesResult,
} from './plainResults';
import { ALL_PROTOCOL_VERSIONS, isModernVersion, MODERN_PROTOCOL_VERSIONS } from './protocolConstants';
import {
	LATEST_PROTOCOL_VERSION,
	SUPPORTED_PROTOCOL_VERSIONS,
	schemas,
	type CallToolResult,
	type ClientCapabilities,
	type CompleteResult,
	type CompletionReference,
	type GetPromptResult,
	type Implementation,
	type InitializeResult,
	type LoggingLevel,
	type LoggingMessage,
	type Progress,
	type Prompt,
	type ReadResourceResult,
	type Resource,
	type ResourceTemplate,
	type Schemas,
	type ServerCapabilities,
	type Tool,
} from './schema';
import type { JsonRpcRequest } from './jsonrpc';
import { TASKS_EXTENSION } from './tasks/extensionTask';
import { relatedTaskId, withRelatedTask, type Task, type TaskMetadata } from './tasks/task';
import { TaskReceiver } from './tasks/taskReceiver';
import { TaskRequestor } from './tasks/taskRequestor';
import type { Transport, TransportKind } from './transports/transport';
import { errorMessage } from '../common/errors';

export type { MessageTap, RequestOptions } from './connection';
export type { CacheHints } from './modern/caching';
export { DEFAULT_CLIENT_INFO, MIN_DISCOVER_AGE_MS } from './clientOptions';
export type {
	CallToolOptions,
	ClientHandlers,
	ClientOptions,
	ListOptions,
	ProtocolEra,
	ToolTask,
} from './clientOptions';
export { isPlainCallToolResult, isPlainListToolsResult } from './plainResults';

/** What the probe concluded. */
type ProbeOutcome = { era: 'modern' } | { era: 'legacy'; versions?: string[]; timedOut?: boolean };

/** Long enough for an interpreter's start-up on a busy machine; a modern server slower than that is still found (see open()). */
const DEFAULT_STDIO_PROBE_TIMEOUT_MS = 10_000;

/** A cached outputSchema validator and the schema object it was built from. */
interface CachedValidator {
	source: Record<string, unknown>;
	validate: OutputValidator;
}

/** The most pages a list method follows before it stops (a guard against a server that never ends a listing). */
const MAX_PAGES = 10_000;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The answer to a server request that belongs to a task carries the task's id too: "All requests, notifications,
 * and responses related to a task MUST include the io.modelcontextprotocol/related-task key in their _meta field".
 */
function answerRelated<T extends object>(params: Record<string, unknown> | undefined, result: T): T {
	const taskId = relatedTaskId(params);
	return taskId === undefined ? result : withRelatedTask(result, taskId);
}

/** The structural check of each list result (the same as its schema; see plainResults.ts). */
const PLAIN_LISTS = {
	ListToolsResultSchema: isPlainListToolsResult,
	ListResourcesResultSchema: isPlainListResourcesResult,
	ListResourceTemplatesResultSchema: isPlainListResourceTemplatesResult,
	ListPromptsResultSchema: isPlainListPromptsResult,
} as const;

/**
 * One initialized MCP session. Create it with `McpClient.connect(transport, options)`; it owns the transport and
 * closes it in `close()`. Methods reject with an McpError: CapabilityMissing (the server did not advertise the
 * feature; nothing is sent), the server's own error, RequestTimeout, RequestCancelled, ProtocolViolation (a result of
 * the wrong shape) or ConnectionClosed (naming the server and why). Events stop after `onDidClose` fired.
 */
export class McpClient {
	readonly serverInfo!: Implementation;
	readonly serverCapabilities!: ServerCapabilities;
	readonly protocolVersion!: string;
	readonly instructions: string | undefined;
	readonly name!: string;
	/** Which era the server speaks: 'modern' (no handshake, 2026-07-28) or 'legacy' (`initialize`). */
	readonly era: ProtocolEra = 'legacy';
	/** The versions a modern server listed in `server/discover`; undefined for a legacy server. */
	readonly supportedVersions: readonly string[] | undefined;
	/** The caching hints of the last `server/discover` answer (how long capabilities and instructions stay fresh). */
	readonly discoverCacheHints: CacheHints = { ttlMs: undefined, cacheScope: undefined };

	private readonly closeEmitter = new Emitter<Error>();
	private readonly toolsEmitter = new Emitter<void>();
	private readonly promptsEmitter = new Emitter<void>();
	private readonly resourcesEmitter = new Emitter<void>();
	private readonly resourceUpdatedEmitter = new Emitter<{ uri: string }>();
	private readonly logEmitter = new Emitter<LoggingMessage>();
	private readonly progressEmitter = new Emitter<Progress>();
	private readonly elicitationCompleteEmitter = new Emitter<{ elicitationId: string }>();
	private readonly discoveryEmitter = new Emitter<void>();

	/** Fires once when the connection closes, with the reason (a ConnectionClosed McpError). Check `isClosed` first when subscribing late. */
	readonly onDidClose: Event<Error> = this.closeEmitter.event;
	readonly onDidChangeTools: Event<void> = this.toolsEmitter.event;
	readonly onDidChangePrompts: Event<void> = this.promptsEmitter.event;
	readonly onDidChangeResources: Event<void> = this.resourcesEmitter.event;
	/**
	 * Modern: `server/discover` was run again after its `ttlMs` and the server's capabilities, instructions or identity
	 * changed (see refreshDiscoveryIfStale).
	 */
	readonly onDidChangeDiscovery: Event<void> = this.discoveryEmitter.event;
	readonly onDidUpdateResource: Event<{ uri: string }> = this.resourceUpdatedEmitter.event;
	readonly onDidLog: Event<LoggingMessage> = this.logEmitter.event;
	readonly onDidProgress: Event<Progress> = this.progressEmitter.event;
	readonly onDidCompleteElicitation: Event<{ elicitationId: string }> = this.elicitationCompleteEmitter.event;

	/** Sees every message on this connection from now on (see JsonRpcConnection.messageTap); undefined stops it. */
	set messageTap(tap: MessageTap | undefined) {
		this.connection.messageTap = tap;
	}

	get messageTap(): MessageTap | undefined {
		return this.connection.messageTap;
	}

	/** The wire in use; read live because an `http` transport may fall back to legacy `sse` during initialize. */
	get transportKind(): TransportKind {
		return this.transport.kind;
	}

	private readonly connection: JsonRpcConnection;
	private readonly logger: Logger;
	private readonly handlers: ClientHandlers;
	/** The tasks this client started on the server. */
	private readonly tasks: TaskRequestor;
	/** The tasks the server started on this client; present when `handlers.tasks`. */
	private readonly receiver: TaskReceiver | undefined;
	/** Tools by name from the last complete `tools/list`; used to find a tool's outputSchema. */
	private knownTools: Map<string, Tool> | undefined;
	/** How many tools/list were started, and which of them `knownTools` comes from. */
	private toolListings = 0;
	private knownToolsListing = 0;
	private readonly validators = new Map<string, CachedValidator>();
	/** Modern era: the `_meta` every request carries (rebuilt when the version or the log level changes). */
	private requestMeta: Record<string, unknown> | undefined;
	/** Modern era: the level sent as `io.modelcontextprotocol/logLevel`; none means the server sends no log messages. */
	private logLevel: LoggingLevel | undefined;
	/** The version last given to the transport (for its MCP-Protocol-Version header). */
	private transportVersion: string | undefined;
	/** Modern versions this connection may use (one when pinned). */
	private modernAllowed: readonly string[] = MODERN_PROTOCOL_VERSIONS;
	/** Tools' `x-mcp-header` marks by tool name, from the last `tools/list` (HTTP only). */
	private paramHeaderMarks = new Map<string, ParamHeader[]>();
	/** Results that took input_required rounds: they depend on the user's answers, so no cache may keep them. */
	private readonly inputResults = new WeakSet<object>();
	/** Modern era: the `subscriptions/listen` stream, made on first use. */
	private listenStream: ListenStream | undefined;
	/** Modern era: when `server/discover` stops being fresh (clock ms; Infinity without a ttlMs), see refreshDiscoveryIfStale. */
	private discoveryStaleAt = Infinity;
	private rediscovering = false;

	private constructor(
		private readonly transport: Transport,
		private readonly options: ClientOptions,
	) {
		const self = this as Mutable<McpClient>;
		self.name = options.name ?? transport.kind;
		this.logger = options.logger ?? nullLogger;
		this.handlers = options.handlers ?? {};
		this.connection = new JsonRpcConnection(transport, {
			name: this.name,
			logger: this.logger,
			timeoutMs: options.timeoutMs,
			clock: options.clock,
		});
		const connection = this.connection;
		this.tasks = new TaskRequestor(
			{
				name: this.name,
				logger: this.logger,
				// send(): a modern server's tasks/* requests carry the request metadata like every other request.
				request: (method, params, requestOptions) => this.send(method, params, requestOptions),
				canCancel: () => this.serverCapabilities?.tasks?.cancel !== undefined,
				canList: () => this.serverCapabilities?.tasks?.list !== undefined,
				dialect: () => (this.era === 'modern' ? 'extension' : 'legacy'),
				answerInput: (requests, signal, where) => answerInputRequests(requests, this.handlers, signal, where),
				// Status of live extension tasks is pushed on subscriptions/listen when the server agrees (polled regardless).
				watch: (taskIds) => {
					if (this.era === 'modern' && !this.isClosed && (taskIds.length > 0 || this.listenStream))
						this.listener().watchTasks(taskIds);
				},
			},
			{ clock: options.taskClock, maxInputRounds: options.maxTaskInputRounds },
		);
		this.receiver =
			this.handlers.tasks && (this.handlers.sampling || this.handlers.elicitation)
				? new TaskReceiver({
						name: this.name,
						logger: this.logger,
						notify: (method, params) => connection.notify(method, params),
					})
				: undefined;
		this.connection.onDidClose((error) => {
			this.listenStream?.close();
			this.tasks.close(error);
			this.receiver?.dispose();
			this.closeEmitter.fire(error);
			for (const emitter of [
				this.closeEmitter,
				this.discoveryEmitter,
				this.toolsEmitter,
				this.promptsEmitter,
				this.resourcesEmitter,
				this.resourceUpdatedEmitter,
				this.logEmitter,
				this.progressEmitter,
				this.elicitationCompleteEmitter,
			]) {
				(emitter as Emitter<unknown>).dispose();
			}
		});
		this.registerNotifications();
		this.registerServerRequests();
		transport.setRequestHeaders?.((message) => this.paramHeaders(message));
	}

	/**
	 * Starts the transport and finds the server's era: `server/discover` with 2026-07-28 in `_meta` (a modern server
	 * answers it or a modern error; over HTTP the body of a 400 tells); anything else (another error, silence for
	 * `probeTimeoutMs` on stdio) means a legacy server, which then gets `initialize` (offering 2025-11-25) and
	 * `notifications/initialized`. Legacy HTTP+SSE servers are not probed.
	 * Rejects with an McpError and closes the transport when: the transport cannot start (TransportFailed), the
	 * server does not answer in `connectTimeoutMs` (RequestTimeout), answers an error, answers a malformed result
	 * or no protocol version this client speaks (ProtocolViolation), or the connection closes (ConnectionClosed).
	 */
	static async connect(transport: Transport, options: ClientOptions = {}): Promise<McpClient> {
		const client = new McpClient(transport, options);
		try {
			await client.open();
		} catch (error) {
			await client.connection.close();
			throw error;
		}
		return client;
	}

	get isClosed(): boolean {
		return this.connection.isClosed;
	}

	/** Every tool, following `nextCursor` to the end. Also remembers each tool's outputSchema for callTool. */
	async listTools(options?: ListOptions): Promise<Tool[]> {
		this.requireCapability('tools/list', 'tools');
		const number = ++this.toolListings;
		let tools = await this.paginate('tools/list', 'ListToolsResultSchema', 'tools', options);
		if (this.transport.kind === 'http') {
			tools = this.checkParamHeaders(tools);
		}
		// Overlapping listings may finish out of order: outputSchemas come from the newest one started, never an older.
		if (number > this.knownToolsListing) {
			this.knownToolsListing = number;
			this.knownTools = new Map(tools.map((tool) => [tool.name, tool]));
		}
		return tools;
	}

	/**
	 * Calls a tool and resolves to the raw result (isError results resolve too: they are the tool's answer).
	 * A tool whose `execution.taskSupport` is `required` (or any tool with `options.task`) runs as a task: the call
	 * resolves with the task's final result, reporting its states through `options.onTaskStatus` and its progress
	 * through `options.onProgress` (see CallToolOptions).
	 * When the last `tools/list` gave the tool an outputSchema, `structuredContent` is validated against it (the
	 * validator is built on the tool's first call and cached); a mismatch, or a missing structuredContent in a
	 * non-error result, rejects with a ProtocolViolation McpError naming the tool and the path. Before any
	 * `tools/list` the result is not validated (listing just for that would cost a round trip and may be large).
	 */
	async callTool(name: string, args?: Record<string, unknown>, options?: CallToolOptions): Promise<CallToolResult> {
		this.requireCapability('tools/call', 'tools');
		if (this.runsAsTask(name, options?.task)) {
			return this.callAsTask(name, args, options);
		}
		let raw: Record<string, unknown>;
		try {
			raw = await this.callToolOnce(name, args, options);
		} catch (error) {
			// A tool this client has not seen in a tools/list may require a task: "Servers MUST return a -32601 (Method
			// not found) error if a client does not attempt to do so" (server-everything answers -32600). Ask again as one.
			if (
				options?.task === undefined &&
				this.knownTools?.has(name) !== true &&
				this.supportsToolTasks() &&
				error instanceof McpError &&
				(error.code === ErrorCode.MethodNotFound || error.code === ErrorCode.InvalidRequest)
			) {
				this.logger.debug(
					`${this.name}: tools/call of "${name}" answered ${error.code} (${error.message}); trying it as a task`,
				);
				return this.callAsTask(name, args, options);
			}
			throw error;
		}
		if (raw.resultType === 'task') {
			// 2026-07-28 tasks extension: the server chose to run this call as a task; follow it to its result.
			return this.adoptToolTask(name, raw, options).result();
		}
		return this.checkToolResult(name, raw);
	}

	/**
	 * Follows the task a 2026-07-28 server created for a tools/call (`resultType: "task"`): polls `tasks/get` at its
	 * `pollIntervalMs`, answers its input requests through the handlers and `tasks/update`, cancels with `tasks/cancel`
	 * when `options.signal` aborts, and reports the handle through `options.onTaskCreated`.
	 */
	private adoptToolTask(name: string, raw: Record<string, unknown>, options: CallToolOptions | undefined): ToolTask {
		const handle = this.tasks.adopt('tools/call', raw, {
			label: name,
			parseResult: (result) => this.checkToolResult(name, result, 'tasks/get'),
			onStatus: options?.onTaskStatus,
			signal: options?.signal ?? options?.cancelWith?.signal,
		});
		this.logger.debug(
			`${this.name}: tool "${name}" runs as task ${handle.taskId} (${handle.status}, pollIntervalMs ${handle.task.pollInterval ?? 'not given'})`,
		);
		options?.onTaskCreated?.(handle);
		return handle;
	}

	/**
	 * Starts a tool call as a task (MCP 2025-11-25) and resolves with its handle once the server created it: `taskId`,
	 * `task` (the latest state), `onDidChange`, `result()` (the CallToolResult, as callTool) and `cancel()`.
	 * Rejects with CapabilityMissing when the server did not advertise `tasks.requests.tools.call`, or the server's
	 * error (e.g. -32601 for a tool whose taskSupport is `forbidden`). A server that answers with the result directly
	 * gives a handle that is already settled.
	 */
	async startToolTask(name: string, args?: Record<string, unknown>, options: CallToolOptions = {}): Promise<ToolTask> {
		this.requireCapability('tools/call', 'tools');
		if (this.era === 'modern') {
			// The tasks extension is server-directed: "The server is the sole decider; clients do not signal task preference".
			const raw = await this.callToolOnce(name, args, options);
			if (raw.resultType === 'task') return this.adoptToolTask(name, raw, options);
			const handle = this.tasks.direct('tools/call', name, this.checkToolResult(name, raw), raw, options.onTaskStatus);
			options.onTaskCreated?.(handle);
			return handle;
		}
		if (!this.supportsToolTasks()) {
			throw new McpError(
				ErrorCode.CapabilityMissing,
				`${this.name} cannot run tools as tasks (it did not advertise the 'tasks.requests.tools.call' capability)`,
				{
					method: 'tools/call',
					capability: 'tasks.requests.tools.call',
				},
			);
		}
		const ttl = typeof options.task === 'object' ? options.task.ttl : undefined;
		const handle = await this.tasks.create(
			'tools/call',
			{ name, arguments: args ?? {} },
			{
				ttl,
				signal: options.signal ?? options.cancelWith?.signal,
				timeoutMs: options.timeoutMs,
				onProgress: options.onProgress,
				onStatus: options.onTaskStatus,
				label: name,
				parseResult: (raw) => this.checkToolResult(name, raw, 'tasks/result'),
				parseDirect: (raw) => this.checkToolResult(name, raw),
			},
		);
		options.onTaskCreated?.(handle);
		return handle;
	}

	/**
	 * Follows a tool task started earlier (e.g. before a window reload) by its id: one tasks/get, then polling as for a
	 * task started now. Rejects with InvalidParams naming the task when the server no longer knows it.
	 */
	resumeToolTask(
		taskId: string,
		toolName: string,
		options: { onTaskStatus?: (task: Task) => void } = {},
	): Promise<ToolTask> {
		return this.tasks.resume(taskId, {
			method: 'tools/call',
			label: toolName,
			parseResult: (raw) => this.checkToolResult(toolName, raw, 'tasks/result'),
			onStatus: options.onTaskStatus,
		});
	}

	/** The tasks this client follows now (started with startToolTask, callTool or resumeToolTask, not yet settled). */
	get liveTasks(): readonly ToolTask[] {
		return this.tasks.liveTasks as ToolTask[];
	}

	/** `tasks/get`: the current state of a task on the server. An unknown id rejects with the server's -32602. */
	getTask(taskId: string): Promise<Task> {
		return this.tasks.sendGet(taskId);
	}

	/**
	 * `tasks/cancel`, when the server advertised `tasks.cancel` (CapabilityMissing otherwise); resolves with the task.
	 * A 2026-07-28 server (tasks extension) only acknowledges it: resolves undefined; `getTask` tells what came of it.
	 */
	async cancelTask(taskId: string): Promise<Task | undefined> {
		if (this.era !== 'modern') this.requireCapability('tasks/cancel', 'tasks', 'cancel');
		return this.tasks.sendCancel(taskId);
	}

	/** `tasks/list`, every page; CapabilityMissing unless the server advertised `tasks.list`. */
	listTasks(options?: RequestOptions): Promise<Task[]> {
		return this.tasks.list(options);
	}

	/**
	 * True when the server advertised the 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks` in its
	 * `server/discover` capabilities): any tools/call may then come back as a task, at the server's choice.
	 */
	supportsTasksExtension(): boolean {
		const extensions = (this.serverCapabilities as { extensions?: unknown }).extensions;
		return this.era === 'modern' && isRecord(extensions) && extensions[TASKS_EXTENSION] !== undefined;
	}

	/** True when the server advertised task-augmented `tools/call` (2025-11-25; a modern server decides per call instead). */
	supportsToolTasks(): boolean {
		if (this.era === 'modern') return false;
		const tasks = this.serverCapabilities.tasks as { requests?: { tools?: { call?: unknown } } } | undefined;
		return tasks?.requests?.tools?.call !== undefined && tasks.requests.tools.call !== null;
	}

	/** The tool's `execution.taskSupport` from the last tools/list: `required`, `optional`, or `forbidden` (also when absent or unknown). */
	toolTaskSupport(name: string): 'required' | 'optional' | 'forbidden' {
		const support = this.knownTools?.get(name)?.execution?.taskSupport;
		return support === 'required' || support === 'optional' ? support : 'forbidden';
	}

	private runsAsTask(name: string, task: boolean | TaskMetadata | undefined): boolean {
		if (task === false || this.era === 'modern') {
			// 2026-07-28: the server decides per call; a task it returns is followed by callTool.
			return false;
		}
		if (task !== undefined) {
			return true;
		}
		// "If execution.taskSupport is "required", clients MUST invoke the tool as a task."
		return this.knownTools?.get(name)?.execution?.taskSupport === 'required' && this.supportsToolTasks();
	}

	private async callAsTask(
		name: string,
		args: Record<string, unknown> | undefined,
		options: CallToolOptions | undefined,
	): Promise<CallToolResult> {
		const handle = await this.startToolTask(name, args, {
			...options,
			task: options?.task === undefined || options.task === true ? undefined : options.task,
		});
		return handle.result();
	}

	/**
	 * One tools/call, with input_required rounds (2026-07-28). A HeaderMismatch (-32020) over HTTP: "the client SHOULD
	 * call tools/list to check for changes to the tool's inputSchema, then retry the original request" (once).
	 */
	private callToolOnce(
		name: string,
		args: Record<string, unknown> | undefined,
		options: RequestOptions | undefined,
	): Promise<Record<string, unknown>> {
		const first = this.sendWithInput('tools/call', { name, arguments: args ?? {} }, options, `tool "${name}"`);
		// Only HTTP has headers to mismatch; elsewhere the promise goes back as it is (one promise less per call).
		if (this.transport.kind !== 'http') return first;
		return first.catch(async (error: unknown) => {
			if (!(error instanceof McpError && error.code === ModernErrorCode.HeaderMismatch)) throw error;
			this.logger.warn(`${error.message}; listing tools again and retrying once`);
			await this.listTools(options);
			this.toolsEmitter.fire();
			return this.sendWithInput('tools/call', { name, arguments: args ?? {} }, options, `tool "${name}"`);
		});
	}

	/**
	 * A tools/call (or tasks/result) answer as a CallToolResult. When the last `tools/list` gave the tool an
	 * outputSchema, `structuredContent` is validated against it (see callTool).
	 */
	private checkToolResult(name: string, raw: Record<string, unknown>, method = 'tools/call'): CallToolResult {
		// The hot path: a result of the usual shape is checked structurally (what CallToolResultSchema checks, without
		// copying it); anything else goes through the schema, which fills defaults and names the path of a problem.
		const result = isPlainCallToolResult(raw)
			? (raw as CallToolResult)
			: this.parse('CallToolResultSchema', raw, method);
		const outputSchema = this.knownTools?.get(name)?.outputSchema;
		if (outputSchema && !result.isError) {
			if (result.structuredContent === undefined) {
				throw new McpError(
					ErrorCode.ProtocolViolation,
					`Tool "${name}" of ${this.name} has an outputSchema but returned no structuredContent`,
					{ tool: name },
				);
			}
			const check = this.validatorFor(name, outputSchema)(result.structuredContent);
			if (!check.ok) {
				throw new McpError(
					ErrorCode.ProtocolViolation,
					`Tool "${name}" of ${this.name} returned structuredContent that does not match its outputSchema ${check.message}`,
					{
						tool: name,
						issues: check.issues,
					},
				);
			}
		}
		return result;
	}

	async listResources(options?: ListOptions): Promise<Resource[]> {
		this.requireCapability('resources/list', 'resources');
		return this.paginate('resources/list', 'ListResourcesResultSchema', 'resources', options);
	}

	async listResourceTemplates(options?: ListOptions): Promise<ResourceTemplate[]> {
		this.requireCapability('resources/templates/list', 'resources');
		return this.paginate('resources/templates/list', 'ListResourceTemplatesResultSchema', 'resourceTemplates', options);
	}

	/** Reads a resource. A 2026-07-28 result keeps its `ttlMs` / `cacheScope` (see cacheHintsOf, neededInput). */
	async readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult> {
		this.requireCapability('resources/read', 'resources');
		const raw = await this.sendWithInput('resources/read', { uri }, options, `resource ${uri}`);
		const result = this.parse('ReadResourceResultSchema', raw, 'resources/read');
		if (this.inputResults.has(raw)) this.inputResults.add(result);
		return result;
	}

	/**
	 * True for a result of readResource, getPrompt or callTool that came after input_required rounds: "Results produced
	 * by retrying a request through the multi round-trip requests mechanism ... MUST NOT be cached".
	 */
	neededInput(result: object): boolean {
		return this.inputResults.has(result);
	}

	/**
	 * Asks for `notifications/resources/updated` of `uri` (see onDidUpdateResource). Legacy: `resources/subscribe`.
	 * Modern (2026-07-28 has no resources/subscribe): adds the URI to the `subscriptions/listen` filter and resolves once
	 * the server acknowledged a listen including it; rejects with CapabilityMissing when the acknowledgment leaves it out.
	 */
	async subscribe(uri: string, options?: RequestOptions): Promise<void> {
		this.requireCapability('resources/subscribe', 'resources', 'subscribe');
		if (this.era === 'modern') {
			return this.listener().subscribe(uri);
		}
		this.parse('EmptyResultSchema', await this.send('resources/subscribe', { uri }, options), 'resources/subscribe');
	}

	/** Legacy: `resources/unsubscribe`. Modern: the URI leaves the `subscriptions/listen` filter. */
	async unsubscribe(uri: string, options?: RequestOptions): Promise<void> {
		this.requireCapability('resources/unsubscribe', 'resources', 'subscribe');
		if (this.era === 'modern') {
			this.listenStream?.unsubscribe(uri);
			return;
		}
		this.parse(
			'EmptyResultSchema',
			await this.send('resources/unsubscribe', { uri }, options),
			'resources/unsubscribe',
		);
	}

	/**
	 * Which list changes the caller wants notified (onDidChangeTools/Prompts/Resources). Modern servers send them only
	 * on a `subscriptions/listen` stream that asked for them: this opens, changes or (all false) ends that stream, and
	 * keeps it open, listening again after a drop with a backoff, until the client closes. Legacy servers send list
	 * changes unasked: nothing to do.
	 */
	listenForChanges(lists: ListenLists): void {
		if (this.era !== 'modern' || this.isClosed) return;
		this.listener().want(lists);
	}

	private listener(): ListenStream {
		if (!this.listenStream) {
			const listen = this.options.listen;
			this.listenStream = new ListenStream({
				name: this.name,
				logger: this.logger,
				clock: listen?.clock ?? this.options.clock ?? systemClock,
				request: (params, options) =>
					this.connection.request('subscriptions/listen', withRequestMeta(params, this.requestMeta ?? {}), options),
				isClosed: () => this.connection.isClosed,
				ackTimeoutMs: listen?.ackTimeoutMs ?? this.options.timeoutMs,
				initialDelayMs: listen?.retryDelayMs,
				maxDelayMs: listen?.maxRetryDelayMs,
			});
		}
		return this.listenStream;
	}

	async listPrompts(options?: ListOptions): Promise<Prompt[]> {
		this.requireCapability('prompts/list', 'prompts');
		return this.paginate('prompts/list', 'ListPromptsResultSchema', 'prompts', options);
	}

	async getPrompt(name: string, args?: Record<string, string>, options?: RequestOptions): Promise<GetPromptResult> {
		this.requireCapability('prompts/get', 'prompts');
		const params = args === undefined ? { name } : { name, arguments: args };
		return this.parse(
			'GetPromptResultSchema',
			await this.sendWithInput('prompts/get', params, options, `prompt "${name}"`),
			'prompts/get',
		);
	}

	/** `completion/complete`; `context.arguments` carries the values of arguments already filled in (2025-06-18+). */
	async complete(
		ref: CompletionReference,
		argument: { name: string; value: string },
		context?: { arguments?: Record<string, string> },
		options?: RequestOptions,
	): Promise<CompleteResult> {
		this.requireCapability('completion/complete', 'completions');
		const params = context === undefined ? { ref, argument } : { ref, argument, context };
		return this.parse(
			'CompleteResultSchema',
			await this.send('completion/complete', params, options),
			'completion/complete',
		);
	}

	/**
	 * Legacy: `logging/setLevel`. Modern: 2026-07-28 removed that method; the level goes into every later request's
	 * `_meta` (`io.modelcontextprotocol/logLevel`), so nothing is sent now.
	 */
	async setLoggingLevel(level: LoggingLevel, options?: RequestOptions): Promise<void> {
		this.requireCapability('logging/setLevel', 'logging');
		if (this.era === 'modern') {
			this.logLevel = level;
			this.useVersion(this.protocolVersion);
			return;
		}
		this.parse(
			'EmptyResultSchema',
			await this.connection.request('logging/setLevel', { level }, options),
			'logging/setLevel',
		);
	}

	/** Legacy: sends `ping`. Modern (which removed `ping`): sends `server/discover`. Resolves when the server answers. */
	async ping(options?: RequestOptions): Promise<void> {
		if (this.era === 'modern') {
			await this.send('server/discover', undefined, options);
			return;
		}
		await this.connection.request('ping', undefined, options);
	}

	/**
	 * Sends notifications/roots/list_changed (when the roots handler was supplied; otherwise does nothing). Modern
	 * servers ask for roots inside each request (2026-07-28 removed the notification), so nothing is sent to them.
	 */
	async notifyRootsChanged(): Promise<void> {
		if (this.handlers.roots && this.era === 'legacy') {
			await this.connection.notify('notifications/roots/list_changed');
		}
	}

	/** Closes the transport; pending requests fail with ConnectionClosed. Idempotent. */
	close(): Promise<void> {
		return this.connection.close();
	}

	// ---- era detection, probe and handshake ----

	private async open(): Promise<void> {
		await this.connection.start();
		const pinned = this.options.protocolVersion;
		if (pinned !== undefined && !ALL_PROTOCOL_VERSIONS.includes(pinned)) {
			throw new McpError(
				ErrorCode.ProtocolViolation,
				`${this.name}: the pinned protocol version ${pinned} is not one this client speaks (${ALL_PROTOCOL_VERSIONS.join(', ')})`,
				{ pinned },
			);
		}
		if (pinned !== undefined && !isModernVersion(pinned)) {
			this.logger.info(`${this.name}: protocol pinned to ${pinned}: using initialize`);
			return this.initialize([pinned]);
		}
		if (pinned !== undefined) {
			this.modernAllowed = [pinned];
		}
		if (this.transport.kind === 'sse') {
			// The HTTP+SSE transport of 2024-11-05 predates 2026-07-28: nothing to probe.
			return this.initialize();
		}
		if (pinned === undefined && this.options.knownEra === 'legacy') {
			try {
				return await this.initialize();
			} catch (error) {
				if (this.connection.isClosed || !(error instanceof McpError) || error.code === ErrorCode.ProtocolViolation)
					throw error;
				// "re-probing if the cached assumption later fails" (spec, versioning)
				this.logger.info(`${this.name}: initialize failed (${error.message}); probing with server/discover`);
			}
		}
		const outcome = await this.probe(pinned !== undefined, true);
		if (outcome.era === 'legacy') {
			this.transportVersion = undefined;
			this.transport.setProtocolVersion?.(undefined);
			try {
				await this.initialize(outcome.versions);
			} catch (error) {
				if (!outcome.timedOut || !isModernError(error) || this.connection.isClosed) throw error;
				// A modern server that was slower to start than the probe's timeout refuses initialize with a modern error.
				this.logger.info(
					`${this.name}: initialize was refused (${error.message}): a 2026-07-28 server that was slow to answer server/discover; asking again`,
				);
				const again = await this.probe(false, false);
				if (again.era === 'legacy') throw error;
			}
		}
	}

	/**
	 * `server/discover` with the newest modern version. "The server returns a DiscoverResult: the server is modern ...
	 * a recognized modern JSON-RPC error such as UnsupportedProtocolVersionError: ... Use one of the versions in its
	 * advertised supported list. Do not fall back to initialize. ... any other error, or does not respond within a
	 * reasonable timeout: the server is legacy."
	 * Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio#backward-compatibility
	 */
	private async probe(pinned: boolean, short: boolean): Promise<ProbeOutcome> {
		const connectTimeout = this.options.connectTimeoutMs ?? this.options.timeoutMs;
		const probeTimeout = short
			? (this.options.probeTimeoutMs ??
				(this.transport.kind === 'stdio' ? DEFAULT_STDIO_PROBE_TIMEOUT_MS : connectTimeout))
			: connectTimeout;
		const timeoutMs =
			probeTimeout === undefined
				? connectTimeout
				: connectTimeout === undefined
					? probeTimeout
					: Math.min(probeTimeout, connectTimeout);
		let version = this.modernAllowed[0] ?? MODERN_PROTOCOL_VERSIONS[0];
		for (let attempt = 0; ; attempt++) {
			this.useVersion(version);
			let raw: Record<string, unknown>;
			try {
				raw = await this.connection.request(
					'server/discover',
					withRequestMeta(undefined, this.requestMeta ?? {}),
					timeoutMs === undefined ? undefined : { timeoutMs },
				);
			} catch (error) {
				if (error instanceof McpError && error.code === ModernErrorCode.UnsupportedProtocolVersion) {
					const supported = supportedVersionsOf(error);
					const common = pickCommonVersion(supported, this.modernAllowed);
					if (common !== undefined && attempt === 0) {
						this.logger.info(
							`${this.name}: the server does not speak ${version} (it supports ${supported.join(', ') || 'nothing it named'}); retrying server/discover with ${common}`,
						);
						version = common;
						continue;
					}
					const legacy = pickCommonVersion(supported, SUPPORTED_PROTOCOL_VERSIONS);
					if (legacy !== undefined && !pinned) {
						this.logger.info(
							`${this.name}: the server supports ${supported.join(', ')}; using initialize with ${legacy}`,
						);
						return { era: 'legacy', versions: SUPPORTED_PROTOCOL_VERSIONS.filter((v) => supported.includes(v)) };
					}
					throw new McpError(
						ErrorCode.ProtocolViolation,
						`${this.name} supports protocol versions ${supported.join(', ') || '(none named)'}; this client ${pinned ? `is pinned to ${version}` : `speaks ${ALL_PROTOCOL_VERSIONS.join(', ')}`}`,
						{ supported },
					);
				}
				if (isModernError(error)) {
					throw this.explain(error, 'server/discover');
				}
				// Not by code ConnectionClosed: a legacy server's own -32000 ("Server not initialized") shares it.
				if (
					this.connection.isClosed ||
					(error instanceof McpError &&
						(error.code === ErrorCode.Unauthorized || error.code === ErrorCode.RequestCancelled))
				) {
					throw error;
				}
				const why = error instanceof McpError ? error.message : String(error);
				if (pinned) {
					throw new McpError(
						ErrorCode.ProtocolViolation,
						`${this.name}: the protocol version is pinned to ${version}, but server/discover failed: ${why}`,
						{ pinned: version },
					);
				}
				this.logger.info(
					`${this.name}: server/discover failed (${why}): a server from before 2026-07-28; using initialize`,
				);
				return { era: 'legacy', timedOut: error instanceof McpError && error.code === ErrorCode.RequestTimeout };
			}
			return this.adoptDiscover(this.ensureComplete('server/discover', raw), pinned);
		}
	}

	/** Takes a modern server's `server/discover` answer: version, capabilities, identity, instructions. */
	private adoptDiscover(raw: Record<string, unknown>, pinned: boolean): ProbeOutcome {
		if (!pinned && raw.supportedVersions === undefined && raw.resultType === undefined) {
			// Some legacy servers answer every unknown method with an empty success: that is not a DiscoverResult.
			this.logger.info(
				`${this.name}: server/discover was answered without supportedVersions: a server from before 2026-07-28; using initialize`,
			);
			return { era: 'legacy' };
		}
		const result = this.parse('DiscoverResultSchema', raw, 'server/discover');
		const version = pickCommonVersion(result.supportedVersions, this.modernAllowed);
		if (version === undefined) {
			const legacy = SUPPORTED_PROTOCOL_VERSIONS.filter((v) => result.supportedVersions.includes(v));
			if (legacy.length > 0 && !pinned) {
				this.logger.info(
					`${this.name}: server/discover lists ${result.supportedVersions.join(', ')}; using initialize`,
				);
				return { era: 'legacy', versions: legacy };
			}
			throw new McpError(
				ErrorCode.ProtocolViolation,
				`${this.name}: server/discover lists protocol versions ${result.supportedVersions.join(', ') || '(none)'}; this client ${pinned ? `is pinned to ${this.modernAllowed.join(', ')}` : `speaks ${ALL_PROTOCOL_VERSIONS.join(', ')}`}`,
				{ supported: result.supportedVersions },
			);
		}
		const self = this as Mutable<McpClient>;
		self.era = 'modern';
		self.supportedVersions = result.supportedVersions;
		self.serverCapabilities = result.capabilities;
		self.serverInfo = serverInfoOf(raw) ?? { name: this.name, version: '' };
		self.instructions = result.instructions;
		self.discoverCacheHints = cacheHintsOf(raw);
		this.discoveryStaleAt = this.discoveryFreshUntil();
		this.useVersion(version);
		this.logger.info(
			`${this.name}: connected to ${this.serverInfo.name} ${this.serverInfo.version} (protocol ${version}, per-request metadata, no handshake)`,
		);
		return { era: 'modern' };
	}

	/** Sets the modern version: the `_meta` every request carries and, over HTTP, the MCP-Protocol-Version header. */
	private useVersion(version: string): void {
		(this as Mutable<McpClient>).protocolVersion = version;
		this.requestMeta = buildRequestMeta({
			protocolVersion: version,
			clientInfo: this.options.clientInfo ?? DEFAULT_CLIENT_INFO,
			clientCapabilities: this.clientCapabilities(true),
			logLevel: this.logLevel,
		});
		if (this.transportVersion !== version) {
			this.transportVersion = version;
			this.transport.setProtocolVersion?.(version);
		}
	}

	private async initialize(offered: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS): Promise<void> {
		const timeoutMs = this.options.connectTimeoutMs ?? this.options.timeoutMs;
		const offer = offered[0] ?? LATEST_PROTOCOL_VERSION;
		const raw = await this.connection.request(
			'initialize',
			{
				protocolVersion: offer,
				capabilities: this.clientCapabilities(false),
				clientInfo: this.options.clientInfo ?? DEFAULT_CLIENT_INFO,
			},
			timeoutMs === undefined ? undefined : { timeoutMs },
		);
		// The usual shape is checked structurally (plainResults.ts): a session that needs nothing else never loads zod.
		const result = isPlainInitializeResult(raw)
			? (raw as InitializeResult)
			: this.parse('InitializeResultSchema', raw, 'initialize');
		// Spec: "If the client does not support the version in the server's response, it SHOULD disconnect."
		if (!offered.includes(result.protocolVersion)) {
			throw new McpError(
				ErrorCode.ProtocolViolation,
				`${this.name} answered with protocol version ${result.protocolVersion}, which this client does not speak through initialize (it offered ${offer}${offered.length > 1 ? `; it also accepts ${offered.slice(1).join(', ')}` : ''})`,
				{ offered: offer, answered: result.protocolVersion },
			);
		}
		const self = this as Mutable<McpClient>;
		self.protocolVersion = result.protocolVersion;
		self.serverCapabilities = result.capabilities;
		self.serverInfo = result.serverInfo;
		self.instructions = result.instructions;
		// HTTP transports send MCP-Protocol-Version on every request from now on.
		this.transport.setProtocolVersion?.(result.protocolVersion);
		await this.connection.notify('notifications/initialized');
		this.logger.info(
			`${this.name}: connected to ${result.serverInfo.name} ${result.serverInfo.version} (protocol ${result.protocolVersion})`,
		);
	}

	/** Capabilities only for the handlers supplied. */
	private clientCapabilities(modern: boolean): ClientCapabilities {
		const capabilities: ClientCapabilities = {};
		const handlers = this.handlers;
		if (handlers.roots) {
			// 2026-07-28 removed notifications/roots/list_changed: a modern server asks for roots in each request.
			capabilities.roots = modern ? {} : { listChanged: true };
		}
		if (handlers.sampling) {
			capabilities.sampling = handlers.samplingTools ? { tools: {} } : {};
		}
		if (handlers.elicitation) {
			capabilities.elicitation = handlers.elicitationUrl ? { form: {}, url: {} } : { form: {} };
		}
		// The host's extensions (MCP Apps) are added to the ones the client itself implements, never in their place: the
		// host's entry once replaced the tasks entry, and a server that requires tasks refused every call.
		const extensions: Record<string, object> = {};
		if (modern) {
			// "The client includes io.modelcontextprotocol/tasks in its per-request capabilities": callTool follows any
			// task the server returns. https://github.com/modelcontextprotocol/ext-tasks/blob/main/specification/draft/tasks.md
			extensions[TASKS_EXTENSION] = {};
		}
		if (handlers.extensions) Object.assign(extensions, handlers.extensions);
		if (Object.keys(extensions).length > 0) capabilities.extensions = extensions;
		if (this.receiver && !modern) {
			// https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#client-capabilities
			const requests: Record<string, object> = {};
			if (handlers.sampling) requests.sampling = { createMessage: {} };
			if (handlers.elicitation) requests.elicitation = { create: {} };
			capabilities.tasks = { list: {}, cancel: {}, requests };
		}
		return capabilities;
	}

	// ---- requests in both eras ----

	/**
	 * Modern: runs `server/discover` again, in the background, when its answer is past its `ttlMs` and a request needs
	 * the server ("Once the TTL expires, the response is stale and the client SHOULD re-fetch on next access";
	 * "Clients SHOULD NOT treat TTL as a polling interval", https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching).
	 * The request goes on with what is known ("Clients MAY serve stale responses"); new capabilities, instructions or
	 * server identity fire onDidChangeDiscovery. A ttlMs of 0 re-runs it at most every MIN_DISCOVER_AGE_MS; none, never.
	 */
	refreshDiscoveryIfStale(): void {
		if (this.rediscovering || this.era !== 'modern' || this.isClosed || this.clock.now() < this.discoveryStaleAt)
			return;
		this.rediscovering = true;
		this.logger.debug(`${this.name}: server/discover is older than its ttlMs; discovering again`);
		this.connection
			.request('server/discover', withRequestMeta(undefined, this.requestMeta ?? {}))
			.then((raw) => this.adoptRediscover(this.ensureComplete('server/discover', raw)))
			.catch((error: unknown) => {
				if (this.isClosed) return;
				// What is known stays in use; asked again after the same delay instead of on every request.
				this.discoveryStaleAt = this.clock.now() + Math.max(this.discoverCacheHints.ttlMs ?? 0, MIN_DISCOVER_AGE_MS);
				this.logger.warn(
					`${this.name}: server/discover (run again after its ttlMs) failed: ${errorMessage(error)}; keeping what the server said before`,
				);
			})
			.finally(() => (this.rediscovering = false));
	}

	private get clock(): Clock {
		return this.options.clock ?? systemClock;
	}

	private discoveryFreshUntil(): number {
		const ttl = this.discoverCacheHints.ttlMs;
		return ttl === undefined ? Infinity : this.clock.now() + Math.max(ttl, MIN_DISCOVER_AGE_MS);
	}

	/** A later `server/discover` answer: capabilities, instructions, identity and hints replaced; the version kept if still listed. */
	private adoptRediscover(raw: Record<string, unknown>): void {
		const result = this.parse('DiscoverResultSchema', raw, 'server/discover');
		const self = this as Mutable<McpClient>;
		const before = JSON.stringify([this.serverCapabilities, this.instructions, this.serverInfo]);
		if (!result.supportedVersions.includes(this.protocolVersion)) {
			const common = pickCommonVersion(result.supportedVersions, this.modernAllowed);
			if (common === undefined) {
				this.logger.warn(
					`${this.name}: server/discover now lists ${result.supportedVersions.join(', ') || '(none)'}, none of which this client speaks; restart the server to negotiate again`,
				);
			} else {
				this.logger.info(
					`${this.name}: server/discover now lists ${result.supportedVersions.join(', ')}; using ${common}`,
				);
				this.useVersion(common);
			}
		}
		self.supportedVersions = result.supportedVersions;
		self.serverCapabilities = result.capabilities;
		self.serverInfo = serverInfoOf(raw) ?? this.serverInfo;
		self.instructions = result.instructions;
		self.discoverCacheHints = cacheHintsOf(raw);
		this.discoveryStaleAt = this.discoveryFreshUntil();
		if (JSON.stringify([this.serverCapabilities, this.instructions, this.serverInfo]) !== before) {
			this.logger.info(
				`${this.name}: server/discover answered differently after its ttlMs (capabilities, instructions or identity changed)`,
			);
			this.discoveryEmitter.fire();
		}
	}

	/**
	 * One request. Modern era: with the request metadata in `_meta`; an UnsupportedProtocolVersion answer is retried
	 * once with a version both sides speak ("The client SHOULD select a mutually supported version from the supported
	 * list and retry the request"), and a reply stream that broke before its answer is re-issued once with a new id
	 * ("clients MUST re-issue it as a new request with a new request ID"). The server's identity is taken from each
	 * result's `_meta`. Both eras: the raw result; `resultType` is checked by the caller (complete / sendWithInput).
	 */
	private send(
		method: string,
		params: Record<string, unknown> | undefined,
		options: RequestOptions | undefined,
	): Promise<Record<string, unknown>> {
		// Not async: the connection's own promise goes back as it is, without a wrapper promise and its extra ticks.
		return this.era === 'modern'
			? this.sendModern(method, params, options)
			: this.connection.request(method, params, options);
	}

	private async sendModern(
		method: string,
		params: Record<string, unknown> | undefined,
		options: RequestOptions | undefined,
	): Promise<Record<string, unknown>> {
		if (this.discoveryStaleAt !== Infinity) this.refreshDiscoveryIfStale();
		for (let attempt = 0; ; attempt++) {
			const version = this.protocolVersion;
			try {
				const raw = await this.connection.request(method, withRequestMeta(params, this.requestMeta ?? {}), options);
				if (raw._meta !== undefined) {
					this.noteServerInfo(raw);
				}
				return raw;
			} catch (error) {
				if (error instanceof McpError && error.code === ModernErrorCode.UnsupportedProtocolVersion) {
					const supported = supportedVersionsOf(error);
					const common = pickCommonVersion(supported, this.modernAllowed);
					if (common !== undefined && attempt === 0) {
						this.logger.warn(
							`${this.name}: ${method} was refused with protocol version ${version} (the server supports ${supported.join(', ')}); retrying with ${common}`,
						);
						this.useVersion(common);
						continue;
					}
					throw new McpError(
						error.code,
						`${this.name} refused ${method} with protocol version ${version}${attempt > 0 ? ' again' : ''}: it says it supports ${supported.join(', ') || 'nothing it named'}, although server/discover listed ${this.supportedVersions?.join(', ') ?? '?'}; restart the server to negotiate again`,
						error.data,
					);
				}
				if (attempt === 0 && error instanceof McpError) {
					if ((error.data as { streamBroken?: unknown } | undefined)?.streamBroken === true) {
						this.logger.warn(`${this.name}: ${error.message}; sending ${method} again with a new request id`);
						continue;
					}
				}
				throw this.explain(error, method);
			}
		}
	}

	/** A result whose `resultType` is absent or "complete" ("clients MUST treat an absent resultType as complete"); anything else is refused. */
	private ensureComplete(method: string, raw: Record<string, unknown>): Record<string, unknown> {
		const type = raw.resultType;
		if (type === undefined || type === 'complete') {
			return raw;
		}
		// "A resultType of any value unrecognized by the client MUST be considered invalid."
		const why =
			type === 'input_required'
				? `, which ${method} may not answer (only tools/call, prompts/get and resources/read may)`
				: type === 'task'
					? `, which ${method} may not answer (the tasks extension allows it only for tools/call)`
					: ', which this client does not know';
		throw new McpError(
			ErrorCode.ProtocolViolation,
			`${this.name} answered ${method} with resultType ${JSON.stringify(type)}${why}`,
			{ method, resultType: type },
		);
	}

	/**
	 * A request that may answer `input_required` (multi round-trip): the input requests are answered by the handlers,
	 * then the request is sent again (a new id) with the same params plus `inputResponses` and the `requestState`
	 * exactly as received, until a complete result, the round limit, an error or the caller's cancellation.
	 * Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
	 */
	private async sendWithInput(
		method: string,
		params: Record<string, unknown>,
		options: RequestOptions | undefined,
		what: string,
	): Promise<Record<string, unknown>> {
		const maxRounds = this.options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
		// Made only when the server asks for input: an AbortController costs more than the rest of a call's bookkeeping.
		let signal = options?.signal;
		let request = params;
		for (let round = 1; ; round++) {
			let raw: Record<string, unknown>;
			try {
				raw = await this.send(method, request, options);
			} catch (error) {
				if (round === 1 || !(error instanceof McpError)) throw error;
				throw new McpError(
					error.code,
					`${this.name}: ${method} ${what} failed in round ${round} (after the input it asked for was sent): ${error.message}`,
					error.data,
					{ cause: error },
				);
			}
			if (raw.resultType !== 'input_required') {
				if (round > 1) this.inputResults.add(raw);
				// The tasks extension: "a tools/call that supports both MRTR and this extension may use them sequentially".
				if (raw.resultType === 'task' && method === 'tools/call' && this.era === 'modern') return raw;
				return this.ensureComplete(method, raw);
			}
			const where = `${this.name}: ${method} ${what}, round ${round}`;
			if (round > maxRounds) {
				throw new McpError(
					ErrorCode.ProtocolViolation,
					`${where}: the server still asks for input after ${maxRounds} rounds; giving up`,
					{ method, rounds: maxRounds },
				);
			}
			const input = parseInputRequired(raw, where);
			const keys = input.inputRequests ? Object.keys(input.inputRequests) : [];
			this.logger.debug(
				`${where}: the server asks for ${keys.length > 0 ? keys.join(', ') : 'nothing (retry with its requestState)'}`,
			);
			signal ??= options?.cancelWith?.signal ?? new AbortController().signal;
			const responses = input.inputRequests
				? await answerInputRequests(input.inputRequests, this.handlers, signal, where)
				: undefined;
			// Only the original params, never anything from another request ("MUST NOT be used for any other request").
			request = { ...params };
			if (responses !== undefined) request.inputResponses = responses;
			if (input.requestState !== undefined) request.requestState = input.requestState;
		}
	}

	/** A modern server's error, made to say what to do where the code means something to the user. */
	private explain(error: unknown, method: string): unknown {
		if (!(error instanceof McpError)) return error;
		switch (error.code) {
			case ModernErrorCode.MissingRequiredClientCapability: {
				const required = (error.data as { requiredCapabilities?: unknown } | undefined)?.requiredCapabilities;
				const names = typeof required === 'object' && required !== null ? Object.keys(required).join(', ') : 'unnamed';
				return new McpError(
					error.code,
					`${this.name} refused ${method}: it needs client capabilities this client did not declare (${names}): ${error.message}`,
					error.data,
					{ cause: error },
				);
			}
			case ModernErrorCode.HeaderMismatch:
				return new McpError(
					error.code,
					`${this.name} refused ${method}: its HTTP headers did not match the body: ${error.message}`,
					error.data,
					{ cause: error },
				);
			default:
				return error;
		}
	}

	private noteServerInfo(raw: Record<string, unknown>): void {
		const info = serverInfoOf(raw);
		if (info && (info.name !== this.serverInfo.name || info.version !== this.serverInfo.version)) {
			(this as Mutable<McpClient>).serverInfo = info;
		}
	}

	/**
	 * Drops tools whose `x-mcp-header` marks break the rules: "Rejection means the client MUST exclude the invalid
	 * tool from the result of tools/list ... SHOULD log a warning ... including the tool name and the reason".
	 */
	private checkParamHeaders(tools: Tool[]): Tool[] {
		const marks = new Map<string, ParamHeader[]>();
		const kept: Tool[] = [];
		for (const tool of tools) {
			const found = paramHeadersOf(tool.inputSchema);
			if ('problem' in found) {
				this.logger.warn(`${this.name}: ignored tool "${tool.name}": ${found.problem}`);
				continue;
			}
			if (found.headers.length > 0) marks.set(tool.name, found.headers);
			kept.push(tool);
		}
		this.paramHeaderMarks = marks;
		return kept;
	}

	/** `Mcp-Param-*` headers for a modern tools/call over HTTP, from the tool's `x-mcp-header` marks. */
	private paramHeaders(message: JsonRpcRequest): Record<string, string> | undefined {
		if (message.method !== 'tools/call' || this.paramHeaderMarks.size === 0) return undefined;
		const name = message.params?.name;
		const marks = typeof name === 'string' ? this.paramHeaderMarks.get(name) : undefined;
		if (!marks) return undefined;
		const args = message.params?.arguments;
		return paramHeaderValues(
			marks,
			typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : undefined,
		);
	}

	// ---- helpers ----

	/** Throws CapabilityMissing unless the server advertised `capability` (and, when given, its boolean `feature`). */
	private requireCapability(method: string, capability: keyof ServerCapabilities, feature?: string): void {
		const advertised = this.serverCapabilities[capability] as Record<string, unknown> | undefined;
		if (advertised === undefined || advertised === null || (feature !== undefined && advertised[feature] !== true)) {
			const name = feature === undefined ? capability : `${capability}.${feature}`;
			throw new McpError(
				ErrorCode.CapabilityMissing,
				`${this.name} does not support ${method} (it did not advertise the '${name}' capability)`,
				{
					method,
					capability: name,
				},
			);
		}
	}

	/** Validates a result with a prebuilt schema; a mismatch is a ProtocolViolation naming the method and path. */
	private parse<K extends keyof Schemas>(key: K, value: unknown, method: string): ReturnType<Schemas[K]['parse']> {
		const result = schemas()[key].safeParse(value);
		if (!result.success) {
			const issue = result.error.issues[0];
			const path = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
			throw new McpError(
				ErrorCode.ProtocolViolation,
				`${this.name} answered ${method} with an invalid result: at ${path}: ${issue?.message ?? 'invalid'}`,
				{
					method,
					issues: result.error.issues,
				},
			);
		}
		return result.data as ReturnType<Schemas[K]['parse']>;
	}

	/** Follows `nextCursor` to the end, stopping (with a warning) if the server repeats a cursor. */
	private async paginate<
		K extends
			| 'ListToolsResultSchema'
			| 'ListResourcesResultSchema'
			| 'ListResourceTemplatesResultSchema'
			| 'ListPromptsResultSchema',
		F extends string,
	>(
		method: string,
		key: K,
		field: F,
		options: ListOptions | undefined,
	): Promise<Array<ReturnType<Schemas[K]['parse']> extends Record<F, Array<infer T>> ? T : never>> {
		type Item = ReturnType<Schemas[K]['parse']> extends Record<F, Array<infer T>> ? T : never;
		const items: Item[] = [];
		const seen = new Set<string>();
		const onHints = options?.onCacheHints;
		const hints: CacheHints[] = [];
		const done = (): typeof items => {
			onHints?.(combineCacheHints(hints));
			return items;
		};
		let cursor: string | undefined;
		for (let page = 0; page < MAX_PAGES; page++) {
			const raw = this.ensureComplete(
				method,
				await this.send(method, cursor === undefined ? undefined : { cursor }, options),
			);
			if (onHints) hints.push(cacheHintsOf(raw));
			// A list of the usual shape is checked structurally (see PLAIN_LISTS); anything else goes through the schema,
			// which names the path of a problem.
			const result = PLAIN_LISTS[key](raw) ? raw : this.parse(key, raw, method);
			const pageItems = result[field] as Item[];
			for (const item of pageItems) {
				items.push(item);
			}
			const next = result.nextCursor as string | undefined;
			if (next === undefined || next === '') {
				return done();
			}
			if (seen.has(next)) {
				this.logger.warn(
					`${this.name}: ${method} repeated the cursor ${JSON.stringify(next)}; stopped after ${items.length} items`,
				);
				return done();
			}
			seen.add(next);
			cursor = next;
		}
		this.logger.warn(
			`${this.name}: ${method} did not end after ${MAX_PAGES} pages; stopped after ${items.length} items`,
		);
		return done();
	}

	/** The cached validator of a tool, rebuilt only when its outputSchema changed since it was built. */
	private validatorFor(tool: string, outputSchema: Record<string, unknown>): OutputValidator {
		const cached = this.validators.get(tool);
		if (cached) {
			if (cached.source === outputSchema) {
				return cached.validate;
			}
			// A new tools/list gave new objects; reuse the validator when the schema is the same.
			if (JSON.stringify(cached.source) === JSON.stringify(outputSchema)) {
				cached.source = outputSchema;
				return cached.validate;
			}
		}
		// Loaded on first need: it brings classic zod (fromJSONSchema), which importing the client must not pay for.
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { compileOutputValidator } = require('./outputValidator') as typeof import('./outputValidator');
		const validate = compileOutputValidator(outputSchema, (reason) =>
			this.logger.warn(
				`${this.name}: cannot validate the output of tool "${tool}" (its outputSchema is not supported: ${reason})`,
			),
		);
		this.validators.set(tool, { source: outputSchema, validate });
		return validate;
	}

	private registerNotifications(): void {
		const connection = this.connection;
		// A modern server's change notifications come on a subscriptions/listen stream; one tagged with the id of a listen
		// this client cancelled (a replaced filter) is a duplicate and is dropped.
		const live = (params: Record<string, unknown> | undefined) =>
			this.listenStream === undefined || this.listenStream.accepts(params);
		connection.setNotificationHandler('notifications/tools/list_changed', (params) => {
			if (live(params)) this.toolsEmitter.fire();
		});
		connection.setNotificationHandler('notifications/prompts/list_changed', (params) => {
			if (live(params)) this.promptsEmitter.fire();
		});
		connection.setNotificationHandler('notifications/resources/list_changed', (params) => {
			if (live(params)) this.resourcesEmitter.fire();
		});
		connection.setNotificationHandler('notifications/subscriptions/acknowledged', (params) =>
			this.listenStream?.acknowledged(params),
		);
		connection.setNotificationHandler('notifications/resources/updated', (params) => {
			if (!live(params)) return;
			if (typeof params?.uri === 'string') {
				this.resourceUpdatedEmitter.fire({ uri: params.uri });
			} else {
				this.logger.warn(`${this.name}: ignored notifications/resources/updated without a uri`);
			}
		});
		connection.setNotificationHandler('notifications/message', (params) => {
			const parsed = schemas().LoggingMessageNotificationSchema.safeParse(params);
			if (parsed.success) {
				this.logEmitter.fire(parsed.data);
			} else {
				this.logger.warn(`${this.name}: ignored an invalid notifications/message`);
			}
		});
		connection.setNotificationHandler('notifications/tasks/status', (params) =>
			this.tasks.handleStatusNotification(params),
		);
		// The tasks extension's notification (on a subscriptions/listen stream that asked for the task's id).
		connection.setNotificationHandler('notifications/tasks', (params) =>
			this.tasks.handleStatusNotification(params, 'notifications/tasks'),
		);
		connection.setNotificationHandler('notifications/progress', (params) => {
			// A task's progress comes after its creating request was answered: routed by the task's own token.
			this.tasks.handleProgress(params);
			// Cheap checks: progress can be frequent. The request's own onProgress already ran.
			if (this.progressEmitter.hasListeners && params && typeof params.progress === 'number') {
				this.progressEmitter.fire(params as Progress);
			}
		});
		connection.setNotificationHandler('notifications/elicitation/complete', (params) => {
			if (typeof params?.elicitationId === 'string') {
				this.elicitationCompleteEmitter.fire({ elicitationId: params.elicitationId });
			}
		});
	}

	/** The host's roots, checked like a server's answer: a wrong shape must not reach the server as if it were valid. */
	private checkedRoots(roots: unknown): Record<string, unknown> {
		const parsed = schemas().ListRootsResultSchema.safeParse({ roots });
		if (!parsed.success) {
			const issue = parsed.error.issues[0];
			const path = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
			const message = `${this.name}: the roots handler returned an invalid answer to roots/list: at ${path}: ${issue?.message ?? 'invalid'}`;
			this.logger.error(message);
			throw McpError.internal(message);
		}
		return parsed.data;
	}

	/** Routes server requests to the host's handlers; a method without a handler is answered MethodNotFound. */
	private registerServerRequests(): void {
		const { roots, sampling, elicitation } = this.handlers;
		const connection = this.connection;
		const modernRefusal = (method: string): void => {
			if (this.era === 'modern') {
				// "The server MUST NOT write JSON-RPC requests": a 2026-07-28 server asks inside results (input_required).
				this.logger.warn(
					`${this.name}: the server sent a ${method} request, which a ${this.protocolVersion} server may not send (it mixes protocol versions); refused`,
				);
				throw new McpError(
					ErrorCode.InvalidRequest,
					`${method} requests are not part of protocol ${this.protocolVersion}; use input_required results`,
				);
			}
		};
		if (roots) {
			connection.setRequestHandler('roots/list', async (_params, context) => {
				modernRefusal('roots/list');
				return this.checkedRoots(await roots(context.signal));
			});
		}
		const receiver = this.receiver;
		if (sampling) {
			connection.setRequestHandler('sampling/createMessage', async (params, context) => {
				modernRefusal('sampling/createMessage');
				const parsed = schemas().CreateMessageRequestSchema.safeParse(params);
				if (!parsed.success) {
					throw McpError.invalidParams(
						`Invalid sampling/createMessage request: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
					);
				}
				if (receiver && isRecord(params?.task)) {
					return receiver.create('sampling/createMessage', params.task, (taskSignal) =>
						sampling(parsed.data, taskSignal),
					);
				}
				return answerRelated(params, await sampling(parsed.data, context.signal));
			});
		}
		if (elicitation) {
			connection.setRequestHandler('elicitation/create', async (params, context) => {
				modernRefusal('elicitation/create');
				const parsed = schemas().ElicitRequestSchema.safeParse(params);
				if (!parsed.success) {
					throw McpError.invalidParams(
						`Invalid elicitation/create request: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
					);
				}
				if (parsed.data.mode === 'url' && !this.handlers.elicitationUrl) {
					throw McpError.invalidParams('This client does not support URL mode elicitation');
				}
				if (receiver && isRecord(params?.task)) {
					return receiver.create('elicitation/create', params.task, (taskSignal) =>
						elicitation(parsed.data, taskSignal),
					);
				}
				return answerRelated(params, await elicitation(parsed.data, context.signal));
			});
		}
		if (receiver) {
			connection.setRequestHandler('tasks/get', (params) => receiver.get(params));
			connection.setRequestHandler('tasks/result', (params) => receiver.result(params));
			connection.setRequestHandler('tasks/cancel', (params) => receiver.cancel(params));
			connection.setRequestHandler('tasks/list', (params) => receiver.list(params));
		}
	}
}
