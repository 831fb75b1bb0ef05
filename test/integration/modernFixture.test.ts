// Our own 2026-07-28 server (test/fixtures/servers/modernServer.js) as a real process, over stdio and over Streamable
// HTTP on a loopback socket: subscriptions/listen (notifications arrive, a dropped stream is listened to again, the
// stream closes with the client), the re-send of a broken reply stream with a new request id, the -32020 re-list and
// retry, and the bad input the issue names (a server that lies in server/discover, mixes versions, answers an unknown
// resultType): a clear error naming the server and the step.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import { Manager } from '../../src/manager/manager';
import { McpClient, type ClientOptions } from '../../src/protocol/client';
import { ErrorCode } from '../../src/protocol/jsonrpc';
import { McpError } from '../../src/protocol/mcpError';
import { createTransport } from '../../src/protocol/transports/createTransport';
import { modernStdio, startModernHttp } from '../fixtures/modernFixture';

const children: ChildProcess[] = [];
const clients: McpClient[] = [];
let httpUrl = '';
let lyingUrl = '';

before(async () => {
	const [plain, lying] = await Promise.all([startModernHttp(), startModernHttp(['--lie'])]);
	children.push(plain.child, lying.child);
	httpUrl = plain.url;
	lyingUrl = lying.url;
});

after(async () => {
	await Promise.all(clients.map((client) => client.close()));
	for (const child of children) child.kill('SIGKILL');
});

type Where = 'stdio' | 'http';

async function open(
	where: Where,
	options: ClientOptions = {},
	url = httpUrl,
	flags: string[] = [],
): Promise<{ client: McpClient; logger: MemoryLogger }> {
	const logger = new MemoryLogger('debug');
	const name = `fixture-${where}`;
	const config = where === 'stdio' ? modernStdio(flags) : { type: 'http' as const, url };
	const client = await McpClient.connect(createTransport(config, { logger, name }), {
		name,
		logger,
		timeoutMs: 30_000,
		...options,
	});
	clients.push(client);
	return { client, logger };
}

function text(result: { content: Array<{ type: string; text?: unknown }> }): string {
	return result.content.map((block) => (block.type === 'text' ? String(block.text) : `[${block.type}]`)).join('');
}

