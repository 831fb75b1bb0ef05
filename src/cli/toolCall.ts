/**
 * A tool call from the command line: through the Manager (so a task-only tool is known from the server's listing and
 * runs as a task), with the task's states and the server's progress on stderr, and Ctrl+C cancelling the call: a
 * task gets `tasks/cancel` and the command reports what the server answered before it exits.
 */
import type { CallToolOptions, ToolTask } from '../protocol/client';
import type { CallToolResult, Progress } from '../protocol/schema';
import type { Task } from '../protocol/tasks/task';
import type { CliSession } from './session';

/** What a tool call reports on stderr while it runs (the result itself goes to stdout). */
export interface CallReporter {
	(line: string): void;
}

/** "progress 3/10: Step 3" (total and message when the server sent them). */
export function progressText(progress: Progress): string {
	const total = typeof progress.total === 'number' ? `/${progress.total}` : '';
	const message = typeof progress.message === 'string' && progress.message ? `: ${progress.message}` : '';
	return `progress ${progress.progress}${total}${message}`;
}

/** "task 1f2e…: working (Processing…)". */
export function taskText(task: Task): string {
	return `task ${task.taskId}: ${task.status}${task.statusMessage ? ` (${task.statusMessage})` : ''}`;
}

/**
 * Calls `tool` on `server` through the session's Manager. Aborting `signal` (Ctrl+C) cancels the call: a plain one
 * with notifications/cancelled, a task with tasks/cancel, whose answer is reported before the promise rejects.
 */
export async function callToolFromCli(
	session: CliSession,
	server: string,
	tool: string,
	args: Record<string, unknown>,
	signal: AbortSignal,
	report: CallReporter,
	timeoutMs: number | undefined,
): Promise<CallToolResult> {
	let lastStatus = '';
	const options: CallToolOptions = {
		signal,
		onProgress: (progress) => report(progressText(progress)),
		onTaskCreated: (created: ToolTask) => {
			report(`${taskText(created.task)}; Ctrl+C cancels it`);
			lastStatus = `${created.status}\n${created.task.statusMessage ?? ''}`;
		},
		onTaskStatus: (state) => {
			const key = `${state.status}\n${state.statusMessage ?? ''}`;
			if (key !== lastStatus) report(taskText(state));
			lastStatus = key;
		},
	};
	if (timeoutMs !== undefined) options.timeoutMs = timeoutMs;
	// A cancelled task's last state (what the server answered tasks/cancel) is reported by onTaskStatus; the error's
	// message says whether the server cancelled it or may still be running it.
	return session.running.callTool(server, tool, args, options);
}
