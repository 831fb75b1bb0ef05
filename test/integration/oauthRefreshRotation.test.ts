// Refresh-token rotation with two OAuth providers sharing one token store (two windows of VS Code share
// SecretStorage; issue 11 item 4). The fixture authorization server rotates refresh tokens: each use returns a new
// one and revokes the old, as OAuth 2.1 section 4.3.1 recommends for public clients.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { delay } from '../../src/common/async';
import { MemoryLogger } from '../../src/common/logger';
import { MemoryTokenStore } from '../../src/protocol/auth/memoryTokenStore';
import { OAuthProvider } from '../../src/protocol/auth/oauthProvider';
import type { StoredTokens } from '../../src/protocol/auth/types';
import { fakeBrowser, startAuthFixture, type AuthFixture } from '../fixtures/authServer';

interface Pair {
	fixture: AuthFixture;
	store: MemoryTokenStore;
	browser: ReturnType<typeof fakeBrowser>;
	provider(): OAuthProvider;
}

/** A fixture with 2 s access tokens, signed in once through a first provider; `provider()` makes more on the same store. */
async function signedIn(t: TestContext): Promise<Pair> {
	const fixture = await startAuthFixture({ accessTokenTtl: 2 });
	t.after(() => fixture.close());
	const store = new MemoryTokenStore();
	const browser = fakeBrowser();
	const provider = () =>
		new OAuthProvider({
			serverUrl: fixture.mcpUrl,
			config: {},
			hooks: { store, openAuthorizationUrl: browser.open },
			logger: new MemoryLogger('trace'),
			name: 'fixture',
		});
	const first = provider();
	const response = await fetch(fixture.mcpUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: ping(),
	});
	assert.equal(response.status, 401);
	assert.equal(
		await first.onUnauthorized({
			status: 401,
			wwwAuthenticate: response.headers.get('www-authenticate') ?? undefined,
			url: fixture.mcpUrl,
		}),
		true,
	);
	assert.equal(browser.calls, 1);
	return { fixture, store, browser, provider };
}

function ping(): string {
	return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
}

async function storedTokens(store: MemoryTokenStore): Promise<StoredTokens | undefined> {
	const key = store.keys().find((k) => k.endsWith('|tokens'));
	const raw = key ? await store.get(key) : undefined;
	return raw ? (JSON.parse(raw) as StoredTokens) : undefined;
}

async function accepted(fixture: AuthFixture, headers: Record<string, string>): Promise<boolean> {
	const response = await fetch(fixture.mcpUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: ping(),
	});
	await response.body?.cancel();
	return response.status === 200;
}

test('a provider with a stale copy does not delete the tokens another provider just rotated', async (t) => {
	const s = await signedIn(t);
	// Both windows load the same tokens, then the access token expires (2 s tokens count as expired after 1 s).
	const a = s.provider();
	const b = s.provider();
	assert.equal(await a.hasTokens(), true);
	assert.equal(await b.hasTokens(), true);
	await delay(1100);

	// Window A refreshes first: the server rotates the refresh token and revokes the old one.
	const fromA = await a.headers();
	assert.equal(await accepted(s.fixture, fromA), true);
	const rotated = await storedTokens(s.store);
	assert.ok(rotated?.refreshToken);

	// Window B still holds the old refresh token. It must take A's tokens from the store, not send its stale
	// refresh token (which the server refuses) and then delete A's fresh tokens.
	const fromB = await b.headers();
	assert.equal(await accepted(s.fixture, fromB), true, 'window B has a working token');
	assert.deepEqual(await storedTokens(s.store), rotated, 'the rotated tokens are still stored');
	assert.deepEqual(
		s.fixture.tokenRequests.map((r) => r.grantType),
		['authorization_code', 'refresh_token'],
		'one refresh: B used what A obtained',
	);
	assert.equal(s.browser.calls, 1, 'nobody was asked to sign in again');
});

test('two providers refreshing at the same moment send the rotating refresh token once', async (t) => {
	const s = await signedIn(t);
	const a = s.provider();
	const b = s.provider();
	await Promise.all([a.hasTokens(), b.hasTokens()]);
	await delay(1100);

	const [fromA, fromB] = await Promise.all([a.headers(), b.headers()]);
	assert.equal(await accepted(s.fixture, fromA), true);
	assert.equal(await accepted(s.fixture, fromB), true);
	assert.equal(s.fixture.tokenRequests.filter((r) => r.grantType === 'refresh_token').length, 1);
	assert.ok((await storedTokens(s.store))?.refreshToken, 'tokens are still stored');
	assert.equal(s.browser.calls, 1);
});

test('a 401 in a window with a stale token adopts the token another window refreshed', async (t) => {
	const s = await signedIn(t);
	const a = s.provider();
	const b = s.provider();
	await Promise.all([a.hasTokens(), b.hasTokens()]);
	const stale = await b.headers();
	// The server revokes the access tokens; window A meets it first and refreshes.
	s.fixture.expireAccessTokens();
	const first = await fetch(s.fixture.mcpUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...(await a.headers()) },
		body: ping(),
	});
	assert.equal(first.status, 401);
	assert.equal(
		await a.onUnauthorized({
			status: 401,
			wwwAuthenticate: first.headers.get('www-authenticate') ?? undefined,
			url: s.fixture.mcpUrl,
		}),
		true,
	);
	// Window B's request with the old token is refused: it retries with A's token, without a refresh of its own.
	assert.equal(await accepted(s.fixture, stale), false);
	assert.equal(
		await b.onUnauthorized({
			status: 401,
			wwwAuthenticate: first.headers.get('www-authenticate') ?? undefined,
			url: s.fixture.mcpUrl,
		}),
		true,
	);
	assert.equal(await accepted(s.fixture, await b.headers()), true);
	assert.equal(s.fixture.tokenRequests.filter((r) => r.grantType === 'refresh_token').length, 1);
	assert.equal(s.browser.calls, 1);
});

test('a refresh token the server refused is deleted when it is still the stored one', async (t) => {
	const s = await signedIn(t);
	const a = s.provider();
	await a.hasTokens();
	await delay(1100);
	s.fixture.revokeRefreshTokens();
	assert.deepEqual(await a.headers(), {}, 'no usable token: the next 401 signs in again');
	assert.equal(await storedTokens(s.store), undefined, 'the refused tokens are gone from the store');
});
