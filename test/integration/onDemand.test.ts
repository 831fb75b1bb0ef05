// Starting on first need, the listing cache and stopping when idle (#28), against real processes: the fixture server
// test/fixtures/servers/manager/mcpServer.js (each start appends its pid to a file) and listings kept in real files,
// read back by a second Manager as the next window would.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import type { Host } from '../../src/manager/host';
import { FileListingStore } from '../../src/manager/listingCache';
import { Manager, type ResolvedServer } from '../../src/manager/manager';

const script = join(process.cwd(), 'test/fixtures/servers/manager/mcpServer.js');
const scratch = mkdtempSync(join(tmpdir(), 'on-demand-it-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function host(): Host {
	const loggers = new Map<string, MemoryLogger>();
	return { logger: (name) => loggers.get(name) ?? (loggers.set(name, new MemoryLogger('info')), loggers.get(name)!) };
}

function server(name: string, pidFile: string, extra: string[] = []): ResolvedServer {
	return {
		name,
		config: { type: 'stdio', command: process.execPath, args: [script, '--pid-file', pidFile, ...extra] },
		source: { kind: 'user', label: 'User settings' },
		workspaceDefined: false,
	};
}

function pids(file: string): number[] {
	try {
		return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map(Number);
	} catch {
		return [];
	}
}

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** Waits until `predicate` holds, polling; fails with `what` after `ms`. */
/** How many listing summaries the store keeps in `folder` (its one file of summaries). */
function keptSummaries(folder: string): number {
	const kept = JSON.parse(readFileSync(join(folder, 'summaries.json'), 'utf8')) as { summaries: object };
	return Object.keys(kept.summaries).length;
}

async function until(predicate: () => boolean, what: string, ms = 15_000): Promise<void> {
	const end = Date.now() + ms;
	while (!predicate()) {
		if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 20));
	}
}

test('ten servers: none runs before it is needed, a call starts one, and the next session lists it without a start', async (t) => {
	const folder = join(scratch, 'listings');
	const pidFile = join(scratch, 'ten.pids');
	const servers = Array.from({ length: 10 }, (_, i) => server(`s${i}`, pidFile, ['--tools', String(i + 1)]));

	const store = new FileListingStore(folder);
	const first = new Manager(host(), { autoStart: false, listingStore: store });
	t.after(() => first.dispose());
	await first.reconcile(servers);
	assert.deepEqual(pids(pidFile), [], 'no process before the first need');
	assert.ok(first.servers().every((s) => s.state.kind === 'stopped' && s.tools.length === 0));
	const result = await first.callTool('s3', 'tool_0', {});
	assert.equal(result.isError, undefined);
	assert.equal(pids(pidFile).length, 1, 'exactly one process: the server called');
	await first.need('s3');
	await first.dispose();
	await store.flush();
	assert.deepEqual(
		readdirSync(folder).filter((f) => f.endsWith('.json') && f !== 'summaries.json').length,
		1,
		'one listing kept, as a file',
	);
	assert.deepEqual(keptSummaries(folder), 1, 'and its summary beside it, in the one file of summaries');

	const second = new Manager(host(), { autoStart: false, listingStore: new FileListingStore(folder) });
	t.after(() => second.dispose());
	await second.reconcile(servers);
	const s3 = second.get('s3')!;
	assert.deepEqual(s3.state, { kind: 'stopped', onDemand: 'notStarted' });
	assert.deepEqual(
		s3.tools.map((t) => t.qualifiedName),
		['mcp__s3__pid', 'mcp__s3__env', 'mcp__s3__tool_0', 'mcp__s3__tool_1', 'mcp__s3__tool_2', 'mcp__s3__tool_3'],
	);
	assert.ok(s3.listedAt !== undefined && s3.listedAt <= Date.now());
	assert.equal(second.get('s4')!.tools.length, 0, 'a server never listed shows nothing yet');
	assert.equal(pids(pidFile).length, 1, 'showing the cached tools started nothing');
	const pid = Number(((await second.callTool('s3', 'pid', {})).content[0] as { text?: string }).text ?? 'NaN');
	assert.equal(pids(pidFile).length, 2);
	assert.ok(alive(pid));
	await second.need('s3');
	assert.equal(second.get('s3')!.listedAt, undefined, 'once running, the lists are live');
	await second.dispose();
	assert.ok(!alive(pid), 'no process left behind');
});

