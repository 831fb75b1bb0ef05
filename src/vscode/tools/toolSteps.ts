import * as vscode from 'vscode';
import { convertText, describeField, type FieldSpec, initialText, SKIP } from './toolArgs';
import { checkCount, orderedChoices } from '../../manager/forms/formRules';

/**
 * The steps of the Call Tool form, one quick input each (toolForm.ts runs them in order): an input box for typed
 * values, a quick pick for choices. Each resolves the value, SKIP, 'back', or undefined when the person cancels.
 */

export type StepResult = { value: unknown } | typeof SKIP | 'back' | undefined;

export const skipButton: vscode.QuickInputButton = {
	iconPath: new vscode.ThemeIcon('debug-step-over'),
	tooltip: 'Skip (leave this argument out)',
};

export interface StepContext {
	title: string;
	step: number;
	total: number;
	/** The first step has a Back button too (a nested form's: back to the list or field it belongs to). */
	backFirst?: boolean;
}

export function stepTitle(context: StepContext, field: FieldSpec): string {
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

export function askText(field: FieldSpec, context: StepContext, previous: unknown): Promise<StepResult> {
	return new Promise((resolve) => {
		const box = vscode.window.createInputBox();
		const { disposables, finish } = settleOnce(box, resolve);
		box.title = stepTitle(context, field);
		box.prompt = describeField(field);
		box.placeholder = field.name;
		box.value = initialText(field, previous === SKIP ? undefined : previous);
		box.ignoreFocusOut = true;
		box.buttons = [
			...(context.step > 1 || context.backFirst ? [vscode.QuickInputButtons.Back] : []),
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

export function askChoice(field: FieldSpec, context: StepContext, previous: unknown): Promise<StepResult> {
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
			...(context.step > 1 || context.backFirst ? [vscode.QuickInputButtons.Back] : []),
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
