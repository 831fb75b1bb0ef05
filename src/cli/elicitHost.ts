/**
 * The command line's answer to a server's `elicitation/create`: in a terminal the person answers (terminalForms.ts);
 * `--answer field=value` fills form fields for CI; with `--json`, `--no-input` or no terminal nothing is asked and a
 * form `--answer` does not complete is declined, with a message on stderr that says why and how to answer it.
 * URL mode prints the page and opens it only after a yes. Every value is judged by the form engine
 * (`src/manager/forms/`), the same rules as VS Code's forms. Spec:
 * https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation
 */
import { spawn } from 'node:child_process';
import type { Host } from '../manager/host';
import type { FormField } from '../manager/forms/formModel';
import { elicitationForm } from '../manager/forms/forms';
import { collectValues, defaultValues, parseText } from '../manager/forms/formRules';
import type { ElicitFormRequest, ElicitRequest, ElicitResult, ElicitUrlRequest } from '../protocol/schema';
import type { CliOptions } from './args';
import { askFormInTerminal, askYesNo, terminalPrompter, type Prompter } from './terminalForms';

/** What decides how a form is answered. */
export interface ElicitContext {
	options: Pick<CliOptions, 'json' | 'noInput' | 'answers'>;
	/** True when stdin and stderr are terminals. */
	tty: boolean;
	/** Writes a line on stderr. */
	error(text: string): void;
	/** A conversation with the person (only called when one is possible). */
	prompter(): Prompter;
	/** Opens a page the person agreed to open; tests print only. */
	openUrl(url: string): void;
}

/** Why nothing can be asked here, or undefined when a person can answer. */
function whyNoPrompt(context: ElicitContext): string | undefined {
	if (context.options.json) return '--json output does not prompt';
	if (context.options.noInput) return '--no-input was given';
	if (!context.tty) return 'there is no terminal to answer in';
	return undefined;
}

/** `--answer` values read by each field's rules; problems name the field and what is wrong. */
function presetAnswers(
	fields: readonly FormField[],
	answers: ReadonlyMap<string, string>,
): { values: Map<string, unknown>; problems: string[]; unknown: string[] } {
	const values = new Map<string, unknown>();
	const problems: string[] = [];
	for (const field of fields) {
		const text = answers.get(field.name);
		if (text === undefined) continue;
		const converted = parseText(field, text);
		if (!converted.ok) problems.push(`--answer ${field.name}=${text}: ${converted.error}`);
		else if (converted.value !== undefined) values.set(field.name, converted.value);
	}
	const unknown = [...answers.keys()].filter((name) => !fields.some((f) => f.name === name));
	return { values, problems, unknown };
}

/** "name (text, required)" for a decline message. */
function fieldList(fields: readonly FormField[]): string {
	return fields.map((f) => `${f.name} (${f.label === f.name ? '' : `${f.label}: `}${f.kind})`).join(', ');
}

async function answerForm(context: ElicitContext, server: string, params: ElicitFormRequest): Promise<ElicitResult> {
	const form = elicitationForm(params.requestedSchema);
	const unsupported = form.problems.filter((p) => p.required);
	if (unsupported.length > 0) {
		context.error(
			`${server} asks for a form this command line cannot show (${unsupported.map((p) => p.message).join('; ')}): declined.`,
		);
		return { action: 'decline' };
	}
	const preset = presetAnswers(form.fields, context.options.answers);
	for (const name of preset.unknown) context.error(`note: --answer ${name}=… names no field of ${server}'s form`);
	const noPrompt = whyNoPrompt(context);
	const asking = `${server} asks: ${params.message}`;
	if (preset.problems.length > 0) {
		context.error(`${asking}\n${preset.problems.join('\n')}\nDeclined: fix the --answer values.`);
		return { action: 'decline' };
	}
	if (noPrompt === undefined) {
		const io = context.prompter();
		try {
			const answer = await askFormInTerminal(io, asking, form.fields, preset.values, defaultValues(form.fields));
			return answer.action === 'accept' ? { action: 'accept', content: answer.content as never } : answer;
		} finally {
			io.close();
		}
	}
	const values = defaultValues(form.fields);
	for (const [name, value] of preset.values) values.set(name, value);
	const collected = collectValues(form.fields, values);
	if (!collected.ok) {
		const missing = collected.missing;
		context.error(
			`${asking}\nDeclined: ${noPrompt}, and --answer does not fill the required field${missing.length > 1 ? 's' : ''} ` +
				`${fieldList(missing)}. Answer with --answer ${missing[0]?.name ?? 'FIELD'}=VALUE (repeatable), or run in a terminal.`,
		);
		return { action: 'decline' };
	}
	if (context.options.answers.size === 0) {
		// Nothing was answered on purpose: sending only the defaults would agree on the person's behalf.
		context.error(
			`${asking}\nDeclined: ${noPrompt}. Answer with --answer FIELD=VALUE (fields: ${fieldList(form.fields) || 'none'}), or run in a terminal.`,
		);
		return { action: 'decline' };
	}
	context.error(`${asking}\nAnswered from --answer: ${Object.keys(collected.value).join(', ') || 'no fields'}.`);
	return { action: 'accept', content: collected.value as never };
}

