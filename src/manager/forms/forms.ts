/**
 * The form engine's entry points: a schema read into fields whose defaults obey the rules, for a tool's arguments
 * ({@link toolForm}) and for an elicitation's `requestedSchema` ({@link elicitationForm}, which also says which
 * properties form mode does not allow). Every caller reads schemas through here; see formModel.ts and formRules.ts.
 */
import { isJsonObject, readSchema, type FormField, type FormModel } from './formModel';
import { checkValue, orderedChoices } from './formRules';

/** Keeps a default only when it is a valid value of its field (a multi-select keeps the known choices). */
function cleanDefaults(fields: readonly FormField[]): void {
	for (const field of fields) {
		if (field.fields) cleanDefaults(field.fields);
		if (field.item) cleanDefaults([field.item]);
		if (field.default === undefined) continue;
		if (field.kind === 'multiEnum' && Array.isArray(field.default)) {
			field.default = orderedChoices(field, field.default);
			continue;
		}
		// A default is judged as if the field were optional: "required" is about the answer, not the default.
		if (checkValue({ ...field, required: false }, field.default) !== undefined) delete field.default;
	}
}

/**
 * A tool's `inputSchema` read into form fields, required ones first, each group in the schema's order (the order
 * Call Tool asks them in). Never throws.
 */
export function toolForm(inputSchema: unknown): FormModel {
	const model = readSchema(inputSchema);
	cleanDefaults(model.fields);
	model.fields.sort((a, b) => Number(b.required) - Number(a.required));
	return model;
}

/** An elicitation form: its fields in schema order, and the properties form mode cannot hold (with why). */
export interface ElicitationForm {
	fields: FormField[];
	/** One line per unsupported property, naming it. A required unsupported property makes the form unanswerable. */
	problems: { name: string; required: boolean; message: string }[];
}

/**
 * Why form-mode elicitation cannot hold `field`, or undefined. Spec (2025-11-25): "The schema is restricted to flat
 * objects with primitive properties only": strings, numbers, booleans, single-select enums of strings and
 * multi-select arrays of strings. https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation
 */
function notInFormMode(field: FormField): string | undefined {
	const strings = (field.choices ?? []).every((c) => typeof c.value === 'string');
	switch (field.kind) {
		case 'enum':
		case 'multiEnum':
			return strings
				? undefined
				: `"${field.name}" has choices that are not strings, which form elicitation does not allow`;
		case 'json':
			return field.jsonType === 'array'
				? `"${field.name}" is an array without a list of choices (items.enum or items.anyOf)`
				: `"${field.name}" has type ${JSON.stringify(field.schema.type)}, which form elicitation does not allow`;
		default:
			return undefined;
	}
}

/**
 * The fields of an elicitation's `requestedSchema`, in the order of its `properties`, read by the same engine as a
 * tool's arguments. Never throws: a property form mode does not allow (nested object, array of anything but
 * choices, not a schema) becomes a problem instead of a field.
 */
export function elicitationForm(requestedSchema: unknown): ElicitationForm {
	const model = readSchema(requestedSchema);
	cleanDefaults(model.fields);
	const raw =
		isJsonObject(requestedSchema) && isJsonObject(requestedSchema.properties) ? requestedSchema.properties : {};
	const form: ElicitationForm = { fields: [], problems: [] };
	for (const field of model.fields) {
		const problem = isJsonObject(raw[field.name]) ? notInFormMode(field) : `"${field.name}" is not a schema`;
		if (problem === undefined) form.fields.push(field);
		else form.problems.push({ name: field.name, required: field.required, message: problem });
	}
	return form;
}
