/**
 * A task this client started (or picked up again by id) on a server: its latest state, status events, the final
 * result, and cancel. Polling follows the spec's requestor rules:
 * - "Requestors SHOULD respect the pollInterval provided in responses when determining polling frequency."
 * - "When the requestor encounters the input_required status, it SHOULD preemptively call tasks/result", so the
 *   server can send its elicitation or sampling requests; `tasks/get` polling goes on meanwhile.
 * - A terminal status ends polling and fetches the result with `tasks/result`.
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
 *
 * The task is never ended by a request timeout (each `tasks/get` has its own); it ends on a terminal status, on
 * cancel, or at its TTL: a task that never reaches a terminal status stops being polled then, with an error saying so.
 *
 * With the 2026-07-28 tasks extension (`owner.inline`) the same handle follows a task whose `tasks/get` carries the
 * result, the error or the input requests itself: input requests are answered once each (by key) through the
 * client's handlers and sent with `tasks/update` while polling goes on; there is no `tasks/result`.
 * Spec: https://github.com/modelcontextprotocol/ext-tasks/blob/main/specification/draft/tasks.md
 */
import { Emitter, type Event } from '../../common/event';
import { ErrorCode } from '../jsonrpc';
import { isConnectionClosed, McpError } from '../mcpError';
import { inlineOf, type TaskInputRequests } from './extensionTask';
import { isTerminal, type Task, type TaskStatus } from './task';
import type { Logger } from '../../common/logger';
import type { Pollable, TaskPoller } from './taskPoller';
import { plural } from '../../common/text';
import { errorMessage } from '../../common/errors';

/**
 * What a handle needs of the requestor that made it (TaskRequestor implements it). Declared here so that the
 * handle does not import the requestor, which imports the handle: no import cycle, even of types.
 */
export interface TaskHandleOwner {
	readonly name: string;
	readonly logger: Logger;
	readonly poller: TaskPoller;
	sendGet(taskId: string): Promise<Task>;
	sendResult(taskId: string, signal?: AbortSignal, timeoutMs?: number): Promise<Record<string, unknown>>;
	sendCancel(taskId: string): Promise<Task | undefined>;
	forget(handle: TaskHandle<unknown>): void;
	/** True for a task of the 2026-07-28 extension: results, errors and input requests come inline in `tasks/get`. */
	readonly inline: boolean;
	/** Extension: answers input requests through the client's handlers (elicitation, sampling, roots). */
	answerInput(requests: TaskInputRequests, signal: AbortSignal, where: string): Promise<Record<string, unknown>>;
	/** Extension: `tasks/update` with the responses (an empty acknowledgement). */
	sendUpdate(taskId: string, inputResponses: Record<string, unknown>): Promise<void>;
	/** Extension: the most rounds of input one task may ask for before the client gives up on it. */
	readonly maxInputRounds: number;
}

/** Poll this often when the server suggests no pollInterval. */
export const DEFAULT_POLL_INTERVAL_MS = 1000;
/** Never poll faster than this, whatever the server suggests (a pollInterval of 0 must not spin). */
export const MIN_POLL_INTERVAL_MS = 50;
/** Give up after this many `tasks/get` failures in a row that are not a clear answer (timeouts, bad shapes). */
const MAX_POLL_FAILURES = 3;

/** How a handle turns the raw `tasks/result` into its result type; throws a ProtocolViolation for a wrong shape. */
export type ResultParser<R> = (raw: Record<string, unknown>) => R;

/**
 * What came of cancelling a task: `cancelled` (the server answered tasks/cancel; `task` is its new state, absent for
 * the extension's plain acknowledgement), `unsupported` (it answered "method not found"), `failed` (another error:
 * the task had already ended there, a timeout, the connection closed), `settled` (the handle had already ended:
 * nothing was sent). `message` says it in words for the user.
 */
export type TaskCancelOutcome =
	| { kind: 'cancelled'; task: Task | undefined; message: string }
	| { kind: 'unsupported' | 'failed' | 'settled'; message: string };

