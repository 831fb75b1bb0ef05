// The registry client and the install preparation against a registry of our own on loopback (issue 26 items 1, 2
// and 6): listing across cursors, search, deprecated with its message, deleted hidden, invalid server.json reported,
// several registries, an unreachable or silent registry, and the bad cases of an install (a wrong checksum, a
// missing runtime), each with a clear message and nothing left behind.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { buildEntry } from '../../src/manager/registry/installPlan';
import { BundleError, unpackedBundles } from '../../src/manager/registry/mcpb';
import { MissingRuntimeError, prepareInstall } from '../../src/manager/registry/prepareInstall';
import { findServer, RegistryClient, RegistryError, searchRegistries } from '../../src/manager/registry/registryClient';
import { everythingVersion, NAMES, startRegistry, type RegistryFixture } from '../fixtures/registry/registryServer';

let registry: RegistryFixture;
const scratch = mkdtempSync(join(tmpdir(), 'registry-it-'));

before(async () => {
	registry = await startRegistry({ pageSize: 3 });
});
after(async () => {
	await registry.close();
	rmSync(scratch, { recursive: true, force: true });
});

test('a search follows the cursor across pages; deleted servers are hidden, invalid ones reported apart', async () => {
	const page = await new RegistryClient(registry.url).search(undefined);
	const names = page.servers.map((s) => s.server.name).sort();
	assert.deepEqual(
		names,
		[
			NAMES.everything,
			NAMES.weather,
			NAMES.database,
			NAMES.bundle,
			NAMES.tampered,
			NAMES.remote,
			NAMES.old,
			NAMES.dotnet,
		].sort(),
	);
	assert.ok(!(names as string[]).includes(NAMES.gone));
	assert.deepEqual(
		page.invalid.map((i) => i.name),
		[NAMES.broken],
	);
	assert.match(page.invalid[0]?.problem ?? '', /description/);
	// Pages of 3 (the fixture's cap): several requests, each after the first with a cursor.
	const listings = registry.requests.filter((r) => r.startsWith('GET /v0.1/servers?'));
	assert.ok(listings.length >= 4, listings.join('\n'));
	assert.ok(listings.slice(1).every((r) => r.includes('cursor=')));
	const everything = page.servers.find((s) => s.server.name === NAMES.everything);
	assert.equal(everything?.server.version, everythingVersion(), 'the latest version is listed');
});

test('search narrows by text; a deprecated server is listed with its message', async () => {
	const none = await new RegistryClient(registry.url).search('no such server');
	assert.equal(none.servers.length, 0);
	const old = await new RegistryClient(registry.url).search('old-tool');
	assert.deepEqual(
		old.servers.map((s) => [s.server.name, s.status, s.statusMessage]),
		[[NAMES.old, 'deprecated', 'Use io.github.example/new-tool instead']],
	);
});

test('one version by name: latest or a given one; deleted, invalid and unknown names say so', async () => {
	const client = new RegistryClient(registry.url);
	assert.equal((await client.get(NAMES.everything)).server.version, everythingVersion());
	assert.equal((await client.get(NAMES.everything, '2025.12.18')).server.version, '2025.12.18');
	await assert.rejects(client.get(NAMES.gone), (error: unknown) => {
		assert.ok(error instanceof RegistryError);
		assert.equal(error.kind, 'deleted');
		assert.match(error.message, new RegExp(`was deleted from the MCP registry at ${registry.url}`));
		return true;
	});
	await assert.rejects(
		client.get(NAMES.broken),
		/The server.json of 'io.github.example\/broken' .* is not valid: .*Nothing was installed/,
	);
	await assert.rejects(client.get('io.github.example/nothing'), /has no server 'io.github.example\/nothing'/);
});

