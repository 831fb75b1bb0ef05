import type { Logger } from '../common/logger';
import type { CreateMessageRequest, CreateMessageResult, ElicitRequest, ElicitResult, Root } from '../protocol/schema';

/**
 * What the core needs from its surroundings. Only src/vscode implements it for VS Code;
 * tests and the headless API supply their own. A feature whose method is absent is not advertised to servers.
 */
export interface Host {
	/** Logger for one server (a LogOutputChannel per server at the edge). */
	logger(server: string): Logger;
	/** The workspace roots offered to servers. */
	roots?(): readonly Root[];
	/** Ask the user (form or URL mode). A refusal is an answer (`decline`/`cancel`), never a throw. */
	elicit?(server: string, params: ElicitRequest, signal: AbortSignal): Promise<ElicitResult>;
	/** Forward to a language model, with the user's consent; throws an McpError the server sees when refused. */
	sample?(server: string, params: CreateMessageRequest, signal: AbortSignal): Promise<CreateMessageResult>;
	/** Ask whether a workspace-defined server may start; `description` shows exactly what will run. */
	confirmTrust?(server: string, description: string): Promise<boolean>;
}