/** What a task handle was asked to do, for messages and the UI. */
export interface TaskHandleOptions<R> {
	/** The request that created the task, e.g. `tools/call`. */
	method: string;
	/** A short name for messages, e.g. the tool's name. */
	label: string;
	parseResult: ResultParser<R>;
	/** Receives the task each time its state changes. */
	onStatus?: (task: Task) => void;
	/** When the client stops polling if no terminal status came (clock ms). */
	deadline: number;
	/** The TTL the deadline came from, for the message when it passes; null: the client's own cap. */
	ttlMs: number | null;
}

/**
 * One task on one server. `result()` resolves with the final result of the request (for a tool call, the
 * CallToolResult: a tool error is a result with isError, as for a plain call) or rejects with an McpError naming the
 * server and the task: the request's own error, RequestCancelled, RequestTimeout at the TTL, or a ProtocolViolation.
 */
export class TaskHandle<R> implements Pollable {
	/** @internal */
	dueAt = Infinity;

	private current: Task;
	private outcome: { error: McpError } | { result: R } | undefined;
	private resultInFlight = false;
	private pollFailures = 0;
	/** Extension: the input request keys already answered or being answered ("deduplicate inputRequests keys across consecutive polls"). */
	private readonly inputKeys = new Set<string>();
	private inputRounds = 0;
	/** Extension: a terminal status came without its result or error (e.g. in the CreateTaskResult); one tasks/get fetches it. */
	private fetchingInline = false;
	private readonly controller = new AbortController();
	private readonly changeEmitter = new Emitter<Task>();
	private readonly settledPromise: Promise<R>;
	private resolveResult!: (value: R) => void;
	private rejectResult!: (error: unknown) => void;

	/** Fires with the task each time its status, status message or progress-relevant fields change, and once when it settles. */
	readonly onDidChange: Event<Task> = this.changeEmitter.event;

	constructor(
		private readonly requestor: TaskHandleOwner,
		task: Task,
		private readonly options: TaskHandleOptions<R>,
	) {
		this.current = task;
		this.settledPromise = new Promise<R>((resolve, reject) => {
			this.resolveResult = resolve;
			this.rejectResult = reject;
		});
		// Nobody may ever ask for the result of a task started from the UI and forgotten; that is not an error.
		this.settledPromise.catch(() => undefined);
	}

	get taskId(): string {
		return this.current.taskId;
	}

	/** The server's name. */
	get server(): string {
		return this.requestor.name;
	}

	get method(): string {
		return this.options.method;
	}

	get label(): string {
		return this.options.label;
	}

	/** The latest state the server reported. */
	get task(): Task {
		return this.current;
	}

	get status(): TaskStatus {
		return this.current.status;
	}

	/** True once the result or an error is known; no more requests are sent for it. */
	get settled(): boolean {
		return this.outcome !== undefined;
	}

	/** The error it ended with, if it did. */
	get error(): McpError | undefined {
		return this.outcome && 'error' in this.outcome ? this.outcome.error : undefined;
	}

	/** Aborts when the handle settles: requests made for it (a blocked tasks/result) end with it. */
	get signal(): AbortSignal {
		return this.controller.signal;
	}

	/** The final result (see the class comment). Calling it more than once returns the same promise. */
	result(): Promise<R> {
		return this.settledPromise;
	}

