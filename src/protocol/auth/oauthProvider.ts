import { nullLogger, type Logger } from '../../common/logger';
import { plural } from '../../common/text';
import { ErrorCode } from '../jsonrpc';
import { McpError } from '../mcpError';
import type { AuthRequest, AuthResponse, HttpAuthProvider } from '../transports/transport';
import {
	canonicalResourceUri,
	discoverAuthorization,
	isLoopbackUrl,
	OAuthStepError,
	requestSignal,
	type AuthorizationServerMetadata,
	type Discovered,
	type HttpContext,
} from './discovery';
import {
	authorizationRequestUrl,
	checkAuthorizationServer,
	exchangeCode,
	readAuthorizationRedirect,
	type AuthorizationRequest,
} from './authorizationCode';
import { browserStep } from './browserStep';
import {
	clientIdentity,
	configuredClientAuth,
	preregisteredClient,
	sessionClient,
	type ClientIdentityContext,
} from './clientIdentity';
import { boundKey, decideDPoP, DPoPProver, generateDPoPKey, retryOnDPoPNonce, type StoredDPoPKey } from './dpop';
import { grantWithoutUser, grantWithoutUserName, type GrantContext } from './grants';
import { describeOAuthError, toOAuthMcpError } from './oauthErrors';
import type { DPoPUse, OAuthProviderOptions, StoredSession } from './oauthProviderOptions';
import { serialised, tokensExpired } from './tokenRefresh';
import { requireJsonAnswer } from './jsonAnswer';
import { oauth, type OAuthLib } from './oauthLib';
import { startLoopbackRedirect, type LoopbackRedirect } from './loopbackRedirect';
import type { StoredClient, StoredTokens } from './types';
import { parseWwwAuthenticate, type AuthChallenge } from './wwwAuthenticate';
import { errorMessage } from '../../common/errors';

/**
 * The OAuth 2.1 client of the MCP authorization specification (2025-11-25), as an HttpAuthProvider for the HTTP
 * transports: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
 *
 * - `headers()` gives `Authorization: Bearer …` when a token is stored, refreshing an expired one first when a
 *   refresh token exists (a failed refresh drops the tokens, so the next 401 authorizes again). A DPoP-bound token
 *   (RFC 9449; see dpop.ts for when) goes as `Authorization: DPoP …` with a fresh `DPoP` proof for each request;
 *   the key pair is kept with the tokens, and nonces are retried once at the token endpoint and at the MCP server.
 * - `onUnauthorized()` on 401 refreshes when it can, else runs the authorization code flow with PKCE S256:
 *   protected resource metadata (RFC 9728), authorization server metadata (RFC 8414, then OIDC discovery), a client
 *   identity (pre-registered, Client ID Metadata Document, or Dynamic Client Registration, RFC 7591), the browser
 *   step through the host hooks, and the code exchange with the `resource` parameter (RFC 8707). On 403
 *   `insufficient_scope` it re-authorizes with the added scopes, at most `maxStepUps` times per scope set.
 * - Every failure rejects with an McpError (code Unauthorized) whose message names the server, the step and why.
 * - Tokens, the session and dynamically registered clients are kept in `hooks.store` under keys that contain the
 *   server URL and the issuer.
 */
export class OAuthProvider implements HttpAuthProvider {
	private readonly serverUrl: string;
	private readonly name: string;
	private readonly logger: Logger;
	private readonly fetchFn: typeof fetch;
	private readonly maxStepUps: number;
	private readonly requestTimeoutMs: number;
	private readonly authorizationTimeoutMs: number;
	private readonly prefix: string;

	private loaded: Promise<void> | undefined;
	private session: StoredSession | undefined;
	private tokens: StoredTokens | undefined;
	private refreshing: Promise<boolean> | undefined;
	private flow: Promise<boolean> | undefined;
	/** An access token that came from a refresh a 401 asked for: if it is refused too, authorize anew. */
	private refreshedAfter401: string | undefined;
	/** Why the authorization server last refused our refresh token, until the next authorization (for its message). */
	private refusedRefresh: string | undefined;
	private readonly stepUps = new Map<string, number>();
	/** The nonces the MCP server sent, per origin (RFC 9449 section 9); the authorization server's live in the prover. */
	private readonly resourceNonces = new Map<string, string>();
	/** The prover of the DPoP key last used, so each proof does not import the key again. */
	private prover: { key: StoredDPoPKey; ready: Promise<DPoPProver> } | undefined;

