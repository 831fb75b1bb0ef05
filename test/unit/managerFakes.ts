// Test doubles for the Manager's unit tests: a fake clock, a scriptable fake client and a connector that
// records what it was asked to start. Not a test file itself (no .test.ts suffix).
import { Emitter } from '../../src/common/event';
import { MemoryLogger } from '../../src/common/logger';
import type { Clock } from '../../src/manager/backoff';
import type { Host } from '../../src/manager/host';
import type { ConnectRequest, Connector } from '../../src/manager/serverConnection';
import type { ResolvedServer, ServerConfig } from '../../src/manager/manager';
import type { CacheHints, ListOptions, McpClient } from '../../src/protocol/client';
import { McpError } from '../../src/protocol/mcpError';
import type {
	LoggingLevel,
	LoggingMessage,
	ReadResourceResult,
	ServerCapabilities,
	Tool,
} from '../../src/protocol/schema';

/** Lets pending promise callbacks run (several turns, for chains of awaits). */
export async function flush(): Promise<void> {
	for (let i = 0; i < 20; i++) await Promise.resolve();
	await new Promise((resolve) => setImmediate(resolve));
}

/** A manual clock: timers run only when the test advances time. */
export class FakeClock implements Clock {
	private time = 1_000_000;
	private timers: { at: number; seq: number; callback: () => void }[] = [];
	private seq = 0;

	now(): number {
		return this.time;
	}

	setTimeout(callback: () => void, ms: number): { dispose(): void } {
		const timer = { at: this.time + ms, seq: this.seq++, callback };
		this.timers.push(timer);
		return { dispose: () => (this.timers = this.timers.filter((t) => t !== timer)) };
	}

	get pending(): number {
		return this.timers.length;
	}

	/** Moves time forward by `ms`, running due timers in order and letting promises settle between them. */
	async advance(ms: number): Promise<void> {
		const end = this.time + ms;
		await flush();
		for (;;) {
			const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
			if (!due) break;
			this.timers = this.timers.filter((t) => t !== due);
			this.time = Math.max(this.time, due.at);
			due.callback();
			await flush();
		}
		this.time = end;
		await flush();
	}
}

/** Just enough of McpClient for the Manager: lists, calls, events, close. */
export class FakeClient {
	readonly serverInfo = { name: 'fake', version: '1.0.0' };
	readonly protocolVersion = '2025-11-25';
	/** 'modern' makes it a 2026-07-28 client: list changes then need listenForChanges. */
	era: 'legacy' | 'modern' = 'legacy';
	/** What the Manager asked to be notified of (McpClient.listenForChanges). */
	listening: Array<{ tools?: boolean; prompts?: boolean; resources?: boolean }> = [];
	instructions: string | undefined = undefined;
	readonly transportKind = 'stdio' as const;
	readonly closeEmitter = new Emitter<Error>();
	readonly toolsEmitter = new Emitter<void>();
	readonly promptsEmitter = new Emitter<void>();
	readonly resourcesEmitter = new Emitter<void>();
	readonly updateEmitter = new Emitter<{ uri: string }>();
	readonly logEmitter = new Emitter<LoggingMessage>();
	readonly discoveryEmitter = new Emitter<void>();
	readonly onDidChangeDiscovery = this.discoveryEmitter.event;
	readonly onDidClose = this.closeEmitter.event;
	readonly onDidChangeTools = this.toolsEmitter.event;
	readonly onDidChangePrompts = this.promptsEmitter.event;
	readonly onDidChangeResources = this.resourcesEmitter.event;
	readonly onDidUpdateResource = this.updateEmitter.event;
	readonly onDidLog = this.logEmitter.event;
	readonly onDidProgress = new Emitter<never>().event;
	readonly onDidCompleteElicitation = new Emitter<never>().event;
	closed = false;
	/** A resource subscription is open (keeps an idle server running). */
	hasSubscriptions = false;
	/** Tasks the client follows (a live one keeps an idle server running). */
	liveTasks: unknown[] = [];
	listToolsCalls = 0;
	readCalls = 0;
	rootsNotified = 0;
	levels: LoggingLevel[] = [];
	serverCapabilities: ServerCapabilities = {
		tools: { listChanged: true },
		resources: { listChanged: true, subscribe: true },
		logging: {},
	};

	constructor(
		readonly name: string,
		public tools: Tool[] = [{ name: 'echo', inputSchema: { type: 'object' } }],
	) {}

	get isClosed(): boolean {
		return this.closed;
	}

