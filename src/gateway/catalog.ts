/**
 * What the gateway offers to its clients: the enabled tools of running servers (a server runs only once it is
 * trusted; servers VS Code runs itself are left out), their prompts and resources, and how to reach each through the Manager. The gateway itself only sees
 * this interface, so its tests can hand it a Manager with real servers or a small fake.
 */
import { Emitter, type Event } from '../common/event';
import type { Disposable } from '../common/disposable';
import type { RequestOptions } from '../protocol/client';
import type {
	CallToolResult,
	GetPromptResult,
	Prompt,
	ReadResourceResult,
	Resource,
	ResourceTemplate,
} from '../protocol/schema';
import type { Manager } from '../manager/manager';
import type { NamedTool, ServerView } from '../manager/types';
import { ToolNameRegistry } from '../manager/toolNames';

/** A prompt with its server and its gateway name `mcp__<server>__<prompt>`. */
export interface NamedPrompt {
	server: string;
	qualifiedName: string;
	prompt: Prompt;
}

/** Who a server behind the gateway says it is (its `serverInfo`), while it runs. */
export interface ServerIdentity {
	name: string;
	version: string;
	/** The server's own `instructions`, which its endpoint passes on unless the gateway is given others. */
	instructions?: string;
}

/** The gateway's view of the servers behind it. */
export interface GatewayCatalog {
	/**
	 * The servers offered, one MCP endpoint each, in configuration order: every configured server but those VS Code
	 * runs itself, running or not (a stopped server's endpoint lists nothing until it runs).
	 */
	servers(): readonly string[];
	/** What a running server announced, for its endpoint's own `serverInfo`; undefined while it does not run. */
	serverIdentity?(server: string): ServerIdentity | undefined;
	/** The tools to expose, in configuration order: enabled tools of running servers only. */
	tools(): readonly NamedTool[];
	/** The exposed tool with this qualified name, or undefined when it is unknown, disabled or its server stopped. */
	findTool(qualifiedName: string): NamedTool | undefined;
	prompts(): readonly NamedPrompt[];
	resources(): readonly { server: string; resource: Resource }[];
	resourceTemplates(): readonly { server: string; template: ResourceTemplate }[];
	callTool(
		server: string,
		tool: string,
		args: Record<string, unknown>,
		options: RequestOptions,
	): Promise<CallToolResult>;
	getPrompt(
		server: string,
		prompt: string,
		args: Record<string, string> | undefined,
		options: RequestOptions,
	): Promise<GetPromptResult>;
	readResource(server: string, uri: string, options: RequestOptions): Promise<ReadResourceResult>;
	/**
	 * Fires when any of the lists above may have changed (a server added, removed, started or stopped, a list changed,
	 * enablement).
	 */
	readonly onDidChange: Event<void>;
}

/**
 * A server the gateway offers: running, and not one VS Code runs itself for its agent (its `.vscode/mcp.json` or user
 * `mcp.json`, manager/configSources.ts), whose tools VS Code's agent already has once.
 */
export function offeredServer(server: ServerView): boolean {
	// A server waiting for its first need is offered from its cached listing; a call starts it.
	const offers = server.state.kind === 'running' || (server.state.kind === 'stopped' && server.state.onDemand);
	return offers === true && server.source.vscodeRuns !== true;
}

/** Says which prompts and resource templates are held back (changed since the user approved them; manager/pinning). */
export interface DefinitionHold {
	isHeld(server: string, kind: 'prompt' | 'template', item: Prompt | ResourceTemplate): boolean;
}

/** Decides whether a tool is offered; the per-tool enablement of the edge plugs in here. Default: every tool. */
export type ToolFilter = (named: NamedTool) => boolean;

/**
 * A catalog over the Manager: running servers only, tools through `isEnabled`. Calls go through the Manager's one
 * connection per server (its logs, OAuth and trust), never a second process. Call `refilter()` when `isEnabled`
 * changes its answers. Dispose to stop listening to the Manager.
 */
export class ManagerCatalog implements GatewayCatalog, Disposable {
	private readonly changeEmitter = new Emitter<void>();
	readonly onDidChange: Event<void> = this.changeEmitter.event;
	private readonly subscriptions: Disposable[];
	private snapshot:
		{ source: readonly NamedTool[]; tools: readonly NamedTool[]; byName: Map<string, NamedTool> } | undefined;

	private held: DefinitionHold | undefined;

	constructor(
		private readonly manager: Manager,
		private isEnabled: ToolFilter = () => true,
	) {
		const changed = () => {
			this.snapshot = undefined;
			this.changeEmitter.fire();
		};
		this.subscriptions = [
			manager.onDidChangeServers(changed),
			manager.onDidChangeState(changed),
			manager.onDidChangeLists(changed),
		];
	}

