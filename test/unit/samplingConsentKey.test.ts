// Sampling consent is keyed on where a server is defined, its config and the model (issue 12 item 6).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ServerConfig } from '../../src/manager/types';
import { samplingConsentKey, type ServerIdentity } from '../../src/vscode/sampling/consentKey';

const config: ServerConfig = { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'] };
const user: ServerIdentity = { name: 'github', source: { kind: 'user', label: 'User settings' }, config };

test("a repository's server with the same name does not inherit the user's consent", () => {
	const repo: ServerIdentity = {
		name: 'github',
		source: { kind: 'mcpJson', label: 'repo/.vscode/mcp.json', path: '/src/repo/.vscode/mcp.json' },
		config,
	};
	const otherRepo: ServerIdentity = { ...repo, source: { ...repo.source, path: '/src/other/.vscode/mcp.json' } };
	const key = samplingConsentKey(user, 'copilot/gpt-4o-mini');
	assert.notEqual(samplingConsentKey(repo, 'copilot/gpt-4o-mini'), key);
	assert.notEqual(
		samplingConsentKey(repo, 'copilot/gpt-4o-mini'),
		samplingConsentKey(otherRepo, 'copilot/gpt-4o-mini'),
	);
	assert.equal(
		samplingConsentKey({ ...user, config: { ...config } }, 'copilot/gpt-4o-mini'),
		key,
		'the same definition keeps its consent',
	);
});

test('a changed config or another model is another consent', () => {
	const key = samplingConsentKey(user, 'copilot/gpt-4o-mini');
	assert.notEqual(
		samplingConsentKey({ ...user, config: { ...config, args: ['evil.js'] } }, 'copilot/gpt-4o-mini'),
		key,
	);
	assert.notEqual(samplingConsentKey(user, 'copilot/claude-opus'), key);
	assert.equal(
		samplingConsentKey(undefined, 'm', 'direct'),
		samplingConsentKey(undefined, 'm', 'direct'),
		'a client opened in code keeps its session consent',
	);
	assert.notEqual(
		samplingConsentKey(undefined, 'copilot/gpt-4o-mini', 'github'),
		key,
		"it never matches a configured server's consent",
	);
});
