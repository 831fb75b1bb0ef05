import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
	buildContent,
	defaultValues,
	displayValue,
	fieldHint,
	formFromSchema,
	initialText,
	looksSecret,
	startingChoice,
	validateSelection,
	validateText,
	valueFromText,
	type FormField,
	type FormValue,
} from '../../src/vscode/elicitation/elicitationForm';

// The form server-everything's `trigger-elicitation-request` sends (2026.8.31), trimmed to the fields' schemas.
const everythingSchema = {
	type: 'object',
	properties: {
		name: { title: 'String', type: 'string', description: 'Your full, legal name' },
		check: { title: 'Boolean', type: 'boolean', description: 'Agree to the terms and conditions' },
		firstLine: { title: 'String with default', type: 'string', default: 'It was a dark and stormy night.' },
		email: { title: 'String with email format', type: 'string', format: 'email' },
		homepage: { type: 'string', format: 'uri', title: 'String with uri format' },
		birthdate: { title: 'String with date format', type: 'string', format: 'date' },
		integer: {
			title: 'Integer',
			type: 'integer',
			description: 'Your favorite integer (do not give us your phone number, pin, or other sensitive info)',
			minimum: 1,
			maximum: 100,
			default: 42,
		},
		number: { title: 'Number in range 1-1000', type: 'number', minimum: 0, maximum: 1000, default: 3.14 },
		untitledSingleSelectEnum: {
			type: 'string',
			title: 'Untitled Single Select Enum',
			enum: ['Monica', 'Rachel', 'Joey'],
			default: 'Monica',
		},
		untitledMultipleSelectEnum: {
			type: 'array',
			title: 'Untitled Multiple Select Enum',
			minItems: 1,
			maxItems: 3,
			items: { type: 'string', enum: ['Guitar', 'Piano', 'Violin', 'Drums', 'Bass'] },
			default: ['Guitar'],
		},
		titledSingleSelectEnum: {
			type: 'string',
			title: 'Titled Single Select Enum',
			oneOf: [
				{ const: 'hero-1', title: 'Superman' },
				{ const: 'hero-2', title: 'Green Lantern' },
			],
			default: 'hero-1',
		},
		titledMultipleSelectEnum: {
			type: 'array',
			title: 'Titled Multiple Select Enum',
			minItems: 1,
			maxItems: 3,
			items: {
				anyOf: [
					{ const: 'fish-1', title: 'Tuna' },
					{ const: 'fish-2', title: 'Salmon' },
				],
			},
			default: ['fish-1'],
		},
		legacyTitledEnum: { type: 'string', enum: ['pet-1', 'pet-2'], enumNames: ['Cats', 'Dogs'], default: 'pet-1' },
	},
	required: ['name'],
};

function field(name: string): FormField {
	const found = formFromSchema(everythingSchema).fields.find((f) => f.name === name);
	assert.ok(found, `field ${name}`);
	return found;
}

test('every field type of the 2025-11-25 form schema becomes a field, in schema order, with no problems', () => {
	const model = formFromSchema(everythingSchema);
	assert.deepEqual(model.problems, []);
	assert.deepEqual(
		model.fields.map((f) => [f.name, f.kind]),
		[
			['name', 'string'],
			['check', 'boolean'],
			['firstLine', 'string'],
			['email', 'string'],
			['homepage', 'string'],
			['birthdate', 'string'],
			['integer', 'integer'],
			['number', 'number'],
			['untitledSingleSelectEnum', 'enum'],
			['untitledMultipleSelectEnum', 'multiEnum'],
			['titledSingleSelectEnum', 'enum'],
			['titledMultipleSelectEnum', 'multiEnum'],
			['legacyTitledEnum', 'enum'],
		],
	);
	assert.equal(field('name').required, true);
	assert.equal(field('check').required, false);
	assert.equal(field('name').label, 'String');
	assert.equal(field('legacyTitledEnum').label, 'legacyTitledEnum', 'no title: the property name is the label');
});

