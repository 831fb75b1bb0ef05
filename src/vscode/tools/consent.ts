/**
 * The one place that asks before a tool runs, for every caller: Call Tool from the palette and the tree, a re-run
 * from the Call History, a saved `*.mcpcall.json` file, an MCP App, and a language model's calls in `@mcp`. What to
 * do is decided by the one rule in `manager/consentRule.ts`; this file asks the question it calls for, in a quick
 * pick, never a modal (the smoke-test driver answers modals by itself, and a quick pick shows the arguments).
 * Choices a person can make for a model's calls: Allow once, Allow for this session, Always allow this tool in this
 * workspace (kept in the workspace state), or Deny; *Review Tool Permissions* lists what was allowed and forgets it.
 *
 * A remembered permission is keyed on the server's identity (where it is defined and its configuration, not its
 * name: `manager/serverIdentity.ts`) and on the tool's definition hash (`manager/pinning`), so a repository's own
 * `github` does not inherit what was allowed for the user's, and a tool whose description or schema changed asks
 * again.
 *
 * The gateway does not ask here: VS Code's agent, its only client, confirms every MCP tool call itself (with the
 * same choices) before it reaches the gateway, and asking twice teaches people to click through.
 */
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import { type CallPath, consentVerdict, isMarkedDestructive } from '../../manager/consentRule';
import { definitionHash } from '../../manager/pinning/definitionHash';
import { serverIdentity } from '../../manager/serverIdentity';
import { suspicionsOf, suspicionText } from '../../manager/pinning/suspicion';
import type { ServerView } from '../../manager/types';
import type { Tool } from '../../protocol/schema';
import { consentArguments } from './toolLabels';

/** How a person answered (or an earlier "session"/"always" choice that answered for them). */
export type ConsentChoice = 'once' | 'session' | 'always' | 'deny';

/** The answers a remembered permission can have. */
export type ConsentScope = 'session' | 'always';

/** The key of the "always allow" list in the workspace state. */
const ALWAYS_KEY = 'mcpSwitchboard.toolConsent.always';

/** True when the server says the tool may destroy or overwrite data (and does not also say it is read-only). */
export function isDestructive(tool: Tool): boolean {
	return isMarkedDestructive(tool.annotations);
}

/** What a caller knows about a call besides its path. */
export interface ConsentContext {
	/** For a history re-run: the recorded call was the user's own palette call. */
	typedHere?: boolean;
	/** What looks suspicious in the tool's definition (manager/pinning/suspicion.ts), shown in the question. */
	suspicion?: string;
	/** The tool's definition changed since it was approved and was not reviewed yet (manager/pinning). */
	definitionChanged?: boolean;
	/**
	 * Also asks somewhere else while the quick pick is open (`@mcp`: buttons in the conversation, next to the message
	 * that caused the call); the first answer wins and the other question is withdrawn (`signal` aborts). Resolves
	 * undefined when withdrawn.
	 */
	alsoAsk?: (question: ConsentQuestion, signal: AbortSignal) => Promise<ConsentChoice | undefined>;
}

/** A consent question as words and choices, for asking it elsewhere than the quick pick. */
export interface ConsentQuestion {
	server: string;
	tool: string;
	title: string;
	arguments: Record<string, unknown>;
	choices: { label: string; choice: ConsentChoice }[];
}

/** A remembered permission, as Review Tool Permissions lists it. */
export interface ConsentEntry {
	server: string;
	tool: string;
	scope: ConsentScope;
}

/** The key of a remembered permission: the server's identity, names for the review list, the definition's hash. */
function keyOf(identity: string, server: string, tool: Tool): string {
	return JSON.stringify([server, tool.name, identity, definitionHash(tool)]);
}

function namesOf(key: string): { server: string; tool: string; identity?: string } | undefined {
	try {
		const [server, tool, identity] = JSON.parse(key) as unknown[];
		return typeof server === 'string' && typeof tool === 'string'
			? { server, tool, identity: typeof identity === 'string' ? identity : undefined }
			: undefined;
	} catch {
		return undefined;
	}
}

/** Finds the server a call goes to (the Manager's view: where it is defined, its configuration). */
export type ServerLookup = (server: string) => Pick<ServerView, 'name' | 'source' | 'config' | 'tools'> | undefined;

/** Asks, remembers and forgets tool permissions. One per extension (session choices live as long as it does). */
export class ToolConsent {
	private readonly session = new Set<string>();
	private lookup: ServerLookup | undefined;
	private changed: ((server: string, tool: Tool) => boolean) | undefined;

