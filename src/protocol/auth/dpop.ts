// DPoP-bound access tokens (RFC 9449, https://www.rfc-editor.org/rfc/rfc9449.html): the token is bound to a key pair
// of this client, and every request proves possession of the private key, so a leaked token is useless on its own.
// MCP takes DPoP as an authorization extension, SEP-1932 "DPoP Profile for MCP"
// (https://github.com/modelcontextprotocol/modelcontextprotocol/pull/1932): "This SEP intentionally adopts DPoP as
// defined in RFC 9449, without introducing MCP-specific claims, request body digests, or additional proof material."
// The 2026-07-28 specification itself says nothing of DPoP; it points to the authorization extensions
// (https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#mcp-authorization-extensions).
//
// oauth4webapi signs every proof. Token requests take its DPoP handle, which also keeps the authorization server's
// nonces (from every token endpoint answer). Requests to the MCP server go out through our node:http client, so their
// proof comes from the library's protectedResourceRequest with a fetch that only captures the headers it would send;
// the resource server's nonces are kept per origin by the caller and put into those proofs. RFC 9449 section 9: "the
// nonces provided by an authorization server and a resource server are different and should not be confused with one
// another since nonces will be only accepted by the server that issued them" — hence two handles on one key.
import { webcrypto } from 'node:crypto';
import { OAuthStepError, type AuthorizationServerMetadata, type ProtectedResourceMetadata } from './discovery';
import { oauth, type OAuthLib } from './oauthLib';
import type { AuthChallenge } from './wwwAuthenticate';
import { errorMessage } from '../../common/errors';

/** The proof algorithm this client signs with: ES256 (ECDSA on P-256 with SHA-256). */
export const DPOP_ALGORITHM = 'ES256';

/**
 * A DPoP key pair as kept with the tokens it is bound to, in the TokenStore (SecretStorage in VS Code): the private
 * key as a JWK. Never logged, never in settings; deleted with the tokens.
 */
export interface StoredDPoPKey {
	alg: typeof DPOP_ALGORITHM;
	/** kty EC, crv P-256, x, y and the private d. */
	jwk: webcrypto.JsonWebKey;
}

/** A new P-256 key pair for DPoP, in its stored form. */
export async function generateDPoPKey(): Promise<StoredDPoPKey> {
	const pair = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
	const { kty, crv, x, y, d } = await webcrypto.subtle.exportKey('jwk', pair.privateKey);
	return { alg: DPOP_ALGORITHM, jwk: { kty, crv, x, y, d } };
}

/** Headers of one request to the resource server with a DPoP-bound token. */
export interface DPoPResourceHeaders {
	/** `DPoP <token>` (RFC 9449 section 7.1). */
	authorization: string;
	/** The proof JWT for this request's method and URL, with `ath` and the server's nonce when it gave one. */
	dpop: string;
}

/** Signs DPoP proofs with one key pair: for token requests (`tokenRequests`) and for requests to the MCP server. */
export class DPoPProver {
	private constructor(
		/** The key as stored with the tokens. */
		readonly key: StoredDPoPKey,
		/** The oauth4webapi handle for token requests (`DPoP` option); it keeps the authorization server's nonces. */
		readonly tokenRequests: OAuthLib.DPoPHandle,
		private readonly resourceRequests: OAuthLib.DPoPHandle,
	) {}