	/**
	 * Sends `tasks/cancel` and ends the handle with RequestCancelled; resolves with what the server answered. It is sent
	 * whether or not the server advertised `tasks.cancel` (a server may support it without saying so, as the official
	 * SDK's servers do, and its own client sends it anyway); a server that answers "method not found" is reported as not
	 * supporting cancellation, the task perhaps still running there. The handle's error message says the same, so
	 * whoever shows the task (the Tasks list, the command line) tells the user. Does nothing once settled.
	 */
	async cancel(reason = 'Cancelled by the user'): Promise<TaskCancelOutcome> {
		if (this.settled) {
			return { kind: 'settled', message: `Task ${this.taskId} (${this.label}) on ${this.server} had already ended` };
		}
		const outcome = await this.sendCancel();
		if (outcome.kind === 'cancelled' && outcome.task) {
			this.apply(outcome.task, 'tasks/cancel');
		} else if (
			outcome.kind === 'cancelled' &&
			this.requestor.inline &&
			!this.settled &&
			!isTerminal(this.current.status)
		) {
			// The extension's tasks/cancel is an acknowledgement, and "the client MAY delete all state associated with
			// the task as soon as [it sends] a cancellation": from here on the task is cancelled as far as we follow it.
			this.current = {
				...this.current,
				status: 'cancelled',
				statusMessage: reason,
				lastUpdatedAt: new Date().toISOString(),
			};
		}
		const answer = outcome.kind === 'cancelled' ? '' : `; ${outcome.message}`;
		this.settle({
			error: new McpError(
				ErrorCode.RequestCancelled,
				`Task ${this.taskId} (${this.label}) on ${this.server} was cancelled: ${reason}${answer}`,
				{ taskId: this.taskId, cancel: outcome.kind },
			),
		});
		return outcome;
	}

	/** One `tasks/cancel`, its answer (or failure) as an outcome in words; never rejects. */
	private async sendCancel(): Promise<TaskCancelOutcome> {
		try {
			const task = await this.requestor.sendCancel(this.taskId);
			return { kind: 'cancelled', task, message: `${this.server} cancelled task ${this.taskId} (${this.label})` };
		} catch (cause) {
			this.requestor.logger.warn(`${this.server}: tasks/cancel of task ${this.taskId} failed: ${errorMessage(cause)}`);
			if (cause instanceof McpError && cause.code === ErrorCode.MethodNotFound) {
				return {
					kind: 'unsupported',
					message: `${this.server} does not support cancelling tasks (it answered: ${cause.message}); it may still be running there`,
				};
			}
			return {
				kind: 'failed',
				message: `${this.server} did not cancel it (it answered: ${errorMessage(cause)}); it may still be running there`,
			};
		}
	}

	/**
	 * Stops polling and waiting without cancelling on the server (the task's id stays valid there until its TTL).
	 * The result rejects with RequestCancelled.
	 */
	detach(): void {
		this.settle({
			error: new McpError(
				ErrorCode.RequestCancelled,
				`Stopped waiting for task ${this.taskId} (${this.label}) on ${this.server}`,
				{ taskId: this.taskId },
			),
		});
	}

	// ---- driven by the requestor ----

	/** @internal Starts following the task: fetches the result at once if it is already terminal or needs input. */
	start(): void {
		this.afterUpdate();
	}

	/** @internal The poller's call: one `tasks/get`. */
	poll(): void {
		if (this.settled) {
			return;
		}
		this.requestor.sendGet(this.taskId).then(
			(task) => {
				this.pollFailures = 0;
				if (!this.settled) {
					this.apply(task, 'tasks/get');
					this.afterUpdate();
				}
			},
			(error: unknown) => this.pollFailed(error),
		);
	}

	/**
	 * @internal A new state from `tasks/get`, `tasks/cancel` or `notifications/tasks/status`. A terminal status is
	 * final: "Tasks with a completed, failed, or cancelled status are in a terminal state and MUST NOT transition to
	 * any other status"; a report that goes back from one is ignored and logged.
	 */
	apply(task: Task, source: string): void {
		if (this.settled) {
			return;
		}
		if (task.taskId !== this.taskId) {
			this.fail(
				new McpError(
					ErrorCode.ProtocolViolation,
					`${this.server} answered ${source} for task ${this.taskId} with task ${task.taskId}`,
					{ taskId: this.taskId },
				),
			);
			return;
		}
		const before = this.current;
		if (isTerminal(before.status) && task.status !== before.status) {
			this.requestor.logger.warn(
				`${this.server}: ${source} reported task ${this.taskId} as ${task.status} after it was ${before.status}; a terminal status is final, ignored`,
			);
			return;
		}
		// A report older than the one we have (a queued notification delivered late, a slow tasks/get) is stale.
		const newer = Date.parse(task.lastUpdatedAt);
		const known = Date.parse(before.lastUpdatedAt);
		if (newer < known) {
			this.requestor.logger.debug(
				`${this.server}: ${source} for task ${this.taskId} is older than the state already known (${task.lastUpdatedAt} < ${before.lastUpdatedAt}); ignored`,
			);
			return;
		}
		this.current = task;
		if (
			before.status !== task.status ||
			before.statusMessage !== task.statusMessage ||
			before.pollInterval !== task.pollInterval
		) {
			this.fireChange();
		}
	}

