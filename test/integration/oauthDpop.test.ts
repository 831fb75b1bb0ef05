// DPoP-bound tokens (RFC 9449; MCP's profile SEP-1932, https://github.com/modelcontextprotocol/modelcontextprotocol/pull/1932:
// "This SEP intentionally adopts DPoP as defined in RFC 9449, without introducing MCP-specific claims") end to end:
// the OAuth client and the HTTP transports against our fixture authorization server and MCP endpoint, which check
// every proof with node:crypto (test/fixtures/dpopProof.ts) over real loopback HTTP.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLogger } from '../../src/common/logger';
import { McpClient } from '../../src/protocol/client';
import { ErrorCode } from '../../src/protocol/jsonrpc';
import { McpError } from '../../src/protocol/mcpError';
import { DPoPProver, generateDPoPKey } from '../../src/protocol/auth/dpop';
import { MemoryTokenStore } from '../../src/protocol/auth/memoryTokenStore';
import { OAuthProvider } from '../../src/protocol/auth/oauthProvider';
import type { StoredTokens } from '../../src/protocol/auth/types';
import { createTransport } from '../../src/protocol/transports/createTransport';
import { LegacySseTransport } from '../../src/protocol/transports/legacySse';
import { StreamableHttpTransport } from '../../src/protocol/transports/streamableHttp';
import type { HttpAuthProvider, Transport } from '../../src/protocol/transports/transport';
import { isResponse } from '../../src/protocol/jsonrpc';
import {
	fakeBrowser,
	startAuthFixture,
	type AuthFixture,
	type AuthFixtureOptions,
	type DPoPFixtureOptions,
} from '../fixtures/authServer';
import { checkProof, ecThumbprint } from '../fixtures/dpopProof';
import { HttpFaultServer } from '../fixtures/httpFaultServer';

interface Signed {
	fixture: AuthFixture;
	store: MemoryTokenStore;
	browser: ReturnType<typeof fakeBrowser>;
	logger: MemoryLogger;
	provider: () => OAuthProvider;
	connect: (provider?: OAuthProvider) => Promise<McpClient>;
}

async function setup(t: TestContext, options: AuthFixtureOptions): Promise<Signed> {
	const fixture = await startAuthFixture(options);
	t.after(() => fixture.close());
	const store = new MemoryTokenStore();
	const browser = fakeBrowser();
	const logger = new MemoryLogger('trace');
	const provider = () =>
		new OAuthProvider({
			serverUrl: fixture.mcpUrl,
			config: {},
			hooks: { store, openAuthorizationUrl: browser.open },
			logger,
			name: 'fixture',
		});
	const connect = async (auth = provider()) => {
		const client = await McpClient.connect(
			createTransport({ type: 'http', url: fixture.mcpUrl }, { name: 'fixture', auth, logger }),
			{ name: 'fixture', logger },
		);
		t.after(() => client.close());
		return client;
	};
	return { fixture, store, browser, logger, provider, connect };
}

async function storedTokens(store: MemoryTokenStore): Promise<StoredTokens> {
	const key = store.keys().find((k) => k.endsWith('|tokens'));
	assert.ok(key, 'tokens are stored');
	return JSON.parse((await store.get(key))!) as StoredTokens;
}

/** Nothing secret in the log: no access or refresh token, no private key, no proof. */
function assertNoSecretsLogged(logger: MemoryLogger, tokens: StoredTokens): void {
	const text = logger.entries.map((e) => e.message).join('\n');
	assert.ok(!text.includes(tokens.accessToken), 'the access token is not logged');
	assert.ok(!tokens.refreshToken || !text.includes(tokens.refreshToken), 'the refresh token is not logged');
	assert.ok(tokens.dpopKey?.jwk.d && !text.includes(tokens.dpopKey.jwk.d), 'the private key is not logged');
	assert.doesNotMatch(text, /eyJ[\w-]+\.eyJ/, 'no JWT (proof) is logged');
}

