// How the stdio transport builds a Windows command line. Pure string work with a fake file system, so it runs on
// any OS; spawning on Windows itself cannot be tested here.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { windowsCommandLine } from '../../src/protocol/transports/stdioSpawn';

const files = new Set([
	'C:\\Program Files\\nodejs\\npx.cmd',
	'C:\\Program Files\\nodejs\\node.exe',
	'C:\\tools\\server.exe',
	'C:\\work\\bin\\run.bat',
	'C:\\work\\npx.cmd',
]);
// Windows file names ignore case; the PATHEXT spelling (.CMD) is what the lookup produces.
const lower = new Set([...files].map((f) => f.toLowerCase()));
const isFile = (path: string) => lower.has(path.toLowerCase());
const env = {
	Path: 'C:\\Windows\\system32;C:\\Program Files\\nodejs;C:\\tools',
	PATHEXT: '.COM;.EXE;.BAT;.CMD',
	ComSpec: 'C:\\Windows\\system32\\cmd.exe',
};

describe('windowsCommandLine', () => {
	test('a program found on PATH runs directly, with its arguments untouched', () => {
		assert.deepEqual(windowsCommandLine('server', ['--port', 'a b'], env, 'C:\\work', isFile), {
			file: 'C:\\tools\\server.EXE',
			args: ['--port', 'a b'],
			verbatim: false,
		});
		assert.deepEqual(windowsCommandLine('node.exe', ['x.js'], env, 'C:\\work', isFile), {
			file: 'C:\\Program Files\\nodejs\\node.exe',
			args: ['x.js'],
			verbatim: false,
		});
	});

	test('a .cmd shim found on PATH runs through cmd.exe with every argument quoted and escaped', () => {
		const result = windowsCommandLine(
			'npx',
			['-y', '@modelcontextprotocol/server-everything'],
			env,
			'C:\\work',
			isFile,
		);
		assert.equal(result.file, 'C:\\Windows\\system32\\cmd.exe');
		assert.equal(result.verbatim, true);
		assert.deepEqual(result.args.slice(0, 3), ['/d', '/s', '/c']);
		assert.equal(
			result.args[3],
			'"C:\\Program^ Files\\nodejs\\npx.CMD ^^^"-y^^^" ^^^"@modelcontextprotocol/server-everything^^^""',
		);
	});

	test('cmd.exe specials in arguments cannot start a second command', () => {
		const line = windowsCommandLine('npx', ['a & calc', '%PATH%', 'x"y', 'C:\\dir\\'], env, 'C:\\work', isFile)
			.args[3]!;
		// Every special character carries carets, so cmd reads & % and " as text.
		assert.ok(!/[^^]&/.test(line), `no bare & in ${line}`);
		assert.ok(!/[^^]%/.test(line), `no bare % in ${line}`);
		// x"y becomes "x\"y" for the program; a trailing backslash is doubled so it does not escape the closing quote.
		assert.ok(line.includes('^^^"x\\^^^"y^^^"'), line);
		assert.ok(line.includes('^^^"C:\\dir\\\\^^^"'), line);
	});

	test('a bare name is not looked up in the working directory, a relative path is', () => {
		assert.equal(
			windowsCommandLine('npx', [], env, 'C:\\work', isFile).args[3],
			'"C:\\Program^ Files\\nodejs\\npx.CMD"',
		);
		assert.equal(
			windowsCommandLine('.\\bin\\run', ['go'], env, 'C:\\work', isFile).args[3],
			'"C:\\work\\bin\\run.BAT ^^^"go^^^""',
		);
	});

	test('a command that is not found is passed on as it is, so spawn reports ENOENT for it', () => {
		assert.deepEqual(windowsCommandLine('missing-server', ['x'], env, 'C:\\work', isFile), {
			file: 'missing-server',
			args: ['x'],
			verbatim: false,
		});
	});
});
