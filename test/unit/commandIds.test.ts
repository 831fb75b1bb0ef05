// The one list of command ids (src/vscode/commandIds.ts) against what package.json contributes: a command added to one
// and not the other would be either invisible in the palette or a palette entry that does nothing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Commands } from '../../src/vscode/commandIds';

interface Manifest {
	contributes: { commands: { command: string }[] };
}

test('commandIds.ts lists exactly the commands package.json contributes', () => {
	const manifest = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as Manifest;
	const contributed = manifest.contributes.commands.map((entry) => entry.command).sort();
	const listed = Object.values(Commands).sort();
	assert.deepEqual(listed, contributed);
	assert.equal(new Set(listed).size, listed.length, 'no id is listed twice');
});
