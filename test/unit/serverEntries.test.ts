// The one writer's edits of a server list (src/manager/serverEntries.ts): an mcp.json keeps the user's comments and
// formatting and only the entry changes; the settings object is replaced, never modified in place.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseJsonc } from '../../src/manager/jsonc';
import { changeMcpJson, changeServersSetting, serverEntryRange } from '../../src/manager/serverEntries';

const MCP_JSON = `{
	// My servers: keep this comment
	"servers": {
		"files": {
			"command": "npx", // the filesystem server
			"args": ["-y", "@modelcontextprotocol/server-filesystem", "."]
		}
	},
	"inputs": []
}
`;

test('mcp.json: write adds an entry and keeps every comment and the other entries as written', () => {
	const next = changeMcpJson(MCP_JSON, {
		kind: 'write',
		entries: { web: { type: 'http', url: 'https://x.test/mcp' } },
	});
	assert.ok(next.includes('// My servers: keep this comment'));
	assert.ok(next.includes('"command": "npx", // the filesystem server'));
	const value = parseJsonc(next).value as { servers: Record<string, unknown>; inputs: unknown[] };
	assert.deepEqual(Object.keys(value.servers), ['files', 'web']);
	assert.deepEqual(value.servers.web, { type: 'http', url: 'https://x.test/mcp' });
	assert.deepEqual(value.inputs, []);
});

test('mcp.json: write into an empty file or one without servers creates the servers object', () => {
	for (const text of ['', '{\n\t"inputs": []\n}\n']) {
		const next = changeMcpJson(text, { kind: 'write', entries: { a: { command: 'node', args: ['a.js'] } } });
		assert.deepEqual((parseJsonc(next).value as { servers: unknown }).servers, {
			a: { command: 'node', args: ['a.js'] },
		});
	}
});

test('mcp.json: update sets and removes fields of one entry and keeps its comments; remove takes only that entry', () => {
	const disabled = changeMcpJson(MCP_JSON, { kind: 'update', name: 'files', patch: { disabled: true } });
	assert.ok(disabled.includes('"command": "npx", // the filesystem server'));
	// A removed field takes the comment on its line with it (jsonc-parser removes from the comma before it).
	const updated = changeMcpJson(disabled, { kind: 'update', name: 'files', patch: { args: undefined } });
	assert.ok(updated.includes('// My servers: keep this comment'));
	assert.deepEqual((parseJsonc(updated).value as { servers: unknown }).servers, {
		files: { command: 'npx', disabled: true },
	});
	const removed = changeMcpJson(MCP_JSON, { kind: 'remove', name: 'files' });
	assert.ok(removed.includes('// My servers: keep this comment'));
	assert.deepEqual((parseJsonc(removed).value as { servers: unknown }).servers, {});
});

test('mcp.json: updating or removing a server that is not there, or editing a broken file, throws and writes nothing', () => {
	assert.throws(
		() => changeMcpJson(MCP_JSON, { kind: 'update', name: 'nope', patch: { disabled: true } }),
		/no server named 'nope'/,
	);
	assert.throws(() => changeMcpJson(MCP_JSON, { kind: 'remove', name: 'nope' }), /no server named 'nope'/);
	assert.throws(
		() => changeMcpJson('{ "servers": { ', { kind: 'write', entries: { a: {} } }),
		/not valid JSON: line 1/,
	);
});

test('settings: write, update and remove return a new object and leave the current one alone', () => {
	const current = Object.freeze({ files: Object.freeze({ command: 'npx', args: ['-y', 'x'] }) });
	assert.deepEqual(changeServersSetting(current, { kind: 'write', entries: { web: { url: 'https://x.test' } } }), {
		files: { command: 'npx', args: ['-y', 'x'] },
		web: { url: 'https://x.test' },
	});
	assert.deepEqual(changeServersSetting(undefined, { kind: 'write', entries: { a: { command: 'a' } } }), {
		a: { command: 'a' },
	});
	assert.deepEqual(
		changeServersSetting(current, { kind: 'update', name: 'files', patch: { disabled: true, args: undefined } }),
		{
			files: { command: 'npx', disabled: true },
		},
	);
	assert.deepEqual(changeServersSetting(current, { kind: 'remove', name: 'files' }), {});
	assert.throws(() => changeServersSetting(current, { kind: 'remove', name: 'web' }), /no server named 'web'/);
	assert.throws(
		() => changeServersSetting(current, { kind: 'update', name: 'web', patch: {} }),
		/no server named 'web'/,
	);
});

test("a project .mcp.json's mcpServers is edited in place, not beside it under servers", () => {
	const text =
		'{\n  // Claude Code\n  "mcpServers": {\n    "broken": { "command": "nope" },\n    "ok": { "command": "node" }\n  }\n}\n';
	const disabled = changeMcpJson(text, { kind: 'update', name: 'broken', patch: { disabled: true } });
	assert.ok(disabled.includes('// Claude Code'));
	assert.deepEqual((parseJsonc(disabled).value as { mcpServers: Record<string, unknown> }).mcpServers.broken, {
		command: 'nope',
		disabled: true,
	});
	const removed = changeMcpJson(text, { kind: 'remove', name: 'broken' });
	assert.deepEqual(Object.keys((parseJsonc(removed).value as { mcpServers: object }).mcpServers), ['ok']);
	assert.equal((parseJsonc(removed).value as { servers?: unknown }).servers, undefined);
});

test('serverEntryRange finds the entry in an mcp.json, a .mcp.json and a settings.json', () => {
	const at = (text: string, name: string, key?: string) => {
		const range = serverEntryRange(text, name, key === undefined ? undefined : [key]);
		return range && text.slice(range.offset, range.offset + range.length);
	};
	assert.equal(at(MCP_JSON, 'files')?.startsWith('"files": {'), true);
	assert.equal(at(MCP_JSON, 'files')?.endsWith('}'), true);
	assert.equal(at('{ "mcpServers": { "x": { "url": "u" } } }', 'x'), '"x": { "url": "u" }');
	const settings = '{\n\t"editor.tabSize": 2,\n\t"mcpSwitchboard.servers": {\n\t\t"x": { "command": "a" }\n\t}\n}';
	assert.equal(at(settings, 'x', 'mcpSwitchboard.servers'), '"x": { "command": "a" }');
	assert.equal(at(settings, 'y', 'mcpSwitchboard.servers'), undefined);
	assert.equal(at('not json {', 'x'), undefined);
});
