/**
 * `${input:id}` values on the command line, in this order: `--input id=value`, the environment variable
 * `MCP_SWITCHBOARD_INPUT_<ID>` (the id upper-cased, other characters as `_`), the input's `default`, and — only when
 * stdin is a terminal — a prompt (passwords not echoed). Never prompts in CI or a pipe: the missing input is then a
 * problem that names the flag and the variable to set.
 */
import type { InputDefinition } from '../manager/config';
import type { InputValue } from './workspaceConfig';

/** The environment variable that supplies input `id`. */
export function inputEnvName(id: string): string {
	return `MCP_SWITCHBOARD_INPUT_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

export interface InputSourceOptions {
	/** Values from `--input id=value` flags. */
	flags: ReadonlyMap<string, string>;
	env: Readonly<Record<string, string | undefined>>;
	/** Whether a person can answer (stdin and stderr are terminals). */
	interactive: boolean;
	/** Collects problems for inputs that have no value. */
	problems: string[];
}

export function inputSource(options: InputSourceOptions): InputValue {
	const answered = new Map<string, string | undefined>();
	const missing = (id: string) =>
		options.problems.push(`Input '${id}' has no value: pass --input ${id}=VALUE or set ${inputEnvName(id)}`);
	return async (definition, id) => {
		if (answered.has(id)) {
			// Asked once for every server that uses it; a missing value is a problem for each of them.
			const value = answered.get(id);
			if (value === undefined) missing(id);
			return value;
		}
		let value = options.flags.get(id) ?? options.env[inputEnvName(id)];
		if (value === undefined && definition?.default !== undefined) value = definition.default;
		if (value === undefined && options.interactive) value = await ask(definition, id);
		if (value === undefined) missing(id);
		answered.set(id, value);
		return value;
	};
}

/** One question on the terminal (stderr, so stdout stays clean for `--json`). Ctrl+C / end of input: no value. */
function ask(definition: InputDefinition | undefined, id: string): Promise<string | undefined> {
	const secret = definition?.type === 'promptString' && definition.password === true;
	const choices = definition?.type === 'pickString' ? ` [${definition.options.join(' | ')}]` : '';
	const question = `${definition?.description ?? `Value for \${input:${id}}`}${choices}: `;
	// Loaded here: most runs never prompt, and node:readline costs ~15 ms to load.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const readline = require('node:readline') as typeof import('node:readline');
	return new Promise((resolve) => {
		const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: true });
		if (secret) {
			// Echo nothing of what is typed after the question (readline writes each key through _writeToOutput).
			const internal = rl as unknown as { _writeToOutput(text: string): void };
			const write = internal._writeToOutput.bind(rl);
			let asked = false;
			internal._writeToOutput = (text) => {
				if (!asked) {
					asked = true;
					write(text);
				}
			};
		}
		let done = false;
		rl.question(question, (answer) => {
			done = true;
			if (secret) process.stderr.write('\n');
			rl.close();
			resolve(answer === '' && definition?.type === 'pickString' ? undefined : answer);
		});
		rl.on('close', () => {
			if (!done) resolve(undefined);
		});
	});
}
