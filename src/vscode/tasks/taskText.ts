/**
 * What a task row says, as plain text (no `vscode`, so unit tests read it): its status in words, elapsed time, and the
 * description that tells a live task from a finished one.
 */
import type { Progress } from '../../protocol/schema';
import { isTerminal, type TaskStatus } from '../../protocol/tasks/task';

/** What these texts read of a task entry (taskList.ts's `TaskEntry`). */
export interface TaskState {
	status: TaskStatus | 'unknown';
	statusMessage?: string;
	progress?: Progress;
	error?: string;
	readonly startedAt: number;
	finishedAt?: number;
}

/** "12 s", "3 min 5 s", "2 h 1 min". */
export function elapsedText(ms: number): string {
	const seconds = Math.max(0, Math.floor(ms / 1000));
	if (seconds < 60) return `${seconds} s`;
	const minutes = Math.floor(seconds / 60);
	if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
	return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Terminal, or known to be unreachable. */
export function isFinished(entry: TaskState): boolean {
	return (entry.status !== 'unknown' && isTerminal(entry.status)) || entry.finishedAt !== undefined;
}

/** Each status as a person reads it. */
export const statusWords: Record<TaskState['status'], string> = {
	working: 'working',
	input_required: 'needs input',
	completed: 'completed',
	failed: 'failed',
	cancelled: 'cancelled',
	unknown: 'from an earlier window',
};

/**
 * A task row's description. A live task: its status, the server's status message, progress and elapsed time. A
 * finished one says how it ended and how long it took ("completed in 12 s"), not the last "working" message it had.
 */
export function taskDescription(entry: TaskState, now = Date.now()): string {
	const elapsed = elapsedText((entry.finishedAt ?? now) - entry.startedAt);
	if (isFinished(entry)) {
		if (entry.error === undefined && entry.status === 'completed') return `completed in ${elapsed}`;
		if (entry.error === undefined && entry.status === 'cancelled') return `cancelled after ${elapsed}`;
		const status =
			entry.error !== undefined && entry.status !== 'failed' && entry.status !== 'cancelled'
				? 'error'
				: statusWords[entry.status];
		// A failed task's own status message is usually its reason in the server's words ("The backend went away").
		const why = entry.statusMessage ?? (entry.error !== undefined ? firstLine(entry.error) : undefined);
		return [status, why, `after ${elapsed}`].filter(Boolean).join(' · ');
	}
	const progress = entry.progress
		? entry.progress.total
			? `${Math.round((entry.progress.progress / entry.progress.total) * 100)}%`
			: String(entry.progress.progress)
		: undefined;
	return [statusWords[entry.status], entry.statusMessage, progress, elapsed].filter(Boolean).join(' · ');
}

function firstLine(text: string): string {
	const line = text.split('\n', 1)[0] ?? text;
	return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
