// The OAuth client against our fixture authorization server and protected MCP endpoint, over real loopback HTTP.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { delay } from '../../src/common/async';
import { MemoryLogger } from '../../src/common/logger';
import { ErrorCode } from '../../src/protocol/jsonrpc';
import { McpError } from '../../src/protocol/mcpError';
import { MemoryTokenStore } from '../../src/protocol/auth/memoryTokenStore';
import { OAuthProvider } from '../../src/protocol/auth/oauthProvider';
import { createHeadlessOAuthHooks } from '../../src/protocol/auth/headlessOAuthHooks';
import type { OAuthClientConfig } from '../../src/protocol/auth/types';
import { fakeBrowser, startAuthFixture, type AuthFixture, type AuthFixtureOptions } from '../fixtures/authServer';

interface Setup {
	fixture: AuthFixture;
	provider: OAuthProvider;
	browser: ReturnType<typeof fakeBrowser>;
	store: MemoryTokenStore;
	logger: MemoryLogger;
	/** Sends one JSON-RPC request the way the HTTP transports do: headers(), POST, onUnauthorized() and one retry. */
	call(method: string, params?: Record<string, unknown>): Promise<{ status: number; body: unknown }>;
}

async function setup(
	t: TestContext,
	options: AuthFixtureOptions = {},
	config: (f: AuthFixture) => OAuthClientConfig = () => ({}),
	extra: { maxStepUps?: number; store?: MemoryTokenStore } = {},
): Promise<Setup> {
	const fixture = await startAuthFixture(options);
	t.after(() => fixture.close());
	const browser = fakeBrowser();
	const store = extra.store ?? new MemoryTokenStore();
	const logger = new MemoryLogger('trace');
	const provider = new OAuthProvider({
		serverUrl: fixture.mcpUrl,
		config: config(fixture),
		hooks: { store, openAuthorizationUrl: browser.open },
		logger,
		name: 'fixture',
		maxStepUps: extra.maxStepUps,
	});
	let id = 0;
	const call = async (method: string, params?: Record<string, unknown>) => {
		const send = async () =>
			fetch(fixture.mcpUrl, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					accept: 'application/json, text/event-stream',
					...(await provider.headers()),
				},
				body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
			});
		let response = await send();
		if (response.status === 401 || response.status === 403) {
			const retry = await provider.onUnauthorized({
				status: response.status,
				wwwAuthenticate: response.headers.get('www-authenticate') ?? undefined,
				url: fixture.mcpUrl,
			});
			if (retry) {
				response = await send();
			}
		}
		const text = await response.text();
		return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
	};
	return { fixture, provider, browser, store, logger, call };
}

function toolText(body: unknown): string {
	return (body as { result: { content: Array<{ text: string }> } }).result.content[0]!.text;
}

async function assertOAuthError(promise: Promise<unknown>, pattern: RegExp): Promise<McpError> {
	try {
		await promise;
	} catch (error) {
		assert.ok(error instanceof McpError, `expected an McpError, got ${String(error)}`);
		assert.equal(error.code, ErrorCode.Unauthorized);
		assert.match(error.message, /^OAuth for fixture: /);
		assert.match(error.message, pattern);
		return error;
	}
	assert.fail('expected the flow to fail');
}

// --- discovery variants ----------------------------------------------------------------------------------------

for (const [variant, expectedPath] of [
	['param', '/meta/protected-resource/mcp'],
	['path', '/.well-known/oauth-protected-resource/mcp'],
	['root', '/.well-known/oauth-protected-resource'],
] as const) {
	test(`protected resource metadata found via ${variant}; a tool call works after authorization`, async (t) => {
		const s = await setup(t, { resourceMetadata: variant });
		const result = await s.call('tools/call', { name: 'whoami' });
		assert.equal(result.status, 200);
		assert.match(toolText(result.body), /^client=dcr-/);
		assert.equal(s.browser.calls, 1);
		const served = s.fixture.requests.filter(
			(r) => r.startsWith('GET ') && (r.includes('protected-resource') || r.includes('oauth-protected')),
		);
		assert.equal(served.at(-1), `GET ${expectedPath}`, `metadata read from ${served.join(', ')}`);
		if (variant === 'root') {
			// The path-aware URL is tried first and 404s.
			assert.deepEqual(served, [
				'GET /.well-known/oauth-protected-resource/mcp',
				'GET /.well-known/oauth-protected-resource',
			]);
		}
	});
}

