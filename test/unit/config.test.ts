import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
	canonicalJson,
	configHash,
	describeLaunch,
	importMcpServers,
	mergeServers,
	parse,
	parseDotenv,
	parseMcpJson,
} from '../../src/manager/config';
import { editJsonc, parseJsonc } from '../../src/manager/jsonc';
import { serverIdentity } from '../../src/manager/serverIdentity';
import type { ConfigSource } from '../../src/manager/manager';

const user: ConfigSource = { kind: 'user', label: 'User settings' };
const workspace: ConfigSource = { kind: 'workspace', label: 'Workspace settings' };
const mcpJson: ConfigSource = { kind: 'mcpJson', label: 'demo/.vscode/mcp.json', path: '/w/demo/.vscode/mcp.json' };

test('parses stdio and remote servers, normalising type spellings', () => {
	const { servers, problems } = parse(
		{
			files: { command: 'npx', args: ['-y', 'server-filesystem', '/tmp'], env: { DEBUG: '1', PORT: 8080 } },
			remote: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } },
			a: { type: 'streamableHttp', url: 'http://127.0.0.1:1/mcp' },
			b: { type: 'streamable-http', url: 'http://127.0.0.1:1/mcp' },
			legacy: { type: 'sse', url: 'http://127.0.0.1:1/sse', timeoutMs: 5000, disabled: true },
		},
		user,
	);
	assert.deepEqual(problems, []);
	assert.deepEqual(
		servers.map((s) => [s.name, s.config.type]),
		[
			['files', 'stdio'],
			['remote', 'http'],
			['a', 'http'],
			['b', 'http'],
			['legacy', 'sse'],
		],
	);
	assert.deepEqual(servers[0]!.config, {
		type: 'stdio',
		command: 'npx',
		args: ['-y', 'server-filesystem', '/tmp'],
		env: { DEBUG: '1', PORT: '8080' },
	});
	assert.equal(servers[4]!.config.timeoutMs, 5000);
	assert.equal(servers[4]!.config.disabled, true);
	assert.equal(servers[0]!.source, user);
	assert.equal(servers[0]!.workspaceDefined, false);
});

test('one bad entry never stops the others, and every problem names the server and the field', () => {
	const { servers, problems } = parse(
		{
			good: { command: 'node', args: ['s.js'] },
			noCommand: { args: ['x'] },
			stdioNoCommand: { type: 'stdio', args: ['x'] },
			badType: { type: 'websocket', url: 'ws://x' },
			badUrl: { url: 'ftp://example.com' },
			badArgs: { command: 'node', args: 'server.js' },
			notObject: 'node server.js',
			typo: { comand: 'node' },
			badTimeout: { command: 'node', timeoutMs: -1 },
		},
		workspace,
	);
	assert.deepEqual(
		servers.map((s) => s.name),
		['good', 'badArgs', 'badTimeout'],
	);
	const find = (server: string) => problems.filter((p) => p.includes(`'${server}'`));
	assert.match(find('noCommand')[0]!, /needs "command".*or "url"/);
	assert.match(find('stdioNoCommand')[0]!, /field "command" must be a non-empty string \(got nothing\)/);
	assert.match(find('badType')[0]!, /field "type" must be "stdio", "http" or "sse".*websocket/);
	assert.match(find('badUrl')[0]!, /field "url" must be an http/);
	assert.match(find('badArgs')[0]!, /field "args" must be an array/);
	assert.match(find('notObject')[0]!, /expected an object/);
	assert.ok(find('typo').some((p) => p.includes('unknown field "comand"')));
	assert.match(find('badTimeout')[0]!, /field "timeoutMs"/);
	for (const problem of problems) assert.match(problem, /Workspace settings/);
	for (const problem of problems) assert.doesNotMatch(problem, /undefined/, 'a missing field reads as "nothing"');
	assert.equal(servers[0]!.workspaceDefined, true);
});

test('a setting that is not an object is one problem, not a throw', () => {
	assert.deepEqual(parse(undefined, user), { servers: [], problems: [] });
	const result = parse(['a'], user);
	assert.equal(result.servers.length, 0);
	assert.match(result.problems[0]!, /must be an object keyed by server name/);
});

