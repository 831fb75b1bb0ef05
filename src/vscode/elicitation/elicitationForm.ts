/**
 * The pure half of form-mode elicitation: turns a `requestedSchema` into form fields, validates what the user types
 * as they type it, and converts answers into values of the schema's types. No `vscode` here, so every rule is unit
 * tested in plain Node; elicitation.ts only draws these fields as quick inputs.
 *
 * Spec (2025-11-25, form mode): https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation
 * "The schema is restricted to flat objects with primitive properties only": string (minLength, maxLength, format
 * email | uri | date | date-time), number / integer (minimum, maximum), boolean, single-select enums (`enum`,
 * `oneOf` of `{ const, title }`, the legacy `enumNames`) and multi-select arrays (`items.enum`, `items.anyOf`,
 * minItems, maxItems), each with an optional `default`.
 */

import { plural } from '../../common/text';

/** A value the client may send back in `content`. */
export type FormValue = string | number | boolean | string[];

export type StringFormat = 'email' | 'uri' | 'date' | 'date-time';

/** One choice of an enum field: the value sent and the label shown. */
export interface FormOption {
	value: string;
	label: string;
}

interface FieldBase {
	/** The property name (the key in `content`). */
	name: string;
	/** What the user sees: the schema's `title`, else the property name. */
	label: string;
	description: string | undefined;
	required: boolean;
	/** True when the name, title or description suggests a password or other secret (see {@link looksSecret}). */
	secret: boolean;
}

export type FormField =
	| (FieldBase & { kind: 'string'; minLength?: number; maxLength?: number; format?: StringFormat; default?: string })
	| (FieldBase & { kind: 'number' | 'integer'; minimum?: number; maximum?: number; default?: number })
	| (FieldBase & { kind: 'boolean'; default?: boolean })
	| (FieldBase & { kind: 'enum'; options: FormOption[]; default?: string })
	| (FieldBase & {
			kind: 'multiEnum';
			options: FormOption[];
			minItems?: number;
			maxItems?: number;
			default?: string[];
	  });

