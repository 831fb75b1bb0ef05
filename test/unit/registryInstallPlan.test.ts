// From a registry's server.json to a server entry (issue 26 item 2), as a table over the seeded documents of the
// test registry (test/fixtures/registry/registryServer.ts), which follow the registry's published schema: what runs,
// which values are asked, and that a secret never ends up written.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildEntry, installOptions, planInstall, serverKey } from '../../src/manager/registry/installPlan';
import { serverJsonProblems, type ServerJson } from '../../src/manager/registry/serverJson';
import { registryUrls, OFFICIAL_REGISTRY } from '../../src/manager/registry/registryClient';
import { findOnPath, missingRuntimeMessage } from '../../src/manager/registry/runtimes';
import { everythingVersion, NAMES, seed } from '../fixtures/registry/registryServer';

const REGISTRY = 'http://127.0.0.1:1/v0.1';
const documents = seed('http://127.0.0.1:1');

function doc(name: string, latest = true): ServerJson {
	const found = documents.find((d) => d.server.name === name && (d.isLatest !== false) === latest);
	const checked = serverJsonProblems(found?.server);
	if (!checked.ok) throw new Error(checked.problem);
	return checked.server;
}

interface Row {
	name: string;
	option?: number;
	answers?: Record<string, string>;
	entry: Record<string, unknown>;
	inputs: { id: string; type: string; password?: boolean }[];
}

const version = everythingVersion();

const rows: Row[] = [
	{
		name: NAMES.everything,
		entry: {
			type: 'stdio',
			command: 'npx',
			args: ['-y', `@modelcontextprotocol/server-everything@${version}`, 'stdio'],
		},
		inputs: [],
	},
	{
		name: NAMES.everything,
		answers: { 'server-everything.env.GZIP_MAX_FETCH_SIZE': '2048' },
		entry: {
			type: 'stdio',
			command: 'npx',
			args: ['-y', `@modelcontextprotocol/server-everything@${version}`, 'stdio'],
			env: { GZIP_MAX_FETCH_SIZE: '2048' },
		},
		inputs: [],
	},
	{
		name: NAMES.weather,
		answers: { 'weather-py.env.WEATHER_API_KEY': 'sk-typed-in-the-form', 'weather-py.arg.verbose': 'true' },
		entry: {
			type: 'stdio',
			command: 'uvx',
			args: ['mcp-weather-example==1.2.0', '--verbose'],
			// The secret is never written, even when it was answered; UNITS unanswered and optional: left out.
			env: { WEATHER_API_KEY: '${input:weather-py.env.WEATHER_API_KEY}' },
		},
		inputs: [{ id: 'weather-py.env.WEATHER_API_KEY', type: 'promptString', password: true }],
	},
	{
		name: NAMES.database,
		answers: { 'database-oci.data_dir': '/srv/data' },
		entry: {
			type: 'stdio',
			command: 'docker',
			args: [
				'run',
				'-i',
				'--rm',
				'--mount',
				'type=bind,src=/srv/data,dst=/data',
				'-e',
				'DB_URL',
				'example/database-mcp:0.3.1',
				'--read-only',
				'true',
			],
			env: { DB_URL: '${input:database-oci.env.DB_URL}' },
		},
		inputs: [{ id: 'database-oci.env.DB_URL', type: 'promptString', password: true }],
	},
	{
		name: NAMES.dotnet,
		entry: { type: 'stdio', command: 'dnx', args: ['Example.Mcp.Tool@0.1.0', '--yes'] },
		inputs: [],
	},
	{
		name: NAMES.remote,
		answers: { 'remote-api.tenant': 'acme', 'remote-api.header.X-Region': 'us' },
		entry: {
			type: 'http',
			url: 'https://acme.api.example.com/mcp',
			headers: { Authorization: 'Bearer ${input:remote-api.token}', 'X-Region': 'us' },
		},
		inputs: [{ id: 'remote-api.token', type: 'promptString', password: true }],
	},
	{
		// Nothing answered: the required tenant is asked when the server starts; the optional region is left out.
		name: NAMES.remote,
		entry: {
			type: 'http',
			url: 'https://${input:remote-api.tenant}.api.example.com/mcp',
			headers: { Authorization: 'Bearer ${input:remote-api.token}' },
		},
		inputs: [
			{ id: 'remote-api.tenant', type: 'promptString' },
			{ id: 'remote-api.token', type: 'promptString', password: true },
		],
	},
	{
		name: NAMES.remote,
		option: 1,
		entry: { type: 'sse', url: 'https://legacy.api.example.com/sse' },
		inputs: [],
	},
];

for (const row of rows) {
	test(`${row.name}${row.option !== undefined ? ` (option ${row.option})` : ''} with ${Object.keys(row.answers ?? {}).length} answers`, () => {
		const server = doc(row.name);
		const plan = planInstall(server, REGISTRY, row.option);
		const built = buildEntry(plan, new Map(Object.entries(row.answers ?? {})));
		assert.deepEqual(built.entry, {
			...row.entry,
			registry: { name: row.name, version: server.version, url: REGISTRY },
		});
		assert.deepEqual(
			built.inputs.map((i) => ({
				id: i.id,
				type: i.type,
				...(i.type === 'promptString' && i.password ? { password: true } : {}),
			})),
			row.inputs,
		);
		for (const [id, value] of Object.entries(row.answers ?? {})) {
			const field = plan.fields.find((f) => f.id === id);
			assert.ok(field, `a field ${id}`);
			if (field.secret) assert.ok(!JSON.stringify(built.entry).includes(value), 'a secret is never written');
		}
	});
}