test('a server that requires DPoP nonces at the token endpoint and the MCP endpoint: one sign-in, a DPoP-bound token, a fresh proof on every POST, the GET stream and the DELETE', async (t) => {
	const { fixture, store, browser, logger, connect } = await setup(t, { dpop: { asNonce: true, rsNonce: true } });
	const client = await connect();
	assert.deepEqual(
		(await client.listTools()).map((tool) => tool.name),
		['whoami', 'admin'],
	);
	assert.match(JSON.stringify((await client.callTool('whoami', {})).content), /client=dcr-/);
	await client.close();

	assert.equal(browser.calls, 1, 'one sign-in');
	// RFC 9449 section 8: the token endpoint's use_dpop_nonce answer is retried once, with the nonce.
	const tokenProofs = fixture.dpopProofs.filter((p) => p.at === 'token');
	assert.deepEqual(
		tokenProofs.map((p) => p.outcome),
		['use_dpop_nonce', 'ok'],
	);
	assert.deepEqual(
		fixture.tokenRequests.map((r) => r.grantType),
		['authorization_code', 'authorization_code'],
	);
	assert.equal(fixture.tokenResponses[0]!.token_type, 'DPoP');
	// RFC 9449 section 10: the authorization request names the key (dpop_jkt), so only it can redeem the code.
	const tokens = await storedTokens(store);
	assert.ok(tokens.dpopKey, 'the key pair is kept with the tokens');
	const jkt = ecThumbprint(tokens.dpopKey.jwk);
	assert.equal(fixture.authorizeRequests[0]!.get('dpop_jkt'), jkt);

	// RFC 9449 section 9: the first MCP request with the new token meets the resource server's nonce challenge once.
	const mcpProofs = fixture.dpopProofs.filter((p) => p.at === 'mcp');
	assert.equal(mcpProofs[0]!.outcome, 'use_dpop_nonce');
	assert.deepEqual(
		mcpProofs.slice(1).filter((p) => p.outcome !== 'ok'),
		[],
		'every later request is accepted',
	);
	for (const proof of fixture.dpopProofs) {
		assert.ok(proof.check.ok, `${proof.at} ${proof.method}: ${proof.check.ok ? '' : proof.check.error}`);
		assert.equal(proof.check.jkt, jkt, 'every proof is signed with the stored key');
	}
	assert.deepEqual(
		[...new Set(mcpProofs.map((p) => p.method))].sort(),
		['DELETE', 'GET', 'POST'],
		'the GET stream and the DELETE on close carry proofs too',
	);
	const jtis = fixture.dpopProofs.map((p) => (p.check.ok ? p.check.claims.jti : ''));
	assert.equal(new Set(jtis).size, jtis.length, 'no proof is sent twice');
	const authorized = fixture.mcpAuthorizations.filter(Boolean);
	assert.ok(authorized.length >= 4);
	assert.ok(
		authorized.every((a) => a === `DPoP ${tokens.accessToken}`),
		'the token goes with the DPoP scheme, never Bearer (RFC 9449 section 7.1)',
	);
	assertNoSecretsLogged(logger, tokens);
});

test('refresh of a DPoP-bound token: the same key proves the refresh, new nonces at both servers cost one retry each, the user is not asked', async (t) => {
	const { fixture, store, browser, connect } = await setup(t, { dpop: { asNonce: true, rsNonce: true } });
	const client = await connect();
	const before = await storedTokens(store);
	fixture.expireAccessTokens();
	fixture.rotateDPoPNonces();
	fixture.dpopProofs.length = 0;

	// One call meets, in order: the MCP server's new nonce, the expired token (its proof is fine: 'ok' is the proof's
	// verdict), the token endpoint's new nonce, and then goes through. The listening GET in flight meets the same.
	assert.match(JSON.stringify((await client.callTool('whoami', {})).content), /client=dcr-/);
	assert.equal(browser.calls, 1);
	const seen = fixture.dpopProofs.map((p) => `${p.at} ${p.method} ${p.outcome}`);
	assert.deepEqual(
		seen.filter((s) => s.startsWith('mcp POST')),
		['mcp POST use_dpop_nonce', 'mcp POST ok', 'mcp POST ok'],
	);
	assert.deepEqual(
		seen.filter((s) => s.startsWith('token')),
		['token POST use_dpop_nonce', 'token POST ok'],
		'one refresh, shared by the requests in flight',
	);
	assert.deepEqual(
		fixture.tokenRequests.slice(-2).map((r) => r.grantType),
		['refresh_token', 'refresh_token'],
	);
	const after = await storedTokens(store);
	assert.notEqual(after.accessToken, before.accessToken);
	assert.deepEqual(after.dpopKey, before.dpopKey, 'the refreshed tokens stay bound to the same key');
	assert.deepEqual(
		fixture.tokenResponses.map((r) => r.token_type),
		['DPoP', 'DPoP'],
	);
});

test('after a restart the stored key signs again: no sign-in, the same key thumbprint', async (t) => {
	const { fixture, store, browser, provider, connect } = await setup(t, { dpop: { rsNonce: true } });
	await (await connect()).close();
	const jkt = ecThumbprint((await storedTokens(store)).dpopKey!.jwk);
	fixture.dpopProofs.length = 0;

	// A new provider over the same store, as after a reload of VS Code (SecretStorage keeps the entry).
	const again = await connect(provider());
	await again.listTools();
	assert.equal(browser.calls, 1, 'no second sign-in');
	assert.ok(fixture.dpopProofs.length > 0);
	assert.ok(fixture.dpopProofs.every((p) => p.check.ok && p.check.jkt === jkt));
	// The new provider knows no nonce yet: one challenge, then accepted.
	assert.equal(fixture.dpopProofs.filter((p) => p.outcome === 'use_dpop_nonce').length, 1);
});

