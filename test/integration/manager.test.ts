// The Manager against real processes: the fixture server in test/fixtures/servers/manager/mcpServer.js, started
// through the default connector (StdioTransport + McpClient), with the system clock.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import type { Host } from '../../src/manager/host';
import { Manager, type ResolvedServer, type ServerState } from '../../src/manager/manager';

const script = join(process.cwd(), 'test/fixtures/servers/manager/mcpServer.js');
const scratch = mkdtempSync(join(tmpdir(), 'manager-it-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function host(): Host {
	const loggers = new Map<string, MemoryLogger>();
	return { logger: (name) => loggers.get(name) ?? (loggers.set(name, new MemoryLogger('info')), loggers.get(name)!) };
}

function server(name: string, args: string[] = [], timeoutMs?: number): ResolvedServer {
	return {
		name,
		config: { type: 'stdio', command: process.execPath, args: [script, ...args], ...(timeoutMs ? { timeoutMs } : {}) },
		source: { kind: 'user', label: 'User settings' },
		workspaceDefined: false,
	};
}

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

function pids(file: string): number[] {
	try {
		return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map(Number);
	} catch {
		return [];
	}
}

async function pidOf(manager: Manager, name: string): Promise<number> {
	const result = await manager.callTool(name, 'pid', {});
	return Number((result.content[0] as unknown as { text: string }).text);
}

/** Waits until `predicate` holds, polling; fails with `what` after `ms`. */
async function until(predicate: () => boolean, what: string, ms = 15_000): Promise<void> {
	const end = Date.now() + ms;
	while (!predicate()) {
		if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 20));
	}
}

test('a server that crashes on start and one that hangs do not stop the others; the hung one is killed at its timeout', async (t) => {
	const pidFile = join(scratch, 'hang.pids');
	const manager = new Manager(host(), { maxConcurrentStarts: { stdio: 2 } });
	t.after(() => manager.dispose());
	const started = Date.now();
	const reconciled = manager.reconcile([
		server('crashes', ['--crash-on-start']),
		server('hangs', ['--hang', '--pid-file', pidFile], 8000),
		server('ok1'),
		server('ok2'),
		server('ok3'),
	]);
	await until(() => ['ok1', 'ok2', 'ok3'].every((n) => manager.get(n)?.state.kind === 'running'), 'the good servers');
	assert.equal(
		manager.get('hangs')!.state.kind,
		'starting',
		'the good servers were up while the hung one was still waiting (they share 2 start slots)',
	);
	await reconciled;
	assert.ok(Date.now() - started >= 8000, 'reconcile waited for the hung server up to its own timeout');

	// The crashing server is being retried with backoff (1, 2, 4 s…) all this time: on a loaded machine one of its
	// retries may be starting right now, so look at it between two attempts.
	await until(
		() => manager.get('crashes')!.state.kind === 'error',
		'the crashing server in error between its retries',
		10_000,
	);
	const crashed = manager.get('crashes')!.state;
	assert.equal(crashed.kind, 'error');
	assert.match(
		crashed.kind === 'error' ? crashed.message : '',
		/missing configuration file settings\.toml/,
		'the last stderr line reaches the state',
	);
	assert.ok(crashed.kind === 'error' && crashed.retryAt !== undefined, 'a crash on start is retried with backoff');

	const hung = manager.get('hangs')!.state;
	assert.equal(hung.kind, 'error');
	assert.match(hung.kind === 'error' ? hung.message : '', /did not finish starting within 8 s/);
	const [hungPid] = pids(pidFile);
	assert.ok(hungPid);
	await until(() => !alive(hungPid), 'the hung process to be killed', 5000);

	await manager.dispose();
});

test('a command that does not exist: the state names the command and the PATH, and it is not retried', async (t) => {
	const manager = new Manager(host());
	t.after(() => manager.dispose());
	await manager.reconcile([
		{
			name: 'missing',
			config: { type: 'stdio', command: 'surely-not-a-command-xyz', args: [] },
			source: { kind: 'user', label: 'User settings' },
			workspaceDefined: false,
		},
	]);
	const state = manager.get('missing')!.state;
	assert.equal(state.kind, 'error');
	const message = state.kind === 'error' ? state.message : '';
	assert.match(message, /surely-not-a-command-xyz/);
	assert.match(message, /PATH/);
	assert.match(message, /absolute path/);
	assert.equal(state.kind === 'error' ? state.retryAt : 'x', undefined);
	await manager.dispose();
});

test('a server that crashes every few hundred ms is restarted with backoff, then stopped by the crash-loop cap', async (t) => {
	const pidFile = join(scratch, 'flaky.pids');
	const manager = new Manager(host(), {
		restartPolicy: { initialDelayMs: 100, maxDelayMs: 400, maxCrashes: 4, windowMs: 60_000 },
	});
	t.after(() => manager.dispose());
	const kinds: ServerState['kind'][] = [];
	manager.onDidChangeState(({ state }) => kinds.push(state.kind));
	await manager.reconcile([server('flaky', ['--crash-after', '300', '--pid-file', pidFile])]);
	await until(
		() => {
			const s = manager.get('flaky')!.state;
			return s.kind === 'error' && s.crashLoop === true;
		},
		'the crash-loop cap',
		20_000,
	);
	const state = manager.get('flaky')!.state;
	assert.match(state.kind === 'error' ? state.message : '', /stopped 4 times within 1 minute\b/);
	assert.equal(pids(pidFile).length, 4, 'four processes ran, one per start');
	assert.ok(pids(pidFile).every((pid) => !alive(pid)));
	assert.ok(kinds.filter((k) => k === 'running').length === 4);
	// Restart from the UI starts it again with a fresh count.
	await manager.restart('flaky');
	assert.equal(manager.get('flaky')!.state.kind, 'running');
	await manager.dispose();
	await until(() => pids(pidFile).every((pid) => !alive(pid)), 'no process left');
});

test('twenty servers at once all come up; a settings change restarts only the changed one; dispose leaves no process', async (t) => {
	const manager = new Manager(host());
	t.after(() => manager.dispose());
	const servers = Array.from({ length: 20 }, (_, i) => server(`s${i}`, ['--tools', '50']));
	await manager.reconcile(servers);
	assert.deepEqual(
		manager
			.servers()
			.filter((s) => s.state.kind !== 'running')
			.map((s) => `${s.name}: ${JSON.stringify(s.state)}`),
		[],
	);
	await until(() => manager.allTools().length === 20 * 52, 'every tool list');
	assert.equal(manager.findTool('mcp__s7__tool_3')?.server, 's7');

	const before = await Promise.all(servers.map((s) => pidOf(manager, s.name)));
	await manager.reconcile(servers.map((s, i) => (i === 5 ? server('s5', ['--tools', '10']) : s)));
	const afterPids = await Promise.all(servers.map((s) => pidOf(manager, s.name)));
	assert.deepEqual(
		afterPids.map((pid, i) => pid === before[i]),
		servers.map((_, i) => i !== 5),
	);
	assert.ok(!alive(before[5]!), 'the old process of the changed server is gone');
	await until(() => manager.get('s5')!.tools.length === 12, 's5 relisted');

	await manager.dispose();
	await until(() => afterPids.every((pid) => !alive(pid)), 'every process to exit', 5000);
});