test('enum labels come from oneOf titles, anyOf titles and legacy enumNames; values stay the consts', () => {
	const titled = field('titledSingleSelectEnum');
	assert.ok(titled.kind === 'enum');
	assert.deepEqual(titled.choices, [
		{ value: 'hero-1', label: 'Superman' },
		{ value: 'hero-2', label: 'Green Lantern' },
	]);
	const legacy = field('legacyTitledEnum');
	assert.ok(legacy.kind === 'enum');
	assert.deepEqual(legacy.choices, [
		{ value: 'pet-1', label: 'Cats' },
		{ value: 'pet-2', label: 'Dogs' },
	]);
	const plain = field('untitledSingleSelectEnum');
	assert.ok(plain.kind === 'enum');
	assert.deepEqual(plain.choices?.[1], { value: 'Rachel', label: 'Rachel' });
	const multi = field('titledMultipleSelectEnum');
	assert.ok(multi.kind === 'multiEnum');
	assert.deepEqual(multi.choices?.[1], { value: 'fish-2', label: 'Salmon' });
	assert.equal(multi.minItems, 1);
	assert.equal(multi.maxItems, 3);
});

test('defaults are prefilled: every schema default is a starting value, shown as the input text', () => {
	const { fields } = formFromSchema(everythingSchema);
	const values = defaultValues(fields);
	assert.equal(values.get('firstLine'), 'It was a dark and stormy night.');
	assert.equal(values.get('integer'), 42);
	assert.equal(values.get('number'), 3.14);
	assert.equal(values.get('untitledSingleSelectEnum'), 'Monica');
	assert.deepEqual(values.get('untitledMultipleSelectEnum'), ['Guitar']);
	assert.deepEqual(values.get('titledMultipleSelectEnum'), ['fish-1']);
	assert.equal(values.has('name'), false);
	assert.equal(initialText(field('number'), values.get('number')), '3.14');
	assert.equal(initialText(field('name'), undefined), '');
	assert.equal(initialText(field('integer'), 7), '7', 'the current answer wins over the default after Back');
});

test('an optional yes/no or choice question starts unset unless the schema gives a default or it was answered', () => {
	const values = defaultValues(formFromSchema(everythingSchema).fields);
	// "Agree to the terms and conditions" has no default: it starts on "Leave unset", not on Yes.
	assert.equal(values.has('check'), false);
	assert.deepEqual(startingChoice(field('check'), values.get('check')), { kind: 'unset' });
	// After Back, the earlier answer is where it starts, No included.
	assert.deepEqual(startingChoice(field('check'), false), { kind: 'choice', id: 'false' });
	assert.deepEqual(startingChoice(field('check'), true), { kind: 'choice', id: 'true' });
	// A schema default is the start.
	const agreed = formFromSchema({ type: 'object', properties: { ok: { type: 'boolean', default: true } } }).fields;
	const [ok] = agreed;
	assert.ok(ok);
	assert.deepEqual(startingChoice(ok, defaultValues(agreed).get('ok')), { kind: 'choice', id: 'true' });
	assert.deepEqual(startingChoice(field('titledSingleSelectEnum'), values.get('titledSingleSelectEnum')), {
		kind: 'choice',
		id: 'hero-1',
	});
	// A required question has no "Leave unset": it starts on its first choice.
	const required = formFromSchema({
		type: 'object',
		properties: { terms: { type: 'boolean' }, size: { type: 'string', enum: ['S', 'M'] } },
		required: ['terms', 'size'],
	}).fields;
	for (const f of required) assert.deepEqual(startingChoice(f, undefined), { kind: 'first' }, f.name);
	// A value that is not one of the choices does not count as an answer.
	assert.deepEqual(startingChoice(field('untitledSingleSelectEnum'), 'Gunther'), { kind: 'unset' });
});

test('a default that is not one of the choices or of the wrong type is dropped', () => {
	const { fields } = formFromSchema({
		properties: {
			color: { type: 'string', enum: ['red', 'blue'], default: 'green' },
			count: { type: 'integer', default: 2.5 },
			tags: { type: 'array', items: { enum: ['a', 'b'] }, default: ['a', 'z', 3] },
		},
	});
	assert.equal(fields[0]?.default, undefined);
	assert.equal(fields[1]?.default, undefined);
	assert.deepEqual(fields[2]?.default, ['a']);
});

test('required text fields refuse empty input; optional ones accept it as "leave it out"', () => {
	assert.equal(validateText(field('name'), ''), 'String is required');
	assert.equal(validateText(field('firstLine'), ''), undefined);
	assert.equal(valueFromText(field('firstLine'), ''), undefined);
	assert.equal(valueFromText(field('name'), 'Ada Lovelace'), 'Ada Lovelace');
});

