// Import Servers keeps tokens out of settings.json and shows everything that will run (issue 12 item 3).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeImport, extractSecrets, looksSecret } from '../../src/manager/importSecrets';

const claudeEntry = {
	command: 'npx',
	args: ['-y', '@modelcontextprotocol/server-github'],
	env: {
		GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
		NODE_OPTIONS: '--require ./x.js',
		LOG_LEVEL: 'debug',
	},
	cwd: '/srv/tools',
};

test('tokens in env and headers become ${input:} references; the values come back separately', () => {
	const { entry, secrets } = extractSecrets('github', claudeEntry);
	assert.deepEqual(entry.env, {
		GITHUB_PERSONAL_ACCESS_TOKEN: '${input:github.env.GITHUB_PERSONAL_ACCESS_TOKEN}',
		NODE_OPTIONS: '--require ./x.js',
		LOG_LEVEL: 'debug',
	});
	assert.deepEqual(
		secrets.map((s) => [s.id, s.field, s.value]),
		[
			[
				'github.env.GITHUB_PERSONAL_ACCESS_TOKEN',
				'env.GITHUB_PERSONAL_ACCESS_TOKEN',
				'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
			],
		],
	);
	assert.ok(!JSON.stringify(entry).includes('ghp_abc'), 'no token left in what goes to settings.json');
	assert.equal(
		claudeEntry.env.GITHUB_PERSONAL_ACCESS_TOKEN.startsWith('ghp_'),
		true,
		'the input entry is not modified',
	);

	const remote = extractSecrets('api', {
		url: 'https://api.example.com/mcp',
		headers: { Authorization: 'Bearer abcdef123456', 'X-Client': 'me' },
	});
	assert.deepEqual(remote.entry.headers, { Authorization: '${input:api.headers.Authorization}', 'X-Client': 'me' });
	assert.equal(remote.secrets[0]!.value, 'Bearer abcdef123456');
});

test('what is a secret: credential names or credential-shaped values, never a variable or an empty value', () => {
	assert.equal(looksSecret('OPENAI_API_KEY', 'x'), true);
	assert.equal(looksSecret('DB_PASSWORD', 'hunter2'), true);
	assert.equal(looksSecret('SOMETHING', 'sk-abcdefghijklmnopqrstu'), true, 'an OpenAI-shaped key under any name');
	assert.equal(looksSecret('GITHUB_TOKEN', '${env:GITHUB_TOKEN}'), false, 'already a reference');
	assert.equal(looksSecret('API_KEY', ''), false);
	assert.equal(looksSecret('NODE_OPTIONS', '--require ./x.js'), false);
	assert.equal(looksSecret('LOG_LEVEL', 'debug'), false);
});

test('the pick shows command line, working folder, every env variable (secrets masked) and headers', () => {
	const lines = describeImport(claudeEntry);
	assert.equal(lines[0], 'Runs: npx -y @modelcontextprotocol/server-github');
	assert.equal(lines[1], 'In: /srv/tools');
	assert.equal(
		lines[2],
		'Environment: GITHUB_PERSONAL_ACCESS_TOKEN=•••• (to secret storage), NODE_OPTIONS="--require ./x.js", LOG_LEVEL="debug"',
	);
	assert.deepEqual(describeImport({ command: 'uvx', args: ['mcp-server-time'] }), [
		'Runs: uvx mcp-server-time',
		'In: (the workspace folder, or your home directory)',
	]);
	assert.deepEqual(
		describeImport({ url: 'https://x.example/mcp', headers: { Authorization: 'Bearer abcdefgh1234' } }),
		['Connects to: https://x.example/mcp', 'Headers: Authorization=•••• (to secret storage)'],
	);
});
