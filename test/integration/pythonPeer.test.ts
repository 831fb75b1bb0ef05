// A real 2026-07-28 server nobody here wrote: the Python SDK's MCPServer (`mcp` 2.3.0), over stdio, stateful and
// stateless Streamable HTTP. It speaks both eras. In 2026-07-28 the client talks per-request metadata without a
// handshake and answers input_required (multi round-trip) with its elicitation and roots handlers; by default (auto)
// it talks 2025-11-25 where that era has a back-channel (stdio, stateful HTTP), so `ctx.elicit` reaches the user, and
// 2026-07-28 over stateless HTTP, where 2025-11-25 has none.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import { Manager } from '../../src/manager/manager';
import { McpClient, type ClientOptions } from '../../src/protocol/client';
import { ErrorCode } from '../../src/protocol/jsonrpc';
import { McpError } from '../../src/protocol/mcpError';
import { createTransport } from '../../src/protocol/transports/createTransport';
import { pyPeerScript, pythonWithMcp, startPyPeerHttp } from '../fixtures/pythonPeer';

const children: ChildProcess[] = [];
const clients: McpClient[] = [];
let statelessUrl = '';
let statefulUrl = '';

before(async () => {
	pythonWithMcp();
	const [stateless, stateful] = await Promise.all([startPyPeerHttp('stateless'), startPyPeerHttp('stateful')]);
	children.push(stateless.child, stateful.child);
	statelessUrl = stateless.url;
	statefulUrl = stateful.url;
});

after(async () => {
	await Promise.all(clients.map((client) => client.close()));
	for (const child of children) child.kill('SIGKILL');
});

/** Records every elicitation the server asks for and answers with `answer`. */
function elicitations(answer: 'accept' | 'decline' = 'accept') {
	const asked: Array<Record<string, unknown>> = [];
	return {
		asked,
		handlers: {
			roots: () => [
				{ uri: 'file:///tmp', name: 'tmp' },
				{ uri: 'file:///srv', name: 'srv' },
			],
			elicitation: async (params: Record<string, unknown>) => {
				asked.push(params);
				return answer === 'accept'
					? { action: 'accept' as const, content: { name: 'Ada' } }
					: { action: 'decline' as const };
			},
		} satisfies ClientOptions['handlers'],
	};
}

/**
 * Pinned to 2026-07-28, the era these tests are about: auto picks 2025-11-25 over stdio and stateful HTTP, and over
 * stateless HTTP sends initialize before it probes (see the auto tests at the end).
 */
function modernOver(_where: 'stdio' | 'stateless' | 'stateful'): ClientOptions {
	return { protocolVersion: '2026-07-28' };
}

async function open(
	where: 'stdio' | 'stateless' | 'stateful',
	options: ClientOptions = {},
): Promise<{ client: McpClient; logger: MemoryLogger }> {
	const logger = new MemoryLogger('trace');
	const config =
		where === 'stdio'
			? { type: 'stdio' as const, command: pythonWithMcp(), args: [pyPeerScript] }
			: { type: 'http' as const, url: where === 'stateless' ? statelessUrl : statefulUrl };
	const client = await McpClient.connect(createTransport(config, { logger, name: `py-${where}` }), {
		name: `py-${where}`,
		logger,
		timeoutMs: 60_000,
		...options,
	});
	clients.push(client);
	return { client, logger };
}