	/** @internal A status notification arrived: act on it now instead of at the next poll. */
	notified(task: Task): void {
		this.apply(task, 'notifications/tasks/status');
		if (!this.settled && (isTerminal(this.current.status) || this.current.status === 'input_required')) {
			this.afterUpdate();
		}
	}

	/** @internal Settles at once with a result the server gave directly instead of creating a task. */
	settleDirect(result: R): void {
		this.settle({ result });
	}

	/** @internal Ends the handle with `error` (connection closed, client closed). */
	fail(error: McpError): void {
		this.settle({ error });
	}

	// ---- internals ----

	private afterUpdate(): void {
		if (this.settled) {
			return;
		}
		const status = this.current.status;
		if (this.requestor.inline) {
			if (this.takeInline()) {
				return;
			}
		} else if (isTerminal(status) || status === 'input_required') {
			this.fetchResult();
		}
		if (isTerminal(status) && !this.fetchingInline) {
			this.requestor.poller.remove(this);
			return;
		}
		const now = this.requestor.poller.now();
		if (now >= this.options.deadline) {
			const ttl =
				this.options.ttlMs === null
					? 'the time the client allows a task without a TTL'
					: `its TTL of ${this.options.ttlMs} ms`;
			this.fail(
				new McpError(
					ErrorCode.RequestTimeout,
					`Task ${this.taskId} (${this.label}) on ${this.server} did not finish within ${ttl} (last status: ${status}${this.current.statusMessage ? `, "${this.current.statusMessage}"` : ''}); stopped polling`,
					{ taskId: this.taskId },
				),
			);
			return;
		}
		const interval = this.fetchingInline
			? MIN_POLL_INTERVAL_MS
			: Math.max(MIN_POLL_INTERVAL_MS, this.current.pollInterval ?? DEFAULT_POLL_INTERVAL_MS);
		this.requestor.poller.schedule(this, Math.min(interval, this.options.deadline - now));
	}

	private pollFailed(error: unknown): void {
		if (this.settled) {
			return;
		}
		const code = error instanceof McpError ? error.code : undefined;
		const message = errorMessage(error);
		// The connection closed here (a server's own -32000 answer is a failed poll like any other).
		if (isConnectionClosed(error)) {
			this.fail(error);
			return;
		}
		if (code === ErrorCode.InvalidParams) {
			// "Invalid or nonexistent taskId in tasks/get ...: -32602 (Invalid params)": the task is gone (expired or lost).
			this.fail(
				new McpError(
					ErrorCode.InvalidParams,
					`Task ${this.taskId} (${this.label}) is no longer known to ${this.server}: ${message}`,
					{ taskId: this.taskId },
				),
			);
			return;
		}
		if (code === ErrorCode.MethodNotFound) {
			this.fail(
				new McpError(
					ErrorCode.MethodNotFound,
					`${this.server} advertised tasks but does not implement tasks/get (${message}); task ${this.taskId} (${this.label}) cannot be followed`,
					{ taskId: this.taskId },
				),
			);
			return;
		}
		this.pollFailures++;
		if (this.pollFailures >= MAX_POLL_FAILURES) {
			this.fail(
				new McpError(
					code ?? ErrorCode.InternalError,
					`Task ${this.taskId} (${this.label}) on ${this.server}: tasks/get failed ${plural(this.pollFailures, 'time')} in a row, last: ${message}`,
					{ taskId: this.taskId },
					{ cause: error },
				),
			);
			return;
		}
		this.requestor.logger.warn(`${this.server}: tasks/get of task ${this.taskId} failed (${message}); trying again`);
		this.afterUpdate();
	}

