/**
 * The command line of `mcp-switchboard`: global flags, one command and its operands. Parsing never exits the
 * process; a usage problem is returned as text, and main.ts turns it into exit code 2.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { errorMessage } from '../common/errors';

export const USAGE = `Usage: mcp-switchboard [options] <command>

Commands (servers come from .vscode/settings.json "mcpSwitchboard.servers", .vscode/mcp.json and .mcp.json):
  servers                          what each configured server would run; starts nothing
  list [server ...]                start servers and list their tools (marking those the workspace
                                   switches off for chat models), resources, templates and prompts
  call <server> <tool> [--args JSON | --args-file FILE]
                                   call a tool and print its result; a tool that must run as a
                                   task runs as one, its states and progress on stderr
  read <server> <uri>              read a resource
  prompt <server> <prompt> [--args JSON]
                                   get a prompt's messages
  run <file.mcpcall.json>          run a saved invocation (tool, prompt or resource)
  test [file|dir ...] [--junit FILE]
                                   run call files (folders searched for *.mcpcall.json; default the
                                   workspace) as tests of their "expect"; each server starts once;
                                   one line per file, a summary, exit 1 when any failed
  replay <file.mcpsession.json> [--http PORT]
                                   serve a recorded session as a fake server: over stdio, or
                                   Streamable HTTP on 127.0.0.1:PORT (0: a free port); requests not
                                   in the recording get an error, are reported, and make it exit 1
  check <server> [--scenario NAME]
                                   run the official MCP conformance suite's server scenarios against
                                   it (a stdio server through a loopback bridge, fresh processes of
                                   it, never a running one: the suite calls its tools); a line per
                                   scenario, exit 1 when any failed. Runs the suite with npx (Node
                                   22+), or the command in MCP_SWITCHBOARD_CONFORMANCE (a JSON array)
  doctor [server ...]              start servers and say in plain words what is wrong with each
  search [TEXT] [--registry URL]   find servers in the MCP Registry: name, version, how each runs
  add NAME [--version V] [--registry URL] [--yes]
                                   install a server from the registry into the workspace's
                                   .vscode/mcp.json (shows what will run; --input answers its
                                   values; secrets stay \${input:…}, asked or passed when it runs)

Options:
  -w, --workspace DIR   the workspace folder (default: the current directory)
  --json                machine-readable output on stdout
  --input ID=VALUE      a value for \${input:ID} (repeatable; or set MCP_SWITCHBOARD_INPUT_<ID>)
  --answer FIELD=VALUE  answers a field of a form a server asks for (elicitation) without a prompt, for CI
                        (repeatable; checked against the field's type: numbers, yes/no, a choice's label or
                        value, a comma-separated list for several choices)
  --no-input            never prompt: forms a server asks for are declined unless --answer fills them
  --timeout MS          per-request timeout (default: the server's timeoutMs, else 60000)
  -v, --verbose         the servers' logs and the protocol trace on stderr
  --registry URL        the registry for search and add (repeatable; default: $MCP_SWITCHBOARD_REGISTRY,
                        then "mcpSwitchboard.registry.url" in .vscode/settings.json, then the official one)
  -y, --yes             add: write without asking
  -h, --help            this text

Forms and pages a server asks for (elicitation): in a terminal each field is asked on stderr, checked as
you type it (Enter keeps a [default], a number picks a choice), and a page is opened only after you say yes.
With --json, --no-input or no terminal nothing is asked: the form is declined (with a message on stderr)
unless --answer gives every required field. Sampling is declined: this command line has no model.

Exit codes: 0 success; 1 the server failed, the tool reported an error, or doctor found a problem;
2 a usage or configuration error (unknown server, bad arguments, malformed file); 130 interrupted
(Ctrl+C cancels a call in flight first: a task gets tasks/cancel, and the server's answer is printed).
Workspace-defined servers start because you ran this command in that folder, as \`npm run\` would: use
\`servers\` first to see what a folder you do not know would run.`;

export type Command =
	| { name: 'servers' }
	| { name: 'list'; servers: string[] }
	| { name: 'call'; server: string; tool: string; args: Record<string, unknown> }
	| { name: 'read'; server: string; uri: string }
	| { name: 'prompt'; server: string; prompt: string; args: Record<string, string> }
	| { name: 'run'; file: string }
	| { name: 'test'; paths: string[]; junit?: string }
	| { name: 'replay'; file: string; httpPort?: number }
	| { name: 'check'; server: string; scenario?: string }
	| { name: 'doctor'; servers: string[] }
	| { name: 'search'; text: string | undefined }
	| { name: 'add'; server: string; version: string | undefined }
	| { name: 'help' };

export interface CliOptions {
	workspace: string;
	json: boolean;
	verbose: boolean;
	inputs: Map<string, string>;
	timeoutMs?: number;
	/** `--answer field=value` pairs, for forms a server asks for (cli/elicitHost.ts). */
	answers: Map<string, string>;
	/** `--no-input`: never prompt (forms are declined unless `--answer` fills them). */
	noInput: boolean;
	/** `--registry URL` (search, add), in the order given. */
	registries: string[];
	/** `--yes` (add): write without asking. */
	yes: boolean;
}

