// The command line (dist/cli.js, built by esbuild.mjs before the tests) run as a user runs it: a child process in a
// workspace folder with .vscode/mcp.json / .mcp.json / settings.json, against server-everything (a server nobody
// here wrote) and the Manager's fixture server for failures. Asserts what a person or a CI job sees: stdout, stderr
// and the exit code.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { modernStdio } from '../fixtures/modernFixture';
import { runToEnd } from '../fixtures/runToEnd';

const cli = join(process.cwd(), 'dist/cli.js');
const everything = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const fixture = join(process.cwd(), 'test/fixtures/servers/manager/mcpServer.js');
const scratch = mkdtempSync(join(tmpdir(), 'cli-it-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

interface Run {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** Runs the CLI with stdin not a terminal (as in CI), in `cwd`. */
function run(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
	// The CLI's cache folder (eras, compiled code) and state folder (pins) inside the scratch folder, not the user's.
	const folders = { XDG_CACHE_HOME: join(scratch, 'cache'), XDG_STATE_HOME: join(scratch, 'state') };
	return runToEnd(process.execPath, [cli, ...args], {
		cwd,
		env: { ...process.env, ...folders, ...env },
		timeoutMs: 60_000,
	});
}

let counter = 0;
/** A workspace folder with the given files (paths relative to it). */
function workspace(files: Record<string, unknown>): string {
	const dir = join(scratch, `ws-${++counter}`);
	for (const [file, content] of Object.entries(files)) {
		mkdirSync(join(dir, file, '..'), { recursive: true });
		writeFileSync(join(dir, file), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
	}
	mkdirSync(dir, { recursive: true });
	return dir;
}

const everythingServer = { command: process.execPath, args: [everything, 'stdio'] };

test('list starts the servers of .vscode/mcp.json and prints their tools, resources and prompts', async () => {
	const dir = workspace({
		'.vscode/mcp.json': `{ // comments are fine\n "servers": { "everything": ${JSON.stringify(everythingServer)}, } }`,
	});
	const result = await run(['list'], dir);
	assert.equal(result.code, 0, result.stderr);
	assert.match(result.stdout, /^everything {2}mcp-servers\/everything \S+, protocol 2025-11-25$/m);
	assert.match(result.stdout, /^ {2}tools \(\d+\)$/m);
	assert.match(result.stdout, /^ {4}echo — Echoes back the input string$/m);
	assert.match(result.stdout, /^ {4}demo:\/\/resource\/static\/document\/architecture\.md — architecture\.md$/m);
	assert.match(result.stdout, /^ {4}args-prompt — /m);
});

test('list says why a server may show fewer tools than in VS Code: the sampling and elicitation tools it offers only to clients that can answer them', async () => {
	const dir = workspace({ '.vscode/mcp.json': { servers: { everything: everythingServer } } });
	const result = await run(['list'], dir);
	assert.equal(result.code, 0, result.stderr);
	assert.doesNotMatch(
		result.stdout,
		/^ {4}trigger-sampling-request /m,
		'server-everything lists its sampling tool only to a client that offers sampling',
	);
	assert.match(
		result.stdout,
		/^Note: this command line cannot answer sampling or elicitation requests, .* show fewer tools here\.$/m,
	);
});

test('an unset ${env:X} in a url is named in the error, not only "connection refused"', async () => {
	const dir = workspace({
		'.vscode/mcp.json': {
			servers: { demo: { type: 'http', url: 'http://127.0.0.1:${env:MCP_SWITCHBOARD_TEST_UNSET_PORT}/mcp' } },
		},
	});
	assert.equal(process.env.MCP_SWITCHBOARD_TEST_UNSET_PORT, undefined);
	const result = await run(['call', 'demo', 'echo'], dir);
	assert.notEqual(result.code, 0);
	assert.match(
		result.stderr,
		/Server 'demo': field "url": environment variable MCP_SWITCHBOARD_TEST_UNSET_PORT is not set \(used as an empty value, as in VS Code\)/,
		result.stderr,
	);
});

test('list --json is one JSON document with each server, its protocol version and lists', async () => {
	const dir = workspace({ '.mcp.json': { mcpServers: { everything: everythingServer } } });
	const result = await run(['list', '--json'], dir);
	assert.equal(result.code, 0, result.stderr);
	const parsed = JSON.parse(result.stdout) as {
		servers: { name: string; state: string; protocolVersion: string; tools: { name: string }[]; prompts: unknown[] }[];
	};
	assert.equal(parsed.servers.length, 1);
	const [server] = parsed.servers;
	assert.equal(server!.name, 'everything');
	assert.equal(server!.state, 'running');
	assert.equal(server!.protocolVersion, '2025-11-25');
	assert.ok(server!.tools.some((t) => t.name === 'get-sum'));
	assert.equal(server!.prompts.length, 4);
});

test('call runs a tool with --args and prints its text; --json prints the CallToolResult', async () => {
	const dir = workspace({
		'.vscode/settings.json': `{\n // the editor's own settings file\n "mcpSwitchboard.servers": { "everything": ${JSON.stringify(everythingServer)} }\n}`,
	});
	const text = await run(['call', 'everything', 'echo', '--args', '{"message":"hello from the shell"}'], dir);
	assert.equal(text.code, 0, text.stderr);
	assert.equal(text.stdout.trim(), 'Echo: hello from the shell');

	const json = await run(['--json', 'call', 'everything', 'get-sum', '--args', '{"a":2,"b":40}'], dir);
	assert.equal(json.code, 0, json.stderr);
	const result = JSON.parse(json.stdout) as { content: { type: string; text: string }[] };
	assert.match(result.content[0]!.text, /42/);
});

test('call of a tool that reports isError exits 1 and says so', async () => {
	const dir = workspace({ '.vscode/mcp.json': { servers: { everything: everythingServer } } });
	const result = await run(['call', 'everything', 'no-such-tool'], dir);
	assert.equal(result.code, 1);
	assert.match(result.stdout, /The tool reported an error/);
});

test('read and prompt print the resource text and the prompt messages', async () => {
	const dir = workspace({ '.vscode/mcp.json': { servers: { everything: everythingServer } } });
	const read = await run(['read', 'everything', 'demo://resource/dynamic/text/7'], dir);
	assert.equal(read.code, 0, read.stderr);
	assert.match(read.stdout, /7/);
	const prompt = await run(['prompt', 'everything', 'args-prompt', '--args', '{"city":"Lyon"}'], dir);
	assert.equal(prompt.code, 0, prompt.stderr);
	assert.match(prompt.stdout, /^user:$/m);
	assert.match(prompt.stdout, /Lyon/);
});

test('run executes a saved *.mcpcall.json; a malformed one is a usage error that names the file and the field', async () => {
	const dir = workspace({
		'.vscode/mcp.json': { servers: { everything: everythingServer } },
		'echo.mcpcall.json': { server: 'everything', tool: 'echo', arguments: { message: 'saved call' } },
		'bad.mcpcall.json': { server: 'everything', tool: 'echo', prompt: 'simple-prompt' },
		'broken.mcpcall.json': '{ "server": ',
	});
	const ok = await run(['run', 'echo.mcpcall.json'], dir);
	assert.equal(ok.code, 0, ok.stderr);
	assert.equal(ok.stdout.trim(), 'Echo: saved call');
	const bad = await run(['run', 'bad.mcpcall.json'], dir);
	assert.equal(bad.code, 2);
	assert.match(
		bad.stderr,
		/bad\.mcpcall\.json: needs exactly one of "tool", "prompt" or "resource" \(found tool, prompt\)/,
	);
	const broken = await run(['run', 'broken.mcpcall.json'], dir);
	assert.equal(broken.code, 2);
	assert.match(broken.stderr, /broken\.mcpcall\.json: not valid JSON/);
});

test('an unknown server or command is a usage error (exit 2) that lists what is configured', async () => {
	const dir = workspace({ '.vscode/mcp.json': { servers: { everything: everythingServer } } });
	const server = await run(['call', 'nope', 'echo'], dir);
	assert.equal(server.code, 2);
	assert.match(server.stderr, /Unknown server 'nope'\. Configured: everything\./);
	const command = await run(['frobnicate'], dir);
	assert.equal(command.code, 2);
	assert.match(command.stderr, /unknown command 'frobnicate'/);
	assert.match(command.stderr, /Usage: mcp-switchboard/);
	const args = await run(['call', 'everything', 'echo', '--args', '[1,2]'], dir);
	assert.equal(args.code, 2);
	assert.match(args.stderr, /--args must be a JSON object/);
});

test('${input:} values come from --input or the environment; without them and without a terminal nothing prompts', async () => {
	const dir = workspace({
		'.vscode/mcp.json': {
			inputs: [{ type: 'promptString', id: 'greeting', description: 'A greeting', password: true }],
			servers: { fixture: { command: process.execPath, args: [fixture], env: { GREETING: '${input:greeting}' } } },
		},
	});
	const missing = await run(['call', 'fixture', 'env', '--args', '{"name":"GREETING"}'], dir);
	assert.equal(missing.code, 2);
	assert.match(
		missing.stderr,
		/Input 'greeting' has no value: pass --input greeting=VALUE or set MCP_SWITCHBOARD_INPUT_GREETING/,
	);

	const flag = await run(
		['call', 'fixture', 'env', '--args', '{"name":"GREETING"}', '--input', 'greeting=bonjour'],
		dir,
	);
	assert.equal(flag.code, 0, flag.stderr);
	assert.match(flag.stdout, /bonjour/);

	const env = await run(['call', 'fixture', 'env', '--args', '{"name":"GREETING"}'], dir, {
		MCP_SWITCHBOARD_INPUT_GREETING: 'hallo',
	});
	assert.equal(env.code, 0, env.stderr);
	assert.match(env.stdout, /hallo/);
});

test('doctor names each problem in plain words: a command not on PATH, a crash with its stderr, a config error', async () => {
	const dir = workspace({
		'.vscode/mcp.json': {
			servers: {
				everything: everythingServer,
				missing: { command: 'no-such-mcp-server-binary' },
				crashing: { command: process.execPath, args: [fixture, '--crash-on-start'] },
				unresolved: { command: process.execPath, args: ['${nope:x}'] },
			},
		},
	});
	const result = await run(['doctor'], dir);
	assert.equal(result.code, 1);
	assert.match(result.stdout, /^✓ everything: running: mcp-servers\/everything \S+, protocol 2025-11-25, \d+ tools$/m);
	assert.match(result.stdout, /^✗ missing: command 'no-such-mcp-server-binary' is not on PATH$/m);
	assert.match(
		result.stdout,
		/fatal: missing configuration file settings\.toml/,
		"the crashed server's stderr is shown",
	);
	assert.match(result.stdout, /^✗ unresolved: its configuration cannot be resolved$/m);
	assert.match(result.stdout, /^3 of 4 servers with problems$/m);

	const json = await run(['doctor', 'everything', '--json'], dir);
	assert.equal(json.code, 0, json.stderr);
	const report = JSON.parse(json.stdout) as { servers: { name: string; ok: boolean }[] };
	assert.deepEqual(
		report.servers.map((s) => [s.name, s.ok]),
		[['everything', true]],
	);
});

test('doctor on a server that wants sign-in names it once and shows its whole URL (issue 31)', async () => {
	const server = createServer((_req, res) => {
		res.writeHead(401, { 'www-authenticate': 'Bearer realm="team"' }).end();
	});
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	try {
		const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/team/a/mcp`;
		const dir = workspace({ '.vscode/mcp.json': { servers: { remote: { type: 'http', url } } } });
		const result = await run(['doctor'], dir);
		assert.equal(result.code, 1);
		const line = result.stdout.split('\n').find((l) => l.startsWith('✗ remote'));
		assert.ok(line, result.stdout);
		assert.doesNotMatch(line, /remote: remote:/, 'the server is named once');
		assert.match(
			line,
			new RegExp(`^✗ remote: the server at ${url.replace(/[.]/g, '\\.')} needs authorization \\(HTTP 401\\)`),
		);
		assert.match(result.stdout, /The server wants you to sign in/);
	} finally {
		server.closeAllConnections();
		server.close();
	}
});

test('servers shows what each server would run without starting anything', async () => {
	const pidFile = join(scratch, 'servers-pids.txt');
	const dir = workspace({
		'.vscode/mcp.json': { servers: { fixture: { command: process.execPath, args: [fixture, '--pid-file', pidFile] } } },
	});
	const result = await run(['servers'], dir);
	assert.equal(result.code, 0, result.stderr);
	assert.match(result.stdout, /^fixture {2}stdio: \S+ \S+mcpServer\.js --pid-file \S+ {2}\[\.vscode\/mcp\.json\]$/m);
	assert.throws(() => readFileSync(pidFile), /ENOENT/, 'no process was started');
});

test('no server process is left running after a command', async () => {
	const pidFile = join(scratch, 'left-pids.txt');
	const dir = workspace({
		'.vscode/mcp.json': { servers: { fixture: { command: process.execPath, args: [fixture, '--pid-file', pidFile] } } },
	});
	const result = await run(['call', 'fixture', 'pid'], dir);
	assert.equal(result.code, 0, result.stderr);
	const pid = Number(readFileSync(pidFile, 'utf8').trim());
	assert.ok(pid > 0);
	assert.throws(() => process.kill(pid, 0), /ESRCH/, 'the server process is gone when the command returns');
});

test('envFile is read relative to the workspace folder; values in env win', async () => {
	const dir = workspace({
		'config/server.env': 'FROM_FILE=from the file\nBOTH=file\n',
		'.vscode/mcp.json': {
			servers: {
				fixture: { command: process.execPath, args: [fixture], envFile: 'config/server.env', env: { BOTH: 'env' } },
			},
		},
	});
	const fromFile = await run(['call', 'fixture', 'env', '--args', '{"name":"FROM_FILE"}'], dir);
	assert.equal(fromFile.code, 0, fromFile.stderr);
	assert.match(fromFile.stdout, /from the file/);
	const both = await run(['call', 'fixture', 'env', '--args', '{"name":"BOTH"}'], dir);
	assert.match(both.stdout, /\benv\b/);
	assert.doesNotMatch(both.stdout, /\bfile\b/);
	const missing = workspace({
		'.vscode/mcp.json': { servers: { fixture: { command: process.execPath, args: [fixture], envFile: 'nope.env' } } },
	});
	const result = await run(['call', 'fixture', 'env', '--args', '{"name":"X"}'], missing);
	assert.equal(result.code, 2);
	assert.match(result.stderr, /Server 'fixture': field "envFile": cannot read \S+nope\.env/);
});

test("a later run remembers the server's protocol era (a 2026-07-28 server gets no initialize again) and reuses the compiled code; neither cache holds the configuration", async () => {
	const cache = join(scratch, 'cache-eras');
	const env = { XDG_CACHE_HOME: cache };
	const secret = 'sk-do-not-write-me';
	const dir = workspace({
		'.vscode/mcp.json': { servers: { everything: { ...everythingServer, env: { API_KEY: secret } } } },
	});
	const first = await run(['list', '--verbose'], dir, env);
	assert.equal(first.code, 0, first.stderr);
	// The era policy of auto: initialize first over stdio; a server that answers it is not probed.
	assert.doesNotMatch(first.stderr, /"method":"server\/discover"/, 'a legacy server is not probed');
	const folder = join(cache, 'mcp-switchboard');
	// Found by name, not by sorted position: the code cache's name carries a hash of the bundle, which may sort either
	// side of cli-eras.json.
	const files = readdirSync(folder);
	assert.equal(files.length, 2, files.join(', '));
	assert.ok(files.includes('cli-eras.json'), files.join(', '));
	const codeCache = files.find((name) => name !== 'cli-eras.json')!;
	assert.match(codeCache, /^cli-[\w-]+\.v8cache$/);
	const eras = readFileSync(join(folder, 'cli-eras.json'), 'utf8');
	assert.deepEqual(Object.values((JSON.parse(eras) as { eras: Record<string, string> }).eras), ['legacy']);
	assert.ok(
		!eras.includes('everything') && !eras.includes(secret) && !eras.includes('index.js'),
		`only hashes are written: ${eras}`,
	);
	const second = await run(['list', '--verbose'], dir, env);
	assert.equal(second.code, 0, second.stderr);
	assert.doesNotMatch(second.stderr, /server\/discover/, 'the second run goes straight to initialize');
	assert.match(second.stderr, /"method":"initialize"/);
	assert.equal(second.stdout, first.stdout);
	// A server that speaks only 2026-07-28 refuses initialize the first time; the next run probes at once.
	const modernDir = workspace({ '.vscode/mcp.json': { servers: { modern: modernStdio() } } });
	const modernFirst = await run(['list', '--verbose'], modernDir, env);
	assert.equal(modernFirst.code, 0, modernFirst.stderr);
	assert.match(modernFirst.stderr, /"method":"initialize"/);
	assert.match(modernFirst.stderr, /"method":"server\/discover"/);
	assert.match(readFileSync(join(folder, 'cli-eras.json'), 'utf8'), /"modern"/);
	const modernSecond = await run(['list', '--verbose'], modernDir, env);
	assert.equal(modernSecond.code, 0, modernSecond.stderr);
	assert.doesNotMatch(modernSecond.stderr, /"method":"initialize"/, 'remembered as modern: no initialize');
	assert.match(modernSecond.stderr, /"method":"server\/discover"/);
	assert.equal(modernSecond.stdout, modernFirst.stdout);
	// Damaged caches are ignored and replaced: garbage in both files, and the run works (and probes again).
	writeFileSync(join(folder, 'cli-eras.json'), '{ not json');
	writeFileSync(join(folder, codeCache), 'not compiled code');
	const third = await run(['list', '--verbose'], dir, env);
	assert.equal(third.code, 0, third.stderr);
	assert.equal(third.stdout, first.stdout);
	assert.match(third.stderr, /"method":"initialize"/);
	assert.notEqual(
		readFileSync(join(folder, codeCache), 'utf8'),
		'not compiled code',
		'a rejected code cache is written anew',
	);
	assert.match(readFileSync(join(folder, 'cli-eras.json'), 'utf8'), /"legacy"/);
	// Without the code cache (MCP_SWITCHBOARD_NO_CODE_CACHE) the command runs the same.
	const plain = await run(['list'], dir, { ...env, MCP_SWITCHBOARD_NO_CODE_CACHE: '1' });
	assert.equal(plain.code, 0, plain.stderr);
	assert.equal(plain.stdout, first.stdout);
});

test('list marks the tools the workspace switches off for chat models, in text and --json; an active tool profile wins over the plain list', async () => {
	const servers = { everything: everythingServer };
	const plain = workspace({
		'.vscode/settings.json': {
			'mcpSwitchboard.servers': servers,
			'mcpSwitchboard.tools.disabled': { everything: ['get-env'] },
		},
	});
	const text = await run(['list'], plain);
	assert.equal(text.code, 0, text.stderr);
	assert.match(
		text.stdout,
		/^ {2}tools \(\d+, 1 switched off for chat models by "mcpSwitchboard\.tools\.disabled" in \.vscode\/settings\.json\)$/m,
	);
	assert.match(text.stdout, /^ {4}get-env \(switched off\) — Returns all environment variables/m);
	assert.match(text.stdout, /^ {4}echo — Echoes back the input string$/m, 'a tool not in the list is not marked');
	const json = await run(['list', '--json'], plain);
	assert.equal(json.code, 0, json.stderr);
	const parsed = JSON.parse(json.stdout) as {
		toolProfile: string | null;
		servers: { disabledTools: string[]; tools: { name: string }[] }[];
	};
	assert.equal(parsed.toolProfile, null);
	assert.deepEqual(parsed.servers[0]!.disabledTools, ['get-env']);
	assert.ok(
		parsed.servers[0]!.tools.some((tool) => tool.name === 'get-env'),
		'a switched-off tool is still listed',
	);

	// While a saved profile is active, its list is the one that counts (as in the editor); an unknown profile name falls back to the plain list.
	const profiles = { review: { everything: ['echo'] } };
	const withProfile = workspace({
		'.vscode/settings.json': {
			'mcpSwitchboard.servers': servers,
			'mcpSwitchboard.tools.disabled': { everything: ['get-env'] },
			'mcpSwitchboard.tools.profiles': profiles,
			'mcpSwitchboard.tools.activeProfile': 'review',
		},
	});
	const profileText = await run(['list'], withProfile);
	assert.equal(profileText.code, 0, profileText.stderr);
	assert.match(
		profileText.stdout,
		/^ {2}tools \(\d+, 1 switched off for chat models by tool profile "review" in \.vscode\/settings\.json\)$/m,
	);
	assert.match(profileText.stdout, /^ {4}echo \(switched off\) — /m);
	assert.match(profileText.stdout, /^ {4}get-env — /m);
	const profileJson = JSON.parse((await run(['list', '--json'], withProfile)).stdout) as typeof parsed;
	assert.equal(profileJson.toolProfile, 'review');
	assert.deepEqual(profileJson.servers[0]!.disabledTools, ['echo']);
	const unknownProfile = workspace({
		'.vscode/settings.json': {
			'mcpSwitchboard.servers': servers,
			'mcpSwitchboard.tools.disabled': { everything: ['get-env'] },
			'mcpSwitchboard.tools.profiles': profiles,
			'mcpSwitchboard.tools.activeProfile': 'gone',
		},
	});
	const fallback = JSON.parse((await run(['list', '--json'], unknownProfile)).stdout) as typeof parsed;
	assert.equal(fallback.toolProfile, null);
	assert.deepEqual(fallback.servers[0]!.disabledTools, ['get-env']);
});

test("call runs a tool the workspace switches off (the command line is the developer's) and says so on stderr; --json stdout stays one document", async () => {
	const dir = workspace({
		'.vscode/settings.json': {
			'mcpSwitchboard.servers': { everything: everythingServer },
			'mcpSwitchboard.tools.disabled': { everything: ['echo'] },
		},
	});
	const off = await run(['call', 'everything', 'echo', '--args', '{"message":"still runs"}'], dir);
	assert.equal(off.code, 0, off.stderr);
	assert.equal(off.stdout.trim(), 'Echo: still runs');
	assert.match(
		off.stderr,
		/^note: the workspace switches 'echo' of server 'everything' off for chat models \("mcpSwitchboard\.tools\.disabled" in \.vscode\/settings\.json\); running it as asked\.$/m,
	);
	const json = await run(['--json', 'call', 'everything', 'echo', '--args', '{"message":"json"}'], dir);
	assert.equal(json.code, 0, json.stderr);
	assert.match((JSON.parse(json.stdout) as { content: { text: string }[] }).content[0]!.text, /json/);
	assert.match(json.stderr, /switches 'echo' of server 'everything' off for chat models/);
	const on = await run(['call', 'everything', 'get-sum', '--args', '{"a":1,"b":2}'], dir);
	assert.equal(on.code, 0, on.stderr);
	assert.doesNotMatch(on.stderr, /switches/, 'no note for a tool that is on');
});

test('each server is started once: the process the launcher starts before loading the command line is the one the command talks to', async () => {
	for (const early of [true, false]) {
		const pidFile = join(scratch, `early-${early}.txt`);
		const dir = workspace({
			'.vscode/mcp.json': {
				servers: { fixture: { command: process.execPath, args: [fixture, '--pid-file', pidFile] } },
			},
		});
		const result = await run(
			['call', 'fixture', 'pid', '--json'],
			dir,
			early ? {} : { MCP_SWITCHBOARD_NO_EARLY_START: '1' },
		);
		assert.equal(result.code, 0, result.stderr);
		const started = readFileSync(pidFile, 'utf8').trim().split('\n');
		assert.equal(started.length, 1, `one process started (early start ${early ? 'on' : 'off'}): ${started.join(', ')}`);
		const answered = JSON.stringify(JSON.parse(result.stdout));
		assert.ok(answered.includes(started[0]!), `the tool answered from process ${started[0]}: ${answered}`);
		assert.throws(() => process.kill(Number(started[0]), 0), /ESRCH/, 'and it is gone when the command returns');
	}
});

test('the launcher starts no more servers early than the Manager starts at once; the rest start in the run, each once', async () => {
	const pidFile = join(scratch, 'many-pids.txt');
	const servers = Object.fromEntries(
		Array.from({ length: 17 }, (_, i) => [
			`s${String(i).padStart(2, '0')}`,
			{ command: process.execPath, args: [fixture, '--pid-file', pidFile, '--tools', '1'] },
		]),
	);
	const dir = workspace({ '.vscode/mcp.json': { servers } });
	const result = await run(['list', '--verbose'], dir);
	assert.equal(result.code, 0, result.stderr);
	const tookOver = result.stderr.match(/: took over process \d+/g) ?? [];
	const startedInRun = result.stderr.match(/: started process \d+/g) ?? [];
	// DEFAULT_MAX_CONCURRENT_STARTS.stdio (src/manager/startLimits.ts) is 16.
	assert.equal(tookOver.length, 16, result.stderr);
	assert.equal(startedInRun.length, 1, result.stderr);
	assert.equal(readFileSync(pidFile, 'utf8').trim().split('\n').length, 17, 'each server process started once');
});

test('an ${input:} two servers share is asked once on a terminal, and both get that value', async () => {
	// Issue 27 defect 9: each server had its own input source, so the question came once per server.
	const dir = workspace({
		'.vscode/mcp.json': {
			inputs: [{ type: 'promptString', id: 'token', description: 'A shared token' }],
			servers: {
				a: { command: process.execPath, args: [fixture], env: { TOKEN: '${input:token}' } },
				b: { command: process.execPath, args: [fixture], env: { TOKEN: '${input:token}' } },
			},
		},
	});
	// `script` gives the command line a terminal, as a person has (util-linux; the answer goes in through its stdin).
	const result = await new Promise<{ code: number | null; output: string; questions: number }>((resolve, reject) => {
		const child = spawn(
			'script',
			['-qfec', `${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} list`, '/dev/null'],
			{
				cwd: dir,
				env: { ...process.env, XDG_CACHE_HOME: join(scratch, 'cache'), XDG_STATE_HOME: join(scratch, 'state') },
				stdio: ['pipe', 'pipe', 'pipe'],
			},
		);
		let output = '';
		let questions = 0;
		child.stdout.on('data', (d: Buffer) => {
			output += d.toString();
			const asked = output.split('A shared token').length - 1;
			while (questions < asked) {
				questions++;
				child.stdin.write('same-value\r');
			}
		});
		const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
		child.on('error', reject);
		child.on('close', (code) => {
			clearTimeout(timer);
			resolve({ code, output, questions });
		});
	});
	assert.equal(result.questions, 1, `asked once: ${result.output}`);
	assert.equal(result.code, 0, result.output);
	assert.match(result.output, /^a {2}/m);
	assert.match(result.output, /^b {2}/m);
});

test('a malformed or invalid configuration is named on stderr by list, call and doctor, and is not a success', async () => {
	// Issue 27 defect 5: a malformed mcp.json gave "No servers are configured" and exit 0; an invalid entry vanished.
	const malformed = workspace({ '.vscode/mcp.json': '{ "servers": { "everything": { "command": ' });
	const list = await run(['list'], malformed);
	assert.notEqual(list.code, 0, 'list could not do what was asked');
	assert.match(list.stderr, /mcp\.json: not valid JSON/);
	assert.doesNotMatch(list.stdout, /No servers are configured/);
	const doctor = await run(['doctor'], malformed);
	assert.equal(doctor.code, 1);
	assert.doesNotMatch(doctor.stdout, /0 servers OK/);
	assert.match(doctor.stdout, /No server to check: the configuration has 1 problem/);
	const call = await run(['call', 'everything', 'echo', '--args', '{"message":"x"}'], malformed);
	assert.equal(call.code, 2);
	assert.match(call.stderr, /not valid JSON/);

	const invalid = workspace({
		'.vscode/mcp.json': { servers: { everything: everythingServer, broken: { args: ['no command or url'] } } },
	});
	const partial = await run(['list'], invalid);
	assert.equal(partial.code, 1, 'the list is not the whole configuration');
	assert.match(partial.stderr, /broken/);
	assert.match(partial.stdout, /^everything {2}/m, 'the valid server is still listed');
	const echo = await run(['call', 'everything', 'echo', '--args', '{"message":"still works"}'], invalid);
	assert.equal(echo.code, 0, echo.stderr);
	assert.match(echo.stdout, /still works/);
	assert.match(echo.stderr, /broken/, 'the problem is named even when the call runs');
});

test('list marks the tools whose definition changed since a server was first listed', async () => {
	const marker = join(scratch, 'rug-pulled');
	const changing = join(process.cwd(), 'test/fixtures/servers/changingServer.js');
	const dir = workspace({
		'.vscode/mcp.json': {
			servers: { weather: { command: process.execPath, args: [changing, '--changed-if', marker] } },
		},
	});
	const first = await run(['list'], dir);
	assert.equal(first.code, 0, first.stderr);
	assert.match(first.stdout, /^ {4}forecast — Gets the weather forecast for a city\.$/m, 'the first listing is pinned');
	writeFileSync(marker, 'changed');
	const second = await run(['list', '--json'], dir);
	assert.equal(second.code, 0, second.stderr);
	const server = (JSON.parse(second.stdout) as { servers: { changedTools: string[] }[] }).servers[0];
	assert.deepEqual(server?.changedTools, ['forecast', 'exfiltrate']);
	const text = await run(['list'], dir);
	assert.match(text.stdout, /^ {4}forecast \(changed since first listed\) — /m);
	assert.match(text.stdout, /^ {4}rug — /m, 'an unchanged tool is not marked');
});
