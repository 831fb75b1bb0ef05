import * as vscode from 'vscode';
import type { ElicitFormRequest, ElicitRequest, ElicitResult, ElicitUrlRequest } from '../../protocol/schema';
import { openExternalUrl } from '../externalUrl';
import { reshowItems, ServerInputQueue, type Turn } from '../serverInput/inputQueue';
import {
	buildContent,
	defaultValues,
	displayValue,
	fieldHint,
	formFromSchema,
	initialText,
	startingChoice,
	validateSelection,
	validateText,
	valueFromText,
	type FormField,
	type FormValue,
} from './elicitationForm';
import { errorMessage } from '../../common/errors';

/**
 * One quick input the presenter is showing. Fired by {@link ElicitationPresenter.onDidShowInput} so the e2e suites
 * can answer the real quick input (set `value` / `selectedItems`, then run `workbench.action.acceptSelectedQuickOpenItem`).
 */
export interface ElicitationInputShown {
	server: string;
	/** `field`: one form field; `review`: the last form step; `url`: consent to open a URL; `retry`: waiting to retry a tool call. */
	kind: 'field' | 'review' | 'url' | 'retry';
	/** The property name, for `field`. */
	field?: string;
	step?: number;
	totalSteps?: number;
	input: vscode.QuickPick<vscode.QuickPickItem> | vscode.InputBox;
}

export interface ElicitationPresenterOptions {
	/**
	 * Opens a URL the user agreed to open, given exactly as the server sent it. Default {@link openExternalUrl}, which
	 * keeps it as sent (`Uri.parse` would decode and re-encode the query: `%26` would reach the page as `&`).
	 */
	openExternal?: (url: string) => Thenable<boolean>;
	/** The queue shared with every other server-initiated UI. Default: one of its own. */
	queue?: ServerInputQueue;
}

type StepResult<T> = { kind: 'value'; value: T } | { kind: 'back' } | { kind: 'decline' } | { kind: 'cancel' };

/** One request while it is on screen: who asks, the server's cancellation, and its turn in the queue. */
interface Session {
	server: string;
	signal: AbortSignal;
	turn: Turn;
}

interface Item extends vscode.QuickPickItem {
	id: string;
}

const CANCELLED: ElicitResult = { action: 'cancel' };

/** One field's step of a form: the session, the form's title, the field, and its place among the steps. */
interface FieldStep {
	session: Session;
	title: string;
	field: FormField;
	step: number;
	totalSteps: number;
}

/** What onDidShowInput tells about a field's step. */
function fieldShown({ session, field, step, totalSteps }: FieldStep): Omit<ElicitationInputShown, 'input'> {
	return { server: session.server, kind: 'field', field: field.name, step, totalSteps };
}

/** The id of an optional choice's "Leave unset" row. */
const UNSET = '\0skip';

/** Buttons are told apart by identity; these mark the two that answer without a value. */
const DECLINE = Symbol('decline');
type AnswerButton = vscode.QuickInputButton & { [DECLINE]?: true };

/** Decline: the user refuses (`decline`). Its tooltip starts with "Decline" (screen readers and the e2e find it so). */
function declineButton(server: string): vscode.QuickInputButton {
	const button: AnswerButton = {
		iconPath: new vscode.ThemeIcon('circle-slash'),
		tooltip: `Decline: tell ${server} you will not answer`,
	};
	button[DECLINE] = true;
	return button;
}

/** Close (the X): the user dismissed the question without choosing (`cancel`). */
function closeButton(server: string): vscode.QuickInputButton {
	return {
		iconPath: new vscode.ThemeIcon('close'),
		tooltip: `Close without answering (${server} is told you cancelled)`,
	};
}

function isDecline(button: vscode.QuickInputButton): boolean {
	return (button as AnswerButton)[DECLINE] === true;
}

/** A field's choices as quick pick rows; form mode's choices are strings (the engine refuses other values). */
function choiceItems(field: FormField): Item[] {
	return (field.choices ?? []).map((c) => {
		const id = String(c.value);
		return { id, label: c.label, description: c.label === id ? undefined : id };
	});
}

