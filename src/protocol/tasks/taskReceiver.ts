/**
 * The receiver side of MCP tasks in the client: a server may send `sampling/createMessage` or `elicitation/create`
 * with `params.task`; the client then answers at once with a CreateTaskResult, runs the request in the background
 * (the user answers the form, the model writes its message) and serves `tasks/get`, `tasks/result`, `tasks/cancel`
 * and `tasks/list` for it, with `notifications/tasks/status` on each change.
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
 */
import type { Logger } from '../../common/logger';
import { ErrorCode } from '../jsonrpc';
import { McpError } from '../mcpError';
import { isTerminal, withRelatedTask, type Task, type TaskStatus } from './task';
import { errorMessage } from '../../common/errors';

/** What the receiver needs from the session. */
export interface TaskReceiverWire {
	readonly name: string;
	readonly logger: Logger;
	notify(method: string, params: Record<string, unknown>): Promise<void>;
}

export interface TaskReceiverOptions {
	/** The longest TTL granted ("Receivers MAY override the requested ttl duration"). Default 1 hour. */
	maxTtlMs?: number;
	/** Tasks per `tasks/list` page. Default 50. */
	pageSize?: number;
	/** Suggested pollInterval in ms. Default 500. */
	pollIntervalMs?: number;
}

const DEFAULT_MAX_TTL_MS = 60 * 60 * 1000;

/** One task this client runs for the server. */
interface ReceivedTask {
	task: Task;
	controller: AbortController;
	/** Settles with the request's result or its error, once terminal. */
	outcome: Promise<{ result: Record<string, unknown> } | { error: McpError }>;
	expiresAt: number;
}

export class TaskReceiver {
	private readonly tasks = new Map<string, ReceivedTask>();
	private readonly maxTtlMs: number;
	private readonly pageSize: number;
	private readonly pollIntervalMs: number;
	private expiryTimer: ReturnType<typeof setTimeout> | undefined;

	constructor(
		private readonly wire: TaskReceiverWire,
		options: TaskReceiverOptions = {},
	) {
		this.maxTtlMs = options.maxTtlMs ?? DEFAULT_MAX_TTL_MS;
		this.pageSize = options.pageSize ?? 50;
		this.pollIntervalMs = options.pollIntervalMs ?? 500;
	}

	/** How many tasks are kept (for tests). */
	get size(): number {
		return this.tasks.size;
	}

	/**
	 * Starts `run` as a task for a request of `method` whose `params.task` asked for one, and returns the
	 * CreateTaskResult to answer with. `run`'s signal aborts on `tasks/cancel` or when the session ends.
	 */
	create(method: string, requested: unknown, run: (signal: AbortSignal) => Promise<object>): { task: Task } {
		const ttlAsked =
			typeof requested === 'object' && requested !== null ? (requested as { ttl?: unknown }).ttl : undefined;
		const ttl = typeof ttlAsked === 'number' && ttlAsked > 0 ? Math.min(ttlAsked, this.maxTtlMs) : this.maxTtlMs;
		const now = new Date().toISOString();
		// node:crypto loads on the first task, not with the core: it was a fifth of the import time (node --cpu-prof).
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const taskId = (require('node:crypto') as typeof import('node:crypto')).randomUUID();
		const task: Task = {
			taskId,
			status: 'working',
			statusMessage: method === 'elicitation/create' ? 'Waiting for the user to answer' : 'Waiting for the model',
			createdAt: now,
			lastUpdatedAt: now,
			ttl,
			pollInterval: this.pollIntervalMs,
		};
		const controller = new AbortController();
		const entry: ReceivedTask = {
			task,
			controller,
			expiresAt: Date.now() + ttl,
			outcome: Promise.resolve()
				.then(() => run(controller.signal))
				.then(
					(result) => {
						this.transition(entry, 'completed', undefined);
						return { result: result as Record<string, unknown> };
					},
					(error: unknown) => {
						const mcp = error instanceof McpError ? error : McpError.internal(errorMessage(error));
						this.transition(entry, 'failed', mcp.message);
						return { error: mcp };
					},
				),
		};
		this.tasks.set(taskId, entry);
		this.armExpiry();
		this.wire.logger.info(`${this.wire.name}: running ${method} as task ${taskId} (ttl ${ttl} ms)`);
		return { task: { ...task } };
	}

	/** `tasks/get` */
	get(params: Record<string, unknown> | undefined): Task {
		return { ...this.find(params, 'tasks/get').task };
	}

