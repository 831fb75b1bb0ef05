// The grants that need no browser: client credentials (RFC 6749 section 4.4), a JWT as grant (RFC 7523 section 2.1,
// workload identity federation), and enterprise-managed authorization (token exchange at the enterprise IdP for an
// ID-JAG, RFC 8693, then that ID-JAG as a JWT-bearer grant at the MCP server's authorization server).
import { OAuthStepError, type AuthorizationServerMetadata } from './discovery';
import { retryOnDPoPNonce, type DPoPProver } from './dpop';
import { describeOAuthError } from './oauthErrors';
import { oauth, type OAuthLib } from './oauthLib';
import type { EnterpriseIdpConfig, OAuthClientConfig } from './types';

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_JAG_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';
const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';

/** What every grant request needs. */
export interface GrantContext {
	as: AuthorizationServerMetadata;
	clientId: string;
	auth: OAuthLib.ClientAuth;
	/** The RFC 8707 resource (the MCP server's canonical URI). */
	resource: string;
	scopes?: string[];
	/** oauth4webapi options (fetch, timeout, http on loopback, and the DPoP handle when `dpop` is set) for an endpoint. */
	libOptions(endpoint: string): OAuthLib.TokenEndpointRequestOptions;
	/** Set when the tokens are to be DPoP-bound: a `use_dpop_nonce` answer is then retried once with the nonce. */
	dpop?: DPoPProver;
}

/** Client credentials: the client's own identity (secret or private key), no user. */
export async function clientCredentialsGrant(c: GrantContext): Promise<OAuthLib.TokenEndpointResponse> {
	const as = c.as as unknown as OAuthLib.AuthorizationServer;
	const client: OAuthLib.Client = { client_id: c.clientId };
	try {
		return await retryOnDPoPNonce(c.dpop, async () => {
			const response = await oauth().clientCredentialsGrantRequest(
				as,
				client,
				c.auth,
				parameters(c),
				c.libOptions(c.as.token_endpoint!),
			);
			return oauth().processClientCredentialsResponse(as, client, response);
		});
	} catch (error) {
		throw new OAuthStepError(`client credentials token request to ${c.as.token_endpoint}`, describeOAuthError(error), {
			cause: error,
		});
	}
}

/**
 * A JWT as authorization grant (RFC 7523 section 2.1). Sent once: a refused assertion is reported, never retried
 * and never answered by switching to another grant (the same assertion would be refused again). The one exception
 * is a DPoP `use_dpop_nonce` answer, which refuses the proof, not the assertion.
 */
export async function jwtBearerGrant(
	c: GrantContext,
	assertion: string,
	step = 'JWT-bearer token request',
): Promise<OAuthLib.TokenEndpointResponse> {
	const as = c.as as unknown as OAuthLib.AuthorizationServer;
	const client: OAuthLib.Client = { client_id: c.clientId };
	const body = parameters(c);
	body.set('assertion', assertion);
	try {
		return await retryOnDPoPNonce(c.dpop, async () => {
			const response = await oauth().genericTokenEndpointRequest(
				as,
				client,
				c.auth,
				JWT_BEARER_GRANT,
				body,
				c.libOptions(c.as.token_endpoint!),
			);
			return oauth().processGenericTokenEndpointResponse(as, client, response);
		});
	} catch (error) {
		throw new OAuthStepError(`${step} to ${c.as.token_endpoint}`, describeOAuthError(error), { cause: error });
	}
}

/**
 * Enterprise-managed authorization: the ID token is exchanged at the IdP for an ID-JAG whose audience is the
 * authorization server and whose resource is the MCP server, then the ID-JAG is the JWT-bearer grant there.
 */
export async function enterpriseGrant(
	c: GrantContext,
	idp: EnterpriseIdpConfig,
	idpOptions: OAuthLib.TokenEndpointRequestOptions,
): Promise<OAuthLib.TokenEndpointResponse> {
	const idpAs = {
		issuer: idp.idpIssuer ?? new URL(idp.idpTokenEndpoint).origin,
		token_endpoint: idp.idpTokenEndpoint,
	} as OAuthLib.AuthorizationServer;
	const idpClient: OAuthLib.Client = { client_id: idp.idpClientId };
	const idpAuth = idp.idpClientSecret ? oauth().ClientSecretPost(idp.idpClientSecret) : oauth().None();
	const body = new URLSearchParams({
		requested_token_type: ID_JAG_TYPE,
		audience: c.as.issuer,
		resource: c.resource,
		subject_token: idp.idToken,
		subject_token_type: ID_TOKEN_TYPE,
	});
	if (c.scopes?.length) {
		body.set('scope', c.scopes.join(' '));
	}
	let idJag: string;
	try {
		const response = await oauth().genericTokenEndpointRequest(
			idpAs,
			idpClient,
			idpAuth,
			TOKEN_EXCHANGE_GRANT,
			body,
			idpOptions,
		);
		// RFC 8693 section 2.2.1: token_type is "N_A" for a token that is not an access token, as an ID-JAG is.
		const result = await oauth().processGenericTokenEndpointResponse(idpAs, idpClient, response, {
			recognizedTokenTypes: { n_a: () => {} },
		});
		idJag = result.access_token;
	} catch (error) {
		throw new OAuthStepError(
			`token exchange at the identity provider ${idp.idpTokenEndpoint}`,
			describeOAuthError(error),
			{ cause: error },
		);
	}
	return jwtBearerGrant(c, idJag, 'ID-JAG grant');
}

function parameters(c: GrantContext): URLSearchParams {
	const body = new URLSearchParams({ resource: c.resource });
	if (c.scopes?.length) {
		body.set('scope', c.scopes.join(' '));
	}
	return body;
}

/** The name of the grant a configuration asks for without a user, for messages. */
export function grantWithoutUserName(config: OAuthClientConfig): string {
	return config.enterprise
		? 'enterprise-managed authorization'
		: config.grant === 'jwt_bearer'
			? 'JWT-bearer'
			: 'client credentials';
}

/**
 * Tokens from the grant the configuration asks for without a user: enterprise-managed authorization (`idpOptions`
 * for the enterprise IdP's token endpoint), a JWT-bearer assertion, or client credentials.
 */
export async function grantWithoutUser(
	config: OAuthClientConfig,
	context: GrantContext,
	idpOptions: (endpoint: string) => OAuthLib.TokenEndpointRequestOptions,
): Promise<OAuthLib.TokenEndpointResponse> {
	if (config.enterprise) {
		return enterpriseGrant(context, config.enterprise, idpOptions(config.enterprise.idpTokenEndpoint));
	}
	if (config.grant === 'jwt_bearer') {
		if (!config.assertion) {
			throw new OAuthStepError('JWT-bearer grant', 'no assertion (JWT) is configured');
		}
		return jwtBearerGrant(context, config.assertion);
	}
	return clientCredentialsGrant(context);
}