/**
 * Shows a server's `elicitation/create` to the user as quick picks and input boxes, taking turns with every other
 * server-initiated UI in the {@link ServerInputQueue}.
 *
 * Form mode is a multi-step quick input titled "<server>: <message>", one step per field ("step n of m", Back,
 * Decline and Close buttons, defaults prefilled, an optional choice without one on "Leave unset", validation as you
 * type) and a last review step with Accept / Decline / Edit. Decline answers `decline`; Close (the X) answers
 * `cancel`; Accept answers `{ action: 'accept', content }` with values of the schema's types.
 * Hiding the form (Escape, Ctrl+P, another quick input) is not an answer: the request waits, announced, and opens
 * again at the same step with what was typed; dismissing it from the waiting list answers `cancel` ("dismissed
 * without making an explicit choice", as the spec puts it). URL mode asks, by quick pick (never a modal, which the
 * smoke-test driver would answer by itself), before opening the page, showing the server and the full domain.
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation
 */
export class ElicitationPresenter implements vscode.Disposable {
	private readonly queue: ServerInputQueue;
	private readonly ownQueue: ServerInputQueue | undefined;
	private readonly shown = new vscode.EventEmitter<ElicitationInputShown>();
	/** Fires whenever the presenter shows a quick input (tests answer through it). */
	readonly onDidShowInput: vscode.Event<ElicitationInputShown> = this.shown.event;
	private readonly completed = new Set<string>();
	private readonly completedEmitter = new vscode.EventEmitter<{ server: string; elicitationId: string }>();
	/** Fires when a server reports a URL elicitation complete (`notifications/elicitation/complete`). */
	readonly onDidComplete: vscode.Event<{ server: string; elicitationId: string }> = this.completedEmitter.event;
	private readonly open: (url: string) => Thenable<boolean>;
	private disposed = false;
	private readonly active = new Set<vscode.QuickInput>();

	/** `log(server)` gives that server's log channel. */
	constructor(
		private readonly log: (server: string) => vscode.LogOutputChannel,
		options: ElicitationPresenterOptions = {},
	) {
		this.open = options.openExternal ?? openExternalUrl;
		this.ownQueue = options.queue ? undefined : new ServerInputQueue();
		this.queue = options.queue ?? (this.ownQueue as ServerInputQueue);
	}

	/**
	 * Asks the user. Requests wait their turn in the queue: a second request shows only after the first is answered,
	 * and none replaces a quick input the user has open. A refusal is an answer (`decline` / `cancel`), never a throw;
	 * when `signal` aborts (the server cancelled the request or disconnected) the open input closes, a waiting request
	 * leaves the queue, and the answer is `cancel`.
	 */
	async elicit(server: string, params: ElicitRequest, signal: AbortSignal): Promise<ElicitResult> {
		if (this.disposed) return CANCELLED;
		const summary =
			params.mode === 'url' ? `asks you to open a page: ${params.message}` : `asks for input: ${params.message}`;
		try {
			return await this.queue.run(
				{ server, summary, signal },
				(turn) =>
					signal.aborted || this.disposed ? Promise.resolve(CANCELLED) : this.run({ server, signal, turn }, params),
				{ dismissed: () => this.dismissed(server), aborted: () => CANCELLED },
			);
		} catch (error) {
			this.log(server).error(`Elicitation failed: ${errorMessage(error)}`);
			return CANCELLED;
		}
	}

	private dismissed(server: string): ElicitResult {
		this.log(server).info('Elicitation dismissed from the waiting list: answered cancel');
		return CANCELLED;
	}

	/**
	 * Records `notifications/elicitation/complete` from a server: the out-of-band interaction with that id finished.
	 * A "retry" prompt waiting for it goes on by itself. Wire it with {@link watchElicitationCompletions}.
	 */
	notifyComplete(server: string, elicitationId: string): void {
		this.completed.add(`${server}\0${elicitationId}`);
		this.log(server).info(`URL elicitation ${elicitationId} completed`);
		this.completedEmitter.fire({ server, elicitationId });
	}

	private isComplete(server: string, elicitationId: string): boolean {
		return this.completed.has(`${server}\0${elicitationId}`);
	}

	dispose(): void {
		this.disposed = true;
		for (const input of [...this.active]) {
			input.hide();
		}
		this.shown.dispose();
		this.completedEmitter.dispose();
		this.ownQueue?.dispose();
	}

