/**
 * The elicitation path into the form engine (`src/manager/forms/`): a form-mode `requestedSchema` as fields, what the
 * user types checked and converted, and the answer's `content`. Every rule is the engine's, shared with Call Tool
 * and the command line, so a value that passes as a tool argument passes here too; this file only keeps the shape
 * the presenter (elicitation.ts) and its tests use. No `vscode` here.
 *
 * Spec (2025-11-25, form mode): https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation
 * "The schema is restricted to flat objects with primitive properties only": string (minLength, maxLength, format
 * email | uri | date | date-time), number / integer (minimum, maximum), boolean, single-select enums (`enum`,
 * `oneOf` of `{ const, title }`, the legacy `enumNames`) and multi-select arrays (`items.enum`, `items.anyOf`,
 * minItems, maxItems), each with an optional `default`.
 */
import type { FormField as EngineField } from '../../manager/forms/formModel';
import { elicitationForm, type ElicitationForm } from '../../manager/forms/forms';
import { checkCount, collectValues, defaultValues as engineDefaults, parseText } from '../../manager/forms/formRules';

export { looksSecret } from '../../manager/forms/formModel';
export { displayValue, fieldHint, initialText } from '../../manager/forms/formText';

/** A value the client may send back in `content`. */
export type FormValue = string | number | boolean | string[];

/** One field of an elicitation form. */
export type FormField = EngineField;

/** The fields of a form, and the properties that could not be turned into one (with why). */
export type FormModel = ElicitationForm;

/**
 * The fields of `requestedSchema`, in the order of its `properties`. Never throws: a property this client cannot
 * draw (nested object, unknown type) becomes a problem instead of a field.
 */
export function formFromSchema(requestedSchema: unknown): FormModel {
	return elicitationForm(requestedSchema);
}

/**
 * What is wrong with `text` typed into a string, number or integer field, or undefined when it is acceptable.
 * Empty text is acceptable for an optional field (it means "leave it out") and is "required" for a required one.
 */
export function validateText(field: FormField, text: string): string | undefined {
	const converted = parseText(field, text);
	return converted.ok ? undefined : converted.error;
}

/**
 * The typed value of valid `text`; undefined for empty text (skip). Formatted strings (email, uri, date, date-time)
 * are trimmed. Throws only when `text` fails {@link validateText}.
 */
export function valueFromText(field: FormField, text: string): FormValue | undefined {
	const converted = parseText(field, text);
	if (!converted.ok) throw new Error(converted.error);
	return converted.value as FormValue | undefined;
}

/** What is wrong with a multi-select choice of `count` items, or undefined. None chosen skips an optional field. */
export function validateSelection(field: FormField, count: number): string | undefined {
	return field.kind === 'multiEnum' ? checkCount(field, count) : undefined;
}

/**
 * The answer's `content`: only the fields with a value, in schema order. Throws when a required field has no value
 * or a value breaks the schema, so a bug in the presenter cannot send the server something the schema forbids.
 */
export function buildContent(
	fields: readonly FormField[],
	values: ReadonlyMap<string, FormValue>,
): Record<string, FormValue> {
	const collected = collectValues(fields, values);
	if (collected.ok) return collected.value as Record<string, FormValue>;
	const [missing] = collected.missing;
	if (missing) throw new Error(`${missing.label} is required`);
	const [invalid] = collected.invalid;
	throw new Error(`${invalid?.field.label} has a value of the wrong type or out of range: ${invalid?.problem}`);
}

/** The values the form starts with: every schema default (the user sees them prefilled and may change them). */
export function defaultValues(fields: readonly FormField[]): Map<string, FormValue> {
	return engineDefaults(fields) as Map<string, FormValue>;
}

/** Where a single-choice question starts: on one choice (by its id), on "Leave unset", or on its first row. */
export type StartingChoice = { kind: 'choice'; id: string } | { kind: 'unset' } | { kind: 'first' };

/**
 * Where a single-choice question (boolean or enum) starts: on the choice of `current` (a schema default or an earlier
 * answer; a boolean's choices are "true" and "false"), else on "Leave unset" when the field is optional, else on its
 * first choice. So an optional "Agree to the terms?" with no default is not Yes until the user says so.
 */
export function startingChoice(field: FormField, current: FormValue | undefined): StartingChoice {
	const id = typeof current === 'boolean' || typeof current === 'string' ? String(current) : undefined;
	if (id !== undefined && (field.choices ?? []).some((c) => String(c.value) === id)) return { kind: 'choice', id };
	return field.required ? { kind: 'first' } : { kind: 'unset' };
}
