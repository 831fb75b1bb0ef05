// Check This Server for a stdio server: the official conformance suite (@modelcontextprotocol/conformance 0.1.16, on
// the Node 22 of scripts/node22.mjs) run through the loopback stdio bridge against server-everything started as a
// stdio process, compared scenario by scenario with the same suite run against server-everything's own Streamable
// HTTP endpoint. Cancelling a check must leave no process: neither the suite nor any server process it started.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { checkServerConformance } from '../../src/gateway/serverCheck';
import { startStdioBridge } from '../../src/gateway/stdioBridge';
import { McpClient } from '../../src/protocol/client';
import { createTransport } from '../../src/protocol/transports/createTransport';
import { conformanceMarkdown, runServerConformance, type SuiteCommand } from '../../src/manager/conformance';
import { everythingMain, freePort, startEverythingHttp } from '../fixtures/everythingHttp';

/** The scenarios that test the HTTP transport itself: through the bridge, they test the bridge (see the report). */
const TRANSPORT_SCENARIOS = ['dns-rebinding-protection', 'server-sse-polling', 'server-sse-multiple-streams'];
const CLI = join(process.cwd(), 'node_modules/conformance-0.1/dist/index.js');
let suite: SuiteCommand;
let httpServer: ChildProcess | undefined;
const folders: string[] = [];

before(async () => {
	// Loaded at run time: the script is an ES module with top-level await, which the test bundle cannot hold.
	const script = pathToFileURL(join(process.cwd(), 'scripts/node22.mjs')).href;
	const { ensureNode22 } = (await import(script)) as { ensureNode22: () => Promise<string> };
	suite = { command: await ensureNode22(), args: [CLI] };
});

after(() => {
	httpServer?.kill('SIGKILL');
	for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A fresh folder to run server processes in: every process whose working folder it is was started by the check. */
function ownFolder(): string {
	const folder = mkdtempSync(join(tmpdir(), 'mcp-check-stdio-'));
	folders.push(folder);
	return folder;
}

/** The processes on this machine running in `folder` (Linux /proc), as pids. */
function processesIn(folder: string): number[] {
	const pids: number[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			if (readlinkSync(`/proc/${entry}/cwd`) === folder) pids.push(Number(entry));
		} catch {
			// gone meanwhile, or not ours to read
		}
	}
	return pids;
}

/** This test process's children running the conformance suite's CLI. */
function suiteChildren(): number[] {
	const pids: number[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
			const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			if (parent !== process.pid) continue;
			if (readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes('conformance-0.1')) pids.push(Number(entry));
		} catch {
			// gone meanwhile
		}
	}
	return pids;
}

test(
	'a stdio server-everything passes the same scenarios through the bridge as its own HTTP endpoint does',
	{ timeout: 480_000 },
	async () => {
		const port = await freePort();
		httpServer = await startEverythingHttp('streamableHttp', port);
		const overHttp = await runServerConformance('everything', `http://127.0.0.1:${port}/mcp`, suite);
		httpServer.kill('SIGKILL');
		httpServer = undefined;

		const folder = ownFolder();
		const overStdio = await checkServerConformance(
			'everything',
			{ type: 'stdio', command: process.execPath, args: [everythingMain, 'stdio'], cwd: folder },
			suite,
		);
		assert.equal(overHttp.failure, undefined);
		assert.equal(overStdio.failure, undefined);
		const passed = (report: typeof overHttp) =>
			report.scenarios
				.filter((s) => s.passed)
				.map((s) => s.name)
				.sort();
		const httpPassed = passed(overHttp);
		const stdioPassed = passed(overStdio);
		console.log(
			`conformance of server-everything: HTTP ${httpPassed.length}/${overHttp.scenarios.length} passed, ` +
				`stdio through the bridge ${stdioPassed.length}/${overStdio.scenarios.length} passed`,
		);
		for (const scenario of overStdio.scenarios) {
			const failure = scenario.checks.find((check) => check.status === 'FAILURE');
			console.log(
				`  ${scenario.name}: http ${httpPassed.includes(scenario.name) ? 'pass' : 'fail'}, stdio ${scenario.passed ? 'pass' : `fail (${failure?.errorMessage ?? '?'})`}`,
			);
		}
		assert.deepEqual(overStdio.scenarios.map((s) => s.name).sort(), overHttp.scenarios.map((s) => s.name).sort());
		// The scenarios about the server pass and fail alike; those about the HTTP transport test the bridge there.
		const aboutServer = (names: string[]) => names.filter((name) => !TRANSPORT_SCENARIOS.includes(name));
		assert.deepEqual(aboutServer(stdioPassed), aboutServer(httpPassed));
		assert.ok(stdioPassed.includes('dns-rebinding-protection'), 'the bridge refuses a foreign Host and Origin');
		// Logging and subscriptions (notifications the server sends by itself) pass through the bridge.
		for (const name of ['server-initialize', 'tools-list', 'logging-set-level', 'resources-subscribe'])
			assert.ok(stdioPassed.includes(name), `${name} passes through the bridge`);

		const markdown = conformanceMarkdown(overStdio);
		assert.match(markdown, /^Server: `\S+ \S+everything\S+ stdio` \(stdio\)$/m);
		assert.match(markdown, /loopback bridge/);
		assert.match(markdown, /^- ✅ \*\*ping\*\*$/m);
		assert.deepEqual(processesIn(folder), [], 'every server process the check started has exited');
	},
);