	private async run(session: Session, params: ElicitRequest): Promise<ElicitResult> {
		const { server, signal } = session;
		const log = this.log(server);
		const result = params.mode === 'url' ? await this.url(session, params) : await this.form(session, params);
		if (signal.aborted) {
			log.info('Elicitation cancelled by the server');
			return CANCELLED;
		}
		// Field names only: values may be private.
		const fields = result.content ? ` (${Object.keys(result.content).join(', ') || 'no fields'})` : '';
		log.info(`Elicitation "${params.message}" answered: ${result.action}${fields}`);
		return result;
	}

	// ---- form mode ----

	private async form(session: Session, params: ElicitFormRequest): Promise<ElicitResult> {
		const { server, signal } = session;
		const log = this.log(server);
		const model = formFromSchema(params.requestedSchema);
		for (const problem of model.problems) {
			log.warn(`Elicitation form: ${problem.message}${problem.required ? ' (required)' : ' (skipped)'}`);
		}
		if (model.problems.some((p) => p.required)) {
			void vscode.window.showWarningMessage(
				`${server} asked for information in a form this client cannot show; the request was declined. See the server's output for details.`,
			);
			return { action: 'decline' };
		}
		const fields = model.fields;
		const values = defaultValues(fields);
		const title = `${server}: ${params.message}`;
		const totalSteps = fields.length + 1;
		let index = 0;
		let editingFromReview = false;
		for (;;) {
			if (signal.aborted) {
				return CANCELLED;
			}
			const field = fields[index];
			if (field) {
				const at = { session, title, field, step: index + 1, totalSteps };
				const step = await this.askField(at, values.get(field.name));
				if (step.kind === 'cancel') {
					return CANCELLED;
				}
				if (step.kind === 'decline') {
					return { action: 'decline' };
				}
				if (step.kind === 'back') {
					index = Math.max(0, index - 1);
					editingFromReview = false;
					continue;
				}
				if (step.value === undefined) {
					values.delete(field.name);
				} else {
					values.set(field.name, step.value);
				}
				index = editingFromReview ? fields.length : index + 1;
				editingFromReview = false;
				continue;
			}
			const review = await this.review(session, title, fields, values, totalSteps);
			if (review.kind === 'cancel') {
				return CANCELLED;
			}
			if (review.kind === 'decline') {
				return { action: 'decline' };
			}
			if (review.kind === 'back') {
				index = Math.max(0, fields.length - 1);
				continue;
			}
			if (review.value === 'accept') {
				return { action: 'accept', content: buildContent(fields, values) };
			}
			if (review.value === 'decline') {
				return { action: 'decline' };
			}
			// Edit: one field (then back to the review), or the whole form from the first step.
			const target = review.value.startsWith('field:')
				? fields.findIndex((f) => `field:${f.name}` === review.value)
				: 0;
			index = Math.max(0, target);
			editingFromReview = review.value.startsWith('field:');
		}
	}

	private secretWarning(server: string, field: FormField): string {
		return `⚠ ${server} is asking for a secret ("${field.label}"). MCP servers must not ask for passwords, keys or tokens in a form: enter it only if you trust ${server}, or press Escape.`;
	}

	private fieldPrompt(server: string, field: FormField): string {
		const about = field.description ? `${field.label} — ${field.description}` : field.label;
		const text = `${about} (${fieldHint(field)})`;
		return field.secret ? `${this.secretWarning(server, field)} ${text}` : text;
	}

	private askField(at: FieldStep, current: FormValue | undefined): Promise<StepResult<FormValue | undefined>> {
		switch (at.field.kind) {
			case 'string':
			case 'number':
			case 'integer':
			case 'json': // never in form mode (elicitationForm refuses it); typed as JSON if a schema ever gets through
				return this.askText(at, current);
			case 'boolean':
				return this.askChoice(
					at,
					[
						{ id: 'true', label: 'Yes', description: 'true' },
						{ id: 'false', label: 'No', description: 'false' },
					],
					current,
					(id) => id === 'true',
				);
			case 'enum':
				return this.askChoice(at, choiceItems(at.field), current, (id) => id);
			case 'multiEnum':
				return this.askMany(at, Array.isArray(current) ? current : []);
		}
	}

