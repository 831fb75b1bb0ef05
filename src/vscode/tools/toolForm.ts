import { buildArguments, type FieldSpec, SKIP, type ToolForm } from './toolArgs';
import { askList, askObject, isNested, type AskFields } from './nestedForm';
import { askChoice, askText, type StepContext, type StepResult } from './toolSteps';

/**
 * The Call Tool argument form: one quick input step per field, built from `toolArgs.ts` (the form engine's rules in
 * `src/manager/forms/`, the same as elicitation's and the command line's).
 * - strings, numbers, integers: an input box, validated as you type (range, pattern, format), default prefilled;
 * - enums and booleans: a quick pick (the default is the active row); arrays of enums: a multi-select pick;
 * - objects with properties and lists of such objects: field by field (nestedForm.ts: add, edit and remove items,
 *   the item's shape shown), with "Edit as JSON" as the fallback;
 * - other arrays and anything else: an input box that takes JSON and checks it as you type (a one-line JSON
 *   editor), against the nested fields the schema gives (an item's required keys, their types);
 * - fields that look like secrets (a password, an API key) are masked;
 * - optional fields: a Skip button (and, in input boxes, empty text) leaves them out; every step after the
 *   first has a Back button.
 * Escape cancels the whole form.
 */

/** One field's step: a choice, a nested object or list (nestedForm.ts), or an input box. */
function askField(field: FieldSpec, context: StepContext, answered: unknown): Promise<StepResult> {
	if (field.kind === 'enum' || field.kind === 'boolean' || field.kind === 'multiEnum') {
		return askChoice(field, context, answered);
	}
	if (isNested(field)) {
		return field.jsonType === 'array'
			? askList(field, context, answered, askFields)
			: askObject(field, context, answered, askFields);
	}
	return askText(field, context, answered);
}

/**
 * Asks `fields` in order, one step each, prefilled from `previous`, and builds the object with the engine's rules.
 * Resolves undefined on Escape; 'back' when the person goes back from the first step of a nested form.
 */
const askFields = async (
	title: string,
	fields: readonly FieldSpec[],
	previous: Record<string, unknown> | undefined,
	nested = true,
): ReturnType<AskFields> => {
	const answers = new Map<string, unknown>();
	for (const [name, value] of Object.entries(previous ?? {})) answers.set(name, value);
	let index = 0;
	while (index < fields.length) {
		const field = fields[index] as FieldSpec;
		const context: StepContext = { title, step: index + 1, total: fields.length, backFirst: nested };
		const result = await askField(field, context, answers.get(field.name));
		if (result === undefined) return undefined;
		if (result === 'back') {
			if (index === 0 && nested) return 'back';
			index = Math.max(0, index - 1);
			continue;
		}
		answers.set(field.name, result === SKIP ? SKIP : result.value);
		index++;
	}
	const built = buildArguments(fields, answers);
	// Every field was checked as it was answered, so this fails only if the schema changed under us.
	return built.ok ? built.value : undefined;
};

/**
 * Asks for every field of `form`, one step each, and returns the `arguments` object, or undefined when the
 * person cancels. `previous` prefills answers (Run Again with edits). A tool with no properties needs no steps.
 */
export async function askToolArguments(
	title: string,
	form: ToolForm,
	previous?: Record<string, unknown>,
): Promise<Record<string, unknown> | undefined> {
	const result = await askFields(title, form.fields, previous, false);
	return result === 'back' ? undefined : result;
}
