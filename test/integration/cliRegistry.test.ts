// `mcp-switchboard search` and `add` (issue 26 item 5) run as a user runs them, a child process, against the loopback
// registry (test/fixtures/registry/registryServer.ts). An added server is then run by the same command line: npm's
// server-everything through `npx -y` (from the npm registry's cache) and the tiny .mcpb bundle from its unpacked
// folder. The bad cases (unreachable, invalid server.json, deleted, wrong checksum, missing runtime, no --yes) give
// a clear message, a non-zero exit code, and write nothing.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { everythingVersion, NAMES, startRegistry, type RegistryFixture } from '../fixtures/registry/registryServer';
import { runToEnd } from '../fixtures/runToEnd';

const cli = join(process.cwd(), 'dist/cli.js');
const scratch = mkdtempSync(join(tmpdir(), 'cli-registry-'));
let registry: RegistryFixture;

before(async () => {
	registry = await startRegistry();
});
after(async () => {
	await registry.close();
	rmSync(scratch, { recursive: true, force: true });
});

interface Run {
	code: number | null;
	stdout: string;
	stderr: string;
}

function run(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
	const folders = { XDG_CACHE_HOME: join(scratch, 'cache'), XDG_STATE_HOME: join(scratch, 'state') };
	return runToEnd(process.execPath, [cli, ...args], {
		cwd,
		env: { ...process.env, MCP_SWITCHBOARD_REGISTRY: '', ...folders, ...env },
		timeoutMs: 120_000,
	});
}

let counter = 0;
function workspace(files: Record<string, string> = {}): string {
	const dir = join(scratch, `ws-${++counter}`);
	mkdirSync(dir, { recursive: true });
	for (const [file, content] of Object.entries(files)) {
		mkdirSync(dirname(join(dir, file)), { recursive: true });
		writeFileSync(join(dir, file), content);
	}
	return dir;
}

const mcpJson = (dir: string) => join(dir, '.vscode', 'mcp.json');

test('search lists name, version and how each server runs; deprecated marked, deleted hidden, invalid noted', async () => {
	const result = await run(['search', '--registry', registry.url], workspace());
	assert.equal(result.code, 0, result.stderr);
	assert.match(
		result.stdout,
		new RegExp(
			`^io\\.github\\.modelcontextprotocol/server-everything {2}${everythingVersion().replace(/\./g, '\\.')} {2}npm$`,
			'm',
		),
	);
	assert.match(result.stdout, /^ {4}MCP server that exercises all the features of the MCP protocol$/m);
	assert.match(result.stdout, /^io\.github\.example\/remote-api {2}2\.0\.0 {2}remote streamable-http, remote sse$/m);
	assert.match(
		result.stdout,
		/^io\.github\.example\/old-tool {2}0\.9\.0 {2}npm {2}DEPRECATED: Use io\.github\.example\/new-tool instead$/m,
	);
	assert.doesNotMatch(result.stdout, /gone/);
	assert.match(
		result.stderr,
		/note: 'io\.github\.example\/broken' in http:\/\/127\.0\.0\.1:\d+\/v0\.1 was left out: its server\.json is not valid/,
	);
});

test('search TEXT --json prints the matches as JSON; the registry comes from the environment or .vscode/settings.json', async () => {
	const viaEnv = await run(['search', 'bundle', '--json'], workspace(), { MCP_SWITCHBOARD_REGISTRY: registry.url });
	assert.equal(viaEnv.code, 0, viaEnv.stderr);
	const found = JSON.parse(viaEnv.stdout) as { name: string; runs: string[]; registry: string }[];
	assert.deepEqual(found.map((f) => f.name).sort(), [NAMES.bundle, NAMES.tampered].sort());
	assert.equal(found[0]?.registry, registry.url);
	assert.match(found[0]?.runs[0] ?? '', /^mcpb http:\/\/127\.0\.0\.1:\d+\/bundles\/tiny\.mcpb$/);

	const dir = workspace({
		'.vscode/settings.json': `{\n\t// the company's registry\n\t"mcpSwitchboard.registry.url": ["${registry.url}"],\n}`,
	});
	const viaSettings = await run(['search', 'dotnet'], dir);
	assert.equal(viaSettings.code, 0, viaSettings.stderr);
	assert.match(viaSettings.stdout, /^io\.github\.example\/dotnet-tool {2}0\.1\.0 {2}nuget$/m);
});

test('add writes server-everything into .vscode/mcp.json (comments kept), and the server runs', async () => {
	const dir = workspace({ '.vscode/mcp.json': '{\n\t// mine\n\t"servers": {}\n}\n' });
	const added = await run(['add', NAMES.everything, '--registry', registry.url, '--yes'], dir);
	assert.equal(added.code, 0, added.stderr);
	const version = everythingVersion();
	assert.match(
		added.stdout,
		new RegExp(
			`^Added 'server-everything' \\(${NAMES.everything.replace(/\./g, '\\.')} ${version.replace(/\./g, '\\.')}, npm\\) in `,
			'm',
		),
	);
	assert.match(
		added.stdout,
		new RegExp(
			`^ {2}Runs: npx -y @modelcontextprotocol/server-everything@${version.replace(/\./g, '\\.')} stdio$`,
			'm',
		),
	);
	const text = readFileSync(mcpJson(dir), 'utf8');
	assert.match(text, /\/\/ mine/);
	const written = JSON.parse(text.replace(/\/\/ mine\n/, '')) as { servers: Record<string, unknown> };
	assert.deepEqual(written.servers['server-everything'], {
		type: 'stdio',
		command: 'npx',
		args: ['-y', `@modelcontextprotocol/server-everything@${version}`, 'stdio'],
		// An optional value's default is taken, as the form offers it.
		env: { GZIP_MAX_FETCH_SIZE: '10485760' },
		registry: { name: NAMES.everything, version, url: registry.url },
	});
	const called = await run(['call', 'server-everything', 'echo', '--args', '{"message":"from the registry"}'], dir);
	assert.equal(called.code, 0, called.stderr);
	assert.match(called.stdout, /Echo: from the registry/);
});