	/**
	 * Holds back prompts and resource templates that `held` says changed since the user approved them (tools are
	 * held through the tool filter); tells the gateway's clients.
	 */
	holdBack(held: DefinitionHold): void {
		this.held = held;
		this.refilter();
	}

	/** Replaces the enablement filter (or re-reads it, when called without one) and tells the gateway's clients. */
	refilter(isEnabled?: ToolFilter): void {
		if (isEnabled) this.isEnabled = isEnabled;
		this.snapshot = undefined;
		this.changeEmitter.fire();
	}

	servers(): readonly string[] {
		return this.manager
			.servers()
			.filter((server) => server.source.vscodeRuns !== true)
			.map((server) => server.name);
	}

	serverIdentity(server: string): ServerIdentity | undefined {
		if (this.manager.get(server)?.state.kind !== 'running') return undefined;
		try {
			const client = this.manager.client(server);
			const { name, version } = client.serverInfo;
			return client.instructions ? { name, version, instructions: client.instructions } : { name, version };
		} catch {
			return undefined;
		}
	}

	tools(): readonly NamedTool[] {
		return this.current().tools;
	}

	findTool(qualifiedName: string): NamedTool | undefined {
		return this.current().byName.get(qualifiedName);
	}

	/**
	 * Every running server's prompts under unique gateway names, named as tools are (ToolNameRegistry: server
	 * prefixes unique in configuration order, so `team notes` and `team.notes` never share `mcp__team_notes__…`).
	 */
	prompts(): readonly NamedPrompt[] {
		const names = new ToolNameRegistry<NamedPrompt>();
		const servers = this.manager.servers();
		names.setServers(servers.map((server) => server.name));
		const prompts: NamedPrompt[] = [];
		for (const server of servers) {
			if (!offeredServer(server)) continue;
			prompts.push(
				...names.setTools(
					server.name,
					this.offered(server.name, 'prompt', server.prompts),
					(prompt, qualifiedName) => ({
						server: server.name,
						qualifiedName,
						prompt,
					}),
				),
			);
		}
		return prompts;
	}

	private offered<T extends Prompt | ResourceTemplate>(
		server: string,
		kind: 'prompt' | 'template',
		items: readonly T[],
	): readonly T[] {
		const held = this.held;
		return held ? items.filter((item) => !held.isHeld(server, kind, item)) : items;
	}

	resources(): readonly { server: string; resource: Resource }[] {
		return this.manager
			.servers()
			.flatMap((server) =>
				offeredServer(server) ? server.resources.map((resource) => ({ server: server.name, resource })) : [],
			);
	}

	resourceTemplates(): readonly { server: string; template: ResourceTemplate }[] {
		return this.manager.servers().flatMap((server) =>
			offeredServer(server)
				? this.offered(server.name, 'template', server.resourceTemplates).map((template) => ({
						server: server.name,
						template,
					}))
				: [],
		);
	}

	callTool(
		server: string,
		tool: string,
		args: Record<string, unknown>,
		options: RequestOptions,
	): Promise<CallToolResult> {
		// origin 'gateway': calls VS Code's agent makes appear in the Call History with the others. Object.assign, not
		// `{ ...options, origin }`: a spread followed by more properties is V8's slow path on Node 20 (every call).
		return this.manager.callTool(server, tool, args, Object.assign({}, options, { origin: 'gateway' as const }));
	}

	getPrompt(
		server: string,
		prompt: string,
		args: Record<string, string> | undefined,
		options: RequestOptions,
	): Promise<GetPromptResult> {
		return this.manager.getPrompt(
			server,
			prompt,
			args ?? {},
			Object.assign({}, options, { origin: 'gateway' as const }),
		);
	}

	readResource(server: string, uri: string, options: RequestOptions): Promise<ReadResourceResult> {
		return this.manager.readResource(server, uri, Object.assign({}, options, { origin: 'gateway' as const }));
	}

	dispose(): void {
		for (const subscription of this.subscriptions) subscription.dispose();
		this.changeEmitter.dispose();
	}

	private current(): { tools: readonly NamedTool[]; byName: Map<string, NamedTool> } {
		const source = this.manager.allTools();
		if (this.snapshot?.source !== source) {
			const running = new Set(
				this.manager
					.servers()
					.filter(offeredServer)
					.map((server) => server.name),
			);
			const tools = source.filter((named) => running.has(named.server) && this.isEnabled(named));
			this.snapshot = { source, tools, byName: new Map(tools.map((named) => [named.qualifiedName, named])) };
		}
		return this.snapshot;
	}
}
