// Tools that must run as tasks, from the command line (dist/cli.js as a user runs it), against the official
// TypeScript SDK's example server simpleStreamableHttp (a server nobody here wrote): its `delay` tool has
// `execution.taskSupport: "required"` and answers a plain tools/call with an error. The command knows that from the
// server's listing before it calls, runs the tool as a task with its states on stderr, and Ctrl+C cancels the task
// on the server (tasks/cancel, which this server answers although it does not advertise tasks.cancel).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startSdkExample, type SdkExample } from '../fixtures/sdkExamples';

const cli = join(process.cwd(), 'dist/cli.js');
const scratch = mkdtempSync(join(tmpdir(), 'cli-tasks-'));
let server: SdkExample;
let dir: string;

before(async () => {
	server = await startSdkExample('simpleStreamableHttp');
	dir = join(scratch, 'ws');
	mkdirSync(join(dir, '.vscode'), { recursive: true });
	const everything = {
		command: process.execPath,
		args: [join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
	};
	writeFileSync(
		join(dir, '.vscode/mcp.json'),
		JSON.stringify({ servers: { sdk: { type: 'http', url: server.url }, everything } }),
	);
	writeFileSync(
		join(dir, 'delay.mcpcall.json'),
		JSON.stringify({ server: 'sdk', tool: 'delay', arguments: { duration: 200 } }),
	);
});
after(() => {
	server?.child.kill('SIGKILL');
	rmSync(scratch, { recursive: true, force: true });
});

interface Run {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** Runs the CLI in the workspace; `onStderr` sees stderr as it comes (to interrupt at the right moment). */
function run(args: string[], onStderr?: (text: string, child: ChildProcess) => void): Promise<Run> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [cli, ...args], {
			cwd: dir,
			env: { ...process.env, XDG_CACHE_HOME: join(scratch, 'cache') },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
		child.stderr.on('data', (d: Buffer) => {
			stderr += d.toString();
			onStderr?.(stderr, child);
		});
		const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
		child.on('error', reject);
		child.on('close', (code) => {
			clearTimeout(timer);
			resolve({ code, stdout, stderr });
		});
	});
}

test('call runs a task-only tool (taskSupport "required") as a task: the result on stdout, its states on stderr', async () => {
	const result = await run(['call', 'sdk', 'delay', '--args', '{"duration":300}']);
	assert.equal(result.code, 0, result.stderr);
	assert.equal(result.stdout.trim(), 'Completed 300ms delay');
	assert.match(result.stderr, /^task \S+: working; Ctrl\+C cancels it$/m);
	assert.match(result.stderr, /^task \S+: completed$/m);
	assert.doesNotMatch(result.stderr + result.stdout, /requires task augmentation/);
});

test('run of a saved *.mcpcall.json of a task-only tool runs it as a task', async () => {
	const result = await run(['run', 'delay.mcpcall.json']);
	assert.equal(result.code, 0, result.stderr);
	assert.equal(result.stdout.trim(), 'Completed 200ms delay');
});

test('Ctrl+C during a long task sends tasks/cancel: the server cancels it, the command says so and exits 130', async () => {
	let interrupted = false;
	const result = await run(['call', 'sdk', 'delay', '--args', '{"duration":600000}'], (stderr, child) => {
		if (!interrupted && /Ctrl\+C cancels it/.test(stderr)) {
			interrupted = true;
			child.kill('SIGINT');
		}
	});
	assert.ok(interrupted, result.stderr);
	assert.equal(result.code, 130, result.stderr);
	// "Client cancelled task execution." is the server's own statusMessage in its answer to tasks/cancel.
	assert.match(result.stderr, /^task \S+: cancelled \(Client cancelled task execution\.\)$/m);
	assert.match(result.stderr, /^Server 'sdk': Task \S+ \(delay\) on sdk was cancelled: Interrupted \(Ctrl\+C\)$/m);
	assert.equal(result.stdout, '');
});

test("over stdio too: server-everything's task-only research tool runs as a task, its stages on stderr", async () => {
	const result = await run(['call', 'everything', 'simulate-research-query', '--args', '{"topic":"tides"}']);
	assert.equal(result.code, 0, result.stderr);
	assert.match(result.stdout, /tides/);
	assert.match(result.stderr, /^task \S+: working \(Gathering sources\.\.\.\); Ctrl\+C cancels it$/m);
	assert.match(result.stderr, /^task \S+: working \(Analyzing content\.\.\.\)$/m, 'a later stage, as statusMessage');
	assert.match(result.stderr, /^task \S+: completed/m);
});

test("a plain call's progress goes to stderr, its result to stdout", async () => {
	const result = await run([
		'call',
		'everything',
		'trigger-long-running-operation',
		'--args',
		'{"duration":1,"steps":2}',
	]);
	assert.equal(result.code, 0, result.stderr);
	assert.match(result.stderr, /^progress 1\/2/m);
	assert.match(result.stderr, /^progress 2\/2/m);
	assert.doesNotMatch(result.stdout, /^progress/m);
});
