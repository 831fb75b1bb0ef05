// Client authentication at the token endpoint (RFC 6749 section 2.3, OAuth 2.1 section 2.4).
import { oauth, type OAuthLib } from './oauthLib';
import type { StoredClient } from './types';

/** The oauth4webapi ClientAuth for a stored client identity. */
export function clientAuth(client: StoredClient): OAuthLib.ClientAuth {
	switch (client.tokenEndpointAuthMethod) {
		case 'client_secret_basic':
			return clientSecretBasic(client.clientSecret!);
		case 'client_secret_post':
			return oauth().ClientSecretPost(client.clientSecret!);
		default:
			return oauth().None();
	}
}

/**
 * HTTP Basic with the client id and secret each encoded with application/x-www-form-urlencoded first, as RFC 6749
 * section 2.3.1 says. Ours rather than oauth4webapi's ClientSecretBasic, which also percent-encodes the characters
 * that encoding leaves alone (`-`, `.`, `_`, `*`, and `!~'()`): `pre-registered-client` became
 * `pre%2Dregistered%2Dclient`, which servers that do not decode the credentials (many, and the MCP conformance
 * suite) refuse. The form encoding of the WHATWG URL standard (URLSearchParams) is what HTML forms send.
 */
export function clientSecretBasic(clientSecret: string): OAuthLib.ClientAuth {
	return (_as, client, _body, headers) => {
		const credentials = `${formEncode(client.client_id)}:${formEncode(clientSecret)}`;
		headers.set('authorization', `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`);
	};
}

/** application/x-www-form-urlencoded encoding of one value. */
export function formEncode(value: string): string {
	return new URLSearchParams({ v: value }).toString().slice(2);
}