	/**
	 * `tasks/result`: waits until the task is terminal, then answers exactly what the request would have answered
	 * (its result with the related-task `_meta`, or its error). "The tasks/result operation MUST include this metadata
	 * in its response".
	 */
	async result(params: Record<string, unknown> | undefined): Promise<Record<string, unknown>> {
		const entry = this.find(params, 'tasks/result');
		const outcome = await entry.outcome;
		if ('error' in outcome) {
			throw outcome.error;
		}
		return withRelatedTask(outcome.result, entry.task.taskId);
	}

	/** `tasks/cancel`: -32602 for a terminal task ("Receivers MUST reject cancellation requests for tasks already in a terminal status"). */
	cancel(params: Record<string, unknown> | undefined): Task {
		const entry = this.find(params, 'tasks/cancel');
		if (isTerminal(entry.task.status)) {
			throw McpError.invalidParams(
				`Cannot cancel task ${entry.task.taskId}: already in terminal status '${entry.task.status}'`,
			);
		}
		// "MUST transition the task to cancelled status before sending the response."
		this.transition(entry, 'cancelled', 'Cancelled by the server');
		entry.controller.abort(new Error('The server cancelled the task'));
		return { ...entry.task };
	}

	/** `tasks/list`: pages of `pageSize`; the cursor is the index of the next task. */
	list(params: Record<string, unknown> | undefined): { tasks: Task[]; nextCursor?: string } {
		this.expire();
		const cursor = params?.cursor;
		let start = 0;
		if (cursor !== undefined) {
			start = typeof cursor === 'string' && /^\d+$/.test(cursor) ? Number(cursor) : -1;
			if (start < 0 || start > this.tasks.size) {
				throw McpError.invalidParams(`Invalid cursor for tasks/list: ${JSON.stringify(cursor)}`);
			}
		}
		const all = [...this.tasks.values()];
		const page = all.slice(start, start + this.pageSize).map((entry) => ({ ...entry.task }));
		const next = start + this.pageSize;
		return next < all.length ? { tasks: page, nextCursor: String(next) } : { tasks: page };
	}

	/** Cancels every running task (the session ended) and forgets them all. */
	dispose(): void {
		for (const entry of this.tasks.values()) {
			entry.controller.abort(new Error('The session ended'));
		}
		this.tasks.clear();
		if (this.expiryTimer !== undefined) {
			clearTimeout(this.expiryTimer);
			this.expiryTimer = undefined;
		}
	}

	private find(params: Record<string, unknown> | undefined, method: string): ReceivedTask {
		this.expire();
		const taskId = params?.taskId;
		if (typeof taskId !== 'string') {
			throw McpError.invalidParams(`${method} needs a string taskId`);
		}
		const entry = this.tasks.get(taskId);
		if (!entry) {
			// "Invalid or nonexistent taskId in tasks/get, tasks/result, or tasks/cancel: -32602 (Invalid params)"
			throw new McpError(ErrorCode.InvalidParams, `Failed to retrieve task: Task not found (${taskId})`);
		}
		return entry;
	}

	/** A terminal status is final: a late completion of a cancelled task changes nothing. */
	private transition(entry: ReceivedTask, status: TaskStatus, statusMessage: string | undefined): void {
		if (isTerminal(entry.task.status)) {
			return;
		}
		const task: Task = { ...entry.task, status, lastUpdatedAt: new Date().toISOString() };
		if (statusMessage === undefined) {
			delete task.statusMessage;
		} else {
			task.statusMessage = statusMessage;
		}
		entry.task = task;
		if (this.tasks.has(task.taskId)) {
			this.wire.notify('notifications/tasks/status', { ...task }).catch(() => undefined);
		}
	}

	/** "After a task's ttl lifetime has elapsed, receivers MAY delete the task and its results, regardless of the task status." */
	private expire(): void {
		const now = Date.now();
		for (const [id, entry] of this.tasks) {
			if (entry.expiresAt <= now) {
				entry.controller.abort(new Error('The task expired'));
				this.tasks.delete(id);
			}
		}
	}

	/** One unref()ed timer for the earliest expiry: a forgotten task is dropped without keeping the process alive. */
	private armExpiry(): void {
		if (this.expiryTimer !== undefined) {
			clearTimeout(this.expiryTimer);
			this.expiryTimer = undefined;
		}
		let earliest = Infinity;
		for (const entry of this.tasks.values()) {
			earliest = Math.min(earliest, entry.expiresAt);
		}
		if (earliest === Infinity) {
			return;
		}
		this.expiryTimer = setTimeout(
			() => {
				this.expiryTimer = undefined;
				this.expire();
				this.armExpiry();
			},
			Math.max(0, earliest - Date.now()),
		);
		this.expiryTimer.unref();
	}
}
