// Save as Session… from the Call History against a server nobody here wrote: calls made through the Manager with
// server-everything land in the Call History (the class the view shows), the history's entries become a session file
// (manager/sessionFromCalls.ts, with the running connection's handshake and lists), and `mcp-switchboard replay`
// (dist/cli.js) serves it: a client of the replay lists the same tools and gets the same answers the history holds.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import { connect } from '../../src/core';
import type { Host } from '../../src/manager/host';
import { Manager } from '../../src/manager/manager';
import { sessionFromCalls } from '../../src/manager/sessionFromCalls';
import { formatSession, handshakeOf } from '../../src/manager/sessionRecording';
import { CallHistory, type KeyValueStore } from '../../src/vscode/console/callHistory';
import { startEverythingStdio } from '../fixtures/everythingStdio';

const cli = join(process.cwd(), 'dist/cli.js');
const scratch = mkdtempSync(join(tmpdir(), 'history-session-it-'));
const file = join(scratch, 'everything.mcpsession.json');
const DOC = 'demo://resource/static/document/architecture.md';
after(() => rmSync(scratch, { recursive: true, force: true }));

const data = new Map<string, unknown>();
const store: KeyValueStore = {
	get: <T>(key: string) => data.get(key) as T | undefined,
	update: async (key, value) => void data.set(key, value),
};
const history = new CallHistory(store);
const real: { tools: string[]; echo: unknown; sum: unknown; resource: unknown; prompt: unknown } = {
	tools: [],
	echo: undefined,
	sum: undefined,
	resource: undefined,
	prompt: undefined,
};
let calls = 0;

before(async () => {
	const host: Host = { logger: () => new MemoryLogger('info'), roots: () => [] };
	const manager = new Manager(host);
	const listening = manager.onDidInvoke((record) => void history.add(record));
	try {
		await startEverythingStdio(manager);
		real.echo = await manager.callTool('everything', 'echo', { message: 'from the history' }, { origin: 'palette' });
		real.sum = await manager.callTool('everything', 'get-sum', { a: 2, b: 3 }, { origin: 'chat' });
		real.resource = await manager.readResource('everything', DOC, { origin: 'palette' });
		real.prompt = await manager.getPrompt('everything', 'args-prompt', { city: 'Lyon' }, { origin: 'palette' });
		const view = manager.get('everything')!;
		real.tools = view.tools.map((named) => named.tool.name);
		assert.ok(real.tools.includes('echo'));
		assert.equal(history.all().length, 4, 'the four calls are in the history');
		const made = sessionFromCalls('everything', history.all(), {
			handshake: handshakeOf(manager.client('everything')),
			lists: {
				tools: view.tools.map((named) => named.tool),
				prompts: view.prompts,
				resources: view.resources,
				resourceTemplates: view.resourceTemplates,
			},
		});
		calls = made.calls;
		writeFileSync(file, formatSession(made.session));
	} finally {
		listening.dispose();
		await manager.dispose();
	}
});

test('the history of a server replays: a client lists the same tools and gets the answers the history holds', async () => {
	assert.equal(calls, 4);
	const client = await connect({ type: 'stdio', command: process.execPath, args: [cli, 'replay', file] });
	try {
		assert.equal(client.serverInfo.name, 'mcp-servers/everything');
		assert.deepEqual(
			(await client.listTools()).map((tool) => tool.name),
			real.tools,
		);
		assert.deepEqual(await client.callTool('echo', { message: 'from the history' }), real.echo);
		assert.deepEqual(await client.callTool('get-sum', { a: 2, b: 3 }), real.sum);
		assert.deepEqual(await client.readResource(DOC), real.resource);
		assert.deepEqual(await client.getPrompt('args-prompt', { city: 'Lyon' }), real.prompt);
		await assert.rejects(client.callTool('echo', { message: 'never called' }), /Not in the recorded session/);
	} finally {
		await client.close();
	}
});