	/**
	 * The buttons of one form step: Back (after the first step), Decline and Close. The X is Close, as everywhere in
	 * the editor: it answers `cancel` (the spec's "dismissed without making an explicit choice"); refusing is Decline,
	 * a button of its own. The review step, which lists Decline as a row, has no Decline button.
	 */
	private stepButtons(server: string, step: number, withDecline = true): vscode.QuickInputButton[] {
		const buttons: vscode.QuickInputButton[] = step > 1 ? [vscode.QuickInputButtons.Back] : [];
		if (withDecline) buttons.push(declineButton(server));
		buttons.push(closeButton(server));
		return buttons;
	}

	/** Titles and numbers the quick input of a field's step, with its Back and Decline buttons. */
	private numberStep<I extends vscode.QuickPick<Item> | vscode.InputBox>(input: I, at: FieldStep): I {
		input.title = at.title;
		input.step = at.step;
		input.totalSteps = at.totalSteps;
		input.buttons = this.stepButtons(at.session.server, at.step);
		return input;
	}

	/**
	 * Runs one quick input until `wire` settles it (or the Back / Decline buttons do); `signal` closes it. Hiding it
	 * without an answer puts the request aside in the queue: when the user opens it again, the same input shows again,
	 * with what was typed; dismissed from the waiting list, it settles `cancel`.
	 */
	private runInput<T>(
		input: vscode.QuickPick<Item> | vscode.InputBox,
		shown: Omit<ElicitationInputShown, 'input'>,
		session: Session,
		wire: (settle: (result: StepResult<T>) => void) => vscode.Disposable[],
	): Promise<StepResult<T>> {
		const { signal, turn } = session;
		return new Promise((resolve) => {
			let settled = false;
			const disposables: vscode.Disposable[] = [];
			const settle = (result: StepResult<T>) => {
				if (settled) {
					return;
				}
				settled = true;
				signal.removeEventListener('abort', onAbort);
				for (const d of disposables) d.dispose();
				this.active.delete(input);
				input.dispose();
				resolve(result);
			};
			const onAbort = () => settle({ kind: 'cancel' });
			signal.addEventListener('abort', onAbort, { once: true });
			disposables.push(
				...wire(settle),
				input.onDidTriggerButton((button) => {
					if (button === vscode.QuickInputButtons.Back) settle({ kind: 'back' });
					else settle({ kind: isDecline(button) ? 'decline' : 'cancel' });
				}),
				input.onDidHide(() => {
					if (settled) return;
					void turn.hidden().then((how) => {
						if (settled) return;
						if (how === 'resume') show(true);
						else settle({ kind: 'cancel' });
					});
				}),
			);
			const show = (again = false) => {
				input.show();
				if (again) reshowItems(input);
				this.shown.fire({ ...shown, input: input });
			};
			input.ignoreFocusOut = true;
			this.active.add(input);
			show();
		});
	}

	private askText(at: FieldStep, current: FormValue | undefined): Promise<StepResult<FormValue | undefined>> {
		const { session, field } = at;
		const { server } = session;
		const box = this.numberStep(vscode.window.createInputBox(), at);
		box.prompt = this.fieldPrompt(server, field);
		box.placeholder = field.required ? `${field.label} (required)` : `${field.label} (optional: leave empty to skip)`;
		box.password = field.secret;
		box.value = initialText(field, current);
		const validate = () => {
			box.validationMessage = box.value === '' && field.required ? undefined : validateText(field, box.value);
		};
		validate();
		return this.runInput(box, fieldShown(at), session, (settle) => [
			box.onDidChangeValue(validate),
			box.onDidAccept(() => {
				const problem = validateText(field, box.value);
				if (problem !== undefined) {
					box.validationMessage = problem;
					return;
				}
				settle({ kind: 'value', value: valueFromText(field, box.value) });
			}),
		]);
	}

