import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inputIds, resolveConfig, resolveString, type VariableContext } from '../../src/manager/variables';

const context: VariableContext = {
	workspaceFolder: '/w/app',
	workspaceFolders: [
		{ name: 'app', path: '/w/app' },
		{ name: 'lib', path: '/w/lib' },
	],
	userHome: '/home/me',
	env: { HOME: '/home/me', API_KEY: 'k-123' },
	pathSeparator: '/',
};

test('resolves every built-in variable', async () => {
	const { value, problems } = await resolveString(
		'${workspaceFolder}|${workspaceFolder:lib}|${userHome}|${env:API_KEY}|${pathSeparator}|${/}',
		context,
		'x',
	);
	assert.equal(value, '/w/app|/w/lib|/home/me|k-123|/|/');
	assert.deepEqual(problems, []);
});

test('an unknown variable is a problem, not a silent empty string', async () => {
	const result = await resolveString('--root=${workspaceRoot}', context, 'Server \'a\': field "args[0]"');
	assert.equal(result.value, undefined);
	assert.deepEqual(result.problems, ['Server \'a\': field "args[0]": unknown variable ${workspaceRoot}']);
	const folder = await resolveString('${workspaceFolder:nope}', context, 'f');
	assert.equal(folder.value, undefined);
	assert.match(folder.problems[0]!, /names no open folder \(open: app, lib\)/);
	const noFolder = await resolveString('${workspaceFolder}', { ...context, workspaceFolder: undefined }, 'f');
	assert.equal(noFolder.value, undefined);
	assert.match(noFolder.problems[0]!, /no folder is open/);
});

test('an unset environment variable resolves empty but is reported', async () => {
	const result = await resolveString('x${env:NOPE}y', context, 'f');
	assert.equal(result.value, 'xy');
	assert.equal(result.problems[0], 'f: environment variable NOPE is not set (used as an empty value, as in VS Code)');
	const url = await resolveConfig(
		'demo',
		{ type: 'http', url: 'http://localhost:${env:MCP_SWITCHBOARD_DEMO_HTTP_PORT}/mcp' },
		context,
	);
	assert.deepEqual(url.problems, [
		`Server 'demo': field "url": environment variable MCP_SWITCHBOARD_DEMO_HTTP_PORT is not set (used as an empty value, as in VS Code)`,
	]);
});

test('inputs are asked through the supplied asker, once per id per config', async () => {
	const asked: string[] = [];
	const ctx: VariableContext = {
		...context,
		input: async (id) => {
			asked.push(id);
			return id === 'token' ? 's3cret' : undefined;
		},
	};
	const { config, problems } = await resolveConfig(
		'api',
		{ type: 'http', url: 'https://${env:NOPE}example.com/mcp', headers: { Authorization: 'Bearer ${input:token}' } },
		ctx,
	);
	assert.deepEqual(config, {
		type: 'http',
		url: 'https://example.com/mcp',
		headers: { Authorization: 'Bearer s3cret' },
	});
	assert.equal(problems.length, 1);
	assert.deepEqual(asked, ['token']);

	const cancelled = await resolveConfig('api', { type: 'stdio', command: 'x', env: { T: '${input:other}' } }, ctx);
	assert.equal(cancelled.config, undefined);
	assert.match(cancelled.problems[0]!, /Server 'api': field "env.T": no value for \$\{input:other\}/);
});

test('resolves command, args, env and cwd of a stdio server', async () => {
	const { config, problems } = await resolveConfig(
		'fs',
		{
			type: 'stdio',
			command: '${userHome}/bin/server',
			args: ['${workspaceFolder}', '--lib=${workspaceFolder:lib}'],
			env: { K: '${env:API_KEY}' },
			cwd: '${workspaceFolder}',
		},
		context,
	);
	assert.deepEqual(problems, []);
	assert.deepEqual(config, {
		type: 'stdio',
		command: '/home/me/bin/server',
		args: ['/w/app', '--lib=/w/lib'],
		env: { K: 'k-123' },
		cwd: '/w/app',
	});
});

test('a URL that resolves to something that is not http(s) is a problem', async () => {
	const result = await resolveConfig('u', { type: 'http', url: '${env:API_KEY}' }, context);
	assert.equal(result.config, undefined);
	assert.match(result.problems[0]!, /not an http:\/\/ or https:\/\/ URL/);
});

test('inputIds lists the inputs a config uses', () => {
	assert.deepEqual(
		inputIds({ type: 'http', url: 'https://${input:host}/', headers: { A: '${input:token}', B: '${input:host}' } }),
		['host', 'token'],
	);
});