test('an unreachable registry gives a message naming its URL; a silent one times out', async () => {
	const closed = createServer();
	closed.listen(0, '127.0.0.1');
	await new Promise((resolve) => closed.once('listening', resolve));
	const port = (closed.address() as AddressInfo).port;
	await new Promise((resolve) => closed.close(resolve));
	const url = `http://127.0.0.1:${port}/v0.1`;
	await assert.rejects(new RegistryClient(url).search('x'), (error: unknown) => {
		assert.ok(error instanceof RegistryError);
		assert.equal(error.kind, 'unreachable');
		assert.match(
			error.message,
			new RegExp(`Cannot reach the MCP registry at http://127\\.0\\.0\\.1:${port}/v0\\.1 \\(.*ECONNREFUSED`),
		);
		return true;
	});

	const silent = createServer(() => undefined);
	silent.listen(0, '127.0.0.1');
	await new Promise((resolve) => silent.once('listening', resolve));
	const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v0.1`;
	try {
		await assert.rejects(new RegistryClient(silentUrl, { timeoutMs: 300 }).get('a/b'), (error: unknown) => {
			assert.ok(error instanceof RegistryError);
			assert.equal(error.kind, 'timeout');
			assert.match(error.message, new RegExp(`The MCP registry at ${silentUrl} did not answer within`));
			return true;
		});
	} finally {
		silent.closeAllConnections();
		silent.close();
	}

	// Several registries: the one that answers is listed, the other is reported.
	const both = await searchRegistries([url, registry.url], 'bundle');
	assert.deepEqual(both.servers.map((s) => s.server.name).sort(), [NAMES.bundle, NAMES.tampered].sort());
	assert.equal(both.failures.length, 1);
	assert.match(both.failures[0]?.message ?? '', new RegExp(url));
	// A name is looked up in the registries in order.
	assert.equal((await findServer([registry.url], NAMES.bundle)).server.name, NAMES.bundle);
});

test('an mcpb bundle is downloaded, checked, unpacked into storage and run from its manifest', async () => {
	const storage = join(scratch, 'good');
	const listing = await new RegistryClient(registry.url).get(NAMES.bundle);
	const plan = await prepareInstall(listing, { storage });
	const built = buildEntry(plan, new Map([['tiny-bundle.greeting', 'Howdy']]));
	const [dir] = await unpackedBundles(storage);
	assert.ok(dir, 'one bundle unpacked');
	const script = join(storage, 'mcpb', dir, 'server', 'index.js');
	assert.deepEqual(built.entry, {
		type: 'stdio',
		command: 'node',
		args: [script],
		env: { GREETING: 'Howdy' },
		registry: { name: NAMES.bundle, version: '1.0.0', url: registry.url },
	});
	assert.match(readFileSync(join(storage, 'mcpb', dir, 'manifest.json'), 'utf8'), /"entry_point": "server\/index.js"/);
});

test('a bundle whose checksum does not match is refused and nothing is unpacked', async () => {
	const storage = join(scratch, 'tampered');
	const listing = await new RegistryClient(registry.url).get(NAMES.tampered);
	await assert.rejects(prepareInstall(listing, { storage }), (error: unknown) => {
		assert.ok(error instanceof BundleError);
		assert.match(
			error.message,
			/The bundle downloaded from http:\/\/127\.0\.0\.1:\d+\/bundles\/tiny\.mcpb has SHA-256 [0-9a-f]{64}, but the registry lists fe333e59\S+: it may have been changed or damaged, so it was not installed\./,
		);
		return true;
	});
	assert.equal(existsSync(join(storage, 'mcpb')), false);
});

test('a package whose runtime is not on PATH says which and how to get it', async () => {
	const listing = await new RegistryClient(registry.url).get(NAMES.weather);
	await assert.rejects(
		prepareInstall(listing, { storage: scratch, env: { PATH: join(scratch, 'empty') } }),
		(error: unknown) => {
			assert.ok(error instanceof MissingRuntimeError);
			assert.equal(error.runtime, 'uvx');
			assert.match(error.message, /runs with uvx, which was not found on PATH: install uv .*Nothing was installed\./);
			return true;
		},
	);
});