	private askChoice<T extends FormValue>(
		at: FieldStep,
		choices: Item[],
		current: FormValue | undefined,
		convert: (id: string) => T,
	): Promise<StepResult<FormValue | undefined>> {
		const { session, field } = at;
		const { server } = session;
		const pick = this.numberStep(vscode.window.createQuickPick<Item>(), at);
		pick.placeholder = this.fieldPrompt(server, field);
		pick.matchOnDescription = true;
		// An optional question with no value yet starts on "Leave unset", not on its first choice (an unanswered
		// "Agree to the terms?" must not become Yes by pressing Enter); a required one on its first choice.
		const start = startingChoice(field, current);
		const startId = start.kind === 'choice' ? start.id : start.kind === 'unset' ? UNSET : undefined;
		const items: Item[] = choices.map((c) => (c.id === startId ? { ...c, detail: 'current choice' } : c));
		if (!field.required) {
			items.push(
				{ id: '', label: '', kind: vscode.QuickPickItemKind.Separator },
				{ id: UNSET, label: 'Leave unset', description: 'optional: send nothing for this field' },
			);
		}
		pick.items = items;
		const active = items.find((i) => i.id === startId);
		if (active) {
			pick.activeItems = [active];
		}
		return this.runInput(pick, fieldShown(at), session, (settle) => [
			pick.onDidAccept(() => {
				const chosen = pick.selectedItems[0] ?? pick.activeItems[0];
				if (!chosen) {
					return;
				}
				settle({ kind: 'value', value: chosen.id === UNSET ? undefined : convert(chosen.id) });
			}),
		]);
	}

	private askMany(at: FieldStep, current: string[]): Promise<StepResult<FormValue | undefined>> {
		const { session, field } = at;
		const { server } = session;
		const pick = this.numberStep(vscode.window.createQuickPick<Item>(), at);
		pick.canSelectMany = true;
		const prompt = this.fieldPrompt(server, field);
		pick.placeholder = prompt;
		const items = choiceItems(field);
		pick.items = items;
		pick.selectedItems = items.filter((i) => current.includes(i.id));
		return this.runInput(pick, fieldShown(at), session, (settle) => [
			pick.onDidChangeSelection((selected) => {
				const problem = validateSelection(field, selected.length);
				pick.placeholder = problem ? `${problem}: ${prompt}` : prompt;
			}),
			pick.onDidAccept(() => {
				const selected = pick.selectedItems.map((i) => i.id);
				const problem = validateSelection(field, selected.length);
				if (problem !== undefined) {
					pick.placeholder = `${problem}: ${prompt}`;
					return;
				}
				// Keep the schema's order, whatever order the boxes were ticked in.
				const ordered = choiceItems(field)
					.map((i) => i.id)
					.filter((v) => selected.includes(v));
				settle({ kind: 'value', value: ordered.length === 0 && !field.required ? undefined : ordered });
			}),
		]);
	}

	private review(
		session: Session,
		title: string,
		fields: readonly FormField[],
		values: ReadonlyMap<string, FormValue>,
		totalSteps: number,
	): Promise<StepResult<string>> {
		const { server } = session;
		const pick = vscode.window.createQuickPick<Item>();
		pick.title = title;
		pick.step = totalSteps;
		pick.totalSteps = totalSteps;
		pick.buttons = this.stepButtons(server, fields.length > 0 ? totalSteps : 1, false);
		const secrets = fields.filter((f) => f.secret && values.has(f.name));
		pick.placeholder =
			fields.length === 0
				? `${server} asks you to confirm. Accept, or Decline`
				: `Review what ${server} will receive, then Accept, Decline or Edit${secrets.length > 0 ? ` — includes a secret (${secrets.map((f) => f.label).join(', ')})` : ''}`;
		const missing = fields.filter((f) => f.required && !values.has(f.name));
		const items: Item[] = [];
		if (missing.length === 0) {
			items.push({ id: 'accept', label: '$(check) Accept', description: `send to ${server}` });
		}
		items.push({ id: 'decline', label: '$(close) Decline', description: `tell ${server} you decline` });
		if (fields.length > 0) {
			items.push({ id: 'edit', label: '$(edit) Edit', description: 'go through the form again' });
			items.push({ id: '', label: 'will be sent', kind: vscode.QuickPickItemKind.Separator });
			for (const field of fields) {
				const value = values.get(field.name);
				items.push({
					id: `field:${field.name}`,
					label: `${field.label}: ${displayValue(field, value)}`,
					description: field.required && value === undefined ? 'required: select to fill in' : 'select to edit',
				});
			}
		}
		pick.items = items;
		return this.runInput(pick, { server, kind: 'review', step: totalSteps, totalSteps }, session, (settle) => [
			pick.onDidAccept(() => {
				const chosen = pick.selectedItems[0] ?? pick.activeItems[0];
				if (chosen) {
					settle({ kind: 'value', value: chosen.id });
				}
			}),
		]);
	}

	// ---- URL mode ----

