/**
 * The requestor side of MCP tasks for one client session: creating task-augmented requests, following each task
 * with one shared poll timer (TaskPoller), `notifications/tasks/status`, progress that arrives after the creating
 * request was answered, and the plain `tasks/get`, `tasks/result`, `tasks/cancel` and `tasks/list` methods.
 * It talks to the server through the narrow TaskWire, so the client (and a later protocol revision) can reuse it.
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
 *
 * With a 2026-07-28 server (`wire.dialect() === 'extension'`) the same requestor follows tasks of the tasks extension:
 * the server creates them on its own in answer to a plain `tools/call` (`adopt`), `tasks/get` carries the result, the
 * error or the input requests, `tasks/update` sends the answers, `tasks/cancel` is an acknowledgement, and status
 * changes arrive as `notifications/tasks`. There is no `tasks/result` and no `tasks/list` there.
 * Spec: https://github.com/modelcontextprotocol/ext-tasks/blob/main/specification/draft/tasks.md
 */
import type { Logger } from '../../common/logger';
import type { Clock, RequestOptions } from '../connectionOptions';
import { ErrorCode } from '../jsonrpc';
import { McpError } from '../mcpError';
import type { Progress } from '../schema';
import { parseExtensionTask, type TaskInputRequests } from './extensionTask';
import { isTerminal, parseTask, type Task, type TaskMetadata } from './task';
import { TaskHandle, type ResultParser, type TaskHandleOwner } from './taskHandle';
import { TaskPoller } from './taskPoller';

/** What the requestor needs from the session it works over. */
export interface TaskWire {
	/** The server's name for messages. */
	readonly name: string;
	readonly logger: Logger;
	/** Sends a request and resolves with its raw result (McpError on failure), as JsonRpcConnection.request. */
	request(
		method: string,
		params: Record<string, unknown> | undefined,
		options?: RequestOptions,
	): Promise<Record<string, unknown>>;
	/** True when the server advertised `tasks.cancel` (for the log: tasks/cancel is sent either way). */
	canCancel(): boolean;
	/** True when the server advertised `tasks.list`. */
	canList(): boolean;
	/** 'legacy': 2025-11-25 tasks; 'extension': the 2026-07-28 tasks extension (read per call: known only after connect). */
	dialect(): 'legacy' | 'extension';
	/** Extension: answers a task's input requests with the client's handlers (as for input_required results). */
	answerInput(requests: TaskInputRequests, signal: AbortSignal, where: string): Promise<Record<string, unknown>>;
	/**
	 * Extension: the ids of the tasks followed now, each time that set changes, so the session can ask for their
	 * `notifications/tasks` on `subscriptions/listen`. Polling goes on regardless (the fallback when nothing is pushed).
	 */
	watch?(taskIds: readonly string[]): void;
}

export interface TaskRequestorOptions {
	/** Requested TTL when the caller gives none, and the most a task whose TTL is null (unlimited) is followed. Default 1 hour. */
	defaultTtlMs?: number;
	/** Per-request timeout of tasks/get, tasks/cancel and tasks/list. Default: the session's. */
	timeoutMs?: number;
	/** Time source of the poll timer; tests pass a manual clock. Default: the system clock (a timer that keeps Node alive). */
	clock?: Clock;
	/** Extension: the most rounds of input requests one task may ask for. Default 50. */
	maxInputRounds?: number;
}

/** Options of one task-augmented request. */
export interface CreateTaskOptions<R> {
	/** Requested retention in ms. Default: defaultTtlMs. */
	ttl?: number;
	/** Aborting it cancels the task (tasks/cancel) and rejects with RequestCancelled. */
	signal?: AbortSignal;
	/** Timeout of the creating request only (not of the task). Default: the session's. */
	timeoutMs?: number;
	/** Progress of the task: "The progressToken provided in the initial request remains valid throughout the task lifetime." */
	onProgress?: (progress: Progress) => void;
	/** Each new state of the task (status, status message). */
	onStatus?: (task: Task) => void;
	/** The name the task goes by in messages (a tool's name). */
	label: string;
	parseResult: ResultParser<R>;
	/**
	 * When the receiver answers the request directly instead of with a task ("Receivers that do not declare the task
	 * capability for a request type MUST process requests of that type normally"), the handle settles with this
	 * parse of the answer. Default: a ProtocolViolation.
	 */
	parseDirect?: ResultParser<R>;
}

const DEFAULT_TTL_MS = 60 * 60 * 1000;
/** A task may ask for input over a long time (each round is a person's answer); a server asking without end stops here. */
const DEFAULT_MAX_TASK_INPUT_ROUNDS = 50;

let nextProgressToken = 1;