test('the fields of a plan carry what a form needs: label, required, secret, default, choices, format', () => {
	const plan = planInstall(doc(NAMES.weather), REGISTRY);
	assert.deepEqual(
		plan.fields.map((f) => [f.id, f.label, f.required, f.secret, f.default, f.choices, f.format]),
		[
			[
				'weather-py.env.WEATHER_API_KEY',
				'WEATHER_API_KEY (environment variable)',
				true,
				true,
				undefined,
				undefined,
				undefined,
			],
			[
				'weather-py.env.UNITS',
				'UNITS (environment variable)',
				false,
				false,
				'metric',
				['metric', 'imperial'],
				undefined,
			],
			['weather-py.arg.verbose', '--verbose (argument)', false, false, undefined, undefined, 'boolean'],
		],
	);
	assert.equal(plan.runtime, 'uvx');
});

test('a choice that is not a secret becomes a pickString input when nobody answered it', () => {
	const server = doc(NAMES.remote);
	const plan = planInstall(server, REGISTRY);
	const region = plan.fields.find((f) => f.id === 'remote-api.header.X-Region');
	assert.deepEqual(region?.choices, ['eu', 'us']);
	// Make it required for this check: unanswered it is asked at start, from its choices.
	if (region) region.required = true;
	const built = buildEntry(plan, new Map());
	assert.deepEqual(
		built.inputs.find((i) => i.id === 'remote-api.header.X-Region'),
		{
			type: 'pickString',
			id: 'remote-api.header.X-Region',
			description: 'X-Region (header): Region',
			options: ['eu', 'us'],
			default: 'eu',
		},
	);
});

test('runtimeHint is honoured: an npm package with bunx runs with bunx, without -y', () => {
	const server = doc(NAMES.everything);
	const pkg = server.packages?.[0];
	assert.ok(pkg);
	const plan = planInstall({ ...server, packages: [{ ...pkg, runtimeHint: 'bunx' }] }, REGISTRY);
	assert.equal(plan.command, 'bunx');
	assert.equal(plan.runtime, 'bunx');
	assert.deepEqual(buildEntry(plan, new Map()).entry.args, [
		`@modelcontextprotocol/server-everything@${version}`,
		'stdio',
	]);
});

test('the ways to run a server: packages first, then remotes; unsupported ones say why', () => {
	assert.deepEqual(
		installOptions(doc(NAMES.remote)).map((o) => [o.index, o.kind, o.supported]),
		[
			[0, 'streamable-http', true],
			[1, 'sse', true],
		],
	);
	const odd = installOptions({
		name: 'x/y',
		description: 'd',
		version: '1',
		packages: [
			{ registryType: 'homebrew', identifier: 'y', transport: { type: 'stdio' } },
			{
				registryType: 'npm',
				identifier: 'y',
				transport: { type: 'streamable-http', url: 'http://localhost:{port}/mcp' },
			},
			{ registryType: 'mcpb', identifier: 'https://example.com/y.mcpb', transport: { type: 'stdio' } },
		],
	});
	assert.deepEqual(
		odd.map((o) => o.supported),
		[false, false, false],
	);
	assert.match(odd[0]?.reason ?? '', /'homebrew' are not supported/);
	assert.match(odd[2]?.reason ?? '', /no fileSha256/);
	assert.throws(
		() => planInstall({ name: 'x/y', description: 'd', version: '1', packages: [] }, REGISTRY),
		/'x\/y' has no package or remote this can run \(its server.json lists none\)/,
	);
});

test('an mcpb package plans a download with its checksum before anything runs', () => {
	const plan = planInstall(doc(NAMES.bundle), REGISTRY);
	assert.equal(plan.kind, 'mcpb');
	assert.equal(plan.bundle?.url, 'http://127.0.0.1:1/bundles/tiny.mcpb');
	assert.match(plan.bundle?.sha256 ?? '', /^[0-9a-f]{64}$/);
});

test('an invalid server.json is refused with the paths that are wrong', () => {
	const broken = documents.find((d) => d.server.name === NAMES.broken)?.server;
	const checked = serverJsonProblems(broken);
	assert.equal(checked.ok, false);
	assert.match(checked.ok ? '' : checked.problem, /description: .*; version: .*; packages\.0\.identifier: /);
});

test('registry URLs: a string or an array; the official registry when unset', () => {
	assert.deepEqual(registryUrls(undefined), [OFFICIAL_REGISTRY]);
	assert.deepEqual(registryUrls(''), [OFFICIAL_REGISTRY]);
	assert.deepEqual(registryUrls('https://r.example.com/v0.1/'), ['https://r.example.com/v0.1']);
	assert.deepEqual(registryUrls(['https://a/v0.1', 'https://b/v0.1', 'https://a/v0.1', 3]), [
		'https://a/v0.1',
		'https://b/v0.1',
	]);
	assert.equal(OFFICIAL_REGISTRY, 'https://registry.modelcontextprotocol.io/v0.1');
});

test('a missing runtime is named with how to get it', () => {
	assert.equal(findOnPath('uvx', { PATH: '/nonexistent' }), undefined);
	assert.ok(findOnPath('node', process.env));
	assert.match(
		missingRuntimeMessage('io.github.example/weather-py', 'uvx'),
		/runs with uvx, which was not found on PATH: install uv \(https:\/\/docs\.astral\.sh/,
	);
	assert.match(missingRuntimeMessage('x', 'docker'), /install Docker/);
	assert.equal(serverKey('io.github.modelcontextprotocol/server-everything'), 'server-everything');
});