	private async url(session: Session, params: ElicitUrlRequest): Promise<ElicitResult> {
		const { server } = session;
		const log = this.log(server);
		let target: URL;
		try {
			target = new URL(params.url);
		} catch {
			log.warn(`URL elicitation declined: "${params.url}" is not a URL`);
			return { action: 'decline' };
		}
		// Only web pages: a command:, file: or vscode: link could act inside the editor instead of showing a page.
		if (target.protocol !== 'https:' && target.protocol !== 'http:') {
			log.warn(`URL elicitation declined: only http and https pages are opened, not ${target.protocol}`);
			void vscode.window.showWarningMessage(
				`${server} asked to open a ${target.protocol} link; only web pages are opened. The request was declined.`,
			);
			return { action: 'decline' };
		}
		const domain = target.hostname;
		const pick = vscode.window.createQuickPick<Item>();
		pick.title = `${server} asks you to open a page on ${domain}`;
		pick.placeholder = `${params.message} — opens ${domain}${target.protocol === 'http:' ? ' (not encrypted: http)' : ''}`;
		// Decline first, so the row Enter takes by default is the safe one.
		pick.items = [
			{ id: 'decline', label: '$(close) Decline', description: `tell ${server} you will not open it` },
			{ id: 'open', label: `$(link-external) Open ${domain}`, detail: target.href, description: 'in your browser' },
		];
		const step = await this.runInput<string>(pick, { server, kind: 'url' }, session, (settle) => [
			pick.onDidAccept(() => {
				// Enter with no row focused yet takes the safe choice.
				settle({ kind: 'value', value: pick.selectedItems[0]?.id ?? pick.activeItems[0]?.id ?? 'decline' });
			}),
		]);
		if (step.kind === 'cancel' || step.kind === 'back') {
			return CANCELLED;
		}
		if (step.kind === 'decline' || step.value === 'decline') {
			return { action: 'decline' };
		}
		// Spec: accept means the user agreed to open the URL; the interaction itself happens out of band.
		const opened = await this.open(params.url);
		log.info(
			`Opened ${domain} for URL elicitation ${params.elicitationId}${opened ? '' : ' (the editor could not open it)'}`,
		);
		return { action: 'accept' };
	}

	/**
	 * After the user opened the URLs of a -32042 error: offers to retry the tool call, going on by itself when the
	 * server reports every elicitation complete. Resolves true to retry.
	 */
	async confirmRetry(
		server: string,
		what: string,
		elicitationIds: readonly string[],
		signal?: AbortSignal,
	): Promise<boolean> {
		const pending = () => elicitationIds.filter((id) => !this.isComplete(server, id));
		if (elicitationIds.length > 0 && pending().length === 0) {
			return true;
		}
		const own = signal ?? new AbortController().signal;
		return this.queue.run(
			{ server, summary: `waits for you to retry ${what}`, signal: own },
			(turn) => this.askRetry({ server, signal: own, turn }, what, elicitationIds, pending),
			{
				dismissed: () => false,
				aborted: () => false,
			},
		);
	}

	private async askRetry(
		session: Session,
		what: string,
		elicitationIds: readonly string[],
		pending: () => string[],
	): Promise<boolean> {
		const { server } = session;
		if (elicitationIds.length > 0 && pending().length === 0) {
			return true;
		}
		const pick = vscode.window.createQuickPick<Item>();
		pick.title = `${server}: finish in your browser, then retry ${what}`;
		pick.placeholder = `Waiting for ${server} to report the page done. Retry when you have finished, or press Escape.`;
		pick.items = [
			{ id: 'retry', label: `$(refresh) Retry ${what}`, description: 'now' },
			{ id: 'cancel', label: '$(close) Do not retry' },
		];
		const step = await this.runInput<boolean>(pick, { server, kind: 'retry' }, session, (settle) => [
			pick.onDidAccept(() => {
				const chosen = pick.selectedItems[0] ?? pick.activeItems[0];
				if (chosen) {
					settle({ kind: 'value', value: chosen.id === 'retry' });
				}
			}),
			this.completedEmitter.event((e) => {
				if (e.server === server && elicitationIds.length > 0 && pending().length === 0) {
					settle({ kind: 'value', value: true });
				}
			}),
		]);
		return step.kind === 'value' && step.value;
	}
}