	/**
	 * Extension: acts on the task's inline fields. Settles on a terminal status ("completed": the result; "failed": the
	 * JSON-RPC error; "cancelled"), answers new input requests, and returns true when the handle settled.
	 */
	private takeInline(): boolean {
		const task = this.current;
		const inline = inlineOf(task);
		const prefix = `Task ${this.taskId} (${this.label}) on ${this.server}`;
		switch (task.status) {
			case 'completed': {
				if (inline.result === undefined) return this.fetchInline(prefix);
				let result: R;
				try {
					result = this.options.parseResult(inline.result);
				} catch (error) {
					this.fail(error instanceof McpError ? error : McpError.internal(String(error)));
					return true;
				}
				this.settle({ result });
				return true;
			}
			case 'failed': {
				if (inline.error === undefined) return this.fetchInline(prefix);
				// "If the underlying request resulted in a JSON-RPC error, the task uses failed status and the error field MUST contain that JSON-RPC error."
				const { code, message, data } = inline.error;
				this.fail(
					new McpError(code, `${prefix} failed: ${message}`, data ?? { taskId: this.taskId }, { fromPeer: true }),
				);
				return true;
			}
			case 'cancelled':
				this.fail(
					new McpError(
						ErrorCode.RequestCancelled,
						`${prefix} was cancelled by the server${task.statusMessage ? `: ${task.statusMessage}` : ''}`,
						{ taskId: this.taskId },
					),
				);
				return true;
			case 'input_required':
				this.answerInline(inline.inputRequests ?? {}, prefix);
				return this.settled;
			default:
				return false;
		}
	}

	/**
	 * Extension: a terminal status without its result or error (a CreateTaskResult or a notification may leave it out):
	 * one more `tasks/get` soon; if that one lacks it too, the task fails with a ProtocolViolation. False: not settled.
	 */
	private fetchInline(prefix: string): boolean {
		if (this.fetchingInline) {
			const missing = this.current.status === 'completed' ? 'result' : 'error';
			this.fail(
				new McpError(
					ErrorCode.ProtocolViolation,
					`${prefix}: tasks/get reported ${this.current.status} without the ${missing}`,
					{ taskId: this.taskId },
				),
			);
			return true;
		}
		this.fetchingInline = true;
		return false;
	}

	/**
	 * Extension: answers the input requests not seen before, then sends them with `tasks/update`; polling goes on
	 * meanwhile (a key still listed while its answer is on its way is not asked again). A request the client cannot
	 * answer, a failed `tasks/update`, or more rounds than `maxInputRounds` end the task here and cancel it on the
	 * server, which would otherwise wait for an answer that never comes.
	 */
	private answerInline(requests: TaskInputRequests, prefix: string): void {
		const fresh: TaskInputRequests = {};
		let count = 0;
		for (const key of Object.keys(requests)) {
			if (!this.inputKeys.has(key)) {
				this.inputKeys.add(key);
				fresh[key] = requests[key]!;
				count++;
			}
		}
		if (count === 0) {
			return;
		}
		this.inputRounds++;
		const max = this.requestor.maxInputRounds;
		const where = `${prefix}, input round ${this.inputRounds}`;
		if (this.inputRounds > max) {
			this.giveUp(
				new McpError(
					ErrorCode.ProtocolViolation,
					`${prefix}: the server still asks for input after ${max} rounds; giving up and cancelling the task`,
					{ taskId: this.taskId, rounds: max },
				),
			);
			return;
		}
		this.requestor.logger.debug(`${where}: the server asks for ${Object.keys(fresh).join(', ')}`);
		this.requestor
			.answerInput(fresh, this.signal, where)
			.then((responses) =>
				this.settled
					? undefined
					: this.requestor.sendUpdate(this.taskId, responses).catch((error: unknown) => {
							throw new McpError(
								error instanceof McpError ? error.code : ErrorCode.InternalError,
								`${where}: tasks/update failed: ${errorMessage(error)}`,
								{ taskId: this.taskId },
							);
						}),
			)
			.then(
				() => undefined,
				(error: unknown) => {
					if (this.settled) return;
					this.giveUp(error instanceof McpError ? error : McpError.internal(`${where}: ${String(error)}`));
				},
			);
	}