export class TaskRequestor implements TaskHandleOwner {
	/** @internal */
	readonly poller: TaskPoller;
	private readonly live = new Map<string, TaskHandle<unknown>>();
	private readonly progress = new Map<string, (progress: Progress) => void>();
	private readonly defaultTtlMs: number;
	private closedWith: McpError | undefined;

	constructor(
		private readonly wire: TaskWire,
		private readonly options: TaskRequestorOptions = {},
	) {
		this.poller = new TaskPoller(options.clock);
		this.defaultTtlMs = options.defaultTtlMs ?? DEFAULT_TTL_MS;
	}

	get name(): string {
		return this.wire.name;
	}

	get logger(): Logger {
		return this.wire.logger;
	}

	get inline(): boolean {
		return this.wire.dialect() === 'extension';
	}

	get maxInputRounds(): number {
		return this.options.maxInputRounds ?? DEFAULT_MAX_TASK_INPUT_ROUNDS;
	}

	/** The tasks being followed now. */
	get liveTasks(): ReadonlyArray<TaskHandle<unknown>> {
		return [...this.live.values()];
	}

	/**
	 * Sends `method` with `params.task = { ttl }` and resolves with a handle once the server created the task.
	 * Rejects with the server's error (e.g. -32601 for a tool that forbids tasks) or a ProtocolViolation when the
	 * answer is neither a CreateTaskResult nor (with parseDirect) a direct result.
	 */
	async create<R>(
		method: string,
		params: Record<string, unknown>,
		options: CreateTaskOptions<R>,
	): Promise<TaskHandle<R>> {
		if (this.closedWith) {
			throw this.closedWith;
		}
		const ttl = options.ttl ?? this.defaultTtlMs;
		const task: TaskMetadata = { ttl };
		let token: string | undefined;
		let sent: Record<string, unknown> = { ...params, task };
		if (options.onProgress) {
			token = `task-progress-${nextProgressToken++}`;
			const meta = params._meta;
			sent = {
				...sent,
				_meta: { ...(typeof meta === 'object' && meta !== null ? meta : undefined), progressToken: token },
			};
			// Registered before sending: progress may come before the CreateTaskResult.
			this.progress.set(token, options.onProgress);
		}
		let raw: Record<string, unknown>;
		const startedAt = this.poller.now();
		try {
			raw = await this.wire.request(method, sent, {
				signal: options.signal,
				timeoutMs: options.timeoutMs ?? this.options.timeoutMs,
			});
		} catch (error) {
			if (token) this.progress.delete(token);
			throw error;
		}
		if (raw.task === undefined && options.parseDirect) {
			if (token) this.progress.delete(token);
			return this.direct(method, options.label, options.parseDirect(raw), raw, options.onStatus);
		}
		let created: Task;
		try {
			created = parseTask(raw.task, this.name, method);
		} catch (error) {
			if (token) this.progress.delete(token);
			throw error;
		}
		const handle = this.follow(created, {
			method,
			label: options.label,
			parseResult: options.parseResult,
			onStatus: options.onStatus,
			startedAt,
			requestedTtl: ttl,
			progressToken: token,
		});
		cancelOnAbort(handle, options.signal);
		return handle;
	}

	/**
	 * Extension: follows the task a server created on its own in answer to `method` (its CreateTaskResult `raw`,
	 * `resultType: "task"`). Throws a ProtocolViolation naming the server for an invalid one. Aborting `signal`
	 * sends `tasks/cancel` and rejects the result with RequestCancelled.
	 */
	adopt<R>(
		method: string,
		raw: Record<string, unknown>,
		options: {
			label: string;
			parseResult: ResultParser<R>;
			onStatus?: (task: Task) => void;
			signal?: AbortSignal | undefined;
		},
	): TaskHandle<R> {
		if (this.closedWith) {
			throw this.closedWith;
		}
		const created = parseExtensionTask(raw, this.name, method, 'task');
		const handle = this.follow(created, {
			method,
			label: options.label,
			parseResult: options.parseResult,
			onStatus: options.onStatus,
			startedAt: this.poller.now(),
			requestedTtl: this.defaultTtlMs,
		});
		cancelOnAbort(handle, options.signal);
		return handle;
	}

	/** A handle already settled with `result`: the server answered directly instead of creating a task. */
	direct<R>(
		method: string,
		label: string,
		result: R,
		raw: Record<string, unknown>,
		onStatus?: (task: Task) => void,
	): TaskHandle<R> {
		const now = new Date().toISOString();
		const done: Task = {
			taskId: `direct-${nextProgressToken++}`,
			status: (raw as { isError?: unknown }).isError === true ? 'failed' : 'completed',
			createdAt: now,
			lastUpdatedAt: now,
			ttl: null,
		};
		const handle = new TaskHandle<R>(this, done, {
			method,
			label,
			parseResult: () => result,
			onStatus,
			deadline: Infinity,
			ttlMs: null,
		});
		this.wire.logger.info(`${this.name}: ${method} (${label}) was answered directly instead of with a task`);
		handle.settleDirect(result);
		return handle;
	}

