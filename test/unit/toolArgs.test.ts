import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
	buildArguments,
	convertText,
	describeField,
	formFromSchema,
	initialText,
	SKIP,
	type FieldSpec,
} from '../../src/vscode/tools/toolArgs';

function field(schema: unknown, name: string): FieldSpec {
	const found = formFromSchema(schema).fields.find((f) => f.name === name);
	assert.ok(found, `field ${name}`);
	return found;
}

describe('formFromSchema', () => {
	test('reads server-everything echo: one required string', () => {
		const form = formFromSchema({
			type: 'object',
			properties: { message: { type: 'string', description: 'Message to echo' } },
			required: ['message'],
		});
		assert.equal(form.fields.length, 1);
		const [message] = form.fields;
		assert.equal(message?.kind, 'string');
		assert.equal(message?.required, true);
		assert.equal(message?.description, 'Message to echo');
	});

	test('puts required fields first, keeping schema order within each group', () => {
		const form = formFromSchema({
			type: 'object',
			properties: { a: { type: 'string' }, b: { type: 'number' }, c: { type: 'boolean' }, d: { type: 'integer' } },
			required: ['c', 'd'],
		});
		assert.deepEqual(
			form.fields.map((f) => f.name),
			['c', 'd', 'a', 'b'],
		);
	});

	test('maps types, enums, titled oneOf choices, nullable types and arrays of enums', () => {
		const schema = {
			type: 'object',
			properties: {
				count: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
				ratio: { type: ['number', 'null'], exclusiveMaximum: 1 },
				flag: { type: 'boolean', default: false },
				color: { type: 'string', enum: ['red', 'green'] },
				size: {
					oneOf: [
						{ const: 's', title: 'Small' },
						{ const: 'l', title: 'Large' },
					],
				},
				tags: { type: 'array', items: { type: 'string', enum: ['x', 'y', 'z'] } },
				nested: { type: 'object', properties: { inner: { type: 'string' } } },
				list: { type: 'array', items: { type: 'number' } },
				anything: {},
			},
		};
		assert.equal(field(schema, 'count').kind, 'integer');
		assert.equal(field(schema, 'count').default, 3);
		assert.equal(field(schema, 'ratio').kind, 'number');
		assert.equal(field(schema, 'flag').kind, 'boolean');
		assert.deepEqual(
			field(schema, 'color').choices?.map((c) => c.value),
			['red', 'green'],
		);
		assert.deepEqual(
			field(schema, 'size').choices?.map((c) => [c.label, c.value]),
			[
				['Small', 's'],
				['Large', 'l'],
			],
		);
		assert.equal(field(schema, 'tags').kind, 'multiEnum');
		assert.equal(field(schema, 'nested').kind, 'json');
		assert.equal(field(schema, 'nested').jsonType, 'object');
		assert.equal(field(schema, 'list').jsonType, 'array');
		assert.equal(field(schema, 'anything').jsonType, 'any');
	});

	test('follows local $ref into $defs', () => {
		const schema = {
			type: 'object',
			$defs: { Level: { type: 'string', enum: ['low', 'high'] } },
			properties: { level: { $ref: '#/$defs/Level', description: 'how loud' } },
		};
		const level = field(schema, 'level');
		assert.equal(level.kind, 'enum');
		assert.equal(level.description, 'how loud');
	});

	test('never throws on junk', () => {
		assert.deepEqual(formFromSchema(undefined).fields, []);
		assert.deepEqual(formFromSchema('x').fields, []);
		assert.deepEqual(
			formFromSchema({ type: 'object', properties: { a: 42 } }).fields.map((f) => f.kind),
			['json'],
		);
		assert.deepEqual(
			formFromSchema({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }).fields.map((f) => f.kind),
			['json'],
		);
	});
});

describe('convertText', () => {
	const schema = {
		type: 'object',
		properties: {
			n: { type: 'integer', minimum: 1, maximum: 100 },
			x: { type: 'number', exclusiveMinimum: 0, multipleOf: 0.5 },
			email: { type: 'string', format: 'email' },
			date: { type: 'string', format: 'date' },
			code: { type: 'string', pattern: '^[A-Z]{3}$' },
			name: { type: 'string', minLength: 2, maxLength: 4 },
			obj: { type: 'object' },
			arr: { type: 'array' },
			pick: { enum: [1, 2] },
		},
	};

	test('converts numbers and integers and enforces their ranges', () => {
		assert.deepEqual(convertText(field(schema, 'n'), ' 42 '), { ok: true, value: 42 });
		assert.equal(convertText(field(schema, 'n'), '4.5').ok, false);
		assert.match((convertText(field(schema, 'n'), '0') as { error: string }).error, /at least 1/);
		assert.match((convertText(field(schema, 'n'), '101') as { error: string }).error, /at most 100/);
		assert.match((convertText(field(schema, 'n'), 'abc') as { error: string }).error, /whole number/);
		assert.deepEqual(convertText(field(schema, 'x'), '2.5'), { ok: true, value: 2.5 });
		assert.match((convertText(field(schema, 'x'), '0') as { error: string }).error, /greater than 0/);
		assert.match((convertText(field(schema, 'x'), '0.3') as { error: string }).error, /multiple of 0.5/);
	});

	test('checks string formats, patterns and lengths', () => {
		assert.equal(convertText(field(schema, 'email'), 'a@b.co').ok, true);
		assert.match((convertText(field(schema, 'email'), 'nope') as { error: string }).error, /email/);
		assert.equal(convertText(field(schema, 'date'), '2025-11-25').ok, true);
		assert.equal(convertText(field(schema, 'date'), '2025-13-45').ok, false);
		assert.equal(convertText(field(schema, 'code'), 'ABC').ok, true);
		assert.match((convertText(field(schema, 'code'), 'abcd') as { error: string }).error, /pattern/);
		assert.equal(convertText(field(schema, 'name'), 'a').ok, false);
		assert.equal(convertText(field(schema, 'name'), 'abcde').ok, false);
		assert.deepEqual(convertText(field(schema, 'name'), 'abc'), { ok: true, value: 'abc' });
	});

	test('parses JSON fields and checks their shape', () => {
		assert.deepEqual(convertText(field(schema, 'obj'), '{"a": [1]}'), { ok: true, value: { a: [1] } });
		assert.match((convertText(field(schema, 'obj'), '[1]') as { error: string }).error, /JSON object/);
		assert.match((convertText(field(schema, 'obj'), '{a:1}') as { error: string }).error, /Not valid JSON/);
		assert.deepEqual(convertText(field(schema, 'arr'), '[1, "x"]'), { ok: true, value: [1, 'x'] });
	});

	test('maps a typed enum label back to its typed value', () => {
		assert.deepEqual(convertText(field(schema, 'pick'), '2'), { ok: true, value: 2 });
		assert.equal(convertText(field(schema, 'pick'), '3').ok, false);
	});

	test('an invalid server pattern is not enforced rather than failing every input', () => {
		const f = field({ type: 'object', properties: { s: { type: 'string', pattern: '(' } } }, 's');
		assert.equal(convertText(f, 'anything').ok, true);
	});
});

