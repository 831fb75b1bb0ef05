// Dynamic Client Registration (RFC 7591) through oauth4webapi, with the leniency real authorization servers need.
import { OAuthStepError, type AuthorizationServerMetadata } from './discovery';
import { oauth, type OAuthLib } from './oauthLib';
import { describeOAuthError } from './oauthErrors';
import type { StoredClient } from './types';

/** The client metadata we register (RFC 7591 section 2), plus SEP-837's `application_type`. */
export interface RegistrationRequest {
	clientName: string;
	redirectUri: string;
	tokenEndpointAuthMethod: StoredClient['tokenEndpointAuthMethod'];
	scopes?: string[];
}

/**
 * Registers a client at `as.registration_endpoint` and returns what to keep. Rejects with OAuthStepError naming the
 * endpoint when the server refuses, answers something that is not a registration, or picks an auth method we lack.
 */
export async function registerClient(
	as: AuthorizationServerMetadata,
	request: RegistrationRequest,
	options: OAuthLib.DynamicClientRegistrationRequestOptions,
): Promise<StoredClient> {
	const step = `client registration at ${as.registration_endpoint}`;
	let registered: OAuthLib.OmitSymbolProperties<OAuthLib.Client>;
	try {
		const response = await oauth().dynamicClientRegistrationRequest(
			as as unknown as OAuthLib.AuthorizationServer,
			{
				client_name: request.clientName,
				redirect_uris: [request.redirectUri],
				grant_types: ['authorization_code', 'refresh_token'],
				response_types: ['code'],
				token_endpoint_auth_method: request.tokenEndpointAuthMethod,
				// SEP-837: "MCP clients MUST specify an appropriate application_type". A client whose redirect goes to a
				// loopback address or a custom scheme on the user's machine is a native application (RFC 8252).
				application_type: 'native',
				...(request.scopes?.length ? { scope: request.scopes.join(' ') } : {}),
			},
			options,
		);
		registered = await oauth().processDynamicClientRegistrationResponse(await lenient(response));
	} catch (error) {
		throw new OAuthStepError(step, describeOAuthError(error), { cause: error });
	}
	const answered =
		typeof registered.token_endpoint_auth_method === 'string'
			? registered.token_endpoint_auth_method
			: request.tokenEndpointAuthMethod;
	if (answered !== 'none' && answered !== 'client_secret_basic' && answered !== 'client_secret_post') {
		throw new OAuthStepError(
			step,
			`the server chose token endpoint auth method ${answered}, which this client does not support`,
		);
	}
	const secret = typeof registered.client_secret === 'string' ? registered.client_secret : undefined;
	if (answered !== 'none' && !secret) {
		throw new OAuthStepError(step, `the server chose ${answered} but sent no client_secret`);
	}
	return {
		kind: 'dcr',
		clientId: registered.client_id,
		clientSecret: secret,
		tokenEndpointAuthMethod: answered,
		redirectUris: [request.redirectUri],
	};
}

/**
 * oauth4webapi follows RFC 7591 to the letter where many deployed servers do not; this adapts two such answers
 * before the library checks the rest:
 * - `client_secret` without `client_secret_expires_at` (RFC 7591 section 3.2.1 makes it REQUIRED with a secret):
 *   read as 0, which the RFC defines as "does not expire";
 * - 200 OK instead of 201 Created for a successful registration.
 */
async function lenient(response: Response): Promise<Response> {
	if (response.status !== 200 && response.status !== 201) {
		return response;
	}
	const text = await response.text();
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		return new Response(text, { status: response.status, headers: response.headers });
	}
	if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
		const record = body as Record<string, unknown>;
		if (record.client_secret !== undefined && record.client_secret_expires_at === undefined) {
			record.client_secret_expires_at = 0;
		}
	}
	const headers = new Headers(response.headers);
	headers.set('content-type', 'application/json');
	headers.delete('content-length');
	return new Response(JSON.stringify(body), { status: 201, headers });
}