	constructor(private readonly options: OAuthProviderOptions) {
		this.serverUrl = options.serverUrl;
		this.name = options.name ?? options.serverUrl;
		this.logger = options.logger ?? nullLogger;
		this.fetchFn = options.fetch ?? globalThis.fetch;
		this.maxStepUps = options.maxStepUps ?? 2;
		this.requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
		this.authorizationTimeoutMs = options.authorizationTimeoutMs ?? 300_000;
		this.prefix = `mcp-oauth|${canonicalResourceUri(options.serverUrl)}`;
	}

	/**
	 * See HttpAuthProvider. Never throws for a failed refresh: it then sends no Authorization, and the 401 takes over.
	 * A DPoP-bound token needs `request` (the proof signs its method and URL): without it, rejects with an McpError.
	 */
	async headers(signal?: AbortSignal, request?: AuthRequest): Promise<Record<string, string>> {
		await this.load();
		let tokens = this.tokens;
		if (tokens && tokensExpired(tokens)) {
			tokens = tokens.refreshToken && (await this.refreshOnce(signal)) ? this.tokens : undefined;
		}
		return tokens ? this.authorizationFor(tokens, request) : {};
	}

	/** See HttpAuthProvider: the tokens held now (even expired ones), never a refresh; a new proof for a bound token. */
	async currentHeaders(request: AuthRequest): Promise<Record<string, string>> {
		await this.load();
		return this.tokens ? this.authorizationFor(this.tokens, request) : {};
	}

	/** See HttpAuthProvider: keeps a `DPoP-Nonce` the MCP server sends with any answer (RFC 9449 section 8.2). */
	onResponse(response: AuthResponse): void {
		const nonce = response.headers['dpop-nonce'];
		if (typeof nonce === 'string' && nonce !== '') {
			this.resourceNonces.set(response.url.origin, nonce);
		}
	}

	private async authorizationFor(
		tokens: StoredTokens,
		request: AuthRequest | undefined,
	): Promise<Record<string, string>> {
		if (!tokens.dpopKey) {
			return { authorization: `Bearer ${tokens.accessToken}` };
		}
		if (!request) {
			throw new McpError(
				ErrorCode.Unauthorized,
				`OAuth for ${this.name}: the access token is DPoP-bound, and a DPoP proof needs the request's method and URL`,
			);
		}
		try {
			const prover = await this.proverFor(tokens.dpopKey);
			return { ...(await prover.resourceHeaders(tokens.accessToken, request.method, request.url)) };
		} catch (error) {
			throw toOAuthMcpError(error, this.name, this.logger);
		}
	}

	/** The prover for a stored key, imported once per key. */
	private proverFor(key: StoredDPoPKey): Promise<DPoPProver> {
		if (this.prover?.key !== key && this.prover?.key.jwk.d !== key.jwk.d) {
			const ready = DPoPProver.fromStored(key, this.resourceNonces);
			ready.catch(() => {});
			this.prover = { key, ready };
		}
		return this.prover!.ready;
	}

	/**
	 * See HttpAuthProvider. Resolves false for a status it does not handle (403 without `insufficient_scope`);
	 * rejects with an Unauthorized McpError naming the failed step when authorization cannot be obtained.
	 * Concurrent calls share one flow.
	 */
	onUnauthorized(
		response: { status: number; wwwAuthenticate: string | undefined; url: string },
		signal?: AbortSignal,
	): Promise<boolean> {
		this.flow ??= this.handleUnauthorized(response, signal).finally(() => {
			this.flow = undefined;
		});
		return this.flow;
	}

