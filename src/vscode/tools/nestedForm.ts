import * as vscode from 'vscode';
import { checkValue } from '../../manager/forms/formRules';
import { displayValue, shapeOf } from '../../manager/forms/formText';
import { describeField, type FieldSpec, SKIP } from './toolArgs';
import { askText, skipButton, stepTitle, type StepContext, type StepResult } from './toolSteps';
import { isRecord } from '../../common/records';

/**
 * Nested arguments in the Call Tool form, field by field: an object with properties is filled in as a form of its
 * own, an array of objects (server-filesystem's `edit_file` `edits: [{ oldText, newText }]`) is a list whose items
 * are added, edited and removed one at a time, each item a form of its own. The item's shape is shown, and nothing
 * leaves the list until the engine accepts it (required keys, types, minItems/maxItems), so a missing key is caught
 * before any destructive-tool confirmation. "Edit as JSON" stays as the fallback.
 */

/**
 * Asks a list of fields (toolForm.ts's loop, passed in so this file does not import it back). Resolves the object,
 * 'back' when the person goes back from its first step, or undefined when they press Escape.
 */
export type AskFields = (
	title: string,
	fields: readonly FieldSpec[],
	previous: Record<string, unknown> | undefined,
) => Promise<Record<string, unknown> | 'back' | undefined>;

/** True for a field this file asks: an object with properties, or an array whose items are such objects. */
export function isNested(field: FieldSpec): boolean {
	if (field.kind !== 'json') return false;
	if (field.jsonType === 'object') return (field.fields?.length ?? 0) > 0;
	return field.jsonType === 'array' && (field.item?.fields?.length ?? 0) > 0;
}

interface Row extends vscode.QuickPickItem {
	id: string;
}

const removeButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Remove this item' };

/** One item as a row: its keys and values, short. */
function summary(item: FieldSpec, value: unknown): string {
	if (!isRecord(value)) return JSON.stringify(value);
	const parts = (item.fields ?? [])
		.filter((f) => value[f.name] !== undefined)
		.map((f) => `${f.name}: ${displayValue(f, value[f.name])}`);
	const text = parts.join(', ') || '(empty)';
	return text.length > 100 ? `${text.slice(0, 99)}…` : text;
}

/** One quick pick of the nested editor; resolves the row or button chosen, 'back', or undefined (hidden). */
function pickRow(
	field: FieldSpec,
	context: StepContext,
	rows: Row[],
	placeholder: string,
): Promise<{ row: Row } | { remove: Row } | typeof SKIP | 'back' | undefined> {
	return new Promise((resolve) => {
		const pick = vscode.window.createQuickPick<Row>();
		let settled = false;
		const disposables: vscode.Disposable[] = [pick];
		const finish = (result: { row: Row } | { remove: Row } | typeof SKIP | 'back' | undefined) => {
			if (settled) return;
			settled = true;
			resolve(result);
			for (const d of disposables) d.dispose();
		};
		pick.title = stepTitle(context, field);
		pick.placeholder = placeholder;
		pick.items = rows;
		pick.ignoreFocusOut = true;
		pick.buttons = [
			...(context.step > 1 || context.backFirst ? [vscode.QuickInputButtons.Back] : []),
			...(field.required ? [] : [skipButton]),
		];
		disposables.push(
			pick.onDidAccept(() => {
				const [row] = pick.selectedItems.length > 0 ? pick.selectedItems : pick.activeItems;
				if (row) finish({ row });
			}),
			pick.onDidTriggerItemButton((event) => finish({ remove: event.item })),
			pick.onDidTriggerButton((button) => finish(button === vscode.QuickInputButtons.Back ? 'back' : SKIP)),
			pick.onDidHide(() => finish(undefined)),
		);
		pick.show();
	});
}

/** The JSON fallback: the field's own input box, checked by the same rules. */
function asJson(field: FieldSpec, context: StepContext, current: unknown): Promise<StepResult> {
	return askText(field, { ...context, backFirst: true }, current);
}

/** An array of objects: add, edit and remove items one at a time; Done when the engine accepts the list. */
export async function askList(
	field: FieldSpec,
	context: StepContext,
	previous: unknown,
	askFields: AskFields,
): Promise<StepResult> {
	const item = field.item as FieldSpec;
	const start = previous !== undefined && previous !== SKIP ? previous : field.default;
	const list: unknown[] = Array.isArray(start) ? [...(start as unknown[])] : [];
	let problem: string | undefined;
	for (;;) {
		const rows: Row[] = list.map((value, index) => ({
			id: `item:${index}`,
			label: `${index + 1}. ${summary(item, value)}`,
			description: 'edit',
			buttons: [removeButton],
		}));
		const invalid = checkValue({ ...field, required: true }, list);
		rows.push(
			{ id: '', label: '', kind: vscode.QuickPickItemKind.Separator },
			{ id: 'add', label: '$(add) Add item', detail: `an item is ${shapeOf(item)} (* required)` },
			{
				id: 'done',
				label: `$(check) Done`,
				description: invalid ?? `${list.length} item${list.length === 1 ? '' : 's'}`,
			},
			{ id: 'json', label: '$(json) Edit as JSON', description: 'the whole list as one JSON array' },
		);
		const about = field.description ? `${field.description.trim()} ` : '';
		const how = `${about}Add, edit (select) or remove (trash) items, then Done.${field.required ? ' Required.' : ''}`;
		const placeholder = problem ? `${problem} — ${how}` : how;
		const chosen = await pickRow(field, context, rows, placeholder);
		problem = undefined;
		if (chosen === undefined || chosen === 'back' || chosen === SKIP) return chosen;
		if ('remove' in chosen) {
			list.splice(Number(chosen.remove.id.slice('item:'.length)), 1);
			continue;
		}
		const id = chosen.row.id;
		if (id === 'done') {
			if (invalid === undefined) return { value: list };
			problem = invalid;
			continue;
		}
		if (id === 'json') {
			const typed = await asJson(field, context, list);
			if (typed === 'back' || typed === undefined) continue;
			return typed;
		}
		const index = id === 'add' ? list.length : Number(id.slice('item:'.length));
		const current = list[index];
		const answered = await askFields(
			`${context.title} › ${field.label} › item ${index + 1}`,
			item.fields ?? [],
			isRecord(current) ? current : undefined,
		);
		// Back or Escape inside an item returns to the list, keeping what the list had.
		if (answered !== undefined && answered !== 'back') list[index] = answered;
	}
}

/** An object with properties: filled in field by field, or typed as JSON, or skipped when optional. */
export async function askObject(
	field: FieldSpec,
	context: StepContext,
	previous: unknown,
	askFields: AskFields,
): Promise<StepResult> {
	const current: unknown = previous !== undefined && previous !== SKIP ? previous : field.default;
	for (;;) {
		const rows: Row[] = [
			{ id: 'fill', label: '$(list-flat) Fill in field by field', detail: `${shapeOf(field)} (* required)` },
			{ id: 'json', label: '$(json) Edit as JSON' },
		];
		const chosen = await pickRow(field, context, rows, describeField(field));
		if (chosen === undefined || chosen === 'back' || chosen === SKIP) return chosen;
		if ('remove' in chosen) continue;
		if (chosen.row.id === 'json') {
			const typed = await asJson(field, context, current);
			if (typed === 'back' || typed === undefined) continue;
			return typed;
		}
		const answered = await askFields(
			`${context.title} › ${field.label}`,
			field.fields ?? [],
			isRecord(current) ? current : undefined,
		);
		if (answered === undefined || answered === 'back') continue;
		return { value: answered };
	}
}
