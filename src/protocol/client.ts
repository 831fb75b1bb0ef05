/**
 * McpClient: one MCP server over one Transport, in either era. Which era a connection speaks is negotiated at
 * connect (eras/negotiation.ts decides, eras/negotiate.ts sends), and each era is one object (eras/legacyEra.ts: the
 * `initialize` handshake, 2024-11-05 .. 2025-11-25; eras/modernEra.ts: `server/discover` and per-request `_meta`,
 * 2026-07-28) that builds and sends the requests where the eras differ. This class is what both share: capability
 * gating, typed and paginated methods, multi round-trip requests, tool tasks, server notifications as events, and
 * server requests routed to the handlers the host supplied. Wire mechanics (ids, timeouts, cancellation, ordering)
 * live in JsonRpcConnection.
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle and
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
 */
import { Emitter, type Event } from '../common/event';
import { nullLogger, type Logger } from '../common/logger';
import type {
	CallToolOptions,
	ClientHandlers,
	ClientOptions,
	ListOptions,
	ProtocolEra,
	ToolTask,
} from './clientOptions';
import type { JsonRpcConnection } from './connection';
import type { MessageTap, RequestOptions } from './connectionOptions';
import type { ClientEra, EraContext, ServerFacts } from './eras/era';
import { ErrorCode } from './jsonrpc';
import { McpError } from './mcpError';
import type { CacheHints } from './modern/caching';
import { modernInputRequests, modernRequestMeta } from './modern/onFirstUse';
import { clientRuntime } from './onFirstUse';
import type { ListenLists } from './modern/subscriptions';
import type { RequestRounds } from './requestRounds';
import { parseResult, requireCapability } from './resultChecks';
import type {
	CallToolResult,
	CompleteResult,
	CompletionReference,
	GetPromptResult,
	Implementation,
	LoggingLevel,
	LoggingMessage,
	Progress,
	Prompt,
	ReadResourceResult,
	Resource,
	ResourceTemplate,
	Schemas,
	ServerCapabilities,
	Tool,
} from './schema';
import type { Task, TaskMetadata } from './tasks/task';
import type { TaskReceiver } from './tasks/taskReceiver';
import type { TaskRequestor } from './tasks/taskRequestor';
type TasksModule = typeof import('./tasks/taskRequestor');
import type { ToolCatalog } from './toolCatalog';
import type { Transport, TransportKind } from './transports/transport';
import { isRecord } from '../common/records';

export type { MessageTap, RequestOptions } from './connectionOptions';
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

/**
 * One initialized MCP session. Create it with `McpClient.connect(transport, options)`; it owns the transport and
 * closes it in `close()`. Methods reject with an McpError: CapabilityMissing (the server did not advertise the
 * feature; nothing is sent), the server's own error, RequestTimeout, RequestCancelled, ProtocolViolation (a result of
 * the wrong shape) or ConnectionClosed (naming the server and why). Events stop after `onDidClose` fired.
 */
export class McpClient {
	readonly name: string;

	/** What the server said about itself (set by the negotiation, kept current by the era). */
	private readonly facts: ServerFacts = {
		serverInfo: undefined as unknown as Implementation,
		serverCapabilities: undefined as unknown as ServerCapabilities,
		protocolVersion: undefined as unknown as string,
		instructions: undefined,
		supportedVersions: undefined,
		discoverCacheHints: { ttlMs: undefined, cacheScope: undefined },
	};

	get serverInfo(): Implementation {
		return this.facts.serverInfo;
	}
	get serverCapabilities(): ServerCapabilities {
		return this.facts.serverCapabilities;
	}
	get protocolVersion(): string {
		return this.facts.protocolVersion;
	}
	get instructions(): string | undefined {
		return this.facts.instructions;
	}
	/** Which era the server speaks: 'modern' (no handshake, 2026-07-28) or 'legacy' (`initialize`). */
	get era(): ProtocolEra {
		return this.session.kind;
	}
	/** The versions a modern server listed in `server/discover`; undefined for a legacy server. */
	get supportedVersions(): readonly string[] | undefined {
		return this.facts.supportedVersions;
	}
	/** The caching hints of the last `server/discover` answer (how long capabilities and instructions stay fresh). */
	get discoverCacheHints(): CacheHints {
		return this.facts.discoverCacheHints;
	}

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