	/** Forgets the stored tokens and session of this server (sign out). Dynamically registered clients are kept. */
	async signOut(): Promise<void> {
		await this.load();
		const store = this.options.hooks.store;
		if (this.session) {
			await store.delete(this.tokensKey(this.session.issuer));
		}
		await store.delete(this.prefix);
		this.session = undefined;
		this.tokens = undefined;
		this.prover = undefined;
		this.options.onClientRegistration?.(undefined);
	}

	/** True when a token is stored (it may be expired). */
	async hasTokens(): Promise<boolean> {
		await this.load();
		return this.tokens !== undefined;
	}

	private async handleUnauthorized(
		response: { status: number; wwwAuthenticate: string | undefined; url: string },
		signal?: AbortSignal,
	): Promise<boolean> {
		const challenges = parseWwwAuthenticate(response.wwwAuthenticate);
		// The Bearer challenge's parameters (resource_metadata, scope, error), else the DPoP one's (RFC 9449 section 7.1).
		const challenge =
			(challenges.find((c) => c.scheme === 'bearer') ?? challenges.find((c) => c.scheme === 'dpop'))?.params ?? {};
		try {
			await this.load();
			if (response.status === 403) {
				if (challenge.error !== 'insufficient_scope') {
					return false;
				}
				await this.stepUp(challenge, challenges, signal);
				return true;
			}
			if (response.status !== 401) {
				return false;
			}
			const dpopChallenge = challenges.find((c) => c.scheme === 'dpop');
			if (dpopChallenge?.params.error === 'use_dpop_nonce' && this.tokens?.dpopKey) {
				// RFC 9449 section 9: the server wants a nonce in the proof; onResponse kept the one it sent.
				if (!this.resourceNonces.has(new URL(response.url).origin)) {
					throw new OAuthStepError(
						'DPoP proof',
						'the server asked for a DPoP nonce (use_dpop_nonce) without sending one in a DPoP-Nonce header',
					);
				}
				this.logger.debug(
					`OAuth for ${this.name}: the server asked for a DPoP nonce; sending the request again with it`,
				);
				return true;
			}
			const rejected = this.tokens?.accessToken;
			if (this.tokens?.refreshToken && rejected !== this.refreshedAfter401 && (await this.refreshOnce(signal))) {
				this.refreshedAfter401 = this.tokens?.accessToken;
				return true;
			}
			try {
				await this.authorize(challenge, challenges, this.scopesFor(challenge), signal);
			} catch (error) {
				// Tokens that worked until now stopped working (revoked, the sign-in ended): say so, not only what failed now.
				throw this.refusedRefresh && error instanceof OAuthStepError
					? new OAuthStepError(
							error.step,
							`${error.why} (the authorization server no longer accepts the stored sign-in: its refresh answered ${this.refusedRefresh}; sign in again)`,
							{ cause: error },
						)
					: error;
			}
			this.refusedRefresh = undefined;
			return true;
		} catch (error) {
			throw toOAuthMcpError(error, this.name, this.logger);
		}
	}

	private async stepUp(
		challenge: Record<string, string>,
		challenges: readonly AuthChallenge[],
		signal?: AbortSignal,
	): Promise<void> {
		const needed = splitScopes(challenge.scope);
		if (needed.length === 0) {
			throw new OAuthStepError(
				'step-up authorization',
				'the server answered 403 insufficient_scope without naming the scopes it needs',
			);
		}
		const scopes = [...new Set([...splitScopes(this.tokens?.scope), ...needed])].sort();
		const key = scopes.join(' ');
		const tries = this.stepUps.get(key) ?? 0;
		if (tries >= this.maxStepUps) {
			throw new OAuthStepError(
				'step-up authorization',
				`the server still answers 403 insufficient_scope for scope "${challenge.scope}" after ${plural(tries, 're-authorization')} with "${key}"`,
			);
		}
		this.stepUps.set(key, tries + 1);
		this.logger.info(
			`OAuth for ${this.name}: the server needs scope "${challenge.scope}"; authorizing again with "${key}"`,
		);
		await this.authorize(challenge, challenges, scopes, signal);
	}