test('string length limits count characters, not UTF-16 units', () => {
	const { fields } = formFromSchema({
		properties: { code: { type: 'string', minLength: 2, maxLength: 3 } },
		required: ['code'],
	});
	const code = fields[0]!;
	assert.match(validateText(code, 'a') ?? '', /At least 2/);
	assert.equal(validateText(code, 'ab'), undefined);
	assert.equal(validateText(code, '😀😀😀'), undefined, 'three emoji are three characters');
	assert.match(validateText(code, 'abcd') ?? '', /At most 3/);
});

test('email, uri, date and date-time are validated as typed', () => {
	const email = field('email');
	assert.equal(validateText(email, 'ada@example.com'), undefined);
	assert.match(validateText(email, 'ada@') ?? '', /email/);
	assert.match(validateText(email, 'ada example.com') ?? '', /email/);

	const uri = field('homepage');
	assert.equal(validateText(uri, 'https://example.com/me'), undefined);
	assert.equal(validateText(uri, 'mailto:ada@example.com'), undefined);
	assert.match(validateText(uri, 'example.com') ?? '', /scheme/);

	const date = field('birthdate');
	assert.equal(validateText(date, '1815-12-10'), undefined);
	assert.match(validateText(date, '1815-02-30') ?? '', /YYYY-MM-DD/, 'no 30th of February');
	assert.match(validateText(date, '10/12/1815') ?? '', /YYYY-MM-DD/);

	const { fields } = formFromSchema({ properties: { at: { type: 'string', format: 'date-time' } } });
	const at = fields[0]!;
	assert.equal(validateText(at, '2025-11-25T14:30:00Z'), undefined);
	assert.equal(validateText(at, '2025-11-25T14:30:00.5+01:00'), undefined);
	assert.match(validateText(at, '2025-11-25 25:00:00Z') ?? '', /date and time/);
	assert.match(validateText(at, '2025-11-25') ?? '', /date and time/);
	assert.equal(valueFromText(at, ' 2025-11-25T14:30:00Z '), '2025-11-25T14:30:00Z', 'formatted strings are trimmed');
});

test('numbers and integers are checked against their range and sent as numbers', () => {
	const integer = field('integer');
	assert.equal(validateText(integer, '42'), undefined);
	assert.equal(valueFromText(integer, '42'), 42);
	assert.equal(typeof valueFromText(integer, '42'), 'number');
	assert.match(validateText(integer, '4.5') ?? '', /whole number/);
	assert.match(validateText(integer, '0') ?? '', /between 1 and 100/);
	assert.match(validateText(integer, '101') ?? '', /between 1 and 100/);
	assert.match(validateText(integer, 'forty') ?? '', /whole number/);
	assert.match(validateText(integer, '0x10') ?? '', /whole number/, 'no hex');

	const number = field('number');
	assert.equal(valueFromText(number, '2.5'), 2.5);
	assert.equal(valueFromText(number, '1e3'), 1000);
	assert.equal(valueFromText(number, '0'), 0);
	assert.match(validateText(number, '1000.1') ?? '', /between 0 and 1000/);
	assert.match(validateText(number, 'Infinity') ?? '', /Enter a number/);
	assert.throws(() => valueFromText(number, 'abc'), /Enter a number/);
});

test('multi-select honours minItems and maxItems; none chosen skips an optional field', () => {
	const multi = field('untitledMultipleSelectEnum');
	assert.equal(validateSelection(multi, 0), undefined, 'optional: nothing chosen means leave it out');
	assert.equal(validateSelection(multi, 2), undefined);
	assert.match(validateSelection(multi, 4) ?? '', /at most 3/);
	const { fields } = formFromSchema({
		properties: { tags: { type: 'array', minItems: 2, items: { enum: ['a', 'b', 'c'] } } },
		required: ['tags'],
	});
	assert.match(validateSelection(fields[0]!, 0) ?? '', /at least 2/);
	assert.match(validateSelection(fields[0]!, 1) ?? '', /at least 2/);
	assert.equal(validateSelection(fields[0]!, 2), undefined);
});

