/**
 * The install form of a registry server as a JSON Schema for the one form engine (src/manager/forms): each value of
 * the plan a property (its id), with its label, description, default, choices and format; secrets as passwords.
 * The extension renders it with the same steps as Call Tool; the answers come back as text for `buildEntry`.
 */
import type { InstallField, InstallPlan } from './installPlan';

function propertyOf(field: InstallField): Record<string, unknown> {
	const property: Record<string, unknown> = { title: field.label };
	if (field.description) property.description = field.description;
	if (field.choices) {
		property.type = 'string';
		property.enum = field.choices;
	} else if (field.format === 'boolean') property.type = 'boolean';
	else if (field.format === 'number') property.type = 'number';
	else property.type = 'string';
	if (field.secret) property.format = 'password';
	if (field.default !== undefined) {
		if (property.type === 'boolean') property.default = field.default === 'true';
		else if (property.type === 'number' && Number.isFinite(Number(field.default)))
			property.default = Number(field.default);
		else if (property.type === 'string') property.default = field.default;
	}
	return property;
}

/** The JSON Schema of `plan`'s values: an object with one property per field, the required ones required. */
export function installSchema(plan: InstallPlan): Record<string, unknown> {
	const properties: Record<string, unknown> = {};
	for (const field of plan.fields) properties[field.id] = propertyOf(field);
	return { type: 'object', properties, required: plan.fields.filter((f) => f.required).map((f) => f.id) };
}

/** The form's answers (strings, numbers, booleans) as the text `buildEntry` takes. */
export function answersAsText(values: Readonly<Record<string, unknown>>): Map<string, string> {
	const answers = new Map<string, string>();
	for (const [id, value] of Object.entries(values)) {
		if (value === undefined || value === null) continue;
		answers.set(id, typeof value === 'string' ? value : JSON.stringify(value));
	}
	return answers;
}

/**
 * The answers an entry written earlier from `plan` holds (for Update, which keeps them): each environment variable,
 * header and the URL is matched against the plan's pieces; a value written as `${input:…}` is not an answer.
 */
export function answersFromEntry(plan: InstallPlan, entry: Readonly<Record<string, unknown>>): Map<string, string> {
	const answers = new Map<string, string>();
	const match = (pieces: InstallPlan['env'][number]['value'], written: unknown) => {
		if (typeof written !== 'string') return;
		const ids: string[] = [];
		const source = pieces
			.map((piece) => {
				if (typeof piece === 'string') return piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
				ids.push(piece.field);
				return '(.*?)';
			})
			.join('');
		const found = new RegExp(`^${source}$`).exec(written);
		ids.forEach((id, index) => {
			const value = found?.[index + 1];
			if (value !== undefined && !/^\$\{input:[^}]+\}$/.test(value)) answers.set(id, value);
		});
	};
	const record = (value: unknown): Record<string, unknown> =>
		typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
	for (const v of plan.env) match(v.value, record(entry.env)[v.name]);
	for (const h of plan.headers) match(h.value, record(entry.headers)[h.name]);
	if (plan.url) match(plan.url, entry.url);
	return answers;
}
