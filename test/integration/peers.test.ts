// Real peers: servers written by other authors with their own SDKs, each asked the same things by MCP Switchboard's
// client (default options, as a user configures a server) and by that server's own SDK's client, and the answers
// compared. A difference is what a user would see as "my server works elsewhere":
// - the Python SDK (`mcp` 2.3.0, test/fixtures/python/py_peer.py) over stdio and stateful Streamable HTTP, against its
//   ClientSession;
// - the standalone FastMCP framework (`fastmcp` 4.0.10, test/fixtures/python/fastmcp_peer.py) over stdio and
//   Streamable HTTP, against fastmcp's Client (both from the pip mirror, scripts/python-mcp.mjs);
// - the TypeScript SDK's example server simpleStreamableHttp (npm dev dependency), against the SDK's Client, including
//   its task-only `delay` tool (the SDK's client through its tasks API);
// - server-everything (npm), against the TypeScript SDK's Client over stdio;
// - a tmcp server (test/fixtures/servers/tmcpServer.mjs; tmcp is a server framework without the official SDK) and
//   server-memory (npm), each against the TypeScript SDK's Client over stdio.
// The Python clients run as a small script (test/fixtures/python/sdk_client.py) that prints what each call answered.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connect } from '../../src/core';
import type { McpClient } from '../../src/protocol/client';
import type { TransportConfig } from '../../src/protocol/transports/createTransport';
import { everythingMain, freePort } from '../fixtures/everythingHttp';
import { pyPeerScript, pythonWithMcp, startPyPeerHttp } from '../fixtures/pythonPeer';
import { startSdkExample } from '../fixtures/sdkExamples';
import { waitForOutput } from '../fixtures/waitForOutput';

const fastmcpPeerScript = join(process.cwd(), 'test/fixtures/python/fastmcp_peer.py');
const sdkClientScript = join(process.cwd(), 'test/fixtures/python/sdk_client.py');

/** One thing to ask a server; the same list goes to both clients. */
type Op =
	| { op: 'list_tools' }
	| { op: 'list_resources' }
	| { op: 'list_prompts' }
	| { op: 'call_tool'; name: string; arguments: Record<string, unknown> }
	| { op: 'read_resource'; uri: string }
	| { op: 'get_prompt'; name: string; arguments: Record<string, string> };

type Json = Record<string, unknown>;

/** Fields that say how an answer travelled (era, caching hints, SDK bookkeeping), not what the server answered. */
const TRANSPORT_FIELDS = new Set(['_meta', 'ttlMs', 'cacheScope', 'resultType', 'nextCursor']);

/** An answer as a user reads it: without transport fields, `isError: false` the same as absent. */
function plain(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(plain);
	if (value === null || typeof value !== 'object') return value;
	const out: Json = {};
	for (const [key, item] of Object.entries(value as Json)) {
		if (TRANSPORT_FIELDS.has(key) || (key === 'isError' && item === false)) continue;
		out[key] = plain(item);
	}
	return out;
}

/** Each op through MCP Switchboard's client; a failure gives `{ error }` in its place, as the Python script does. */
async function askOurs(client: McpClient, ops: readonly Op[]): Promise<unknown[]> {
	const results: unknown[] = [];
	for (const op of ops) {
		try {
			switch (op.op) {
				case 'list_tools':
					results.push({ tools: await client.listTools() });
					break;
				case 'list_resources':
					results.push({ resources: await client.listResources() });
					break;
				case 'list_prompts':
					results.push({ prompts: await client.listPrompts() });
					break;
				case 'call_tool':
					results.push(await client.callTool(op.name, op.arguments));
					break;
				case 'read_resource':
					results.push(await client.readResource(op.uri));
					break;
				case 'get_prompt':
					results.push(await client.getPrompt(op.name, op.arguments));
					break;
			}
		} catch (error) {
			results.push({ error: error instanceof Error ? error.message : String(error) });
		}
	}
	return results;
}

