// Trust before resolution (issue 11 item 1, issue 12 items 1 and 5): a workspace-defined server is asked about with
// its configuration as written, nothing of it is resolved before it is allowed, and nothing asks by itself.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Manager } from '../../src/manager/manager';
import { serverHash } from '../../src/manager/serverIdentity';
import { describeAsWritten } from '../../src/manager/trustText';
import type { ResolvedServer, ServerConfig } from '../../src/manager/types';
import { FakeClock, FakeConnector, testHost } from './managerFakes';

const remoteAsWritten: ServerConfig = {
	type: 'http',
	url: 'https://api.example.com/mcp?team=${input:team}',
	headers: { Authorization: 'Bearer ${env:GITHUB_TOKEN}', 'X-Client': 'switchboard' },
};

function workspaceServer(
	name: string,
	config: ServerConfig,
	resolve: () => Promise<ServerConfig>,
	envFile?: string,
): ResolvedServer {
	return {
		name,
		config,
		source: { kind: 'mcpJson', label: 'repo/.vscode/mcp.json' },
		workspaceDefined: true,
		trustText: describeAsWritten(config, envFile),
		resolve,
	};
}

function setup(confirm: (server: string, description: string, options: { ask: boolean }) => Promise<boolean>) {
	const connector = new FakeConnector();
	const host = testHost({ confirmTrust: confirm });
	const manager = new Manager(host, { connect: connector.connect, clock: new FakeClock() });
	return { connector, manager };
}

test('the trust text shows header templates, env values, cwd and envFile as written', () => {
	const remote = describeAsWritten(remoteAsWritten);
	assert.match(remote, /URL \(Streamable HTTP\): https:\/\/api\.example\.com\/mcp\?team=\$\{input:team\}/);
	assert.match(remote, /Header Authorization: "Bearer \$\{env:GITHUB_TOKEN\}"/);
	assert.match(remote, /Header X-Client: switchboard/);
	const local = describeAsWritten(
		{
			type: 'stdio',
			command: 'node',
			args: ['srv.js', '--token', '${input:tok}'],
			env: { NODE_OPTIONS: '--require ./x.js' },
			cwd: '${workspaceFolder}/tools',
		},
		'.env.local',
	);
	assert.match(local, /Command: node srv\.js --token \$\{input:tok\}/);
	assert.match(local, /Environment: NODE_OPTIONS="--require \.\/x\.js"/);
	assert.match(local, /Working folder: \$\{workspaceFolder\}\/tools/);
	assert.match(local, /Environment file: \.env\.local/);
});

test('changing only a header template changes what trust is keyed on and restarts the server', () => {
	const a = describeAsWritten(remoteAsWritten);
	const b = describeAsWritten({
		...remoteAsWritten,
		headers: { Authorization: 'Bearer ${env:AWS_SECRET_ACCESS_KEY}', 'X-Client': 'switchboard' },
	});
	assert.notEqual(a, b, 'another header value template is another trust decision');
	const env1 = describeAsWritten({ type: 'stdio', command: 'node', env: { A: '1' } });
	const env2 = describeAsWritten({ type: 'stdio', command: 'node', env: { A: '2' } });
	assert.notEqual(env1, env2, 'another env value is another trust decision');
	const noFile = workspaceServer('s', { type: 'stdio', command: 'node' }, async () => ({
		type: 'stdio',
		command: 'node',
	}));
	const withFile = workspaceServer(
		's',
		{ type: 'stdio', command: 'node' },
		async () => ({ type: 'stdio', command: 'node' }),
		'.env',
	);
	assert.notEqual(serverHash(noFile), serverHash(withFile), 'adding an envFile restarts (and so re-checks trust)');
});

test('start-up asks nothing and resolves nothing; an explicit Start asks with the unresolved text, then resolves', async () => {
	const asked: { description: string; ask: boolean }[] = [];
	let allow = false;
	let resolved = 0;
	const { manager, connector } = setup(async (_server, description, options) => {
		asked.push({ description, ask: options.ask });
		return options.ask && allow;
	});
	const server = workspaceServer('gh', remoteAsWritten, async () => {
		resolved++;
		return { type: 'http', url: 'https://api.example.com/mcp?team=core', headers: { Authorization: 'Bearer s3cret' } };
	});
	await manager.reconcile([server]);
	assert.equal(manager.get('gh')!.state.kind, 'needsTrust');
	assert.deepEqual(
		asked.map((a) => a.ask),
		[false],
		'the automatic start only looks for a remembered decision',
	);
	assert.equal(resolved, 0, 'nothing is resolved before the user allowed the server');
	assert.equal(connector.count('gh'), 0);
	assert.match((manager.get('gh')!.state as { reason: string }).reason, /needs your permission to run: Start it/);
	const shownConfig = manager.get('gh')!.config;
	assert.equal(
		shownConfig.type === 'http' ? shownConfig.url : undefined,
		'https://api.example.com/mcp?team=${input:team}',
		'the view shows the URL as written',
	);

	// A settings change that leaves the server as it was asks nothing either.
	await manager.reconcile([server]);
	assert.ok(asked.every((a) => !a.ask));

	// The user clicks Start and refuses: still nothing resolved.
	await manager.start('gh');
	assert.equal(asked.at(-1)!.ask, true);
	assert.match(asked.at(-1)!.description, /Header Authorization: "Bearer \$\{env:GITHUB_TOKEN\}"/);
	assert.equal(resolved, 0);
	assert.equal(manager.get('gh')!.state.kind, 'needsTrust');

	// Start again and allow: resolved once, connected with the resolved values.
	allow = true;
	await manager.start('gh');
	assert.equal(resolved, 1);
	assert.equal(manager.get('gh')!.state.kind, 'running');
	const used = connector.attempts.at(-1)!.config;
	assert.ok(
		used.type === 'http' && used.headers?.Authorization === 'Bearer s3cret',
		'the connection uses the resolved config',
	);
	await manager.dispose();
});

test('a resolution that fails (input cancelled) is an error naming the server, not a crash loop', async () => {
	const { manager, connector } = setup(async () => true);
	let calls = 0;
	const server = workspaceServer('ws', { type: 'stdio', command: 'node', args: ['${input:key}'] }, async () => {
		calls++;
		throw new Error(
			`Server 'ws': field "args[0]": no value for \${input:key} (not defined in "inputs", or the question was cancelled)`,
		);
	});
	await manager.reconcile([server]);
	const state = manager.get('ws')!.state;
	assert.equal(state.kind, 'error');
	assert.ok(
		state.kind === 'error' && state.retryAt === undefined && /Server 'ws'.*input:key/.test(state.message),
		JSON.stringify(state),
	);
	assert.equal(calls, 1);
	assert.equal(connector.count('ws'), 0);
	await manager.dispose();
});

test('only a user Start or Restart connects interactively (the host may show a sign-in only then)', async () => {
	const { manager, connector } = setup(async () => true);
	const user: ResolvedServer = {
		name: 'remote',
		config: { type: 'http', url: 'https://example.com/mcp' },
		source: { kind: 'user', label: 'User settings' },
		workspaceDefined: false,
	};
	await manager.reconcile([user]);
	assert.deepEqual(
		connector.attempts.map((a) => a.interactive),
		[false],
		'start-up / settings change',
	);
	await manager.restart('remote');
	await manager.stop('remote');
	await manager.start('remote');
	assert.deepEqual(
		connector.attempts.map((a) => a.interactive),
		[false, true, true],
	);
	await manager.dispose();
});