	/** Scopes for a new authorization: the 401's `scope`, else the config's, else the resource's scopes_supported (later). */
	private scopesFor(challenge: Record<string, string>): string[] | undefined {
		const fromChallenge = splitScopes(challenge.scope);
		if (fromChallenge.length) {
			return fromChallenge;
		}
		return this.options.config.scopes?.length ? [...this.options.config.scopes] : undefined;
	}

	private async authorize(
		challenge: Record<string, string>,
		challenges: readonly AuthChallenge[],
		scopes: string[] | undefined,
		signal?: AbortSignal,
	): Promise<void> {
		const http = this.http(signal);

		// 1. Which authorization server protects this resource, and what it supports.
		const found = await discoverAuthorization(this.serverUrl, challenge, http, this.info);
		const dpop = await this.dpopFor(found, challenges);
		const config = this.options.config;
		if (config.enterprise || (config.grant && config.grant !== 'authorization_code')) {
			await this.obtainWithoutUser(found, scopes, http, dpop);
			return;
		}
		try {
			await this.authorizeAt(found, scopes, dpop, signal);
		} catch (error) {
			// With no metadata at all, the default endpoints were a guess: say so, with every URL tried.
			if (found.noMetadata && error instanceof OAuthStepError) {
				throw new OAuthStepError(
					'metadata discovery',
					`${found.noMetadata}; the default endpoints of protocol 2025-03-26 did not work either (${error.message})`,
					{ cause: error },
				);
			}
			throw error;
		}
	}

	/**
	 * Tokens from a grant that needs no browser: client credentials, a JWT-bearer assertion, or enterprise-managed
	 * authorization. Always as the configured (pre-registered) client.
	 */
	/**
	 * Whether this authorization asks for DPoP-bound tokens (dpop.ts decides from the metadata and the challenge), and
	 * with which key: the one the current tokens are bound to (a step-up keeps it), else a new one.
	 */
	private async dpopFor(found: Discovered, challenges: readonly AuthChallenge[]): Promise<DPoPUse | undefined> {
		const decision = decideDPoP(found.as, found.prm?.metadata, challenges);
		if (!decision.use) {
			if (decision.reason) {
				this.logger.info(`OAuth for ${this.name}: ${decision.reason}`);
			}
			return undefined;
		}
		const prover = await this.proverFor(this.tokens?.dpopKey ?? (await generateDPoPKey()));
		this.logger.info(
			`OAuth for ${this.name}: asking for DPoP-bound tokens (${decision.reason}); proofs signed with ES256`,
		);
		return { prover, decision };
	}

	private async obtainWithoutUser(
		found: Discovered,
		scopes: string[] | undefined,
		http: HttpContext,
		dpop: DPoPUse | undefined,
	): Promise<void> {
		const { as, resource, prm } = found;
		const config = this.options.config;
		const grant = grantWithoutUserName(config);
		if (!config.clientId) {
			throw new OAuthStepError(
				'client identity',
				`the ${grant} grant needs a client id in the server's oauth settings`,
			);
		}
		if (!as.token_endpoint) {
			throw new OAuthStepError('authorization server check', `${as.issuer} has no token_endpoint`);
		}
		if (!scopes?.length && prm?.metadata.scopes_supported?.length) {
			scopes = [...prm.metadata.scopes_supported];
		}
		const client = preregisteredClient(config, as);
		const context: GrantContext = {
			as,
			clientId: client.clientId,
			auth: await configuredClientAuth(client, this.options.config),
			resource,
			scopes,
			libOptions: (endpoint) => this.libOptions(endpoint, http, dpop?.prover),
			dpop: dpop?.prover,
		};
		this.logger.info(
			`OAuth for ${this.name}: requesting tokens with the ${grant} grant from ${as.issuer}${scopes?.length ? ` (scope "${scopes.join(' ')}")` : ''}`,
		);
		const result = await grantWithoutUser(config, context, (endpoint) => this.libOptions(endpoint, http));
		await this.keepSignIn(as, resource, client, result, scopes, dpop);
		this.logger.info(
			`OAuth for ${this.name}: obtained tokens${this.tokens?.scope ? ` with scope "${this.tokens.scope}"` : ''}`,
		);
	}

