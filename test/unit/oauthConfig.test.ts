// The `oauth` block of a server's settings: every field the grants need, bad values named with server and field,
// and a server that sends its own Authorization header never getting an OAuth sign-in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nullLogger } from '../../src/common/logger';
import { parseServer } from '../../src/manager/config';
import { oauthFor } from '../../src/manager/defaultConnector';
import type { ConnectRequest } from '../../src/manager/serverConnection';
import type { ServerConfig } from '../../src/manager/types';
import { MemoryTokenStore } from '../../src/protocol/auth/memoryTokenStore';

function parseOAuth(oauth: unknown): { config: ServerConfig | undefined; problems: string[] } {
	const problems: string[] = [];
	const entry = parseServer(
		'billing',
		{ url: 'https://mcp.example.com/mcp', oauth },
		{ kind: 'user', label: 'User settings' },
		false,
		problems,
	);
	return { config: entry?.config, problems };
}

test('oauth settings: client credentials with a private key file, enterprise IdP fields and an assertion are kept', () => {
	const enterprise = {
		idpTokenEndpoint: 'https://idp.example.com/token',
		idpClientId: 'switchboard',
		idToken: '${input:idp-id-token}',
		idpClientSecret: '${input:idp-secret}',
	};
	const settings = {
		grant: 'client_credentials',
		clientId: 'svc',
		privateKeyFile: '${userHome}/.keys/svc.pem',
		signingAlgorithm: 'ES256',
		tokenEndpointAuthMethod: 'private_key_jwt',
		assertion: '${input:jwt}',
		enterprise,
	};
	const { config, problems } = parseOAuth(settings);
	assert.deepEqual(problems, []);
	assert.ok(config && config.type !== 'stdio');
	assert.deepEqual(config.oauth, settings, 'every field is kept as written');
});

test('oauth settings: a wrong grant, method or enterprise block is named with the server and field; the rest applies', () => {
	const { config, problems } = parseOAuth({
		grant: 'password',
		tokenEndpointAuthMethod: 'tls',
		enterprise: { idpClientId: 'x' },
		clientId: 'app',
		scopes: 'read write',
	});
	assert.equal(problems.length, 3, problems.join('\n'));
	assert.match(
		problems[0]!,
		/billing.*"oauth\.tokenEndpointAuthMethod" must be "none", "client_secret_basic", "client_secret_post" or "private_key_jwt"/,
	);
	assert.match(
		problems[1]!,
		/billing.*"oauth\.grant" must be "authorization_code", "client_credentials" or "jwt_bearer"/,
	);
	assert.match(
		problems[2]!,
		/billing.*"oauth\.enterprise" must be an object with the strings idpTokenEndpoint, idpClientId and idToken/,
	);
	assert.ok(config && config.type !== 'stdio');
	assert.deepEqual(config.oauth, { clientId: 'app', scopes: ['read', 'write'] });
});

test('oauth settings: client_credentials without a client id is a problem naming the field', () => {
	const { problems } = parseOAuth({ grant: 'client_credentials' });
	assert.equal(problems.length, 1);
	assert.match(problems[0]!, /billing.*"oauth\.grant" client_credentials needs "oauth\.clientId"/);
});

function request(config: ServerConfig): ConnectRequest {
	return {
		name: 'billing',
		config,
		handlers: {},
		logger: nullLogger,
		timeoutMs: 1000,
		signal: new AbortController().signal,
		holdTimeout: () => () => {},
	} as unknown as ConnectRequest;
}

test('a server whose headers carry Authorization gets no OAuth provider (a 401 never opens a sign-in); others do', () => {
	const hooks = {
		store: new MemoryTokenStore(),
		openAuthorizationUrl: () => Promise.reject(new Error('must not open')),
	};
	const providerFor = oauthFor({ oauth: () => hooks } as never);
	assert.equal(
		providerFor(
			request({ type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${input:key}' } }),
		),
		undefined,
	);
	assert.equal(
		providerFor(request({ type: 'http', url: 'https://mcp.example.com/mcp', headers: { authorization: 'Basic abc' } })),
		undefined,
	);
	assert.notEqual(
		providerFor(request({ type: 'http', url: 'https://mcp.example.com/mcp', headers: { 'X-Api-Version': '2' } })),
		undefined,
	);
	assert.notEqual(providerFor(request({ type: 'http', url: 'https://mcp.example.com/mcp' })), undefined);
});
