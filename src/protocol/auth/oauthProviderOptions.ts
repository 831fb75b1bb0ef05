/** The options of an OAuthProvider, and what it keeps between sign-ins. */
import type { Logger } from '../../common/logger';
import type { AuthorizationServerMetadata } from './discovery';
import type { DPoPDecision, DPoPProver } from './dpop';
import type { OAuthClientConfig, OAuthHostHooks, StoredClient } from './types';

export interface OAuthProviderOptions {
	/** The MCP server's URL (the Streamable HTTP or SSE endpoint). */
	serverUrl: string;
	/** Client settings from config; `{}` for none. */
	config: OAuthClientConfig;
	hooks: OAuthHostHooks;
	/** Receives what the flow does (never tokens, codes or secrets). Default: nothing. */
	logger?: Logger;
	/** Default: the global fetch. */
	fetch?: typeof fetch;
	/** The name used in messages. Default: the server URL. */
	name?: string;
	/** How often a step-up for the same scopes is tried before a 403 insufficient_scope fails. Default 2. */
	maxStepUps?: number;
	/** Timeout of each metadata, registration and token request. Default 30 s. */
	requestTimeoutMs?: number;
	/** How long the browser step may take. Default 5 minutes. */
	authorizationTimeoutMs?: number;
	/** `client_name` sent in Dynamic Client Registration. Default 'MCP Switchboard'. */
	clientName?: string;
	/**
	 * Told how this client is registered with the authorization server each time that is known: when stored tokens are
	 * read (undefined when there are none), after a sign-in, after Sign Out (undefined). Lets the host show that a
	 * server is reached through Dynamic Client Registration, which MCP 2026-07-28 deprecates.
	 */
	onClientRegistration?: (kind: StoredClient['kind'] | undefined) => void;
}

/** What the flow learned about the server, kept in the TokenStore so a refresh after a restart needs no discovery. */
export interface StoredSession {
	issuer: string;
	resource: string;
	metadata: AuthorizationServerMetadata;
	clientKind: StoredClient['kind'];
	clientId: string;
}

/** The DPoP side of one authorization: the prover whose key the tokens get bound to, and why. */
export interface DPoPUse {
	prover: DPoPProver;
	decision: DPoPDecision;
}
