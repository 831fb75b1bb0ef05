// The shapes the Manager and the edge use for OAuth; the client itself is in oauthProvider.ts.

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
	 * When the host has no `redirectUri()`, the client's own loopback listener may receive the redirect first: then
	 * the client aborts `signal` and ignores what this hook resolves with.
	 */
	openAuthorizationUrl(url: string, redirectUri: string, signal: AbortSignal): Promise<string>;
	/**
	 * The redirect URI to register and send. Default: a loopback listener on 127.0.0.1 started by the client.
	 * `previous` is the redirect URI of the stored client registration, if any, so a host can reuse its port and keep
	 * the registration valid (authorization servers compare redirect URIs exactly).
	 */
	redirectUri?(previous?: string): Promise<string>;
}

/** OAuth settings of one server (from config). */
export interface OAuthClientConfig {
	/** A client id registered with the authorization server beforehand; preferred over CIMD and registration. */
	clientId?: string;
	/** The secret of a pre-registered confidential client. Absent: a public client (auth method `none`). */
	clientSecret?: string;
	/**
	 * Scopes to ask for when the server's 401 names none. Default: the protected resource's `scopes_supported`,
	 * else no `scope` parameter.
	 */
	scopes?: string[];
	/** A URL of a Client ID Metadata Document, when the client has one (used when the server supports CIMD). */
	clientMetadataUrl?: string;
	/**
	 * How a pre-registered client with a secret authenticates at the token endpoint.
	 * Default: `client_secret_basic` when the server lists it (or lists nothing), else `client_secret_post`.
	 */
	tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post' | 'none';
}

/** Tokens as kept in the TokenStore (JSON), per server URL and issuer. */
export interface StoredTokens {
	accessToken: string;
	tokenType: string;
	refreshToken?: string;
	/** Epoch milliseconds; absent when the server gave no `expires_in`. */
	expiresAt?: number;
	/** Epoch milliseconds when the token was received. */
	issuedAt?: number;
	/** The scopes granted (or, when the server did not say, requested), space separated. */
	scope?: string;
}

/** A client identity at one authorization server, as kept in the TokenStore (JSON). */
export interface StoredClient {
	kind: 'preregistered' | 'cimd' | 'dcr';
	clientId: string;
	clientSecret?: string;
	tokenEndpointAuthMethod: 'none' | 'client_secret_basic' | 'client_secret_post';
	/** The redirect URIs registered (DCR), so a changed redirect URI triggers a new registration. */
	redirectUris?: string[];
}
