/**
 * Turns a tool's JSON Schema (`inputSchema`) into a list of form fields, and checks and converts what a person types.
 * Pure and vscode-free, so unit tests import it directly; `toolForm.ts` renders the fields with quick inputs.
 *
 * What it understands of JSON Schema (2020-12, the MCP default dialect): `type` (also `["x", "null"]`), `enum`,
 * `const`, `oneOf`/`anyOf` of consts (titled choices), `default`, `required`, `minimum`/`maximum` and their
 * exclusive forms, `multipleOf`, `minLength`/`maxLength`, `pattern`, `format` (email, uri, date, date-time, time,
 * uuid, ipv4, ipv6, hostname), arrays of enums (multi-pick), and local `$ref`s into `$defs`/`definitions`.
 * Anything else (nested objects, other arrays, unions) becomes a JSON field the person writes as JSON.
 */

import { plural } from '../../common/text';
import { errorMessage } from '../../common/errors';

/** How a field is asked for. */
export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'multiEnum' | 'json';

/** One choice of an `enum` field: the value sent and the label shown. */
export interface EnumChoice {
	value: unknown;
	label: string;
	description?: string;
}

/** One top-level property of the tool's input, ready to be asked for. */
export interface FieldSpec {
	name: string;
	/** `title` from the schema, else the property name. */
	label: string;
	description?: string;
	kind: FieldKind;
	required: boolean;
	/** The schema's `default`, when it has one (used to prefill, never sent unless the person keeps it). */
	default?: unknown;
	/** For `enum` and `multiEnum`. */
	choices?: EnumChoice[];
	minimum?: number;
	maximum?: number;
	exclusiveMinimum?: number;
	exclusiveMaximum?: number;
	multipleOf?: number;
	minLength?: number;
	maxLength?: number;
	pattern?: string;
	format?: string;
	/** For `json`: what the JSON must be; `any` when the schema does not say. */
	jsonType?: 'object' | 'array' | 'any';
	/** The property's own schema, shown as a hint for JSON fields. */
	schema: Record<string, unknown>;
}