async function answerUrl(context: ElicitContext, server: string, params: ElicitUrlRequest): Promise<ElicitResult> {
	let target: URL;
	try {
		target = new URL(params.url);
	} catch {
		context.error(`${server} asked to open "${params.url}", which is not a URL: declined.`);
		return { action: 'decline' };
	}
	// Only web pages: another scheme could run a program instead of showing a page.
	if (target.protocol !== 'https:' && target.protocol !== 'http:') {
		context.error(`${server} asked to open a ${target.protocol} link; only web pages are opened: declined.`);
		return { action: 'decline' };
	}
	const asking = `${server} asks you to open a page on ${target.hostname}: ${params.message}\n  ${params.url}`;
	const noPrompt = whyNoPrompt(context);
	if (noPrompt !== undefined) {
		context.error(`${asking}\nDeclined: ${noPrompt}. Run the command in a terminal to open it.`);
		return { action: 'decline' };
	}
	const io = context.prompter();
	try {
		io.say(asking);
		const yes = await askYesNo(
			io,
			`Open ${target.hostname}${target.protocol === 'http:' ? ' (not encrypted: http)' : ''}?`,
		);
		if (yes === undefined) return { action: 'cancel' };
		if (!yes) return { action: 'decline' };
		io.say(`Opening ${params.url}`);
		context.openUrl(params.url);
		return { action: 'accept' };
	} finally {
		io.close();
	}
}

/** Opens a page with the platform's opener, detached; a missing opener is harmless (the URL was printed). */
export function openWithSystem(url: string): void {
	if (process.env.MCP_SWITCHBOARD_NO_BROWSER) return;
	const [command, args] =
		process.platform === 'darwin'
			? ['open', [url]]
			: process.platform === 'win32'
				? ['cmd', ['/c', 'start', '""', url]]
				: ['xdg-open', [url]];
	try {
		const child = spawn(command, args, { stdio: 'ignore', detached: true });
		child.on('error', () => undefined);
		child.unref();
	} catch {
		// The URL is on screen; the person can open it by hand.
	}
}

/**
 * The Host's `elicit` for the command line (form and URL mode, so both are declared to servers). Requests are
 * answered one at a time: two forms never share the terminal.
 */
export function elicitHost(context: ElicitContext): Pick<Host, 'elicit' | 'elicitUrl'> {
	let queue: Promise<unknown> = Promise.resolve();
	const elicit = (server: string, params: ElicitRequest, signal: AbortSignal): Promise<ElicitResult> => {
		const turn = queue.then(async (): Promise<ElicitResult> => {
			if (signal.aborted) return { action: 'cancel' };
			return params.mode === 'url' ? answerUrl(context, server, params) : answerForm(context, server, params);
		});
		queue = turn.catch(() => undefined);
		return turn;
	};
	return { elicit, elicitUrl: true };
}

/** The context of a real run: the process's terminal, stderr, and the system's opener. */
export function processElicitContext(options: ElicitContext['options']): ElicitContext {
	return {
		options,
		tty: process.stdin.isTTY === true && process.stderr.isTTY === true,
		error: (text) => process.stderr.write(`${text}\n`),
		prompter: terminalPrompter,
		openUrl: openWithSystem,
	};
}
