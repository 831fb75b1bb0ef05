// The one consent rule for every path a tool call can take (issue 27, "what to build" 2), as a table of
// path × annotations × trust, and the server identity remembered permissions are keyed on (defect 6).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type CallPath, consentVerdict, type ConsentFacts } from '../../src/manager/consentRule';
import { serverIdentity } from '../../src/manager/serverIdentity';
import type { ToolAnnotations } from '../../src/protocol/schema';
import type { ServerConfig } from '../../src/manager/types';

const annotations: Record<string, ToolAnnotations | undefined> = {
	none: undefined,
	readOnly: { readOnlyHint: true },
	writes: { readOnlyHint: false, destructiveHint: false },
	destructive: { destructiveHint: true },
};

type Row = [
	path: CallPath,
	kind: keyof typeof annotations,
	serverTrusted: boolean,
	workspaceTrusted: boolean,
	verdict: string,
];

// verdict: run, ask (no remembering), ask+ (the person may remember the answer), refuse.
const table: Row[] = [
	// Arguments the user typed: only a tool marked destructive asks; Restricted Mode does not stop a typed call.
	['palette', 'none', true, true, 'run'],
	['palette', 'writes', true, true, 'run'],
	['palette', 'destructive', true, true, 'ask'],
	['palette', 'readOnly', true, false, 'run'],
	['tree', 'none', true, false, 'run'],
	['tree', 'destructive', true, false, 'ask'],
	// Arguments nobody typed here: ask unless read-only by a trusted server; never in Restricted Mode.
	['file', 'none', true, true, 'ask'],
	['file', 'writes', true, true, 'ask'],
	['file', 'destructive', true, true, 'ask'],
	['file', 'readOnly', true, true, 'run'],
	['file', 'readOnly', false, true, 'ask'],
	['file', 'readOnly', true, false, 'refuse'],
	['file', 'none', true, false, 'refuse'],
	['app', 'none', true, true, 'ask'],
	['app', 'readOnly', true, true, 'run'],
	['app', 'readOnly', true, false, 'refuse'],
	['history', 'none', true, true, 'ask'],
	['history', 'readOnly', true, true, 'run'],
	['history', 'none', true, false, 'refuse'],
	// A model chose the arguments: asks for everything not read-only, and the answer may be remembered.
	['chat', 'none', true, true, 'ask+'],
	['chat', 'writes', true, true, 'ask+'],
	['chat', 'readOnly', true, true, 'run'],
	['chat', 'readOnly', false, true, 'ask+'],
	// VS Code's agent confirms every call itself before it reaches the gateway.
	['gateway', 'none', true, true, 'run'],
	['gateway', 'destructive', true, true, 'run'],
];

function verdictOf(facts: ConsentFacts): string {
	const verdict = consentVerdict(facts);
	return verdict.kind === 'ask' && verdict.remember ? 'ask+' : verdict.kind;
}

test('the consent rule, path by path', () => {
	for (const [path, kind, serverTrusted, workspaceTrusted, expected] of table) {
		const facts: ConsentFacts = { path, annotations: annotations[kind], serverTrusted, workspaceTrusted };
		assert.equal(
			verdictOf(facts),
			expected,
			`${path}, ${kind}, server ${serverTrusted ? '' : 'not '}trusted, workspace ${workspaceTrusted ? '' : 'not '}trusted`,
		);
	}
});

test("a re-run of the user's own palette call is typed; a re-run of a model's call is not", () => {
	const base = { path: 'history' as const, annotations: undefined, serverTrusted: true };
	assert.equal(verdictOf({ ...base, typedHere: true, workspaceTrusted: true }), 'run');
	assert.equal(verdictOf({ ...base, typedHere: true, workspaceTrusted: false }), 'run');
	assert.equal(verdictOf({ ...base, typedHere: false, workspaceTrusted: true }), 'ask');
	assert.equal(verdictOf({ ...base, typedHere: false, workspaceTrusted: false }), 'refuse');
});

test('a changed definition asks on every path a person or model starts, and says why', () => {
	for (const path of ['palette', 'tree', 'file', 'app', 'chat'] as const) {
		const verdict = consentVerdict({
			path,
			annotations: { readOnlyHint: true },
			serverTrusted: true,
			workspaceTrusted: true,
			definitionChanged: true,
		});
		assert.equal(verdict.kind, 'ask', path);
		assert.match(verdict.kind === 'ask' ? verdict.reason : '', /definition changed/);
	}
	const refused = consentVerdict({
		path: 'file',
		serverTrusted: true,
		workspaceTrusted: false,
		definitionChanged: true,
	});
	assert.equal(refused.kind, 'refuse', 'Restricted Mode still refuses');
	assert.match(refused.kind === 'refuse' ? refused.reason : '', /Restricted Mode/);
});

test("a server's identity is where it is defined and its configuration, not its name", () => {
	const config: ServerConfig = { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'] };
	const user = { name: 'github', source: { kind: 'user' as const, label: 'User settings' }, config };
	const repo = {
		name: 'github',
		source: { kind: 'mcpJson' as const, label: 'repo/.vscode/mcp.json', path: '/src/repo/.vscode/mcp.json' },
		config,
	};
	assert.notEqual(serverIdentity(repo), serverIdentity(user), "a repository's github is not the user's");
	assert.notEqual(serverIdentity({ ...user, config: { ...config, args: ['evil.js'] } }), serverIdentity(user));
	assert.equal(serverIdentity({ ...user, config: { ...config } }), serverIdentity(user));
});
