// The model's context as a budget (src/manager/context/): token estimates, results capped with the whole kept and
// paged, tool search over the BM25 ranking, and the ledger.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NamedTool } from '../../src/manager/types';
import { definitionTokens, estimateTokens, IMAGE_TOKENS, resultTokens } from '../../src/manager/context/tokens';
import {
	cappedNote,
	headOf,
	readResultAnswer,
	resultLimitFor,
	ResultStore,
} from '../../src/manager/context/resultStore';
import { searchAnswer, searchTools, useToolSearch } from '../../src/manager/context/toolSearch';
import { ContextLedger, ledgerTable } from '../../src/manager/context/ledger';
import { expandQuery } from '../../src/manager/context/queryTerms';

function named(server: string, name: string, description: string): NamedTool {
	return {
		server,
		qualifiedName: `mcp__${server}__${name}`,
		tool: { name, description, inputSchema: { type: 'object', properties: { x: { type: 'string' } } } },
	};
}

test('estimates: text at 4 characters a token, images at a fixed cost, structured content and blobs counted', () => {
	assert.equal(estimateTokens('x'.repeat(4000)), 1000);
	assert.equal(
		resultTokens({
			content: [
				{ type: 'text', text: 'x'.repeat(400) },
				{ type: 'image', data: 'AAAA', mimeType: 'image/png' },
				{ type: 'resource', resource: { uri: 'a:b', blob: 'A'.repeat(800), mimeType: 'application/zip' } },
			],
			structuredContent: { list: 'y'.repeat(393) },
		}),
		100 + IMAGE_TOKENS + 200 + 101,
	);
	assert.ok(definitionTokens(named('s', 'tool', 'd'.repeat(400)).tool) > 100);
});

test('a capped result: the head within the limit, a note with size and reference, the whole paged by read_result', () => {
	const store = new ResultStore();
	const whole = Array.from({ length: 50_000 }, (_, i) => `line ${i}`).join('\n');
	const stored = store.put('big', 'dump', whole, estimateTokens(whole));
	const head = headOf(whole, 1_000);
	assert.equal(head.length, 4_000);
	assert.match(cappedNote(stored, head.length), /about \d+ tokens \(\d+\.\d KB\) in all.*"r1".*"offset": 4000/s);
	const page = readResultAnswer(store, { id: stored.id, offset: 4_000, maxChars: 100 });
	assert.ok(page.startsWith(`[characters 4000–4100 of ${whole.length}; read on with offset 4100]\n`));
	assert.equal(page.slice(page.indexOf('\n') + 1), whole.slice(4_000, 4_100));
	const end = readResultAnswer(store, { id: stored.id, offset: whole.length - 5 });
	assert.match(end, /this is the end\]\n/);
	assert.match(readResultAnswer(store, { id: 'r99' }), /^Tool error: there is no stored result "r99"/);
});

test('the store keeps the newest results within its bounds', () => {
	const store = new ResultStore(2, 1_000);
	const a = store.put('s', 't', 'a'.repeat(400), 100);
	const b = store.put('s', 't', 'b'.repeat(400), 100);
	const c = store.put('s', 't', 'c'.repeat(400), 100);
	assert.equal(store.get(a.id), undefined);
	assert.ok(store.get(b.id) && store.get(c.id));
	const huge = store.put('s', 't', 'd'.repeat(5_000), 1_250);
	assert.ok(store.get(huge.id), 'a result larger than the bound is still kept, alone');
	assert.equal(store.get(c.id), undefined);
});

test('limits per tool, then per server, then the default', () => {
	const limits = { mcp__fs__read_file: 1_000, fs: 5_000, bad: 'x' };
	assert.equal(resultLimitFor(limits, 25_000, 'fs', 'mcp__fs__read_file'), 1_000);
	assert.equal(resultLimitFor(limits, 25_000, 'fs', 'mcp__fs__list'), 5_000);
	assert.equal(resultLimitFor(limits, 25_000, 'bad', 'mcp__bad__x'), 25_000);
});

test('tool search finds the tool for a request and answers with full definitions; auto mode past the threshold', () => {
	const tools: NamedTool[] = [];
	for (let i = 0; i < 500; i++) tools.push(named(`srv${i % 10}`, `tool_${i}`, `Does generic thing ${i} with records`));
	tools.push(named('github', 'create_issue', 'Create a new issue in a GitHub repository'));
	tools.push(named('weather', 'get_forecast', 'Weather forecast for a city'));
	const found = searchTools(tools, 'open an issue on github', 5);
	assert.equal(found[0]?.qualifiedName, 'mcp__github__create_issue');
	assert.ok(found.length <= 5);
	const answer = JSON.parse(searchAnswer(found, 'q')) as { name: string; inputSchema: object }[];
	assert.deepEqual(answer[0]?.inputSchema, tools.at(-2)?.tool.inputSchema);
	assert.match(searchAnswer([], 'zzz'), /No tool matches "zzz"/);
	assert.equal(useToolSearch('auto', tools.slice(0, 5), 20_000), false);
	assert.equal(useToolSearch('auto', tools, 1_000), true);
	assert.equal(useToolSearch('on', [], 1), true);
	assert.equal(useToolSearch('off', tools, 0), false);
});

test('the ledger sums by server and kind, counts a definition once, and prints a table and a log line', () => {
	const ledger = new ContextLedger();
	ledger.add('github', 'definitions', 300, 'mcp__github__a');
	ledger.add('github', 'definitions', 300, 'mcp__github__a');
	ledger.add('github', 'results', 50);
	ledger.add('fs', 'instructions', 20);
	assert.deepEqual(
		ledger.rows().map((row) => [row.server, row.definitions, row.results, row.instructions, row.total]),
		[
			['github', 300, 50, 0, 350],
			['fs', 0, 0, 20, 20],
		],
	);
	assert.equal(ledger.total().total, 370);
	assert.match(ledgerTable([...ledger.rows(), ledger.total()]), /\| github \| 300 \| 0 \| 0 \| 50 \| 350 \|/);
	assert.match(
		ledger.logLine(),
		/^estimated tokens 370 \(definitions 300, instructions 20, skills 0, results 50\); github 350/,
	);
});

test("a search meets the tool's words: everyday synonyms on the query side, parameters' words in the index", () => {
	const query = expandQuery('show me what is in the src folder');
	assert.equal(query[0]?.weight, 1);
	assert.match(query[1]?.text ?? '', /\bdirectory\b/);
	assert.deepEqual(expandQuery('zebra'), [{ text: 'zebra', weight: 1 }], 'no group, nothing added');
	const tools = [
		named('fs', 'list_directory', 'Lists the entries of a path'),
		named('maps', 'maps_elevation', 'Elevation data for locations on the earth'),
		{
			server: 'db',
			qualifiedName: 'mcp__db__query',
			tool: {
				name: 'query',
				description: 'Run a read-only statement',
				inputSchema: { type: 'object', properties: { sql: { type: 'string', description: 'The SQL to run' } } },
			},
		},
	];
	assert.equal(searchTools(tools, 'what is in my folder?', 1)[0]?.qualifiedName, 'mcp__fs__list_directory');
	assert.equal(searchTools(tools, 'how high is Denver', 1)[0]?.qualifiedName, 'mcp__maps__maps_elevation');
	assert.equal(searchTools(tools, 'run this sql', 1)[0]?.qualifiedName, 'mcp__db__query', "a parameter's words count");
});
