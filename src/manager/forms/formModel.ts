/**
 * The form engine's field model: a JSON Schema (a tool's `inputSchema`, an elicitation's `requestedSchema`) read into
 * fields a person can fill in. One reading for every caller (Call Tool, the history's Edit and Run Again, `@mcp /call`,
 * elicitation in VS Code and on the command line), so a value is judged the same wherever it is typed; renderers
 * (quick inputs, terminal prompts) differ, the rules here and in formRules.ts do not. Plain Node, no `vscode`.
 *
 * What it understands of JSON Schema (2020-12, the MCP default dialect): `type` (also `["x", "null"]`), `enum`,
 * `const`, `oneOf`/`anyOf` of consts (titled choices), legacy `enumNames`, `default`, `required`,
 * `minimum`/`maximum` and their exclusive forms, `multipleOf`, `minLength`/`maxLength`, `pattern`, `format`, arrays
 * of choices (multi-select, `minItems`/`maxItems`), local `$ref`s into `$defs`/`definitions`, and nested objects and
 * arrays (their properties and item schema, read to a few levels, so a nested value is checked field by field).
 * Anything else is a `json` field whose value is any JSON.
 */

/** How a field is asked for. */
export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'multiEnum' | 'json';

/** One choice of an enum field: the value sent and the label shown. */
export interface Choice {
	value: unknown;
	label: string;
	description?: string;
}

/** One property of a schema, ready to be asked for. */
export interface FormField {
	/** The property name (the key in the value sent). */
	name: string;
	/** `title` from the schema, else the property name. */
	label: string;
	description?: string;
	kind: FieldKind;
	required: boolean;
	/** The schema's `default` when it is a valid value of the field (an invalid default is dropped). */
	default?: unknown;
	/** For `enum`, `multiEnum` and `boolean`. */
	choices?: Choice[];
	minimum?: number;
	maximum?: number;
	exclusiveMinimum?: number;
	exclusiveMaximum?: number;
	multipleOf?: number;
	minLength?: number;
	maxLength?: number;
	pattern?: string;
	format?: string;
	/** For `multiEnum` and arrays. */
	minItems?: number;
	maxItems?: number;
	/** For `json`: what the JSON must be; `any` when the schema does not say. */
	jsonType?: 'object' | 'array' | 'any';
	/** For a `json` object with `properties`: its fields, in schema order. */
	fields?: FormField[];
	/** For a `json` array with an item schema: the field one item is (named `item`). */
	item?: FormField;
	/** True when the input should be masked: a password or other secret (see {@link looksSecret}). */
	secret: boolean;
	/** The property's own schema (after `$ref`), shown as a hint for JSON fields. */
	schema: Record<string, unknown>;
}

/** A schema read into fields. */
export interface FormModel {
	/** In the schema's order. */
	fields: FormField[];
	/** True when the schema allows properties beyond `fields` (informational). */
	additional: boolean;
}

