/**
 * `subscriptions/listen` (2026-07-28): one long-lived request per server that carries the change notifications this
 * client opted in to (list changes, updates of subscribed resources, status of live tasks of the tasks extension). It replaces the GET stream and
 * `resources/subscribe` of the earlier revisions. Over stdio the request stays pending and the notifications arrive
 * on the shared channel, tagged with the request's id; over Streamable HTTP it is a POST whose SSE answer stays open.
 * Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
 *
 * One `ListenStream` per connection keeps at most one subscription current: when what the client wants changes (a
 * resource opened or closed), a new listen is opened and the old one cancelled once the new one is acknowledged, so
 * no notification falls into a gap. A stream that drops (a broken HTTP stream, a server error, a graceful end by the
 * server) is opened again after a backoff.
 */
import type { Logger } from '../../common/logger';
import { plural } from '../../common/text';
import type { Clock, RequestOptions } from '../connectionOptions';
import { ErrorCode, type RequestId } from '../jsonrpc';
import { McpError } from '../mcpError';
import { MetaKey } from './requestMeta';
import { errorMessage } from '../../common/errors';
import { isRecord } from '../../common/records';

/** What a `subscriptions/listen` asks for (the spec's notification filter); omitted fields are not wanted. */
export interface ListenFilter {
	toolsListChanged?: boolean;
	promptsListChanged?: boolean;
	resourcesListChanged?: boolean;
	resourceSubscriptions?: string[];
	/**
	 * Tasks extension: the live tasks whose `notifications/tasks` are wanted ("clients send a subscriptions/listen
	 * request to the server including a list of task IDs the client is interested in", SEP-2663 "Task Status
	 * Notifications": https://modelcontextprotocol.io/seps/2663-tasks-extension).
	 */
	taskIds?: string[];
}

/** Which cached lists want change notifications. */
export interface ListenLists {
	tools?: boolean;
	prompts?: boolean;
	resources?: boolean;
}

export interface ListenStreamDeps {
	/** The server's name, for messages. */
	name: string;
	logger: Logger;
	clock: Clock;
	/** Sends `subscriptions/listen` with these params (the caller adds the request `_meta`). */
	request(params: Record<string, unknown>, options: RequestOptions): Promise<Record<string, unknown>>;
	/** True once the connection is closed: nothing is re-opened then. */
	isClosed(): boolean;
	/** How long the server has to acknowledge a listen. Default 60000 ms. */
	ackTimeoutMs?: number;
	/** The first re-listen delay; doubles per failure in a row up to `maxDelayMs`. Default 1000 ms. */
	initialDelayMs?: number;
	/** Default 30000 ms. */
	maxDelayMs?: number;
}

/** A stream acknowledged this long ago counts as having worked: its drop restarts the backoff from the first delay. */
const HEALTHY_STREAM_MS = 30_000;

interface Attempt {
	readonly filter: ListenFilter;
	readonly key: string;
	readonly controller: AbortController;
	id: RequestId | undefined;
	acknowledged: boolean;
	/** Cancelled by this client (replaced or no longer wanted): its end is expected. */
	cancelled: boolean;
	ackTimer: unknown;
}

interface Waiter {
	uri: string;
	resolve(): void;
	reject(error: unknown): void;
}

