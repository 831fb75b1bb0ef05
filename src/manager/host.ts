import type { Event } from '../common/event';
import type { Logger } from '../common/logger';
import type { OAuthHostHooks } from '../protocol/auth/types';
import type {
	CreateMessageRequest,
	CreateMessageResult,
	ElicitRequest,
	ElicitResult,
	LoggingLevel,
	Root,
} from '../protocol/schema';

/**
 * What the core needs from its surroundings. Only src/vscode implements it for VS Code;
 * tests and the headless API supply their own. A feature whose method is absent is not advertised to servers.
 */
export interface Host {
	/** Logger for one server (a LogOutputChannel per server at the edge). */
	logger(server: string): Logger;
	/** The workspace roots offered to servers; absent: roots are not advertised. */
	roots?(): readonly Root[];
	/** Fires when roots() changes; the Manager sends notifications/roots/list_changed to every running server. */
	onDidChangeRoots?: Event<void>;
	/** Ask the user (form or URL mode). A refusal is an answer (`decline`/`cancel`), never a throw. */
	elicit?(server: string, params: ElicitRequest, signal: AbortSignal): Promise<ElicitResult>;
	/** False when `elicit` handles form mode only; otherwise URL mode (2025-11-25) is advertised too. */
	elicitUrl?: boolean;
	/** False when `sample` cannot pass `tools` to a model; otherwise sampling with tools is advertised. */
	sampleTools?: boolean;
	/** Forward to a language model, with the user's consent; throws an McpError the server sees when refused. */
	sample?(server: string, params: CreateMessageRequest, signal: AbortSignal): Promise<CreateMessageResult>;
	/**
	 * Whether a workspace-defined server may start; `description` shows exactly what will run, as written.
	 * `ask` is true only for a user's explicit Start or Restart: otherwise (start-up, a settings change, a
	 * crash restart) the host answers from remembered decisions and must not show a prompt, so opening a
	 * workspace never raises a dialog by itself. Resolves false without asking in an untrusted workspace.
	 * Absent: everything may start.
	 */
	confirmTrust?(server: string, description: string, options: { ask: boolean }): Promise<boolean>;
	/** The `logging/setLevel` level to set on a server after it starts; undefined: leave the server's default. */
	loggingLevel?(server: string): LoggingLevel | undefined;
	/**
	 * OAuth hooks for a remote server that asks for authorization; absent: a 401 fails with a clear error.
	 * `interactive` false (start-up, settings change, automatic restart): the hooks must not open a sign-in by
	 * themselves; stored or refreshed tokens still work, and a needed sign-in fails so the server waits for the user.
	 */
	oauth?(server: string, options?: { interactive: boolean }): OAuthHostHooks | undefined;
	/**
	 * MCP extensions the host implements, advertised to every server as `capabilities.extensions` (e.g. MCP Apps:
	 * `io.modelcontextprotocol/ui`). Read at each connect, so a change applies from the next start. Absent: none.
	 */
	extensions?(): Readonly<Record<string, object>> | undefined;
}
