// The OAuth client against a real authorization server nobody here wrote: oidc-provider (npm), in front of a
// protected MCP endpoint that introspects every token (test/fixtures/oidcServer.ts). The product's whole path runs:
// McpClient over Streamable HTTP, the OAuthProvider, the headless hooks' loopback listener for the redirect. The
// browser step is headless (test/fixtures/headlessBrowser.ts): it follows the provider's redirects with cookies and
// submits its sign-in and consent forms.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { delay } from '../../src/common/async';
import { MemoryLogger } from '../../src/common/logger';
import { McpClient } from '../../src/protocol/client';
import { ErrorCode } from '../../src/protocol/jsonrpc';
import { McpError } from '../../src/protocol/mcpError';
import { createTransport } from '../../src/protocol/transports/createTransport';
import { createHeadlessOAuthHooks } from '../../src/protocol/auth/headlessOAuthHooks';
import { MemoryTokenStore } from '../../src/protocol/auth/memoryTokenStore';
import { OAuthProvider } from '../../src/protocol/auth/oauthProvider';
import type { OAuthClientConfig, StoredTokens } from '../../src/protocol/auth/types';
import { headlessBrowser, type HeadlessBrowser } from '../fixtures/headlessBrowser';
import { startOidcFixture, type OidcFixture, type OidcFixtureOptions } from '../fixtures/oidcServer';

const NAME = 'oidc';

interface Session {
	fixture: OidcFixture;
	browser: HeadlessBrowser;
	store: MemoryTokenStore;
	logger: MemoryLogger;
	/** Connects (the first request is answered 401 and signs in) and resolves the client. */
	connect(): Promise<McpClient>;
	/** The tokens the client keeps. */
	tokens(): Promise<StoredTokens>;
}

async function session(
	t: TestContext,
	config: (f: OidcFixture) => OAuthClientConfig = () => ({}),
	options: OidcFixtureOptions = {},
): Promise<Session> {
	const fixture = await startOidcFixture(options);
	t.after(() => fixture.close());
	const browser = headlessBrowser();
	const store = new MemoryTokenStore();
	const logger = new MemoryLogger('trace');
	const hooks = createHeadlessOAuthHooks({
		store,
		openUrl: (url, signal) => browser.open(url, signal).then(() => undefined),
	});
	const auth = new OAuthProvider({ serverUrl: fixture.mcpUrl, config: config(fixture), hooks, logger, name: NAME });
	const clients: McpClient[] = [];
	t.after(() => Promise.all(clients.map((c) => c.close())));
	return {
		fixture,
		browser,
		store,
		logger,
		async connect() {
			const client = await McpClient.connect(
				createTransport({ type: 'http', url: fixture.mcpUrl }, { name: NAME, auth, logger }),
				{ name: NAME, logger },
			);
			clients.push(client);
			return client;
		},
		async tokens() {
			const key = store.keys().find((k) => k.endsWith('|tokens'));
			assert.ok(key, `tokens are stored (keys: ${store.keys().join(', ')})`);
			return JSON.parse((await store.get(key))!) as StoredTokens;
		},
	};
}

async function whoami(client: McpClient): Promise<string> {
	const result = await client.callTool('whoami', {});
	return (result.content[0] as unknown as { text: string }).text;
}

test('oidc-provider: sign-in through Dynamic Client Registration, then the tool works with the introspected token', async (t) => {
	const s = await session(t);
	const client = await s.connect();
	assert.deepEqual(
		(await client.listTools()).map((tool) => tool.name),
		['whoami'],
	);
	assert.equal(s.fixture.registrations.length, 1, 'one client registered at the provider');
	assert.equal(await whoami(client), `sub=alice client=${s.fixture.registrations[0]} scope=mcp:tools`);
	assert.deepEqual(s.fixture.interactions, ['login alice', 'consent'], 'the user signed in and allowed access once');
	assert.deepEqual(s.fixture.grants, ['authorization_code']);
	assert.equal(s.fixture.mcpChecks[0], 'none', 'the first request carried no token and was answered 401');
	assert.ok(s.fixture.mcpChecks.slice(1).every((c) => c === 'ok'));
	assert.equal(s.browser.opened.length, 1);
});

test('oidc-provider: a pre-registered client with client_secret_basic (hyphenated id, secret that needs encoding)', async (t) => {
	const s = await session(t, (f) => ({ clientId: f.basicClient.clientId, clientSecret: f.basicClient.clientSecret }));
	const client = await s.connect();
	assert.equal(await whoami(client), 'sub=alice client=pre-registered-client scope=mcp:tools');
	assert.deepEqual(s.fixture.registrations, [], 'a configured client registers nothing');
	assert.deepEqual(s.fixture.grants, ['authorization_code']);
	assert.deepEqual(s.fixture.grantErrors, []);
	assert.equal(s.logger.find(s.fixture.basicClient.clientSecret!).length, 0, 'the secret is never logged');
});

test('oidc-provider: a pre-registered client with private_key_jwt (ES256 assertion checked against the registered key)', async (t) => {
	const s = await session(t, (f) => ({ clientId: f.keyClient.clientId, privateKey: f.keyClient.privateKeyPem }));
	const client = await s.connect();
	assert.equal(await whoami(client), 'sub=alice client=key-client scope=mcp:tools');
	assert.deepEqual(s.fixture.registrations, []);
	assert.deepEqual(s.fixture.grants, ['authorization_code']);
	assert.ok(!s.logger.entries.some((e) => e.message.includes('PRIVATE KEY')), 'the key is never logged');
});

