/**
 * One run of the command line: the workspace's servers, the ones the command names resolved and started through
 * the same Manager the extension uses (same naming, same start limits, same error texts), and a clean shutdown
 * that leaves no process behind.
 */
import { pathToFileURL } from 'node:url';
import * as path from 'node:path';
import { consoleLogger, nullLogger, type Logger } from '../common/logger';
import type { Host } from '../manager/host';
import { createDefaultConnector } from '../manager/defaultConnector';
import { Manager } from '../manager/manager';
import type { ServerEntry } from '../manager/config';
import type { ResolvedServer, ServerView } from '../manager/types';
import { discardEarlyStart } from '../protocol/transports/stdio';
import type { EarlyStart } from '../protocol/transports/stdioSpawn';
import type { CliOptions } from './args';
import { elicitHost, processElicitContext } from './elicitHost';
import { FileEraCache } from './eraCache';
import { inputSource } from './inputs';
import { readWorkspaceServers, resolveWorkspaceEntry, type InputValue, type WorkspaceServers } from './workspaceConfig';

/** How long a server may take to exit after its stdin ends when the command is done (then SIGTERM). */
const CLOSE_GRACE_MS = 300;

/** What the launcher (bin.ts) asks of a run. */
export interface RunHooks {
	/**
	 * Called once, on the turn after the first server process was spawned: the run then waits for the server to boot
	 * (~100 ms for a Node server), idle time the launcher uses to write V8's code cache.
	 */
	serverSpawned?: () => void;
	/**
	 * Local servers the launcher started before loading the rest of the command line (earlyStart.ts), by name: a
	 * server's transport takes its process over when the configuration read here gives the same process.
	 */
	early?: ReadonlyMap<string, EarlyStart>;
}

/** A problem the user must fix before anything can run (exit code 2). */
export class UsageError extends Error {}

export class CliSession {
	private manager: Manager | undefined;
	/** Servers whose lists the Manager has fetched since they started, and callers waiting for that. */
	private readonly listed = new Set<string>();
	private readonly listWaiters = new Map<string, (() => void)[]>();
	/**
	 * One input source for the whole run: an `${input:…}` two servers share is asked once and both get the same value
	 * (as the editor does), never once per server.
	 */
	private inputValues: InputValue | undefined;
	private readonly inputProblems: string[] = [];

	private constructor(
		readonly options: CliOptions,
		readonly folder: string,
		readonly workspace: WorkspaceServers,
		private readonly hooks: RunHooks,
	) {}

	static async open(options: CliOptions, hooks: RunHooks = {}): Promise<CliSession> {
		const folder = path.resolve(options.workspace);
		return new CliSession(options, folder, await readWorkspaceServers(folder), hooks);
	}

	/** The entries named (all when `names` is empty); an unknown name is a UsageError listing what is configured. */
	select(names: readonly string[]): ServerEntry[] {
		if (names.length === 0) return this.workspace.entries;
		return names.map((name) => {
			const entry = this.workspace.entries.find((e) => e.name === name);
			if (!entry) throw new UsageError(`Unknown server '${name}'. ${this.configuredText()}`);
			return entry;
		});
	}

	/** "Configured: a, b (from .vscode/mcp.json)" or where servers can be configured. */
	configuredText(): string {
		const problems = this.workspace.problems.length;
		if (this.workspace.entries.length === 0) {
			if (problems > 0)
				return `No server could be read from the configuration in ${this.folder}: it has ${problems === 1 ? 'a problem' : `${problems} problems`} (on stderr).`;
			return `No servers are configured in ${this.folder} (.vscode/settings.json "mcpSwitchboard.servers", .vscode/mcp.json or .mcp.json).`;
		}
		if (problems > 0)
			return `Configured: ${this.workspace.entries.map((e) => e.name).join(', ')} (and ${problems === 1 ? 'a problem' : `${problems} problems`} in the configuration, on stderr).`;
		return `Configured: ${this.workspace.entries.map((e) => e.name).join(', ')}.`;
	}

	/** Problems of the configuration files that concern `name` (or every problem without a server). */
	problemsOf(name: string): string[] {
		return this.workspace.problems.filter((p) => p.includes(`'${name}'`));
	}

	/**
	 * Resolves and starts `entries`; resolves once each has made its first attempt. Disabled servers are started
	 * anyway when named explicitly (the user asked for them). Returns the servers' views and, per server, the
	 * problems that kept it from being started at all.
	 */
	async start(
		entries: readonly ServerEntry[],
	): Promise<{ views: Map<string, ServerView>; unresolved: Map<string, string[]> }> {
		const unresolved = new Map<string, string[]>();
		const resolved: ResolvedServer[] = [];
		for (const entry of entries) {
			const problems: string[] = [];
			const seen = this.inputProblems.length;
			const server = await resolveWorkspaceEntry(entry, this.folder, this.workspace.inputs, this.input(), problems);
			// The input source's own problems (an input without a value) belong to the server that asked just now.
			problems.unshift(...new Set(this.inputProblems.splice(seen)));
			if (server) {
				delete server.config.disabled;
				resolved.push(server);
			} else {
				unresolved.set(entry.name, problems);
			}
		}
		const manager = this.managerFor();
		await manager.reconcile(resolved);
		const views = new Map<string, ServerView>();
		for (const server of resolved) {
			const view = manager.get(server.name);
			if (view) views.set(server.name, view);
		}
		return { views, unresolved };
	}

