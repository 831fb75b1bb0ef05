import { buildArguments, type FieldSpec, SKIP, type ToolForm } from './toolArgs';
import { askChoice, askText, type StepContext } from './toolSteps';

/**
 * The Call Tool argument form: one quick input step per field, built from `toolArgs.ts` (the form engine's rules in
 * `src/manager/forms/`, the same as elicitation's and the command line's).
 * - strings, numbers, integers: an input box, validated as you type (range, pattern, format), default prefilled;
 * - enums and booleans: a quick pick (the default is the active row); arrays of enums: a multi-select pick;
 * - nested objects, arrays and anything else: an input box that takes JSON and checks it as you type
 *   (a one-line JSON editor: simple, keyboard-only, and testable like every other step), checked against the
 *   nested fields the schema gives (an item's required keys, their types);
 * - fields that look like secrets (a password, an API key) are masked;
 * - optional fields: a Skip button (and, in input boxes, empty text) leaves them out; every step after the
 *   first has a Back button.
 * Escape cancels the whole form.
 */

/**
 * Asks for every field of `form`, one step each, and returns the `arguments` object, or undefined when the
 * person cancels. `previous` prefills answers (Run Again with edits). A tool with no properties needs no steps.
 */
export async function askToolArguments(
	title: string,
	form: ToolForm,
	previous?: Record<string, unknown>,
): Promise<Record<string, unknown> | undefined> {
	const fields = form.fields;
	const answers = new Map<string, unknown>();
	for (const [name, value] of Object.entries(previous ?? {})) answers.set(name, value);
	let index = 0;
	while (index < fields.length) {
		const field = fields[index] as FieldSpec;
		const context: StepContext = { title, step: index + 1, total: fields.length };
		const answered = answers.get(field.name);
		const result =
			field.kind === 'enum' || field.kind === 'boolean' || field.kind === 'multiEnum'
				? await askChoice(field, context, answered)
				: await askText(field, context, answered);
		if (result === undefined) return undefined;
		if (result === 'back') {
			index = Math.max(0, index - 1);
			continue;
		}
		answers.set(field.name, result === SKIP ? SKIP : result.value);
		index++;
	}
	const built = buildArguments(fields, answers);
	// Every required field was answered above, so this fails only if the schema changed under us.
	return built.ok ? built.value : undefined;
}
