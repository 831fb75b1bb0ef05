/**
 * The Manager's shared types: what a server's configuration is, its state, and the read-only view the edge
 * renders. In their own file so config, variables, connections and the Manager import them without a circle.
 */
import type { DevConfig } from './devMode';
import type { McpClient } from '../protocol/client';
import type { OAuthClientConfig } from '../protocol/auth/types';
import type { Prompt, Resource, ResourceTemplate, Tool } from '../protocol/schema';
import type { DeprecatedFeature } from './deprecations';
import type { UnreachableCause } from './unreachable';

/** Where a server's configuration came from (shown in the tree's tooltip). */
export interface ConfigSource {
	/**
	 * `user`: user settings; `workspace`: workspace / folder settings; `mcpJson`: a workspace's `.vscode/mcp.json` or
	 * `.mcp.json`; `userMcpJson`: the VS Code profile's user-level `mcp.json` (user-defined); `api`: given in code.
	 */
	kind: 'user' | 'workspace' | 'mcpJson' | 'userMcpJson' | 'api';
	/** A short label for people, e.g. "User settings" or "demo/.vscode/mcp.json". */
	label: string;
	/** The file it came from, when there is one. */
	path?: string;
	/** The other places that define the same server (same launch or URL), which runs once (configSources.ts). */
	alsoIn?: (ConfigSource & { name?: string })[];
	/** VS Code itself runs this server for its agent (it is in a `.vscode/mcp.json` or the user `mcp.json`). */
	vscodeRuns?: boolean;
	/** The server's name (its label) in VS Code, when VS Code runs it. */
	vscodeName?: string;
}

/** A server's configuration after variables were resolved; what the Manager starts. */
export type ServerConfig =
	| {
			type: 'stdio';
			command: string;
			args?: string[];
			/** Variables for the process; `null` removes one the process would otherwise inherit (mcp.json's format). */
			env?: Record<string, string | null>;
			cwd?: string;
			timeoutMs?: number;
			disabled?: boolean;
			/** Pins the MCP protocol version (see McpClient's protocolVersion); absent: detect. */
			protocolVersion?: string;
			/** Start with the window and never stop when idle (true), or start on first need (false); absent: the Manager's default. */
			autoStart?: boolean;
			/** Development mode: restart on file changes, start under a debugger (devMode.ts). */
			dev?: DevConfig;
	  }
	| {
			type: 'http' | 'sse';
			url: string;
			headers?: Record<string, string>;
			timeoutMs?: number;
			disabled?: boolean;
			oauth?: OAuthClientConfig;
			protocolVersion?: string;
			autoStart?: boolean;
			/** Development mode: `watch` restarts on file changes (`debug` is for local servers only). */
			dev?: DevConfig;
	  };

export interface ResolvedServer {
	name: string;
	config: ServerConfig;
	source: ConfigSource;
	/** Workspace-defined servers need the user's trust before they start. */
	workspaceDefined: boolean;
	/**
	 * What the trust question shows and its decision is keyed on: every field as written, variables unresolved
	 * (command, args, env, cwd, envFile, url, header templates). Absent: `describeAsWritten(config)` (trustText.ts).
	 */
	trustText?: string;
	/**
	 * Resolves the configuration to run (asks `${input:…}` values, reads the envFile, expands `${env:…}`), called
	 * only after the trust check allowed the server, right before each start. Present when `config` is still
	 * unresolved (a workspace-defined server: nothing of it is evaluated before the user allowed it). Rejects with
	 * an Error whose message names the server and the field when a value is missing or an input was cancelled.
	 */
	resolve?(): Promise<ServerConfig>;
	/**
	 * What resolving found that did not keep the server from starting, each naming the server (an unset `${env:X}`
	 * left empty, as VS Code leaves it). Added to the error when a start fails, since it is often why.
	 */
	notes?: string[];
}

export type ServerState =
	/**
	 * `onDemand`: the server starts on its next need (a call, a read, its row expanded): `notStarted` has not run in
	 * this session, `idle` was stopped after going unused (ManagerOptions.idleStopMs). Absent: the user stopped it.
	 */
	| { kind: 'stopped'; onDemand?: 'notStarted' | 'idle' }
	| { kind: 'disabled' }
	/** `refused`: the person was asked and said no (else nobody asked yet). */
	| { kind: 'needsTrust'; reason: string; refused?: boolean }
	| { kind: 'starting'; attempt: number }
	| { kind: 'running'; client: McpClient }
	/**
	 * A remote server whose start needs the user to sign in (in the browser) and nobody asked for one: an automatic start
	 * (start-up, a settings change) opens nothing by itself; the user's Start runs the sign-in. `message` says so.
	 */
	| { kind: 'needsSignIn'; message: string }
	/** `unreachable`: no connection could be made at all (manager/unreachable.ts), so it never ran this time. */
	| {
			kind: 'error';
			message: string;
			retryAt?: number;
			crashLoop?: boolean;
			signIn?: SignInFailure;
			unreachable?: UnreachableCause;
	  };

/** Where an OAuth sign-in failed (from the OAuth client's error), so the edge can offer to sign in again. */
export interface SignInFailure {
	/** The step, e.g. "token request to https://as.example/token" or "authorization in the browser". */
	step: string;
	/** Why, without the server's name, e.g. "the authorization server answered HTML, not JSON (HTTP 200 text/html)". */
	reason: string;
}

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
	/**
	 * The lists: the running server's, kept current on list_changed; while it waits for its first need, the ones last
	 * listed (ManagerOptions.listingStore), else empty.
	 */
	readonly tools: readonly NamedTool[];
	readonly resources: readonly Resource[];
	readonly resourceTemplates: readonly ResourceTemplate[];
	readonly prompts: readonly Prompt[];
	/** When the lists shown were listed (ms since the epoch), while they come from the listing cache; else undefined. */
	readonly listedAt: number | undefined;
	/**
	 * The names of `tools`: what a row needs, read from the listing's summary while the server waits for its first
	 * need, so showing fifty servers does not parse fifty listings.
	 */
	readonly toolNames: readonly string[];
	/** False while the server waits for its first need and its kept listing was not read: reading a list reads it. */
	readonly listsRead: boolean;
	/** The last error message, kept after a successful restart for the tooltip. */
	readonly lastError: string | undefined;
	/** Deprecated features the server uses (transport, and roots / sampling / logging seen on this connection). */
	readonly deprecatedFeatures: readonly DeprecatedFeature[];
}