type Json = Record<string, unknown>;

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Json {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows a local `$ref` (`#/$defs/x`, `#/definitions/x`) up to a few hops; other refs stay as they are. */
function deref(schema: Json, root: Json): Json {
	let current = schema;
	for (let hops = 0; hops < 8 && typeof current.$ref === 'string'; hops++) {
		const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(current.$ref);
		const defs = match ? root[match[1] as string] : undefined;
		const target =
			match && isJsonObject(defs)
				? defs[decodeURIComponent((match[2] as string).replace(/~1/g, '/').replace(/~0/g, '~'))]
				: undefined;
		if (!isJsonObject(target)) {
			break;
		}
		const { $ref: _ref, ...rest } = current;
		current = { ...target, ...rest };
	}
	return current;
}

/** The single non-null type of a schema, if it has one. */
export function singleType(schema: Json): string | undefined {
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

/** A value as a label: strings as themselves, anything else as JSON. */
export function labelOf(value: unknown): string {
	return typeof value === 'string' ? value : JSON.stringify(value);
}

/** `enum` (with legacy `enumNames`), `const`, or `oneOf`/`anyOf` whose members are all `const` (optionally titled). */
export function choicesOf(schema: Json): Choice[] | undefined {
	const members = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
	if (members && members.length > 0 && members.every((m) => isJsonObject(m) && 'const' in m)) {
		return (members as Json[]).map((m) => {
			const choice: Choice = { value: m.const, label: typeof m.title === 'string' ? m.title : labelOf(m.const) };
			if (typeof m.description === 'string') {
				choice.description = m.description;
			}
			return choice;
		});
	}
	if (Array.isArray(schema.enum) && schema.enum.length > 0) {
		const names = Array.isArray(schema.enumNames) ? schema.enumNames : undefined;
		return schema.enum.map((value: unknown, i) => ({
			value,
			label: typeof names?.[i] === 'string' ? names[i] : labelOf(value),
		}));
	}
	if ('const' in schema) {
		return [{ value: schema.const, label: labelOf(schema.const) }];
	}
	return undefined;
}

function finite(value: unknown): number | undefined {
	return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function count(value: unknown): number | undefined {
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
 * descriptions often say "do not enter your pin". The elicitation spec says servers "MUST NOT request sensitive
 * information" through form mode; a renderer still asks (the user decides) but masks the input and says so plainly.
 */
export function looksSecret(name: string, title?: string, description?: string): boolean {
	const label = words(`${name} ${title ?? ''}`);
	return SECRET_WORDS.test(label) || SECRET_NAMES.test(label) || SECRET_WORDS.test(words(description ?? ''));
}

/** How deep nested objects and arrays are read into fields; deeper values are plain JSON (and recursive schemas end). */
const MAX_DEPTH = 4;

function setNumbers(field: FormField, schema: Json, keys: readonly (keyof FormField & keyof Json)[]): void {
	for (const key of keys) {
		const value = key === 'minLength' || key === 'maxLength' ? count(schema[key]) : finite(schema[key]);
		if (value !== undefined) {
			(field as unknown as Record<string, unknown>)[key] = value;
		}
	}
}

/** Reads one property's schema into a field (the default is checked later by the rules, see formRules.ts). */
export function fieldFrom(name: string, raw: Json, root: Json, required: boolean, depth = 0): FormField {
	const schema = deref(raw, root);
	const title = typeof schema.title === 'string' ? schema.title : undefined;
	const description = typeof schema.description === 'string' ? schema.description : undefined;
	const field: FormField = {
		name,
		label: title ?? name,
		kind: 'json',
		required,
		secret: schema.format === 'password' || schema.writeOnly === true || looksSecret(name, title, description),
		schema,
	};
	if (description !== undefined) field.description = description;
	if ('default' in schema) field.default = schema.default;
	const choices = choicesOf(schema);
	if (choices) {
		field.kind = 'enum';
		field.choices = choices;
		return field;
	}
	const type = singleType(schema);
	switch (type) {
		case 'string':
			field.kind = 'string';
			setNumbers(field, schema, ['minLength', 'maxLength']);
			if (typeof schema.pattern === 'string') field.pattern = schema.pattern;
			if (typeof schema.format === 'string') field.format = schema.format;
			return field;
		case 'number':
		case 'integer':
			field.kind = type;
			setNumbers(field, schema, ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']);
			return field;
		case 'boolean':
			field.kind = 'boolean';
			field.choices = [
				{ value: true, label: 'true' },
				{ value: false, label: 'false' },
			];
			return field;
		case 'array': {
			const minItems = count(schema.minItems);
			const maxItems = count(schema.maxItems);
			if (minItems !== undefined) field.minItems = minItems;
			if (maxItems !== undefined) field.maxItems = maxItems;
			const items = isJsonObject(schema.items) ? deref(schema.items, root) : undefined;
			const itemChoices = items ? choicesOf(items) : undefined;
			if (itemChoices) {
				field.kind = 'multiEnum';
				field.choices = itemChoices;
				return field;
			}
			field.jsonType = 'array';
			if (items && depth < MAX_DEPTH) field.item = fieldFrom('item', items, root, true, depth + 1);
			return field;
		}
		case 'object':
			field.jsonType = 'object';
			if (isJsonObject(schema.properties) && depth < MAX_DEPTH) {
				field.fields = propertiesOf(schema, root, depth + 1);
			}
			return field;
		default:
			field.jsonType = 'any';
			return field;
	}
}

function propertiesOf(schema: Json, root: Json, depth: number): FormField[] {
	const properties = isJsonObject(schema.properties) ? schema.properties : {};
	const required = new Set(
		Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [],
	);
	return Object.entries(properties).map(([name, property]) =>
		fieldFrom(name, isJsonObject(property) ? property : {}, root, required.has(name), depth),
	);
}

/**
 * Reads an object schema into form fields, in the schema's order. Never throws: a schema that is not an object, or
 * has no `properties`, gives no fields; a property that is not a schema is a JSON field.
 */
export function readSchema(schema: unknown): FormModel {
	if (!isJsonObject(schema)) {
		return { fields: [], additional: true };
	}
	const top = deref(schema, schema);
	return { fields: propertiesOf(top, schema, 0), additional: top.additionalProperties !== false };
}