test('the content holds typed values of the answered fields only, in schema order', () => {
	const { fields } = formFromSchema(everythingSchema);
	const values = defaultValues(fields);
	values.set('name', 'Ada');
	values.set('check', true);
	values.delete('firstLine');
	values.set('integer', valueFromText(field('integer'), '7')!);
	values.set('titledMultipleSelectEnum', ['fish-1', 'fish-2']);
	const content = buildContent(fields, values);
	assert.deepEqual(content, {
		name: 'Ada',
		check: true,
		integer: 7,
		number: 3.14,
		untitledSingleSelectEnum: 'Monica',
		untitledMultipleSelectEnum: ['Guitar'],
		titledSingleSelectEnum: 'hero-1',
		titledMultipleSelectEnum: ['fish-1', 'fish-2'],
		legacyTitledEnum: 'pet-1',
	});
	assert.deepEqual(Object.keys(content).slice(0, 3), ['name', 'check', 'integer']);
});

test('the content refuses a missing required field or a value of the wrong type', () => {
	const { fields } = formFromSchema(everythingSchema);
	assert.throws(() => buildContent(fields, new Map()), /String is required/);
	const values = new Map<string, FormValue>([
		['name', 'Ada'],
		['integer', '7'],
	]);
	assert.throws(() => buildContent(fields, values), /Integer has a value of the wrong type/);
});

test('secrets are recognised in names and titles, and only by clear words in descriptions', () => {
	assert.equal(looksSecret('password'), true);
	assert.equal(looksSecret('apiKey'), true);
	assert.equal(looksSecret('api_key'), true);
	assert.equal(looksSecret('client-secret'), true);
	assert.equal(looksSecret('githubToken'), true);
	assert.equal(looksSecret('pin'), true);
	assert.equal(looksSecret('code', 'Bank card PIN'), true);
	assert.equal(looksSecret('value', undefined, 'Your personal access token for the API'), true);
	assert.equal(looksSecret('value', undefined, 'The password of the database user'), true);
	assert.equal(looksSecret('passenger'), false);
	assert.equal(looksSecret('tokenizer'), false);
	assert.equal(
		looksSecret('email', 'Email', 'Your email address (will be verified, and never shared with anyone else)'),
		false,
	);
	// server-everything's integer field says "do not give us your ... pin": a warning, not a request for one.
	assert.equal(field('integer').secret, false);
	const { fields } = formFromSchema({ properties: { dbPassword: { type: 'string' } } });
	assert.equal(fields[0]?.secret, true);
});

test('the review shows labels for enum values, masks secrets and says when a field is not set', () => {
	assert.equal(displayValue(field('titledSingleSelectEnum'), 'hero-2'), 'Green Lantern');
	assert.equal(displayValue(field('titledMultipleSelectEnum'), ['fish-1', 'fish-2']), 'Tuna, Salmon');
	assert.equal(displayValue(field('check'), false), 'false');
	assert.equal(displayValue(field('firstLine'), undefined), '(not set)');
	const { fields } = formFromSchema({ properties: { password: { type: 'string' } } });
	assert.doesNotMatch(displayValue(fields[0]!, 'hunter2'), /hunter2/);
});

test('hints describe type, bounds and whether a field is required', () => {
	assert.equal(fieldHint(field('integer')), 'whole number between 1 and 100, optional');
	assert.equal(fieldHint(field('name')), 'text, required');
	assert.equal(fieldHint(field('email')), 'email, optional');
	assert.equal(fieldHint(field('untitledMultipleSelectEnum')), 'choose 1–3, optional');
});

test('properties form mode does not allow become problems, never exceptions', () => {
	const model = formFromSchema({
		properties: {
			address: { type: 'object', properties: { street: { type: 'string' } } },
			list: { type: 'array', items: { type: 'string' } },
			odd: 'not a schema',
			ok: { type: 'string' },
		},
		required: ['address'],
	});
	assert.deepEqual(
		model.fields.map((f) => f.name),
		['ok'],
	);
	assert.deepEqual(
		model.problems.map((p) => [p.name, p.required]),
		[
			['address', true],
			['list', false],
			['odd', false],
		],
	);
	assert.match(model.problems[0]?.message ?? '', /"address" has type "object"/);
	assert.deepEqual(formFromSchema({}).fields, []);
});
