// `mcp-switchboard check NAME` as a CI job runs it: the official conformance suite (0.1.16, on the Node 22 of
// scripts/node22.mjs, named by MCP_SWITCHBOARD_CONFORMANCE) against stdio servers configured in the workspace's
// .vscode/mcp.json: a scenario that passes exits 0, one that fails (server-everything has no image test tool) prints
// the suite's message and spec link and exits 1, an unknown server is a usage error (2). Each run leaves no process.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { type Ran, runToEnd } from '../fixtures/runToEnd';

const cli = join(process.cwd(), 'dist/cli.js');
const everything = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const toolsServer = join(process.cwd(), 'test/fixtures/servers/conformanceTools.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'cli-check-'));
const workspace = join(scratch, 'ws');
let suiteEnv = '';
after(() => rmSync(scratch, { recursive: true, force: true }));

before(async () => {
	const script = pathToFileURL(join(process.cwd(), 'scripts/node22.mjs')).href;
	const { ensureNode22 } = (await import(script)) as { ensureNode22: () => Promise<string> };
	suiteEnv = JSON.stringify([await ensureNode22(), join(process.cwd(), 'node_modules/conformance-0.1/dist/index.js')]);
	mkdirSync(join(workspace, '.vscode'), { recursive: true });
	// Each server runs in the workspace folder (the default cwd): the processes left there afterwards are the check's.
	writeFileSync(
		join(workspace, '.vscode/mcp.json'),
		JSON.stringify({
			servers: {
				tools: { command: process.execPath, args: [toolsServer] },
				everything: { command: process.execPath, args: ['${workspaceFolder}/../everything.mjs', 'stdio'] },
			},
		}),
	);
	// Through ${workspaceFolder}: the check resolves variables as a start does.
	writeFileSync(join(scratch, 'everything.mjs'), `import ${JSON.stringify(pathToFileURL(everything).href)};\n`);
});

function run(args: string[]): Promise<Ran> {
	const env = {
		...process.env,
		MCP_SWITCHBOARD_CONFORMANCE: suiteEnv,
		XDG_CACHE_HOME: join(scratch, 'cache'),
		XDG_STATE_HOME: join(scratch, 'state'),
	};
	return runToEnd(process.execPath, [cli, ...args], { cwd: workspace, env, timeoutMs: 150_000 });
}

/** Processes running in the workspace folder (Linux /proc): servers the check started and did not stop. */
function processesInWorkspace(): number[] {
	return readdirSync('/proc')
		.filter((entry) => {
			if (!/^\d+$/.test(entry)) return false;
			try {
				return readlinkSync(`/proc/${entry}/cwd`) === workspace;
			} catch {
				return false;
			}
		})
		.map(Number);
}

test('check passes a scenario the stdio server implements and exits 0', { timeout: 180_000 }, async () => {
	const result = await run(['check', 'tools', '--scenario', 'tools-call-sampling']);
	assert.equal(result.code, 0, result.stderr);
	assert.match(result.stdout, /^PASS {2}tools-call-sampling$/m);
	assert.match(result.stdout, /^1 passed, 0 failed of 1 conformance scenarios \(stdio, through a loopback bridge/m);
	assert.deepEqual(processesInWorkspace(), []);
});

test("check prints a failed scenario's message and spec link and exits 1", { timeout: 180_000 }, async () => {
	const result = await run(['check', 'everything', '--scenario', 'tools-call-image']);
	assert.equal(result.code, 1, result.stderr);
	assert.match(result.stdout, /^FAIL {2}tools-call-image$/m);
	assert.match(
		result.stdout,
		/^ {6}ToolsCallImage: No image content found \(https:\/\/modelcontextprotocol\.io\/specification\/\S+\/server\/tools#calling-tools\)$/m,
	);
	assert.match(result.stdout, /^0 passed, 1 failed of 1 conformance scenarios/m);
	assert.deepEqual(processesInWorkspace(), []);
});

test('check of a server that is not configured is a usage error naming the configured ones', async () => {
	const result = await run(['check', 'nothing']);
	assert.equal(result.code, 2);
	assert.match(result.stderr, /Unknown server 'nothing'\. Configured: tools, everything/);
});