	/**
	 * A prover for a stored key. `resourceNonces` (origin → nonce) holds the nonces the MCP servers sent; the prover
	 * reads it on every proof. Rejects with an OAuthStepError when the stored key cannot be imported.
	 */
	static async fromStored(key: StoredDPoPKey, resourceNonces: ReadonlyMap<string, string>): Promise<DPoPProver> {
		const algorithm = { name: 'ECDSA', namedCurve: 'P-256' };
		let pair: webcrypto.CryptoKeyPair;
		try {
			const { kty, crv, x, y } = key.jwk;
			pair = {
				// Not extractable once imported: nothing in this process can read the private key back out.
				privateKey: await webcrypto.subtle.importKey('jwk', key.jwk, algorithm, false, ['sign']),
				// oauth4webapi puts the public key into each proof's `jwk` header, so it must be extractable.
				publicKey: await webcrypto.subtle.importKey('jwk', { kty, crv, x, y }, algorithm, true, ['verify']),
			};
		} catch (error) {
			throw new OAuthStepError('DPoP key', `the stored key pair cannot be used (${errorMessage(error)})`, {
				cause: error,
			});
		}
		const library = oauth();
		const resourceRequests = library.DPoP({}, pair, {
			[library.modifyAssertion]: (_header, payload) => {
				const nonce = typeof payload.htu === 'string' ? resourceNonces.get(new URL(payload.htu).origin) : undefined;
				if (nonce !== undefined) {
					payload.nonce = nonce;
				}
			},
		});
		return new DPoPProver(key, library.DPoP({}, pair), resourceRequests);
	}

	/** The JWK SHA-256 thumbprint of the public key (RFC 7638), the `dpop_jkt` of an authorization request. */
	thumbprint(): Promise<string> {
		return this.tokenRequests.calculateThumbprint();
	}

	/**
	 * `Authorization: DPoP <token>` and a fresh proof for one request to the MCP server: a new `jti`, `htm` the
	 * method, `htu` the URL without query and fragment, `iat` now, `ath` the token's SHA-256, and the `nonce` this
	 * server's origin last sent.
	 */
	async resourceHeaders(accessToken: string, method: string, url: URL): Promise<DPoPResourceHeaders> {
		const library = oauth();
		let sent: Record<string, string> | undefined;
		await library.protectedResourceRequest(accessToken, method, url, undefined, undefined, {
			DPoP: this.resourceRequests,
			// The transport already decided which URLs it talks to (plain http included); this call sends nothing.
			[library.allowInsecureRequests]: true,
			// The request itself goes out through the transport's node:http client (keep-alive, streaming): this
			// fetch only keeps the headers the library made and answers an empty 204.
			[library.customFetch]: (_url, init) => {
				sent = init.headers;
				return Promise.resolve(new Response(null, { status: 204 }));
			},
		});
		if (!sent?.authorization || !sent.dpop) {
			throw new OAuthStepError('DPoP proof', 'oauth4webapi made no DPoP proof for the request');
		}
		return { authorization: sent.authorization, dpop: sent.dpop };
	}
}

/**
 * Runs a token request, and runs it once more when the authorization server answers `use_dpop_nonce` (RFC 9449
 * section 8): the DPoP handle kept the nonce of that answer, so the second proof carries it. `send` must make the
 * request and process its response (the error comes from processing).
 */
export async function retryOnDPoPNonce<T>(prover: DPoPProver | undefined, send: () => Promise<T>): Promise<T> {
	try {
		return await send();
	} catch (error) {
		if (!prover || !oauth().isDPoPNonceError(error)) {
			throw error;
		}
		return send();
	}
}

/** Whether an authorization asks for DPoP-bound tokens, and whether the resource refuses any other kind. */
export interface DPoPDecision {
	use: boolean;
	/** The protected resource takes only DPoP-bound tokens: a Bearer token from the authorization server is an error. */
	required: boolean;
	/** Why, for the log. */
	reason: string;
}

/**
 * Decides whether to ask for DPoP-bound tokens. Both sides must take them: the MCP server validates the proofs, and
 * an authorization server that lists DPoP (oidc-provider and Keycloak do by default) may sit in front of a server
 * that only checks `Bearer` tokens, which a DPoP-bound token would lock out. So DPoP is used when
 * - the MCP server says it takes DPoP-bound tokens: its protected resource metadata has
 *   `dpop_bound_access_tokens_required: true` (RFC 9728 section 2: "whether the protected resource always requires
 *   the use of DPoP-bound access tokens") or `dpop_signing_alg_values_supported`, or its 401 challenges with the
 *   DPoP scheme (RFC 9449 section 7.1), and
 * - the authorization server lists `dpop_signing_alg_values_supported` ("A JSON array containing a list of the JWS
 *   alg values ... supported by the authorization server for DPoP proof JWTs", RFC 9449 section 5.1), or the MCP
 *   server takes nothing else (required, or a DPoP challenge without a Bearer one): then the proof is sent anyway.
 * Every list of algorithms that is published (the authorization server's, the resource's, the challenge's `algs`)
 * must name ES256. When the MCP server takes only DPoP-bound tokens and that cannot be met, throws an
 * OAuthStepError naming both sides.
 */
