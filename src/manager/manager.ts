// CONTRACT STUB: the Manager's public surface that the VS Code edge codes against.
// The Manager work replaces the bodies (and may add members); these names and shapes stay.
import type { Event } from '../common/event';
import type { McpClient, RequestOptions } from '../protocol/client';
import type { CallToolResult, Prompt, ReadResourceResult, Resource, ResourceTemplate, Tool } from '../protocol/schema';
import type { Host } from './host';

/** Where a server's configuration came from (shown in the tree's tooltip). */
export interface ConfigSource {
	/** `user`: user settings; `workspace`: workspace / folder settings; `mcpJson`: a .vscode/mcp.json file; `api`: given in code. */
	kind: 'user' | 'workspace' | 'mcpJson' | 'api';
	/** A short label for people, e.g. "User settings" or "demo/.vscode/mcp.json". */
	label: string;
	/** The file it came from, when there is one. */
	path?: string;
}

/** A server's configuration after variables were resolved; what the Manager starts. */
export type ServerConfig =
	| { type: 'stdio'; command: string; args?: string[]; env?: Record<string, string>; cwd?: string; timeoutMs?: number; disabled?: boolean }
	| { type: 'http' | 'sse'; url: string; headers?: Record<string, string>; timeoutMs?: number; disabled?: boolean; oauth?: { clientId?: string; clientSecret?: string; scopes?: string[] } };

export interface ResolvedServer {
	name: string;
	config: ServerConfig;
	source: ConfigSource;
	/** Workspace-defined servers need the user's trust before they start. */
	workspaceDefined: boolean;
}

export type ServerState =
	| { kind: 'stopped' }
	| { kind: 'disabled' }
	| { kind: 'needsTrust'; reason: string }
	| { kind: 'starting'; attempt: number }
	| { kind: 'running'; client: McpClient }
	| { kind: 'error'; message: string; retryAt?: number; crashLoop?: boolean };

/** A tool with its server and its unique qualified name `mcp__<server>__<tool>`. */
export interface NamedTool {
	server: string;
	qualifiedName: string;
	tool: Tool;
}

/** A read-only view of one configured server. */
export interface ServerView {
	readonly name: string;
	readonly config: ServerConfig;
	readonly source: ConfigSource;
	readonly state: ServerState;
	/** Cached lists; empty until the server runs, kept current on list_changed. */
	readonly tools: readonly NamedTool[];
	readonly resources: readonly Resource[];
	readonly resourceTemplates: readonly ResourceTemplate[];
	readonly prompts: readonly Prompt[];
	/** The last error message, kept after a successful restart for the tooltip. */
	readonly lastError: string | undefined;
}

export interface ManagerOptions {
	/** Concurrent starts per kind. */
	maxConcurrentStarts?: { stdio?: number; remote?: number };
}

export class Manager {
	/** A server was added or removed (the set of names changed). */
	readonly onDidChangeServers!: Event<void>;
	/** A server's state changed. */
	readonly onDidChangeState!: Event<{ server: string; state: ServerState }>;
	/** A server's cached tools, resources, templates or prompts changed. */
	readonly onDidChangeLists!: Event<{ server: string }>;
	/** A subscribed resource changed on the server (`notifications/resources/updated`). */
	readonly onDidUpdateResource!: Event<{ server: string; uri: string }>;

	constructor(_host: Host, _options?: ManagerOptions) {}

	/** Brings the running set in line with `servers`: starts new, restarts changed (by config hash), stops removed. */
	reconcile(_servers: readonly ResolvedServer[]): Promise<void> {
		throw new Error('not implemented');
	}
	servers(): readonly ServerView[] {
		throw new Error('not implemented');
	}
	get(_name: string): ServerView | undefined {
		throw new Error('not implemented');
	}
	start(_name: string): Promise<void> {
		throw new Error('not implemented');
	}
	stop(_name: string): Promise<void> {
		throw new Error('not implemented');
	}
	restart(_name: string): Promise<void> {
		throw new Error('not implemented');
	}
	/** Re-fetches a running server's lists. */
	refresh(_name: string): Promise<void> {
		throw new Error('not implemented');
	}
	allTools(): readonly NamedTool[] {
		throw new Error('not implemented');
	}
	/** Reverse lookup of `mcp__<server>__<tool>`. */
	findTool(_qualifiedName: string): NamedTool | undefined {
		throw new Error('not implemented');
	}
	/** Fails with an McpError naming the server when it is not running. */
	callTool(_server: string, _tool: string, _args: Record<string, unknown>, _options?: RequestOptions): Promise<CallToolResult> {
		throw new Error('not implemented');
	}
	/** Served from the resource cache (TTL + LRU) when fresh. */
	readResource(_server: string, _uri: string, _options?: RequestOptions): Promise<ReadResourceResult> {
		throw new Error('not implemented');
	}
	/** The running client, or an McpError naming the server and its state. */
	client(_server: string): McpClient {
		throw new Error('not implemented');
	}
	/** Stops every server; leaves no process behind. */
	dispose(): Promise<void> {
		throw new Error('not implemented');
	}
}
