/**
 * The Call Tool path into the form engine (`src/manager/forms/`): a tool's `inputSchema` as form fields, required
 * ones first, and the arguments object built from the answers. Every rule (types, formats, ranges, defaults, enums,
 * nested values) is the engine's, shared with elicitation and the command line; this file only words the outcome for
 * the palette. Pure and vscode-free, so unit tests import it directly; `toolForm.ts` renders the fields.
 */
import type { FormField, FormModel } from '../../manager/forms/formModel';
import { toolForm } from '../../manager/forms/forms';
import { collectValues, parseText, SKIP, type Conversion } from '../../manager/forms/formRules';

export { describeField, initialText } from '../../manager/forms/formText';
export type { Choice as EnumChoice, FieldKind } from '../../manager/forms/formModel';
export { SKIP, type Conversion };

/** One field of a tool's input, ready to be asked for. */
export type FieldSpec = FormField;

/** A tool's input schema read into fields. */
export type ToolForm = FormModel;

/**
 * Reads a tool's `inputSchema` into form fields, required ones first, each group in the schema's order.
 * Never throws: a schema that is not an object, or has no `properties`, gives no fields.
 */
export function formFromSchema(inputSchema: unknown): ToolForm {
	return toolForm(inputSchema);
}

/**
 * Converts the text typed for a field into the value to send, or says what is wrong in one short sentence (the
 * input box's validation message while typing). Empty text is "no answer" (see the engine's `parseText`).
 */
export function convertText(field: FieldSpec, text: string): Conversion {
	return parseText(field, text);
}

/**
 * Builds the `arguments` object from the answers, in field order, leaving out skipped fields. Fails (naming the
 * fields) when a required field has no answer or an answer breaks the schema's rules.
 */
export function buildArguments(
	fields: readonly FieldSpec[],
	answers: ReadonlyMap<string, unknown>,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
	const collected = collectValues(fields, answers);
	if (collected.ok) return collected;
	if (collected.missing.length > 0) {
		const names = collected.missing.map((f) => f.name);
		return { ok: false, error: `Missing required argument${names.length > 1 ? 's' : ''}: ${names.join(', ')}` };
	}
	return { ok: false, error: collected.invalid.map((i) => `${i.field.name}: ${i.problem}`).join('; ') };
}
