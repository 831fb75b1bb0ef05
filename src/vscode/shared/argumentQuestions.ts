/**
 * String arguments asked one at a time in a quick pick that offers the server's completions (`completion/complete`) as
 * you type: a prompt's arguments and a resource template's variables.
 */
import * as vscode from 'vscode';
import type { Manager } from '../../manager/manager';
import type { CompletionReference } from '../../protocol/schema';

/** An optional argument the person skipped. */
export const SKIP: unique symbol = Symbol('skip');

/** How long typing pauses before `completion/complete` is asked. */
const COMPLETION_DEBOUNCE_MS = 150;

interface ArgumentItem extends vscode.QuickPickItem {
	skip?: boolean;
	typed?: boolean;
}

export interface ArgumentQuestion {
	title: string;
	name: string;
	description?: string;
	required: boolean;
	step: number;
	total: number;
	/** Suggestions for the text typed so far; absent when the server offers no completions. */
	complete?: (value: string) => Promise<string[]>;
}

/**
 * Asks for one string argument in a quick pick that offers the server's completions as you type; what is typed is
 * always the first row, so Enter takes it. Optional arguments have a Skip row. Resolves `'back'` for the Back button,
 * undefined when cancelled.
 */
export function askArgument(question: ArgumentQuestion): Promise<string | typeof SKIP | 'back' | undefined> {
	return new Promise((resolve) => {
		const pick = vscode.window.createQuickPick<ArgumentItem>();
		const disposables: vscode.Disposable[] = [pick];
		let suggestions: string[] = [];
		let timer: ReturnType<typeof setTimeout> | undefined;
		let generation = 0;
		let settled = false;
		const finish = (result: string | typeof SKIP | 'back' | undefined) => {
			if (settled) return;
			settled = true;
			if (timer) clearTimeout(timer);
			resolve(result);
			for (const d of disposables) d.dispose();
		};
		const render = () => {
			const value = pick.value;
			const items: ArgumentItem[] = [];
			if (value !== '') items.push({ label: value, description: 'as typed', typed: true });
			for (const suggestion of suggestions) {
				if (suggestion !== value) items.push({ label: suggestion, description: 'suggested by the server' });
			}
			if (!question.required && value === '')
				items.push({ label: '$(debug-step-over) Skip', description: 'leave this argument out', skip: true });
			pick.items = items;
		};
		const refresh = () => {
			if (!question.complete) return;
			const mine = ++generation;
			pick.busy = true;
			question.complete(pick.value).then(
				(values) => {
					if (mine !== generation || settled) return;
					suggestions = values.slice(0, 100);
					pick.busy = false;
					render();
				},
				() => {
					if (mine === generation && !settled) pick.busy = false;
				},
			);
		};
		pick.title = `${question.title} (${question.step}/${question.total}): ${question.name}${question.required ? '' : ' (optional)'}`;
		pick.placeholder = [
			question.description,
			question.required ? 'Required.' : 'Optional.',
			question.complete ? 'Suggestions come from the server as you type.' : '',
		]
			.filter(Boolean)
			.join(' ');
		pick.ignoreFocusOut = true;
		pick.buttons = question.step > 1 ? [vscode.QuickInputButtons.Back] : [];
		disposables.push(
			pick.onDidChangeValue(() => {
				render();
				if (timer) clearTimeout(timer);
				timer = setTimeout(refresh, COMPLETION_DEBOUNCE_MS);
			}),
			pick.onDidAccept(() => {
				const [chosen] = pick.activeItems;
				if (chosen?.skip) return finish(SKIP);
				const value = chosen ? chosen.label : pick.value;
				if (value === '' && question.required) return;
				finish(value === '' ? SKIP : value);
			}),
			pick.onDidTriggerButton(() => finish('back')),
			pick.onDidHide(() => finish(undefined)),
		);
		render();
		refresh();
		pick.show();
	});
}

/** Asks a list of string arguments with completions for `ref`; undefined when cancelled. */
export async function askArguments(
	manager: Manager,
	server: string,
	title: string,
	ref: CompletionReference,
	args: readonly { name: string; description?: string; required: boolean }[],
): Promise<Record<string, string> | undefined> {
	const answers: Record<string, string> = {};
	let index = 0;
	while (index < args.length) {
		const arg = args[index] as (typeof args)[number];
		const question: ArgumentQuestion = {
			title,
			name: arg.name,
			required: arg.required,
			step: index + 1,
			total: args.length,
		};
		if (arg.description) question.description = arg.description;
		let client: ReturnType<Manager['client']> | undefined;
		try {
			client = manager.client(server);
		} catch {
			client = undefined;
		}
		if (client?.serverCapabilities.completions) {
			const context = { ...answers };
			question.complete = async (value) =>
				(await client.complete(ref, { name: arg.name, value }, { arguments: context })).completion.values;
		}
		const answer = await askArgument(question);
		if (answer === undefined) return undefined;
		if (answer === 'back') {
			index = Math.max(0, index - 1);
			continue;
		}
		if (answer === SKIP) delete answers[arg.name];
		else answers[arg.name] = answer;
		index++;
	}
	return answers;
}
