/**
 * Words about form fields that every renderer shows: the prefilled text, a field's hint, a value as the review shows
 * it. Renderers choose which to show where; the words come from here so a field reads alike everywhere.
 */
import { plural } from '../../common/text';
import { labelOf, type FormField } from './formModel';
import { rangeText } from './formRules';

/**
 * The text an input starts with: the current answer (or a previous call's value), else the schema default, in the
 * form a person would type it; an empty skeleton (`[]`, `{}`) for JSON arrays and objects; empty when there is
 * nothing to prefill. Multi-selects are picked, not typed: their text is the comma-separated labels.
 */
export function initialText(field: FormField, current?: unknown): string {
	const value = current !== undefined ? current : field.default;
	if (value === undefined) {
		if (field.kind === 'json') {
			return field.jsonType === 'array' ? '[]' : field.jsonType === 'object' ? '{}' : '';
		}
		return '';
	}
	if (field.kind === 'json') return JSON.stringify(value);
	if (field.kind === 'multiEnum') return Array.isArray(value) ? value.map((v) => choiceLabel(field, v)).join(', ') : '';
	return typeof value === 'string' ? value : JSON.stringify(value);
}

function choiceLabel(field: FormField, value: unknown): string {
	const text = labelOf(value);
	return field.choices?.find((c) => labelOf(c.value) === text)?.label ?? text;
}

/** A one-line hint: type, bounds and format, e.g. "whole number between 1 and 10, optional" or "email, required". */
export function fieldHint(field: FormField): string {
	const parts: string[] = [];
	switch (field.kind) {
		case 'string': {
			parts.push(field.format ?? 'text');
			const { minLength: lo, maxLength: hi } = field;
			if (lo !== undefined && hi !== undefined) parts.push(`${lo}–${hi} characters`);
			else if (lo !== undefined) parts.push(`at least ${plural(lo, 'character')}`);
			else if (hi !== undefined) parts.push(`at most ${plural(hi, 'character')}`);
			break;
		}
		case 'number':
		case 'integer': {
			const range = rangeText(field);
			const noun = field.kind === 'integer' ? 'whole number' : 'number';
			parts.push(range ? `${noun} ${range}` : noun);
			if (field.multipleOf !== undefined) parts.push(`multiple of ${field.multipleOf}`);
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
		case 'json':
			parts.push(field.jsonType === 'any' || field.jsonType === undefined ? 'JSON' : `JSON ${field.jsonType}`);
			break;
	}
	parts.push(field.required ? 'required' : 'optional');
	return parts.join(', ');
}

/**
 * The prompt line under a Call Tool input: the description, then the constraints in brackets, then whether the
 * field is required ("Needed. Required.", "(integer, ≥ 1, ≤ 10) Optional: …").
 */
export function describeField(field: FormField): string {
	const parts: string[] = [];
	const description = field.description?.trim();
	if (description) parts.push(/[.!?:)]$/.test(description) ? description : `${description}.`);
	const limits: string[] = [];
	switch (field.kind) {
		case 'number':
		case 'integer':
			limits.push(field.kind);
			if (field.minimum !== undefined) limits.push(`≥ ${field.minimum}`);
			if (field.exclusiveMinimum !== undefined) limits.push(`> ${field.exclusiveMinimum}`);
			if (field.maximum !== undefined) limits.push(`≤ ${field.maximum}`);
			if (field.exclusiveMaximum !== undefined) limits.push(`< ${field.exclusiveMaximum}`);
			if (field.multipleOf !== undefined) limits.push(`multiple of ${field.multipleOf}`);
			break;
		case 'string':
			if (field.format) limits.push(field.format);
			if (field.minLength !== undefined) limits.push(`min length ${field.minLength}`);
			if (field.maxLength !== undefined) limits.push(`max length ${field.maxLength}`);
			if (field.pattern) limits.push(`pattern ${field.pattern}`);
			break;
		case 'json':
			limits.push(field.jsonType === 'any' || field.jsonType === undefined ? 'JSON' : `JSON ${field.jsonType}`);
			if (field.item?.fields) limits.push(`items like ${shapeOf(field.item)}`);
			else if (field.fields) limits.push(`like ${shapeOf(field)}`);
			break;
		default:
			break;
	}
	if (limits.length > 0) parts.push(`(${limits.join(', ')})`);
	parts.push(field.required ? 'Required.' : 'Optional: leave empty or press Skip to leave it out.');
	return parts.join(' ');
}

/** An object field's shape in one line, required keys marked: `{"oldText"*: string, "newText"*: string}`. */
export function shapeOf(field: FormField): string {
	const keys = (field.fields ?? []).map(
		(f) => `"${f.name}"${f.required ? '*' : ''}: ${f.kind === 'json' ? (f.jsonType ?? 'any') : f.kind}`,
	);
	return `{${keys.join(', ')}}`;
}

/** A value as a review shows it: choice labels instead of raw values, "(not set)" when unanswered, secrets masked. */
export function displayValue(field: FormField, value: unknown): string {
	if (value === undefined) return '(not set)';
	if (field.secret && typeof value === 'string') return '•'.repeat(Math.min(12, Math.max(4, value.length)));
	if (field.kind === 'json') return JSON.stringify(value);
	if (Array.isArray(value)) return value.length === 0 ? '(none)' : value.map((v) => choiceLabel(field, v)).join(', ');
	return field.kind === 'enum' ? choiceLabel(field, value) : labelOf(value);
}
