/**
 * The form engine's rules: what a person may type into a field and what value it becomes, checked the same way for a
 * tool's arguments and an elicitation's answer, in VS Code and on the command line. Messages are one short sentence,
 * shown while typing (an input box's validation) or after a terminal answer.
 *
 * Formats are checked as simple shapes a person mistypes, not full RFC grammars: `date-time` is RFC 3339 (seconds
 * required, as JSON Schema's `date-time` asks), `date` a real calendar day, `uri` an absolute URI with a scheme.
 */
import { plural } from '../../common/text';
import { errorMessage } from '../../common/errors';
import { isJsonObject, labelOf, type FormField } from './formModel';

/** The outcome of reading one typed answer: the value to send, nothing (leave the field out), or what is wrong. */
export type Conversion = { ok: true; value: unknown } | { ok: false; error: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@.]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const TIME = /^(\d{2}):(\d{2})(:(\d{2})(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})?$/;

function validDate(text: string): boolean {
	const match = DATE.exec(text);
	if (!match) {
		return false;
	}
	const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
	const date = new Date(Date.UTC(year, month - 1, day));
	return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function validUri(text: string): boolean {
	if (!/^[a-z][a-z0-9+.-]*:\S*$/i.test(text)) return false;
	try {
		new URL(text);
		return true;
	} catch {
		return false;
	}
}

/** Each format this engine checks: the test and the sentence that says what to type. Unknown formats pass. */
const FORMATS: Record<string, { test: (value: string) => boolean; hint: string }> = {
	email: { test: (v) => EMAIL.test(v), hint: 'Enter an email address, like name@example.com' },
	uri: { test: validUri, hint: 'Enter a URI with a scheme, like https://example.com' },
	url: { test: validUri, hint: 'Enter a URL with a scheme, like https://example.com' },
	'uri-reference': { test: (v) => !/\s/.test(v), hint: 'Enter a URI reference without spaces' },
	date: { test: validDate, hint: 'Enter a date as YYYY-MM-DD, like 2025-11-25' },
	'date-time': {
		test: (v) => {
			const match = DATE_TIME.exec(v);
			return (
				match !== null &&
				validDate(match[1] ?? '') &&
				Number(match[2]) < 24 &&
				Number(match[3]) < 60 &&
				Number(match[4]) < 61
			);
		},
		hint: 'Enter a date and time as YYYY-MM-DDTHH:MM:SSZ, like 2025-11-25T14:30:00Z',
	},
	time: {
		test: (v) => {
			const match = TIME.exec(v);
			return match !== null && Number(match[1]) < 24 && Number(match[2]) < 60 && Number(match[4] ?? 0) < 61;
		},
		hint: 'Enter a time like 14:30:00',
	},
	uuid: {
		test: (v) => /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(v),
		hint: 'Enter a UUID, like 123e4567-e89b-12d3-a456-426614174000',
	},
	ipv4: {
		test: (v) => /^((25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(25[0-5]|2[0-4]\d|1?\d?\d)$/.test(v),
		hint: 'Enter an IPv4 address, like 192.168.0.1',
	},
	ipv6: { test: (v) => /^[0-9a-fA-F:.]+$/.test(v) && v.includes(':'), hint: 'Enter an IPv6 address' },
	hostname: {
		test: (v) => /^[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?)*$/.test(v),
		hint: 'Enter a host name',
	},
};

/** True for formats whose value is sent trimmed (a pasted address with a space around it is still the address). */
function trims(field: FormField): boolean {
	return field.format !== undefined && FORMATS[field.format] !== undefined;
}

/** A number's bounds as words: "between 1 and 10", "at least 1", "greater than 0 and at most 5". */
export function rangeText(field: FormField): string {
	const { minimum: lo, maximum: hi, exclusiveMinimum: exLo, exclusiveMaximum: exHi } = field;
	if (lo !== undefined && hi !== undefined && exLo === undefined && exHi === undefined) {
		return `between ${lo} and ${hi}`;
	}
	const parts: string[] = [];
	if (lo !== undefined) parts.push(`at least ${lo}`);
	if (exLo !== undefined) parts.push(`greater than ${exLo}`);
	if (hi !== undefined) parts.push(`at most ${hi}`);
	if (exHi !== undefined) parts.push(`less than ${exHi}`);
	return parts.join(' and ');
}

function checkNumber(field: FormField, value: number): string | undefined {
	if (field.kind === 'integer' && !Number.isInteger(value)) {
		return 'Enter a whole number';
	}
	const range = rangeText(field);
	// With two bounds, the whole range first (what would do), then the bound that failed.
	const fail = (what: string) =>
		range.includes(' and ') ? `Enter a number ${range} (must be ${what})` : `Must be ${what}`;
	if (field.minimum !== undefined && value < field.minimum) return fail(`at least ${field.minimum}`);
	if (field.maximum !== undefined && value > field.maximum) return fail(`at most ${field.maximum}`);
	if (field.exclusiveMinimum !== undefined && value <= field.exclusiveMinimum)
		return fail(`greater than ${field.exclusiveMinimum}`);
	if (field.exclusiveMaximum !== undefined && value >= field.exclusiveMaximum)
		return fail(`less than ${field.exclusiveMaximum}`);
	if (field.multipleOf !== undefined && field.multipleOf > 0) {
		const ratio = value / field.multipleOf;
		if (Math.abs(ratio - Math.round(ratio)) > 1e-9) {
			return `Must be a multiple of ${field.multipleOf}`;
		}
	}
	return undefined;
}

function checkString(field: FormField, value: string): string | undefined {
	const length = [...value].length;
	if (field.minLength !== undefined && length < field.minLength) {
		return `At least ${plural(field.minLength, 'character')} (now ${length})`;
	}
	if (field.maxLength !== undefined && length > field.maxLength) {
		return `At most ${plural(field.maxLength, 'character')} (now ${length})`;
	}
	if (field.pattern !== undefined) {
		let regex: RegExp | undefined;
		try {
			// JSON Schema patterns are ECMA-262 regexes, unanchored; 'u' matches the spec's Unicode semantics.
			regex = new RegExp(field.pattern, 'u');
		} catch {
			regex = undefined; // An invalid pattern from the server cannot be enforced; the server will judge.
		}
		if (regex && !regex.test(value)) {
			return `Must match the pattern ${field.pattern}`;
		}
	}
	const format = field.format !== undefined ? FORMATS[field.format] : undefined;
	if (format && !format.test(value)) {
		return format.hint;
	}
	return undefined;
}

/** What is wrong with choosing `count` items of a multi-select (or array) field, or undefined. */
export function checkCount(field: FormField, count: number): string | undefined {
	if (count === 0 && field.required && field.kind === 'multiEnum') {
		return `Choose at least ${Math.max(1, field.minItems ?? 1)}`;
	}
	if (field.minItems !== undefined && count < field.minItems && (count > 0 || field.required)) {
		return field.kind === 'multiEnum'
			? `Choose at least ${field.minItems} (now ${count})`
			: `At least ${plural(field.minItems, 'item')} (now ${count})`;
	}
	if (field.maxItems !== undefined && count > field.maxItems) {
		return field.kind === 'multiEnum'
			? `Choose at most ${field.maxItems} (now ${count})`
			: `At most ${plural(field.maxItems, 'item')} (now ${count})`;
	}
	return undefined;
}

function sameValue(a: unknown, b: unknown): boolean {
	return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function checkJson(field: FormField, value: unknown, path: string): string | undefined {
	if (field.jsonType === 'object') {
		if (!isJsonObject(value)) return `${path}Enter a JSON object, like {"key": "value"}`;
		for (const inner of field.fields ?? []) {
			const problem = checkValue(inner, value[inner.name]);
			// "newText is required" names the key already; "At least 2 characters" needs it in front.
			if (problem !== undefined)
				return problem.startsWith(inner.label) ? `${path}${problem}` : `${path}${inner.name}: ${problem}`;
		}
		return undefined;
	}
	if (field.jsonType === 'array') {
		if (!Array.isArray(value)) return `${path}Enter a JSON array, like [1, 2]`;
		const counted = checkCount(field, value.length);
		if (counted !== undefined) return `${path}${counted}`;
		if (field.item) {
			for (const [index, item] of value.entries()) {
				const problem = checkValue(field.item, item, `${path}item ${index + 1}: `);
				if (problem !== undefined) return problem;
			}
		}
	}
	return undefined;
}

/**
 * What is wrong with `value` as the value of `field` (a typed value: from a form step, a saved call, `--answer`, or
 * inside a nested JSON value), or undefined when it is acceptable. `undefined` is "not given": wrong only for a
 * required field. `path` prefixes the message for nested fields ("edits: item 1: newText: …").
 */
export function checkValue(field: FormField, value: unknown, path = ''): string | undefined {
	if (value === undefined) {
		return field.required ? `${path}${field.label} is required` : undefined;
	}
	switch (field.kind) {
		case 'string':
			return typeof value === 'string'
				? prefixed(path, checkString(field, value))
				: `${path}${field.label} must be text`;
		case 'number':
		case 'integer':
			return typeof value === 'number' && Number.isFinite(value)
				? prefixed(path, checkNumber(field, value))
				: `${path}${field.label} must be ${field.kind === 'integer' ? 'a whole number' : 'a number'}`;
		case 'boolean':
			return typeof value === 'boolean' ? undefined : `${path}${field.label} must be true or false`;
		case 'enum':
			return (field.choices ?? []).some((c) => sameValue(c.value, value)) ? undefined : `${path}${chooseOne(field)}`;
		case 'multiEnum': {
			if (!Array.isArray(value)) return `${path}${field.label} must be a list`;
			const known = (value as unknown[]).every((v) => (field.choices ?? []).some((c) => sameValue(c.value, v)));
			if (!known) return `${path}${chooseOne(field)}`;
			return prefixed(path, checkCount(field, value.length));
		}
		case 'json':
			return checkJson(field, value, path);
	}
}

function prefixed(path: string, problem: string | undefined): string | undefined {
	return problem === undefined ? undefined : `${path}${problem}`;
}

function chooseOne(field: FormField): string {
	return `Choose one of: ${(field.choices ?? []).map((c) => c.label).join(', ')}`;
}

/** Plain decimal notation only: `Number('')` is 0 and `Number('0x10')` is 16, neither is what a person meant. */
function parseNumber(text: string): number | undefined {
	const trimmed = text.trim();
	if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(trimmed)) {
		return undefined;
	}
	const value = Number(trimmed);
	return Number.isFinite(value) ? value : undefined;
}

/** The choice a typed text names: its label or its value as text (case-insensitive when nothing matches exactly). */
export function choiceNamed(field: FormField, text: string): { value: unknown } | undefined {
	const choices = field.choices ?? [];
	const exact = choices.find((c) => c.label === text || labelOf(c.value) === text);
	if (exact) return { value: exact.value };
	const lower = text.trim().toLowerCase();
	const loose = choices.filter((c) => c.label.toLowerCase() === lower || labelOf(c.value).toLowerCase() === lower);
	if (loose.length === 1) return { value: loose[0]!.value };
	if (field.kind === 'boolean' && /^(y|yes|n|no)$/.test(lower)) return { value: lower.startsWith('y') };
	return undefined;
}

/**
 * Reads the text typed for a field into the value to send, or says what is wrong in one short sentence.
 * Empty text means "no answer": `{ ok: true, value: undefined }` (leave the field out) for an optional field, and
 * "<label> is required" for a required one. Formatted strings (email, uri, date, …) are sent trimmed; other strings as
 * typed. Enums and booleans accept a choice's label or value; multi-selects a comma-separated list of them; JSON
 * fields JSON, checked against their nested fields.
 */
export function parseText(field: FormField, text: string): Conversion {
	if (text === '' || (field.kind !== 'string' && text.trim() === '')) {
		return field.required ? { ok: false, error: `${field.label} is required` } : { ok: true, value: undefined };
	}
	let value: unknown;
	switch (field.kind) {
		case 'string':
			value = trims(field) ? text.trim() : text;
			break;
		case 'number':
		case 'integer':
			value = parseNumber(text);
			if (value === undefined) {
				return { ok: false, error: field.kind === 'integer' ? 'Enter a whole number' : 'Enter a number' };
			}
			break;
		case 'enum':
		case 'boolean': {
			const choice = choiceNamed(field, text);
			if (!choice) return { ok: false, error: chooseOne(field) };
			value = choice.value;
			break;
		}
		case 'multiEnum': {
			const picked: unknown[] = [];
			for (const part of text
				.split(',')
				.map((p) => p.trim())
				.filter(Boolean)) {
				const choice = choiceNamed(field, part);
				if (!choice) return { ok: false, error: chooseOne(field) };
				if (!picked.some((p) => sameValue(p, choice.value))) picked.push(choice.value);
			}
			value = orderedChoices(field, picked);
			break;
		}
		case 'json':
			try {
				value = JSON.parse(text);
			} catch (error) {
				return { ok: false, error: `Not valid JSON: ${errorMessage(error)}` };
			}
			break;
	}
	const problem = checkValue(field, value);
	return problem === undefined ? { ok: true, value } : { ok: false, error: problem };
}

/** Chosen values in the schema's order, whatever order they were picked in. */
export function orderedChoices(field: FormField, picked: readonly unknown[]): unknown[] {
	return (field.choices ?? []).map((c) => c.value).filter((v) => picked.some((p) => sameValue(p, v)));
}

/** Sentinel for "leave this field out" (a form step's Skip). */
export const SKIP: unique symbol = Symbol('skip');

/** The value object a form sends, or the fields that keep it from being sent. */
export type Collected =
	| { ok: true; value: Record<string, unknown> }
	| { ok: false; missing: FormField[]; invalid: { field: FormField; problem: string }[] };

/**
 * Builds the object to send from the answers, in field order, leaving out unanswered and skipped optional fields.
 * Fails with the required fields that have no answer and the answers that break a rule, so a renderer's bug (or a
 * stale saved call) cannot send the server what the schema forbids.
 */
export function collectValues(fields: readonly FormField[], answers: ReadonlyMap<string, unknown>): Collected {
	const value: Record<string, unknown> = {};
	const missing: FormField[] = [];
	const invalid: { field: FormField; problem: string }[] = [];
	for (const field of fields) {
		const answer = answers.get(field.name);
		if (answer === undefined || answer === SKIP) {
			if (field.required) missing.push(field);
			continue;
		}
		const problem = checkValue(field, answer);
		if (problem !== undefined) invalid.push({ field, problem });
		else value[field.name] = answer;
	}
	return missing.length > 0 || invalid.length > 0 ? { ok: false, missing, invalid } : { ok: true, value };
}

/** The values a form starts with: every schema default (the person sees them prefilled and may change them). */
export function defaultValues(fields: readonly FormField[]): Map<string, unknown> {
	const values = new Map<string, unknown>();
	for (const field of fields) {
		if (field.default !== undefined) values.set(field.name, field.default);
	}
	return values;
}