/** A file store that counts the listings it reads (a summary read is not one). */
class CountingStore extends FileListingStore {
	loads = 0;
	override load(identity: string) {
		this.loads++;
		return super.load(identity);
	}
}

test('a row reads the summary kept beside a listing, not the listing; the tools are read when asked for', async (t) => {
	const folder = join(scratch, 'summaries-listings');
	const pidFile = join(scratch, 'summaries.pids');
	const servers = Array.from({ length: 3 }, (_, i) => server(`r${i}`, pidFile, ['--tools', String(i + 2)]));
	const kept = new FileListingStore(folder);
	const first = new Manager(host(), { autoStart: false, listingStore: kept });
	t.after(() => first.dispose());
	await first.reconcile(servers);
	for (const { name } of servers) await first.need(name);
	const listed = servers.map(({ name }) => first.get(name)!.tools.map((named) => named.tool.name));
	await first.dispose();
	// The listings and their summaries are written in the background: the next window starts once they are on disk.
	await kept.flush();

	const window = async (store: CountingStore) => {
		const manager = new Manager(host(), { autoStart: false, listingStore: store });
		t.after(() => manager.dispose());
		await manager.reconcile(servers);
		return manager;
	};
	const store = new CountingStore(folder);
	const second = await window(store);
	assert.deepEqual(
		servers.map(({ name }) => second.get(name)!.toolNames),
		listed,
		'each row has its tools by name',
	);
	assert.ok(servers.every(({ name }) => (second.get(name)!.listedAt ?? Infinity) <= Date.now()));
	assert.equal(store.loads, 0, 'no listing was read to show the rows');
	assert.deepEqual(
		second.get('r1')!.tools.map((named) => named.qualifiedName),
		listed[1]!.map((tool) => `mcp__r1__${tool}`),
	);
	assert.equal(store.loads, 1, 'expanding one server reads its listing only');
	assert.equal(pids(pidFile).length, 3, 'nothing started in the second window');

	// Listings kept before summaries were: each is summarised once (reading it), and the summary kept for next time.
	rmSync(join(folder, 'summaries.json'));
	const legacy = new CountingStore(folder);
	const third = await window(legacy);
	assert.deepEqual(third.get('r2')!.toolNames, listed[2]);
	assert.equal(legacy.loads, 1);
	await legacy.flush();
	assert.deepEqual(keptSummaries(folder), 1, 'the summary of the listing read');
});

test('an unused server stops after the idle time, its process exits, and the next call starts it again', async () => {
	const pidFile = join(scratch, 'idle.pids');
	const folder = join(scratch, 'idle-listings');
	const manager = new Manager(host(), {
		autoStart: false,
		idleStopMs: 300,
		listingStore: new FileListingStore(folder),
	});
	try {
		await manager.reconcile([server('idler', pidFile)]);
		await manager.callTool('idler', 'tool_1', {});
		const [pid] = pids(pidFile);
		await until(() => manager.get('idler')!.state.kind === 'stopped', 'the idle stop');
		assert.deepEqual(manager.get('idler')!.state, { kind: 'stopped', onDemand: 'idle' });
		await until(() => !alive(pid!), 'the process to exit');
		assert.ok(
			manager.allTools().some((t) => t.qualifiedName === 'mcp__idler__tool_1'),
			'its tools are still offered',
		);
		await manager.callTool('idler', 'tool_1', {});
		assert.equal(pids(pidFile).length, 2, 'the call started it again');
	} finally {
		await manager.dispose();
	}
	assert.ok(existsSync(folder));
});
