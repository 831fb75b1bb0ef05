// The npm package of the command line and the headless core (packages/cli, packed by scripts/package-cli.mjs) as a
// user gets it: the tarball installed with `npm install <tarball>` into an empty folder outside the repository, then
// `npx mcp-switchboard` run there against server-everything (a server nobody here wrote) configured in that folder's
// .mcp.json, `require('mcp-switchboard')` used from a script, and a TypeScript file compiled against its types.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runToEnd } from '../fixtures/runToEnd';

const repo = process.cwd();
const everything = join(repo, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const scratch = mkdtempSync(join(tmpdir(), 'npm-package-it-'));
const project = join(scratch, 'project');
after(() => rmSync(scratch, { recursive: true, force: true }));

interface Run {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** The environment of a user's shell: none of the outer `npm run`'s npm_* variables, the CLI's cache in scratch. */
function userEnv(): NodeJS.ProcessEnv {
	const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_')));
	return { ...env, XDG_CACHE_HOME: join(scratch, 'cache') };
}

function run(command: string, args: string[], cwd: string): Promise<Run> {
	// A guard against a hung child, not a timing assertion: the machine may be slow.
	return runToEnd(command, args, { cwd, env: userEnv(), timeoutMs: 240_000 });
}

let tarball = '';
let packOutput = '';

before(async () => {
	const packed = await run(process.execPath, ['scripts/package-cli.mjs', '--out-dir', scratch], repo);
	assert.equal(packed.code, 0, `pack:cli failed:\n${packed.stdout}\n${packed.stderr}`);
	packOutput = packed.stdout;
	tarball = packed.stdout.trim().split('\n').pop() ?? '';
	// An empty folder, as `npm init -y` leaves it; the package's one dependency (zod) comes from npm's cache when it
	// is there (the repository's own install put it there), else from the registry.
	mkdirSync(project);
	writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user-project', private: true }));
	const installed = await run(
		'npm',
		['install', tarball, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel', 'error'],
		project,
	);
	assert.equal(installed.code, 0, `npm install ${tarball} failed:\n${installed.stderr}`);
	writeFileSync(
		join(project, '.mcp.json'),
		JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } }),
	);
});

test('npm pack makes mcp-switchboard-<version>.tgz with the bundles, the types, README and LICENSE, and no sources', () => {
	const version = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string }).version;
	assert.match(tarball, new RegExp(`mcp-switchboard-${version.replaceAll('.', '\\.')}\\.tgz$`));
	assert.match(packOutput, /^pack:cli: \d+ files, \d+ KB$/m);
	const installed = join(project, 'node_modules', 'mcp-switchboard');
	const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
		version: string;
		bin: Record<string, string>;
		dependencies: Record<string, string>;
	};
	assert.equal(manifest.version, version, "the npm package's version is the extension's");
	assert.deepEqual(Object.keys(manifest.dependencies), ['zod'], 'one run-time dependency: the bundles hold the rest');
	assert.deepEqual(manifest.bin, { 'mcp-switchboard': 'dist/cli.js' });
	for (const file of ['dist/cli.js', 'dist/cli-main.js', 'dist/core.js', 'types/core.d.ts', 'README.md', 'LICENSE']) {
		assert.ok(readFileSync(join(installed, file)).length > 0, `${file} is in the package`);
	}
	assert.doesNotMatch(readFileSync(join(installed, 'dist/core.js'), 'utf8'), /sourceMappingURL/, 'a production build');
});

test('npx mcp-switchboard --help, list and call work from a folder that only installed the tarball', async () => {
	const help = await run('npx', ['mcp-switchboard', '--help'], project);
	assert.equal(help.code, 0, help.stderr);
	assert.match(help.stdout, /^Usage: mcp-switchboard \[options\] <command>$/m);

	const list = await run('npx', ['mcp-switchboard', 'list'], project);
	assert.equal(list.code, 0, list.stderr);
	assert.match(list.stdout, /^everything {2}mcp-servers\/everything \S+, protocol \S+$/m);
	assert.match(list.stdout, /^ {4}echo — Echoes back the input string$/m);

	const call = await run(
		'npx',
		['mcp-switchboard', 'call', 'everything', 'echo', '--args', '{"message":"from npm"}'],
		project,
	);
	assert.equal(call.code, 0, call.stderr);
	assert.equal(call.stdout.trim(), 'Echo: from npm');
});