	/** The code a client runs and an import of the core does not need (clientRuntime.ts), loaded at construction. */
	private readonly runtime: ReturnType<typeof clientRuntime>;
	private readonly connection: JsonRpcConnection;
	private readonly logger: Logger;
	private readonly handlers: ClientHandlers;
	/** The era in use: legacy until the negotiation settles it (see negotiateEra). */
	private session: ClientEra;
	/** The tasks this client started on the server: made (and its code loaded) on first use, see `tasks`. */
	private taskRequestor: TaskRequestor | undefined;
	/** The tasks the server started on this client; present when `handlers.tasks`. */
	private readonly receiver: TaskReceiver | undefined;
	/** The tools of the last complete tools/list. */
	private readonly catalog: ToolCatalog;
	/** Results that took input_required rounds: they depend on the user's answers, so no cache may keep them. */
	private readonly inputResults = new WeakSet<object>();

	private constructor(
		private readonly transport: Transport,
		private readonly options: ClientOptions,
	) {
		this.name = options.name ?? transport.kind;
		this.logger = options.logger ?? nullLogger;
		this.handlers = options.handlers ?? {};
		this.runtime = clientRuntime();
		this.catalog = new this.runtime.ToolCatalog(this.name, this.logger);
		this.connection = new this.runtime.JsonRpcConnection(transport, {
			name: this.name,
			logger: this.logger,
			timeoutMs: options.timeoutMs,
			clock: options.clock,
		});
		const connection = this.connection;
		this.receiver =
			this.handlers.tasks && (this.handlers.sampling || this.handlers.elicitation)
				? // eslint-disable-next-line @typescript-eslint/no-require-imports
					new (require('./tasks/taskReceiver') as typeof import('./tasks/taskReceiver')).TaskReceiver({
						name: this.name,
						logger: this.logger,
						notify: (method, params) => connection.notify(method, params),
					})
				: undefined;
		this.session = new this.runtime.LegacyEra(this.eraContext());
		this.connection.onDidClose((error) => {
			this.session.close();
			this.taskRequestor?.close(error);
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
		this.runtime.registerNotifications(connection, {
			name: this.name,
			logger: this.logger,
			accepts: (params) => this.session.acceptsNotification(params),
			acknowledged: (params) => this.session.acknowledged(params),
			tools: this.toolsEmitter,
			prompts: this.promptsEmitter,
			resources: this.resourcesEmitter,
			resourceUpdated: this.resourceUpdatedEmitter,
			log: this.logEmitter,
			progress: this.progressEmitter,
			elicitationComplete: this.elicitationCompleteEmitter,
			tasks: {
				handleStatusNotification: (params, method) => this.tasks.handleStatusNotification(params, method),
				handleProgress: (params) => this.taskRequestor?.handleProgress(params) ?? false, // no task: no listener
			},
		});
		this.runtime.registerServerRequests(connection, {
			name: this.name,
			logger: this.logger,
			handlers: this.handlers,
			receiver: this.receiver,
			checkRequest: (method) => this.session.checkServerRequest(method),
		});
		transport.setRequestHeaders?.((message) => this.catalog.paramHeaders(message));
	}

	/** Made on first use: the tasks code (a fifth of the core) loads for a client that uses tasks only (#28). */
	private get tasks(): TaskRequestor {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		return (this.taskRequestor ??= new (require('./tasks/taskRequestor') as TasksModule).TaskRequestor(
			{
				name: this.name,
				logger: this.logger,
				// The era's send: a modern server's tasks/* requests carry the request metadata like every other request.
				request: (method, params, requestOptions) => this.session.send(method, params, requestOptions),
				canCancel: () => this.serverCapabilities?.tasks?.cancel !== undefined,
				canList: () => this.serverCapabilities?.tasks?.list !== undefined,
				dialect: () => (this.session.tasksExtension ? 'extension' : 'legacy'),
				answerInput: (requests, signal, where) =>
					modernInputRequests().answerInputRequests(requests, this.handlers, signal, where),
				watch: (taskIds) => this.session.watchTasks(taskIds),
			},
			{ clock: this.options.taskClock, maxInputRounds: this.options.maxTaskInputRounds },
		));
	}

	/** What the era objects need from this client. */
	private eraContext(): EraContext {
		return {
			name: this.name,
			logger: this.logger,
			connection: this.connection,
			transport: this.transport,
			options: this.options,
			handlers: this.handlers,
			facts: this.facts,
			servesTasks: this.receiver !== undefined,
			discoveryChanged: () => this.discoveryEmitter.fire(),
		};
	}

	/**
	 * Starts the transport and finds the server's era (see negotiateEra): `server/discover` with 2026-07-28 in
	 * `_meta`, or `initialize` for a server from before it. Rejects with an McpError and closes the transport when: the
	 * transport cannot start (TransportFailed), the server does not answer in `connectTimeoutMs` (RequestTimeout),
	 * answers an error, answers a malformed result or no protocol version this client speaks (ProtocolViolation), or
	 * the connection closes (ConnectionClosed).
	 */
	static async connect(transport: Transport, options: ClientOptions = {}): Promise<McpClient> {
		const client = new McpClient(transport, options);
		try {
			await client.connection.start();
			client.session = await client.runtime.negotiateEra(client.eraContext());
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
		const number = this.catalog.startListing();
		const tools = await this.runtime.paginate(this.rounds, 'tools/list', 'ListToolsResultSchema', 'tools', options);
		return this.catalog.adopt(number, tools, this.transport.kind === 'http');
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
				!this.catalog.has(name) &&
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
		return this.catalog.checkResult(name, raw);
	}

	/**
	 * Follows the task a 2026-07-28 server created for a tools/call (`resultType: "task"`): polls `tasks/get` at its
	 * `pollIntervalMs`, answers its input requests through the handlers and `tasks/update`, cancels with `tasks/cancel`
	 * when `options.signal` aborts, and reports the handle through `options.onTaskCreated`.
	 */
	private adoptToolTask(name: string, raw: Record<string, unknown>, options: CallToolOptions | undefined): ToolTask {
		const handle = this.tasks.adopt('tools/call', raw, {
			label: name,
			parseResult: (result) => this.catalog.checkResult(name, result, 'tasks/get'),
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
		if (this.session.tasksExtension) {
			// The tasks extension is server-directed: "The server is the sole decider; clients do not signal task preference".
			const raw = await this.callToolOnce(name, args, options);
			if (raw.resultType === 'task') return this.adoptToolTask(name, raw, options);
			const handle = this.tasks.direct(
				'tools/call',
				name,
				this.catalog.checkResult(name, raw),
				raw,
				options.onTaskStatus,
			);
			options.onTaskCreated?.(handle);
			return handle;
		}
		if (!this.supportsToolTasks()) {
			throw new McpError(
				ErrorCode.CapabilityMissing,
				`${this.name} cannot run tools as tasks (it did not advertise the 'tasks.requests.tools.call' capability)`,
				{ method: 'tools/call', capability: 'tasks.requests.tools.call' },
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
				parseResult: (raw) => this.catalog.checkResult(name, raw, 'tasks/result'),
				parseDirect: (raw) => this.catalog.checkResult(name, raw),
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
			parseResult: (raw) => this.catalog.checkResult(toolName, raw, 'tasks/result'),
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
	 * `tasks/cancel` to a server with tasks (CapabilityMissing without any), advertised `tasks.cancel` or not; resolves
	 * with the task, rejects with the server's error (-32601 when it cannot cancel). A 2026-07-28 server (tasks
	 * extension) only acknowledges it: resolves undefined; `getTask` tells what came of it.
	 */
	async cancelTask(taskId: string): Promise<Task | undefined> {
		if (!this.session.tasksExtension) this.requireCapability('tasks/cancel', 'tasks');
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
		return this.session.tasksExtension && isRecord(extensions) && this.runtime.TASKS_EXTENSION in extensions;
	}

	/** The settings of an MCP extension the server declared in `capabilities.extensions`, or undefined. */
	serverExtension(id: string): Record<string, unknown> | undefined {
		const extensions = (this.serverCapabilities as { extensions?: unknown }).extensions;
		return isRecord(extensions) && isRecord(extensions[id]) ? extensions[id] : undefined;
	}

	/** A request of a declared extension `id` (e.g. Skills' `skills/list`), its result unchecked; else CapabilityMissing. */
	async extensionRequest(id: string, method: string, params?: object, options?: RequestOptions): Promise<unknown> {
		if (!this.serverExtension(id)) throw McpError.capabilityMissing(method, `the extension ${id}`);
		return this.session.send(method, params as Record<string, unknown> | undefined, options);
	}

	/** True when the server advertised task-augmented `tools/call` (2025-11-25; a modern server decides per call instead). */
	supportsToolTasks(): boolean {
		if (this.session.tasksExtension) return false;
		const tasks = this.serverCapabilities.tasks as { requests?: { tools?: { call?: unknown } } } | undefined;
		return tasks?.requests?.tools?.call !== undefined && tasks.requests.tools.call !== null;
	}

	/** The tool's `execution.taskSupport` from the last tools/list: `required`, `optional`, or `forbidden` (also when absent or unknown). */
	toolTaskSupport(name: string): 'required' | 'optional' | 'forbidden' {
		return this.catalog.taskSupport(name);
	}

	private runsAsTask(name: string, task: boolean | TaskMetadata | undefined): boolean {
		if (task === false || this.session.tasksExtension) {
			// 2026-07-28: the server decides per call; a task it returns is followed by callTool.
			return false;
		}
		if (task !== undefined) {
			return true;
		}
		// "If execution.taskSupport is "required", clients MUST invoke the tool as a task."
		return this.catalog.taskSupport(name) === 'required' && this.supportsToolTasks();
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
		const first = this.sendToolCall(name, args, options);
		// Only HTTP has headers to mismatch; elsewhere the promise goes back as it is (one promise less per call).
		if (this.transport.kind !== 'http') return first;
		return first.catch(async (error: unknown) => {
			if (!(error instanceof McpError && error.code === modernRequestMeta().ModernErrorCode.HeaderMismatch))
				throw error;
			this.logger.warn(`${error.message}; listing tools again and retrying once`);
			await this.listTools(options);
			this.toolsEmitter.fire();
			return this.sendToolCall(name, args, options);
		});
	}

	private sendToolCall(name: string, args: object | undefined, options: RequestOptions | undefined) {
		const params = { name, arguments: args ?? {} };
		return this.runtime.sendWithInput(this.rounds, 'tools/call', params, options, `tool "${name}"`);
	}

	async listResources(options?: ListOptions): Promise<Resource[]> {
		this.requireCapability('resources/list', 'resources');
		return this.runtime.paginate(this.rounds, 'resources/list', 'ListResourcesResultSchema', 'resources', options);
	}

	async listResourceTemplates(options?: ListOptions): Promise<ResourceTemplate[]> {
		this.requireCapability('resources/templates/list', 'resources');
		return this.runtime.paginate(
			this.rounds,
			'resources/templates/list',
			'ListResourceTemplatesResultSchema',
			'resourceTemplates',
			options,
		);
	}

	/** Reads a resource. A 2026-07-28 result keeps its `ttlMs` / `cacheScope` (see cacheHintsOf, neededInput). */
	async readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult> {
		this.requireCapability('resources/read', 'resources');
		const raw = await this.runtime.sendWithInput(this.rounds, 'resources/read', { uri }, options, `resource ${uri}`);
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
		await this.session.subscribe(uri, options);
		this.subscribed.add(uri);
	}

	/** Legacy: `resources/unsubscribe`. Modern: the URI leaves the `subscriptions/listen` filter. */
	async unsubscribe(uri: string, options?: RequestOptions): Promise<void> {
		this.requireCapability('resources/unsubscribe', 'resources', 'subscribe');
		this.subscribed.delete(uri);
		return this.session.unsubscribe(uri, options);
	}

	/** Whether a resource subscription is open (a server that is not idle while someone waits for its updates). */
	get hasSubscriptions(): boolean {
		return this.subscribed.size > 0;
	}
	private readonly subscribed = new Set<string>();

	/**
	 * Which list changes the caller wants notified (onDidChangeTools/Prompts/Resources). Modern servers send them only
	 * on a `subscriptions/listen` stream that asked for them: this opens, changes or (all false) ends that stream, and
	 * keeps it open, listening again after a drop with a backoff, until the client closes. Legacy servers send list
	 * changes unasked: nothing to do.
	 */
	listenForChanges(lists: ListenLists): void {
		this.session.listenForChanges(lists);
	}

	async listPrompts(options?: ListOptions): Promise<Prompt[]> {
		this.requireCapability('prompts/list', 'prompts');
		return this.runtime.paginate(this.rounds, 'prompts/list', 'ListPromptsResultSchema', 'prompts', options);
	}

	async getPrompt(name: string, args?: Record<string, string>, options?: RequestOptions): Promise<GetPromptResult> {
		this.requireCapability('prompts/get', 'prompts');
		const params = args === undefined ? { name } : { name, arguments: args };
		return this.parse(
			'GetPromptResultSchema',
			await this.runtime.sendWithInput(this.rounds, 'prompts/get', params, options, `prompt "${name}"`),
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
			await this.session.send('completion/complete', params, options),
			'completion/complete',
		);
	}

	/**
	 * Legacy: `logging/setLevel`. Modern: 2026-07-28 removed that method; the level goes into every later request's
	 * `_meta` (`io.modelcontextprotocol/logLevel`), so nothing is sent now.
	 */
	async setLoggingLevel(level: LoggingLevel, options?: RequestOptions): Promise<void> {
		this.requireCapability('logging/setLevel', 'logging');
		return this.session.setLoggingLevel(level, options);
	}

	/** Legacy: sends `ping`. Modern (which removed `ping`): sends `server/discover`. Resolves when the server answers. */
	ping(options?: RequestOptions): Promise<void> {
		return this.session.ping(options);
	}

	/**
	 * Sends notifications/roots/list_changed (when the roots handler was supplied; otherwise does nothing). Modern
	 * servers ask for roots inside each request (2026-07-28 removed the notification), so nothing is sent to them.
	 */
	async notifyRootsChanged(): Promise<void> {
		return this.session.notifyRootsChanged();
	}

	/** Closes the transport; pending requests fail with ConnectionClosed. Idempotent. */
	close(): Promise<void> {
		return this.connection.close();
	}

	/**
	 * Modern: runs `server/discover` again, in the background, when its answer is past its `ttlMs` and a request needs
	 * the server; new capabilities, instructions or server identity fire onDidChangeDiscovery (see
	 * ModernEra.refreshDiscoveryIfStale). Legacy: nothing to do.
	 */
	refreshDiscoveryIfStale(): void {
		this.session.refreshDiscoveryIfStale();
	}

	// ---- helpers ----

	/** Throws CapabilityMissing unless the server advertised `capability` (and, when given, its boolean `feature`). */
	private requireCapability(method: string, capability: keyof ServerCapabilities, feature?: string): void {
		requireCapability(this.name, this.serverCapabilities, method, capability, feature);
	}

	/** Validates a result with a prebuilt schema; a mismatch is a ProtocolViolation naming the method and path. */
	private parse<K extends keyof Schemas>(key: K, value: unknown, method: string): ReturnType<Schemas[K]['parse']> {
		return parseResult(this.name, key, value, method);
	}

	/** What sendWithInput and paginate need: the era in use (read live), the handlers, the round limit. */
	private get rounds(): RequestRounds {
		return {
			name: this.name,
			logger: this.logger,
			era: this.session,
			handlers: this.handlers,
			maxRounds: this.options.maxInputRounds,
			inputResults: this.inputResults,
		};
	}
}
