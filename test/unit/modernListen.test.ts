// subscriptions/listen against a scripted 2026-07-28 server: the filter comes from what the caller caches and the
// resources it subscribed to; the stream is replaced without a gap when that changes, opened again with a backoff
// after a drop, and never after the client closed. Spec quotes from
// https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLogger } from '../../src/common/logger';
import { McpClient, type ClientOptions } from '../../src/protocol/client';
import { ErrorCode, type RequestId } from '../../src/protocol/jsonrpc';
import { McpError } from '../../src/protocol/mcpError';
import { FakeServer, ManualClock } from '../fixtures/fakeServer';
import { linkedPair } from '../fixtures/linkedTransport';

const V = '2026-07-28';
const SUB = 'io.modelcontextprotocol/subscriptionId';

interface Listen {
	id: RequestId;
	notifications: Record<string, unknown>;
	end(result?: Record<string, unknown>): void;
	fail(error: McpError): void;
}

/** A modern fake whose subscriptions/listen stays open until the test ends it; `ack` shapes the acknowledgment. */
function modernListenServer(
	server: FakeServer,
	ack: (requested: Record<string, unknown>) => Record<string, unknown> | undefined = (r) => r,
) {
	const listens: Listen[] = [];
	server
		.on('server/discover', () => ({
			resultType: 'complete',
			supportedVersions: [V],
			capabilities: {
				tools: { listChanged: true },
				prompts: { listChanged: true },
				resources: { subscribe: true, listChanged: true },
			},
			_meta: { 'io.modelcontextprotocol/serverInfo': { name: 'listen-fake', version: '1' } },
		}))
		.on('subscriptions/listen', (params, context) => {
			const id = context.request.id;
			const notifications = params.notifications as Record<string, unknown>;
			return new Promise((resolve, reject) => {
				listens.push({
					id,
					notifications,
					end: (result) => resolve({ resultType: 'complete', _meta: { [SUB]: id }, ...result }),
					fail: reject,
				});
				const granted = ack(notifications);
				// "The server MUST send notifications/subscriptions/acknowledged as the first message"
				if (granted !== undefined)
					server.notify('notifications/subscriptions/acknowledged', { _meta: { [SUB]: id }, notifications: granted });
			});
		});
	return listens;
}

async function connect(
	ack?: (requested: Record<string, unknown>) => Record<string, unknown> | undefined,
	options: ClientOptions = {},
) {
	const pair = linkedPair();
	const server = new FakeServer(pair.server);
	const listens = modernListenServer(server, ack);
	const logger = new MemoryLogger('debug');
	const clock = new ManualClock();
	// These servers answer initialize too: pinned to 2026-07-28, the era under test (auto would pick 2025-11-25).
	const client = await McpClient.connect(pair.client, {
		name: 'fake',
		logger,
		listen: { clock },
		protocolVersion: '2026-07-28',
		...options,
	});
	return { server, client, listens, logger, clock };
}

