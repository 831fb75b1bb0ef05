import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCommandLine } from '../../src/cli/args';

const noFile = () => {
	throw new Error('ENOENT: no such file');
};

test('commands, operands and global flags in any order', () => {
	const parsed = parseCommandLine(
		['--json', 'call', 'srv', 'tool', '--args', '{"a":1}', '-w', '/ws', '--input', 'k=v=w', '--timeout', '5000'],
		'/cwd',
		noFile,
	);
	assert.ok(parsed.ok);
	assert.deepEqual(parsed.command, { name: 'call', server: 'srv', tool: 'tool', args: { a: 1 } });
	assert.equal(parsed.options.workspace, '/ws');
	assert.equal(parsed.options.json, true);
	assert.equal(parsed.options.timeoutMs, 5000);
	assert.deepEqual([...parsed.options.inputs], [['k', 'v=w']]);
	const bare = parseCommandLine(['list', 'a', 'b'], '/cwd', noFile);
	assert.ok(bare.ok);
	assert.deepEqual(bare.command, { name: 'list', servers: ['a', 'b'] });
	assert.equal(bare.options.workspace, '/cwd');
});

test('no command, or --help, is help', () => {
	for (const argv of [[], ['--help'], ['call', '-h']]) {
		const parsed = parseCommandLine(argv, '/', noFile);
		assert.ok(parsed.ok);
		assert.equal(parsed.command.name, 'help');
	}
});

test('usage problems are returned as text, never thrown', () => {
	const error = (argv: string[]) => {
		const parsed = parseCommandLine(argv, '/', noFile);
		assert.equal(parsed.ok, false);
		return parsed.ok ? '' : parsed.error;
	};
	assert.equal(error(['call', 'srv']), "'call' takes <server> <tool>");
	assert.equal(error(['servers', 'x']), "'servers' takes no operands");
	assert.equal(error(['nope']), "unknown command 'nope'");
	assert.equal(error(['call', 's', 't', '--args', '{']).startsWith('--args is not valid JSON'), true);
	assert.equal(error(['call', 's', 't', '--args', '"x"']), `--args must be a JSON object, e.g. '{"message":"hi"}'`);
	assert.equal(error(['call', 's', 't', '--args-file', 'f.json']), 'cannot read --args-file: ENOENT: no such file');
	assert.equal(error(['--input', 'novalue', 'list']), "--input needs ID=VALUE (got 'novalue')");
	assert.equal(error(['--timeout=0', 'list']), "--timeout must be a positive number of milliseconds (got '0')");
	assert.match(error(['--bogus', 'list']), /bogus/);
	assert.equal(error(['prompt', 's', 'p', '--args', '{"x":{"y":1}}']), "prompt argument 'x' must be a string");
});

test('search and add: their operands, --registry (repeatable), --version and --yes', () => {
	const search = parseCommandLine(
		['search', 'git hub', '--registry', 'https://a/v0.1', '--registry', 'https://b/v0.1'],
		'/cwd',
		noFile,
	);
	assert.ok(search.ok);
	assert.deepEqual(search.command, { name: 'search', text: 'git hub' });
	assert.deepEqual(search.options.registries, ['https://a/v0.1', 'https://b/v0.1']);
	const all = parseCommandLine(['search'], '/cwd', noFile);
	assert.ok(all.ok);
	assert.deepEqual(all.command, { name: 'search', text: undefined });
	const add = parseCommandLine(['add', 'io.github.x/y', '--version', '1.2.0', '-y', '-w', '/ws'], '/cwd', noFile);
	assert.ok(add.ok);
	assert.deepEqual(add.command, { name: 'add', server: 'io.github.x/y', version: '1.2.0' });
	assert.equal(add.options.yes, true);
	assert.equal(add.options.workspace, '/ws');
	const bad = parseCommandLine(['add'], '/cwd', noFile);
	assert.ok(!bad.ok);
	assert.match(bad.error, /'add' takes <registry server name>/);
	const two = parseCommandLine(['search', 'a', 'b'], '/cwd', noFile);
	assert.ok(!two.ok);
	assert.match(two.error, /at most one TEXT/);
});

test('test takes files and folders, and --junit', () => {
	const parsed = parseCommandLine(['test', 'checks', 'one.mcpcall.json', '--junit', 'out.xml'], '/cwd', noFile);
	assert.ok(parsed.ok);
	assert.deepEqual(parsed.command, { name: 'test', paths: ['checks', 'one.mcpcall.json'], junit: 'out.xml' });
	const bare = parseCommandLine(['test'], '/cwd', noFile);
	assert.ok(bare.ok);
	assert.deepEqual(bare.command, { name: 'test', paths: [] });
});