export type Parsed = { ok: true; command: Command; options: CliOptions } | { ok: false; error: string };

function jsonObject(text: string, what: string): Record<string, unknown> | string {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		return `${what} is not valid JSON (${errorMessage(error)})`;
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value))
		return `${what} must be a JSON object, e.g. '{"message":"hi"}'`;
	return value as Record<string, unknown>;
}

/** The command line's options, for `node:util` parseArgs. */
const OPTIONS = {
	workspace: { type: 'string', short: 'w' },
	json: { type: 'boolean' },
	input: { type: 'string', multiple: true },
	answer: { type: 'string', multiple: true },
	'no-input': { type: 'boolean' },
	timeout: { type: 'string' },
	verbose: { type: 'boolean', short: 'v' },
	help: { type: 'boolean', short: 'h' },
	args: { type: 'string' },
	'args-file': { type: 'string' },
	registry: { type: 'string', multiple: true },
	version: { type: 'string' },
	yes: { type: 'boolean', short: 'y' },
	junit: { type: 'string' },
	http: { type: 'string' },
	scenario: { type: 'string' },
} satisfies ParseArgsConfig['options'];

/** `KEY=VALUE` pairs as a map, or the problem (`need`, then the pair that has no key). */
function keyValuePairs(pairs: readonly string[] | undefined, need: string): Map<string, string> | string {
	const map = new Map<string, string>();
	for (const pair of pairs ?? []) {
		const eq = pair.indexOf('=');
		if (eq <= 0) return `${need} (got '${pair}')`;
		map.set(pair.slice(0, eq), pair.slice(eq + 1));
	}
	return map;
}

/** `check <server> [--scenario NAME]`. */
function checkCommand(server: string, scenario: string | undefined): Command {
	const command: Command = { name: 'check', server };
	if (scenario !== undefined) command.scenario = scenario;
	return command;
}

/**
 * Parses `argv` (without node and the script). `readFile` reads `--args-file` (injected so parsing stays pure).
 */
