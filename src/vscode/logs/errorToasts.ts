/**
 * Which error toasts are the same news. A failing server used to raise near-duplicates that all stayed: the Start
 * command's "start failed: X", the state change's "X", the retry's "X" with another port or attempt number. While a
 * toast of one server and one cause is shown, another of the same is not raised. No `vscode` import: unit-tested.
 */
import { errorSummary } from '../../manager/errorSummary';

/** The command's words before the cause ("start failed: …"), which do not make it another cause. */
const ACTION_PREFIX = /^(?:start|stop|restart|refresh|sign-in|sign in) failed: /i;
/** How often or how long, after the reason (errorSummary's "(stopped 5 times, not restarted)"). */
const TAIL = /\s*\((?:stopped|tried) [^)]*\)$/;

/**
 * The cause of an error message as a key: its one-line summary without the command's prefix, the retry count, or
 * numbers (ports, pids, attempts, exit codes differ between near-duplicates), case-folded.
 */
export function errorCause(message: string): string {
	const summary = errorSummary(message.trim().replace(ACTION_PREFIX, ''), 400).replace(TAIL, '');
	return summary.replace(/\d+/g, '#').toLowerCase();
}

/** The error toasts on screen, by server and cause. */
export class ShownErrors {
	private readonly shown = new Set<string>();

	/**
	 * Whether a toast for `server` and `message` may be raised now: false while one of the same cause is shown.
	 * When true, it counts as shown until the returned `done` is called (the toast closed).
	 */
	claim(server: string | undefined, message: string): { done: () => void } | undefined {
		const key = `${server ?? ''}\u0000${errorCause(message)}`;
		if (this.shown.has(key)) return undefined;
		this.shown.add(key);
		return { done: () => this.shown.delete(key) };
	}
}
