/**
 * What a failed start or a closed connection becomes for a server: the message it shows, the state of a failure no
 * restart can help, and the states around the restart policy's decision (waiting to restart, or the crash-loop stop).
 * Pure: ServerConnection carries them out (log, timer, state change).
 */
import { McpError } from '../protocol/mcpError';
import { plural } from '../common/text';
import { errorMessage } from '../common/errors';
import type { RestartDecision } from './backoff';
import { isRetryable, signInFailure, signInRequired } from './connectAttempt';
import type { ServerConfig, ServerState } from './types';
import type { UnreachableCause } from './unreachable';

/**
 * The message a failure shows: the error, then the definition's notes ("connection refused" alone hides that the
 * URL's port came from an unset environment variable).
 */
export function failureMessage(error: unknown, notes: readonly string[] = []): string {
	return notes.length > 0 ? `${errorMessage(error)}\n${notes.join('\n')}` : errorMessage(error);
}

/** Whether a closed connection was a Streamable HTTP session that expired (the server answered 404 to our session id). */
export function sessionExpired(error: Error): boolean {
	return error instanceof McpError && (error.data as { sessionExpired?: unknown } | undefined)?.sessionExpired === true;
}

/**
 * The state of a failure that trying again cannot help: a sign-in that waits for the user, or an error that fails
 * the same way every time (see isRetryable). Undefined: the restart policy decides.
 */
export function finalFailureState(error: unknown, config: ServerConfig, message: string): ServerState | undefined {
	if (signInRequired(error)) return { kind: 'needsSignIn', message };
	if (isRetryable(error, config)) return undefined;
	const signIn = signInFailure(error);
	return signIn ? { kind: 'error', message, signIn } : { kind: 'error', message };
}

/**
 * The state after the restart policy's decision: waiting to restart at `now + delayMs`, or the crash-loop stop.
 * `unreachable`: the start could not connect at all, which the state and its words say instead of a crash.
 */
export function decisionState(
	server: string,
	decision: RestartDecision,
	message: string,
	now: number,
	unreachable?: UnreachableCause,
): ServerState {
	const cause = unreachable ? { unreachable } : {};
	if (decision.restart) return { kind: 'error', message, retryAt: now + decision.delayMs, ...cause };
	const what = unreachable ? 'could not be reached' : 'stopped';
	const again = unreachable ? 'tried' : 'restarted';
	const minutes = plural(Math.max(1, Math.round(decision.windowMs / 60_000)), 'minute');
	return {
		kind: 'error',
		crashLoop: true,
		...cause,
		// One allowed attempt (the command line's policy) stopped: the crash itself is the whole story.
		message:
			decision.crashes <= 1
				? message
				: `Server '${server}' ${what} ${plural(decision.crashes, 'time')} within ${minutes}, so it is not ${again} again. Last error: ${message}`,
	};
}
