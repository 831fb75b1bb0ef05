/**
 * Node's timers hold a signed 32-bit millisecond delay: a larger one (a `timeoutMs` of 3e9 in settings) is replaced
 * by 1 ms with only a TimeoutOverflowWarning, so "wait a month" fires at once. Every user-supplied duration passes
 * through `effectiveTimeout` before it reaches a timer.
 * https://nodejs.org/api/timers.html#settimeoutcallback-delay-args
 */

/** The longest delay a Node timer honours: 2^31 - 1 ms (about 24.8 days). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A timeout as the code should treat it: values beyond MAX_TIMER_MS (and `Infinity`, NaN) become `Infinity`, "no
 * timeout"; zero and negative values stay (they time out at once, as asked); the rest is returned as is. Waiting
 * longer than 24 days is, for a request or a start, the same as not timing out, and must never become "fail now".
 */
export function effectiveTimeout(ms: number): number {
	if (Number.isNaN(ms) || ms > MAX_TIMER_MS) return Infinity;
	return ms;
}
