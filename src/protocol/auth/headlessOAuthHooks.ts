import { MemoryTokenStore } from './memoryTokenStore';
import type { OAuthHostHooks, TokenStore } from './types';

export interface HeadlessOAuthHooksOptions {
	/**
	 * Shows the authorization URL to the user, e.g. opens a browser or prints it. Resolves once shown; the redirect
	 * comes back to the OAuth client's own loopback listener on 127.0.0.1. Rejecting aborts the authorization.
	 */
	openUrl(url: string, signal: AbortSignal): void | Promise<void>;
	/** Default: a new MemoryTokenStore (tokens live as long as the process). */
	store?: TokenStore;
}

/**
 * OAuthHostHooks for `dist/core.js` users: tokens in memory (or the given store) and the redirect received by the
 * client's loopback listener (no `redirectUri` hook, so the OAuthProvider starts one per authorization).
 */
export function createHeadlessOAuthHooks(options: HeadlessOAuthHooksOptions): OAuthHostHooks {
	return {
		store: options.store ?? new MemoryTokenStore(),
		async openAuthorizationUrl(url, _redirectUri, signal) {
			await options.openUrl(url, signal);
			// The loopback listener delivers the redirect; this settles only when the client gives up waiting.
			return new Promise<string>((_, reject) => {
				if (signal.aborted) {
					reject(signal.reason);
				}
				signal.addEventListener('abort', () => reject(signal.reason), { once: true });
			});
		},
	};
}
