import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorSummary, stderrReason } from '../../src/manager/errorSummary';

// The stderr below is what Node 20 and Python 3.11 print for these crashes, as the stdio transport reports them.
const nodeMissingModule = [
	'Server "files" exited with code 1. Last stderr lines:',
	'node:internal/modules/cjs/loader:1210',
	'  throw err;',
	'  ^',
	'',
	"Error: Cannot find module 'no-such-module-xyz'",
	'Require stack:',
	'- /srv/[eval]',
	'    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)',
	'    at Module._load (node:internal/modules/cjs/loader:1038:27)',
	'    at evalScript (node:internal/process/execution:133:3) {',
	"  code: 'MODULE_NOT_FOUND',",
	"  requireStack: [ '/srv/[eval]' ]",
	'}',
	'',
	'Node.js v20.20.2',
].join('\n');

const pythonTraceback = [
	'Server "py" exited with code 1. Last stderr lines:',
	'Traceback (most recent call last):',
	'  File "/srv/server.py", line 3, in <module>',
	"    json.loads('{')",
	'  File "/usr/lib/python3.11/json/decoder.py", line 353, in raw_decode',
	'    obj, end = self.scan_once(s, idx)',
	'               ^^^^^^^^^^^^^^^^^^^^^^',
	'json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)',
].join('\n');

test('a Node crash reads as its reason and how it ended, not "Server … exited with code 1. Last stderr lines:" nor "Error:"', () => {
	assert.equal(errorSummary(nodeMissingModule), "Cannot find module 'no-such-module-xyz' — exited with code 1");
	assert.equal(
		errorSummary(
			'Server "x" exited with code 1. Last stderr lines:\n[eval]:1\nthrow new TypeError(\'bad port\')\n^\n\nTypeError: bad port\n    at [eval]:1:7\n\nNode.js v20.20.2',
		),
		'TypeError: bad port — exited with code 1',
	);
});

test('a Python traceback reads as its exception line', () => {
	assert.equal(
		errorSummary(pythonTraceback),
		'json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1) — exited with code 1',
	);
});

test('stderr without an exception gives its last meaningful line; no stderr gives how it ended', () => {
	assert.equal(
		errorSummary('Server "x" exited with code 3. Last stderr lines:\nstarting up\nfatal: port 8080 is in use\n'),
		'fatal: port 8080 is in use — exited with code 3',
	);
	assert.equal(errorSummary('Server "x" exited with code 3'), 'Server "x" exited with code 3');
	assert.equal(stderrReason(['    at main (x.js:1:1)', 'Node.js v20.20.2']), undefined);
});

test('a crash loop keeps the reason first and says it stopped retrying', () => {
	const message = `Server 'files' stopped 5 times within 3 minutes, so it is not restarted again. Last error: ${nodeMissingModule}`;
	assert.equal(
		errorSummary(message),
		"Cannot find module 'no-such-module-xyz' — exited with code 1 (stopped 5 times, not restarted)",
	);
});

test('any other error is its first line, cut to the given length', () => {
	assert.equal(errorSummary('spawn mcp-nope ENOENT\nPATH: /usr/bin'), 'spawn mcp-nope ENOENT');
	const long = errorSummary('x'.repeat(300), 100);
	assert.equal(long.length, 100);
	assert.ok(long.endsWith('…'));
});
