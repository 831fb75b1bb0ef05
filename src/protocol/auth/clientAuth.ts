// Client authentication at the token endpoint (RFC 6749 section 2.3, OAuth 2.1 section 2.4).
import { createPrivateKey, webcrypto, type KeyObject } from 'node:crypto';
import { OAuthStepError } from './discovery';
import { oauth, type OAuthLib } from './oauthLib';
import type { StoredClient } from './types';
import { errorMessage } from '../../common/errors';

/**
 * The oauth4webapi ClientAuth for a client identity; `privateKey` (PKCS#8 PEM, from the configuration) signs the
 * client assertion of `private_key_jwt`.
 */
export async function clientAuth(
	client: StoredClient,
	privateKey?: { pem?: string; algorithm?: string },
): Promise<OAuthLib.ClientAuth> {
	switch (client.tokenEndpointAuthMethod) {
		case 'private_key_jwt':
			if (!privateKey?.pem) {
				throw new OAuthStepError(
					'client authentication',
					"private_key_jwt needs a private key (oauth.privateKeyFile in the server's settings)",
				);
			}
			return oauth().PrivateKeyJwt(await signingKey(privateKey.pem, privateKey.algorithm));
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

/**
 * A WebCrypto signing key from a PEM private key (PKCS#8, or SEC1/PKCS#1 which node:crypto converts). RFC 7523
 * section 3 asks for an asymmetric signature; the algorithm follows the key unless `alg` names another hash size.
 */
async function signingKey(pem: string, alg: string | undefined): Promise<webcrypto.CryptoKey> {
	let key: KeyObject;
	try {
		key = createPrivateKey(pem);
	} catch (error) {
		throw new OAuthStepError('client authentication', `the private key could not be read (${errorMessage(error)})`);
	}
	const der = key.export({ format: 'der', type: 'pkcs8' });
	const type = key.asymmetricKeyType;
	let algorithm: webcrypto.RsaHashedImportParams | webcrypto.EcKeyImportParams | webcrypto.Algorithm;
	if (type === 'ec') {
		const curve = key.asymmetricKeyDetails?.namedCurve;
		const namedCurve = curve === 'secp384r1' ? 'P-384' : curve === 'secp521r1' ? 'P-521' : 'P-256';
		algorithm = { name: 'ECDSA', namedCurve };
	} else if (type === 'rsa') {
		const hash = alg && /^(RS|PS)(384|512)$/.test(alg) ? `SHA-${alg.slice(2)}` : 'SHA-256';
		algorithm = { name: alg?.startsWith('PS') ? 'RSA-PSS' : 'RSASSA-PKCS1-v1_5', hash };
	} else if (type === 'ed25519') {
		algorithm = { name: 'Ed25519' };
	} else {
		throw new OAuthStepError(
			'client authentication',
			`private keys of type ${type ?? 'unknown'} are not supported (use EC P-256, RSA or Ed25519)`,
		);
	}
	return webcrypto.subtle.importKey('pkcs8', der, algorithm, false, ['sign']);
}