for (const variant of ['oauth-path', 'oauth-root', 'oidc'] as const) {
	test(`authorization server metadata found via ${variant}`, async (t) => {
		const s = await setup(t, { asMetadata: variant });
		const result = await s.call('tools/list');
		assert.equal(result.status, 200);
		const tried = s.fixture.requests.filter(
			(r) => r.includes('oauth-authorization-server') || r.includes('openid-configuration'),
		);
		const expected = {
			'oauth-path': ['GET /.well-known/oauth-authorization-server/tenant'],
			// The spec's order for an issuer with a path; the root RFC 8414 URL only after its three.
			'oauth-root': [
				'GET /.well-known/oauth-authorization-server/tenant',
				'GET /.well-known/openid-configuration/tenant',
				'GET /tenant/.well-known/openid-configuration',
				'GET /.well-known/oauth-authorization-server',
			],
			oidc: [
				'GET /.well-known/oauth-authorization-server/tenant',
				'GET /.well-known/openid-configuration/tenant',
				'GET /tenant/.well-known/openid-configuration',
			],
		}[variant];
		assert.deepEqual(tried, expected);
	});
}

test('metadata 404 everywhere: the error names discovery and every URL tried', async (t) => {
	const s = await setup(t, { resourceMetadata: 'none', asMetadata: 'none' });
	const error = await assertOAuthError(
		s.call('tools/list'),
		/metadata discovery failed: no protected resource metadata at .*oauth-protected-resource\/mcp \(404\).*no authorization server metadata at .*openid-configuration \(404\)/,
	);
	assert.deepEqual(Object.keys(error.data as object), ['step', 'reason']);
	assert.equal((error.data as { step: string }).step, 'metadata discovery');
	assert.match((error.data as { reason: string }).reason, /^no protected resource metadata at /);
	assert.equal(s.browser.calls, 0);
});

test('resource metadata found but the authorization server has none: the error names that step', async (t) => {
	const s = await setup(t, { asMetadata: 'none' });
	await assertOAuthError(
		s.call('tools/list'),
		/authorization server metadata discovery failed: no metadata for http:\/\/127\.0\.0\.1:\d+\/tenant at .*oauth-authorization-server\/tenant \(404\)/,
	);
});

// --- client identity ---------------------------------------------------------------------------------------------

for (const method of ['client_secret_basic', 'client_secret_post'] as const) {
	test(`pre-registered confidential client authenticates with ${method}`, async (t) => {
		const s = await setup(
			t,
			{
				clients: [{ clientId: 'pre-1', clientSecret: 's3cret value', method }],
				tokenAuthMethods: method === 'client_secret_post' ? ['client_secret_post'] : undefined,
			},
			() => ({ clientId: 'pre-1', clientSecret: 's3cret value' }),
		);
		const result = await s.call('tools/call', { name: 'whoami' });
		assert.equal(result.status, 200);
		assert.match(toolText(result.body), /^client=pre-1 /);
		assert.equal(s.fixture.registrations.length, 0, 'no registration for a configured client');
		assert.deepEqual(
			s.fixture.tokenRequests.map((r) => [r.grantType, r.authMethod]),
			[['authorization_code', method]],
		);
		assert.equal(s.logger.find('s3cret').length, 0, 'the secret is never logged');
	});
}

test('pre-registered public client (no secret) uses auth method none', async (t) => {
	const s = await setup(t, { clients: [{ clientId: 'public-1', method: 'none' }] }, () => ({ clientId: 'public-1' }));
	assert.equal((await s.call('tools/list')).status, 200);
	assert.equal(s.fixture.tokenRequests[0]?.authMethod, 'none');
});

test('Client ID Metadata Document: the document URL is the client id, no registration', async (t) => {
	const s = await setup(t, { cimd: true }, (f) => ({ clientMetadataUrl: f.clientMetadataUrl }));
	const result = await s.call('tools/call', { name: 'whoami' });
	assert.equal(result.status, 200);
	assert.match(toolText(result.body), new RegExp(`^client=${s.fixture.clientMetadataUrl.replace(/[.]/g, '\\.')} `));
	assert.equal(s.fixture.registrations.length, 0);
	assert.equal(s.fixture.authorizeRequests[0]?.get('client_id'), s.fixture.clientMetadataUrl);
});

