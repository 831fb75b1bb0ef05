// The one list of configuration sources and its precedence (src/manager/configSources.ts), read from a fixture
// folder the way the command line reads it: every source, the first wins by name, a server defined twice under two
// names runs once, and the servers VS Code runs itself are marked. The e2e suite world.e2e.ts compares the
// extension's list with this one for its workspace.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { readWorkspaceServers } from '../../src/cli/workspaceConfig';
import {
	combineLayers,
	defaultVsCodeUserDir,
	describeSources,
	launchIdentity,
	mcpJsonLayer,
	readFolderFiles,
	settingsLayer,
	type LastValidLayers,
} from '../../src/manager/configSources';

const fixture = path.join(process.cwd(), 'test', 'fixtures', 'configSources');
const folder = path.join(fixture, 'folder');
const userDir = path.join(fixture, 'user');

test('the command line reads every source in the shared precedence', async () => {
	const read = await readWorkspaceServers(folder, userDir);
	const rows = read.entries.map((entry) => ({
		name: entry.name,
		from: entry.source.label,
		workspaceDefined: entry.workspaceDefined,
		vscodeRuns: entry.source.vscodeRuns === true,
	}));
	assert.deepEqual(rows, [
		{ name: 'shared', from: '.vscode/settings.json', workspaceDefined: true, vscodeRuns: false },
		{ name: 'remote', from: 'User settings', workspaceDefined: false, vscodeRuns: true },
		{ name: 'tools', from: '.vscode/mcp.json', workspaceDefined: true, vscodeRuns: true },
		{ name: 'project-only', from: '.mcp.json', workspaceDefined: true, vscodeRuns: false },
		{ name: 'gallery', from: 'User mcp.json', workspaceDefined: false, vscodeRuns: true },
	]);
	const shared = read.entries.find((entry) => entry.name === 'shared');
	assert.deepEqual(shared?.config.type === 'stdio' && shared.config.args, ['settings.js'], 'settings win by name');
	assert.ok(
		read.problems.some((p) => p.includes("'shared' in .vscode/mcp.json is overridden")),
		read.problems.join('\n'),
	);
	assert.equal(read.files.length, 5, read.files.join(', '));
});

test('the same launch under two names runs once; the first source keeps its name and the tooltip names both', async () => {
	const read = await readWorkspaceServers(folder, userDir);
	const tools = read.entries.find((entry) => entry.name === 'tools');
	assert.deepEqual(
		tools?.source.alsoIn?.map((other) => [other.label, other.name]),
		[['.mcp.json', 'claude-tools']],
	);
	assert.equal(describeSources(tools.source), ".vscode/mcp.json; also .mcp.json (as 'claude-tools')");
	// A URL with and without its trailing slash is the same server.
	const remote = read.entries.find((entry) => entry.name === 'remote');
	assert.deepEqual(
		remote?.source.alsoIn?.map((other) => other.name),
		['remote-again'],
	);
	assert.ok(read.problems.some((p) => p.includes("'claude-tools'") && p.includes("runs once, as 'tools'")));
});

test('precedence does not depend on the order the layers were read in', () => {
	const home = '/home/u';
	const user = mcpJsonLayer('userMcpJson', '{"servers":{"a":{"command":"x"}}}', { label: 'User mcp.json', path: '/u' });
	const ws = settingsLayer('workspaceSettings', { a: { command: 'y' } }, { kind: 'workspace', label: 'ws' }, '/w');
	const combined = combineLayers([user.layer, ws.layer], { home });
	assert.equal(combined.servers.length, 1);
	assert.equal(combined.servers[0]?.source.label, 'ws');
	assert.equal(combined.servers[0]?.source.vscodeRuns, undefined);
	assert.equal(user.layer.entries[0]?.workspaceDefined, false, 'the user mcp.json is user-defined');
});

test("the project .mcp.json counts as VS Code's own only when VS Code reads it", () => {
	const project = mcpJsonLayer(
		'projectMcpJson',
		'{"mcpServers":{"p":{"command":"x"}}}',
		{ label: '.mcp.json', path: '/w/.mcp.json' },
		'/w',
	);
	assert.equal(combineLayers([project.layer], { home: '/h' }).servers[0]?.source.vscodeRuns, undefined);
	assert.equal(
		combineLayers([project.layer], { home: '/h', vscodeReadsProjectMcpJson: true }).servers[0]?.source.vscodeRuns,
		true,
	);
});