export function parseCommandLine(argv: readonly string[], cwd: string, readFile: (path: string) => string): Parsed {
	let parsed;
	try {
		parsed = parseArgs({ args: [...argv], allowPositionals: true, options: OPTIONS });
	} catch (error) {
		return { ok: false, error: errorMessage(error) };
	}
	const { values, positionals } = parsed;
	const inputs = keyValuePairs(values.input, '--input needs ID=VALUE');
	if (typeof inputs === 'string') return { ok: false, error: inputs };
	const answers = keyValuePairs(values.answer, '--answer needs FIELD=VALUE');
	if (typeof answers === 'string') return { ok: false, error: answers };
	const options: CliOptions = {
		workspace: values.workspace ?? cwd,
		json: values.json === true,
		verbose: values.verbose === true,
		inputs,
		answers,
		noInput: values['no-input'] === true,
		registries: values.registry ?? [],
		yes: values.yes === true,
	};
	if (values.timeout !== undefined) {
		const ms = Number(values.timeout);
		if (!Number.isFinite(ms) || ms <= 0)
			return { ok: false, error: `--timeout must be a positive number of milliseconds (got '${values.timeout}')` };
		options.timeoutMs = ms;
	}
	if (values.help || positionals.length === 0) return { ok: true, command: { name: 'help' }, options };

	let args: Record<string, unknown> = {};
	if (values.args !== undefined && values['args-file'] !== undefined)
		return { ok: false, error: 'give --args or --args-file, not both' };
	if (values.args !== undefined || values['args-file'] !== undefined) {
		let text: string;
		try {
			text = values.args ?? readFile(values['args-file']!);
		} catch (error) {
			return { ok: false, error: `cannot read --args-file: ${errorMessage(error)}` };
		}
		const object = jsonObject(text, values.args !== undefined ? '--args' : '--args-file');
		if (typeof object === 'string') return { ok: false, error: object };
		args = object;
	}

	const [name, ...rest] = positionals;
	const need = (count: number, shape: string): string | undefined =>
		rest.length === count ? undefined : `'${name}' takes ${shape}`;
	switch (name) {
		case 'servers': {
			const problem = need(0, 'no operands');
			return problem ? { ok: false, error: problem } : { ok: true, command: { name }, options };
		}
		case 'list':
		case 'doctor':
			return { ok: true, command: { name, servers: rest }, options };
		case 'call': {
			const problem = need(2, '<server> <tool>');
			return problem
				? { ok: false, error: problem }
				: { ok: true, command: { name, server: rest[0]!, tool: rest[1]!, args }, options };
		}
		case 'read': {
			const problem = need(2, '<server> <uri>');
			return problem
				? { ok: false, error: problem }
				: { ok: true, command: { name, server: rest[0]!, uri: rest[1]! }, options };
		}
		case 'prompt': {
			const problem = need(2, '<server> <prompt>');
			if (problem) return { ok: false, error: problem };
			const stringArgs: Record<string, string> = {};
			for (const [key, value] of Object.entries(args)) {
				if (typeof value === 'object' && value !== null)
					return { ok: false, error: `prompt argument '${key}' must be a string` };
				stringArgs[key] = String(value);
			}
			return { ok: true, command: { name, server: rest[0]!, prompt: rest[1]!, args: stringArgs }, options };
		}
		case 'test': {
			const command: Command = { name, paths: rest };
			if (values.junit !== undefined) command.junit = values.junit;
			return { ok: true, command, options };
		}
		case 'replay': {
			const problem = need(1, '<file.mcpsession.json>');
			if (problem) return { ok: false, error: problem };
			const command: Command = { name, file: rest[0]! };
			if (values.http !== undefined) {
				const port = Number(values.http);
				if (!Number.isInteger(port) || port < 0 || port > 65535)
					return { ok: false, error: `--http needs a port number (got '${values.http}')` };
				command.httpPort = port;
			}
			return { ok: true, command, options };
		}
		case 'check':
			return rest.length === 1
				? { ok: true, command: checkCommand(rest[0]!, values.scenario), options }
				: { ok: false, error: "'check' takes <server>" };
		case 'run': {
			const problem = need(1, '<file.mcpcall.json>');
			return problem ? { ok: false, error: problem } : { ok: true, command: { name, file: rest[0]! }, options };
		}
		case 'search':
			if (rest.length > 1)
				return { ok: false, error: '\'search\' takes at most one TEXT (quote words: search "git hub")' };
			return { ok: true, command: { name, text: rest[0] }, options };
		case 'add': {
			const problem = need(1, '<registry server name>, e.g. io.github.owner/server');
			return problem
				? { ok: false, error: problem }
				: { ok: true, command: { name, server: rest[0]!, version: values.version }, options };
		}
		default:
			return { ok: false, error: `unknown command '${name}'` };
	}
}