/** The fields of a form, and the properties that could not be turned into one (with why). */
export interface FormModel {
	fields: FormField[];
	/** One line per unsupported property, naming it. A required unsupported property makes the form unanswerable. */
	problems: { name: string; required: boolean; message: string }[];
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function str(value: unknown): string | undefined {
	return typeof value === 'string' ? value : undefined;
}
function num(value: unknown): number | undefined {
	return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
function nonNegInt(value: unknown): number | undefined {
	return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** Words that mark a secret wherever they appear. */
const SECRET_WORDS =
	/\b(passwords?|passphrases?|passwd|passcodes?|secrets?|api ?keys?|apikeys?|access ?tokens?|auth ?tokens?|bearer ?tokens?|refresh ?tokens?|private ?keys?|credentials?)\b/;
/** Short words that mark a secret only in a field's name or title: in prose ("do not give us your pin") they mislead. */
const SECRET_NAMES = /\b(pwd|pass|token|pin|otp|ssn|cvv|cvc|security code)\b/;

function words(text: string): string {
	return text
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.replace(/[_\-.]+/g, ' ')
		.toLowerCase();
}

/**
 * True when a field's name, title or description suggests a password or secret. camelCase, snake_case and
 * kebab-case names are split into words first, so `apiKey`, `api_key` and `client-secret` match while
 * `passenger` or `tokenizer` do not; short words such as "pin" count only in the name or title, because
 * descriptions often say "do not enter your pin". The spec says servers "MUST NOT request sensitive
 * information" through form mode; the presenter still asks (the user decides) but masks the input and says so plainly.
 */
export function looksSecret(name: string, title?: string, description?: string): boolean {
	const label = words(`${name} ${title ?? ''}`);
	return SECRET_WORDS.test(label) || SECRET_NAMES.test(label) || SECRET_WORDS.test(words(description ?? ''));
}

function optionsFromEnum(values: unknown, names: unknown): FormOption[] | undefined {
	if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === 'string')) {
		return undefined;
	}
	const labels = Array.isArray(names) ? names : [];
	return values.map((value, i) => ({ value, label: str(labels[i]) ?? value }));
}

function optionsFromConsts(list: unknown): FormOption[] | undefined {
	if (!Array.isArray(list) || list.length === 0) {
		return undefined;
	}
	const options: FormOption[] = [];
	for (const entry of list) {
		const value = isObject(entry) ? str(entry.const) : undefined;
		if (value === undefined || !isObject(entry)) {
			return undefined;
		}
		options.push({ value, label: str(entry.title) ?? value });
	}
	return options;
}

function fieldFromProperty(name: string, prop: Json, required: boolean): FormField | string {
	const label = str(prop.title) ?? name;
	const description = str(prop.description);
	const base: FieldBase = {
		name,
		label,
		description,
		required,
		secret: looksSecret(name, str(prop.title), description),
	};
	const type = prop.type;
	if (type === 'string') {
		const fromEnum = optionsFromEnum(prop.enum, prop.enumNames);
		const fromOneOf = optionsFromConsts(prop.oneOf) ?? optionsFromConsts(prop.anyOf);
		const options = fromOneOf ?? fromEnum;
		if (options) {
			const def = str(prop.default);
			return {
				...base,
				kind: 'enum',
				options,
				...(def !== undefined && options.some((o) => o.value === def) ? { default: def } : {}),
			};
		}
		if (prop.enum !== undefined || prop.oneOf !== undefined) {
			return `"${name}" has an enum this client cannot read`;
		}
		const format = str(prop.format);
		const field: FormField = { ...base, kind: 'string' };
		if (format === 'email' || format === 'uri' || format === 'date' || format === 'date-time') {
			field.format = format;
		}
		const minLength = nonNegInt(prop.minLength);
		const maxLength = nonNegInt(prop.maxLength);
		const def = str(prop.default);
		if (minLength !== undefined) field.minLength = minLength;
		if (maxLength !== undefined) field.maxLength = maxLength;
		if (def !== undefined) field.default = def;
		return field;
	}
	if (type === 'number' || type === 'integer') {
		const field: FormField = { ...base, kind: type };
		const minimum = num(prop.minimum);
		const maximum = num(prop.maximum);
		const def = num(prop.default);
		if (minimum !== undefined) field.minimum = minimum;
		if (maximum !== undefined) field.maximum = maximum;
		if (def !== undefined && (type === 'number' || Number.isInteger(def))) field.default = def;
		return field;
	}
	if (type === 'boolean') {
		return typeof prop.default === 'boolean'
			? { ...base, kind: 'boolean', default: prop.default }
			: { ...base, kind: 'boolean' };
	}
	if (type === 'array') {
		const items = isObject(prop.items) ? prop.items : {};
		const options =
			optionsFromConsts(items.anyOf) ?? optionsFromConsts(items.oneOf) ?? optionsFromEnum(items.enum, items.enumNames);
		if (!options) {
			return `"${name}" is an array without a list of choices (items.enum or items.anyOf)`;
		}
		const field: FormField = { ...base, kind: 'multiEnum', options };
		const minItems = nonNegInt(prop.minItems);
		const maxItems = nonNegInt(prop.maxItems);
		if (minItems !== undefined) field.minItems = minItems;
		if (maxItems !== undefined) field.maxItems = maxItems;
		if (Array.isArray(prop.default)) {
			const known = new Set(options.map((o) => o.value));
			field.default = prop.default.filter((v): v is string => typeof v === 'string' && known.has(v));
		}
		return field;
	}
	return `"${name}" has type ${JSON.stringify(type)}, which form elicitation does not allow`;
}

/**
 * The fields of `requestedSchema`, in the order of its `properties`. Never throws: a property this client cannot
 * draw (nested object, unknown type) becomes a problem instead of a field.
 */
export function formFromSchema(requestedSchema: { properties?: unknown; required?: unknown }): FormModel {
	const properties = isObject(requestedSchema.properties) ? requestedSchema.properties : {};
	const required = new Set(
		Array.isArray(requestedSchema.required)
			? requestedSchema.required.filter((r): r is string => typeof r === 'string')
			: [],
	);
	const model: FormModel = { fields: [], problems: [] };
	for (const [name, prop] of Object.entries(properties)) {
		const result = isObject(prop) ? fieldFromProperty(name, prop, required.has(name)) : `"${name}" is not a schema`;
		if (typeof result === 'string') {
			model.problems.push({ name, required: required.has(name), message: result });
		} else {
			model.fields.push(result);
		}
	}
	return model;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@.]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function validDate(text: string): boolean {
	const match = DATE.exec(text);
	if (!match) {
		return false;
	}
	const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
	const date = new Date(Date.UTC(year, month - 1, day));
	return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function formatProblem(format: StringFormat, text: string): string | undefined {
	switch (format) {
		case 'email':
			return EMAIL.test(text) ? undefined : 'Enter an email address, like name@example.com';
		case 'uri': {
			if (!/^[a-z][a-z0-9+.-]*:/i.test(text)) {
				return 'Enter a URI with a scheme, like https://example.com';
			}
			try {
				new URL(text);
				return undefined;
			} catch {
				return 'Enter a valid URI, like https://example.com';
			}
		}
		case 'date':
			return validDate(text) ? undefined : 'Enter a date as YYYY-MM-DD, like 2025-11-25';
		case 'date-time': {
			const match = DATE_TIME.exec(text);
			const ok =
				match !== null &&
				validDate(match[1] ?? '') &&
				Number(match[2]) < 24 &&
				Number(match[3]) < 60 &&
				Number(match[4]) < 61;
			return ok ? undefined : 'Enter a date and time as YYYY-MM-DDTHH:MM:SSZ, like 2025-11-25T14:30:00Z';
		}
	}
}

/** A number's bounds as words, e.g. "between 1 and 10". */
function rangeText(minimum: number | undefined, maximum: number | undefined): string {
	if (minimum !== undefined && maximum !== undefined) return `between ${minimum} and ${maximum}`;
	if (minimum !== undefined) return `at least ${minimum}`;
	if (maximum !== undefined) return `at most ${maximum}`;
	return '';
}

/**
 * What is wrong with `text` typed into a string, number or integer field, or undefined when it is acceptable.
 * Empty text is acceptable for an optional field (it means "leave it out") and is "required" for a required one.
 * Lengths count characters (code points), not UTF-16 units. Used as the input box's validation as the user types.
 */
export function validateText(field: FormField, text: string): string | undefined {
	if (text === '') {
		return field.required ? `${field.label} is required` : undefined;
	}
	if (field.kind === 'string') {
		const length = [...text].length;
		if (field.minLength !== undefined && length < field.minLength) {
			return `At least ${plural(field.minLength, 'character')} (now ${length})`;
		}
		if (field.maxLength !== undefined && length > field.maxLength) {
			return `At most ${plural(field.maxLength, 'character')} (now ${length})`;
		}
		return field.format ? formatProblem(field.format, text.trim()) : undefined;
	}
	if (field.kind === 'number' || field.kind === 'integer') {
		const value = parseNumber(text);
		if (value === undefined) {
			return field.kind === 'integer' ? 'Enter a whole number' : 'Enter a number';
		}
		if (field.kind === 'integer' && !Number.isInteger(value)) {
			return 'Enter a whole number';
		}
		if (
			(field.minimum !== undefined && value < field.minimum) ||
			(field.maximum !== undefined && value > field.maximum)
		) {
			return `Enter a number ${rangeText(field.minimum, field.maximum)}`;
		}
		return undefined;
	}
	return undefined;
}

function parseNumber(text: string): number | undefined {
	const trimmed = text.trim();
	// Number('') is 0 and Number('0x10') is 16: accept only plain decimal notation.
	if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(trimmed)) {
		return undefined;
	}
	const value = Number(trimmed);
	return Number.isFinite(value) ? value : undefined;
}

/**
 * The typed value of valid `text` for a string, number or integer field; undefined for empty text (skip).
 * Strings are sent as typed, except formatted ones (email, uri, date, date-time), which are trimmed.
 * Throws only when `text` fails {@link validateText}.
 */
export function valueFromText(field: FormField, text: string): FormValue | undefined {
	const problem = validateText(field, text);
	if (problem !== undefined) {
		throw new Error(problem);
	}
	if (text === '') {
		return undefined;
	}
	if (field.kind === 'number' || field.kind === 'integer') {
		return parseNumber(text);
	}
	if (field.kind === 'string' && field.format) {
		return text.trim();
	}
	return text;
}

/** What is wrong with a multi-select choice of `count` items, or undefined. None chosen skips an optional field. */
export function validateSelection(field: FormField, count: number): string | undefined {
	if (field.kind !== 'multiEnum') {
		return undefined;
	}
	if (count === 0) {
		return field.required ? `Choose at least ${Math.max(1, field.minItems ?? 1)}` : undefined;
	}
	if (field.minItems !== undefined && count < field.minItems) {
		return `Choose at least ${field.minItems} (now ${count})`;
	}
	if (field.maxItems !== undefined && count > field.maxItems) {
		return `Choose at most ${field.maxItems} (now ${count})`;
	}
	return undefined;
}

/** The text to prefill an input box with: the current answer, else the schema default, else empty. */
export function initialText(field: FormField, current: FormValue | undefined): string {
	const value = current ?? field.default;
	if (value === undefined || Array.isArray(value)) {
		return '';
	}
	return String(value);
}

/** A value as the review step shows it: enum labels instead of raw values, "(not set)" for a skipped field. */
export function displayValue(field: FormField, value: FormValue | undefined): string {
	if (value === undefined) {
		return '(not set)';
	}
	if (field.secret && typeof value === 'string') {
		return '•'.repeat(Math.min(12, Math.max(4, value.length)));
	}
	const label = (v: string) =>
		field.kind === 'enum' || field.kind === 'multiEnum' ? (field.options.find((o) => o.value === v)?.label ?? v) : v;
	if (Array.isArray(value)) {
		return value.length === 0 ? '(none)' : value.map(label).join(', ');
	}
	return typeof value === 'string' ? label(value) : String(value);
}

/** A one-line hint for a field: type, bounds and format, e.g. "integer between 1 and 10" or "email, required". */
export function fieldHint(field: FormField): string {
	const parts: string[] = [];
	switch (field.kind) {
		case 'string': {
			parts.push(field.format ?? 'text');
			if (field.minLength !== undefined && field.maxLength !== undefined)
				parts.push(`${field.minLength}–${field.maxLength} characters`);
			else if (field.minLength !== undefined) parts.push(`at least ${plural(field.minLength, 'character')}`);
			else if (field.maxLength !== undefined) parts.push(`at most ${plural(field.maxLength, 'character')}`);
			break;
		}
		case 'number':
		case 'integer': {
			const range = rangeText(field.minimum, field.maximum);
			parts.push(
				range
					? `${field.kind === 'integer' ? 'whole number' : 'number'} ${range}`
					: field.kind === 'integer'
						? 'whole number'
						: 'number',
			);
			break;
		}
		case 'boolean':
			parts.push('yes or no');
			break;
		case 'enum':
			parts.push('choose one');
			break;
		case 'multiEnum': {
			const { minItems: lo, maxItems: hi } = field;
			parts.push(
				lo !== undefined && hi !== undefined
					? `choose ${lo}–${hi}`
					: lo !== undefined
						? `choose at least ${lo}`
						: hi !== undefined
							? `choose up to ${hi}`
							: 'choose any',
			);
			break;
		}
	}
	parts.push(field.required ? 'required' : 'optional');
	return parts.join(', ');
}

/**
 * The answer's `content`: only the fields with a value, in schema order. Throws when a required field has no value
 * or a value has the wrong type, so a bug in the presenter cannot send the server something the schema forbids.
 */
export function buildContent(
	fields: readonly FormField[],
	values: ReadonlyMap<string, FormValue>,
): Record<string, FormValue> {
	const content: Record<string, FormValue> = {};
	for (const field of fields) {
		const value = values.get(field.name);
		if (value === undefined) {
			if (field.required) {
				throw new Error(`${field.label} is required`);
			}
			continue;
		}
		const ok =
			field.kind === 'string' || field.kind === 'enum'
				? typeof value === 'string'
				: field.kind === 'number' || field.kind === 'integer'
					? typeof value === 'number'
					: field.kind === 'boolean'
						? typeof value === 'boolean'
						: Array.isArray(value);
		if (!ok) {
			throw new Error(`${field.label} has a value of the wrong type`);
		}
		content[field.name] = value;
	}
	return content;
}

/** The values the form starts with: every schema default (the user sees them prefilled and may change them). */
export function defaultValues(fields: readonly FormField[]): Map<string, FormValue> {
	const values = new Map<string, FormValue>();
	for (const field of fields) {
		if (field.default !== undefined) {
			values.set(field.name, field.default);
		}
	}
	return values;
}
