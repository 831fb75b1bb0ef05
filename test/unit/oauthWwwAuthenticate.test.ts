import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearerChallenge, parseWwwAuthenticate } from '../../src/protocol/auth/wwwAuthenticate';

test('a Bearer challenge with quoted parameters, including commas and escapes inside quotes', () => {
	const header =
		'Bearer realm="mcp, prod", error="insufficient_scope", scope="files:read files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", error_description="needs \\"write\\""';
	assert.deepEqual(bearerChallenge(header), {
		realm: 'mcp, prod',
		error: 'insufficient_scope',
		scope: 'files:read files:write',
		resource_metadata: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
		error_description: 'needs "write"',
	});
});

test('several challenges: the Bearer one is found after a Basic one with a token68-free realm', () => {
	const challenges = parseWwwAuthenticate(
		'Basic realm="legacy", Bearer scope=mcp:read,resource_metadata="https://a.example/prm"',
	);
	assert.deepEqual(
		challenges.map((c) => c.scheme),
		['basic', 'bearer'],
	);
	assert.deepEqual(challenges[1]?.params, { scope: 'mcp:read', resource_metadata: 'https://a.example/prm' });
});

test('scheme and parameter names are case-insensitive; a token68 challenge has no parameters', () => {
	const challenges = parseWwwAuthenticate('Negotiate abc123==, BEARER Error="invalid_token"');
	assert.deepEqual(challenges, [
		{ scheme: 'negotiate', params: {} },
		{ scheme: 'bearer', params: { error: 'invalid_token' } },
	]);
});

test('absent, empty or bare headers give nothing rather than throwing', () => {
	assert.deepEqual(parseWwwAuthenticate(undefined), []);
	assert.deepEqual(parseWwwAuthenticate(''), []);
	assert.deepEqual(parseWwwAuthenticate('Bearer'), [{ scheme: 'bearer', params: {} }]);
	assert.equal(bearerChallenge('Basic realm="x"'), undefined);
	assert.deepEqual(bearerChallenge('Bearer scope="unterminated'), { scope: 'unterminated' });
});