test('mcp.json: servers and inputs, with comments and trailing commas', () => {
	const text = `{
		// VS Code's format
		"inputs": [
			{ "type": "promptString", "id": "token", "description": "API token", "password": true },
			{ "type": "pickString", "id": "region", "options": ["eu", "us"], "default": "eu" },
			{ "type": "command", "id": "bad" },
		],
		"servers": {
			/* a local one */
			"git": { "type": "stdio", "command": "uvx", "args": ["mcp-server-git", "--path", "\${workspaceFolder}"] },
			"api": { "url": "https://\${input:region}.example.com/mcp", "headers": { "Authorization": "Bearer \${input:token}" } },
		},
	}`;
	const result = parseMcpJson(text, mcpJson);
	assert.deepEqual(
		result.servers.map((s) => [s.name, s.config.type, s.workspaceDefined, s.source.label]),
		[
			['git', 'stdio', true, 'demo/.vscode/mcp.json'],
			['api', 'http', true, 'demo/.vscode/mcp.json'],
		],
	);
	assert.deepEqual(
		result.inputs.map((i) => [i.id, i.type]),
		[
			['token', 'promptString'],
			['region', 'pickString'],
		],
	);
	assert.equal(result.problems.length, 1);
	assert.match(result.problems[0]!, /Input 'bad'.*"type"/);
});

test('mcp.json that is not JSON gives one problem naming the file', () => {
	const result = parseMcpJson('{ "servers": ', mcpJson);
	assert.equal(result.servers.length, 0);
	assert.match(result.problems[0]!, /demo\/.vscode\/mcp.json: not valid JSON/);
});

test('comment-like text inside strings survives', () => {
	const result = parseMcpJson(
		'{"servers":{"u":{"url":"https://x.example/a//b","headers":{"X":"/* not a comment */,}"}}}}',
		mcpJson,
	);
	assert.deepEqual(result.problems, []);
	assert.deepEqual(result.servers[0]!.config, {
		type: 'http',
		url: 'https://x.example/a//b',
		headers: { X: '/* not a comment */,}' },
	});
});

test('settings win over mcp.json for the same name, and the loser is reported', () => {
	const fromSettings = parse({ git: { command: 'git-mcp' } }, user).servers;
	const fromFile = parseMcpJson('{"servers":{"git":{"command":"uvx"},"other":{"command":"o"}}}', mcpJson).servers;
	const merged = mergeServers([fromSettings, fromFile]);
	assert.deepEqual(
		merged.servers.map((s) => [s.name, s.source.label]),
		[
			['git', 'User settings'],
			['other', 'demo/.vscode/mcp.json'],
		],
	);
	assert.match(merged.problems[0]!, /'git' in demo\/.vscode\/mcp.json is overridden by the one in User settings/);
});

test('imports a Claude Desktop / Cursor mcpServers file', () => {
	const claude = JSON.stringify({
		mcpServers: {
			filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me'] },
			remote: { serverUrl: 'https://mcp.example.com/sse', transport: 'sse' },
			broken: { args: [] },
		},
	});
	const result = importMcpServers(claude, 'claude_desktop_config.json');
	assert.deepEqual(result.servers, {
		filesystem: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me'] },
		remote: { type: 'sse', url: 'https://mcp.example.com/sse' },
	});
	assert.equal(result.problems.length, 1);
	assert.match(result.problems[0]!, /'broken'/);
	assert.match(importMcpServers('{}', 'x.json').problems[0]!, /no "mcpServers"/);
});

test('config hash ignores key order and changes with any field', () => {
	const a = configHash({ type: 'stdio', command: 'node', args: ['a'], env: { A: '1', B: '2' } });
	const b = configHash({ env: { B: '2', A: '1' }, args: ['a'], command: 'node', type: 'stdio' } as never);
	assert.equal(a, b);
	assert.notEqual(a, configHash({ type: 'stdio', command: 'node', args: ['b'], env: { A: '1', B: '2' } }));
	assert.equal(canonicalJson({ b: 1, a: [2, { d: 1, c: 2 }] }), '{"a":[2,{"c":2,"d":1}],"b":1}');
});

