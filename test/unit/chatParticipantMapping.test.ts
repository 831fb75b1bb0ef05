import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NamedTool, ServerState, ServerView } from '../../src/manager/manager';
import type { McpClient } from '../../src/protocol/client';
import type { CallToolResult } from '../../src/protocol/schema';
import { progressLabel, toolDescription, toolFailureText, toolInputSchema, toolResultText, toolsMarkdown } from '../../src/vscode/chat/chatMapping';

const running: ServerState = { kind: 'running', client: {} as McpClient };

function named(server: string, name: string, extra: Partial<NamedTool['tool']> = {}): NamedTool {
	return { server, qualifiedName: `mcp__${server}__${name}`, tool: { name, inputSchema: { type: 'object' }, ...extra } };
}

test('the progress label names server and tool, with the server\'s progress message when there is one', () => {
	assert.equal(progressLabel('everything', 'echo'), 'Calling everything › echo…');
	assert.equal(progressLabel('everything', 'long', ' step 2 of 5 '), 'Calling everything › long…: step 2 of 5');
	assert.equal(progressLabel('everything', 'long', '  '), 'Calling everything › long…');
});

test('a tool result becomes text: text blocks, other content described, structured content as JSON', () => {
	const result: CallToolResult = {
		content: [
			{ type: 'text', text: 'Echo: hi' },
			{ type: 'image', data: 'AAAA', mimeType: 'image/png' },
			{ type: 'resource_link', name: 'readme', uri: 'file:///r.md' },
			{ type: 'resource', resource: { uri: 'test://a', text: 'inner text' } },
			{ type: 'resource', resource: { uri: 'test://b', blob: 'AAAA', mimeType: 'application/zip' } },
		],
		structuredContent: { sum: 3 },
	};
	assert.equal(
		toolResultText(result),
		['Echo: hi', '[image image/png, not shown]', '[resource link readme: file:///r.md]', '[resource test://a]\ninner text', '[resource test://b (application/zip), binary, not shown]', 'Structured content:\n{"sum":3}'].join('\n'),
	);
});

test('isError is marked, an empty result says so, and a long result is cut with a note', () => {
	assert.equal(toolResultText({ content: [{ type: 'text', text: 'no such file' }], isError: true }), 'Tool error: no such file');
	assert.equal(toolResultText({ content: [] }), '(the tool returned no content)');
	const cut = toolResultText({ content: [{ type: 'text', text: 'x'.repeat(30) }] }, 10);
	assert.equal(cut, `${'x'.repeat(10)}\n[cut: 20 more characters]`);
});

test('a thrown failure names server and tool, keeps only the first line, and is marked as an error', () => {
	assert.equal(toolFailureText('github', 'create_issue', new Error('Request timed out\nstack…')), 'Tool error: github › create_issue failed: Request timed out');
	assert.equal(toolFailureText('s', 't', 'plain'), 'Tool error: s › t failed: plain');
	assert.ok(toolFailureText('s', 't', new Error('y'.repeat(2000))).length < 600);
});

test('/tools lists running servers\' tools by qualified name, and servers not running with their state', () => {
	const servers: Pick<ServerView, 'name' | 'state' | 'tools'>[] = [
		{ name: 'everything', state: running, tools: [named('everything', 'echo', { description: 'Echoes back\nthe input' }), named('everything', 'add', { title: 'Add *numbers*' })] },
		{ name: 'quiet', state: running, tools: [] },
		{ name: 'broken', state: { kind: 'error', message: 'spawn ENOENT' }, tools: [] },
	];
	const text = toolsMarkdown(servers, (s) => (s.state.kind === 'error' ? `error: ${s.state.message}` : s.state.kind));
	assert.equal(
		text,
		[
			'### everything',
			'',
			'- `mcp__everything__echo` — Echoes back the input',
			'- `mcp__everything__add` — Add \\*numbers\\*',
			'',
			'### quiet',
			'',
			'No tools.',
			'',
			'Not running:',
			'',
			'- broken: error: spawn ENOENT',
		].join('\n'),
	);
});

test('/tools says so when nothing is configured or nothing runs', () => {
	assert.equal(toolsMarkdown([], () => ''), 'No MCP server is configured.');
	assert.equal(toolsMarkdown([{ name: 'a', state: { kind: 'stopped' }, tools: [] }], () => 'stopped'), 'No MCP server is running.\n\nNot running:\n\n- a: stopped');
});

test('tools offered to the model always have a description and an object schema', () => {
	assert.equal(toolDescription(named('s', 'x', { description: ' Does x ' })), 'Does x');
	assert.equal(toolDescription(named('s', 'x', { title: 'Ex' })), 'Ex');
	assert.equal(toolDescription(named('s', 'x')), 'x (from the MCP server s)');
	assert.deepEqual(toolInputSchema(named('s', 'x', { inputSchema: { type: 'object', properties: { a: { type: 'string' } } } })), { type: 'object', properties: { a: { type: 'string' } } });
	assert.deepEqual(toolInputSchema({ ...named('s', 'x'), tool: { name: 'x' } as NamedTool['tool'] }), { type: 'object', properties: {} });
});
