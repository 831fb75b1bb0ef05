// End to end: McpClient over the Streamable HTTP transport with the OAuth client, against our protected fixture.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { McpClient } from '../../src/protocol/client';
import { ErrorCode } from '../../src/protocol/jsonrpc';
import { McpError } from '../../src/protocol/mcpError';
import { createTransport } from '../../src/protocol/transports/createTransport';
import { MemoryTokenStore } from '../../src/protocol/auth/memoryTokenStore';
import { OAuthProvider } from '../../src/protocol/auth/oauthProvider';
import { fakeBrowser, startAuthFixture } from '../fixtures/authServer';

test('Streamable HTTP: 401 until authorized, then tools work; a 401 mid-session refreshes without the user', async (t) => {
	const fixture = await startAuthFixture({ toolScopes: { admin: 'mcp:admin' } });
	t.after(() => fixture.close());
	const browser = fakeBrowser();
	const auth = new OAuthProvider({
		serverUrl: fixture.mcpUrl,
		config: {},
		hooks: { store: new MemoryTokenStore(), openAuthorizationUrl: browser.open },
		name: 'fixture',
	});
	const client = await McpClient.connect(
		createTransport({ type: 'http', url: fixture.mcpUrl }, { name: 'fixture', auth }),
		{ name: 'fixture' },
	);
	t.after(() => client.close());

	// The very first request (initialize) was answered 401 and went through the whole flow.
	assert.equal(fixture.mcpAuthorizations[0], '');
	assert.equal(browser.calls, 1);
	const tools = await client.listTools();
	assert.deepEqual(
		tools.map((tool) => tool.name),
		['whoami', 'admin'],
	);

	// The server forgets every access token: the next call is refreshed and retried, the user is not asked.
	fixture.expireAccessTokens();
	const result = await client.callTool('whoami', {});
	assert.match(JSON.stringify(result.content), /client=dcr-/);
	assert.equal(browser.calls, 1);
	assert.deepEqual(
		fixture.tokenRequests.map((r) => r.grantType),
		['authorization_code', 'refresh_token'],
	);

	// Step-up: the admin tool needs another scope; the user is asked once and the call goes through.
	const admin = await client.callTool('admin', {});
	assert.match(JSON.stringify(admin.content), /mcp:admin/);
	assert.equal(browser.calls, 2);
});

test('Streamable HTTP: an OAuth failure reaches the caller with the step that failed', async (t) => {
	const fixture = await startAuthFixture({ pkceMethods: ['plain'] });
	t.after(() => fixture.close());
	const auth = new OAuthProvider({
		serverUrl: fixture.mcpUrl,
		config: {},
		hooks: { store: new MemoryTokenStore(), openAuthorizationUrl: fakeBrowser().open },
		name: 'fixture',
	});
	await assert.rejects(
		McpClient.connect(createTransport({ type: 'http', url: fixture.mcpUrl }, { name: 'fixture', auth }), {
			name: 'fixture',
		}),
		(error: unknown) => {
			assert.ok(error instanceof McpError);
			assert.equal(error.code, ErrorCode.Unauthorized);
			assert.match(error.message, /does not advertise PKCE S256/);
			return true;
		},
	);
});
