/**
 * The data of MCP tasks (2025-11-25, experimental) and the checks applied to it at the wire.
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
 *
 * Checked structurally (like the client's hot paths), not with zod: `tasks/get` is sent once per poll interval
 * for every live task, and a task is a handful of scalar fields.
 */
import { ErrorCode } from '../jsonrpc';
import { McpError } from '../mcpError';
import { isRecord } from '../../common/records';

/** Where a task stands. `completed`, `failed` and `cancelled` are terminal: "MUST NOT transition to any other status". */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

const STATUSES: ReadonlySet<string> = new Set<TaskStatus>([
	'working',
	'input_required',
	'completed',
	'failed',
	'cancelled',
]);

/** The task object of `CreateTaskResult.task`, `tasks/get`, `tasks/cancel`, `tasks/list` and `notifications/tasks/status`. */
export interface Task {
	taskId: string;
	status: TaskStatus;
	/** A human-readable note on the current status (a stage, a summary, or why it failed). */
	statusMessage?: string;
	/** ISO 8601, when the receiver created the task. */
	createdAt: string;
	/** ISO 8601, when its status last changed. */
	lastUpdatedAt: string;
	/** Retention from creation in ms; null: unlimited. */
	ttl: number | null;
	/** The receiver's suggested time between `tasks/get` polls, in ms. */
	pollInterval?: number;
	[key: string]: unknown;
}

/** `params.task` of a task-augmented request: "Requested duration in milliseconds to retain task from creation". */
export interface TaskMetadata {
	ttl?: number;
}

/**
 * The `_meta` key that ties a message to a task: "All requests, notifications, and responses related to a task
 * MUST include the io.modelcontextprotocol/related-task key in their _meta field".
 */
export const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';

/** The `_meta` key of a CreateTaskResult whose string a host may hand the model as an immediate tool result. */
export const MODEL_IMMEDIATE_RESPONSE_META = 'io.modelcontextprotocol/model-immediate-response';

export function isTerminal(status: TaskStatus): boolean {
	return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/**
 * Returns `value` as a Task, or throws a ProtocolViolation McpError naming the server, the method and the field.
 * `ttl` may be absent (read as null: some receivers leave it out of notifications); `pollInterval` must be a
 * non-negative number when present.
 */
export function parseTask(value: unknown, server: string, method: string): Task {
	const problem = taskProblem(value);
	if (problem !== undefined) {
		throw new McpError(ErrorCode.ProtocolViolation, `${server} answered ${method} with an invalid task: ${problem}`, {
			method,
		});
	}
	const task = value as Task;
	if (task.ttl === undefined) {
		task.ttl = null;
	}
	return task;
}

/** What is wrong with `value` as a Task (field names of 2025-11-25: `ttl`, `pollInterval`), or undefined when nothing is. */
export function taskProblem(value: unknown): string | undefined {
	if (!isRecord(value)) return 'not an object';
	if (typeof value.taskId !== 'string' || value.taskId === '') return 'taskId is not a non-empty string';
	if (typeof value.status !== 'string' || !STATUSES.has(value.status))
		return `status ${JSON.stringify(value.status)} is not one of ${[...STATUSES].join(', ')}`;
	if (value.statusMessage !== undefined && typeof value.statusMessage !== 'string')
		return 'statusMessage is not a string';
	if (typeof value.createdAt !== 'string') return 'createdAt is not a string';
	if (value.lastUpdatedAt !== undefined && typeof value.lastUpdatedAt !== 'string')
		return 'lastUpdatedAt is not a string';
	if (value.ttl !== undefined && value.ttl !== null && (typeof value.ttl !== 'number' || !(value.ttl >= 0)))
		return 'ttl is not a non-negative number or null';
	if (value.pollInterval !== undefined && (typeof value.pollInterval !== 'number' || !(value.pollInterval >= 0)))
		return 'pollInterval is not a non-negative number';
	return undefined;
}

/** The task id in a message's `_meta[RELATED_TASK_META]`, if it has one. */
export function relatedTaskId(params: Record<string, unknown> | undefined): string | undefined {
	const meta = params?._meta;
	if (!isRecord(meta)) return undefined;
	const related = meta[RELATED_TASK_META];
	return isRecord(related) && typeof related.taskId === 'string' ? related.taskId : undefined;
}

/** `result` with `_meta[RELATED_TASK_META] = { taskId }` added (a copy; other `_meta` keys kept). */
export function withRelatedTask<T extends object>(result: T, taskId: string): T {
	const meta = (result as { _meta?: unknown })._meta;
	return { ...result, _meta: { ...(isRecord(meta) ? meta : undefined), [RELATED_TASK_META]: { taskId } } };
}