	constructor(private readonly workspaceState: vscode.Memento) {}

	/** Whether a tool's definition changed since it was approved (manager/pinning): a changed tool asks again. */
	setDefinitionCheck(changed: (server: string, tool: Tool) => boolean): void {
		this.changed = changed;
	}

	/** Where to find a server's identity (set once by the extension; without it a server is known by name only). */
	setServerLookup(lookup: ServerLookup): void {
		this.lookup = lookup;
	}

	private identity(server: string): string {
		const view = this.lookup?.(server);
		return view ? serverIdentity(view) : `name-only:${server}`;
	}

	/**
	 * A server the user trusts: one defined in user settings or in code, or a workspace's server in a trusted
	 * workspace (where it runs only after the user allowed exactly its configuration).
	 */
	private trusted(server: string): boolean {
		if (!this.lookup) return vscode.workspace.isTrusted;
		const view = this.lookup(server);
		if (!view) return false;
		return view.source.kind === 'user' || view.source.kind === 'api' || vscode.workspace.isTrusted;
	}

	/**
	 * Resolves true when the tool may run on `path` (manager/consentRule.ts): no question needed, an earlier
	 * "session" or "always" choice for this server and this definition, or the person allows it now. False when
	 * the rule refuses (the reason is shown), or the person denies or dismisses the question.
	 */
	async confirm(
		server: string,
		tool: Tool,
		args: Record<string, unknown>,
		path: CallPath,
		context: ConsentContext = {},
	): Promise<boolean> {
		const verdict = consentVerdict({
			path,
			typedHere: context.typedHere,
			annotations: tool.annotations,
			serverTrusted: this.trusted(server),
			workspaceTrusted: vscode.workspace.isTrusted,
			definitionChanged: context.definitionChanged ?? this.changed?.(server, tool),
		});
		if (verdict.kind === 'run') return true;
		if (verdict.kind === 'refuse') {
			void vscode.window.showWarningMessage(`MCP: did not run ${tool.name} of '${server}': ${verdict.reason}.`);
			return false;
		}
		const key = keyOf(this.identity(server), server, tool);
		if (verdict.remember && (this.session.has(key) || this.always().includes(key))) return true;
		const peers = this.lookup?.(server)?.tools.map((named) => named.tool) ?? [];
		const suspicion = context.suspicion ?? suspicionText(suspicionsOf(tool, peers));
		const choice = await this.ask(
			server,
			tool,
			args,
			path,
			verdict.reason,
			verdict.remember,
			suspicion,
			context.alsoAsk,
		);
		if (verdict.remember && choice === 'session') this.session.add(key);
		if (verdict.remember && choice === 'always')
			await this.workspaceState.update(ALWAYS_KEY, [...new Set([...this.always(), key])]);
		return choice !== 'deny';
	}

	/** What was allowed for the session or always (in this workspace), sorted by server and tool. */
	entries(): ConsentEntry[] {
		const entries: ConsentEntry[] = [];
		const always = this.always();
		const add = (key: string, scope: ConsentScope) => {
			const names = namesOf(key);
			if (names) entries.push({ server: names.server, tool: names.tool, scope });
		};
		for (const key of always) add(key, 'always');
		for (const key of this.session) if (!always.includes(key)) add(key, 'session');
		return entries.sort((a, b) => a.server.localeCompare(b.server) || a.tool.localeCompare(b.tool));
	}

	/** Forgets one permission (every definition of that tool of that server name), or every one when none is given. */
	async forget(entry?: Pick<ConsentEntry, 'server' | 'tool'>): Promise<void> {
		if (!entry) {
			this.session.clear();
			await this.workspaceState.update(ALWAYS_KEY, undefined);
			return;
		}
		const matches = (key: string) => {
			const names = namesOf(key);
			return names?.server === entry.server && names.tool === entry.tool;
		};
		for (const key of [...this.session]) if (matches(key)) this.session.delete(key);
		const always = this.always().filter((k) => !matches(k));
		await this.workspaceState.update(ALWAYS_KEY, always.length > 0 ? always : undefined);
	}

	private always(): string[] {
		const value = this.workspaceState.get<unknown>(ALWAYS_KEY);
		return Array.isArray(value) ? value.filter((k): k is string => typeof k === 'string') : [];
	}

