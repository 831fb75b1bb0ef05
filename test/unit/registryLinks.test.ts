// Install links and the install form (issue 26 items 3 and 4), without VS Code: what a link asks for, what is
// refused, the form the engine builds from a plan, and the answers Update reads back from an installed entry.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toolForm } from '../../src/manager/forms/forms';
import { answersAsText, answersFromEntry, installSchema } from '../../src/manager/registry/installForm';
import {
	requestFromConfig,
	requestFromQuery,
	requestFromVsCodeLink,
	secureLinkedEntry,
} from '../../src/manager/registry/installLink';
import { buildEntry, planInstall } from '../../src/manager/registry/installPlan';
import { serverJsonProblems, type ServerJson } from '../../src/manager/registry/serverJson';
import { addMcpJsonInputs, changeMcpJson, mergeInputs } from '../../src/manager/serverEntries';
import { NAMES, seed } from '../fixtures/registry/registryServer';

const documents = seed('http://127.0.0.1:1');
function doc(name: string): ServerJson {
	const checked = serverJsonProblems(documents.find((d) => d.server.name === name && d.isLatest !== false)?.server);
	if (!checked.ok) throw new Error(checked.problem);
	return checked.server;
}

test('an install link names a registry server, or carries a server.json or an entry', () => {
	assert.deepEqual(requestFromQuery('name=io.github.x%2Fy&version=1.0.0'), {
		kind: 'registry',
		name: 'io.github.x/y',
		version: '1.0.0',
	});
	const entry = requestFromQuery(
		`config=${encodeURIComponent(JSON.stringify({ name: 'files', command: 'npx', args: ['-y', 'x'] }))}`,
	);
	assert.deepEqual(entry, { kind: 'entry', name: 'files', entry: { command: 'npx', args: ['-y', 'x'] } });
	const serverJson = requestFromQuery(`config=${encodeURIComponent(JSON.stringify(doc(NAMES.bundle)))}`);
	assert.equal(serverJson.kind, 'serverJson');
	assert.throws(() => requestFromQuery(''), /names no server/);
	assert.throws(() => requestFromQuery('config={'), /not valid JSON/);
	assert.throws(
		() => requestFromQuery(`config=${encodeURIComponent(JSON.stringify({ name: 'x', command: 'sh', cwd: '/' }))}`),
		/has a field this does not install: "cwd"/,
	);
	assert.throws(
		() => requestFromQuery(`config=${encodeURIComponent(JSON.stringify({ name: 'x', packages: [{}] }))}`),
		/server.json is not valid/,
	);
});

test("VS Code's vscode:mcp/install?{json} link, pasted (encoded or not)", () => {
	const json = { name: 'everything', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] };
	const expected = {
		kind: 'entry',
		name: 'everything',
		entry: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] },
	};
	assert.deepEqual(requestFromVsCodeLink(`vscode:mcp/install?${encodeURIComponent(JSON.stringify(json))}`), expected);
	assert.deepEqual(requestFromVsCodeLink(`  vscode-insiders:mcp/install?${JSON.stringify(json)} `), expected);
	assert.equal(requestFromVsCodeLink('npx -y something'), undefined);
	assert.throws(() => requestFromVsCodeLink('vscode:mcp/install?{"name":"x"}'), /neither "command" nor "url"/);
});

test('the install form: one field per value, secrets masked, choices and defaults, required first', () => {
	const plan = planInstall(doc(NAMES.remote), 'http://r/v0.1');
	const form = toolForm(installSchema(plan));
	assert.deepEqual(
		form.fields.map((f) => [f.name, f.label, f.kind, f.required, f.secret, f.default]),
		[
			['remote-api.tenant', 'tenant (in URL)', 'string', true, false, undefined],
			['remote-api.token', 'token (in Authorization (header))', 'string', true, true, undefined],
			['remote-api.header.X-Region', 'X-Region (header)', 'enum', false, false, 'eu'],
		],
	);
	const weather = toolForm(installSchema(planInstall(doc(NAMES.weather), 'http://r/v0.1')));
	assert.equal(weather.fields.find((f) => f.name === 'weather-py.arg.verbose')?.kind, 'boolean');
	assert.deepEqual(
		[...answersAsText({ a: 'x', b: true, c: 3, d: undefined })],
		[
			['a', 'x'],
			['b', 'true'],
			['c', '3'],
		],
	);
});

