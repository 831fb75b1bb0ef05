/**
 * The tasks extension of MCP 2026-07-28 (`io.modelcontextprotocol/tasks`, SEP-2663) on the wire: a `tools/call` the
 * server answers with `resultType: "task"` (CreateTaskResult), and `tasks/get` / `notifications/tasks` carrying a
 * DetailedTask, whose final result, error or outstanding input requests travel inline (there is no `tasks/result`).
 * A task is read into the same `Task` the 2025-11-25 code uses (`ttlMs` → `ttl`, `pollIntervalMs` → `pollInterval`),
 * so the requestor, the poller and the UI serve both; the inline fields stay on it (see `inlineOf`).
 * Spec: https://github.com/modelcontextprotocol/ext-tasks/blob/main/specification/draft/tasks.md
 * (SEP: https://modelcontextprotocol.io/seps/2663-tasks-extension)
 */
import { ErrorCode } from '../jsonrpc';
import { McpError } from '../mcpError';
import { taskProblem, type Task } from './task';
import { isRecord } from '../../common/records';

/** The extension's identifier, declared in `clientCapabilities.extensions` and read from the server's. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Server-to-client requests a task waits for, keyed by ids unique over the task's lifetime. */
export type TaskInputRequests = Record<string, { method: string; params?: Record<string, unknown> }>;

/** The status-specific fields of a DetailedTask. */
export interface InlineTaskFields {
	/** `completed`: what the original request would have returned (a CallToolResult for tools/call). */
	result?: Record<string, unknown>;
	/** `failed`: the JSON-RPC error of the request. */
	error?: { code: number; message: string; data?: unknown };
	/** `input_required`: every outstanding request ("MUST contain all outstanding requests"). */
	inputRequests?: TaskInputRequests;
}

/** The inline fields of a task read by `parseExtensionTask`. */
export function inlineOf(task: Task): InlineTaskFields {
	return task as InlineTaskFields;
}

/**
 * Reads a CreateTaskResult (`expect: 'task'`) or a `tasks/get` result / `notifications/tasks` params
 * (`expect: 'detailed'`) into a Task, or throws a ProtocolViolation naming the server, the method and the field.
 * "Servers MUST set resultType to "task" when returning a CreateTaskResult"; `tasks/get` answers "complete" (absent is
 * read as complete, as for every result). A `ttlMs` left out is read as null (unlimited); the 2025-11-25 names
 * (`ttl`, `pollInterval`) are not read: the extension renamed them.
 */
export function parseExtensionTask(value: unknown, server: string, method: string, expect: 'task' | 'detailed'): Task {
	const fail = (problem: string) =>
		new McpError(ErrorCode.ProtocolViolation, `${server} answered ${method} with an invalid task: ${problem}`, {
			method,
		});
	if (!isRecord(value)) throw fail('not an object');
	const { ttlMs, pollIntervalMs, ttl: _ttl, pollInterval: _pollInterval, ...rest } = value;
	if (expect === 'task' && rest.resultType !== 'task')
		throw fail(`resultType is ${JSON.stringify(rest.resultType)}, not "task"`);
	if (expect === 'detailed' && rest.resultType !== undefined && rest.resultType !== 'complete')
		throw fail(`resultType is ${JSON.stringify(rest.resultType)}, not "complete"`);
	const task: Record<string, unknown> = { ...rest, ttl: ttlMs === undefined ? null : ttlMs };
	if (pollIntervalMs !== undefined) task.pollInterval = pollIntervalMs;
	const problem =
		taskProblem(task) ??
		(typeof task.lastUpdatedAt !== 'string' ? 'lastUpdatedAt is not a string' : undefined) ??
		(expect === 'detailed' ? detailProblem(task) : undefined);
	if (problem !== undefined) throw fail(problem);
	return task as Task;
}

/** The status-specific field a DetailedTask must carry ("the server MUST return a Task object with status completed and a result field", …). */
function detailProblem(task: Record<string, unknown>): string | undefined {
	switch (task.status) {
		case 'completed':
			return isRecord(task.result) ? undefined : 'status is completed but result is not an object';
		case 'failed': {
			const error = task.error;
			return isRecord(error) && typeof error.code === 'number' && typeof error.message === 'string'
				? undefined
				: 'status is failed but error is not a JSON-RPC error object';
		}
		case 'input_required': {
			const requests = task.inputRequests;
			if (!isRecord(requests)) return 'status is input_required but inputRequests is not an object';
			for (const [key, request] of Object.entries(requests)) {
				if (
					!isRecord(request) ||
					typeof request.method !== 'string' ||
					(request.params !== undefined && !isRecord(request.params))
				)
					return `input request "${key}" has no method or malformed params`;
			}
			return undefined;
		}
		default:
			return undefined;
	}
}