	private async ask(
		server: string,
		tool: Tool,
		args: Record<string, unknown>,
		path: CallPath,
		reason: string,
		remember: boolean,
		suspicion: string | undefined,
		alsoAsk?: ConsentContext['alsoAsk'],
	): Promise<ConsentChoice> {
		const destructive = isDestructive(tool);
		const warning = destructive ? `'${server}' says ${tool.name} may delete or overwrite data` : undefined;
		const flag = suspicion ? ` $(alert) Suspicious definition: ${suspicion}` : '';
		type Item = vscode.QuickPickItem & { choice: ConsentChoice };
		const items: Item[] = !remember
			? [
					{ label: 'Cancel', choice: 'deny' },
					{ label: `${destructive ? '$(warning) ' : ''}Run ${tool.name}`, description: reason, choice: 'once' },
				]
			: [
					{ label: 'Deny', description: 'the model is told you declined', choice: 'deny' },
					{ label: 'Allow once', choice: 'once' },
					{
						label: 'Allow for this session',
						description: `until VS Code restarts, for ${tool.name} of ${server}`,
						choice: 'session',
					},
					{
						label: 'Always allow this tool in this workspace',
						description: 'MCP Switchboard: Review Tool Permissions… forgets it',
						choice: 'always',
					},
				];
		const who = path === 'file' ? 'A saved call file' : path === 'app' ? 'An MCP App' : 'A re-run';
		const title =
			path === 'chat'
				? destructive
					? `The chat model wants to run ${tool.name}: ${warning}`
					: `The chat model wants to run ${server} › ${tool.name}${tool.annotations?.readOnlyHint === false ? ' (it may change things)' : ' (the server does not say it only reads)'}`
				: path === 'palette' || path === 'tree'
					? (warning ?? `Run ${tool.name} of '${server}'? (${reason})`)
					: `${who} wants to run ${server} › ${tool.name}: ${warning ?? reason}`;
		const withdraw = new vscode.CancellationTokenSource();
		const elsewhere = new AbortController();
		try {
			const picked = vscode.window
				.showQuickPick(
					items,
					{
						title: `${title}${flag}`,
						// Whole, in the prompt under the box, which wraps: what runs is what the user reads, not its start.
						prompt: consentArguments(args),
						placeHolder: remember ? `Allow ${tool.name}, or Deny` : `Run ${tool.name}, or Cancel`,
						ignoreFocusOut: true,
					},
					withdraw.token,
				)
				.then((chosen) => (withdraw.token.isCancellationRequested ? undefined : (chosen?.choice ?? 'deny')));
			const other = alsoAsk?.(
				{
					server,
					tool: tool.name,
					title: title.replace(/^\$\([\w-]+\) /, ''),
					arguments: args,
					choices: items.map(({ label, choice }) => ({ label: label.replace(/^\$\([\w-]+\) /, ''), choice })),
				},
				elsewhere.signal,
			);
			const answer = await (other ? Promise.race([picked, other.then((choice) => choice ?? picked)]) : picked);
			return answer ?? 'deny';
		} finally {
			// Whichever answered, the other question goes away.
			withdraw.cancel();
			withdraw.dispose();
			elsewhere.abort();
		}
	}
}

/** Registers Review Tool Permissions… (pick one to forget it, or forget all) and Reset Tool Permissions. */
export function registerConsentCommands(consent: ToolConsent): vscode.Disposable {
	return vscode.Disposable.from(
		vscode.commands.registerCommand(Commands.reviewToolPermissions, async () => {
			const entries = consent.entries();
			if (entries.length === 0) {
				void vscode.window.showInformationMessage(
					'MCP: no tool is allowed for this session or always. A chat model asks before each tool that is not read-only.',
				);
				return;
			}
			type Item = vscode.QuickPickItem & { entry?: ConsentEntry };
			const items: Item[] = [
				...entries.map((entry) => ({
					label: `${entry.server} › ${entry.tool}`,
					description: entry.scope === 'always' ? 'always, in this workspace' : 'for this session',
					entry,
				})),
				{ label: '', kind: vscode.QuickPickItemKind.Separator },
				{ label: '$(clear-all) Forget all' },
			];
			const chosen = await vscode.window.showQuickPick(items, {
				title: 'Tool permissions: pick one to forget it',
				placeHolder: 'A chat model asks again before a forgotten tool',
			});
			if (!chosen) return;
			await consent.forget(chosen.entry);
		}),
		vscode.commands.registerCommand(Commands.resetToolPermissions, async () => {
			await consent.forget();
			void vscode.window.showInformationMessage(
				'MCP: tool permissions reset. A chat model asks again before each tool that is not read-only.',
			);
		}),
	);
}
