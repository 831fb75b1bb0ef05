/**
 * When stored tokens count as expired, and one refresh of a stored token entry at a time in this process: the two
 * rules OAuthProvider.refresh() keeps so rotating refresh tokens are never sent twice.
 */
import type { StoredTokens } from './types';

/**
 * Refreshes of one stored token entry in flight in this process, by store key: the next waits for the previous,
 * so two providers sharing a store never send the same rotating refresh token twice.
 */
const refreshQueues = new Map<string, Promise<unknown>>();

/** Runs `work` once every earlier refresh of the same store entry in this process has settled. */
export function serialised<T>(key: string, work: () => Promise<T>): Promise<T> {
	const previous = refreshQueues.get(key) ?? Promise.resolve();
	const next = previous.then(work, work);
	const tail = next.catch(() => {});
	refreshQueues.set(key, tail);
	void tail.then(() => {
		if (refreshQueues.get(key) === tail) {
			refreshQueues.delete(key);
		}
	});
	return next;
}

/** Tokens are treated as expired this long (at most) before `expires_in` says, so a request does not race the expiry. */
const expirySkewMs = 30_000;

/** Whether tokens are (about to be) expired: `expiresAt` minus a margin has passed. */
export function tokensExpired(tokens: StoredTokens): boolean {
	if (tokens.expiresAt === undefined) {
		return false;
	}
	// Short-lived tokens get half their lifetime as margin, so a 10 s token is not "expired" on arrival.
	const skew =
		tokens.issuedAt !== undefined ? Math.min(expirySkewMs, (tokens.expiresAt - tokens.issuedAt) / 2) : expirySkewMs;
	return tokens.expiresAt - skew <= Date.now();
}