/** The subscription id a notification carries in `_meta`, if any. */
export function subscriptionIdOf(params: Record<string, unknown> | undefined): RequestId | undefined {
	const meta = params?._meta;
	const id = isRecord(meta) ? meta[MetaKey.subscriptionId] : undefined;
	return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

function describeFilter(filter: ListenFilter): string {
	const parts: string[] = [];
	if (filter.toolsListChanged) parts.push('tools');
	if (filter.promptsListChanged) parts.push('prompts');
	if (filter.resourcesListChanged) parts.push('resources');
	const uris = filter.resourceSubscriptions?.length ?? 0;
	if (uris > 0) parts.push(plural(uris, 'resource'));
	const tasks = filter.taskIds?.length ?? 0;
	if (tasks > 0) parts.push(plural(tasks, 'task'));
	return parts.join(', ');
}

/** The listen stream of one connection (see the file comment). Create it only for a 2026-07-28 server. */
export class ListenStream {
	private lists: ListenLists = {};
	private readonly uris = new Set<string>();
	private taskIds: string[] = [];
	private current: Attempt | undefined;
	/** Attempts not yet ended, by id: notifications of these are delivered, of any other id dropped. */
	private readonly live = new Map<RequestId, Attempt>();
	private readonly waiters: Waiter[] = [];
	private scheduled = false;
	private retryTimer: unknown;
	private failures = 0;
	private acknowledgedAt: number | undefined;
	/** The server answered -32601: it has no subscriptions/listen, so nothing is asked again. */
	private unsupported = false;
	private closed = false;
	/** The filter (without tasks) last logged at info level. */
	private loggedKey: string | undefined;

	constructor(private readonly deps: ListenStreamDeps) {}

	/** Sets which list changes are wanted (the lists the owner caches); opens, changes or ends the stream as needed. */
	want(lists: ListenLists): void {
		this.lists = { ...lists };
		this.schedule();
	}

	/**
	 * Adds a resource to the filter. Resolves once a listen including it was acknowledged with it; rejects with
	 * CapabilityMissing when the acknowledgment leaves it out (the server sends no updates for it), or with the error
	 * that ended the listen before its acknowledgment. A rejected URI is dropped from the filter again.
	 */
	subscribe(uri: string): Promise<void> {
		if (this.unsupported) {
			return Promise.reject(
				new McpError(
					ErrorCode.CapabilityMissing,
					`${this.deps.name} does not support subscriptions/listen, so it sends no resource updates`,
					{ method: 'subscriptions/listen' },
				),
			);
		}
		const current = this.current;
		if (this.uris.has(uri) && current?.acknowledged && current.filter.resourceSubscriptions?.includes(uri)) {
			return Promise.resolve();
		}
		this.uris.add(uri);
		const promise = new Promise<void>((resolve, reject) => this.waiters.push({ uri, resolve, reject }));
		this.schedule();
		return promise;
	}

	/**
	 * Sets the tasks whose status notifications are wanted (the live tasks of the tasks extension); the stream is
	 * re-opened with them when the set changed. Nothing waits for the acknowledgment: the tasks are polled anyway, and
	 * a server that leaves them out of its acknowledgment only means status keeps coming from `tasks/get`.
	 */
	watchTasks(taskIds: readonly string[]): void {
		const sorted = [...new Set(taskIds)].sort();
		if (sorted.length === this.taskIds.length && sorted.every((id, i) => id === this.taskIds[i])) return;
		this.taskIds = sorted;
		this.schedule();
	}

	/** Removes a resource from the filter (the stream is re-opened without it). */
	unsubscribe(uri: string): void {
		if (this.uris.delete(uri)) this.schedule();
	}

	/**
	 * Whether a notification belongs to a live subscription of this client: one without a subscription id (a server
	 * that does not tag) is taken; one tagged with the id of a cancelled or unknown listen is not ("clients MUST use
	 * this field to correlate notifications with their originating subscription").
	 */
	accepts(params: Record<string, unknown> | undefined): boolean {
		const id = subscriptionIdOf(params);
		return id === undefined || this.live.has(id);
	}

	/** `notifications/subscriptions/acknowledged`: the listen is established; what it leaves out is not sent. */
	acknowledged(params: Record<string, unknown> | undefined): void {
		const id = subscriptionIdOf(params);
		const attempt = id === undefined ? this.current : this.live.get(id);
		if (!attempt || attempt.acknowledged || attempt.cancelled) return;
		attempt.acknowledged = true;
		this.deps.clock.clearTimeout(attempt.ackTimer);
		if (attempt !== this.current) return;
		this.acknowledgedAt = this.deps.clock.now();
		const granted: ListenFilter = isRecord(params?.notifications) ? params.notifications : {};
		const missing: string[] = [];
		if (attempt.filter.toolsListChanged && granted.toolsListChanged !== true) missing.push('tools list changes');
		if (attempt.filter.promptsListChanged && granted.promptsListChanged !== true) missing.push('prompts list changes');
		if (attempt.filter.resourcesListChanged && granted.resourcesListChanged !== true)
			missing.push('resources list changes');
		const grantedUris = new Set(
			Array.isArray(granted.resourceSubscriptions)
				? granted.resourceSubscriptions.filter((u): u is string => typeof u === 'string')
				: [],
		);
		const refused = (attempt.filter.resourceSubscriptions ?? []).filter((uri) => !grantedUris.has(uri));
		if (refused.length > 0) missing.push(`updates of ${refused.join(', ')}`);
		// "the server includes the list of task IDs it has agreed to send task status notifications for, if any"
		const grantedTasks = new Set(
			Array.isArray(granted.taskIds) ? granted.taskIds.filter((t): t is string => typeof t === 'string') : [],
		);
		const unnotified = (attempt.filter.taskIds ?? []).filter((id) => !grantedTasks.has(id));
		if (unnotified.length > 0)
			missing.push(
				`status of task${unnotified.length === 1 ? '' : 's'} ${unnotified.join(', ')} (polled with tasks/get instead)`,
			);
		// Tasks come and go with every long tool call: a listen that only follows a new set of tasks is a debug line.
		const { taskIds: _tasks, ...lasting } = attempt.filter;
		const lastingKey = JSON.stringify(lasting);
		const quiet = lastingKey === this.loggedKey && unnotified.length === 0;
		this.loggedKey = lastingKey;
		const line = `${this.deps.name}: listening for changes (${describeFilter(attempt.filter)}) on subscriptions/listen${missing.length > 0 ? `; the server does not send ${missing.join(', ')}` : ''}`;
		if (quiet) this.deps.logger.debug(line);
		else this.deps.logger.info(line);
		for (const waiter of this.takeWaiters((uri) => attempt.filter.resourceSubscriptions?.includes(uri) === true)) {
			if (grantedUris.has(waiter.uri)) {
				waiter.resolve();
			} else {
				this.uris.delete(waiter.uri);
				waiter.reject(
					new McpError(
						ErrorCode.CapabilityMissing,
						`${this.deps.name} acknowledged subscriptions/listen without ${waiter.uri}: it sends no updates for that resource`,
						{ uri: waiter.uri },
					),
				);
			}
		}
		// The new subscription carries everything now: the ones it replaces end.
		for (const other of [...this.live.values()]) {
			if (other !== attempt) this.cancel(other);
		}
	}

	/** Stops re-listening; called when the connection closes (which ends the request itself). */
	close(): void {
		this.closed = true;
		this.deps.clock.clearTimeout(this.retryTimer);
		this.retryTimer = undefined;
		for (const attempt of this.live.values()) this.deps.clock.clearTimeout(attempt.ackTimer);
		this.live.clear();
		this.current = undefined;
		for (const waiter of this.takeWaiters(() => true)) {
			waiter.reject(
				McpError.connectionClosed(
					`${this.deps.name}: the connection closed before subscriptions/listen was acknowledged`,
				),
			);
		}
	}

	private filter(): ListenFilter {
		const filter: ListenFilter = {};
		if (this.lists.tools) filter.toolsListChanged = true;
		if (this.lists.prompts) filter.promptsListChanged = true;
		if (this.lists.resources) filter.resourcesListChanged = true;
		if (this.uris.size > 0) filter.resourceSubscriptions = [...this.uris].sort();
		if (this.taskIds.length > 0) filter.taskIds = [...this.taskIds];
		return filter;
	}

	/** Changes come in bursts (the lists at start, several documents restored): one listen for all of them. */
	private schedule(): void {
		if (this.scheduled || this.closed) return;
		this.scheduled = true;
		queueMicrotask(() => {
			this.scheduled = false;
			this.sync();
		});
	}

	private sync(): void {
		if (this.closed || this.unsupported || this.deps.isClosed()) return;
		const filter = this.filter();
		const key = JSON.stringify(filter);
		if (key === '{}') {
			for (const attempt of [...this.live.values()]) this.cancel(attempt);
			this.current = undefined;
			return;
		}
		if (this.current?.key === key || this.retryTimer !== undefined) return;
		this.open(filter, key);
	}

	private open(filter: ListenFilter, key: string): void {
		const attempt: Attempt = {
			filter,
			key,
			controller: new AbortController(),
			id: undefined,
			acknowledged: false,
			cancelled: false,
			ackTimer: undefined,
		};
		this.current = attempt;
		const ackTimeoutMs = this.deps.ackTimeoutMs ?? 60_000;
		attempt.ackTimer = this.deps.clock.setTimeout(() => {
			if (attempt.acknowledged || attempt.cancelled) return;
			this.deps.logger.warn(
				`${this.deps.name}: subscriptions/listen was not acknowledged within ${ackTimeoutMs / 1000} s; listening again later`,
			);
			this.ended(
				attempt,
				new McpError(
					ErrorCode.RequestTimeout,
					`${this.deps.name}: subscriptions/listen was not acknowledged within ${ackTimeoutMs / 1000} s`,
				),
			);
			this.cancel(attempt);
		}, ackTimeoutMs);
		this.deps.logger.debug(`${this.deps.name}: subscriptions/listen for ${describeFilter(filter)}`);
		this.deps
			.request(
				{ notifications: filter },
				{
					signal: attempt.controller.signal,
					// The stream lives as long as the connection: no request timeout.
					timeoutMs: Infinity,
					onRequestId: (id) => {
						attempt.id = id;
						this.live.set(id, attempt);
					},
				},
			)
			.then(
				() => {
					if (attempt.cancelled || this.closed) return this.forget(attempt);
					// "it SHOULD send a successful subscriptions/listen response to signal a graceful end"
					this.deps.logger.info(
						`${this.deps.name}: the server ended the subscriptions/listen stream; listening again later`,
					);
					this.ended(
						attempt,
						McpError.connectionClosed(`${this.deps.name} ended subscriptions/listen before acknowledging it`),
					);
				},
				(error: unknown) => {
					if (attempt.cancelled || this.closed || this.deps.isClosed()) return this.forget(attempt);
					if (error instanceof McpError && error.code === ErrorCode.MethodNotFound) {
						this.unsupported = true;
						this.deps.logger.warn(
							`${this.deps.name} does not support subscriptions/listen (${error.message}): lists change in the view only when refreshed, and task status comes only from polling`,
						);
						this.forget(attempt);
						this.rejectAll(error);
						return;
					}
					this.deps.logger.warn(`${this.deps.name}: subscriptions/listen ended: ${errorMessage(error)}`);
					this.ended(attempt, error);
				},
			);
	}

	/** An attempt ended without our asking: waiters of an unacknowledged one fail; the current one is re-opened later. */
	private ended(attempt: Attempt, error: unknown): void {
		const wasCurrent = attempt === this.current;
		this.forget(attempt);
		if (!wasCurrent) return;
		this.current = undefined;
		if (!attempt.acknowledged) this.rejectAll(error);
		this.retryLater();
	}

	private forget(attempt: Attempt): void {
		this.deps.clock.clearTimeout(attempt.ackTimer);
		if (attempt.id !== undefined && this.live.get(attempt.id) === attempt) this.live.delete(attempt.id);
	}

	private cancel(attempt: Attempt): void {
		attempt.cancelled = true;
		this.forget(attempt);
		// Aborting sends notifications/cancelled over stdio and closes the SSE stream over HTTP (spec: "Cancellation").
		attempt.controller.abort(new McpError(ErrorCode.RequestCancelled, 'subscription replaced or no longer needed'));
	}

	private retryLater(): void {
		if (this.closed || this.deps.isClosed()) return;
		const now = this.deps.clock.now();
		if (this.acknowledgedAt !== undefined && now - this.acknowledgedAt >= HEALTHY_STREAM_MS) this.failures = 0;
		this.acknowledgedAt = undefined;
		this.failures++;
		const delay = Math.min(
			(this.deps.initialDelayMs ?? 1000) * 2 ** (this.failures - 1),
			this.deps.maxDelayMs ?? 30_000,
		);
		this.deps.logger.debug(`${this.deps.name}: listening again in ${delay} ms`);
		this.retryTimer = this.deps.clock.setTimeout(() => {
			this.retryTimer = undefined;
			this.sync();
		}, delay);
	}

	private rejectAll(error: unknown): void {
		for (const waiter of this.takeWaiters(() => true)) {
			this.uris.delete(waiter.uri);
			waiter.reject(error);
		}
	}

	private takeWaiters(match: (uri: string) => boolean): Waiter[] {
		const taken: Waiter[] = [];
		for (let i = this.waiters.length - 1; i >= 0; i--) {
			const waiter = this.waiters[i];
			if (waiter && match(waiter.uri)) {
				taken.unshift(waiter);
				this.waiters.splice(i, 1);
			}
		}
		return taken;
	}
}