/** Resolves when `predicate` holds, polling every 20 ms; rejects with `what` after 10 s. */
async function until(predicate: () => boolean, what: string): Promise<void> {
	const end = Date.now() + 10_000;
	while (!predicate()) {
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

/** What the server saw: its requests and how many listen streams it has open. */
async function serverLog(
	client: McpClient,
): Promise<{ requests: Array<{ id: number; method: string; name?: string }>; listens: number }> {
	return JSON.parse(text(await client.callTool('log', {}))) as {
		requests: Array<{ id: number; method: string; name?: string }>;
		listens: number;
	};
}

for (const where of ['stdio', 'http'] as const) {
	describe(`our 2026-07-28 fixture over ${where}`, () => {
		test('subscriptions/listen carries list changes and updates of a subscribed resource; no resources/subscribe, no GET stream', async () => {
			const { client, logger } = await open(where);
			assert.equal(client.era, 'modern');
			let toolChanges = 0;
			const updates: string[] = [];
			client.onDidChangeTools(() => toolChanges++);
			client.onDidUpdateResource(({ uri }) => updates.push(uri));
			client.listenForChanges({ tools: true, prompts: true, resources: true });
			await client.subscribe('mem://counter');
			assert.equal(
				logger.find('listening for changes (tools, prompts, resources, 1 resource) on subscriptions/listen').length,
				1,
			);
			await client.callTool('change_tools', {});
			await until(() => toolChanges === 1, 'notifications/tools/list_changed');
			await client.callTool('touch', { uri: 'mem://counter' });
			await client.callTool('touch', { uri: 'mem://other' });
			await until(() => updates.length === 1, 'notifications/resources/updated');
			assert.deepEqual(updates, ['mem://counter'], 'only the subscribed resource');
			const log = await serverLog(client);
			assert.equal(log.listens, 1, 'one listen stream per server carries all of it');
			assert.equal(log.requests.filter((r) => r.method === 'resources/subscribe').length, 0);
			assert.doesNotMatch(logger.entries.map((e) => e.message).join('\n'), /GET stream|listening stream/);
		});

		test('a dropped listen stream is opened again after the backoff and delivers again', async () => {
			const { client, logger } = await open(where, { listen: { retryDelayMs: 50 } });
			let toolChanges = 0;
			client.onDidChangeTools(() => toolChanges++);
			client.listenForChanges({ tools: true });
			await until(() => logger.find('listening for changes').length === 1, 'the first acknowledgment');
			assert.match(text(await client.callTool('drop_listens', {})), /dropped [1-9]/);
			await until(() => logger.find('listening for changes').length === 2, 'the listen opened again');
			assert.equal(
				logger.find(
					where === 'http' ? 'subscriptions/listen ended' : 'the server ended the subscriptions/listen stream',
				).length,
				1,
			);
			await client.callTool('change_tools', {});
			await until(() => toolChanges === 1, 'a list change on the new stream');
		});

		test('bad input: an unknown resultType and a server request from a 2026-07-28 server are clear errors naming the server and the step', async () => {
			let asked = 0;
			const { client, logger } = await open(where, {
				handlers: { elicitation: async () => (asked++, { action: 'accept', content: {} }) },
			});
			await assert.rejects(
				client.callTool('weird_result', {}),
				(error: unknown) =>
					error instanceof McpError &&
					error.code === ErrorCode.ProtocolViolation &&
					error.message ===
						`fixture-${where} answered tools/call with resultType "banana", which this client does not know`,
			);
			assert.equal(text(await client.callTool('mixed', {})), `refused ${ErrorCode.InvalidRequest}`);
			assert.equal(asked, 0, 'the user is never asked');
			assert.equal(
				logger.find(
					`fixture-${where}: the server sent a elicitation/create request, which a 2026-07-28 server may not send (it mixes protocol versions); refused`,
				).length,
				1,
			);
			assert.equal(
				text(await client.callTool('echo', { text: 'still fine' })),
				'still fine',
				'the connection keeps working',
			);
		});

		test('bad input: a server that lies in server/discover gets an error naming it and the request, not a loop', async () => {
			const { client } = await open(where, {}, lyingUrl, ['--lie']);
			assert.equal(client.era, 'modern');
			await assert.rejects(
				client.listTools(),
				(error: unknown) =>
					error instanceof McpError &&
					error.code === -32022 &&
					/^fixture-\w+ refused tools\/list with protocol version 2026-07-28: it says it supports 2099-01-01, although server\/discover listed 2026-07-28/.test(
						error.message,
					),
			);
		});
	});
}

test('http: closing the client closes its listen stream on the server', async () => {
	const { client, logger } = await open('http');
	client.listenForChanges({ tools: true });
	await until(() => logger.find('listening for changes').length === 1, 'the acknowledgment');
	const { client: observer } = await open('http');
	const before = (await serverLog(observer)).listens;
	await client.close();
	const end = Date.now() + 10_000;
	let now = before;
	while (now >= before && Date.now() < end) {
		await new Promise((resolve) => setTimeout(resolve, 50));
		now = (await serverLog(observer)).listens;
	}
	assert.equal(now, before - 1);
});

test('http: a reply stream cut before its response is sent again with a NEW request id ("clients MUST re-issue it as a new request with a new request ID")', async () => {
	const { client, logger } = await open('http');
	assert.equal(text(await client.callTool('cut_once', { key: 'k1' })), 'ok k1');
	const calls = (await serverLog(client)).requests.filter((r) => r.method === 'tools/call' && r.name === 'cut_once');
	assert.equal(calls.length, 2);
	assert.notEqual(calls[0]?.id, calls[1]?.id);
	assert.equal(logger.find('sending tools/call again with a new request id').length, 1);
});

test('http: -32020 (HeaderMismatch) makes the client list tools again and retry the call once with a new id', async () => {
	const { client, logger } = await open('http');
	let changed = 0;
	client.onDidChangeTools(() => changed++);
	assert.equal(text(await client.callTool('header_mismatch_once', {})), 'ok after re-list');
	const requests = (await serverLog(client)).requests;
	const first = requests.findIndex((r) => r.name === 'header_mismatch_once');
	const retry = requests.findIndex((r, i) => i > first && r.name === 'header_mismatch_once');
	assert.ok(first >= 0 && retry > first);
	assert.ok(
		requests.slice(first + 1, retry).some((r) => r.method === 'tools/list'),
		'tools/list between the refusal and the retry',
	);
	assert.notEqual(requests[first]?.id, requests[retry]?.id);
	assert.equal(changed, 1, 'the re-listed tools are announced');
	assert.equal(logger.find('listing tools again and retrying once').length, 1);
});

for (const where of ['stdio', 'http'] as const) {
	test(`the Manager over ${where}: a 2026-07-28 server's tool list in the view follows its changes through subscriptions/listen, and a restart listens again`, async () => {
		const loggers = new Map<string, MemoryLogger>();
		const manager = new Manager({
			logger: (name) => loggers.get(name) ?? (loggers.set(name, new MemoryLogger('debug')), loggers.get(name)!),
		});
		try {
			const config = where === 'stdio' ? modernStdio() : { type: 'http' as const, url: httpUrl };
			await manager.reconcile([
				{ name: 'modern', config, source: { kind: 'user', label: 'User settings' }, workspaceDefined: false },
			]);
			await until(() => (manager.get('modern')?.tools.length ?? 0) > 0, 'the first tools/list');
			const before = manager.get('modern')?.tools.length ?? 0;
			const log = loggers.get('modern')!;
			await until(() => log.find('listening for changes (tools, prompts, resources)').length === 1, 'the listen');
			await manager.callTool('modern', 'change_tools', {});
			await until(() => manager.get('modern')?.tools.length === before + 1, 'the new tool in the view');
			await manager.restart('modern');
			await until(
				() => log.find('listening for changes (tools, prompts, resources)').length === 2,
				'the listen of the new connection',
			);
			await until(() => (manager.get('modern')?.tools.length ?? 0) > 0, 'the tools of the new connection');
			const afterRestart = manager.get('modern')?.tools.length ?? 0;
			await manager.callTool('modern', 'change_tools', {});
			await until(() => manager.get('modern')?.tools.length === afterRestart + 1, 'a change after the restart');
		} finally {
			await manager.dispose();
		}
	});
}

// Caching (https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching): server/discover is a
// cacheable result; "Once the TTL expires, the response is stale and the client SHOULD re-fetch on next access", and
// "Clients SHOULD NOT treat TTL as a polling interval that triggers automatic background refetches".
test('stdio: server/discover is run again on the first request after its ttlMs (not by a timer, not while fresh); new instructions reach the client and onDidChangeDiscovery fires', async () => {
	let offset = 0;
	// The real clock, moved forward on demand: only while no request is in flight, so no deadline is affected.
	const clock = {
		now: () => Date.now() + offset,
		setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms),
		clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
	};
	const { client, logger } = await open('stdio', { clock });
	const discovers = async () =>
		(await serverLog(client)).requests.filter((request) => request.method === 'server/discover').length;
	let changes = 0;
	client.onDidChangeDiscovery(() => changes++);
	assert.equal(client.discoverCacheHints.ttlMs, 60_000);
	assert.equal(client.instructions, 'A 2026-07-28 fixture.');
	await client.callTool('set_discover', { ttlMs: 60_000, instructions: 'Changed instructions.' });
	await client.callTool('echo', { text: 'fresh' });
	assert.equal(await discovers(), 1, 'fresh for 60 s: not asked again');
	offset += 61_000;
	await new Promise((resolve) => setTimeout(resolve, 200));
	assert.equal(await discovers(), 2, 'stale: the next request discovered again (the log call itself was that request)');
	await until(() => client.instructions === 'Changed instructions.', 'the new instructions');
	assert.equal(changes, 1, 'onDidChangeDiscovery fired once');
	await client.callTool('echo', { text: 'fresh again' });
	assert.equal(await discovers(), 2, 'fresh again for its new ttlMs');
	assert.equal(logger.find('server/discover answered differently after its ttlMs').length, 1);
	offset += 61_000;
	await client.callTool('echo', { text: 'stale, same answer' });
	await until(() => logger.find('server/discover is older than its ttlMs').length === 2, 'a third discovery');
	await serverLog(client);
	assert.equal(changes, 1, 'the same answer fires nothing');
});