	private async authorizeAt(
		found: Discovered,
		scopes: string[] | undefined,
		dpop: DPoPUse | undefined,
		signal?: AbortSignal,
	): Promise<void> {
		const http = this.http(signal);
		const { as, resource, prm } = found;

		// 2. PKCE S256, and HTTPS endpoints.
		checkAuthorizationServer(as);
		if (!scopes?.length && prm?.metadata.scopes_supported?.length) {
			scopes = [...prm.metadata.scopes_supported];
		}

		// 3. The redirect URI, then a client identity that may depend on it (DCR registers it).
		const stored = await this.readJson<StoredClient>(this.clientKey(as.issuer));
		const previous = stored?.kind === 'dcr' ? stored.redirectUris?.[0] : undefined;
		let loopback: LoopbackRedirect | undefined;
		let redirectUri: string;
		if (this.options.hooks.redirectUri) {
			redirectUri = await this.options.hooks.redirectUri(previous);
		} else {
			loopback = await startLoopbackRedirect({ port: previous ? portOf(previous) : undefined, signal });
			redirectUri = loopback.redirectUri;
		}
		try {
			const client = await clientIdentity(this.clientIdentityContext(), as, redirectUri, stored, scopes, http);

			// 4. The browser step, with PKCE and state.
			const request: AuthorizationRequest = {
				clientId: client.clientId,
				redirectUri,
				verifier: oauth().generateRandomCodeVerifier(),
				state: oauth().generateRandomState(),
				resource,
				scopes,
				dpop: dpop?.prover,
			};
			// Only the browser coming back with this state ends the wait (not any GET to the loopback address).
			loopback?.expectState(request.state);
			const authorizationUrl = await authorizationRequestUrl(as, request);
			this.logger.info(
				`OAuth for ${this.name}: asking the user to authorize at ${authorizationUrl.origin}${authorizationUrl.pathname}${scopes?.length ? ` (scope "${scopes.join(' ')}")` : ''}`,
			);
			const redirected = await browserStep(
				this.options.hooks,
				this.authorizationTimeoutMs,
				authorizationUrl.href,
				redirectUri,
				loopback,
				signal,
			);
			const callback = readAuthorizationRedirect(as, client.clientId, redirected, request.state);

			// 5. The code exchange.
			const result = await exchangeCode(
				as,
				request,
				callback,
				() => configuredClientAuth(client, this.options.config),
				() => this.libOptions(as.token_endpoint!, http, dpop?.prover),
			);
			await this.keepSignIn(as, resource, client, result, scopes, dpop);
			this.logger.info(
				`OAuth for ${this.name}: authorized${this.tokens?.scope ? ` with scope "${this.tokens.scope}"` : ''}`,
			);
		} finally {
			await loopback?.close();
		}
	}

	/** Keeps what a sign-in obtained: the session (so a refresh after a restart needs no discovery) and the tokens. */
	private async keepSignIn(
		as: AuthorizationServerMetadata,
		resource: string,
		client: StoredClient,
		result: OAuthLib.TokenEndpointResponse,
		scopes: string[] | undefined,
		dpop: DPoPUse | undefined,
	): Promise<void> {
		this.session = { issuer: as.issuer, resource, metadata: as, clientKind: client.kind, clientId: client.clientId };
		this.options.onClientRegistration?.(client.kind);
		this.refreshedAfter401 = undefined;
		await this.saveTokens(result, scopes, undefined, dpop);
		await this.options.hooks.store.set(this.prefix, JSON.stringify(this.session));
	}

	private refreshOnce(signal?: AbortSignal): Promise<boolean> {
		const rejected = this.tokens?.accessToken;
		this.refreshing ??= this.refresh(rejected, signal).finally(() => {
			this.refreshing = undefined;
		});
		return this.refreshing;
	}

