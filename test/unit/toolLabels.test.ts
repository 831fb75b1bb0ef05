import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NamedTool } from '../../src/manager/manager';
import { consentArguments, toolPickRow, toolTitle } from '../../src/vscode/tools/toolLabels';

function named(tool: Partial<NamedTool['tool']> & { name: string }): NamedTool {
	return {
		server: 'everything',
		qualifiedName: `mcp__everything__${tool.name}`,
		tool: { inputSchema: { type: 'object' }, ...tool },
	};
}

test('a tool reads as in the tree: its name as the label, its title and server beside it', () => {
	const echo = named({ name: 'echo', title: 'Echo Tool', description: 'Echoes back the input string\nsecond line' });
	assert.deepEqual(toolPickRow(echo, true), {
		label: 'echo',
		description: 'Echo Tool · everything',
		detail: 'Echoes back the input string',
	});
	// In a pick of one server's tools the server goes without saying.
	assert.deepEqual(toolPickRow(echo, false), {
		label: 'echo',
		description: 'Echo Tool',
		detail: 'Echoes back the input string',
	});
});

test("a tool's title comes from title, else annotations.title, and is left out when it only repeats the name", () => {
	assert.equal(toolTitle(named({ name: 'add', annotations: { title: 'Add Numbers' } }).tool), 'Add Numbers');
	assert.equal(toolTitle(named({ name: 'add', title: 'Add', annotations: { title: 'Other' } }).tool), 'Add');
	assert.equal(toolTitle(named({ name: 'add', title: 'add' }).tool), undefined);
	assert.deepEqual(toolPickRow(named({ name: 'add', title: 'add' }), false), {
		label: 'add',
		description: undefined,
		detail: undefined,
	});
	assert.deepEqual(toolPickRow(named({ name: 'add' }), true), {
		label: 'add',
		description: 'everything',
		detail: undefined,
	});
});

test('the confirmation before a run shows every argument whole, however long', () => {
	const content = 'line of the new file '.repeat(100);
	const text = consentArguments({ path: '/tmp/notes.md', content, overwrite: true });
	assert.equal(text, `Arguments: ${JSON.stringify({ path: '/tmp/notes.md', content, overwrite: true })}`);
	assert.ok(text.includes(content) && text.endsWith('"overwrite":true}'), 'nothing is cut');
	assert.equal(consentArguments({}), 'No arguments');
});