test('cancelling a stdio check stops the suite and every server process it started', { timeout: 240_000 }, async () => {
	const folder = ownFolder();
	const cancel = new AbortController();
	const running = checkServerConformance(
		'everything',
		{ type: 'stdio', command: process.execPath, args: [everythingMain, 'stdio'], cwd: folder },
		suite,
		{ signal: cancel.signal },
	);
	// Cancel once the suite has a server process running behind the bridge, as a person pressing Cancel would.
	while (processesIn(folder).length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
	assert.ok(suiteChildren().length > 0, 'the suite runs');
	cancel.abort();
	const report = await running;
	assert.deepEqual(processesIn(folder), [], 'no server process is left');
	assert.deepEqual(suiteChildren(), [], 'the suite is not left running');
	assert.ok(report.scenarios.length < 30, 'the suite stopped before its end');
});

// server-everything has none of the suite's own test tools, so the scenarios where the server sends requests and
// notifications during a call fail over both transports above; a server that has them shows they pass the bridge.
const TOOLS_SERVER = join(process.cwd(), 'test/fixtures/servers/conformanceTools.mjs');

for (const scenario of [
	'tools-call-with-logging',
	'tools-call-with-progress',
	'tools-call-sampling',
	'tools-call-elicitation',
]) {
	test(`${scenario} passes through the bridge (the server's own messages and the client's answers)`, async () => {
		const folder = ownFolder();
		const report = await checkServerConformance(
			'tools',
			{ type: 'stdio', command: process.execPath, args: [TOOLS_SERVER], cwd: folder },
			suite,
			{ scenario },
		);
		assert.equal(report.failure, undefined);
		assert.deepEqual(
			report.scenarios.map((s) => [s.name, s.passed, s.checks.find((c) => c.status === 'FAILURE')?.errorMessage]),
			[[scenario, true, undefined]],
		);
		assert.deepEqual(processesIn(folder), []);
	});
}

test('a roots/list request from the server reaches the client through the bridge', async () => {
	const bridge = await startStdioBridge({
		spawn: () => createTransport({ type: 'stdio', command: process.execPath, args: [TOOLS_SERVER] }),
	});
	try {
		const client = await McpClient.connect(createTransport({ type: 'http', url: bridge.url }), {
			name: 'tools',
			handlers: { roots: () => [{ uri: 'file:///work/project-a', name: 'Project A' }] },
		});
		const result = await client.callTool('test_roots', {});
		assert.deepEqual(result.content, [{ type: 'text', text: 'Roots: file:///work/project-a' }]);
		assert.equal(bridge.sessionCount, 1);
		await client.close();
	} finally {
		await bridge.close();
	}
	assert.equal(bridge.sessionCount, 0);
	assert.equal(bridge.sessionsStarted, 1);
});

test('the bridge refuses a foreign Host and a request outside its secret path', async () => {
	const bridge = await startStdioBridge({
		spawn: () => createTransport({ type: 'stdio', command: process.execPath, args: [TOOLS_SERVER] }),
	});
	try {
		const url = new URL(bridge.url);
		const post = (path: string, headers: Record<string, string> = {}) =>
			fetch(new URL(path, url), {
				method: 'POST',
				headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
				body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
			});
		assert.equal((await post('/mcp')).status, 404);
		assert.equal((await post(url.pathname, { origin: 'http://evil.example' })).status, 403);
		assert.equal((await post(url.pathname)).status, 400, 'no session: initialize first');
		assert.equal(bridge.sessionsStarted, 0, 'no process was started for a refused request');
	} finally {
		await bridge.close();
	}
});

test('a stdio server that cannot start fails each scenario with the reason instead of hanging', async () => {
	const report = await checkServerConformance(
		'missing',
		{ type: 'stdio', command: join(ownFolder(), 'no-such-server') },
		suite,
		{ scenario: 'ping' },
	);
	assert.equal(report.scenarios.length, 1);
	assert.equal(report.scenarios[0]!.passed, false);
	assert.match(JSON.stringify(report.scenarios[0]!.checks), /The server did not start: .*no-such-server/);
});