test('Update reads the answers back from the installed entry; a secret stays an input', () => {
	const plan = planInstall(doc(NAMES.remote), 'http://r/v0.1');
	const built = buildEntry(
		plan,
		new Map([
			['remote-api.tenant', 'acme'],
			['remote-api.header.X-Region', 'us'],
			['remote-api.token', 'secret'],
		]),
	);
	assert.deepEqual(
		[...answersFromEntry(plan, built.entry)],
		[
			['remote-api.header.X-Region', 'us'],
			['remote-api.tenant', 'acme'],
		],
	);
});

test("an install's inputs go into mcp.json beside its entry: comments kept, an input of the same id replaced", () => {
	const text =
		'{\n\t// mine\n\t"servers": {},\n\t"inputs": [{ "type": "promptString", "id": "other" }, { "type": "promptString", "id": "x.token" }]\n}\n';
	const next = addMcpJsonInputs(changeMcpJson(text, { kind: 'write', entries: { x: { url: 'https://x/mcp' } } }), [
		{ type: 'promptString', id: 'x.token', password: true },
		{ type: 'promptString', id: 'x.tenant' },
	]);
	assert.match(next, /\/\/ mine/);
	const parsed = JSON.parse(next.replace('// mine\n', '')) as { servers: unknown; inputs: unknown };
	assert.deepEqual(parsed.servers, { x: { url: 'https://x/mcp' } });
	assert.deepEqual(parsed.inputs, [
		{ type: 'promptString', id: 'other' },
		{ type: 'promptString', id: 'x.token', password: true },
		{ type: 'promptString', id: 'x.tenant' },
	]);
	assert.deepEqual(
		mergeInputs(
			[
				{ id: 'a', v: 1 },
				{ id: 'b', v: 1 },
			],
			[{ id: 'b', v: 2 }],
		),
		[
			{ id: 'a', v: 1 },
			{ id: 'b', v: 2 },
		],
	);
});

test("a linked entry's secrets go to password inputs; other values stay as the link wrote them", () => {
	const payload = {
		name: 'github',
		type: 'http',
		url: 'https://api.example.com/mcp',
		headers: { Authorization: 'Bearer ghp_abcdefghijklmnopqrstuvwxyz123456', 'X-Region': 'eu' },
		env: { LOG_LEVEL: 'debug', OTHER: '${input:region}' },
		inputs: [{ type: 'pickString', id: 'region', description: 'Region', options: ['eu', 'us'] }],
	};
	const request = requestFromVsCodeLink(`vscode:mcp/install?${encodeURIComponent(JSON.stringify(payload))}`);
	assert.equal(request?.kind, 'entry');
	if (request?.kind !== 'entry') return;
	assert.deepEqual(request.inputs, payload.inputs);
	const secured = secureLinkedEntry(request.name, request.entry, request.inputs);
	assert.deepEqual(secured.entry, {
		type: 'http',
		url: 'https://api.example.com/mcp',
		headers: { Authorization: '${input:github.headers.Authorization}', 'X-Region': 'eu' },
		env: { LOG_LEVEL: 'debug', OTHER: '${input:region}' },
	});
	assert.deepEqual(secured.secrets, [
		{ id: 'github.headers.Authorization', value: 'Bearer ghp_abcdefghijklmnopqrstuvwxyz123456' },
	]);
	assert.deepEqual(
		secured.inputs.map((i) => [i.id, i.type, i.password]),
		[
			['region', 'pickString', undefined],
			['github.headers.Authorization', 'promptString', true],
		],
	);
	assert.ok(!JSON.stringify(secured.entry).includes('ghp_'), 'no token left in the entry');
	// An entry with nothing secret is written as the link gave it.
	const plain = requestFromQuery(
		`config=${encodeURIComponent(JSON.stringify({ name: 'files', command: 'npx', env: { ROOT: '/tmp' } }))}`,
	);
	assert.equal(plain.kind, 'entry');
	if (plain.kind !== 'entry') return;
	assert.deepEqual(secureLinkedEntry(plain.name, plain.entry), {
		entry: { command: 'npx', env: { ROOT: '/tmp' } },
		inputs: [],
		secrets: [],
	});
	assert.throws(
		() => requestFromConfig({ name: 'x', command: 'sh', inputs: [{ type: 'command', id: 'c', command: 'rm' }] }),
		/not a promptString or pickString/,
	);
});