test('an authorization server that ignores the proof and answers Bearer: the token is used as a bearer token', async (t) => {
	const { fixture, store, connect } = await setup(t, { dpop: { issueBearer: true } });
	const client = await connect();
	await client.listTools();
	const tokens = await storedTokens(store);
	assert.equal(tokens.dpopKey, undefined);
	assert.ok(fixture.mcpAuthorizations.filter(Boolean).every((a) => a === `Bearer ${tokens.accessToken}`));
});

test('an authorization server that offers DPoP in front of an MCP server that says nothing of it: bearer tokens, no proofs', async (t) => {
	const { fixture, store, logger, connect } = await setup(t, { dpop: { resourceSilent: true } });
	await (await connect()).listTools();
	const tokens = await storedTokens(store);
	assert.equal(tokens.dpopKey, undefined);
	assert.deepEqual(fixture.dpopProofs, [], 'no proof was sent anywhere');
	assert.ok(fixture.mcpAuthorizations.filter(Boolean).every((a) => a === `Bearer ${tokens.accessToken}`));
	assert.equal(logger.find('does not say it takes DPoP-bound tokens').length, 1, 'the log says why');
});

const refusals: Array<[string, DPoPFixtureOptions, RegExp]> = [
	[
		'the resource requires DPoP but the authorization server signs only RS256',
		{ required: true, algs: ['RS256'] },
		/DPoP.*ES256 only.*accepts RS256/,
	],
	[
		'the resource requires DPoP but the authorization server issues Bearer tokens',
		{ required: true, issueBearer: true },
		/takes DPoP-bound tokens only.*token_type bearer/,
	],
];
for (const [title, dpop, pattern] of refusals) {
	test(`a clear error when ${title}`, async (t) => {
		const { connect } = await setup(t, { dpop });
		await assert.rejects(connect(), (error: unknown) => {
			assert.ok(error instanceof McpError);
			assert.equal(error.code, ErrorCode.Unauthorized);
			assert.match(error.message, /OAuth for fixture: /);
			assert.match(error.message, pattern);
			return true;
		});
	});
}

/** An auth provider on a DPoPProver alone, recording what the transport asked proofs for. */
async function proverAuth(token: string): Promise<{ auth: HttpAuthProvider; asked: string[] }> {
	const prover = await DPoPProver.fromStored(await generateDPoPKey(), new Map());
	const asked: string[] = [];
	const auth: HttpAuthProvider = {
		headers: async (_signal, request) => {
			asked.push(`${request!.method} ${request!.url.href}`);
			return { ...(await prover.resourceHeaders(token, request!.method, request!.url)) };
		},
		onUnauthorized: async () => false,
	};
	return { auth, asked };
}

async function roundTrip(transport: Transport, message: Record<string, unknown>): Promise<void> {
	const answered = new Promise<void>((resolve) => transport.onMessage((m) => isResponse(m) && resolve()));
	await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: message } });
	await answered;
}

test('legacy HTTP+SSE and session-less 2026-07-28 Streamable HTTP requests carry a proof for their own method and URL, without the query', async (t) => {
	const server = await HttpFaultServer.start({ sessions: false });
	t.after(() => server.close());

	const legacy = await proverAuth('legacy-token');
	const sse = new LegacySseTransport({ url: server.sseUrl, auth: legacy.auth });
	await sse.start();
	await roundTrip(sse, { text: 'over sse' });
	await sse.close();
	assert.ok(
		legacy.asked.some((a) => a.startsWith('POST ') && a.includes('?sessionId=')),
		'the POST endpoint has a query',
	);

	const modern = await proverAuth('modern-token');
	const http = new StreamableHttpTransport({ url: server.url, auth: modern.auth });
	http.setProtocolVersion('2026-07-28');
	await http.start();
	await roundTrip(http, { text: 'session-less' });
	await http.close();

	const origin = `http://127.0.0.1:${server.port}`;
	const checked = server.requests.map((r) => ({
		what: `${r.method} ${r.path}`,
		check: checkProof(r.headers.dpop as string | undefined, {
			method: r.method,
			url: `${origin}${r.path}`,
			accessToken: r.path.startsWith('/sse') ? 'legacy-token' : 'modern-token',
		}),
		authorization: r.headers.authorization,
	}));
	assert.deepEqual(
		checked.map((c) => c.what),
		['GET /sse', 'POST /sse/messages', 'POST /mcp'],
	);
	for (const c of checked) {
		assert.ok(c.check.ok, `${c.what}: ${c.check.ok ? '' : c.check.error}`);
		assert.match(c.authorization ?? '', /^DPoP (legacy|modern)-token$/);
	}
});