	/**
	 * Refreshes the tokens; true when usable tokens are in hand afterwards. `rejected` is the access token we hold
	 * and know to be expired or refused.
	 *
	 * Refresh tokens rotate (OAuth 2.1 section 4.3.1): each use returns a new one and may revoke the old. Other
	 * providers share the store (another window, the same server under two names), so (issue 11 item 4):
	 * - refreshes of one stored entry run one at a time in this process (refreshQueues);
	 * - the store is read again first: when it holds tokens other than the rejected ones that have not expired,
	 *   another provider already refreshed, and those are adopted without a request;
	 * - a refused refresh deletes the stored tokens only when they still carry the refresh token that was refused,
	 *   so a provider with a stale copy never deletes what another one just rotated.
	 */
	private async refresh(rejected: string | undefined, signal?: AbortSignal): Promise<boolean> {
		const session = this.session;
		if (!session) {
			return false;
		}
		const key = this.tokensKey(session.issuer);
		return serialised(key, async () => {
			const stored = await this.readJson<StoredTokens>(key);
			this.tokens = stored && typeof stored.accessToken === 'string' ? stored : undefined;
			if (this.tokens && this.tokens.accessToken !== rejected && !tokensExpired(this.tokens)) {
				this.logger.info(`OAuth for ${this.name}: using the tokens another window or connection refreshed`);
				return true;
			}
			const refreshToken = this.tokens?.refreshToken;
			if (!refreshToken) {
				return false;
			}
			const client = await sessionClient(this.options.config, session, (issuer) =>
				this.readJson<StoredClient>(this.clientKey(issuer)),
			);
			if (!client) {
				this.logger.info(
					`OAuth for ${this.name}: the client that obtained the stored tokens is no longer configured; authorizing again`,
				);
				await this.dropTokens(refreshToken);
				return false;
			}
			const as = session.metadata as unknown as OAuthLib.AuthorizationServer;
			const http = this.http(signal);
			try {
				// A refresh of DPoP-bound tokens carries a proof of the same key (RFC 9449 section 5: refresh tokens of
				// public clients are bound to it too), and its answer is bound to that key again.
				const key = this.tokens?.dpopKey;
				const dpop = key
					? {
							prover: await this.proverFor(key),
							decision: { use: true, required: false, reason: 'the tokens being refreshed are DPoP-bound' },
						}
					: undefined;
				const auth = await configuredClientAuth(client, this.options.config);
				const result = await retryOnDPoPNonce(dpop?.prover, async () => {
					const response = await oauth().refreshTokenGrantRequest(
						as,
						{ client_id: client.clientId },
						auth,
						refreshToken,
						{
							...this.libOptions(session.metadata.token_endpoint!, http, dpop?.prover),
							additionalParameters: { resource: session.resource },
						},
					);
					return oauth().processRefreshTokenResponse(as, { client_id: client.clientId }, response);
				});
				await this.saveTokens(result, splitScopes(this.tokens?.scope), refreshToken, dpop);
				this.logger.info(`OAuth for ${this.name}: refreshed the access token`);
				return true;
			} catch (error) {
				if (signal?.aborted) {
					throw error;
				}
				this.logger.warn(
					`OAuth for ${this.name}: refresh at ${session.metadata.token_endpoint} failed: ${describeOAuthError(error)}`,
				);
				if (error instanceof oauth().ResponseBodyError) {
					// The server refused the refresh token (invalid_grant and friends): it will not work later either.
					this.refusedRefresh = describeOAuthError(error);
					await this.dropTokens(refreshToken);
				}
				return false;
			}
		});
	}

	private async saveTokens(
		result: OAuthLib.TokenEndpointResponse,
		requestedScopes: string[] | undefined,
		previousRefreshToken?: string,
		dpop?: DPoPUse,
	): Promise<void> {
		const session = this.session!;
		const dpopKey = boundKey(result.token_type, dpop?.prover, dpop?.decision, session.issuer);
		if (dpop && !dpopKey) {
			this.logger.info(
				`OAuth for ${this.name}: ${session.issuer} answered with token_type ${result.token_type}; using the token as a bearer token`,
			);
		}
		const scope =
			typeof result.scope === 'string' ? result.scope : requestedScopes?.length ? requestedScopes.join(' ') : undefined;
		const now = Date.now();
		this.tokens = {
			accessToken: result.access_token,
			tokenType: result.token_type,
			// A refresh response without a new refresh token leaves the old one valid (RFC 6749 section 6).
			refreshToken: result.refresh_token ?? previousRefreshToken,
			expiresAt: typeof result.expires_in === 'number' ? now + result.expires_in * 1000 : undefined,
			issuedAt: now,
			scope,
			dpopKey,
		};
		await this.options.hooks.store.set(this.tokensKey(session.issuer), JSON.stringify(this.tokens));
	}

