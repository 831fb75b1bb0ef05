import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
	authorizationServerMetadataUrls,
	canonicalResourceUri,
	isLoopbackUrl,
} from '../../src/protocol/auth/discovery';

test('canonical resource URI: lower-case host, no fragment, no trailing slash on a bare origin, path kept', () => {
	assert.equal(canonicalResourceUri('HTTPS://MCP.Example.com/'), 'https://mcp.example.com');
	assert.equal(canonicalResourceUri('https://mcp.example.com'), 'https://mcp.example.com');
	assert.equal(
		canonicalResourceUri('https://mcp.example.com:8443/server/mcp#frag'),
		'https://mcp.example.com:8443/server/mcp',
	);
	assert.equal(canonicalResourceUri('https://mcp.example.com:443/mcp'), 'https://mcp.example.com/mcp');
	assert.equal(canonicalResourceUri('https://mcp.example.com/mcp/'), 'https://mcp.example.com/mcp/');
});

test('authorization server metadata URLs for an issuer with a path: the spec order (RFC 8414 path-aware, OIDC inserted, OIDC appended), the root RFC 8414 URL only last', () => {
	assert.deepEqual(authorizationServerMetadataUrls('https://auth.example.com/tenant1'), [
		'https://auth.example.com/.well-known/oauth-authorization-server/tenant1',
		'https://auth.example.com/.well-known/openid-configuration/tenant1',
		'https://auth.example.com/tenant1/.well-known/openid-configuration',
		'https://auth.example.com/.well-known/oauth-authorization-server',
	]);
});

test('authorization server metadata URLs for an issuer without a path: RFC 8414 then OIDC', () => {
	assert.deepEqual(authorizationServerMetadataUrls('https://auth.example.com/'), [
		'https://auth.example.com/.well-known/oauth-authorization-server',
		'https://auth.example.com/.well-known/openid-configuration',
	]);
});

test('only loopback hosts count as loopback (plain http is refused elsewhere)', () => {
	assert.equal(isLoopbackUrl(new URL('http://127.0.0.1:8080/token')), true);
	assert.equal(isLoopbackUrl(new URL('http://localhost/token')), true);
	assert.equal(isLoopbackUrl(new URL('http://[::1]:9/token')), true);
	assert.equal(isLoopbackUrl(new URL('http://127.example.com/token')), false);
	assert.equal(isLoopbackUrl(new URL('http://10.0.0.1/token')), false);
});
