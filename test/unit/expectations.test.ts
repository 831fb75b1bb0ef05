import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
	evaluateExpectations,
	observeResult,
	parseExpectations,
	type Expectations,
} from '../../src/manager/expectations';
import { formatInvocation, parseInvocation } from '../../src/manager/invocationFile';

const weather = {
	content: [{ type: 'text', text: 'Sunny in Paris, 22 °C' }],
	structuredContent: { city: 'Paris', temperature: 22, tags: ['sun', 'warm'], wind: { kmh: 5 } },
};

/** Each row: what a file expects, what the call returned, and the failures a person reads (empty: passed). */
const table: {
	name: string;
	expect: Expectations;
	result?: unknown;
	ms?: number;
	error?: string;
	failures: string[];
}[] = [
	{ name: 'an empty expect passes any result', expect: {}, result: weather, failures: [] },
	{ name: 'isError false on success', expect: { isError: false }, result: weather, failures: [] },
	{
		name: 'isError true on success fails with the text',
		expect: { isError: true },
		result: weather,
		failures: ['expected an error result, got success: "Sunny in Paris, 22 °C"'],
	},
	{
		name: 'isError false on an error result',
		expect: { isError: false },
		result: { isError: true, content: [{ type: 'text', text: 'boom' }] },
		failures: ['expected success, got an error result: "boom"'],
	},
	{
		name: 'isError true on an error result passes',
		expect: { isError: true, text: 'boom' },
		result: { isError: true, content: [{ type: 'text', text: 'boom' }] },
		failures: [],
	},
	{ name: 'text is a substring', expect: { text: 'Paris' }, result: weather, failures: [] },
	{
		name: 'text missing',
		expect: { text: 'Lyon' },
		result: weather,
		failures: ['text does not contain "Lyon": got "Sunny in Paris, 22 °C"'],
	},
	{ name: 'match is a regular expression', expect: { match: '^Sunny .* \\d+ °C$' }, result: weather, failures: [] },
	{
		name: 'match fails',
		expect: { match: '^Rain' },
		result: weather,
		failures: ['text does not match /^Rain/: got "Sunny in Paris, 22 °C"'],
	},
	{
		name: 'structured is partial: listed keys only, nested',
		expect: { structured: { city: 'Paris', wind: { kmh: 5 } } },
		result: weather,
		failures: [],
	},
	{
		name: 'structured names the first differing path',
		expect: { structured: { wind: { kmh: 7 } } },
		result: weather,
		failures: ['structured content: wind.kmh: expected 7, got 5'],
	},
	{
		name: 'structured arrays must have the same length',
		expect: { structured: { tags: ['sun'] } },
		result: weather,
		failures: ['structured content: tags: expected 1 items, got 2'],
	},
	{
		name: 'structured missing key',
		expect: { structured: { humidity: 40 } },
		result: weather,
		failures: ['structured content: humidity: missing'],
	},
	{
		name: 'structured without structured content',
		expect: { structured: { a: 1 } },
		result: { content: [] },
		failures: ['structured content: the result has no structured content'],
	},
	{
		name: 'schema satisfied',
		expect: {
			schema: {
				type: 'object',
				required: ['city', 'temperature'],
				properties: { temperature: { type: 'number' } },
			},
		},
		result: weather,
		failures: [],
	},
	{
		name: 'schema violated names the path',
		expect: { schema: { type: 'object', properties: { temperature: { type: 'string' } } } },
		result: weather,
		failures: ['schema: at temperature: Invalid input: expected string, received number'],
	},
	{ name: 'maxMs within', expect: { maxMs: 500 }, result: weather, ms: 120, failures: [] },
	{
		name: 'maxMs exceeded',
		expect: { maxMs: 100 },
		result: weather,
		ms: 250.4,
		failures: ['took 250 ms, more than maxMs 100'],
	},
	{
		name: 'several failures are all reported, in key order',
		expect: { isError: true, text: 'Lyon', maxMs: 1 },
		result: weather,
		ms: 5,
		failures: [
			'expected an error result, got success: "Sunny in Paris, 22 °C"',
			'text does not contain "Lyon": got "Sunny in Paris, 22 °C"',
			'took 5 ms, more than maxMs 1',
		],
	},
	{
		name: 'a JSON-RPC error fails whatever is expected',
		expect: { isError: true },
		error: 'MCP error -32602: Unknown tool: nope',
		failures: ['the call failed: MCP error -32602: Unknown tool: nope'],
	},
	{
		name: 'a resource read is judged on its contents text',
		expect: { text: 'architecture' },
		result: { contents: [{ uri: 'demo://a', text: '# architecture' }] },
		failures: [],
	},
	{
		name: 'a prompt is judged on its messages text',
		expect: { match: 'Paris' },
		result: { messages: [{ role: 'user', content: { type: 'text', text: 'Weather in Paris?' } }] },
		failures: [],
	},
];

for (const row of table) {
	test(`expectations: ${row.name}`, () => {
		const report = evaluateExpectations(row.expect, observeResult(row.result, row.ms ?? 10, row.error));
		assert.deepEqual(report.failures, row.failures);
		assert.equal(report.passed, row.failures.length === 0);
	});
}

test('a malformed expect is a problem naming the key, and the file does not run', () => {
	const problems = (expect: unknown) => parseExpectations(expect, 'f').problems;
	assert.deepEqual(problems([]), ['f: "expect" must be an object']);
	assert.deepEqual(problems({ isError: 'yes' }), ['f: "expect.isError" must be true or false']);
	assert.deepEqual(problems({ maxMs: -1 }), ['f: "expect.maxMs" must be a positive number of milliseconds']);
	assert.deepEqual(problems({ schema: 3 }), ['f: "expect.schema" must be a JSON Schema object']);
	assert.deepEqual(problems({ txet: 'x' }), ['f: unknown key "expect.txet"']);
	assert.match(problems({ match: '(' })[0]!, /^f: "expect\.match" is not a regular expression/);
	const parsed = parseInvocation('{"server":"s","tool":"t","expect":{"maxMs":"fast"}}', 'f');
	assert.equal(parsed.invocation, undefined);
	assert.deepEqual(parsed.problems, ['f: "expect.maxMs" must be a positive number of milliseconds']);
});

test('expect survives parse and format, on tools, prompts and resources', () => {
	for (const body of [
		{ server: 's', tool: 't', arguments: {}, expect: { text: 'ok', maxMs: 100 } },
		{ server: 's', prompt: 'p', arguments: {}, expect: { match: 'x' } },
		{ server: 's', resource: 'demo://x', expect: { isError: false } },
	]) {
		const parsed = parseInvocation(JSON.stringify(body), 'f');
		assert.deepEqual(parsed.problems, []);
		assert.deepEqual(parsed.invocation?.expect, body.expect);
		assert.deepEqual(parseInvocation(formatInvocation(parsed.invocation), 'f').invocation, parsed.invocation);
	}
});
