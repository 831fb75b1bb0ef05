import { errorMessage } from '../common/errors';
import { parseExpectations, type Expectations } from './expectations';
import { isRecord } from '../common/records';
/**
 * Saved invocations: a `*.mcpcall.json` file names one server and one thing to do on it — call a tool, get a
 * prompt or read a resource — so a call can be kept in a repository, run again from the command line
 * (`mcp-switchboard run file.mcpcall.json`) and, later, from the editor. Its JSON schema is
 * `schemas/mcpcall.schema.json` (contributed to VS Code for IntelliSense). Pure: parsing never throws.
 *
 * ```json
 * { "server": "everything", "tool": "echo", "arguments": { "message": "hi" } }
 * { "server": "everything", "prompt": "args-prompt", "arguments": { "city": "Paris" } }
 * { "server": "everything", "resource": "demo://resource/static/document/architecture.md" }
 * ```
 */

export type Invocation = (
	| { kind: 'tool'; server: string; tool: string; arguments: Record<string, unknown> }
	| { kind: 'prompt'; server: string; prompt: string; arguments: Record<string, string> }
	| { kind: 'resource'; server: string; uri: string }
) & {
	/** What the call must return to pass (manager/expectations.ts); absent: the file is not a test. */
	expect?: Expectations;
};

/** Fields the format knows; anything else is reported so that a typo (`argument`) does not pass silently. */
const KNOWN_FIELDS = new Set(['$schema', 'server', 'tool', 'prompt', 'resource', 'arguments', 'description', 'expect']);

/**
 * Parses the text of an invocation file. `label` (the file's name) starts every problem. Returns the invocation,
 * or undefined with at least one problem when the file cannot be run; unknown fields are problems too, but the
 * invocation is still returned.
 */
export function parseInvocation(text: string, label: string): { invocation?: Invocation; problems: string[] } {
	let raw: unknown;
	try {
		raw = JSON.parse(text);
	} catch (error) {
		return { problems: [`${label}: not valid JSON (${errorMessage(error)})`] };
	}
	if (!isRecord(raw))
		return { problems: [`${label}: expected an object with "server" and one of "tool", "prompt" or "resource"`] };
	const problems: string[] = [];
	for (const key of Object.keys(raw)) if (!KNOWN_FIELDS.has(key)) problems.push(`${label}: unknown field "${key}"`);
	if (typeof raw.server !== 'string' || !raw.server)
		return { problems: [...problems, `${label}: "server" must name a configured server`] };
	const server = raw.server;
	const targets = (['tool', 'prompt', 'resource'] as const).filter((key) => raw[key] !== undefined);
	if (targets.length !== 1) {
		return {
			problems: [
				...problems,
				`${label}: needs exactly one of "tool", "prompt" or "resource" (found ${targets.length === 0 ? 'none' : targets.join(', ')})`,
			],
		};
	}
	const target = targets[0]!;
	const value = raw[target];
	if (typeof value !== 'string' || !value)
		return { problems: [...problems, `${label}: "${target}" must be a non-empty string`] };
	const args = raw.arguments ?? {};
	if (!isRecord(args)) return { problems: [...problems, `${label}: "arguments" must be an object`] };
	let expect: Expectations | undefined;
	if (raw.expect !== undefined) {
		const parsed = parseExpectations(raw.expect, label);
		if (!parsed.expect) return { problems: [...problems, ...parsed.problems] };
		expect = parsed.expect;
	}
	const parsed = parseTarget(target, server, value, args, raw.arguments !== undefined, label, problems);
	if (parsed.invocation && expect) parsed.invocation.expect = expect;
	return parsed;
}

function parseTarget(
	target: 'tool' | 'prompt' | 'resource',
	server: string,
	value: string,
	args: Record<string, unknown>,
	hasArguments: boolean,
	label: string,
	problems: string[],
): { invocation?: Invocation; problems: string[] } {
	switch (target) {
		case 'tool':
			return { invocation: { kind: 'tool', server, tool: value, arguments: args }, problems };
		case 'prompt': {
			// Prompt arguments are strings in MCP; numbers and booleans are converted, anything else is refused.
			const stringArgs: Record<string, string> = {};
			for (const [name, arg] of Object.entries(args)) {
				if (typeof arg === 'string') stringArgs[name] = arg;
				else if (typeof arg === 'number' || typeof arg === 'boolean') stringArgs[name] = String(arg);
				else return { problems: [...problems, `${label}: prompt argument "${name}" must be a string`] };
			}
			return { invocation: { kind: 'prompt', server, prompt: value, arguments: stringArgs }, problems };
		}
		case 'resource':
			if (hasArguments) problems.push(`${label}: "arguments" is ignored when reading a resource`);
			return { invocation: { kind: 'resource', server, uri: value }, problems };
	}
}

/** The file text for an invocation (two-space JSON, as people write it), e.g. to save a call from the history. */
export function formatInvocation(invocation: Invocation): string {
	const { kind, server } = invocation;
	const body =
		kind === 'tool'
			? { server, tool: invocation.tool, arguments: invocation.arguments }
			: kind === 'prompt'
				? { server, prompt: invocation.prompt, arguments: invocation.arguments }
				: { server, resource: invocation.uri };
	if (invocation.expect) Object.assign(body, { expect: invocation.expect });
	return `${JSON.stringify(body, null, 2)}\n`;
}
