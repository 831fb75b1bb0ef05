// The id VS Code 1.139 gives an mcp.json entry's server definition (issue 33): the world connector asks VS Code to
// start that one server by it, so the ids must be VS Code's own (`mcp.config.ws<folder>.<key>`,
// `mcp.config.usrlocal.<key>`, `workspace-dot-mcp.<folder>.<key>`).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { vscodeDefinitionIds } from '../../src/vscode/world/definitionIds';

const folders = ['/work/app', '/work/lib'];

test("a folder's .vscode/mcp.json entry is mcp.config.ws<index>.<key>, the index in VS Code's folder order", () => {
	const source = { kind: 'mcpJson' as const, label: 'lib', path: '/work/lib/.vscode/mcp.json', vscodeRuns: true };
	assert.deepEqual(vscodeDefinitionIds(source, 'world', folders), ['mcp.config.ws1.world']);
	assert.deepEqual(vscodeDefinitionIds({ ...source, vscodeName: 'My Server' }, 'my-server', folders), [
		'mcp.config.ws1.My Server',
	]);
});

test("the profile's user mcp.json entry is mcp.config.usrlocal.<key> (usrremote in a remote window)", () => {
	const source = { kind: 'userMcpJson' as const, label: 'User mcp.json', path: '/u/User/mcp.json', vscodeRuns: true };
	assert.deepEqual(vscodeDefinitionIds(source, 'web', folders), [
		'mcp.config.usrlocal.web',
		'mcp.config.usrremote.web',
	]);
});

test('a project-root .mcp.json entry VS Code reads is workspace-dot-mcp.<index>.<key>', () => {
	const source = { kind: 'mcpJson' as const, label: 'app', path: '/work/app/.mcp.json', vscodeRuns: true };
	assert.deepEqual(vscodeDefinitionIds(source, 'db', folders), ['workspace-dot-mcp.0.db']);
});

test('a settings entry kept over its mcp.json twin starts the twin under its own key; nothing for what VS Code does not run', () => {
	const kept = {
		kind: 'user' as const,
		label: 'User settings',
		vscodeRuns: true,
		vscodeName: 'everything',
		alsoIn: [{ kind: 'mcpJson' as const, label: 'app', path: '/work/app/.vscode/mcp.json', name: 'everything' }],
	};
	assert.deepEqual(vscodeDefinitionIds(kept, 'all', folders), ['mcp.config.ws0.everything']);
	assert.deepEqual(vscodeDefinitionIds({ ...kept, vscodeRuns: false }, 'all', folders), []);
	assert.deepEqual(
		vscodeDefinitionIds(
			{ kind: 'mcpJson', label: 'x', path: '/elsewhere/.vscode/mcp.json', vscodeRuns: true },
			'x',
			folders,
		),
		[],
	);
});
