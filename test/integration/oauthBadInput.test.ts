// Authorization servers that answer badly (issue 13, "Bad input"): each case gives one message that names the server
// and the step that failed, with the cause, and no token, code, verifier, secret or assertion in it or in the log.
// Through the product's path (McpClient over Streamable HTTP with the OAuthProvider) against our fixture
// authorization server with faults (test/fixtures/authServer.ts), the real oidc-provider where a real one can show
// the case (the user cancelling), and the Manager (the failed server waits with the step; the others keep running).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLogger } from '../../src/common/logger';
import type { ResolvedServer } from '../../src/manager/manager';
import { McpClient } from '../../src/protocol/client';
import { ErrorCode } from '../../src/protocol/jsonrpc';
import { McpError } from '../../src/protocol/mcpError';
import { createTransport } from '../../src/protocol/transports/createTransport';
import { createHeadlessOAuthHooks } from '../../src/protocol/auth/headlessOAuthHooks';
import { MemoryTokenStore } from '../../src/protocol/auth/memoryTokenStore';
import { OAuthProvider } from '../../src/protocol/auth/oauthProvider';
import { SignInRequiredError, type OAuthClientConfig, type OAuthHostHooks } from '../../src/protocol/auth/types';
import { fakeBrowser, startAuthFixture, type AuthFixture, type AuthFixtureOptions } from '../fixtures/authServer';
import { headlessBrowser } from '../fixtures/headlessBrowser';
import { managerWithOAuth } from '../fixtures/oauthManager';
import { startOidcFixture } from '../fixtures/oidcServer';

const NAME = 'bad-as';

interface Failure {
	error: McpError;
	logger: MemoryLogger;
	fixture: AuthFixture;
	browserCalls: number;
}

/** Connects to the fixture's MCP endpoint through the product's client; resolves the McpError the connect fails with. */
async function failedConnect(
	t: TestContext,
	options: AuthFixtureOptions,
	extra: { config?: OAuthClientConfig; requestTimeoutMs?: number } = {},
): Promise<Failure> {
	const fixture = await startAuthFixture(options);
	t.after(() => fixture.close());
	const logger = new MemoryLogger('trace');
	const browser = fakeBrowser();
	const auth = new OAuthProvider({
		serverUrl: fixture.mcpUrl,
		config: extra.config ?? {},
		name: NAME,
		logger,
		requestTimeoutMs: extra.requestTimeoutMs,
		hooks: { store: new MemoryTokenStore(), openAuthorizationUrl: browser.open },
	});
	try {
		const client = await McpClient.connect(
			createTransport({ type: 'http', url: fixture.mcpUrl }, { name: NAME, auth, logger }),
			{ name: NAME, logger },
		);
		await client.close();
	} catch (error) {
		assert.ok(error instanceof McpError, `an McpError, not ${String(error)}`);
		assert.equal(error.code, ErrorCode.Unauthorized);
		return { error, logger, fixture, browserCalls: browser.calls };
	}
	assert.fail('the connect was expected to fail');
}

/** Every value a log or message must never show: codes, verifiers, states, challenges, tokens, secrets sent or seen. */
function secretsOf(fixture: AuthFixture, extra: string[] = []): string[] {
	return [
		...fixture.tokenRequests.flatMap((r) => [
			r.params.code,
			r.params.code_verifier,
			r.params.refresh_token,
			r.params.client_secret,
			r.params.client_assertion,
		]),
		...fixture.authorizeRequests.flatMap((q) => [q.get('state'), q.get('code_challenge')]),
		...extra,
	].filter((v): v is string => typeof v === 'string' && v.length > 0);
}

/** The message names the server and the step, says why, and neither it nor the log holds any of `secrets`. */
function assertOneClearMessage(failure: Failure, step: RegExp, reason: RegExp, secrets: string[]): void {
	const { error, logger } = failure;
	const data = error.data as { step: string; reason: string };
	assert.match(data.step, step);
	assert.match(data.reason, reason);
	assert.equal(
		error.message,
		`OAuth for ${NAME}: ${data.step} failed: ${data.reason}`,
		'one message: server, step, cause',
	);
	assert.equal(logger.find(error.message).length, 1, 'the failure is logged once, as shown');
	for (const secret of secrets) {
		assert.ok(!error.message.includes(secret), `a secret is in the message: ${error.message}`);
		for (const entry of logger.entries)
			assert.ok(!entry.message.includes(secret), `a secret leaked into the log: ${entry.message}`);
	}
}

test('the token endpoint answers an HTML page: "answered HTML, not JSON" at the token request', async (t) => {
	const failure = await failedConnect(t, { faults: { token: 'html' } });
	const secrets = secretsOf(failure.fixture);
	assert.ok(secrets.length >= 4, 'a code, a verifier, a state and a challenge went over the wire');
	assertOneClearMessage(
		failure,
		/^token request to http:\/\/127\.0\.0\.1:\d+\/tenant\/token$/,
		/^the authorization server answered HTML, not JSON \(HTTP 200 text\/html\)$/,
		secrets,
	);
});

