// CONTRACT STUB: the OAuth work fills src/protocol/auth; these shapes are what the Manager and the edge use.

/** Where tokens and client registrations are kept: VS Code's SecretStorage at the edge, memory in the headless API. */
export interface TokenStore {
	get(key: string): Promise<string | undefined>;
	set(key: string, value: string): Promise<void>;
	delete(key: string): Promise<void>;
}

/** What the OAuth client needs from the host for the browser step. */
export interface OAuthHostHooks {
	store: TokenStore;
	/**
	 * Shows `url` to the user (opens the browser) and resolves with the full redirect URL the authorization server
	 * sent the browser back to (carrying `code` and `state`), or rejects when the user gives up.
	 * `redirectUri` is the URI the flow registered; the host arranges that it reaches it (loopback listener or URI handler).
	 */
	openAuthorizationUrl(url: string, redirectUri: string, signal: AbortSignal): Promise<string>;
	/** The redirect URI to register and send. Default: a loopback listener on 127.0.0.1 started by the client. */
	redirectUri?(): Promise<string>;
}

/** OAuth settings of one server (from config). */
export interface OAuthClientConfig {
	clientId?: string;
	clientSecret?: string;
	scopes?: string[];
	/** A URL of a Client ID Metadata Document, when the client has one. */
	clientMetadataUrl?: string;
}
