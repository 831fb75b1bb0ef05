import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatInvocation, parseInvocation } from '../../src/manager/invocationFile';

test('a tool, prompt or resource invocation parses; formatInvocation writes what parses back to the same', () => {
	const cases = [
		{ server: 'everything', tool: 'echo', arguments: { message: 'hi', nested: { n: 1 } } },
		{ server: 'everything', prompt: 'args-prompt', arguments: { city: 'Paris' } },
		{ server: 'everything', resource: 'demo://resource/static/document/architecture.md' },
	];
	for (const body of cases) {
		const parsed = parseInvocation(JSON.stringify(body), 'x.mcpcall.json');
		assert.deepEqual(parsed.problems, []);
		assert.ok(parsed.invocation);
		assert.deepEqual(parseInvocation(formatInvocation(parsed.invocation), 'x').invocation, parsed.invocation);
	}
});

test('prompt arguments are strings: numbers and booleans are converted, objects refused', () => {
	assert.deepEqual(parseInvocation('{"server":"s","prompt":"p","arguments":{"n":3,"b":true}}', 'f').invocation, {
		kind: 'prompt',
		server: 's',
		prompt: 'p',
		arguments: { n: '3', b: 'true' },
	});
	assert.deepEqual(parseInvocation('{"server":"s","prompt":"p","arguments":{"o":{}}}', 'f').problems, [
		'f: prompt argument "o" must be a string',
	]);
});

test('malformed files give one clear problem naming the file, and no invocation', () => {
	const problems = (text: string) => {
		const parsed = parseInvocation(text, 'call.mcpcall.json');
		assert.equal(parsed.invocation, undefined);
		return parsed.problems.join(' | ');
	};
	assert.match(problems('{'), /^call\.mcpcall\.json: not valid JSON/);
	assert.equal(
		problems('[]'),
		'call.mcpcall.json: expected an object with "server" and one of "tool", "prompt" or "resource"',
	);
	assert.equal(problems('{"tool":"echo"}'), 'call.mcpcall.json: "server" must name a configured server');
	assert.equal(
		problems('{"server":"s"}'),
		'call.mcpcall.json: needs exactly one of "tool", "prompt" or "resource" (found none)',
	);
	assert.equal(problems('{"server":"s","tool":""}'), 'call.mcpcall.json: "tool" must be a non-empty string');
	assert.equal(
		problems('{"server":"s","tool":"t","arguments":[1]}'),
		'call.mcpcall.json: "arguments" must be an object',
	);
});

test('an unknown field is reported but the invocation still runs', () => {
	const parsed = parseInvocation('{"server":"s","tool":"t","argument":{"x":1}}', 'f');
	assert.deepEqual(parsed.problems, ['f: unknown field "argument"']);
	assert.deepEqual(parsed.invocation, { kind: 'tool', server: 's', tool: 't', arguments: {} });
});