test('the token endpoint answers cut-off JSON: "invalid JSON" with its size, never the body (it holds a token)', async (t) => {
	const failure = await failedConnect(t, { faults: { token: 'invalid-json' } });
	assertOneClearMessage(
		failure,
		/^token request to /,
		/^the authorization server answered invalid JSON \(HTTP 200 application\/json, 55 bytes\)$/,
		[...secretsOf(failure.fixture), 'cut-off-secret-token'],
	);
});

test('the registration endpoint answers HTML: named as the client registration, before any browser opens', async (t) => {
	const failure = await failedConnect(t, { faults: { register: 'html' } });
	assertOneClearMessage(
		failure,
		/^client registration at http:\/\/127\.0\.0\.1:\d+\/tenant\/register$/,
		/^the authorization server answered HTML, not JSON \(HTTP 200 text\/html\)$/,
		[],
	);
	assert.equal(failure.browserCalls, 0);
});

test('the metadata URL answers an HTML page (a web app catch-all): discovery lists what each URL answered', async (t) => {
	const failure = await failedConnect(t, { faults: { asMetadata: 'html' } });
	assertOneClearMessage(
		failure,
		/^authorization server metadata discovery$/,
		/oauth-authorization-server\/tenant \(HTTP 200 text\/html: HTML, not JSON\), .*openid-configuration\/tenant \(404\)/,
		[],
	);
	assert.equal(failure.browserCalls, 0);
});

test('metadata with a wrong issuer is refused: both issuers named, no browser, no token request', async (t) => {
	const failure = await failedConnect(t, { metadataIssuer: 'https://elsewhere.example' });
	assertOneClearMessage(
		failure,
		/^authorization server metadata$/,
		/names issuer https:\/\/elsewhere\.example, expected http:\/\/127\.0\.0\.1:\d+\/tenant$/,
		[],
	);
	assert.equal(failure.browserCalls, 0);
	assert.equal(failure.fixture.tokenRequests.length, 0);
});

