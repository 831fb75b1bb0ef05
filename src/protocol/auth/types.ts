// The shapes the Manager and the edge use for OAuth; the client itself is in oauthProvider.ts.
import type { StoredDPoPKey } from './dpop';

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
	tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post' | 'none' | 'private_key_jwt';
	/**
	 * How tokens are obtained. `authorization_code` (default): the user signs in in the browser.
	 * `client_credentials`: the client's own identity, no user (machine-to-machine servers; RFC 6749 section 4.4).
	 * `jwt_bearer`: a JWT from the workload's identity provider as the grant (RFC 7523 section 2.1, `assertion`).
	 * With `enterprise` set, enterprise-managed authorization is used whatever this says.
	 */
	grant?: 'authorization_code' | 'client_credentials' | 'jwt_bearer';
	/** A PEM private key for `private_key_jwt` (RFC 7523 section 2.2): the client assertion is signed with it. */
	privateKey?: string;
	/** A file holding that PEM private key (read on each use, so the key never enters settings or the store). */
	privateKeyFile?: string;
	/** The `alg` of the client assertion. Default: from the key (ES256 for P-256, RS256 for RSA, Ed25519). */
	signingAlgorithm?: string;
	/** The JWT presented with grant `jwt_bearer`. */
	assertion?: string;
	/**
	 * Enterprise-managed authorization (MCP extension io.modelcontextprotocol/enterprise-managed-authorization,
	 * SEP-990): the user's ID token from the enterprise identity provider is exchanged there for an identity
	 * assertion grant (ID-JAG, RFC 8693 token exchange), which the MCP server's authorization server takes as a
	 * JWT-bearer grant (RFC 7523) from this client (`clientId`, `clientSecret`).
	 */
	enterprise?: EnterpriseIdpConfig;
}

/** The enterprise identity provider of enterprise-managed authorization. */
export interface EnterpriseIdpConfig {
	/** The IdP's token endpoint, where the token exchange happens. */
	idpTokenEndpoint: string;
	/** This client's id at the IdP. */
	idpClientId: string;
	/** This client's secret at the IdP, when it is a confidential client there. */
	idpClientSecret?: string;
	/** The user's ID token from the IdP (the subject token of the exchange). */
	idToken: string;
	/** The IdP's issuer identifier, for messages. */
	idpIssuer?: string;
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
	/**
	 * The DPoP key pair the access token (and, for public clients, the refresh token) is bound to (RFC 9449), kept
	 * for exactly as long as the tokens; absent for bearer tokens.
	 */
	dpopKey?: StoredDPoPKey;
}

/** A client identity at one authorization server, as kept in the TokenStore (JSON). */
export interface StoredClient {
	kind: 'preregistered' | 'cimd' | 'dcr';
	clientId: string;
	clientSecret?: string;
	/** `private_key_jwt` only for a pre-registered client: the key comes from the configuration, never the store. */
	tokenEndpointAuthMethod: 'none' | 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
	/** The redirect URIs registered (DCR), so a changed redirect URI triggers a new registration. */
	redirectUris?: string[];
}

/**
 * What `OAuthHostHooks.openAuthorizationUrl` throws when a sign-in needs the user and nobody asked for one (an
 * automatic start): the start stops and waits, and the Manager reports the server as `needsSignIn` instead of failed.
 */
export class SignInRequiredError extends Error {
	override readonly name = 'SignInRequiredError';
}

/** Whether `error`, or an error it was caused by, is a {@link SignInRequiredError}. */
export function isSignInRequired(error: unknown): boolean {
	for (let cause = error, depth = 0; cause instanceof Error && depth < 8; cause = cause.cause, depth++) {
		if (cause instanceof SignInRequiredError) return true;
	}
	return false;
}