test('oidc-provider: an expired access token is refreshed with the refresh grant; the new token works, nobody signs in again', async (t) => {
	// A 2 s token: dead at the provider after 2 s (introspection says inactive); the client refreshes before that.
	const s = await session(t, () => ({}), { accessTokenTtl: 2 });
	const client = await s.connect();
	assert.match(await whoami(client), /^sub=alice /);
	const before = await s.tokens();
	await delay(2200);
	assert.match(await whoami(client), /^sub=alice /);
	const after = await s.tokens();
	assert.deepEqual(s.fixture.grants, ['authorization_code', 'refresh_token']);
	assert.notEqual(after.accessToken, before.accessToken, 'a new access token');
	assert.deepEqual(s.fixture.interactions, ['login alice', 'consent'], 'no second sign-in');
	assert.equal(s.browser.opened.length, 1);
	assert.ok(
		!s.fixture.mcpChecks.includes('inactive'),
		`the expired token was never sent (${s.fixture.mcpChecks.join(' ')})`,
	);
});

test('oidc-provider: an access token that the provider ended early is refused by the MCP server; the client refreshes and the call goes through', async (t) => {
	const s = await session(t);
	const client = await s.connect();
	const { accessToken } = await s.tokens();
	await s.fixture.endAccessToken(accessToken);
	assert.match(await whoami(client), /^sub=alice /);
	assert.ok(s.fixture.mcpChecks.includes('inactive'), 'the ended token was refused (401)');
	assert.deepEqual(s.fixture.grants, ['authorization_code', 'refresh_token']);
	assert.notEqual((await s.tokens()).accessToken, accessToken);
	assert.equal(s.browser.opened.length, 1, 'no second sign-in');
});

for (const which of ['access_token', 'refresh_token'] as const) {
	test(`oidc-provider: ${which === 'access_token' ? 'an access token' : 'a refresh token'} revoked at the revocation endpoint ends the grant's tokens; the refresh is refused and the user signs in again`, async (t) => {
		const s = await session(t);
		const client = await s.connect();
		const { refreshToken, accessToken } = await s.tokens();
		assert.ok(refreshToken, 'the provider issued a refresh token');
		await s.fixture.revoke(which === 'access_token' ? accessToken : refreshToken, which);
		assert.match(await whoami(client), /^sub=alice /);
		assert.ok(s.fixture.mcpChecks.includes('inactive'), 'the MCP server refused the old access token');
		assert.deepEqual(s.fixture.grantErrors, ['invalid_grant'], 'the refresh was refused');
		assert.deepEqual(
			s.fixture.grants,
			['authorization_code', 'authorization_code'],
			'a new authorization code, no successful refresh',
		);
		assert.equal(s.browser.opened.length, 2, 'the browser was opened again');
		// The provider's session cookie still names the user; only the consent (the grant) is asked again when it was destroyed.
		assert.equal(s.fixture.interactions.filter((i) => i.startsWith('login')).length, 1);
		assert.notEqual((await s.tokens()).accessToken, accessToken);
		const refused = s.logger.find('refresh at');
		assert.equal(refused.length, 1);
		assert.match(
			refused[0]!.message,
			/^OAuth for oidc: refresh at http:\/\/127\.0\.0\.1:\d+\/token failed: 400 invalid_grant/,
		);
		for (const entry of s.logger.entries) {
			assert.ok(
				!entry.message.includes(refreshToken) && !entry.message.includes(accessToken),
				`a token leaked into: ${entry.message}`,
			);
		}
	});
}

test('oidc-provider: a revoked sign-in while nobody can sign in fails with one message naming the server and what to do', async (t) => {
	const fixture = await startOidcFixture();
	t.after(() => fixture.close());
	const browser = headlessBrowser();
	let browserAllowed = true;
	const store = new MemoryTokenStore();
	const auth = new OAuthProvider({
		serverUrl: fixture.mcpUrl,
		config: {},
		name: NAME,
		hooks: createHeadlessOAuthHooks({
			store,
			openUrl: async (url, signal) => {
				if (!browserAllowed) throw new Error('sign-in needed: click the server or use Start to sign in');
				await browser.open(url, signal);
			},
		}),
	});
	const client = await McpClient.connect(createTransport({ type: 'http', url: fixture.mcpUrl }, { name: NAME, auth }), {
		name: NAME,
	});
	t.after(() => client.close());
	const tokens = JSON.parse((await store.get(store.keys().find((k) => k.endsWith('|tokens'))!))!) as StoredTokens;
	await fixture.revoke(tokens.refreshToken!, 'refresh_token');
	browserAllowed = false;
	await assert.rejects(client.callTool('whoami', {}), (error: unknown) => {
		assert.ok(error instanceof McpError);
		assert.equal(error.code, ErrorCode.Unauthorized);
		assert.match(error.message, /^OAuth for oidc: /);
		assert.equal(
			error.message,
			'OAuth for oidc: authorization in the browser failed: sign-in needed: click the server or use Start to sign in ' +
				'(the authorization server no longer accepts the stored sign-in: its refresh answered 400 invalid_grant (grant request is invalid); sign in again)',
		);
		assert.ok(!error.message.includes(tokens.refreshToken!) && !error.message.includes(tokens.accessToken));
		return true;
	});
});
