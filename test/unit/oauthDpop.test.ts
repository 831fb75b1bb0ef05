// DPoP proofs (RFC 9449) as the client signs them, judged by an independent check on node:crypto
// (test/fixtures/dpopProof.ts), and the rule for when the client asks for DPoP-bound tokens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boundKey, decideDPoP, DPoPProver, generateDPoPKey } from '../../src/protocol/auth/dpop';
import { OAuthStepError, type AuthorizationServerMetadata } from '../../src/protocol/auth/discovery';
import { parseWwwAuthenticate } from '../../src/protocol/auth/wwwAuthenticate';
import { checkProof, ecThumbprint, sha256 } from '../fixtures/dpopProof';

const mcp = new URL('https://mcp.example.com/v1/mcp?tenant=7#frag');

test('a resource proof: typ dpop+jwt, ES256, the public key only, a signature that verifies, htm, htu without query, iat, ath', async () => {
	const key = await generateDPoPKey();
	assert.equal(key.jwk.kty, 'EC');
	assert.equal(key.jwk.crv, 'P-256');
	assert.ok(key.jwk.d, 'the stored form keeps the private key (it lives in the TokenStore with the tokens)');
	const prover = await DPoPProver.fromStored(key, new Map());
	const headers = await prover.resourceHeaders('at-123', 'POST', mcp);

	// RFC 9449 section 7.1: "A DPoP-bound access token is sent using the Authorization request header field ... with an
	// authentication scheme of DPoP."
	assert.equal(headers.authorization, 'DPoP at-123');
	// RFC 9449 section 7: "The DPoP proof MUST include the ath claim with a valid hash of the associated access token."
	const check = checkProof(headers.dpop, { method: 'POST', url: mcp.href, accessToken: 'at-123' });
	assert.ok(check.ok, check.ok ? '' : check.error);
	assert.equal(check.header.typ, 'dpop+jwt');
	assert.equal(check.header.alg, 'ES256');
	assert.deepEqual(Object.keys(check.header.jwk!).sort(), ['crv', 'kty', 'x', 'y'], 'no private member in the proof');
	assert.equal(
		check.claims.htu,
		'https://mcp.example.com/v1/mcp',
		'htu has neither query nor fragment (RFC 9449 section 4.2)',
	);
	assert.equal(check.claims.htm, 'POST');
	assert.equal(check.claims.ath, sha256('at-123'));
	assert.ok(Math.abs(check.claims.iat! - Date.now() / 1000) < 5);
	assert.equal(check.claims.nonce, undefined, 'no nonce before a server gave one');
	assert.equal(check.jkt, ecThumbprint(key.jwk), 'signed with the stored key');
	assert.equal(await prover.thumbprint(), check.jkt, 'dpop_jkt of the authorization request names the same key');
});

test('each proof is fresh (its own jti), names its own method, and fails the check for another token or method', async () => {
	const prover = await DPoPProver.fromStored(await generateDPoPKey(), new Map());
	const get = await prover.resourceHeaders('at-1', 'GET', mcp);
	const del = await prover.resourceHeaders('at-1', 'DELETE', mcp);
	const a = checkProof(get.dpop, { method: 'GET', url: mcp.href, accessToken: 'at-1' });
	const b = checkProof(del.dpop, { method: 'DELETE', url: mcp.href, accessToken: 'at-1' });
	assert.ok(a.ok && b.ok);
	assert.notEqual(a.claims.jti, b.claims.jti);
	// The independent check is not a rubber stamp: the same proof is refused for another token, method or URL.
	assert.match(
		String((checkProof(get.dpop, { method: 'GET', url: mcp.href, accessToken: 'at-2' }) as { error: string }).error),
		/ath/,
	);
	assert.match(
		String((checkProof(get.dpop, { method: 'POST', url: mcp.href, accessToken: 'at-1' }) as { error: string }).error),
		/htm/,
	);
	assert.match(
		String(
			(
				checkProof(get.dpop, { method: 'GET', url: 'https://other.example.com/v1/mcp', accessToken: 'at-1' }) as {
					error: string;
				}
			).error,
		),
		/htu/,
	);
	const [h, p, s] = get.dpop.split('.');
	const flipped = `${h}.${p}.${s!.startsWith('A') ? 'B' : 'A'}${s!.slice(1)}`;
	assert.match(
		String((checkProof(flipped, { method: 'GET', url: mcp.href, accessToken: 'at-1' }) as { error: string }).error),
		/signature/,
	);
});

test('a resource server nonce goes into proofs for its origin only', async () => {
	const nonces = new Map<string, string>([['https://mcp.example.com', 'rs-nonce-1']]);
	const prover = await DPoPProver.fromStored(await generateDPoPKey(), nonces);
	const here = checkProof((await prover.resourceHeaders('t', 'POST', mcp)).dpop, {
		method: 'POST',
		url: mcp.href,
		accessToken: 't',
		nonce: 'rs-nonce-1',
	});
	assert.ok(here.ok, here.ok ? '' : here.error);
	const elsewhere = new URL('https://mcp.other.example/mcp');
	const there = checkProof((await prover.resourceHeaders('t', 'POST', elsewhere)).dpop, {
		method: 'POST',
		url: elsewhere.href,
		accessToken: 't',
	});
	assert.ok(there.ok);
	assert.equal(there.claims.nonce, undefined);
	// A new nonce from the server replaces the old one for the next proof (RFC 9449 section 8.2).
	nonces.set('https://mcp.example.com', 'rs-nonce-2');
	const next = checkProof((await prover.resourceHeaders('t', 'POST', mcp)).dpop, {
		method: 'POST',
		url: mcp.href,
		accessToken: 't',
		nonce: 'rs-nonce-2',
	});
	assert.ok(next.ok);
});

