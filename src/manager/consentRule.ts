/**
 * The one consent rule for every path a tool call can take: the palette and the tree, `@mcp`, the gateway, a re-run
 * from the Call History, a saved `*.mcpcall.json` file and an MCP App. Each caller states the facts (its path, the
 * tool's annotations, whether the server and the workspace are trusted, whether the tool's definition changed since
 * the user approved it) and does what the verdict says. Pure, so the whole rule is a table in a unit test.
 *
 * The rule, in words:
 * - Arguments the user typed in this window (the palette's form, the tree, a re-run of their own palette call) run
 *   at once, except a tool the server marks destructive, which asks. Asking on every unannotated tool (most tools)
 *   teaches people to click through.
 * - Arguments nobody typed here (a file from a cloned repository, script in an app, a re-run of a call a model or
 *   another client made) ask unless the tool is read-only by a server the user trusts, and never run in Restricted
 *   Mode. The spec's defaults for a tool without annotations are `readOnlyHint: false` and `destructiveHint: true`
 *   (https://modelcontextprotocol.io/specification/2025-11-25/schema#toolannotations).
 * - A model in `@mcp` asks for every tool that is not read-only; the person may remember the answer.
 * - The gateway runs what VS Code's agent sends: the agent confirms every MCP tool call itself before it reaches the
 *   gateway, and asking twice teaches people to click through.
 * - A tool whose definition changed since it was approved (manager/pinning) always asks on a path that would not
 *   otherwise, with the change named, and a remembered answer for the old definition no longer counts.
 */
import type { ToolAnnotations } from '../protocol/schema';

/** Every path a tool call can take. */
export type CallPath = 'palette' | 'tree' | 'history' | 'file' | 'app' | 'chat' | 'gateway';

/** What the rule needs to know about one call. */
export interface ConsentFacts {
	path: CallPath;
	/**
	 * For `history`: the arguments are ones the user typed in this window (a re-run of their own palette call).
	 * Ignored on other paths (palette and tree are always typed; files, apps and models never).
	 */
	typedHere?: boolean;
	annotations?: ToolAnnotations;
	/** The server is one the user trusts: defined in user settings, or a workspace server the user allowed. */
	serverTrusted: boolean;
	/** False in Restricted Mode (an untrusted workspace). */
	workspaceTrusted: boolean;
	/** The tool's definition differs from the one pinned when it was approved (manager/pinning). */
	definitionChanged?: boolean;
}

/**
 * What to do: run at once; ask (with `remember` when the person may answer for the session or always, as for a
 * model's calls); or refuse without asking, with the reason to show.
 */
export type ConsentVerdict =
	{ kind: 'run' } | { kind: 'ask'; remember: boolean; reason: string } | { kind: 'refuse'; reason: string };

/** True when the server says the tool may destroy or overwrite data (and does not also say it is read-only). */
export function isMarkedDestructive(annotations: ToolAnnotations | undefined): boolean {
	return annotations?.destructiveHint === true && annotations.readOnlyHint !== true;
}

/** Whether the arguments of a call on `facts.path` are ones the user typed in this window. */
export function typedByUser(facts: Pick<ConsentFacts, 'path' | 'typedHere'>): boolean {
	if (facts.path === 'palette' || facts.path === 'tree') return true;
	return facts.path === 'history' && facts.typedHere === true;
}

/** The verdict for one call (see the file's header for the rule in words). */
export function consentVerdict(facts: ConsentFacts): ConsentVerdict {
	const readOnly = facts.annotations?.readOnlyHint === true;
	const changed = facts.definitionChanged === true;
	const changedReason = 'its definition changed since you approved it';
	switch (facts.path) {
		case 'gateway':
			return { kind: 'run' };
		case 'chat':
			if (changed) return { kind: 'ask', remember: true, reason: changedReason };
			return readOnly && facts.serverTrusted
				? { kind: 'run' }
				: { kind: 'ask', remember: true, reason: 'the model chose the arguments' };
		default:
			break;
	}
	if (typedByUser(facts)) {
		if (isMarkedDestructive(facts.annotations))
			return { kind: 'ask', remember: false, reason: 'the server marks this tool as destructive' };
		if (changed) return { kind: 'ask', remember: false, reason: changedReason };
		return { kind: 'run' };
	}
	if (!facts.workspaceTrusted)
		return {
			kind: 'refuse',
			reason: 'in Restricted Mode, tools run only with arguments you type (trust the workspace to run it)',
		};
	const from =
		facts.path === 'file'
			? 'the arguments come from a file'
			: facts.path === 'app'
				? 'an MCP App asks to run it'
				: 'the arguments were not typed by you';
	if (changed) return { kind: 'ask', remember: false, reason: `${from}, and ${changedReason}` };
	if (readOnly && facts.serverTrusted) return { kind: 'run' };
	return {
		kind: 'ask',
		remember: false,
		reason: readOnly ? `${from} (the server is not trusted)` : `${from} and the tool is not marked read-only`,
	};
}
