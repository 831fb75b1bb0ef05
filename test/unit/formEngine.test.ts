// One form engine, every caller: the same schemas and typed answers go through Call Tool's path (toolArgs.ts, also
// behind the history's Edit and `@mcp /call` without arguments), elicitation in VS Code (elicitationForm.ts), and the
// command line (`--answer` for CI, and a terminal conversation), and every path must give the same verdict: the same
// value sent, or a refusal with the same reason.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { convertText, formFromSchema as toolFormFromSchema } from '../../src/vscode/tools/toolArgs';
import {
	formFromSchema as elicitationFormFromSchema,
	validateText,
	valueFromText,
} from '../../src/vscode/elicitation/elicitationForm';
import { elicitHost, type ElicitContext } from '../../src/cli/elicitHost';
import type { Prompter } from '../../src/cli/terminalForms';
import type { ElicitResult } from '../../src/protocol/schema';

type Verdict = { ok: true; value: unknown } | { ok: false; error: string };

interface Case {
	what: string;
	property: Record<string, unknown>;
	required?: boolean;
	text: string;
	/** The value sent (undefined: the field is left out), or a pattern the refusal matches. */
	expect: { value: unknown } | RegExp;
}

const titledHeroes = {
	type: 'string',
	oneOf: [
		{ const: 'hero-1', title: 'Superman' },
		{ const: 'hero-2', title: 'Green Lantern' },
	],
};
const instruments = {
	type: 'array',
	maxItems: 2,
	items: { type: 'string', enum: ['Guitar', 'Piano', 'Violin'] },
};