	/**
	 * Resolves once the Manager has listed a running server's tools, resources, templates and prompts (it does so
	 * right after the start), so a command reads the same lists the editor shows without asking the server twice.
	 * Resolves at once for a server that advertises none of them.
	 */
	listsReady(view: ServerView): Promise<void> {
		const caps = view.state.kind === 'running' ? (view.state.client.serverCapabilities ?? {}) : {};
		if (this.listed.has(view.name) || (!caps.tools && !caps.resources && !caps.prompts)) return Promise.resolve();
		return new Promise((resolve) => {
			const waiters = this.listWaiters.get(view.name) ?? [];
			waiters.push(resolve);
			this.listWaiters.set(view.name, waiters);
		});
	}

	/** True when the workspace switches `tool` of `server` off for chat models (the extension's checkboxes and tool profiles). */
	toolDisabled(server: string, tool: string): boolean {
		return this.workspace.disabledTools[server]?.includes(tool) === true;
	}

	/** Where the switched-off tools come from, for messages: the active tool profile, or the workspace's own list. */
	disabledToolsSource(): string {
		const profile = this.workspace.toolProfile;
		return profile !== undefined
			? `tool profile "${profile}" in .vscode/settings.json`
			: '"mcpSwitchboard.tools.disabled" in .vscode/settings.json';
	}

	/** The running Manager (after `start`). */
	get running(): Manager {
		if (!this.manager) throw new Error('no server was started');
		return this.manager;
	}

	/**
	 * The configuration `name` runs, variables resolved, without starting it (`check` starts processes of its own);
	 * a UsageError naming the problems when it cannot be resolved or is not configured.
	 */
	async resolveConfig(name: string): Promise<ResolvedServer['config']> {
		const [entry] = this.select([name]);
		const problems: string[] = [];
		const seen = this.inputProblems.length;
		const server = await resolveWorkspaceEntry(entry!, this.folder, this.workspace.inputs, this.input(), problems);
		problems.unshift(...new Set(this.inputProblems.splice(seen)));
		if (!server)
			throw new UsageError(problems.join('\n') || `Server '${name}': its configuration could not be resolved`);
		return server.config;
	}

	/** Stops every server, and any early start no server took over (see discardEarlyStarts). */
	async close(): Promise<void> {
		await this.manager?.dispose();
		this.manager = undefined;
		await discardEarlyStarts(this.hooks);
	}

	private input(): InputValue {
		this.inputValues ??= inputSource({
			flags: this.options.inputs,
			env: process.env,
			interactive: process.stdin.isTTY === true && process.stderr.isTTY === true,
			problems: this.inputProblems,
		});
		return this.inputValues;
	}

	private managerFor(): Manager {
		if (this.manager) return this.manager;
		const verbose = this.options.verbose;
		const folder = this.folder;
		const host: Host = {
			logger: (server: string): Logger => (verbose ? consoleLogger('trace', `[${server}] `) : nullLogger),
			// The folder is the one root offered, as the editor offers its workspace folders.
			roots: () => [{ uri: pathToFileURL(folder).href, name: path.basename(folder) }],
			// Forms and pages a server asks for: asked in the terminal, answered by --answer, or declined saying why.
			...elicitHost(processElicitContext(this.options)),
		};
		// One attempt per server: a command-line run reports a failure instead of retrying in the background. A
		// server that ignores the end of stdin is signalled after CLOSE_GRACE_MS instead of the editor's 2 s: a
		// person (or a CI job) is waiting for the command to return.
		// Each server's protocol era is remembered between runs (eraCache.ts): a second run skips the server/discover probe.
		const eras = new FileEraCache();
		const connect = createDefaultConnector(undefined, { closeGraceMs: CLOSE_GRACE_MS }, eras);
		let serverSpawned = this.hooks.serverSpawned;
		const manager = new Manager(host, {
			restartPolicy: { maxCrashes: 0 },
			connect: (request) => {
				const early = this.hooks.early?.get(request.name);
				// A stdio server is spawned (or an early start taken over) within this call; its first answer is a process start away.
				const connecting = early
					? createDefaultConnector(undefined, { closeGraceMs: CLOSE_GRACE_MS, early }, eras)(request)
					: connect(request);
				if (serverSpawned) setImmediate(serverSpawned);
				serverSpawned = undefined;
				return connecting;
			},
		});
		manager.onDidChangeLists(({ server }) => {
			this.listed.add(server);
			for (const resolve of this.listWaiters.get(server) ?? []) resolve();
			this.listWaiters.delete(server);
		});
		manager.onDidChangeState(({ server, state }) => {
			if (state.kind === 'running') return;
			// A server that stopped will not list: release whoever waits for it.
			for (const resolve of this.listWaiters.get(server) ?? []) resolve();
			this.listWaiters.delete(server);
		});
		this.manager = manager;
		return manager;
	}
}

/**
 * Stops the early starts no transport took over (a server the command did not start after all, or whose
 * configuration resolved differently here): they were never asked anything. Safe to call more than once.
 */
export async function discardEarlyStarts(hooks: RunHooks): Promise<void> {
	const unclaimed = [...(hooks.early?.values() ?? [])].filter((early) => !early.isClaimed);
	await Promise.all(unclaimed.map((early) => discardEarlyStart(early, CLOSE_GRACE_MS)));
}