test('a redirect from another issuer (RFC 9207 iss) is refused before the code is used', async (t) => {
	const failure = await failedConnect(t, { redirectIss: 'https://elsewhere.example' });
	assertOneClearMessage(
		failure,
		/^authorization$/,
		/^the redirect came from issuer https:\/\/elsewhere\.example, not http:\/\/127\.0\.0\.1:\d+\/tenant \(RFC 9207/,
		secretsOf(failure.fixture),
	);
	assert.equal(failure.fixture.tokenRequests.length, 0, 'the code was not sent anywhere');
});

test('unsupported_grant_type: the OAuth error, its description and what it means', async (t) => {
	const failure = await failedConnect(t, { tokenError: 'unsupported_grant_type' });
	assertOneClearMessage(
		failure,
		/^token request to /,
		/^400 unsupported_grant_type \(the fixture refuses this code\): the authorization server does not support this grant type$/,
		secretsOf(failure.fixture),
	);
});

test('a token endpoint that never answers: the request gives up and says how long it waited', async (t) => {
	// The limit holds for every OAuth request: at 0.3 s, discovery itself ran out at a load average of 20 (CI). Three
	// seconds is far above a loopback answer and still far below the default.
	const failure = await failedConnect(t, { faults: { token: 'hang' } }, { requestTimeoutMs: 3000 });
	assertOneClearMessage(failure, /^token request to /, /^no answer within 3 s$/, secretsOf(failure.fixture));
});

test('a pre-registered client refused at the token endpoint: invalid_client, and the secret appears nowhere', async (t) => {
	const secret = 'wrong-secret-value';
	const failure = await failedConnect(
		t,
		{ clients: [{ clientId: 'pre-1', clientSecret: 'right-secret', method: 'client_secret_basic' }] },
		{ config: { clientId: 'pre-1', clientSecret: secret } },
	);
	assertOneClearMessage(
		failure,
		/^token request to /,
		/^401 invalid_client \(client authentication failed.*\): the authorization server did not accept the client/,
		[...secretsOf(failure.fixture), secret, 'right-secret'],
	);
});

// --- the browser step, against oidc-provider ----------------------------------------------------------------------

async function oidcFailure(
	t: TestContext,
	openUrl: (url: string, signal: AbortSignal) => Promise<void>,
	authorizationTimeoutMs?: number,
): Promise<{ error: McpError; logger: MemoryLogger }> {
	const fixture = await startOidcFixture();
	t.after(() => fixture.close());
	const logger = new MemoryLogger('trace');
	const auth = new OAuthProvider({
		serverUrl: fixture.mcpUrl,
		config: {},
		name: NAME,
		logger,
		authorizationTimeoutMs,
		hooks: createHeadlessOAuthHooks({ openUrl }),
	});
	const error = await McpClient.connect(createTransport({ type: 'http', url: fixture.mcpUrl }, { name: NAME, auth }), {
		name: NAME,
	}).then(
		() => assert.fail('expected the sign-in to fail'),
		(e: unknown) => e,
	);
	assert.ok(error instanceof McpError && error.code === ErrorCode.Unauthorized, String(error));
	return { error, logger };
}

test('oidc-provider: the user presses Cancel on the consent page: access_denied at the authorization step', async (t) => {
	const browser = headlessBrowser({ decision: 'deny' });
	const { error, logger } = await oidcFailure(t, (url, signal) => browser.open(url, signal).then(() => undefined));
	assert.equal((error.data as { step: string }).step, 'authorization');
	assert.equal(
		error.message,
		`OAuth for ${NAME}: authorization failed: the authorization server answered access_denied (the user cancelled the sign-in)`,
	);
	assert.equal(logger.find(error.message).length, 1);
});

test('oidc-provider: the user closes the browser tab (never comes back): the sign-in times out with that reason', async (t) => {
	let shown = 0;
	const { error } = await oidcFailure(
		t,
		async () => {
			shown++; // The page was shown; the person closes the tab and nothing comes back.
		},
		400,
	);
	assert.equal(shown, 1);
	assert.equal(
		error.message,
		`OAuth for ${NAME}: authorization in the browser failed: no answer from the browser within 400 ms`,
	);
	assert.deepEqual(error.data, {
		step: 'authorization in the browser',
		reason: 'no answer from the browser within 400 ms',
	});
});

// --- the Manager: the failed server keeps its step; the others run --------------------------------------------------

test('Manager: a server whose sign-in fails waits in an error that names the step; a second server keeps running', async (t) => {
	const bad = await startAuthFixture({ faults: { token: 'html' } });
	const good = await startAuthFixture();
	t.after(() => Promise.all([bad.close(), good.close()]));
	const store = new MemoryTokenStore();
	const hooks: OAuthHostHooks = { store, openAuthorizationUrl: fakeBrowser().open };
	const { manager, logs } = managerWithOAuth(t, hooks);
	const server = (name: string, url: string): ResolvedServer => ({
		name,
		config: { type: 'http', url },
		source: { kind: 'user', label: 'User settings' },
		workspaceDefined: false,
	});
	await manager.reconcile([server('bad', bad.mcpUrl), server('good', good.mcpUrl)]);
	const deadline = Date.now() + 15_000;
	while (
		Date.now() < deadline &&
		(manager.get('bad')?.state.kind !== 'error' || manager.get('good')?.state.kind !== 'running')
	) {
		await new Promise((r) => setTimeout(r, 20));
	}
	const state = manager.get('bad')?.state;
	assert.ok(state?.kind === 'error', `bad is ${state?.kind}`);
	assert.deepEqual(state.signIn && Object.keys(state.signIn), ['step', 'reason']);
	assert.match(state.signIn!.step, /^token request to http:\/\/127\.0\.0\.1:\d+\/tenant\/token$/);
	assert.equal(state.signIn!.reason, 'the authorization server answered HTML, not JSON (HTTP 200 text/html)');
	assert.equal(state.message, `OAuth for bad: ${state.signIn!.step} failed: ${state.signIn!.reason}`);
	assert.equal(state.retryAt, undefined, "a failed sign-in is not retried behind the user's back");
	assert.equal(manager.get('good')?.state.kind, 'running', 'the other server runs');
	const result = await manager.callTool('good', 'whoami', {});
	assert.match((result.content[0] as unknown as { text: string }).text, /^client=dcr-/);
	for (const secret of secretsOf(bad)) {
		for (const entry of logs.get('bad')!.entries)
			assert.ok(!entry.message.includes(secret), `a secret leaked into: ${entry.message}`);
	}
});

test('Manager: a sign-in nobody asked for is the needsSignIn state, whatever its message says; Start with a browser runs it', async (t) => {
	const auth = await startAuthFixture();
	t.after(() => auth.close());
	const store = new MemoryTokenStore();
	const browser = fakeBrowser();
	let interactive = false;
	// The edge's rule: an automatic start opens no browser; the hook says so with SignInRequiredError (any wording).
	const hooks: OAuthHostHooks = {
		store,
		openAuthorizationUrl: (url, redirectUri, signal) => {
			if (!interactive) throw new SignInRequiredError('reworded: please sign in');
			return browser.open(url, redirectUri, signal);
		},
	};
	const { manager } = managerWithOAuth(t, hooks);
	await manager.reconcile([
		{
			name: 'remote',
			config: { type: 'http', url: auth.mcpUrl },
			source: { kind: 'user', label: 'User settings' },
			workspaceDefined: false,
		},
	]);
	const deadline = Date.now() + 15_000;
	while (Date.now() < deadline && manager.get('remote')?.state.kind === 'starting') {
		await new Promise((r) => setTimeout(r, 20));
	}
	const state = manager.get('remote')?.state;
	assert.equal(state?.kind, 'needsSignIn', `remote is ${JSON.stringify(state && { ...state, client: undefined })}`);
	assert.match(state.message, /reworded: please sign in/);
	interactive = true;
	await manager.start('remote');
	assert.equal(manager.get('remote')?.state.kind, 'running');
});