	/**
	 * Forgets the tokens whose refresh token is `failedRefreshToken`: deleted from the store only when the stored
	 * entry still carries it (another provider may have rotated it meanwhile; then its tokens are adopted).
	 */
	private async dropTokens(failedRefreshToken: string): Promise<void> {
		if (!this.session) {
			this.tokens = undefined;
			return;
		}
		const key = this.tokensKey(this.session.issuer);
		const stored = await this.readJson<StoredTokens>(key);
		if (!stored || stored.refreshToken === failedRefreshToken) {
			await this.options.hooks.store.delete(key);
			this.tokens = undefined;
		} else {
			this.tokens = stored;
		}
	}

	private load(): Promise<void> {
		this.loaded ??= (async () => {
			const session = await this.readJson<StoredSession>(this.prefix);
			if (session && typeof session.issuer === 'string' && session.metadata) {
				this.session = session;
				const tokens = await this.readJson<StoredTokens>(this.tokensKey(session.issuer));
				this.tokens = tokens && typeof tokens.accessToken === 'string' ? tokens : undefined;
			}
			this.options.onClientRegistration?.(this.session?.clientKind);
		})().catch((error: unknown) => {
			this.loaded = undefined;
			throw new McpError(
				ErrorCode.Unauthorized,
				`OAuth for ${this.name}: reading the stored tokens failed: ${errorMessage(error)}`,
			);
		});
		return this.loaded;
	}

	private async readJson<T>(key: string): Promise<T | undefined> {
		const raw = await this.options.hooks.store.get(key);
		if (!raw) {
			return undefined;
		}
		try {
			return JSON.parse(raw) as T;
		} catch {
			this.logger.warn(`OAuth for ${this.name}: ignoring an unreadable stored entry`);
			return undefined;
		}
	}

	private tokensKey(issuer: string): string {
		return `${this.prefix}|${issuer}|tokens`;
	}

	private clientKey(issuer: string): string {
		return `${this.prefix}|${issuer}|client`;
	}

	/** Logs what the flow does, naming the server. */
	private readonly info = (message: string): void => this.logger.info(`OAuth for ${this.name}: ${message}`);

	private clientIdentityContext(): ClientIdentityContext {
		return {
			config: this.options.config,
			clientName: this.options.clientName ?? 'MCP Switchboard',
			libOptions: (endpoint, http) => this.libOptions(endpoint, http),
			saveClient: (issuer, client) => this.options.hooks.store.set(this.clientKey(issuer), JSON.stringify(client)),
			info: this.info,
		};
	}

	private http(signal?: AbortSignal): HttpContext {
		return { fetch: this.fetchFn, signal, timeoutMs: this.requestTimeoutMs };
	}

	/** oauth4webapi options: our fetch, the timeout, plain http only for loopback endpoints, and the DPoP handle. */
	private libOptions(endpoint: string, http: HttpContext, prover?: DPoPProver) {
		return {
			// Every token and registration answer must be JSON: anything else is said plainly (jsonAnswer.ts).
			[oauth().customFetch]: async (url: string, init: OAuthLib.CustomFetchOptions<string, unknown>) =>
				requireJsonAnswer(await this.fetchFn(url, init as RequestInit)),
			[oauth().allowInsecureRequests]: isLoopbackUrl(new URL(endpoint)),
			signal: requestSignal(http),
			...(prover ? { DPoP: prover.tokenRequests } : {}),
		};
	}
}

function splitScopes(scope: string | undefined): string[] {
	return scope ? scope.split(/\s+/).filter(Boolean) : [];
}

function portOf(uri: string): number | undefined {
	try {
		const url = new URL(uri);
		return isLoopbackUrl(url) && url.port ? Number(url.port) : undefined;
	} catch {
		return undefined;
	}
}