/** The result of reading an input schema. */
export interface ToolForm {
	fields: FieldSpec[];
	/** True when the schema allows properties beyond `fields` (informational). */
	additional: boolean;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows a local `$ref` (`#/$defs/x`, `#/definitions/x`) up to a few hops; other refs stay as they are. */
function deref(schema: Json, root: Json): Json {
	let current = schema;
	for (let hops = 0; hops < 8 && typeof current.$ref === 'string'; hops++) {
		const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(current.$ref);
		const defs = match ? root[match[1] as string] : undefined;
		const target =
			match && isObject(defs)
				? defs[decodeURIComponent((match[2] as string).replace(/~1/g, '/').replace(/~0/g, '~'))]
				: undefined;
		if (!isObject(target)) {
			break;
		}
		const { $ref: _ref, ...rest } = current;
		current = { ...target, ...rest };
	}
	return current;
}

/** The single non-null type of a schema, if it has one. */
function singleType(schema: Json): string | undefined {
	const type = schema.type;
	if (typeof type === 'string') {
		return type;
	}
	if (Array.isArray(type)) {
		const nonNull = type.filter((t) => t !== 'null');
		return nonNull.length === 1 && typeof nonNull[0] === 'string' ? nonNull[0] : undefined;
	}
	return undefined;
}

function labelOf(value: unknown): string {
	return typeof value === 'string' ? value : JSON.stringify(value);
}

/** `enum`, `const`, or `oneOf`/`anyOf` whose members are all `const` (optionally titled). */
function choicesOf(schema: Json): EnumChoice[] | undefined {
	if (Array.isArray(schema.enum)) {
		const names = Array.isArray(schema.enumNames) ? schema.enumNames : undefined;
		return schema.enum.map((value: unknown, i) => ({
			value,
			label: typeof names?.[i] === 'string' ? names[i] : labelOf(value),
		}));
	}
	if ('const' in schema) {
		return [{ value: schema.const, label: labelOf(schema.const) }];
	}
	const members = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
	if (members && members.length > 0 && members.every((m) => isObject(m) && 'const' in m)) {
		return (members as Json[]).map((m) => {
			const choice: EnumChoice = { value: m.const, label: typeof m.title === 'string' ? m.title : labelOf(m.const) };
			if (typeof m.description === 'string') {
				choice.description = m.description;
			}
			return choice;
		});
	}
	return undefined;
}

function num(value: unknown): number | undefined {
	return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function fieldFrom(name: string, raw: Json, root: Json, required: boolean): FieldSpec {
	const schema = deref(raw, root);
	const field: FieldSpec = {
		name,
		label: typeof schema.title === 'string' ? schema.title : name,
		kind: 'json',
		required,
		schema,
	};
	if (typeof schema.description === 'string') {
		field.description = schema.description;
	}
	if ('default' in schema) {
		field.default = schema.default;
	}
	const choices = choicesOf(schema);
	const type = singleType(schema);
	if (choices) {
		field.kind = 'enum';
		field.choices = choices;
		return field;
	}
	switch (type) {
		case 'string':
		case 'number':
		case 'integer':
			field.kind = type;
			break;
		case 'boolean':
			field.kind = 'boolean';
			field.choices = [
				{ value: true, label: 'true' },
				{ value: false, label: 'false' },
			];
			return field;
		case 'array': {
			const items = isObject(schema.items) ? deref(schema.items, root) : undefined;
			const itemChoices = items ? choicesOf(items) : undefined;
			if (itemChoices) {
				field.kind = 'multiEnum';
				field.choices = itemChoices;
				return field;
			}
			field.jsonType = 'array';
			return field;
		}
		case 'object':
			field.jsonType = 'object';
			return field;
		default:
			field.jsonType = 'any';
			return field;
	}
	const set = <
		K extends
			'minimum' | 'maximum' | 'exclusiveMinimum' | 'exclusiveMaximum' | 'multipleOf' | 'minLength' | 'maxLength',
	>(
		key: K,
	) => {
		const value = num(schema[key]);
		if (value !== undefined) {
			field[key] = value;
		}
	};
	if (field.kind === 'string') {
		set('minLength');
		set('maxLength');
		if (typeof schema.pattern === 'string') {
			field.pattern = schema.pattern;
		}
		if (typeof schema.format === 'string') {
			field.format = schema.format;
		}
	} else {
		set('minimum');
		set('maximum');
		set('exclusiveMinimum');
		set('exclusiveMaximum');
		set('multipleOf');
	}
	return field;
}

/**
 * Reads a tool's `inputSchema` into form fields, required ones first, each group in the schema's order.
 * Never throws: a schema that is not an object, or has no `properties`, gives no fields.
 */
export function formFromSchema(inputSchema: unknown): ToolForm {
	if (!isObject(inputSchema)) {
		return { fields: [], additional: true };
	}
	const root = inputSchema;
	const schema = deref(root, root);
	const properties = isObject(schema.properties) ? schema.properties : {};
	const required = new Set(
		Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [],
	);
	const fields: FieldSpec[] = [];
	for (const [name, property] of Object.entries(properties)) {
		fields.push(fieldFrom(name, isObject(property) ? property : {}, root, required.has(name)));
	}
	fields.sort((a, b) => Number(b.required) - Number(a.required));
	return { fields, additional: schema.additionalProperties !== false };
}

// Format checks: deliberately simple shapes (what a person mistypes), not full RFC grammars.
const formats: Record<string, { test: (value: string) => boolean; hint: string }> = {
	email: { test: (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), hint: 'an email address like name@example.com' },
	uri: { test: (v) => /^[a-zA-Z][a-zA-Z0-9+.-]*:\S*$/.test(v), hint: 'a URI with a scheme, like https://example.com' },
	'uri-reference': { test: (v) => !/\s/.test(v), hint: 'a URI reference without spaces' },
	url: { test: (v) => /^[a-zA-Z][a-zA-Z0-9+.-]*:\S*$/.test(v), hint: 'a URL with a scheme, like https://example.com' },
	date: { test: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)), hint: 'a date like 2025-11-25' },
	'date-time': {
		test: (v) =>
			/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})$/.test(v) &&
			!Number.isNaN(Date.parse(v)),
		hint: 'a date and time like 2025-11-25T14:30:00Z',
	},
	time: { test: (v) => /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})?$/.test(v), hint: 'a time like 14:30:00' },
	uuid: {
		test: (v) => /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(v),
		hint: 'a UUID',
	},
	ipv4: {
		test: (v) => /^((25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(25[0-5]|2[0-4]\d|1?\d?\d)$/.test(v),
		hint: 'an IPv4 address like 192.168.0.1',
	},
	ipv6: { test: (v) => /^[0-9a-fA-F:.]+$/.test(v) && v.includes(':'), hint: 'an IPv6 address' },
	hostname: {
		test: (v) => /^[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?)*$/.test(v),
		hint: 'a host name',
	},
};

/** The outcome of converting one typed answer. */
export type Conversion = { ok: true; value: unknown } | { ok: false; error: string };

function checkNumber(field: FieldSpec, value: number): string | undefined {
	if (field.kind === 'integer' && !Number.isInteger(value)) {
		return 'Enter a whole number';
	}
	if (field.minimum !== undefined && value < field.minimum) {
		return `Must be at least ${field.minimum}`;
	}
	if (field.maximum !== undefined && value > field.maximum) {
		return `Must be at most ${field.maximum}`;
	}
	if (field.exclusiveMinimum !== undefined && value <= field.exclusiveMinimum) {
		return `Must be greater than ${field.exclusiveMinimum}`;
	}
	if (field.exclusiveMaximum !== undefined && value >= field.exclusiveMaximum) {
		return `Must be less than ${field.exclusiveMaximum}`;
	}
	if (field.multipleOf !== undefined && field.multipleOf > 0) {
		const ratio = value / field.multipleOf;
		if (Math.abs(ratio - Math.round(ratio)) > 1e-9) {
			return `Must be a multiple of ${field.multipleOf}`;
		}
	}
	return undefined;
}

function checkString(field: FieldSpec, value: string): string | undefined {
	const length = [...value].length;
	if (field.minLength !== undefined && length < field.minLength) {
		return `Must be at least ${plural(field.minLength, 'character')}`;
	}
	if (field.maxLength !== undefined && length > field.maxLength) {
		return `Must be at most ${plural(field.maxLength, 'character')}`;
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
	const format = field.format !== undefined ? formats[field.format] : undefined;
	if (format && !format.test(value)) {
		return `Enter ${format.hint}`;
	}
	return undefined;
}

function checkJson(field: FieldSpec, value: unknown): string | undefined {
	if (field.jsonType === 'object' && !isObject(value)) {
		return 'Enter a JSON object, like {"key": "value"}';
	}
	if (field.jsonType === 'array' && !Array.isArray(value)) {
		return 'Enter a JSON array, like [1, 2]';
	}
	return undefined;
}

/**
 * Converts the text typed for a string, number, integer or JSON field into the value to send, or says what is wrong
 * in one short sentence (shown as the input box's validation message while typing).
 * Empty text is not handled here: the form decides whether it means "skip" (optional fields) or "required".
 */
export function convertText(field: FieldSpec, text: string): Conversion {
	switch (field.kind) {
		case 'string': {
			const error = checkString(field, text);
			return error ? { ok: false, error } : { ok: true, value: text };
		}
		case 'number':
		case 'integer': {
			const trimmed = text.trim();
			const value = trimmed === '' ? Number.NaN : Number(trimmed);
			if (!Number.isFinite(value)) {
				return { ok: false, error: field.kind === 'integer' ? 'Enter a whole number' : 'Enter a number' };
			}
			const error = checkNumber(field, value);
			return error ? { ok: false, error } : { ok: true, value };
		}
		case 'json': {
			let value: unknown;
			try {
				value = JSON.parse(text);
			} catch (error) {
				return { ok: false, error: `Not valid JSON: ${errorMessage(error)}` };
			}
			const problem = checkJson(field, value);
			return problem ? { ok: false, error: problem } : { ok: true, value };
		}
		case 'enum':
		case 'multiEnum':
		case 'boolean': {
			// Picked from a list in the form; typed text is accepted when it names a choice (used by Run Again edits).
			const choice = field.choices?.find((c) => c.label === text || labelOf(c.value) === text);
			return choice
				? { ok: true, value: choice.value }
				: { ok: false, error: `Choose one of: ${(field.choices ?? []).map((c) => c.label).join(', ')}` };
		}
	}
}

/**
 * The text an input box starts with for a field: the schema default (or a previous answer) in the form the person
 * would type it, or an empty object/array skeleton for JSON fields. Empty string when there is nothing to prefill.
 */
export function initialText(field: FieldSpec, previous?: unknown): string {
	const value = previous !== undefined ? previous : field.default;
	if (value === undefined) {
		if (field.kind === 'json') {
			return field.jsonType === 'array' ? '[]' : field.jsonType === 'object' ? '{}' : '';
		}
		return '';
	}
	if (field.kind === 'string' && typeof value === 'string') {
		return value;
	}
	return field.kind === 'json'
		? JSON.stringify(value, null, 0)
		: typeof value === 'string'
			? value
			: JSON.stringify(value);
}

/** The prompt line under an input box: description plus the constraints the person must meet. */
export function describeField(field: FieldSpec): string {
	const parts: string[] = [];
	if (field.description) {
		parts.push(/[.!?:)]$/.test(field.description.trim()) ? field.description.trim() : `${field.description.trim()}.`);
	}
	const limits: string[] = [];
	const range = (
		lo: number | undefined,
		hi: number | undefined,
		exLo: number | undefined,
		exHi: number | undefined,
	) => {
		if (lo !== undefined) limits.push(`≥ ${lo}`);
		if (exLo !== undefined) limits.push(`> ${exLo}`);
		if (hi !== undefined) limits.push(`≤ ${hi}`);
		if (exHi !== undefined) limits.push(`< ${exHi}`);
	};
	switch (field.kind) {
		case 'number':
		case 'integer':
			limits.push(field.kind);
			range(field.minimum, field.maximum, field.exclusiveMinimum, field.exclusiveMaximum);
			if (field.multipleOf !== undefined) limits.push(`multiple of ${field.multipleOf}`);
			break;
		case 'string':
			if (field.format) limits.push(field.format);
			if (field.minLength !== undefined) limits.push(`min length ${field.minLength}`);
			if (field.maxLength !== undefined) limits.push(`max length ${field.maxLength}`);
			if (field.pattern) limits.push(`pattern ${field.pattern}`);
			break;
		case 'json':
			limits.push(field.jsonType === 'any' ? 'JSON' : `JSON ${field.jsonType}`);
			break;
		default:
			break;
	}
	if (limits.length > 0) {
		parts.push(`(${limits.join(', ')})`);
	}
	parts.push(field.required ? 'Required.' : 'Optional: leave empty or press Skip to leave it out.');
	return parts.join(' ');
}

/** Sentinel for "leave this argument out". */
export const SKIP: unique symbol = Symbol('skip');

/**
 * Builds the `arguments` object from the answers, in field order, leaving out skipped fields.
 * Fails (with the field names) when a required field has no answer.
 */
export function buildArguments(
	fields: readonly FieldSpec[],
	answers: ReadonlyMap<string, unknown>,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
	const value: Record<string, unknown> = {};
	const missing: string[] = [];
	for (const field of fields) {
		const answer = answers.get(field.name);
		if (answer === undefined || answer === SKIP) {
			if (field.required) {
				missing.push(field.name);
			}
			continue;
		}
		value[field.name] = answer;
	}
	return missing.length > 0
		? { ok: false, error: `Missing required argument${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}` }
		: { ok: true, value };
}
