/**
 * A server's form (elicitation) asked in a terminal: one field at a time on stderr, read from stdin, judged by the
 * same form engine as VS Code's quick inputs (`src/manager/forms/`): an invalid answer is explained and asked again.
 * Enter keeps a [default]; a number picks a choice; `-` leaves an optional field out; secrets are not echoed.
 * stdout stays clean for the command's own output.
 */
import type { FormField } from '../manager/forms/formModel';
import { choiceNamed, collectValues, parseText } from '../manager/forms/formRules';
import { displayValue, fieldHint } from '../manager/forms/formText';

/** A line-by-line conversation with a person. */
export interface Prompter {
	/** Writes a line (or more) for the person. */
	say(text: string): void;
	/** Asks one question; undefined when input ended or the person pressed Ctrl+C. `secret`: nothing typed is echoed. */
	ask(question: string, options?: { secret?: boolean }): Promise<string | undefined>;
	close(): void;
}

/** How a terminal form ended. */
export type TerminalAnswer = { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' | 'cancel' };

/** A choice typed by its number in the list shown (1-based), turned into its label; other text is kept as typed. */
function byNumber(field: FormField, text: string): string {
	const choices = field.choices ?? [];
	return text
		.split(',')
		.map((part) => {
			const trimmed = part.trim();
			const index = /^\d+$/.test(trimmed) && !choiceNamed(field, trimmed) ? Number(trimmed) - 1 : -1;
			return choices[index]?.label ?? trimmed;
		})
		.join(field.kind === 'multiEnum' ? ', ' : ',');
}

/** The question line of a field, with its hint and default. */
function questionOf(field: FormField, current: unknown): string {
	const about = field.description ? `${field.label} — ${field.description}` : field.label;
	const shown = current === undefined ? '' : ` [${displayValue(field, current)}]`;
	const yesNo = field.kind === 'boolean' ? ' (y/n)' : '';
	return `${about} (${fieldHint(field)})${yesNo}${shown}: `;
}

/** The numbered choices of an enum or multi-select field, one line. */
function choicesLine(field: FormField): string | undefined {
	if (field.kind !== 'enum' && field.kind !== 'multiEnum') return undefined;
	const list = (field.choices ?? []).map((c, i) => `${i + 1}) ${c.label}`).join('  ');
	return `  ${list}${field.kind === 'multiEnum' ? '   (several: 1,3)' : ''}`;
}

/**
 * Asks one field until the answer passes the engine's rules. Resolves the value (undefined: left out), or 'end' when
 * input ended. Enter with a current value (default or `--answer`) keeps it.
 */
async function askField(io: Prompter, field: FormField, current: unknown): Promise<{ value: unknown } | 'end'> {
	const choices = choicesLine(field);
	if (choices) io.say(choices);
	if (field.secret) io.say(`  (${field.label} looks like a secret: what you type is not shown)`);
	for (;;) {
		const typed = await io.ask(questionOf(field, current), { secret: field.secret });
		if (typed === undefined) return 'end';
		if (typed.trim() === '' && current !== undefined) return { value: current };
		if (typed.trim() === '-' && !field.required) return { value: undefined };
		const converted = parseText(
			field,
			field.kind === 'enum' || field.kind === 'multiEnum' ? byNumber(field, typed) : typed,
		);
		if (converted.ok) return { value: converted.value };
		io.say(`  ${converted.error}`);
	}
}

/**
 * Asks `fields` one by one (those in `preset`, from `--answer`, are not asked), then shows what will be sent and
 * asks to send it. `n` declines; end of input (Ctrl+D) or Ctrl+C cancels.
 */
export async function askFormInTerminal(
	io: Prompter,
	intro: string,
	fields: readonly FormField[],
	preset: ReadonlyMap<string, unknown>,
	defaults: ReadonlyMap<string, unknown>,
): Promise<TerminalAnswer> {
	io.say(intro);
	io.say('  (Enter keeps the [value] shown; - leaves an optional field out; Ctrl+C cancels)');
	const values = new Map<string, unknown>(defaults);
	for (const [name, value] of preset) values.set(name, value);
	for (const field of fields) {
		if (preset.has(field.name)) continue;
		const answer = await askField(io, field, values.get(field.name));
		if (answer === 'end') return { action: 'cancel' };
		if (answer.value === undefined) values.delete(field.name);
		else values.set(field.name, answer.value);
	}
	const collected = collectValues(fields, values);
	if (!collected.ok) {
		// Every field was asked until valid, so only a preset (--answer) can be wrong here; main checks those first.
		return { action: 'decline' };
	}
	if (fields.length > 0) {
		io.say('Will be sent:');
		for (const field of fields) io.say(`  ${field.label}: ${displayValue(field, values.get(field.name))}`);
	}
	for (;;) {
		const confirm = await io.ask('Send? [y = send, n = decline]: ');
		if (confirm === undefined) return { action: 'cancel' };
		if (/^y(es)?$/i.test(confirm.trim())) return { action: 'accept', content: collected.value };
		if (/^no?$/i.test(confirm.trim())) return { action: 'decline' };
	}
}

/** Asks a yes/no question; no is the answer on Enter (the safe one). Undefined when input ended. */
export async function askYesNo(io: Prompter, question: string): Promise<boolean | undefined> {
	for (;;) {
		const typed = await io.ask(`${question} [y/N]: `);
		if (typed === undefined) return undefined;
		if (/^y(es)?$/i.test(typed.trim())) return true;
		if (/^(no?|)$/i.test(typed.trim())) return false;
	}
}

/**
 * A prompter on the process's stdin and stderr through one readline interface (so lines typed ahead are not lost
 * between questions). Loaded on first use: most runs never prompt, and node:readline costs ~15 ms to load.
 */
export function terminalPrompter(): Prompter {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const readline = require('node:readline') as typeof import('node:readline');
	const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: true });
	let muted = false;
	let ended = false;
	const waiting = new Set<(value: string | undefined) => void>();
	// Echo nothing of what is typed while a secret is asked (readline writes each key through _writeToOutput).
	const internal = rl as unknown as { _writeToOutput(text: string): void };
	const write = internal._writeToOutput.bind(rl);
	internal._writeToOutput = (text) => {
		if (!muted) write(text);
	};
	const end = () => {
		ended = true;
		for (const resolve of waiting) resolve(undefined);
		waiting.clear();
	};
	rl.on('close', end);
	rl.on('SIGINT', () => {
		process.stderr.write('\n');
		end();
	});
	return {
		say: (text) => process.stderr.write(`${text}\n`),
		ask: (question, options) =>
			new Promise((resolve) => {
				if (ended) return resolve(undefined);
				waiting.add(resolve);
				rl.question(question, (answer) => {
					waiting.delete(resolve);
					if (muted) process.stderr.write('\n');
					muted = false;
					resolve(answer);
				});
				// The question itself is written before muting, so only the typed keys are hidden.
				muted = options?.secret === true;
			}),
		close: () => {
			rl.close();
		},
	};
}