	/**
	 * Follows a task known by id (e.g. one started before a window reload): one `tasks/get`, then as `create`.
	 * Rejects when the server no longer knows it.
	 */
	async resume<R>(
		taskId: string,
		options: { method: string; label: string; parseResult: ResultParser<R>; onStatus?: (task: Task) => void },
	): Promise<TaskHandle<R>> {
		const existing = this.live.get(taskId);
		if (existing) {
			return existing as TaskHandle<R>;
		}
		const task = await this.sendGet(taskId).catch((error: unknown) => {
			if (error instanceof McpError && error.code === ErrorCode.InvalidParams) {
				throw new McpError(
					ErrorCode.InvalidParams,
					`Task ${taskId} (${options.label}) is no longer known to ${this.name}: ${error.message}`,
					{ taskId },
				);
			}
			throw error;
		});
		// The TTL counts from the task's creation ("Requested duration in milliseconds to retain task from creation").
		const created = Date.parse(task.createdAt);
		const age = Number.isFinite(created) ? Math.max(0, Date.now() - created) : 0;
		return this.follow(task, { ...options, startedAt: this.poller.now() - age, requestedTtl: this.defaultTtlMs });
	}

	/** `tasks/get`: the task's current state (with the extension, also its result, error or input requests). */
	async sendGet(taskId: string): Promise<Task> {
		const raw = await this.wire.request('tasks/get', { taskId }, { timeoutMs: this.options.timeoutMs });
		return this.inline
			? parseExtensionTask(raw, this.name, 'tasks/get', 'detailed')
			: parseTask(raw, this.name, 'tasks/get');
	}

	/** Extension: `tasks/update` with responses to the task's input requests; the answer is an empty acknowledgement. */
	async sendUpdate(taskId: string, inputResponses: Record<string, unknown>): Promise<void> {
		await this.wire.request('tasks/update', { taskId, inputResponses }, { timeoutMs: this.options.timeoutMs });
	}

	answerInput(requests: TaskInputRequests, signal: AbortSignal, where: string): Promise<Record<string, unknown>> {
		return this.wire.answerInput(requests, signal, where);
	}

	/** `tasks/result`: blocks until the task is terminal; the raw result of the underlying request. */
	sendResult(taskId: string, signal?: AbortSignal, timeoutMs = Infinity): Promise<Record<string, unknown>> {
		return this.wire.request('tasks/result', { taskId }, { signal, timeoutMs });
	}

	/**
	 * `tasks/cancel`, sent whether or not the server advertised `tasks.cancel`: a server that follows a task supports
	 * tasks, and may accept a cancel it did not advertise (the official SDK's servers do; the SDK's client sends it
	 * regardless). Rejects with the server's error (-32601 when it has no tasks/cancel). With the extension the answer
	 * is an empty acknowledgement ("Cancellation is cooperative"): resolves undefined.
	 */
	async sendCancel(taskId: string): Promise<Task | undefined> {
		const raw = await this.wire.request('tasks/cancel', { taskId }, { timeoutMs: this.options.timeoutMs });
		if (this.inline) {
			return undefined;
		}
		if (!this.wire.canCancel()) {
			this.logger.debug(`${this.name} accepted tasks/cancel of task ${taskId} without advertising tasks.cancel`);
		}
		return parseTask(raw, this.name, 'tasks/cancel');
	}

	/** `tasks/list`, following `nextCursor` to the end (a repeated cursor ends it). CapabilityMissing without `tasks.list`. */
	async list(options?: RequestOptions): Promise<Task[]> {
		if (!this.wire.canList()) {
			throw new McpError(
				ErrorCode.CapabilityMissing,
				`${this.name} does not support tasks/list (it did not advertise the 'tasks.list' capability)`,
				{ method: 'tasks/list', capability: 'tasks.list' },
			);
		}
		const tasks: Task[] = [];
		const seen = new Set<string>();
		let cursor: string | undefined;
		for (;;) {
			const raw = await this.wire.request('tasks/list', cursor === undefined ? undefined : { cursor }, {
				timeoutMs: this.options.timeoutMs,
				...options,
			});
			if (!Array.isArray(raw.tasks)) {
				throw new McpError(
					ErrorCode.ProtocolViolation,
					`${this.name} answered tasks/list with an invalid result: tasks is not an array`,
					{ method: 'tasks/list' },
				);
			}
			for (const item of raw.tasks as unknown[]) {
				tasks.push(parseTask(item, this.name, 'tasks/list'));
			}
			const next = raw.nextCursor;
			if (typeof next !== 'string' || next === '' || seen.has(next)) {
				return tasks;
			}
			seen.add(next);
			cursor = next;
		}
	}