	/** Ends the handle with `error` and asks the server to cancel the task (best effort; cancellation is cooperative). */
	private giveUp(error: McpError): void {
		this.requestor
			.sendCancel(this.taskId)
			.catch((cause: unknown) =>
				this.requestor.logger.warn(
					`${this.server}: tasks/cancel of task ${this.taskId} failed: ${errorMessage(cause)}`,
				),
			);
		this.fail(error);
	}

	/** `tasks/result`: blocks on the server until the task is terminal, delivering its input requests meanwhile. */
	private fetchResult(): void {
		if (this.resultInFlight || this.settled) {
			return;
		}
		this.resultInFlight = true;
		this.requestor
			.sendResult(this.taskId, this.controller.signal, Math.max(1, this.options.deadline - this.requestor.poller.now()))
			.then(
				(raw) => {
					this.resultInFlight = false;
					if (this.settled) {
						return;
					}
					let result: R;
					try {
						result = this.options.parseResult(raw);
					} catch (error) {
						this.fail(error instanceof McpError ? error : McpError.internal(String(error)));
						return;
					}
					if (!isTerminal(this.current.status)) {
						// tasks/result returned, so the task is terminal; the next tasks/get would say which. Say it now.
						const failed = (raw as { isError?: unknown }).isError === true;
						this.current = {
							...this.current,
							status: failed ? 'failed' : 'completed',
							lastUpdatedAt: new Date().toISOString(),
						};
					}
					this.settle({ result });
				},
				(error: unknown) => {
					this.resultInFlight = false;
					if (this.settled) {
						return;
					}
					const mcp = error instanceof McpError ? error : McpError.internal(String(error));
					if (mcp.code === ErrorCode.MethodNotFound) {
						this.fail(
							new McpError(
								ErrorCode.MethodNotFound,
								`${this.server} advertised tasks but does not implement tasks/result (${mcp.message}); the result of task ${this.taskId} (${this.label}) cannot be fetched`,
								{ taskId: this.taskId },
							),
						);
						return;
					}
					if (isTerminal(this.current.status) || mcp.local === 'closed') {
						// "If the underlying request resulted in a JSON-RPC error, tasks/result MUST return that same JSON-RPC error."
						const prefix = `Task ${this.taskId} (${this.label}) on ${this.server}`;
						this.fail(
							mcp.message.startsWith(prefix)
								? mcp
								: new McpError(
										mcp.code,
										`${prefix} ended with an error: ${mcp.message}`,
										mcp.data ?? { taskId: this.taskId },
										{ cause: mcp },
									),
						);
						return;
					}
					// Still working or waiting for input: polling goes on and the next input_required asks again.
					this.requestor.logger.warn(
						`${this.server}: tasks/result of task ${this.taskId} failed while it was ${this.current.status} (${mcp.message}); polling goes on`,
					);
				},
			);
	}

	private settle(outcome: { error: McpError } | { result: R }): void {
		if (this.outcome) {
			return;
		}
		this.outcome = outcome;
		this.requestor.forget(this as unknown as TaskHandle<unknown>);
		this.controller.abort(new Error('the task settled'));
		this.fireChange();
		this.changeEmitter.dispose();
		if ('error' in outcome) {
			this.rejectResult(outcome.error);
		} else {
			this.resolveResult(outcome.result);
		}
	}

	private fireChange(): void {
		this.options.onStatus?.(this.current);
		this.changeEmitter.fire(this.current);
	}
}