/** Resolves when `predicate` holds, polling every 20 ms; rejects with `what` after 20 s. */
async function until(predicate: () => boolean, what: string): Promise<void> {
	const end = Date.now() + 20_000;
	while (!predicate()) {
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

function text(result: { content: Array<{ type: string; text?: unknown }> }): string {
	return result.content.map((block) => (block.type === 'text' ? String(block.text) : `[${block.type}]`)).join('');
}

/** The client's requests of `method` on the wire (trace lines "name → {...}"), parsed. */
function sent(logger: MemoryLogger, method: string): Array<{ id: number; params: Record<string, unknown> }> {
	return logger.entries
		.filter(
			(entry) =>
				entry.level === 'trace' && entry.message.includes(' → ') && entry.message.includes(`"method":"${method}"`),
		)
		.map(
			(entry) =>
				JSON.parse(entry.message.slice(entry.message.indexOf(' → ') + 3)) as {
					id: number;
					params: Record<string, unknown>;
				},
		);
}

for (const where of ['stdio', 'stateless', 'stateful'] as const) {
	describe(`the Python SDK's MCPServer over ${where === 'stdio' ? 'stdio' : `${where} Streamable HTTP`} in 2026-07-28`, () => {
		test('no handshake: server/discover, then every request carries version, capabilities and client info in _meta', async () => {
			const { handlers } = elicitations();
			// The interpreter's start-up can take longer than the default probe timeout on a busy machine (that path has its own test).
			const { client, logger } = await open(where, { handlers, probeTimeoutMs: 120_000, ...modernOver(where) });
			assert.equal(client.era, 'modern');
			assert.equal(client.protocolVersion, '2026-07-28');
			assert.equal(client.serverInfo.name, 'py-peer');
			assert.match(client.instructions ?? '', /test peer/);
			assert.ok(client.serverCapabilities.tools);
			assert.equal(sent(logger, 'initialize').length, 0, 'no initialize is sent to a modern server');
			const tools = await client.listTools();
			assert.deepEqual(tools.map((t) => t.name).sort(), [
				'add',
				'announce',
				'count_roots',
				'greet',
				'greet_ctx',
				'slow',
			]);
			const sum = await client.callTool('add', { a: 2, b: 3 });
			assert.equal(text(sum), '5');
			const call = sent(logger, 'tools/call').at(-1);
			const meta = call?.params._meta as Record<string, unknown>;
			assert.equal(meta['io.modelcontextprotocol/protocolVersion'], '2026-07-28');
			assert.deepEqual(meta['io.modelcontextprotocol/clientInfo'], { name: 'mcp-switchboard', version: '0.1.0' });
			assert.deepEqual(meta['io.modelcontextprotocol/clientCapabilities'], {
				roots: {},
				elicitation: { form: {} },
				extensions: { 'io.modelcontextprotocol/tasks': {} },
			});
			const motto = await client.readResource('peer://motto');
			assert.equal(motto.contents[0]?.text, 'Stateless is the way.');
			const prompt = await client.getPrompt('review', { code: 'x = 1' });
			assert.match(JSON.stringify(prompt.messages), /x = 1/);
		});

		test('a tool that asks the user (the SDK resolver form) works through input_required: asked once, retried with a new id', async () => {
			const { asked, handlers } = elicitations('accept');
			const { client, logger } = await open(where, { handlers, ...modernOver(where) });
			const result = await client.callTool('greet', {});
			assert.equal(text(result), 'Hello, Ada!');
			assert.equal(asked.length, 1);
			assert.equal(asked[0]?.message, 'What is your name?');
			const calls = sent(logger, 'tools/call');
			assert.equal(calls.length, 2, 'the first call and one retry');
			assert.notEqual(calls[0]?.id, calls[1]?.id, 'the retry has a new request id');
			assert.equal(calls[0]?.params.inputResponses, undefined);
			const responses = calls[1]?.params.inputResponses as Record<string, unknown>;
			assert.deepEqual(Object.values(responses), [{ action: 'accept', content: { name: 'Ada' } }]);

			const declined = elicitations('decline');
			const second = await open(where, { handlers: declined.handlers, ...modernOver(where) });
			assert.equal(text(await second.client.callTool('greet', {})), 'No name given (decline).');
		});

		test('subscriptions/listen: the SDK acknowledges the filter and delivers a tools list change and a resource update', async () => {
			const { client, logger } = await open(where, modernOver(where));
			let toolChanges = 0;
			const updates: string[] = [];
			client.onDidChangeTools(() => toolChanges++);
			client.onDidUpdateResource(({ uri }) => updates.push(uri));
			client.listenForChanges({ tools: true, prompts: true, resources: true });
			assert.equal(
				client.serverCapabilities.resources?.subscribe,
				true,
				'the SDK offers subscriptions when it serves subscriptions/listen',
			);
			await client.subscribe('peer://motto');
			assert.equal(logger.find('listening for changes (tools, prompts, resources, 1 resource)').length, 1);
			assert.equal(logger.find('the server does not send').length, 0, 'every requested kind is acknowledged');
			assert.equal(sent(logger, 'resources/subscribe').length, 0);
			assert.equal(text(await client.callTool('announce', {})), 'announced');
			await until(() => toolChanges === 1, 'notifications/tools/list_changed');
			await until(() => updates.includes('peer://motto'), 'notifications/resources/updated');
		});

		test('caching hints: the SDK ttlMs / cacheScope reach the caller of a list and of a read; the Manager serves a second read from its cache', async () => {
			const { client } = await open(where, modernOver(where));
			const hints: unknown[] = [];
			await client.listTools({ onCacheHints: (h) => hints.push(h) });
			assert.deepEqual(hints, [{ ttlMs: 600_000, cacheScope: 'public' }]);
			const read = (await client.readResource('peer://motto')) as Record<string, unknown>;
			assert.equal(read.ttlMs, 600_000);
			assert.equal(read.cacheScope, 'public');
			assert.deepEqual(
				client.discoverCacheHints,
				{ ttlMs: 0, cacheScope: 'private' },
				'the SDK default for server/discover: immediately stale, private',
			);

			const manager = new Manager({ logger: () => new MemoryLogger('info') });
			try {
				const config =
					where === 'stdio'
						? { type: 'stdio' as const, command: pythonWithMcp(), args: [pyPeerScript], ...modernOver(where) }
						: { type: 'http' as const, url: where === 'stateless' ? statelessUrl : statefulUrl, ...modernOver(where) };
				await manager.reconcile([
					{ name: 'py', config, source: { kind: 'user', label: 'User settings' }, workspaceDefined: false },
				]);
				await until(() => manager.get('py')?.state.kind === 'running', 'the server to run');
				const first = (await manager.readResource('py', 'peer://count')).contents[0]?.text;
				const second = (await manager.readResource('py', 'peer://count')).contents[0]?.text;
				assert.match(String(first), /^read \d+ times$/);
				assert.equal(second, first, 'fresh for 10 minutes: not read again');
			} finally {
				await manager.dispose();
			}
		});

		test('a tool that asks for the roots gets them through input_required', async () => {
			const { handlers } = elicitations();
			const { client } = await open(where, { handlers, ...modernOver(where) });
			assert.equal(text(await client.callTool('count_roots', {})), '2 roots');
		});
	});
}

test('stateless HTTP: no session id, no GET stream, no DELETE; a cancelled call closes its stream and the next call works', async () => {
	const { client, logger } = await open('stateless');
	const transportLines = logger.entries.map((entry) => entry.message).join('\n');
	assert.doesNotMatch(transportLines, /session /i);
	const controller = new AbortController();
	const slow = client.callTool('slow', { seconds: 30 }, { signal: controller.signal });
	setTimeout(() => controller.abort('the user pressed Cancel'), 300);
	await assert.rejects(
		slow,
		(error: unknown) => error instanceof McpError && error.code === ErrorCode.RequestCancelled,
	);
	// Over 2026-07-28 HTTP, closing the request's stream is the cancellation; no notification is POSTed.
	assert.equal(logger.find('by closing its stream').length, 1);
	assert.equal(text(await client.callTool('add', { a: 40, b: 2 })), '42');
	assert.equal(client.era, 'modern');
});

test('pinned to 2025-11-25, the same stateless server answers plain calls, but a tool that asks the user fails: no back-channel (the reason for 2026-07-28)', async () => {
	const { handlers } = elicitations();
	const { client } = await open('stateless', { handlers, protocolVersion: '2025-11-25' });
	assert.equal(client.era, 'legacy');
	assert.equal(client.protocolVersion, '2025-11-25');
	assert.equal(text(await client.callTool('add', { a: 1, b: 1 })), '2');
	const failing = await client.callTool('greet_ctx', {}).then(
		(result) => text(result),
		(error: unknown) => (error instanceof Error ? error.message : String(error)),
	);
	assert.match(failing, /back-channel/);
});

test('pinned to 2025-11-25 over stdio, ctx.elicit reaches the elicitation handler as a server request (the legacy way keeps working)', async () => {
	const { asked, handlers } = elicitations('accept');
	const { client, logger } = await open('stdio', { handlers, protocolVersion: '2025-11-25' });
	assert.equal(client.era, 'legacy');
	assert.equal(sent(logger, 'server/discover').length, 0, 'a pinned legacy version is not probed');
	assert.equal(text(await client.callTool('greet_ctx', {})), 'Hello, Ada!');
	assert.equal(asked.length, 1);
});

test('a 2026-07-28 server slower to start than the probe timeout: initialize is refused with a modern error, and the client asks again and goes modern', async () => {
	// Remembered as modern, so the probe goes first (auto would send initialize first and get 2025-11-25).
	const { client, logger } = await open('stdio', { probeTimeoutMs: 1, knownEra: 'modern' });
	assert.equal(client.era, 'modern');
	assert.equal(sent(logger, 'initialize').length, 1);
	assert.ok(sent(logger, 'server/discover').length >= 2);
	assert.equal(logger.find('slow to answer server/discover').length, 1);
	assert.equal(text(await client.callTool('add', { a: 1, b: 2 })), '3');
});

for (const where of ['stdio', 'stateful'] as const) {
	test(`auto over ${where === 'stdio' ? 'stdio' : 'stateful Streamable HTTP'}: 2025-11-25, and a tool that asks with ctx.elicit gets the user's answer (issue 31)`, async () => {
		const { asked, handlers } = elicitations('accept');
		const { client, logger } = await open(where, { handlers });
		assert.equal(client.era, 'legacy');
		assert.equal(client.protocolVersion, '2025-11-25');
		assert.equal(sent(logger, 'server/discover').length, 0, 'initialize was answered with a back-channel: no probe');
		assert.equal(text(await client.callTool('greet_ctx', {})), 'Hello, Ada!');
		assert.equal(asked.length, 1);
		assert.equal(asked[0]?.message, 'What is your name?');
		// The SDK's resolver form asks the same way in this era: elicitation/create mid-call.
		assert.equal(text(await client.callTool('greet', {})), 'Hello, Ada!');
		assert.equal(asked.length, 2);
	});
}

test('auto over stateless Streamable HTTP: initialize gives no session, so the probe follows and 2026-07-28 is used', async () => {
	const { handlers } = elicitations('accept');
	const { client, logger } = await open('stateless', { handlers });
	assert.equal(client.era, 'modern');
	assert.equal(sent(logger, 'initialize').length, 1);
	assert.equal(sent(logger, 'notifications/initialized').length, 0);
	assert.equal(logger.find('no session').length, 1);
	assert.equal(text(await client.callTool('greet', {})), 'Hello, Ada!');
});
