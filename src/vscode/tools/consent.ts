/**
 * The one place that asks before a tool runs, for every caller: Call Tool from the palette and the tree, and a
 * language model's calls in `@mcp`. Asked in a quick pick, never a modal (the smoke-test driver answers modals by
 * itself, and a quick pick shows the arguments). Choices a person can make for a model's calls: Allow once, Allow
 * for this session, Always allow this tool in this workspace (kept in the workspace state), or Deny; *Review Tool
 * Permissions* lists what was allowed and forgets it.
 *
 * The gateway does not ask here: VS Code's agent, its only client, confirms every MCP tool call itself (with the
 * same choices) before it reaches the gateway, and asking twice teaches people to click through.
 */
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { Tool } from '../../protocol/schema';

/** Who wants to run the tool: a person from the palette or tree, or a language model in a chat. */
export type ConsentCaller = 'palette' | 'model';

/** How a person answered (or an earlier "session"/"always" choice that answered for them). */
export type ConsentChoice = 'once' | 'session' | 'always' | 'deny';

/** The answers a remembered permission can have. */
export type ConsentScope = 'session' | 'always';

/** The key of the "always allow" list in the workspace state. */
const ALWAYS_KEY = 'mcpSwitchboard.toolConsent.always';

/** True when the server says the tool may destroy or overwrite data (and does not also say it is read-only). */
export function isDestructive(tool: Tool): boolean {
	return tool.annotations?.destructiveHint === true && tool.annotations.readOnlyHint !== true;
}

/**
 * Whether a caller must be asked first.
 *
 * - palette: only tools the server marks destructive. A person runs the tool by hand with arguments they just
 *   typed; asking on every unannotated tool (most tools) trains them to click through.
 * - model: every tool that is not `readOnlyHint: true`. The spec's defaults for a tool without annotations are
 *   `readOnlyHint: false` and `destructiveHint: true`
 *   (https://modelcontextprotocol.io/specification/2025-11-25/schema#toolannotations), and here nobody typed the
 *   arguments: a model chose them.
 */
export function needsConsent(tool: Tool, caller: ConsentCaller): boolean {
	return caller === 'palette' ? isDestructive(tool) : tool.annotations?.readOnlyHint !== true;
}

/** The arguments as one line for the quick pick (long values are cut). */
function argumentsLine(args: Record<string, unknown>): string {
	const text = JSON.stringify(args) ?? '{}';
	return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

/** A remembered permission, as Review Tool Permissions lists it. */
export interface ConsentEntry {
	server: string;
	tool: string;
	scope: ConsentScope;
}

function keyOf(server: string, tool: string): string {
	return JSON.stringify([server, tool]);
}

/** Asks, remembers and forgets tool permissions. One per extension (session choices live as long as it does). */
export class ToolConsent {
	private readonly session = new Set<string>();

	constructor(private readonly workspaceState: vscode.Memento) {}

	/**
	 * Resolves true when the tool may run: no consent needed for this caller, an earlier "session" or "always"
	 * choice, or the person allows it now. False when they deny or dismiss the question.
	 */
	async confirm(server: string, tool: Tool, args: Record<string, unknown>, caller: ConsentCaller): Promise<boolean> {
		if (!needsConsent(tool, caller)) return true;
		const key = keyOf(server, tool.name);
		if (caller === 'model' && (this.session.has(key) || this.always().includes(key))) return true;
		const choice = await this.ask(server, tool, args, caller);
		if (choice === 'session') this.session.add(key);
		if (choice === 'always') await this.workspaceState.update(ALWAYS_KEY, [...new Set([...this.always(), key])]);
		return choice !== 'deny';
	}

	/** What was allowed for the session or always (in this workspace), sorted by server and tool. */
	entries(): ConsentEntry[] {
		const entries: ConsentEntry[] = [];
		const add = (key: string, scope: ConsentScope) => {
			const [server, tool] = JSON.parse(key) as [string, string];
			entries.push({ server, tool, scope });
		};
		for (const key of this.always()) add(key, 'always');
		for (const key of this.session) if (!this.always().includes(key)) add(key, 'session');
		return entries.sort((a, b) => a.server.localeCompare(b.server) || a.tool.localeCompare(b.tool));
	}

	/** Forgets one permission, or every one when no entry is given. */
	async forget(entry?: Pick<ConsentEntry, 'server' | 'tool'>): Promise<void> {
		if (!entry) {
			this.session.clear();
			await this.workspaceState.update(ALWAYS_KEY, undefined);
			return;
		}
		const key = keyOf(entry.server, entry.tool);
		this.session.delete(key);
		const always = this.always().filter((k) => k !== key);
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
		caller: ConsentCaller,
	): Promise<ConsentChoice> {
		const destructive = isDestructive(tool);
		const warning = destructive ? `'${server}' says ${tool.name} may delete or overwrite data` : undefined;
		type Item = vscode.QuickPickItem & { choice: ConsentChoice };
		const items: Item[] =
			caller === 'palette'
				? [
						{ label: 'Cancel', choice: 'deny' },
						{
							label: `$(warning) Run ${tool.name}`,
							description: 'the server marks this tool as destructive',
							choice: 'once',
						},
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
		const title =
			caller === 'palette'
				? (warning ?? `Run ${tool.name} of '${server}'?`)
				: destructive
					? `$(warning) The chat model wants to run ${tool.name}: ${warning}`
					: `The chat model wants to run ${server} › ${tool.name}${tool.annotations?.readOnlyHint === false ? ' (it may change things)' : ' (the server does not say it only reads)'}`;
		const chosen = await vscode.window.showQuickPick(items, {
			title,
			placeHolder: `Arguments: ${argumentsLine(args)}`,
			ignoreFocusOut: true,
		});
		return chosen?.choice ?? 'deny';
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
