import * as vscode from 'vscode';
import {
	buildArguments,
	convertText,
	describeField,
	type FieldSpec,
	initialText,
	SKIP,
	type ToolForm,
} from './toolArgs';
import { checkCount, orderedChoices } from '../../manager/forms/formRules';

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

type StepResult = { value: unknown } | typeof SKIP | 'back' | undefined;

const skipButton: vscode.QuickInputButton = {
	iconPath: new vscode.ThemeIcon('debug-step-over'),
	tooltip: 'Skip (leave this argument out)',
};

interface StepContext {
	title: string;
	step: number;
	total: number;
}

function stepTitle(context: StepContext, field: FieldSpec): string {
	return `${context.title} (${context.step}/${context.total}): ${field.label}${field.required ? '' : ' (optional)'}`;
}

/** A step's one-time end: `finish` resolves the step once and disposes the input and every listener pushed to `disposables`. */
function settleOnce(
	input: vscode.Disposable,
	resolve: (result: StepResult) => void,
): { disposables: vscode.Disposable[]; finish: (result: StepResult) => void } {
	const disposables: vscode.Disposable[] = [input];
	let settled = false;
	const finish = (result: StepResult) => {
		if (settled) return;
		settled = true;
		resolve(result);
		for (const d of disposables) d.dispose();
	};
	return { disposables, finish };
}

function askText(field: FieldSpec, context: StepContext, previous: unknown): Promise<StepResult> {
	return new Promise((resolve) => {
		const box = vscode.window.createInputBox();
		const { disposables, finish } = settleOnce(box, resolve);
		box.title = stepTitle(context, field);
		box.prompt = describeField(field);
		box.placeholder = field.name;
		box.value = initialText(field, previous === SKIP ? undefined : previous);
		box.ignoreFocusOut = true;
		box.buttons = [
			...(context.step > 1 ? [vscode.QuickInputButtons.Back] : []),
			...(field.required ? [] : [skipButton]),
		];
		box.password = field.secret;
		// The engine's rules (empty is "no answer": skip an optional field, "required" for a required one); an empty
		// required box is not nagged about until the person presses Enter.
		const validate = (text: string): string | undefined => {
			const converted = convertText(field, text);
			return converted.ok ? undefined : converted.error;
		};
		box.validationMessage = box.value === '' ? undefined : validate(box.value);
		disposables.push(
			box.onDidChangeValue((text) => {
				box.validationMessage = text === '' ? undefined : validate(text);
			}),
			box.onDidAccept(() => {
				const converted = convertText(field, box.value);
				if (!converted.ok) {
					box.validationMessage = converted.error;
					return;
				}
				finish(converted.value === undefined ? SKIP : { value: converted.value });
			}),
			box.onDidTriggerButton((button) => finish(button === vscode.QuickInputButtons.Back ? 'back' : SKIP)),
			box.onDidHide(() => finish(undefined)),
		);
		box.show();
	});
}

interface ChoiceItem extends vscode.QuickPickItem {
	value?: unknown;
	skip?: boolean;
}

function askChoice(field: FieldSpec, context: StepContext, previous: unknown): Promise<StepResult> {
	return new Promise((resolve) => {
		const many = field.kind === 'multiEnum';
		const pick = vscode.window.createQuickPick<ChoiceItem>();
		const { disposables, finish } = settleOnce(pick, resolve);
		const current = previous !== undefined && previous !== SKIP ? previous : field.default;
		const isCurrent = (value: unknown) =>
			many
				? Array.isArray(current) && current.some((c) => JSON.stringify(c) === JSON.stringify(value))
				: JSON.stringify(value) === JSON.stringify(current);
		const items: ChoiceItem[] = (field.choices ?? []).map((choice) => {
			const item: ChoiceItem = { label: choice.label, value: choice.value };
			const notes = [
				JSON.stringify(choice.value) === JSON.stringify(field.default) ? 'default' : '',
				choice.description ?? '',
			].filter(Boolean);
			if (notes.length > 0) item.description = notes.join(' · ');
			return item;
		});
		if (!field.required && !many) {
			items.push({ label: '$(debug-step-over) Skip', description: 'leave this argument out', skip: true });
		}
		pick.title = stepTitle(context, field);
		pick.placeholder = describeField(field);
		pick.items = items;
		pick.canSelectMany = many;
		pick.ignoreFocusOut = true;
		pick.matchOnDescription = true;
		pick.buttons = [
			...(context.step > 1 ? [vscode.QuickInputButtons.Back] : []),
			...(field.required ? [] : [skipButton]),
		];
		const preset = items.filter((item) => !item.skip && isCurrent(item.value));
		if (many) {
			pick.selectedItems = preset;
		} else if (preset.length > 0) {
			pick.activeItems = preset;
		}
		disposables.push(
			pick.onDidAccept(() => {
				if (many) {
					const picked = orderedChoices(
						field,
						pick.selectedItems.map((item) => item.value),
					);
					const problem = checkCount(field, picked.length);
					if (problem !== undefined) {
						pick.placeholder = `${problem}: ${describeField(field)}`;
						return;
					}
					finish(picked.length === 0 && !field.required ? SKIP : { value: picked });
					return;
				}
				const [chosen] = pick.selectedItems.length > 0 ? pick.selectedItems : pick.activeItems;
				if (!chosen) return;
				finish(chosen.skip ? SKIP : { value: chosen.value });
			}),
			pick.onDidTriggerButton((button) => finish(button === vscode.QuickInputButtons.Back ? 'back' : SKIP)),
			pick.onDidHide(() => finish(undefined)),
		);
		pick.show();
	});
}

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