test("require('mcp-switchboard') gives the headless API, which connects to a real server and calls a tool", async () => {
	const script = join(project, 'use.js');
	writeFileSync(
		script,
		`const api = require('mcp-switchboard');
const shape = Object.fromEntries(['connect', 'createManager', 'createTransport', 'createOAuthProvider',
	'createHeadlessOAuthHooks', 'McpClient', 'McpError', 'consoleLogger'].map((k) => [k, typeof api[k]]));
(async () => {
	const client = await api.connect({ type: 'stdio', command: process.execPath, args: [${JSON.stringify(everything)}, 'stdio'] });
	const tools = await client.listTools();
	const result = await client.callTool('echo', { message: 'from require' });
	await client.close();
	console.log(JSON.stringify({ shape, isClient: client instanceof api.McpClient, hasEcho: tools.some((t) => t.name === 'echo'), text: result.content[0].text }));
})().catch((error) => { console.error(error); process.exit(1); });
`,
	);
	const used = await run(process.execPath, [script], project);
	assert.equal(used.code, 0, used.stderr);
	assert.deepEqual(JSON.parse(used.stdout), {
		shape: {
			connect: 'function',
			createManager: 'function',
			createTransport: 'function',
			createOAuthProvider: 'function',
			createHeadlessOAuthHooks: 'function',
			McpClient: 'function',
			McpError: 'function',
			consoleLogger: 'function',
		},
		isClient: true,
		hasEcho: true,
		text: 'Echo: from require',
	});
});

test('the types resolve from the installed package: good code compiles, a misspelt option is a type error', async () => {
	writeFileSync(
		join(project, 'good.ts'),
		`import { connect, McpError, type McpClient, type ConnectOptions } from 'mcp-switchboard';
const options: ConnectOptions = { timeoutMs: 5000 };
export async function tools(): Promise<string[]> {
	const client: McpClient = await connect({ type: 'stdio', command: 'node', args: ['server.js'] }, options);
	const listed = await client.listTools();
	await client.close();
	return listed.map((tool) => tool.name);
}
export const isMcpError = (error: unknown): boolean => error instanceof McpError;
`,
	);
	writeFileSync(
		join(project, 'bad.ts'),
		`import { connect } from 'mcp-switchboard';
export const client = connect({ type: 'stdio', commandd: 'node' });
`,
	);
	const tsc = join(repo, 'node_modules/typescript/bin/tsc');
	const flags = ['--noEmit', '--strict', '--module', 'node16', '--moduleResolution', 'node16', '--target', 'es2022'];
	// @types/node from the repository: the declarations mention Node's types (child processes, URLs), as any Node
	// library's do, and a user's project has @types/node.
	const types = ['--types', 'node', '--typeRoots', join(repo, 'node_modules/@types')];
	// One compiler run for both files (tsc is slow on a loaded machine): errors in bad.ts only, none in good.ts or in the
	// package's declarations (checked too: no --skipLibCheck, as in a strict user project).
	const compiled = await run(process.execPath, [tsc, ...flags, ...types, 'good.ts', 'bad.ts'], project);
	assert.notEqual(compiled.code, 0, 'a misspelt property of the server configuration is a type error');
	const errors = compiled.stdout.split('\n').filter((line) => /error TS\d+/.test(line));
	assert.equal(errors.length, 1, `exactly one error, in bad.ts:\n${compiled.stdout}`);
	assert.match(errors[0] ?? '', /^bad\.ts\(2,\d+\): error TS\d+: .*commandd/);
});
