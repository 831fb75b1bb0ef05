// What a stdio server sees of the editor's environment, checked inside a real server nobody here wrote
// (server-everything's get-env tool prints its process.env), through the headless API and through the Manager.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import { Manager } from '../../src/manager/manager';
import { McpClient } from '../../src/protocol/client';
import { childEnvironment, DEFAULT_INHERITED_VARIABLES } from '../../src/protocol/transports/childEnvironment';
import { createTransport } from '../../src/protocol/transports/createTransport';
import { everythingMain } from '../fixtures/everythingHttp';

async function serverEnv(client: McpClient): Promise<Record<string, string>> {
	const result = await client.callTool('get-env', {});
	const text = (result.content[0] as unknown as { text: string }).text;
	return JSON.parse(text) as Record<string, string>;
}

// Set in this (the "editor's") process, as a user's shell would.
process.env.AWS_SECRET_ACCESS_KEY = 'aws-secret-from-the-editor';
process.env.SWITCHBOARD_TEST_TOKEN = 'token-from-the-editor';

test('env null removes an inherited variable; the rest of the environment is still inherited by default (headless API)', async () => {
	const transport = createTransport({
		type: 'stdio',
		command: process.execPath,
		args: [everythingMain],
		env: { AWS_SECRET_ACCESS_KEY: null, ADDED: 'yes' },
	});
	const client = await McpClient.connect(transport, { name: 'everything' });
	try {
		const env = await serverEnv(client);
		assert.equal(env.AWS_SECRET_ACCESS_KEY, undefined, 'the secret removed by null did not reach the server');
		assert.equal(env.ADDED, 'yes');
		assert.equal(
			env.SWITCHBOARD_TEST_TOKEN,
			'token-from-the-editor',
			'connect() keeps inheriting the whole environment, as documented',
		);
		assert.equal(env.PATH, process.env.PATH);
	} finally {
		await client.close();
	}
});

test('with inheritEnvironment false only the allow-list and the configured variables reach the server', async () => {
	const transport = createTransport(
		{ type: 'stdio', command: process.execPath, args: [everythingMain], env: { PASSED_ON_PURPOSE: 'ok', HOME: null } },
		{ inheritEnvironment: false },
	);
	const client = await McpClient.connect(transport, { name: 'everything' });
	try {
		const env = await serverEnv(client);
		assert.equal(env.AWS_SECRET_ACCESS_KEY, undefined);
		assert.equal(env.SWITCHBOARD_TEST_TOKEN, undefined);
		assert.equal(env.PASSED_ON_PURPOSE, 'ok');
		assert.equal(env.PATH, process.env.PATH, 'PATH is passed (npx and node need it)');
		assert.equal(env.HOME, undefined, 'null removes an allow-listed variable too');
		const allowed = new Set(DEFAULT_INHERITED_VARIABLES);
		for (const name of Object.keys(env)) {
			// Node itself may add a few of its own (none here is from the editor's environment).
			if (name === 'PASSED_ON_PURPOSE') continue;
			assert.ok(allowed.has(name) || process.env[name] === undefined, `${name} came from the editor's environment`);
		}
	} finally {
		await client.close();
	}
});

test('the Manager passes inheritEnvironment to its stdio servers, and changing it restarts them with the new environment', async () => {
	const logger = new MemoryLogger('info');
	const manager = new Manager({ logger: () => logger }, { inheritEnvironment: false });
	try {
		await manager.reconcile([
			{
				name: 'everything',
				config: { type: 'stdio', command: process.execPath, args: [everythingMain] },
				source: { kind: 'api', label: 'test' },
				workspaceDefined: false,
			},
		]);
		assert.equal(manager.get('everything')!.state.kind, 'running');
		assert.equal((await serverEnv(manager.client('everything'))).SWITCHBOARD_TEST_TOKEN, undefined);
		await manager.setInheritEnvironment(true);
		assert.equal(manager.get('everything')!.state.kind, 'running');
		assert.equal((await serverEnv(manager.client('everything'))).SWITCHBOARD_TEST_TOKEN, 'token-from-the-editor');
	} finally {
		await manager.dispose();
	}
});

test('childEnvironment: Windows names match whatever their case, and shell functions are not passed', () => {
	const parent = { Path: 'C:\\Windows', SystemRoot: 'C:\\Windows', GITHUB_TOKEN: 'x', ComSpec: 'cmd.exe' };
	assert.deepEqual(childEnvironment(parent, { PATH: 'D:\\bin' }, false, 'win32'), {
		SystemRoot: 'C:\\Windows',
		ComSpec: 'cmd.exe',
		PATH: 'D:\\bin',
	});
	assert.deepEqual(childEnvironment(parent, { path: null }, true, 'win32'), {
		SystemRoot: 'C:\\Windows',
		GITHUB_TOKEN: 'x',
		ComSpec: 'cmd.exe',
	});
	assert.deepEqual(childEnvironment({ PATH: '/bin', SHELL: '() { evil; }', HOME: '/h' }, undefined, false, 'linux'), {
		PATH: '/bin',
		HOME: '/h',
	});
	assert.deepEqual(
		childEnvironment({ path: '/bin' }, { PATH: '/usr/bin' }, true, 'linux'),
		{ path: '/bin', PATH: '/usr/bin' },
		'case matters elsewhere',
	);
});