describe('prefill, prompt text and arguments', () => {
	const schema = {
		type: 'object',
		properties: {
			message: { type: 'string', default: 'hi' },
			count: { type: 'integer', default: 3 },
			opts: { type: 'object', default: { a: 1 } },
			list: { type: 'array' },
			req: { type: 'string', description: 'Needed' },
		},
		required: ['req'],
	};

	test('prefills defaults as typed text and JSON skeletons for nested values', () => {
		assert.equal(initialText(field(schema, 'message')), 'hi');
		assert.equal(initialText(field(schema, 'count')), '3');
		assert.equal(initialText(field(schema, 'opts')), '{"a":1}');
		assert.equal(initialText(field(schema, 'list')), '[]');
		assert.equal(initialText(field(schema, 'count'), 7), '7');
	});

	test('describes constraints and whether the field is optional', () => {
		assert.equal(describeField(field(schema, 'req')), 'Needed. Required.');
		assert.match(describeField(field(schema, 'count')), /integer.*Optional/);
	});

	test('leaves skipped optional fields out and names missing required ones', () => {
		const { fields } = formFromSchema(schema);
		const answers = new Map<string, unknown>([
			['req', 'x'],
			['message', SKIP],
			['count', 5],
		]);
		assert.deepEqual(buildArguments(fields, answers), { ok: true, value: { req: 'x', count: 5 } });
		assert.deepEqual(buildArguments(fields, new Map()), { ok: false, error: 'Missing required argument: req' });
	});
});

describe('more schema shapes seen in real servers', () => {
	test('legacy enumNames label the choices; a lone const is a one-choice pick', () => {
		const schema = {
			type: 'object',
			properties: { mode: { type: 'string', enum: ['r', 'w'], enumNames: ['Read', 'Write'] }, version: { const: 2 } },
		};
		assert.deepEqual(
			field(schema, 'mode').choices?.map((c) => c.label),
			['Read', 'Write'],
		);
		assert.deepEqual(field(schema, 'version').choices, [{ value: 2, label: '2' }]);
	});

	test('date-time, uuid and uri formats accept good values and explain bad ones', () => {
		const schema = {
			type: 'object',
			properties: {
				at: { type: 'string', format: 'date-time' },
				id: { type: 'string', format: 'uuid' },
				link: { type: 'string', format: 'uri' },
			},
		};
		assert.equal(convertText(field(schema, 'at'), '2025-11-25T14:30:00Z').ok, true);
		assert.match((convertText(field(schema, 'at'), '2025-11-25') as { error: string }).error, /date and time/);
		assert.equal(convertText(field(schema, 'id'), '123e4567-e89b-12d3-a456-426614174000').ok, true);
		assert.equal(convertText(field(schema, 'id'), 'not-a-uuid').ok, false);
		assert.equal(convertText(field(schema, 'link'), 'https://example.com/x').ok, true);
		assert.match((convertText(field(schema, 'link'), 'example.com') as { error: string }).error, /scheme/);
	});

	test('an unknown format is not enforced', () => {
		assert.equal(
			convertText(field({ type: 'object', properties: { c: { type: 'string', format: 'color' } } }, 'c'), 'blue').ok,
			true,
		);
	});

	test('the root schema may itself be a $ref into $defs (as some generators emit)', () => {
		const schema = {
			$ref: '#/$defs/Args',
			$defs: { Args: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } },
		};
		const form = formFromSchema(schema);
		assert.deepEqual(
			form.fields.map((f) => [f.name, f.required]),
			[['q', true]],
		);
	});

	test('additionalProperties false is reported, so the form can say no other arguments are accepted', () => {
		assert.equal(formFromSchema({ type: 'object', properties: {}, additionalProperties: false }).additional, false);
		assert.equal(formFromSchema({ type: 'object', properties: {} }).additional, true);
	});
});
