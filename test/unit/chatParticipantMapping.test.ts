import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NamedTool, ServerState, ServerView } from '../../src/manager/manager';
import type { McpClient } from '../../src/protocol/client';
import type { CallToolResult } from '../../src/protocol/schema';
import {
	progressLabel,
	resourceParts,
	toolDescription,
	toolFailureText,
	toolInputSchema,
	toolResultParts,
	toolResultText,
	toolsMarkdown,
} from '../../src/vscode/chat/chatMapping';

const running: ServerState = { kind: 'running', client: {} as McpClient };

function named(server: string, name: string, extra: Partial<NamedTool['tool']> = {}): NamedTool {
	return {
		server,
		qualifiedName: `mcp__${server}__${name}`,
		tool: { name, inputSchema: { type: 'object' }, ...extra },
	};
}

test("the progress label names server and tool, with the server's progress message when there is one", () => {
	assert.equal(progressLabel('everything', 'echo'), 'Calling everything › echo…');
	assert.equal(progressLabel('everything', 'long', ' step 2 of 5 '), 'Calling everything › long…: step 2 of 5');
	assert.equal(progressLabel('everything', 'long', '  '), 'Calling everything › long…');
});

/** A 1×1 PNG, as a server would send it. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

test('a tool result becomes parts for the model: text, images as image bytes, the rest described with URI, name and type', () => {
	const result: CallToolResult = {
		content: [
			{ type: 'text', text: 'Echo: hi' },
			{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
			{ type: 'image', data: 'PHN2Zy8+', mimeType: 'image/svg+xml' },
			{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
			{
				type: 'resource_link',
				name: 'readme',
				uri: 'file:///r.md',
				mimeType: 'text/markdown',
				description: 'The project readme',
			},
			{ type: 'resource', resource: { uri: 'test://a', text: 'inner text', mimeType: 'text/plain' } },
			{ type: 'resource', resource: { uri: 'test://b', blob: 'AAAA', mimeType: 'application/zip' } },
			{ type: 'resource', resource: { uri: 'test://c.png', blob: PNG_BASE64, mimeType: 'image/png' } },
		],
		structuredContent: { sum: 3 },
	};
	const parts = toolResultParts(result);
	assert.deepEqual(
		parts.map((part) => part.kind),
		['text', 'image', 'text', 'image', 'text'],
		'texts between images are joined into one part each',
	);
	const [first, image, middle, embeddedImage, last] = parts;
	assert.equal(first?.kind === 'text' && first.text, 'Echo: hi');
	assert.ok(image?.kind === 'image');
	assert.equal(image.mimeType, 'image/png');
	assert.deepEqual(Buffer.from(image.data), Buffer.from(PNG_BASE64, 'base64'), 'the image goes as its decoded bytes');
	assert.ok(middle?.kind === 'text');
	assert.equal(
		middle.text,
		[
			'[image image/svg+xml, 6 B, not sent: the model takes PNG, JPEG, GIF and WebP images]',
			'[audio audio/wav, 3 B, not sent: the model takes text and images only; the result document in VS Code plays it]',
			'[resource link: uri file:///r.md, name "readme", type text/markdown, the user can attach it with `@mcp /read <uri>`, description "The project readme"]',
			'[embedded resource: uri test://a, type text/plain]\ninner text',
			'[embedded resource: uri test://b, type application/zip, binary, 3 B, not shown; the user can attach it with `@mcp /read <uri>`]',
			'[embedded resource: uri test://c.png, type image/png, 70 B, sent as the image that follows]',
		].join('\n'),
	);
	assert.ok(embeddedImage?.kind === 'image' && embeddedImage.mimeType === 'image/png');
	assert.equal(last?.kind === 'text' && last.text, 'Structured content (JSON):\n{"sum":3}');
	// For people (the /call answer's metadata, logs): one text, images by their description.
	assert.match(
		toolResultText(result),
		/^Echo: hi\n\[image image\/png, 70 B, sent as an image\]\n\[image image\/svg\+xml/,
	);
});

test('an image that is not valid or too large is described instead of sent', () => {
	const parts = toolResultParts({
		content: [
			{ type: 'image', data: '', mimeType: 'image/png' },
			{ type: 'image', data: 'A'.repeat(8 * 1024 * 1024), mimeType: 'image/jpeg' },
		],
	});
	assert.deepEqual(parts, [
		{ kind: 'text', text: '[image image/png, 0 B, no data]\n[image image/jpeg, 6.0 MB, not sent: larger than 5 MB]' },
	]);
});

test('a read resource becomes parts: text under its URI and type, images as images, other binary described', () => {
	const parts = resourceParts({
		contents: [
			{ uri: 'test://static/resource/1', mimeType: 'text/plain', text: 'Resource 1: plain text' },
			{ uri: 'test://static/resource/2', mimeType: 'image/png', blob: PNG_BASE64 },
			{ uri: 'test://static/resource/3', mimeType: 'application/octet-stream', blob: 'AAAA' },
		],
	});
	assert.deepEqual(
		parts.map((part) => part.kind),
		['text', 'image', 'text'],
	);
	assert.equal(
		parts[0]?.kind === 'text' && parts[0].text,
		'[resource: uri test://static/resource/1, type text/plain]\nResource 1: plain text\n[resource: uri test://static/resource/2, type image/png, 70 B, sent as the image that follows]',
	);
	assert.equal(
		parts[2]?.kind === 'text' && parts[2].text,
		'[resource: uri test://static/resource/3, type application/octet-stream, binary, 3 B, not shown; the model takes text and images only]',
	);
	assert.deepEqual(resourceParts({ contents: [] }), [{ kind: 'text', text: '(the resource has no contents)' }]);
});

test('isError is marked, an empty result says so, and a long result is cut with a note', () => {
	assert.equal(
		toolResultText({ content: [{ type: 'text', text: 'no such file' }], isError: true }),
		'Tool error: no such file',
	);
	assert.equal(toolResultText({ content: [] }), '(the tool returned no content)');
	const cut = toolResultText({ content: [{ type: 'text', text: 'x'.repeat(30) }] }, 10);
	assert.equal(cut, `${'x'.repeat(10)}\n[cut: 20 more characters]`);
	// The cut counts every text after it; images before the cut still go, an error with no text first says so.
	const mixed = toolResultParts(
		{
			content: [
				{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
				{ type: 'text', text: 'y'.repeat(8) },
				{ type: 'text', text: 'z'.repeat(5) },
			],
			isError: true,
		},
		20,
	);
	assert.deepEqual(
		mixed.map((part) => (part.kind === 'text' ? part.text : part.kind)),
		['Tool error:', 'image', `yyyyyyyy\nz\n[cut: 4 more characters]`],
	);
});

test('a thrown failure names server and tool, keeps only the first line, and is marked as an error', () => {
	assert.equal(
		toolFailureText('github', 'create_issue', new Error('Request timed out\nstack…')),
		'Tool error: github › create_issue failed: Request timed out',
	);
	assert.equal(toolFailureText('s', 't', 'plain'), 'Tool error: s › t failed: plain');
	assert.ok(toolFailureText('s', 't', new Error('y'.repeat(2000))).length < 600);
});

test("/tools lists running servers' tools by qualified name, and servers not running with their state", () => {
	const servers: Pick<ServerView, 'name' | 'state' | 'tools'>[] = [
		{
			name: 'everything',
			state: running,
			tools: [
				named('everything', 'echo', { description: 'Echoes back\nthe input' }),
				named('everything', 'add', { title: 'Add *numbers*' }),
			],
		},
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

test('/tools leaves out app-only tools, which the model never gets, and says how many', () => {
	const appOnly = { _meta: { ui: { resourceUri: 'ui://monitor/app.html', visibility: ['app'] } } };
	const both = { _meta: { ui: { resourceUri: 'ui://monitor/app.html', visibility: ['model', 'app'] } } };
	const servers: Pick<ServerView, 'name' | 'state' | 'tools'>[] = [
		{
			name: 'monitor',
			state: running,
			tools: [
				named('monitor', 'get-system-info', { description: 'Shows the monitor', ...both }),
				named('monitor', 'poll-system-stats', { description: 'Polled by the app', ...appOnly }),
			],
		},
		{ name: 'apponly', state: running, tools: [named('apponly', 'refresh', appOnly)] },
	];
	const text = toolsMarkdown(servers, () => '');
	assert.ok(!text.includes('poll-system-stats'), text);
	assert.ok(!text.includes('refresh'), text);
	assert.equal(
		text,
		[
			'### monitor',
			'',
			'- `mcp__monitor__get-system-info` — Shows the monitor',
			'',
			"_1 app-only tool not listed: only the server's MCP App calls it._",
			'',
			'### apponly',
			'',
			'No tools.',
			'',
			"_1 app-only tool not listed: only the server's MCP App calls it._",
		].join('\n'),
	);
});

test('/tools says so when nothing is configured or nothing runs', () => {
	assert.equal(
		toolsMarkdown([], () => ''),
		'No MCP server is configured.',
	);
	assert.equal(
		toolsMarkdown([{ name: 'a', state: { kind: 'stopped' }, tools: [] }], () => 'stopped'),
		'No MCP server is running.\n\nNot running:\n\n- a: stopped',
	);
});

test('tools offered to the model always have a description and an object schema', () => {
	assert.equal(toolDescription(named('s', 'x', { description: ' Does x ' })), 'Does x');
	assert.equal(toolDescription(named('s', 'x', { title: 'Ex' })), 'Ex');
	assert.equal(toolDescription(named('s', 'x')), 'x (from the MCP server s)');
	assert.deepEqual(
		toolInputSchema(named('s', 'x', { inputSchema: { type: 'object', properties: { a: { type: 'string' } } } })),
		{ type: 'object', properties: { a: { type: 'string' } } },
	);
	assert.deepEqual(toolInputSchema({ ...named('s', 'x'), tool: { name: 'x' } as NamedTool['tool'] }), {
		type: 'object',
		properties: {},
	});
});
