import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseServer } from '../../src/manager/config';
import { debugLaunch, parseDevConfig } from '../../src/manager/devMode';

const source = { kind: 'user', label: 'user settings' } as const;

test('dev in VS Code shape: a glob or a list of globs, and a node or debugpy debugger', () => {
	const problems: string[] = [];
	assert.deepEqual(parseDevConfig({ watch: 'src/**/*.ts', debug: { type: 'node' } }, 'S', true, problems), {
		watch: ['src/**/*.ts'],
		debug: { type: 'node' },
	});
	assert.deepEqual(parseDevConfig({ watch: ['a/*.js', 'b/*.py'] }, 'S', true, problems), {
		watch: ['a/*.js', 'b/*.py'],
	});
	assert.deepEqual(
		parseDevConfig({ debug: { type: 'debugpy', debugpyPath: '/venv/bin/debugpy' } }, 'S', true, problems),
		{
			watch: [],
			debug: { type: 'debugpy', debugpyPath: '/venv/bin/debugpy' },
		},
	);
	assert.deepEqual(problems, []);
});

test('a malformed dev drops only its part, with a problem naming the field', () => {
	const problems: string[] = [];
	assert.deepEqual(parseDevConfig({ watch: 3, debug: { type: 'gdb' } }, 'S', true, problems), { watch: [] });
	assert.deepEqual(parseDevConfig({ watch: '*.js', debug: { type: 'node' } }, 'R', false, problems), {
		watch: ['*.js'],
	});
	assert.equal(parseDevConfig('yes', 'T', true, problems), undefined);
	assert.deepEqual(problems, [
		'S: field "dev.watch" must be a glob or a list of globs; nothing is watched',
		'S: field "dev.debug" must be { "type": "node" } or { "type": "debugpy" }; it was ignored',
		'R: field "dev.debug" works only for a local (stdio) server; it was ignored',
		'T: field "dev" must be an object like { "watch": "src/**/*.ts" }; it was ignored',
	]);
});

test('a server entry keeps dev in its config (it was accepted and ignored before)', () => {
	const problems: string[] = [];
	const entry = parseServer('w', { command: 'node', args: ['s.js'], dev: { watch: 's.js' } }, source, false, problems);
	assert.deepEqual(problems, []);
	assert.deepEqual(entry?.config.dev, { watch: ['s.js'] });
});

test('debugLaunch: node gets --inspect, other commands NODE_OPTIONS; Python runs under debugpy', () => {
	const env = {};
	assert.deepEqual(debugLaunch({ command: '/usr/bin/node', args: ['s.js'], env }, { type: 'node' }, 9229), {
		command: '/usr/bin/node',
		args: ['--inspect=127.0.0.1:9229', 's.js'],
		env,
	});
	const npx = debugLaunch(
		{ command: 'npx', args: ['tsx', 's.ts'], env: { NODE_OPTIONS: '--max-old-space-size=512' } },
		{ type: 'node' },
		9230,
	);
	assert.equal(npx.env.NODE_OPTIONS, '--max-old-space-size=512 --inspect=127.0.0.1:9230');
	assert.deepEqual(npx.args, ['tsx', 's.ts']);
	assert.deepEqual(debugLaunch({ command: 'python3.11', args: ['server.py'], env }, { type: 'debugpy' }, 5678).args, [
		'-m',
		'debugpy',
		'--listen',
		'127.0.0.1:5678',
		'server.py',
	]);
	assert.deepEqual(
		debugLaunch(
			{ command: 'uv', args: ['run', 'server.py'], env },
			{ type: 'debugpy', debugpyPath: '/v/bin/debugpy' },
			5678,
		),
		{ command: '/v/bin/debugpy', args: ['--listen', '127.0.0.1:5678', 'uv', 'run', 'server.py'], env },
	);
});