test('launch identities: variables that need no question are expanded; inputs and env are not compared', () => {
	const entry = (config: Record<string, unknown>) =>
		settingsLayer('userSettings', { s: config }, { kind: 'user', label: 'u' }).layer.entries[0]!;
	const a = launchIdentity(entry({ command: 'node', args: ['${workspaceFolder}/s.js'] }), '/w', '/h');
	const b = launchIdentity(entry({ command: 'node', args: ['/w/s.js'], cwd: '/w' }), '/w', '/h');
	assert.equal(a, b);
	assert.notEqual(a, launchIdentity(entry({ command: 'node', args: ['/w/s.js'], cwd: '/elsewhere' }), '/w', '/h'));
	assert.equal(launchIdentity(entry({ command: 'node', args: ['${input:x}'] }), '/w', '/h'), undefined);
	assert.equal(launchIdentity(entry({ url: 'http://h/${env:P}' }), '/w', '/h'), undefined);
	assert.equal(launchIdentity(entry({ command: 'node', disabled: true }), '/w', '/h'), undefined);
});

test("the command line finds VS Code's default user folder, or the one it is told", () => {
	assert.equal(defaultVsCodeUserDir({ MCP_SWITCHBOARD_VSCODE_USER_DIR: '/x' }, 'linux', '/h'), '/x');
	assert.equal(defaultVsCodeUserDir({ MCP_SWITCHBOARD_VSCODE_USER_DIR: '' }, 'linux', '/h'), undefined);
	assert.equal(defaultVsCodeUserDir({}, 'linux', '/h'), path.join('/h', '.config', 'Code', 'User'));
	assert.equal(defaultVsCodeUserDir({ XDG_CONFIG_HOME: '/c' }, 'linux', '/h'), path.join('/c', 'Code', 'User'));
	assert.equal(
		defaultVsCodeUserDir({}, 'darwin', '/h'),
		path.join('/h', 'Library', 'Application Support', 'Code', 'User'),
	);
});

test('two names for the same launch in one file both run (deliberate); only another source folds', () => {
	const layer = settingsLayer(
		'userSettings',
		{ a: { command: 'x' }, b: { command: 'x' } },
		{ kind: 'user', label: 'u' },
	);
	assert.deepEqual(
		combineLayers([layer.layer], { home: '/h' }).servers.map((s) => s.name),
		['a', 'b'],
	);
});

test("the same name and launch in settings and a .vscode/mcp.json is one server, marked as VS Code's too", () => {
	const settings = settingsLayer(
		'workspaceSettings',
		{ e: { command: 'x' } },
		{ kind: 'workspace', label: 'ws' },
		'/w',
	);
	const file = mcpJsonLayer(
		'workspaceMcpJson',
		'{"servers":{"e":{"command":"x"}}}',
		{ label: 'mcp', path: '/m' },
		'/w',
	);
	const [server, ...rest] = combineLayers([file.layer, settings.layer], { home: '/h' }).servers;
	assert.equal(rest.length, 0);
	assert.equal(server?.source.label, 'ws');
	assert.equal(server?.source.vscodeRuns, true);
	assert.equal(server?.source.vscodeName, 'e');
	assert.deepEqual(
		server?.source.alsoIn?.map((o) => o.label),
		['mcp'],
	);
	const other = combineLayers(
		[
			file.layer,
			settingsLayer('workspaceSettings', { e: { command: 'y' } }, { kind: 'workspace', label: 'ws' }, '/w').layer,
		],
		{ home: '/h' },
	);
	assert.equal(other.servers[0]?.source.vscodeRuns, undefined, "another launch under that name is not VS Code's");
});

test('an mcp.json read half-written or saved with a typo keeps its last valid servers, and says so', async () => {
	const lastValid: LastValidLayers = new Map();
	const files = new Map<string, string>([['/w/.mcp.json', '{"mcpServers":{"p":{"command":"x"}}}']]);
	const read = async (file: string) => files.get(file);
	const first = await readFolderFiles('/w', read, 'w', lastValid);
	assert.deepEqual(
		first.layers.flatMap((l) => l.entries.map((e) => e.name)),
		['p'],
	);
	for (const broken of ['', '{"mcpServers":{"p":{"comm', '[1, 2]']) {
		files.set('/w/.mcp.json', broken);
		const again = await readFolderFiles('/w', read, 'w', lastValid);
		assert.deepEqual(
			again.layers.flatMap((l) => l.entries.map((e) => e.name)),
			['p'],
			`after ${JSON.stringify(broken)}`,
		);
		assert.ok(
			again.problems.some(
				(p) => p === 'w/.mcp.json: its servers as last read stay as they are until the file is valid again',
			),
			again.problems.join('\n'),
		);
	}
	// Without the cache (the command line reads once), a broken file has no servers; a deleted file forgets its last.
	assert.deepEqual((await readFolderFiles('/w', read, 'w')).layers[0]?.entries, []);
	files.delete('/w/.mcp.json');
	assert.equal((await readFolderFiles('/w', read, 'w', lastValid)).layers.length, 0);
	files.set('/w/.mcp.json', '{');
	assert.deepEqual((await readFolderFiles('/w', read, 'w', lastValid)).layers[0]?.entries, []);
});