const cases: Case[] = [
	{
		what: 'an email address',
		property: { type: 'string', format: 'email' },
		text: 'ada@example.com',
		expect: { value: 'ada@example.com' },
	},
	{ what: 'an email without a domain', property: { type: 'string', format: 'email' }, text: 'ada@', expect: /email/ },
	{ what: 'an email ending in a dot', property: { type: 'string', format: 'email' }, text: 'a@b.c.', expect: /email/ },
	{
		what: 'an email with spaces around it (sent trimmed)',
		property: { type: 'string', format: 'email' },
		text: ' ada@example.com ',
		expect: { value: 'ada@example.com' },
	},
	{
		what: 'a date-time with seconds',
		property: { type: 'string', format: 'date-time' },
		text: '2025-11-25T14:30:00Z',
		expect: { value: '2025-11-25T14:30:00Z' },
	},
	{
		what: 'a date-time without seconds (used to pass as a tool argument only)',
		property: { type: 'string', format: 'date-time' },
		text: '2025-11-25T14:30Z',
		expect: /date and time/,
	},
	{
		what: 'a date-time at hour 25',
		property: { type: 'string', format: 'date-time' },
		text: '2025-11-25T25:00:00Z',
		expect: /date and time/,
	},
	{
		what: 'a real date',
		property: { type: 'string', format: 'date' },
		text: '1815-12-10',
		expect: { value: '1815-12-10' },
	},
	{
		what: 'the 30th of February',
		property: { type: 'string', format: 'date' },
		text: '1815-02-30',
		expect: /YYYY-MM-DD/,
	},
	{
		what: 'a URI',
		property: { type: 'string', format: 'uri' },
		text: 'https://example.com/x',
		expect: { value: 'https://example.com/x' },
	},
	{
		what: 'a URI without a scheme',
		property: { type: 'string', format: 'uri' },
		text: 'example.com',
		expect: /scheme/,
	},
	{
		what: 'a whole number in range',
		property: { type: 'integer', minimum: 1, maximum: 100 },
		text: '42',
		expect: { value: 42 },
	},
	{
		what: 'a fraction for an integer',
		property: { type: 'integer', minimum: 1, maximum: 100 },
		text: '4.5',
		expect: /whole number/,
	},
	{
		what: 'hex for an integer',
		property: { type: 'integer', minimum: 1, maximum: 100 },
		text: '0x10',
		expect: /whole number/,
	},
	{
		what: 'an integer below its minimum',
		property: { type: 'integer', minimum: 1, maximum: 100 },
		text: '0',
		expect: /between 1 and 100 \(must be at least 1\)/,
	},
	{
		what: 'a number in exponent notation',
		property: { type: 'number', maximum: 1000 },
		text: '1e3',
		expect: { value: 1000 },
	},
	{
		what: 'a number above an exclusive maximum',
		property: { type: 'number', exclusiveMaximum: 1 },
		text: '1',
		expect: /less than 1/,
	},
	{
		what: 'three emoji in a 2–3 character field',
		property: { type: 'string', minLength: 2, maxLength: 3 },
		text: '😀😀😀',
		expect: { value: '😀😀😀' },
	},
	{
		what: 'one character in a 2–3 character field',
		property: { type: 'string', minLength: 2, maxLength: 3 },
		text: 'a',
		expect: /At least 2 characters/,
	},
	{
		what: 'text matching a pattern',
		property: { type: 'string', pattern: '^[A-Z]{3}$' },
		text: 'ABC',
		expect: { value: 'ABC' },
	},
	{
		what: 'text breaking a pattern',
		property: { type: 'string', pattern: '^[A-Z]{3}$' },
		text: 'abc',
		expect: /pattern/,
	},
	{ what: 'a titled choice by its title', property: titledHeroes, text: 'Green Lantern', expect: { value: 'hero-2' } },
	{ what: 'a titled choice by its value', property: titledHeroes, text: 'hero-1', expect: { value: 'hero-1' } },
	{
		what: 'an unknown choice',
		property: titledHeroes,
		text: 'Batman',
		expect: /Choose one of: Superman, Green Lantern/,
	},
	{ what: 'a boolean', property: { type: 'boolean' }, text: 'true', expect: { value: true } },
	{
		what: 'two of a multi-select',
		property: instruments,
		text: 'Violin, Guitar',
		expect: { value: ['Guitar', 'Violin'] },
	},
	{ what: 'too many of a multi-select', property: instruments, text: 'Guitar, Piano, Violin', expect: /at most 2/ },
	{
		what: 'an empty required field',
		property: { type: 'string', title: 'Name' },
		required: true,
		text: '',
		expect: /Name is required/,
	},
	{ what: 'an empty optional field (left out)', property: { type: 'string' }, text: '', expect: { value: undefined } },
];

function schemaOf(c: Case) {
	return { type: 'object', properties: { f: c.property }, required: c.required ? ['f'] : [] };
}

function toolPath(c: Case): Verdict {
	const field = toolFormFromSchema(schemaOf(c)).fields[0]!;
	const converted = convertText(field, c.text);
	return converted.ok ? { ok: true, value: converted.value } : converted;
}

function elicitationPath(c: Case): Verdict {
	const field = elicitationFormFromSchema(schemaOf(c)).fields[0]!;
	const problem = validateText(field, c.text);
	return problem === undefined ? { ok: true, value: valueFromText(field, c.text) } : { ok: false, error: problem };
}

/** A command-line run with no terminal: what `elicit` answers and what it says on stderr. */
function cliContext(
	answers: Map<string, string>,
	prompter?: () => Prompter,
): { context: ElicitContext; stderr: string[] } {
	const stderr: string[] = [];
	const context: ElicitContext = {
		options: { json: false, noInput: false, answers },
		tty: prompter !== undefined,
		error: (text) => stderr.push(text),
		prompter: prompter ?? (() => assert.fail('no terminal: nothing may be asked')),
		openUrl: () => assert.fail('nothing may be opened'),
	};
	return { context, stderr };
}

function verdictOf(result: ElicitResult, said: string[]): Verdict {
	return result.action === 'accept'
		? { ok: true, value: result.content?.f }
		: { ok: false, error: said.join('\n') || result.action };
}

