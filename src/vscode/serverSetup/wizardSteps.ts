/**
 * Steps of a guided flow in one quick input each, with VS Code's step count in the title ("Add MCP Server (2/4)")
 * and a Back button from the second step on, as VS Code's own multi-step inputs do (the quickinput-sample's
 * `MultiStepInput`). A step resolves with the answer, `BACK`, or undefined when the person closed it.
 */
import * as vscode from 'vscode';

/** The person pressed Back. */
export const BACK = Symbol('back');
export type StepAnswer<T> = T | typeof BACK | undefined;

/** Where a step sits in its flow. */
export interface StepPosition {
	title: string;
	step: number;
	totalSteps: number;
}

function place(input: vscode.QuickInput, position: StepPosition): void {
	input.title = position.title;
	input.step = position.step;
	input.totalSteps = position.totalSteps;
	input.ignoreFocusOut = true;
}

/** One pick; `active` is the item focused first (the earlier answer, after Back). */
export function pickStep<T extends vscode.QuickPickItem>(
	position: StepPosition,
	items: readonly T[],
	options: { placeholder: string; active?: T },
): Promise<StepAnswer<T>> {
	const pick = vscode.window.createQuickPick<T>();
	place(pick, position);
	pick.placeholder = options.placeholder;
	pick.items = items;
	if (options.active) pick.activeItems = [options.active];
	pick.buttons = position.step > 1 ? [vscode.QuickInputButtons.Back] : [];
	const disposables: vscode.Disposable[] = [];
	return new Promise<StepAnswer<T>>((resolve) => {
		disposables.push(
			pick.onDidAccept(() => {
				const chosen = pick.selectedItems[0] ?? pick.activeItems[0];
				if (chosen) resolve(chosen);
			}),
			pick.onDidTriggerButton((button) => {
				if (button === vscode.QuickInputButtons.Back) resolve(BACK);
			}),
			pick.onDidHide(() => resolve(undefined)),
		);
		pick.show();
	}).finally(() => {
		for (const disposable of disposables) disposable.dispose();
		pick.dispose();
	});
}

/** One line of text, checked as it is typed; Enter is taken only when `validate` finds nothing wrong. */
export function inputStep(
	position: StepPosition,
	options: { prompt: string; placeholder?: string; value?: string; validate: (text: string) => string | undefined },
): Promise<StepAnswer<string>> {
	const box = vscode.window.createInputBox();
	place(box, position);
	box.prompt = options.prompt;
	box.placeholder = options.placeholder;
	box.value = options.value ?? '';
	box.buttons = position.step > 1 ? [vscode.QuickInputButtons.Back] : [];
	const check = () => {
		box.validationMessage = box.value === '' ? undefined : options.validate(box.value);
	};
	check();
	const disposables: vscode.Disposable[] = [];
	return new Promise<StepAnswer<string>>((resolve) => {
		disposables.push(
			box.onDidChangeValue(check),
			box.onDidAccept(() => {
				const problem = options.validate(box.value);
				box.validationMessage = problem;
				if (problem === undefined) resolve(box.value);
			}),
			box.onDidTriggerButton((button) => {
				if (button === vscode.QuickInputButtons.Back) resolve(BACK);
			}),
			box.onDidHide(() => resolve(undefined)),
		);
		box.show();
	}).finally(() => {
		for (const disposable of disposables) disposable.dispose();
		box.dispose();
	});
}