	/**
	 * Routes `notifications/tasks/status` (2025-11-25) or `notifications/tasks` (extension: a full DetailedTask) to the
	 * task's handle; an invalid one or an unknown task is logged and ignored.
	 */
	handleStatusNotification(params: Record<string, unknown> | undefined, method = 'notifications/tasks/status'): void {
		let task: Task;
		try {
			task =
				method === 'notifications/tasks'
					? parseExtensionTask(params, this.name, method, 'detailed')
					: parseTask(params, this.name, method);
		} catch (error) {
			this.logger.warn(`${this.name}: ignored ${(error as Error).message}`);
			return;
		}
		const handle = this.live.get(task.taskId);
		if (handle) {
			handle.notified(task);
		} else {
			this.logger.debug(
				`${this.name}: status ${task.status} of task ${task.taskId}, which this client does not follow`,
			);
		}
	}

	/** Routes `notifications/progress` with a task's token; false when the token is not a task's. */
	handleProgress(params: Record<string, unknown> | undefined): boolean {
		const token = params?.progressToken;
		if (typeof token !== 'string') {
			return false;
		}
		const listener = this.progress.get(token);
		if (!listener || typeof params?.progress !== 'number') {
			return false;
		}
		listener(params as Progress);
		return true;
	}

	/** Ends every live task with `error` (the connection closed) and refuses new ones. */
	close(error: McpError): void {
		this.closedWith = error;
		for (const handle of [...this.live.values()]) {
			handle.fail(error);
		}
		this.poller.clear();
	}

	/** @internal Called by a handle when it settles. */
	forget(handle: TaskHandle<unknown>): void {
		if (this.live.get(handle.taskId) === handle) {
			this.live.delete(handle.taskId);
			this.watchLive();
		}
		const token = this.tokens.get(handle);
		if (token !== undefined) {
			this.progress.delete(token);
			this.tokens.delete(handle);
		}
		this.poller.remove(handle);
	}

	private readonly tokens = new Map<TaskHandle<unknown>, string>();

	/** Extension: tells the session which tasks to ask status notifications for (see TaskWire.watch). */
	private watchLive(): void {
		if (this.inline && !this.closedWith) this.wire.watch?.([...this.live.keys()]);
	}

	private follow<R>(
		task: Task,
		options: {
			method: string;
			label: string;
			parseResult: ResultParser<R>;
			onStatus?: (task: Task) => void;
			startedAt: number;
			requestedTtl: number;
			progressToken?: string;
		},
	): TaskHandle<R> {
		// Polling stops at the TTL the server granted ("After a task's ttl lifetime has elapsed, receivers MAY delete
		// the task"); a null (unlimited) TTL is followed for the client's own cap, never forever.
		const ttlMs = task.ttl;
		const deadline = options.startedAt + (ttlMs ?? options.requestedTtl);
		const handle = new TaskHandle<R>(this, task, {
			method: options.method,
			label: options.label,
			parseResult: options.parseResult,
			onStatus: options.onStatus,
			deadline,
			ttlMs,
		});
		this.live.set(task.taskId, handle as TaskHandle<unknown>);
		this.watchLive();
		if (options.progressToken !== undefined) {
			this.tokens.set(handle as TaskHandle<unknown>, options.progressToken);
		}
		this.logger.debug(
			`${this.name}: following task ${task.taskId} (${options.label}), ${task.status}, ttl ${ttlMs ?? 'unlimited'}, pollInterval ${task.pollInterval ?? 'not given'}`,
		);
		if (isTerminal(task.status)) {
			this.logger.debug(`${this.name}: task ${task.taskId} is already ${task.status}`);
		}
		handle.start();
		return handle;
	}
}

/** Aborting `signal` cancels the task (tasks/cancel) and rejects its result with RequestCancelled. */
function cancelOnAbort<R>(handle: TaskHandle<R>, signal: AbortSignal | undefined): void {
	if (!signal) {
		return;
	}
	const onAbort = () =>
		void handle.cancel(signal.reason instanceof Error ? signal.reason.message : 'Cancelled by the caller');
	if (signal.aborted) {
		onAbort();
		return;
	}
	signal.addEventListener('abort', onAbort, { once: true });
	void handle.result().then(
		() => signal.removeEventListener('abort', onAbort),
		() => signal.removeEventListener('abort', onAbort),
	);
}