test('hashes and identities stay what they were: consent, pins and kept listings are stored under them', () => {
	// Values computed by the first release that kept them; a change here orphans what users approved and kept.
	const config = {
		type: 'stdio' as const,
		command: 'npx',
		args: ['-y', '@modelcontextprotocol/server-github'],
		env: { TOKEN: '${input:token}', EMPTY: '' },
		autoStart: true,
		cwd: undefined,
		timeoutMs: 3000,
	};
	assert.equal(configHash(config), 'becface3d42d2fcb');
	assert.equal(
		serverIdentity({ name: 'github', source: { kind: 'user', label: 'User settings' }, config }),
		'a8e66f26bde6eb2d35f1478a',
	);
	assert.equal(
		canonicalJson({ a: [undefined, null, 1.5, 'x"y', { z: undefined, y: [] }], b: {}, c: true, d: undefined }),
		'{"a":[null,null,1.5,"x\\"y",{"y":[]}],"b":{},"c":true}',
	);
	// Keys in the order Array#sort gives (UTF-16 code units), for a few keys and for many.
	for (const count of [5, 40]) {
		const keys = Array.from({ length: count }, (_, i) => `${'Zaé_-'[i % 5]}${count - i}`);
		const sorted = [...keys].sort();
		const value = Object.fromEntries(keys.map((key) => [key, key.length]));
		assert.equal(canonicalJson(value), JSON.stringify(Object.fromEntries(sorted.map((key) => [key, key.length]))));
	}
});

test('the trust description shows exactly what will run, without header values', () => {
	assert.equal(
		describeLaunch({
			type: 'stdio',
			command: '/usr/bin/node',
			args: ['server.js', 'a b'],
			cwd: '/w',
			env: { TOKEN: 'x' },
		}),
		"Command: /usr/bin/node server.js 'a b'\nWorking folder: /w\nEnvironment: TOKEN=x",
	);
	const remote = describeLaunch({
		type: 'http',
		url: 'https://x.example/mcp',
		headers: { Authorization: 'Bearer secret' },
	});
	assert.match(remote, /https:\/\/x.example\/mcp/);
	assert.doesNotMatch(remote, /secret/);
});

test('dotenv files: quotes, export, comments and bad lines', () => {
	const { env, problems } = parseDotenv(
		'# c\nexport A=1\nB="two words\\n"\nC=\'x # y\'\nD=plain # comment\nnot a line\n',
		'.env',
	);
	assert.deepEqual(env, { A: '1', B: 'two words\n', C: 'x # y', D: 'plain' });
	assert.deepEqual(problems, ['.env:6: not a KEY=value line']);
});

test('JSONC: comments and trailing commas go, strings stay exactly as written (escapes, // and ,] inside them)', () => {
	const text = [
		'{',
		'  // a comment',
		'  "url": "http://example.com/a//b", /* block */',
		'  "quote": "say \\"hi\\", // not a comment ,]",',
		'  "path": "C:\\\\dir\\\\",',
		'  "list": [1, 2,],',
		'}',
	].join('\n');
	assert.deepEqual(parseJsonc(text).value, {
		url: 'http://example.com/a//b',
		quote: 'say "hi", // not a comment ,]',
		path: 'C:\\dir\\',
		list: [1, 2],
	});
	// An unclosed string at the end is reported (with where it is), not looped over.
	assert.match(parseJsonc('{"a": "open\\').error ?? '', /^line 1, column \d+: /);
});

test('a broken mcp.json is reported with the line and column of the mistake', () => {
	const text = [
		'{',
		'\t"servers": {',
		'\t\t"files": {',
		'\t\t\t"command": "npx"',
		'\t\t\t"args": ["-y"]',
		'\t\t}',
		'\t}',
		'}',
	].join('\n');
	const result = parseMcpJson(text, mcpJson);
	assert.equal(result.servers.length, 0);
	assert.deepEqual(result.problems, ['demo/.vscode/mcp.json: not valid JSON: line 5, column 4: comma expected']);
	assert.deepEqual(parseJsonc('{ "a": 1,\n  "b": }').error, 'line 2, column 8: value expected');
	assert.match(
		importMcpServers('{ "mcpServers": { "x": { "command": 1 ', 'claude_desktop_config.json').problems[0]!,
		/claude_desktop_config\.json: not valid JSON: line 1, column \d+: /,
	);
});