test('a stored key restores to the same key pair; a damaged one fails with an OAuthStepError', async () => {
	const key = await generateDPoPKey();
	const restored = await DPoPProver.fromStored(JSON.parse(JSON.stringify(key)) as typeof key, new Map());
	assert.equal(await restored.thumbprint(), ecThumbprint(key.jwk));
	await assert.rejects(
		DPoPProver.fromStored({ alg: 'ES256', jwk: { ...key.jwk, d: 'AAAA' } }, new Map()),
		OAuthStepError,
	);
});

const as = (extra: Partial<AuthorizationServerMetadata> = {}): AuthorizationServerMetadata => ({
	issuer: 'https://as.example.com',
	...extra,
});

test('when DPoP is used: the MCP server takes DPoP-bound tokens and the authorization server lists ES256, or the MCP server takes nothing else', () => {
	const dpopAs = as({ dpop_signing_alg_values_supported: ['ES256', 'PS256'] });
	// RFC 9449 section 5.1: dpop_signing_alg_values_supported, "A JSON array containing a list of the JWS alg values
	// ... supported by the authorization server for DPoP proof JWTs". Alone it is not enough: the MCP server in front
	// may check Bearer tokens only (the oidc-provider integration test's server does), so nothing said there: bearer.
	const asOnly = decideDPoP(
		dpopAs,
		undefined,
		parseWwwAuthenticate('Bearer resource_metadata="https://mcp.example.com/prm"'),
	);
	assert.equal(asOnly.use, false);
	assert.match(asOnly.reason, /offers DPoP, but the MCP server does not say it takes DPoP-bound tokens/);
	// RFC 9728 section 2 (dpop_signing_alg_values_supported of the resource) or a DPoP challenge beside the Bearer one.
	assert.deepEqual(decideDPoP(dpopAs, { dpop_signing_alg_values_supported: ['ES256'] }, []), {
		use: true,
		required: false,
		reason: 'the MCP server takes DPoP-bound tokens and https://as.example.com lists dpop_signing_alg_values_supported',
	});
	assert.equal(decideDPoP(dpopAs, undefined, parseWwwAuthenticate('Bearer realm="x", DPoP algs="ES256"')).use, true);
	assert.equal(
		decideDPoP(dpopAs, undefined, parseWwwAuthenticate('Bearer realm="x", DPoP algs="ES256"')).required,
		false,
		'Bearer still offered',
	);
	// The MCP server takes DPoP but the authorization server does not list it: bearer, unless nothing else is taken.
	assert.equal(decideDPoP(as(), { dpop_signing_alg_values_supported: ['ES256'] }, []).use, false);
	assert.equal(
		decideDPoP(as({ dpop_signing_alg_values_supported: [] }), { dpop_signing_alg_values_supported: ['ES256'] }, []).use,
		false,
		'an empty list publishes nothing',
	);
	// RFC 9728 section 2: dpop_bound_access_tokens_required, "whether the protected resource always requires the use of
	// DPoP-bound access tokens".
	const required = decideDPoP(as(), { dpop_bound_access_tokens_required: true }, []);
	assert.equal(required.use, true);
	assert.equal(required.required, true);
	// A 401 that challenges with DPoP only (RFC 9449 section 7.1), as the conformance suite's MCP server does.
	assert.equal(
		decideDPoP(as(), undefined, parseWwwAuthenticate('DPoP resource_metadata="https://mcp.example.com/prm"')).required,
		true,
	);
	assert.equal(decideDPoP(as(), undefined, []).use, false, 'nothing published anywhere: bearer tokens');
});

test('when ES256 is not accepted: bearer tokens, or a clear error when the resource takes DPoP-bound tokens only', () => {
	const rsOnly = decideDPoP(
		as({ dpop_signing_alg_values_supported: ['RS256'] }),
		{ dpop_signing_alg_values_supported: ['ES256', 'RS256'] },
		[],
	);
	assert.equal(rsOnly.use, false);
	assert.match(rsOnly.reason, /accepts RS256, not ES256/);
	assert.throws(
		() =>
			decideDPoP(as({ dpop_signing_alg_values_supported: ['RS256'] }), { dpop_bound_access_tokens_required: true }, []),
		(error: unknown) =>
			error instanceof OAuthStepError && /ES256 only and https:\/\/as\.example\.com accepts RS256/.test(error.message),
	);
	assert.throws(
		() => decideDPoP(as(), undefined, parseWwwAuthenticate('DPoP algs="PS256 EdDSA"')),
		(error: unknown) => error instanceof OAuthStepError && /the MCP server accepts PS256, EdDSA/.test(error.message),
	);
});

test('the token response: token_type DPoP binds the key; Bearer is a bearer token unless the resource requires DPoP', async () => {
	const prover = await DPoPProver.fromStored(await generateDPoPKey(), new Map());
	const wanted = { use: true, required: false, reason: 'test' };
	assert.equal(boundKey('dpop', prover, wanted, 'https://as.example.com'), prover.key);
	assert.equal(boundKey('DPoP', prover, wanted, 'https://as.example.com'), prover.key);
	assert.equal(boundKey('bearer', prover, wanted, 'https://as.example.com'), undefined);
	assert.equal(boundKey('bearer', undefined, undefined, 'https://as.example.com'), undefined);
	assert.throws(
		() => boundKey('bearer', prover, { ...wanted, required: true }, 'https://as.example.com'),
		/takes DPoP-bound tokens only/,
	);
	assert.throws(() => boundKey('dpop', undefined, undefined, 'https://as.example.com'), /carried no DPoP proof/);
});