test('add installs an .mcpb bundle with its setting from --input, and the bundled server runs', async () => {
	const dir = workspace();
	const added = await run(['add', NAMES.bundle, '--registry', registry.url, '--yes', '--input', 'greeting=Howdy'], dir);
	assert.equal(added.code, 0, added.stderr);
	assert.match(added.stdout, /Runs: node \S+\/mcp-switchboard\/mcpb\/tiny-bundle-[0-9a-f]{16}\/server\/index\.js/);
	const called = await run(['call', 'tiny-bundle', 'echo', '--args', '{"message":"hi"}'], dir);
	assert.equal(called.code, 0, called.stderr);
	assert.match(called.stdout, /Howdy: hi/);
});

test('add keeps secrets out of the file: a password input in mcp.json, the value passed when it runs', async () => {
	const dir = workspace();
	const added = await run(
		['add', NAMES.remote, '--registry', registry.url, '-y', '--input', 'tenant=acme', '--input', 'token=s3cret-value'],
		dir,
	);
	assert.equal(added.code, 0, added.stderr);
	const text = readFileSync(mcpJson(dir), 'utf8');
	assert.doesNotMatch(text, /s3cret-value/);
	const written = JSON.parse(text) as {
		servers: Record<string, { url: string; headers: Record<string, string> }>;
		inputs: unknown[];
	};
	assert.equal(written.servers['remote-api']?.url, 'https://acme.api.example.com/mcp');
	assert.deepEqual(written.servers['remote-api']?.headers, {
		Authorization: 'Bearer ${input:remote-api.token}',
		'X-Region': 'eu',
	});
	assert.deepEqual(written.inputs, [
		{ type: 'promptString', id: 'remote-api.token', description: 'token (in Authorization (header))', password: true },
	]);
	assert.match(
		added.stderr,
		/note: the secret remote-api\.token was not written; pass it when the server runs \(--input remote-api\.token=… or MCP_SWITCHBOARD_INPUT_REMOTE_API_TOKEN\)/,
	);
	assert.match(added.stdout, /Asks when it starts: remote-api\.token \(secret\)/);
});

test('the bad cases say what is wrong and write nothing', async (t) => {
	const cases: { name: string; args: string[]; env?: Record<string, string>; code: number; message: RegExp }[] = [
		{
			name: 'unreachable registry',
			args: ['add', NAMES.everything, '--registry', 'http://127.0.0.1:1/v0.1', '--yes'],
			code: 1,
			message:
				/Cannot reach the MCP registry at http:\/\/127\.0\.0\.1:1\/v0\.1 \(.*\)\. Check the registry URL and your network\./,
		},
		{
			name: 'invalid server.json',
			args: ['add', NAMES.broken, '--registry', registry.url, '--yes'],
			code: 1,
			message:
				/The server\.json of 'io\.github\.example\/broken' .* is not valid: description: .*Nothing was installed\./,
		},
		{
			name: 'deleted',
			args: ['add', NAMES.gone, '--registry', registry.url, '--yes'],
			code: 1,
			message: /'io\.github\.example\/gone' was deleted from the MCP registry/,
		},
		{
			name: 'unknown',
			args: ['add', 'io.github.example/nothing', '--registry', registry.url, '--yes'],
			code: 2,
			message: /has no server 'io\.github\.example\/nothing'/,
		},
		{
			name: 'wrong checksum',
			args: ['add', NAMES.tampered, '--registry', registry.url, '--yes'],
			code: 1,
			message:
				/has SHA-256 [0-9a-f]{64}, but the registry lists fe333e59\S+: it may have been changed or damaged, so it was not installed/,
		},
		{
			name: 'missing runtime',
			args: ['add', NAMES.weather, '--registry', registry.url, '--yes'],
			env: { PATH: dirname(process.execPath) },
			code: 1,
			message:
				/'io\.github\.example\/weather-py' runs with uvx, which was not found on PATH: install uv \(https:\/\/docs\.astral\.sh\/uv\/.*Nothing was installed\./,
		},
		{
			name: 'no --yes without a terminal',
			args: ['add', NAMES.everything, '--registry', registry.url],
			code: 2,
			message:
				/Runs: npx -y @modelcontextprotocol\/server-everything@\S+ stdio\n(.*\n)*mcp-switchboard: pass --yes to write it \(nothing was written\)/,
		},
	];
	for (const c of cases) {
		await t.test(c.name, async () => {
			const dir = workspace();
			const result = await run(c.args, dir, c.env);
			assert.equal(result.code, c.code, result.stderr);
			assert.match(result.stderr, c.message);
			assert.equal(existsSync(mcpJson(dir)), false, 'nothing written');
		});
	}
});