async function cliAnswerPath(c: Case): Promise<Verdict> {
	const { context, stderr } = cliContext(new Map([['f', c.text]]));
	const result = await elicitHost(context).elicit!(
		'srv',
		{ mode: 'form', message: 'Q', requestedSchema: schemaOf(c) as never },
		new AbortController().signal,
	);
	return verdictOf(result, stderr);
}

/** A person at a terminal types `text`; a refusal is read from what is said back, then the person gives up. */
async function cliTerminalPath(c: Case): Promise<Verdict> {
	const said: string[] = [];
	let asked = 0;
	const prompter: Prompter = {
		say: (text) => said.push(text),
		ask: (question) => {
			asked++;
			if (question.startsWith('Send?')) return Promise.resolve('y');
			return Promise.resolve(asked === 1 ? c.text : undefined);
		},
		close: () => undefined,
	};
	const { context } = cliContext(new Map(), () => prompter);
	const result = await elicitHost(context).elicit!(
		'srv',
		{ mode: 'form', message: 'Q', requestedSchema: schemaOf(c) as never },
		new AbortController().signal,
	);
	// The re-ask after a refusal is the line said after the question (indented).
	return result.action === 'accept'
		? { ok: true, value: result.content?.f }
		: { ok: false, error: said.filter((line) => line.startsWith('  ') && !line.startsWith('  (')).join('\n') };
}

function assertVerdict(path: string, c: Case, verdict: Verdict): void {
	if (c.expect instanceof RegExp) {
		assert.equal(verdict.ok, false, `${path}: ${c.what} must be refused, got ${JSON.stringify(verdict)}`);
		assert.match((verdict as { error: string }).error, c.expect, `${path}: ${c.what}`);
	} else {
		assert.deepEqual(verdict, { ok: true, value: c.expect.value }, `${path}: ${c.what}`);
	}
}

describe('every caller of the form engine gives the same verdict', () => {
	for (const c of cases) {
		test(c.what, async () => {
			const verdicts: [string, Verdict][] = [
				['Call Tool (toolArgs)', toolPath(c)],
				['elicitation in VS Code (elicitationForm)', elicitationPath(c)],
				['command line --answer', await cliAnswerPath(c)],
				['command line terminal', await cliTerminalPath(c)],
			];
			for (const [path, verdict] of verdicts) assertVerdict(path, c, verdict);
		});
	}
});

describe('nested values (Call Tool) are checked field by field before anything is sent', () => {
	// server-filesystem's edit_file: edits is an array of { oldText, newText }, both required.
	const editFile = {
		type: 'object',
		properties: {
			path: { type: 'string' },
			edits: {
				type: 'array',
				items: {
					type: 'object',
					properties: { oldText: { type: 'string' }, newText: { type: 'string' } },
					required: ['oldText', 'newText'],
				},
			},
		},
		required: ['path', 'edits'],
	};

	test('an item missing a required key is refused with the item and the key named', () => {
		const edits = toolFormFromSchema(editFile).fields.find((f) => f.name === 'edits')!;
		assert.equal(edits.item?.fields?.map((f) => `${f.name}${f.required ? '*' : ''}`).join(','), 'oldText*,newText*');
		const missing = convertText(edits, '[{"oldText": "a"}]');
		assert.equal(missing.ok, false);
		assert.match((missing as { error: string }).error, /item 1: newText is required/);
		const wrong = convertText(edits, '[{"oldText": "a", "newText": 2}]');
		assert.match((wrong as { error: string }).error, /item 1: newText must be text/);
		assert.deepEqual(convertText(edits, '[{"oldText": "a", "newText": "b"}]'), {
			ok: true,
			value: [{ oldText: 'a', newText: 'b' }],
		});
	});

	test('elicitation, which form mode keeps flat, refuses the same nested property as a problem', () => {
		const form = elicitationFormFromSchema(editFile);
		assert.deepEqual(
			form.problems.map((p) => [p.name, p.required]),
			[['edits', true]],
		);
	});
});