test('a CIMD URL is not used when the server does not support CIMD: Dynamic Client Registration instead', async (t) => {
	const s = await setup(t, { cimd: false }, (f) => ({ clientMetadataUrl: f.clientMetadataUrl }));
	assert.equal((await s.call('tools/list')).status, 200);
	assert.equal(s.fixture.registrations.length, 1);
});

test('Dynamic Client Registration registers a public client with our redirect URI, once per authorization server', async (t) => {
	const s = await setup(t);
	assert.equal((await s.call('tools/list')).status, 200);
	assert.equal(s.fixture.registrations.length, 1);
	const registration = s.fixture.registrations[0]!;
	assert.equal(registration.token_endpoint_auth_method, 'none');
	assert.deepEqual(registration.grant_types, ['authorization_code', 'refresh_token']);
	assert.match(String((registration.redirect_uris as string[])[0]), /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
	assert.equal(s.fixture.authorizeRequests[0]?.get('redirect_uri'), (registration.redirect_uris as string[])[0]);
	// Tokens, session and client are kept under keys naming the server and the issuer.
	assert.ok(
		s.store.keys().some((k) => k.includes(s.fixture.mcpUrl) && k.includes(s.fixture.issuer) && k.endsWith('|client')),
	);
	assert.ok(
		s.store.keys().some((k) => k.includes(s.fixture.mcpUrl) && k.includes(s.fixture.issuer) && k.endsWith('|tokens')),
	);
	// A new authorization (tokens gone) reuses the registration.
	await s.provider.signOut();
	assert.equal((await s.call('tools/list')).status, 200);
	assert.equal(s.fixture.registrations.length, 1);
	assert.equal(s.browser.calls, 2);
});

test('DCR with a confidential client when the server does not accept public clients', async (t) => {
	const s = await setup(t, { tokenAuthMethods: ['client_secret_post'] });
	assert.equal((await s.call('tools/list')).status, 200);
	assert.equal(s.fixture.registrations[0]?.token_endpoint_auth_method, 'client_secret_post');
	assert.equal(s.fixture.tokenRequests[0]?.authMethod, 'client_secret_post');
});

test("registration refused: the error names the registration step and the server's reason", async (t) => {
	const s = await setup(t, { dcr: 'refuse' });
	await assertOAuthError(
		s.call('tools/list'),
		/client registration at http:\/\/127\.0\.0\.1:\d+\/tenant\/register failed: 400 invalid_client_metadata \(registration is closed on this fixture\)/,
	);
	assert.equal(s.browser.calls, 0);
});

test('no client id, no CIMD and no registration endpoint: a clear error asking for a client id', async (t) => {
	const s = await setup(t, { dcr: false });
	await assertOAuthError(s.call('tools/list'), /client registration failed: .*configure a client id/);
});

// --- PKCE, resource, state -------------------------------------------------------------------------------------

test('PKCE S256 and the resource parameter are sent and verified by the server', async (t) => {
	const s = await setup(t);
	assert.equal((await s.call('tools/list')).status, 200);
	const authorize = s.fixture.authorizeRequests[0]!;
	assert.equal(authorize.get('code_challenge_method'), 'S256');
	assert.match(authorize.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
	assert.equal(authorize.get('resource'), s.fixture.mcpUrl);
	const tokenRequest = s.fixture.tokenRequests[0]!;
	assert.equal(tokenRequest.params.resource, s.fixture.mcpUrl);
	assert.match(tokenRequest.params.code_verifier ?? '', /^[A-Za-z0-9_-]{43,128}$/);
	// The fixture answered 200 only because sha256(verifier) matched the challenge.
	assert.equal(s.fixture.mcpAuthorizations.filter((a) => a.startsWith('Bearer ')).length, 1);
});

test('a server that does not advertise S256 is refused before the browser opens', async (t) => {
	const s = await setup(t, { pkceMethods: ['plain'] });
	await assertOAuthError(
		s.call('tools/list'),
		/authorization server check failed: .* does not advertise PKCE S256 \(code_challenge_methods_supported: \["plain"\]\)/,
	);
	assert.equal(s.browser.calls, 0);
});

test('a server without code_challenge_methods_supported is refused too', async (t) => {
	const s = await setup(t, { pkceMethods: null });
	await assertOAuthError(
		s.call('tools/list'),
		/does not advertise PKCE S256 \(code_challenge_methods_supported: null\)/,
	);
});

test('state mismatch: the redirect is rejected and no token is requested', async (t) => {
	const s = await setup(t, { tamperState: true });
	await assertOAuthError(s.call('tools/list'), /authorization failed: the redirect carried a different state/);
	assert.equal(s.fixture.tokenRequests.length, 0);
});

test('token endpoint 400 invalid_grant: the error names the token request, its URL and the OAuth error', async (t) => {
	const s = await setup(t, { tokenError: 'invalid_grant' });
	await assertOAuthError(
		s.call('tools/list'),
		/token request to http:\/\/127\.0\.0\.1:\d+\/tenant\/token failed: 400 invalid_grant \(the fixture refuses this code\)/,
	);
});

test('the user cancelling in the browser step fails with that reason', async (t) => {
	const fixture = await startAuthFixture();
	t.after(() => fixture.close());
	const provider = new OAuthProvider({
		serverUrl: fixture.mcpUrl,
		config: {},
		name: 'fixture',
		hooks: {
			store: new MemoryTokenStore(),
			openAuthorizationUrl: async () => Promise.reject(new Error('the user cancelled sign-in')),
		},
	});
	const response = await fetch(fixture.mcpUrl, { method: 'POST', body: '{}' });
	await assertOAuthError(
		provider.onUnauthorized({
			status: 401,
			wwwAuthenticate: response.headers.get('www-authenticate') ?? undefined,
			url: fixture.mcpUrl,
		}),
		/authorization in the browser failed: the user cancelled sign-in/,
	);
});

test('no token, code, verifier or client secret reaches the log, even at trace level', async (t) => {
	const s = await setup(t, { tokenAuthMethods: ['client_secret_basic'] });
	assert.equal((await s.call('tools/list')).status, 200);
	s.fixture.expireAccessTokens();
	assert.equal((await s.call('tools/list')).status, 200);
	const secrets = [
		...s.fixture.mcpAuthorizations.filter(Boolean).map((a) => a.replace(/^Bearer /, '')),
		...s.fixture.tokenRequests.flatMap((r) => [r.params.code, r.params.code_verifier, r.params.refresh_token]),
		...s.fixture.authorizeRequests.flatMap((q) => [q.get('state'), q.get('code_challenge')]),
	].filter((v): v is string => typeof v === 'string' && v.length > 0);
	const stored = JSON.parse((await s.store.get(s.store.keys().find((k) => k.endsWith('|client'))!))!) as {
		clientSecret?: string;
	};
	assert.ok(stored.clientSecret, 'the registration gave a secret');
	secrets.push(stored.clientSecret);
	assert.ok(secrets.length >= 8);
	assert.ok(s.logger.entries.length > 3, 'the flow logged its steps');
	for (const entry of s.logger.entries) {
		for (const secret of secrets) {
			assert.ok(!entry.message.includes(secret), `a secret leaked into: ${entry.message}`);
		}
	}
});

test('resource metadata for another resource is refused (tokens must not be minted for elsewhere)', async (t) => {
	const s = await setup(t, { resourceOverride: 'http://127.0.0.1:1/other' });
	await assertOAuthError(
		s.call('tools/list'),
		/protected resource metadata failed: .* describes http:\/\/127\.0\.0\.1:1\/other, which does not cover http:\/\/127\.0\.0\.1:\d+\/mcp/,
	);
	assert.equal(s.browser.calls, 0);
});

test('a browser step that never comes back fails at the authorization timeout', async (t) => {
	const fixture = await startAuthFixture();
	t.after(() => fixture.close());
	let hookSignal: AbortSignal | undefined;
	const provider = new OAuthProvider({
		serverUrl: fixture.mcpUrl,
		config: {},
		name: 'fixture',
		authorizationTimeoutMs: 300,
		hooks: {
			store: new MemoryTokenStore(),
			openAuthorizationUrl: (_url, _redirect, signal) => {
				hookSignal = signal;
				return new Promise<string>(() => {});
			},
		},
	});
	const response = await fetch(fixture.mcpUrl, { method: 'POST', body: '{}' });
	await assertOAuthError(
		provider.onUnauthorized({
			status: 401,
			wwwAuthenticate: response.headers.get('www-authenticate') ?? undefined,
			url: fixture.mcpUrl,
		}),
		/authorization in the browser failed: no answer from the browser within 300 ms/,
	);
	assert.equal(hookSignal?.aborted, true, 'the host is told to stop waiting');
});

// --- scopes ------------------------------------------------------------------------------------------------------

test('scopes: the 401 scope wins, else scopes_supported, else none', async (t) => {
	const a = await setup(t, { challengeScope: 'mcp:tools' });
	await a.call('tools/list');
	assert.equal(a.fixture.authorizeRequests[0]?.get('scope'), 'mcp:tools');
	const b = await setup(t, {});
	await b.call('tools/list');
	assert.equal(b.fixture.authorizeRequests[0]?.get('scope'), 'mcp:read mcp:tools');
	const c = await setup(t, { scopesSupported: null });
	await c.call('tools/list');
	assert.equal(c.fixture.authorizeRequests[0]?.has('scope'), false);
});

// --- refresh -----------------------------------------------------------------------------------------------------

test('an expired access token is refreshed without asking the user', async (t) => {
	// A 2 s token counts as expired after 1 s (the client keeps half a short lifetime as margin).
	const s = await setup(t, { accessTokenTtl: 2 });
	assert.equal((await s.call('tools/list')).status, 200);
	assert.equal(s.browser.calls, 1);
	assert.deepEqual(
		s.fixture.tokenRequests.map((r) => r.grantType),
		['authorization_code'],
	);
	await delay(1100);
	assert.equal((await s.call('tools/call', { name: 'whoami' })).status, 200);
	assert.equal(s.browser.calls, 1, 'the user was not asked again');
	const grants = s.fixture.tokenRequests.map((r) => r.grantType);
	assert.deepEqual(grants, ['authorization_code', 'refresh_token']);
	assert.equal(s.fixture.tokenRequests[1]?.params.resource, s.fixture.mcpUrl, 'resource is sent on refresh too');
});

test('a 401 mid-session (token revoked by the server) refreshes transparently', async (t) => {
	const s = await setup(t);
	assert.equal((await s.call('tools/list')).status, 200);
	s.fixture.expireAccessTokens();
	const result = await s.call('tools/call', { name: 'whoami' });
	assert.equal(result.status, 200);
	assert.equal(s.browser.calls, 1);
	assert.deepEqual(
		s.fixture.tokenRequests.map((r) => r.grantType),
		['authorization_code', 'refresh_token'],
	);
});

test('a refused refresh token leads to a new authorization (the user is asked once more)', async (t) => {
	const s = await setup(t);
	assert.equal((await s.call('tools/list')).status, 200);
	s.fixture.expireAccessTokens();
	s.fixture.revokeRefreshTokens();
	assert.equal((await s.call('tools/list')).status, 200);
	assert.equal(s.browser.calls, 2);
	assert.ok(s.logger.find('refresh at').some((e) => /400 invalid_grant/.test(e.message)));
});

test('tokens in the store survive a new provider (restart): no discovery, no browser', async (t) => {
	const store = new MemoryTokenStore();
	const first = await setup(t, {}, () => ({}), { store });
	assert.equal((await first.call('tools/list')).status, 200);
	const again = new OAuthProvider({
		serverUrl: first.fixture.mcpUrl,
		config: {},
		hooks: { store, openAuthorizationUrl: () => Promise.reject(new Error('must not ask')) },
	});
	const headers = await again.headers();
	assert.match(headers.authorization ?? '', /^Bearer .+/);
	const response = await fetch(first.fixture.mcpUrl, {
		method: 'POST',
		headers: { ...headers, 'content-type': 'application/json' },
		body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
	});
	assert.equal(response.status, 200);
});

test('concurrent 401s share one authorization', async (t) => {
	const s = await setup(t);
	const results = await Promise.all([s.call('tools/list'), s.call('tools/list'), s.call('ping')]);
	assert.deepEqual(
		results.map((r) => r.status),
		[200, 200, 200],
	);
	assert.equal(s.browser.calls, 1);
});

// --- step-up -----------------------------------------------------------------------------------------------------

test('403 insufficient_scope: re-authorizes with the added scope, then the call works', async (t) => {
	const s = await setup(t, { toolScopes: { admin: 'mcp:admin' } });
	assert.equal((await s.call('tools/call', { name: 'whoami' })).status, 200);
	const result = await s.call('tools/call', { name: 'admin' });
	assert.equal(result.status, 200);
	assert.match(toolText(result.body), /scope=.*mcp:admin/);
	assert.equal(s.browser.calls, 2);
	assert.deepEqual(s.fixture.authorizeRequests[1]?.get('scope')?.split(' ').sort(), [
		'mcp:admin',
		'mcp:read',
		'mcp:tools',
	]);
});

test('step-up stops at the limit when the server never grants the scope', async (t) => {
	const s = await setup(t, { toolScopes: { admin: 'mcp:admin' }, withheldScopes: ['mcp:admin'] }, () => ({}), {
		maxStepUps: 2,
	});
	assert.equal((await s.call('tools/list')).status, 200);
	// Each call re-authorizes once (the transport retries once); the third finds the limit reached.
	assert.equal((await s.call('tools/call', { name: 'admin' })).status, 403);
	assert.equal((await s.call('tools/call', { name: 'admin' })).status, 403);
	await assertOAuthError(
		s.call('tools/call', { name: 'admin' }),
		/step-up authorization failed: the server still answers 403 insufficient_scope for scope ".*mcp:admin.*" after 2 re-authorizations/,
	);
	assert.equal(s.browser.calls, 3);
});

test('403 without insufficient_scope is not an authorization problem', async (t) => {
	const s = await setup(t);
	assert.equal(
		await s.provider.onUnauthorized({
			status: 403,
			wwwAuthenticate: 'Bearer error="access_denied"',
			url: s.fixture.mcpUrl,
		}),
		false,
	);
	assert.equal(s.browser.calls, 0);
});

// --- headless hooks ----------------------------------------------------------------------------------------------

test('headless hooks: the redirect comes back to the loopback listener the client started', async (t) => {
	const fixture = await startAuthFixture();
	t.after(() => fixture.close());
	const opened: string[] = [];
	const hooks = createHeadlessOAuthHooks({
		// A "browser" that follows the redirect to our loopback listener, as a real one would.
		openUrl: async (url) => {
			opened.push(url);
			const page = await fetch(url);
			assert.equal(page.status, 200);
			assert.match(await page.text(), /Authorization complete/);
		},
	});
	const provider = new OAuthProvider({ serverUrl: fixture.mcpUrl, config: {}, hooks });
	const challenge = await fetch(fixture.mcpUrl, { method: 'POST', body: '{}' });
	assert.equal(
		await provider.onUnauthorized({
			status: 401,
			wwwAuthenticate: challenge.headers.get('www-authenticate') ?? undefined,
			url: fixture.mcpUrl,
		}),
		true,
	);
	assert.equal(opened.length, 1);
	assert.match((await provider.headers()).authorization ?? '', /^Bearer /);
});

// --- the loopback redirect -----------------------------------------------------------------------------------------

test('a stray GET to the loopback /callback (an image on any web page) does not abort the sign-in in progress', async (t) => {
	// Issue 27 defect 7: any request to the path ended the wait, so the real redirect found nobody listening.
	const fixture = await startAuthFixture();
	t.after(() => fixture.close());
	const strays: number[] = [];
	const provider = new OAuthProvider({
		serverUrl: fixture.mcpUrl,
		config: {},
		name: 'fixture',
		hooks: {
			store: new MemoryTokenStore(),
			openAuthorizationUrl: async (url, redirectUri) => {
				// Another page loads the callback address: with no state, and with someone else's.
				strays.push((await fetch(redirectUri)).status);
				strays.push((await fetch(`${redirectUri}?code=forged&state=not-this-one`)).status);
				// Then the real browser comes back to the loopback listener (the hook itself never answers).
				const answer = await fetch(url, { redirect: 'manual' });
				const location = answer.headers.get('location');
				assert.ok(location, 'the authorization server redirected');
				await fetch(location);
				return new Promise<string>(() => {});
			},
		},
	});
	const response = await fetch(fixture.mcpUrl, { method: 'POST', body: '{}' });
	const retry = await provider.onUnauthorized({
		status: 401,
		wwwAuthenticate: response.headers.get('www-authenticate') ?? undefined,
		url: fixture.mcpUrl,
	});
	assert.equal(retry, true, 'signed in with the real redirect');
	assert.deepEqual(strays, [400, 400], 'the stray requests were turned away');
	assert.match((await provider.headers()).authorization ?? '', /^Bearer /);
});