/** Lets queued microtasks and the linked pair's deliveries run. */
async function settle(): Promise<void> {
	for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

test('the listen asks for the lists the caller caches; tagged notifications arrive, ones tagged with another id are dropped', async () => {
	const { server, client, listens, logger } = await connect();
	let tools = 0;
	client.onDidChangeTools(() => tools++);
	client.listenForChanges({ tools: true, prompts: false, resources: true });
	await settle();
	assert.equal(listens.length, 1);
	assert.deepEqual(listens[0]?.notifications, { toolsListChanged: true, resourcesListChanged: true });
	const meta = server.requests('subscriptions/listen')[0]?.params?._meta as Record<string, unknown>;
	assert.equal(
		meta['io.modelcontextprotocol/protocolVersion'],
		V,
		'the listen carries the request metadata like any request',
	);
	server.notify('notifications/tools/list_changed', { _meta: { [SUB]: listens[0]?.id } });
	server.notify('notifications/tools/list_changed', { _meta: { [SUB]: 999 } });
	await settle();
	assert.equal(
		tools,
		1,
		'"clients MUST use this field to correlate notifications with their originating subscription"',
	);
	assert.equal(logger.find('listening for changes (tools, resources) on subscriptions/listen').length, 1);
	await client.close();
});

test('subscribe opens a listen with the resource, cancels the old one after the new one is acknowledged, and resolves; unsubscribe removes it', async () => {
	const { server, client, listens } = await connect();
	const updates: string[] = [];
	client.onDidUpdateResource(({ uri }) => updates.push(uri));
	client.listenForChanges({ tools: true });
	await settle();
	await client.subscribe('file:///a.txt');
	assert.equal(listens.length, 2);
	assert.deepEqual(listens[1]?.notifications, { toolsListChanged: true, resourceSubscriptions: ['file:///a.txt'] });
	await settle();
	const cancelled = server
		.notifications('notifications/cancelled')
		.map((m) => ('params' in m ? m.params?.requestId : undefined));
	assert.deepEqual(cancelled, [listens[0]?.id], 'over stdio a listen ends with notifications/cancelled for its id');
	server.notify('notifications/resources/updated', { _meta: { [SUB]: listens[0]?.id }, uri: 'file:///a.txt' });
	server.notify('notifications/resources/updated', { _meta: { [SUB]: listens[1]?.id }, uri: 'file:///a.txt' });
	await settle();
	assert.deepEqual(updates, ['file:///a.txt'], 'only the live subscription delivers');
	await client.subscribe('file:///a.txt');
	assert.equal(listens.length, 2, 'subscribing again to a URI already acknowledged sends nothing');
	await client.unsubscribe('file:///a.txt');
	await settle();
	assert.equal(listens.length, 3);
	assert.deepEqual(listens[2]?.notifications, { toolsListChanged: true });
	assert.equal(server.requests('resources/subscribe').length, 0, '2026-07-28 has no resources/subscribe');
	await client.close();
});

test('a dropped stream is opened again after 1 s, then 2 s; a graceful end too; nothing after close', async () => {
	const { client, listens, clock, logger } = await connect();
	client.listenForChanges({ tools: true });
	await settle();
	listens[0]?.fail(new McpError(ErrorCode.InternalError, 'stream lost'));
	await settle();
	assert.equal(logger.find('subscriptions/listen ended: stream lost').length, 1);
	clock.advance(999);
	await settle();
	assert.equal(listens.length, 1, 'not before the backoff');
	clock.advance(1);
	await settle();
	assert.equal(listens.length, 2);
	listens[1]?.fail(new McpError(ErrorCode.InternalError, 'stream lost again'));
	await settle();
	clock.advance(1_999);
	await settle();
	assert.equal(listens.length, 2, 'the second drop in a row waits twice as long');
	clock.advance(1);
	await settle();
	assert.equal(listens.length, 3);
	// "it SHOULD respond to the original subscriptions/listen request with a completion result before closing"
	listens[2]?.end();
	await settle();
	assert.equal(logger.find('the server ended the subscriptions/listen stream').length, 1);
	clock.advance(4_000);
	await settle();
	assert.equal(listens.length, 4);
	await client.close();
	clock.advance(60_000);
	await settle();
	assert.equal(listens.length, 4, 'a closed client never listens again');
});

test('an acknowledgment without the resource rejects subscribe naming the server and the URI; -32601 stops listening for good', async () => {
	const { client, listens } = await connect((requested) => ({ toolsListChanged: requested.toolsListChanged }));
	client.listenForChanges({ tools: true });
	await assert.rejects(
		client.subscribe('file:///b.txt'),
		(error: unknown) =>
			error instanceof McpError &&
			error.code === ErrorCode.CapabilityMissing &&
			/fake acknowledged subscriptions\/listen without file:\/\/\/b\.txt/.test(error.message),
	);
	await client.close();
	assert.equal(listens.length, 1);

	const pair = linkedPair();
	const server = new FakeServer(pair.server);
	modernListenServer(server);
	server.on('subscriptions/listen', () => {
		throw McpError.methodNotFound('subscriptions/listen');
	});
	const logger = new MemoryLogger('debug');
	const clock = new ManualClock();
	const old = await McpClient.connect(pair.client, {
		name: 'old',
		logger,
		listen: { clock },
		protocolVersion: '2026-07-28',
	});
	old.listenForChanges({ tools: true });
	await assert.rejects(
		old.subscribe('file:///c.txt'),
		(error: unknown) => error instanceof McpError && error.code === ErrorCode.MethodNotFound,
	);
	assert.equal(logger.find('old does not support subscriptions/listen').length, 1);
	clock.advance(120_000);
	await settle();
	assert.equal(server.requests('subscriptions/listen').length, 1, 'no retry loop against a server without the method');
	await old.close();
});

test('a listen never acknowledged is given up after the ack timeout, cancelled, and tried again after the backoff', async () => {
	const pair = linkedPair();
	const server = new FakeServer(pair.server);
	const listens = modernListenServer(server, () => undefined);
	const logger = new MemoryLogger('debug');
	const clock = new ManualClock();
	const client = await McpClient.connect(pair.client, {
		name: 'quiet',
		logger,
		listen: { clock, ackTimeoutMs: 5_000 },
		protocolVersion: '2026-07-28',
	});
	client.listenForChanges({ prompts: true });
	await settle();
	clock.advance(5_000);
	await settle();
	assert.equal(logger.find('quiet: subscriptions/listen was not acknowledged within 5 s').length, 1);
	assert.equal(server.notifications('notifications/cancelled').length, 1, 'the unacknowledged listen is cancelled');
	clock.advance(1_000);
	await settle();
	assert.equal(listens.length, 2);
	await client.close();
});