	listenForChanges(lists: { tools?: boolean; prompts?: boolean; resources?: boolean }): void {
		this.listening.push(lists);
	}
	/** When set, each listTools() call answers through it (a test makes one listing slow and the next fast). */
	listToolsHook: ((call: number) => Promise<Tool[]>) | undefined;
	/** When set, readResource() waits for it before answering (a read in flight). */
	readGate: Promise<void> | undefined;
	/** The caching hints every listing reports (a 2026-07-28 server's ttlMs / cacheScope). */
	listHints: CacheHints = { ttlMs: undefined, cacheScope: undefined };
	/** Fields added to every readResource() result (e.g. a 2026-07-28 server's ttlMs). */
	readExtra: Record<string, unknown> = {};
	/** When true, each readResource() result counts as one that needed the user's input (input_required rounds). */
	readNeedsInput = false;
	private readonly inputResults = new WeakSet<object>();

	neededInput(result: object): boolean {
		return this.inputResults.has(result);
	}

	async listTools(options?: ListOptions): Promise<Tool[]> {
		this.listToolsCalls++;
		const tools = this.listToolsHook ? await this.listToolsHook(this.listToolsCalls) : this.tools;
		options?.onCacheHints?.(this.listHints);
		return tools;
	}
	async listResources() {
		return [{ uri: 'demo://a', name: 'a' }];
	}
	async listResourceTemplates() {
		return [];
	}
	async listPrompts() {
		return [];
	}
	async readResource(uri: string): Promise<ReadResourceResult> {
		const call = ++this.readCalls;
		if (this.readGate) await this.readGate;
		const result = { contents: [{ uri, text: `${uri} #${call}` }], ...this.readExtra };
		if (this.readNeedsInput) this.inputResults.add(result);
		return result;
	}
	async callTool(name: string, args?: Record<string, unknown>) {
		return { content: [{ type: 'text', text: `${this.name}:${name}:${JSON.stringify(args ?? {})}` }] };
	}
	async setLoggingLevel(level: LoggingLevel): Promise<void> {
		this.levels.push(level);
	}
	async notifyRootsChanged(): Promise<void> {
		this.rootsNotified++;
	}
	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		this.closeEmitter.fire(McpError.connectionClosed('closed by the client'));
	}
	/** The server dies: the connection closes with `reason`. */
	crash(reason = `Server '${this.name}' exited with code 1`): void {
		if (this.closed) return;
		this.closed = true;
		this.closeEmitter.fire(McpError.connectionClosed(reason));
	}
}

type Behaviour = 'ok' | 'hang' | { fail: McpError | Error };

/** A connector whose behaviour per server is set by the test; records every attempt. */
export class FakeConnector {
	readonly attempts: ConnectRequest[] = [];
	readonly clients: FakeClient[] = [];
	readonly behaviour = new Map<string, Behaviour>();
	/** Servers whose connect is in progress right now, and the most at once. */
	active = 0;
	maxActive = 0;
	/** A connect takes this long (with the real event loop, not the fake clock) before it settles. */
	latencyMs = 0;
	aborted: string[] = [];
	toolsFor = new Map<string, Tool[]>();
	/** Runs on each new client before the Manager sees it (e.g. to make it a 2026-07-28 client with caching hints). */
	prepare: ((client: FakeClient) => void) | undefined;

	readonly connect: Connector = async (request) => {
		this.attempts.push(request);
		this.active++;
		this.maxActive = Math.max(this.maxActive, this.active);
		try {
			const behaviour = this.behaviour.get(request.name) ?? 'ok';
			if (this.latencyMs > 0) await new Promise((r) => setTimeout(r, this.latencyMs));
			if (behaviour === 'hang') {
				await new Promise<never>((_, reject) => {
					request.signal.addEventListener('abort', () => {
						this.aborted.push(request.name);
						reject(request.signal.reason);
					});
				});
			}
			if (typeof behaviour === 'object') throw behaviour.fail;
			const client = new FakeClient(request.name, this.toolsFor.get(request.name));
			this.prepare?.(client);
			this.clients.push(client);
			return client as unknown as McpClient;
		} finally {
			this.active--;
		}
	};

	count(name: string): number {
		return this.attempts.filter((a) => a.name === name).length;
	}

	/** The newest client of a server. */
	last(name: string): FakeClient {
		const client = this.clients.filter((c) => c.name === name).pop();
		if (!client) throw new Error(`no client for ${name}`);
		return client;
	}
}

export function testHost(overrides: Partial<Host> = {}): Host & { loggers: Map<string, MemoryLogger> } {
	const loggers = new Map<string, MemoryLogger>();
	return {
		loggers,
		logger(server: string) {
			let logger = loggers.get(server);
			if (!logger) loggers.set(server, (logger = new MemoryLogger()));
			return logger;
		},
		...overrides,
	};
}

export function stdioServer(
	name: string,
	extra: Partial<Extract<ServerConfig, { type: 'stdio' }>> = {},
	workspaceDefined = false,
): ResolvedServer {
	return {
		name,
		config: { type: 'stdio', command: 'node', args: [`${name}.js`], ...extra },
		source: workspaceDefined
			? { kind: 'mcpJson', label: '.vscode/mcp.json' }
			: { kind: 'user', label: 'User settings' },
		workspaceDefined,
	};
}
