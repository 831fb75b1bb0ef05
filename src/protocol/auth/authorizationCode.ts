/**
 * The steps of the authorization code flow with PKCE S256 that need no provider state: checking the authorization
 * server, building the authorization URL, reading the redirect, and the code exchange.
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
 */
import { isLoopbackUrl, OAuthStepError, type AuthorizationServerMetadata } from './discovery';
import { retryOnDPoPNonce, type DPoPProver } from './dpop';
import { describeOAuthError } from './oauthErrors';
import { oauth, type OAuthLib } from './oauthLib';

/** Refuses an authorization server without PKCE S256 or with endpoints that are not HTTPS (loopback aside). */
export function checkAuthorizationServer(as: AuthorizationServerMetadata): void {
	// PKCE S256 is mandatory: "If code_challenge_methods_supported is absent, ... MCP clients MUST refuse to proceed."
	const methods = as.code_challenge_methods_supported;
	if (!Array.isArray(methods) || !methods.includes('S256')) {
		throw new OAuthStepError(
			'authorization server check',
			`${as.issuer} does not advertise PKCE S256 (code_challenge_methods_supported: ${JSON.stringify(methods ?? null)}); refusing to authorize without it`,
		);
	}
	for (const field of ['authorization_endpoint', 'token_endpoint'] as const) {
		const url = new URL(as[field]!);
		if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackUrl(url))) {
			throw new OAuthStepError('authorization server check', `${field} ${url.href} is not HTTPS`);
		}
	}
}

/** What one authorization request carries. */
export interface AuthorizationRequest {
	clientId: string;
	redirectUri: string;
	/** The PKCE code verifier; its S256 challenge goes into the URL. */
	verifier: string;
	state: string;
	/** The RFC 8707 resource (the MCP server's canonical URI). */
	resource: string;
	scopes: string[] | undefined;
	/** Set when the tokens are to be DPoP-bound: the code is bound to its key. */
	dpop: DPoPProver | undefined;
}

/** The URL the user opens to authorize: the authorization endpoint with PKCE, state, resource and scope. */
export async function authorizationRequestUrl(
	as: AuthorizationServerMetadata,
	request: AuthorizationRequest,
): Promise<URL> {
	const authorizationUrl = new URL(as.authorization_endpoint!);
	const query = authorizationUrl.searchParams;
	query.set('response_type', 'code');
	query.set('client_id', request.clientId);
	query.set('redirect_uri', request.redirectUri);
	query.set('code_challenge', await oauth().calculatePKCECodeChallenge(request.verifier));
	query.set('code_challenge_method', 'S256');
	query.set('state', request.state);
	query.set('resource', request.resource);
	if (request.scopes?.length) {
		query.set('scope', request.scopes.join(' '));
	}
	if (request.dpop) {
		// RFC 9449 section 10: binds the code to the DPoP key, so only this key can redeem it.
		query.set('dpop_jkt', await request.dpop.thumbprint());
	}
	return authorizationUrl;
}

/** The redirect's parameters, once it carries our state and no error (else an OAuthStepError saying why). */
export function readAuthorizationRedirect(
	as: AuthorizationServerMetadata,
	clientId: string,
	redirected: string,
	state: string,
): URLSearchParams {
	const returnedState = new URL(redirected).searchParams.get('state');
	if (returnedState !== state) {
		// RFC 9700 section 4.7: a redirect that does not carry our state is not the answer to our request.
		throw new OAuthStepError(
			'authorization',
			returnedState === null
				? 'the redirect carried no state parameter'
				: 'the redirect carried a different state than the one sent (a forged or stale redirect)',
		);
	}
	try {
		return oauth().validateAuthResponse(
			as as unknown as OAuthLib.AuthorizationServer,
			{ client_id: clientId },
			new URL(redirected),
			state,
		);
	} catch (error) {
		throw new OAuthStepError('authorization', describeOAuthError(error), { cause: error });
	}
}

/** The code exchange (RFC 6749 section 4.1.3 with PKCE and the RFC 8707 resource), retried once on a DPoP nonce. */
export async function exchangeCode(
	as: AuthorizationServerMetadata,
	request: AuthorizationRequest,
	callback: URLSearchParams,
	auth: () => Promise<OAuthLib.ClientAuth>,
	tokenOptions: () => OAuthLib.TokenEndpointRequestOptions,
): Promise<OAuthLib.TokenEndpointResponse> {
	const asForLib = as as unknown as OAuthLib.AuthorizationServer;
	const clientForLib: OAuthLib.Client = { client_id: request.clientId };
	try {
		const clientAuth = await auth();
		return await retryOnDPoPNonce(request.dpop, async () => {
			const response = await oauth().authorizationCodeGrantRequest(
				asForLib,
				clientForLib,
				clientAuth,
				callback,
				request.redirectUri,
				request.verifier,
				{ ...tokenOptions(), additionalParameters: { resource: request.resource } },
			);
			return oauth().processAuthorizationCodeResponse(asForLib, clientForLib, response);
		});
	} catch (error) {
		throw new OAuthStepError(`token request to ${as.token_endpoint}`, describeOAuthError(error), { cause: error });
	}
}