/** The same ops through the TypeScript SDK's Client (already connected). */
async function askSdk(client: Client, ops: readonly Op[]): Promise<unknown[]> {
	const results: unknown[] = [];
	for (const op of ops) {
		try {
			switch (op.op) {
				case 'list_tools':
					results.push(await client.listTools());
					break;
				case 'list_resources':
					results.push(await client.listResources());
					break;
				case 'list_prompts':
					results.push(await client.listPrompts());
					break;
				case 'call_tool':
					results.push(await client.callTool({ name: op.name, arguments: op.arguments }));
					break;
				case 'read_resource':
					results.push(await client.readResource({ uri: op.uri }));
					break;
				case 'get_prompt':
					results.push(await client.getPrompt({ name: op.name, arguments: op.arguments }));
					break;
			}
		} catch (error) {
			results.push({ error: error instanceof Error ? error.message : String(error) });
		}
	}
	return results;
}

/** The same ops through a Python client (`mcp`'s ClientSession or fastmcp's Client), via sdk_client.py. */
function askPython(kind: 'mcp' | 'fastmcp', target: string[], ops: readonly Op[]): Promise<unknown[]> {
	return new Promise((resolve, reject) => {
		const child = spawn(pythonWithMcp(), [sdkClientScript, kind, ...target], { stdio: ['pipe', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
		child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
		const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
		child.on('error', reject);
		child.on('close', (code) => {
			clearTimeout(timer);
			if (code !== 0) return reject(new Error(`sdk_client.py ${kind} exited ${code}: ${stderr.slice(-2000)}`));
			resolve((JSON.parse(stdout) as { results: unknown[] }).results);
		});
		child.stdin.end(JSON.stringify(ops));
	});
}

/** Each op's answers side by side: equal once transport fields are gone, with both in the message when not. */
function assertSameAnswers(ops: readonly Op[], ours: unknown[], theirs: unknown[], who: string): void {
	assert.equal(ours.length, ops.length);
	for (const [index, op] of ops.entries()) {
		const mine = plain(ours[index]);
		const their = plain(theirs[index]);
		assert.ok(
			!(mine as Json | undefined)?.error || (their as Json | undefined)?.error,
			`${JSON.stringify(op)}: Switchboard failed where ${who} did not: ${JSON.stringify(mine)}`,
		);
		if (op.op !== 'call_tool')
			assert.ok(!(their as Json).error, `${JSON.stringify(op)}: ${who} failed: ${JSON.stringify(their)}`);
		if ((mine as Json).error && (their as Json).error) continue; // Both refused: error texts are each SDK's own.
		assert.deepEqual(mine, their, `${JSON.stringify(op)}: Switchboard and ${who} answered differently`);
	}
}

const children: ChildProcess[] = [];
const clients: McpClient[] = [];
after(async () => {
	await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
	for (const child of children) child.kill('SIGKILL');
});

async function ours(config: TransportConfig): Promise<McpClient> {
	const client = await connect(config, { timeoutMs: 60_000, connectTimeoutMs: 60_000 });
	clients.push(client);
	return client;
}

const PY_PEER_OPS: Op[] = [
	{ op: 'list_tools' },
	{ op: 'list_resources' },
	{ op: 'list_prompts' },
	{ op: 'call_tool', name: 'add', arguments: { a: 2, b: 40 } },
	{ op: 'call_tool', name: 'slow', arguments: { seconds: 0 } },
	{ op: 'call_tool', name: 'add', arguments: { a: 'two' } },
	{ op: 'read_resource', uri: 'peer://motto' },
	{ op: 'get_prompt', name: 'review', arguments: { code: 'x = 1' } },
];

describe("the Python SDK's MCPServer (mcp 2.3.0) answers as to its own ClientSession", () => {
	test('over stdio', async () => {
		const python = pythonWithMcp();
		const client = await ours({ type: 'stdio', command: python, args: [pyPeerScript] });
		const mine = await askOurs(client, PY_PEER_OPS);
		const theirs = await askPython('mcp', ['stdio', python, pyPeerScript], PY_PEER_OPS);
		assertSameAnswers(PY_PEER_OPS, mine, theirs, "the Python SDK's ClientSession");
		assert.deepEqual(plain(mine[3]), { content: [{ type: 'text', text: '42' }], structuredContent: { result: 42 } });
	});

	test('over stateful Streamable HTTP', async () => {
		const peer = await startPyPeerHttp('stateful');
		children.push(peer.child);
		const client = await ours({ type: 'http', url: peer.url });
		const mine = await askOurs(client, PY_PEER_OPS);
		const theirs = await askPython('mcp', ['http', peer.url], PY_PEER_OPS);
		assertSameAnswers(PY_PEER_OPS, mine, theirs, "the Python SDK's ClientSession");
	});
});

const FASTMCP_OPS: Op[] = [
	{ op: 'list_tools' },
	{ op: 'list_resources' },
	{ op: 'list_prompts' },
	{ op: 'call_tool', name: 'add', arguments: { a: 2, b: 3 } },
	{ op: 'call_tool', name: 'shout', arguments: { text: 'quiet' } },
	{ op: 'call_tool', name: 'profile', arguments: { name: 'Ada' } },
	{ op: 'call_tool', name: 'fail', arguments: { reason: 'on purpose' } },
	{ op: 'read_resource', uri: 'peer://motto' },
	{ op: 'read_resource', uri: 'peer://users/ann' },
	{ op: 'get_prompt', name: 'review', arguments: { code: 'x = 1' } },
];

describe('a FastMCP 4 server (fastmcp 4.0.10) answers as to fastmcp’s own Client', () => {
	test('over stdio', async () => {
		const python = pythonWithMcp();
		const client = await ours({ type: 'stdio', command: python, args: [fastmcpPeerScript] });
		const mine = await askOurs(client, FASTMCP_OPS);
		const theirs = await askPython('fastmcp', ['stdio', python, fastmcpPeerScript], FASTMCP_OPS);
		assertSameAnswers(FASTMCP_OPS, mine, theirs, "fastmcp's Client");
		assert.equal((mine[6] as { isError?: boolean }).isError, true, 'the failing tool is a tool error, not a crash');
	});

	test('over Streamable HTTP', async () => {
		const port = await freePort();
		const child = spawn(pythonWithMcp(), [fastmcpPeerScript, 'http', String(port)], {
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		children.push(child);
		await waitForOutput(child, /Uvicorn running on/, 'fastmcp_peer http', 60_000);
		const url = `http://127.0.0.1:${port}/mcp`;
		const client = await ours({ type: 'http', url });
		const mine = await askOurs(client, FASTMCP_OPS);
		const theirs = await askPython('fastmcp', ['http', url], FASTMCP_OPS);
		assertSameAnswers(FASTMCP_OPS, mine, theirs, "fastmcp's Client");
	});
});

/** A TypeScript SDK Client over `transport`, closed after the suite. */
async function sdkClient(transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<Client> {
	const client = new Client({ name: 'peers-test', version: '1.0.0' });
	await client.connect(transport);
	after(() => client.close());
	return client;
}

test("the TypeScript SDK's example simpleStreamableHttp answers as to the SDK's Client; its task-only tool too", async () => {
	const example = await startSdkExample('simpleStreamableHttp');
	children.push(example.child);
	const ops: Op[] = [
		{ op: 'list_tools' },
		{ op: 'list_resources' },
		{ op: 'list_prompts' },
		{ op: 'call_tool', name: 'greet', arguments: { name: 'Ada' } },
		{ op: 'call_tool', name: 'list-files', arguments: {} },
		{ op: 'read_resource', uri: 'https://example.com/greetings/default' },
		{ op: 'get_prompt', name: 'greeting-template', arguments: { name: 'Ada' } },
	];
	const client = await ours({ type: 'http', url: example.url });
	const sdk = await sdkClient(new StreamableHTTPClientTransport(new URL(example.url)));
	assertSameAnswers(ops, await askOurs(client, ops), await askSdk(sdk, ops), "the TypeScript SDK's Client");

	// `delay` has taskSupport "required": the SDK's client runs it through its tasks API, ours on its own.
	let theirs: unknown;
	for await (const message of sdk.experimental.tasks.callToolStream({ name: 'delay', arguments: { duration: 100 } })) {
		if (message.type === 'result') theirs = message.result;
		if (message.type === 'error') throw message.error;
	}
	const mine = await client.callTool('delay', { duration: 100 });
	assert.deepEqual(plain(mine), plain(theirs));
	assert.deepEqual(plain(mine), { content: [{ type: 'text', text: 'Completed 100ms delay' }] });
});

test("server-everything answers as to the TypeScript SDK's Client over stdio", async () => {
	const ops: Op[] = [
		{ op: 'list_resources' },
		{ op: 'list_prompts' },
		{ op: 'call_tool', name: 'echo', arguments: { message: 'hello' } },
		{ op: 'call_tool', name: 'get-sum', arguments: { a: 2, b: 3 } },
		{ op: 'call_tool', name: 'get-structured-content', arguments: { location: 'New York' } },
		{ op: 'call_tool', name: 'get-annotated-message', arguments: { messageType: 'error', includeImage: false } },
		{ op: 'call_tool', name: 'get-sum', arguments: { a: 'two' } },
		{ op: 'read_resource', uri: 'demo://resource/static/document/architecture.md' },
		{ op: 'get_prompt', name: 'args-prompt', arguments: { city: 'Paris' } },
	];
	const client = await ours({ type: 'stdio', command: process.execPath, args: [everythingMain, 'stdio'] });
	const sdk = await sdkClient(new StdioClientTransport({ command: process.execPath, args: [everythingMain, 'stdio'] }));
	assertSameAnswers(ops, await askOurs(client, ops), await askSdk(sdk, ops), "the TypeScript SDK's Client");
	// The tool lists differ only by what each client declares (sampling, elicitation, roots): the common ones match.
	const mineTools = new Map((await client.listTools()).map((tool) => [tool.name, plain(tool)]));
	const theirTools = (await sdk.listTools()).tools;
	assert.ok(theirTools.length >= 13);
	for (const tool of theirTools) {
		if (mineTools.has(tool.name)) assert.deepEqual(mineTools.get(tool.name), plain(tool), tool.name);
	}
	assert.ok(mineTools.has('echo') && mineTools.has('simulate-research-query'));
});

test("a tmcp server (tmcp 1.20, no official SDK) answers as to the TypeScript SDK's Client over stdio", async () => {
	const server = join(process.cwd(), 'test/fixtures/servers/tmcpServer.mjs');
	const ops: Op[] = [
		{ op: 'list_tools' },
		{ op: 'list_resources' },
		{ op: 'list_prompts' },
		{ op: 'call_tool', name: 'calculate', arguments: { operation: 'multiply', a: 6, b: 7 } },
		{ op: 'call_tool', name: 'greet', arguments: {} },
		{ op: 'call_tool', name: 'calculate', arguments: { operation: 'divide', a: 1, b: 2 } },
		{ op: 'read_resource', uri: 'file://notes.md' },
		{ op: 'get_prompt', name: 'explain', arguments: { topic: 'tides' } },
	];
	const client = await ours({ type: 'stdio', command: process.execPath, args: [server] });
	const sdk = await sdkClient(new StdioClientTransport({ command: process.execPath, args: [server] }));
	const mine = await askOurs(client, ops);
	assertSameAnswers(ops, mine, await askSdk(sdk, ops), "the TypeScript SDK's Client");
	assert.deepEqual(plain(mine[3]), { content: [{ type: 'text', text: '6 × 7 = 42' }] });
	assert.deepEqual(plain(mine[4]), { content: [{ type: 'text', text: 'Hello, world!' }] });
});

test("server-memory answers as to the TypeScript SDK's Client over stdio, each with its own knowledge graph", async () => {
	const main = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
	const folder = await mkdtemp(join(tmpdir(), 'peers-memory-'));
	after(() => rm(folder, { recursive: true, force: true }));
	const entities = [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }];
	const ops: Op[] = [
		{ op: 'list_tools' },
		{ op: 'call_tool', name: 'create_entities', arguments: { entities } },
		{
			op: 'call_tool',
			name: 'add_observations',
			arguments: { observations: [{ entityName: 'Ada', contents: ['liked poetry'] }] },
		},
		{ op: 'call_tool', name: 'search_nodes', arguments: { query: 'poetry' } },
		{ op: 'call_tool', name: 'read_graph', arguments: {} },
		{ op: 'call_tool', name: 'open_nodes', arguments: { names: 42 } },
	];
	const memory = (name: string) => ({ MEMORY_FILE_PATH: join(folder, `${name}.jsonl`) });
	const client = await ours({ type: 'stdio', command: process.execPath, args: [main], env: memory('ours') });
	const sdk = await sdkClient(
		new StdioClientTransport({ command: process.execPath, args: [main], env: memory('sdk') }),
	);
	const mine = await askOurs(client, ops);
	assertSameAnswers(ops, mine, await askSdk(sdk, ops), "the TypeScript SDK's Client");
	assert.match(JSON.stringify(plain(mine[3])), /liked poetry/);
});