export function decideDPoP(
	as: AuthorizationServerMetadata,
	prm: ProtectedResourceMetadata | undefined,
	challenges: readonly AuthChallenge[],
): DPoPDecision {
	const asAlgs = algList(as.dpop_signing_alg_values_supported);
	const dpopChallenge = challenges.find((c) => c.scheme === 'dpop');
	const onlyDPoP = dpopChallenge !== undefined && !challenges.some((c) => c.scheme === 'bearer');
	const required = prm?.dpop_bound_access_tokens_required === true || onlyDPoP;
	const rsAlgs = algList(prm?.dpop_signing_alg_values_supported) ?? algList(dpopChallenge?.params.algs?.split(/\s+/));
	const rsTakes = required || rsAlgs !== undefined || dpopChallenge !== undefined;
	if (!rsTakes) {
		return {
			use: false,
			required,
			reason: asAlgs
				? `${as.issuer} offers DPoP, but the MCP server does not say it takes DPoP-bound tokens: using bearer tokens`
				: '',
		};
	}
	const refusing = [
		asAlgs && !asAlgs.includes(DPOP_ALGORITHM) ? `${as.issuer} accepts ${asAlgs.join(', ')}` : undefined,
		rsAlgs && !rsAlgs.includes(DPOP_ALGORITHM) ? `the MCP server accepts ${rsAlgs.join(', ')}` : undefined,
	].filter(Boolean);
	const why = onlyDPoP
		? 'the MCP server answers with a DPoP challenge only'
		: required
			? 'the protected resource metadata says dpop_bound_access_tokens_required'
			: `the MCP server takes DPoP-bound tokens and ${as.issuer} lists dpop_signing_alg_values_supported`;
	if (refusing.length) {
		if (required) {
			throw new OAuthStepError(
				'DPoP',
				`${why}, but this client signs DPoP proofs with ${DPOP_ALGORITHM} only and ${refusing.join(' and ')}`,
			);
		}
		return { use: false, required, reason: `DPoP not used: ${refusing.join(' and ')}, not ${DPOP_ALGORITHM}` };
	}
	if (!required && !asAlgs) {
		return {
			use: false,
			required,
			reason: `the MCP server takes DPoP-bound tokens, but ${as.issuer} does not list dpop_signing_alg_values_supported: using bearer tokens`,
		};
	}
	return { use: true, required, reason: why };
}

function algList(value: unknown): string[] | undefined {
	if (!Array.isArray(value)) {
		return undefined;
	}
	const algs = value.filter((v): v is string => typeof v === 'string' && v !== '');
	// An empty list says nothing: treat it as not published.
	return algs.length ? algs : undefined;
}

/**
 * Checks a token response against the proof that went with it and returns the key the token is bound to. RFC 9449
 * section 5: "A token_type of DPoP MUST be included in the access token response to signal to the client that the
 * access token was bound to its DPoP key". An authorization server that does not do DPoP ignores the proof and
 * answers `Bearer`: the token is then used as a bearer token, unless the resource takes DPoP-bound tokens only.
 */
export function boundKey(
	tokenType: string,
	prover: DPoPProver | undefined,
	decision: DPoPDecision | undefined,
	issuer: string,
): StoredDPoPKey | undefined {
	const type = tokenType.toLowerCase();
	if (type === 'dpop') {
		if (!prover) {
			throw new OAuthStepError(
				'token response',
				`${issuer} issued a DPoP-bound token (token_type DPoP) to a request that carried no DPoP proof`,
			);
		}
		return prover.key;
	}
	if (prover && decision?.required) {
		throw new OAuthStepError(
			'token response',
			`the MCP server takes DPoP-bound tokens only (${decision.reason}), but ${issuer} answered the DPoP token request with token_type ${tokenType}`,
		);
	}
	return undefined;
}
