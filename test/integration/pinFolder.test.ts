// Pins kept as files in the extension's global storage instead of global state (VS Code held 1.75 MB of pins in
// memory and warned "large extension state detected" after the 5,000-tool e2e): real files in a temporary folder,
// read back by a second store as the next window would, and pins that an earlier version kept in global state moved
// over once.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync, mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { FolderPinStore, type LegacyPins } from '../../src/manager/pinning/folderPinStore';
import { pinAll, type PinRecord } from '../../src/manager/pinning/pins';
import type { Tool } from '../../src/protocol/schema';

const scratch = mkdtempSync(join(tmpdir(), 'pin-folder-it-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function manyTools(count: number): Tool[] {
	return Array.from({ length: count }, (_, i) => ({
		name: `tool_${i}`,
		description: `Tool number ${i}, which does one thing well.`,
		inputSchema: { type: 'object', properties: { value: { type: 'string', description: 'What to act on.' } } },
	}));
}

function record(tools: Tool[]): PinRecord {
	return pinAll({ tools, prompts: [], templates: [] });
}

test('5,000 pinned tools go to one file per server and a second store reads them back whole', async () => {
	const folder = join(scratch, 'many');
	const first = new FolderPinStore(folder);
	const pins = record(manyTools(5000));
	first.set('server-a', pins);
	first.set('server-b', record(manyTools(3)));
	// Read before the write ends: the pending value, not nothing.
	assert.equal(Object.keys(first.get('server-a')?.tool ?? {}).length, 5000);
	await first.flush();
	assert.deepEqual(readdirSync(folder).sort(), ['server-a.json', 'server-b.json']);
	const second = new FolderPinStore(folder);
	assert.deepEqual(second.get('server-a'), pins);
	assert.equal(Object.keys(second.get('server-b')?.tool ?? {}).length, 3);
	assert.equal(second.get('server-c'), undefined);
});

test('pins an earlier version kept in global state move to the folder once and leave global state', async () => {
	const folder = join(scratch, 'legacy');
	const old = new Map<string, PinRecord>([['server-a', record(manyTools(2))]]);
	const legacy: LegacyPins = {
		take(identity) {
			const value = old.get(identity);
			old.delete(identity);
			return value;
		},
	};
	const expected = old.get('server-a');
	const store = new FolderPinStore(folder, legacy);
	assert.deepEqual(store.get('server-a'), expected);
	assert.equal(old.size, 0, 'the global state key is taken');
	await store.flush();
	assert.deepEqual(new FolderPinStore(folder).get('server-a'), expected, 'the next window reads the file');
	assert.equal(store.get('server-z'), undefined);
});

test('a malformed or foreign pin file is said and read as no pins; the next set replaces it', async () => {
	const folder = join(scratch, 'broken');
	mkdirSync(folder, { recursive: true });
	writeFileSync(join(folder, 'server-a.json'), '{"format": 1, "pins": {"tool": ');
	writeFileSync(join(folder, 'server-b.json'), JSON.stringify({ format: 99, pins: record(manyTools(1)) }));
	writeFileSync(join(folder, 'server-c.json'), JSON.stringify({ format: 1, pins: { tool: 'no' } }));
	const errors: string[] = [];
	const store = new FolderPinStore(folder, undefined, (message) => errors.push(message));
	assert.equal(store.get('server-a'), undefined);
	assert.equal(store.get('server-b'), undefined);
	assert.equal(store.get('server-c'), undefined);
	assert.equal(errors.length, 1);
	assert.match(errors[0] ?? '', /pins server-a\.json is unreadable/);
	const pins = record(manyTools(1));
	store.set('server-a', pins);
	await store.flush();
	assert.deepEqual(JSON.parse(readFileSync(join(folder, 'server-a.json'), 'utf8')), { format: 1, pins });
});

test('a burst of sets for one server leaves the newest on disk', async () => {
	const folder = join(scratch, 'burst');
	const store = new FolderPinStore(folder);
	for (let count = 1; count <= 40; count++) store.set('server-a', record(manyTools(count)));
	await store.flush();
	assert.equal(Object.keys(new FolderPinStore(folder).get('server-a')?.tool ?? {}).length, 40);
	assert.deepEqual(readdirSync(folder), ['server-a.json'], 'no temporary file is left');
});

test('a pin file is read once per store, however often its pins are asked for', async () => {
	const folder = join(scratch, 'once');
	const first = new FolderPinStore(folder);
	first.set('server-a', record(manyTools(3)));
	await first.flush();
	const second = new FolderPinStore(folder);
	assert.equal(Object.keys(second.get('server-a')?.tool ?? {}).length, 3);
	// The file changes behind the store's back: the store keeps what it read (DefinitionPins asks per definition).
	writeFileSync(join(folder, 'server-a.json'), '{"format": 1, "pins": {"tool": ');
	for (let i = 0; i < 5000; i++) assert.equal(Object.keys(second.get('server-a')?.tool ?? {}).length, 3);
	assert.equal(second.get('server-b'), undefined);
	writeFileSync(join(folder, 'server-b.json'), JSON.stringify({ format: 1, pins: record(manyTools(1)) }));
	assert.equal(second.get('server-b'), undefined, 'a server found without pins stays so until set');
});