test("editJsonc sets and removes a value and keeps comments, order and the file's indentation", () => {
	const text = [
		'{',
		'  // my servers',
		'  "servers": {',
		'    "files": { "command": "npx" }, // the filesystem server',
		'    /* kept */ "other": { "url": "https://x.example/mcp" },',
		'  },',
		'}',
	].join('\n');
	const disabled = editJsonc(text, ['servers', 'files', 'disabled'], true);
	assert.match(disabled, /\/\/ my servers/);
	assert.match(disabled, /\/\/ the filesystem server/);
	assert.match(disabled, /\/\* kept \*\/ "other"/);
	assert.deepEqual(parseJsonc(disabled).value, {
		servers: { files: { command: 'npx', disabled: true }, other: { url: 'https://x.example/mcp' } },
	});
	const added = editJsonc(disabled, ['servers', 'new'], { command: 'uvx', args: ['x'] });
	assert.match(added, /\n {4}"new": \{/, 'inserted with the two-space indentation the file uses');
	const removed = editJsonc(added, ['servers', 'other'], undefined);
	assert.deepEqual(Object.keys((parseJsonc(removed).value as { servers: object }).servers), ['files', 'new']);
	assert.match(removed, /\/\/ my servers/);
	assert.deepEqual(parseJsonc(editJsonc('', ['servers', 'a', 'command'], 'node')).value, {
		servers: { a: { command: 'node' } },
	});
	assert.throws(() => editJsonc('{ "servers": ', ['x'], 1), /not valid JSON: line 1, column \d+/);
});

test('env null is carried through from mcp.json and settings (it removes an inherited variable)', () => {
	const result = parseMcpJson(
		'{"servers":{"s":{"command":"node","env":{"AWS_SECRET_ACCESS_KEY":null,"A":"1","N":2}}}}',
		mcpJson,
	);
	assert.deepEqual(result.problems, []);
	assert.deepEqual(result.servers[0]!.config, {
		type: 'stdio',
		command: 'node',
		env: { AWS_SECRET_ACCESS_KEY: null, A: '1', N: '2' },
	});
	const fromSettings = parse({ s: { command: 'node', env: { HOME: null, X: ['no'] } } }, user);
	assert.deepEqual((fromSettings.servers[0]!.config as { env?: unknown }).env, { HOME: null });
	assert.match(
		fromSettings.problems[0]!,
		/field "env"\.X: expected a string or null \(to remove the variable\), got an array/,
	);
});

test('protocolVersion pins a server to a version; "auto" detects; anything else is a problem naming the server and the field, and detection is used', () => {
	const { servers, problems } = parse(
		{
			modern: { command: 'node', protocolVersion: '2026-07-28' },
			old: { url: 'http://127.0.0.1:1/mcp', protocolVersion: '2025-03-26' },
			detect: { command: 'node', protocolVersion: 'auto' },
			typo: { command: 'node', protocolVersion: '2026-07-29' },
			wrongType: { command: 'node', protocolVersion: 20260728 },
		},
		user,
	);
	const byName = new Map(servers.map((s) => [s.name, s.config.protocolVersion]));
	assert.equal(byName.get('modern'), '2026-07-28');
	assert.equal(byName.get('old'), '2025-03-26');
	assert.equal(byName.get('detect'), undefined);
	assert.equal(byName.get('typo'), undefined, 'the server still starts, with detection');
	assert.equal(byName.get('wrongType'), undefined);
	assert.equal(problems.length, 2);
	assert.match(
		problems[0]!,
		/'typo'.*field "protocolVersion" must be "auto" or one of 2026-07-28, 2025-11-25.*2026-07-29.*detected instead/,
	);
	assert.match(problems[1]!, /'wrongType'.*field "protocolVersion"/);
});

test('plain JSON and JSONC read to the same value; a "__proto__" key stays a key, never the prototype', () => {
	const plain =
		'{"servers": {"a": {"command": "x", "args": ["1", "2"], "env": {"K": "v"}}}, "n": 1.5e3, "u": "\\u00e9"}';
	const commented = `// a comment\n{"servers": {"a": {"command": "x", "args": ["1", "2",], "env": {"K": "v"}}}, "n": 1.5e3, "u": "\\u00e9",}`;
	assert.deepEqual(parseJsonc(plain).value, parseJsonc(commented).value);
	assert.deepEqual(parseJsonc(plain).value, JSON.parse(plain));
	const polluted = parseJsonc('{"__proto__": {"polluted": true}, "servers": {}}').value as Record<string, unknown>;
	assert.equal(Object.getPrototypeOf(polluted), Object.prototype);
	assert.equal((polluted as { polluted?: unknown }).polluted, undefined);
	assert.deepEqual(parseJsonc('').error, 'line 1, column 1: value expected');
});
