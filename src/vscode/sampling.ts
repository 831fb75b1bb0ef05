// CONTRACT STUB: the sampling work replaces the body; extension.ts/host.ts wire it by this shape.
import type * as vscode from 'vscode';
import { McpError } from '../protocol/mcpError';
import type { CreateMessageRequest, CreateMessageResult } from '../protocol/schema';

/** Forwards `sampling/createMessage` to vscode.lm with the user's consent per server. */
export class SamplingBroker implements vscode.Disposable {
	constructor(_context: vscode.ExtensionContext, _log: (server: string) => vscode.LogOutputChannel) {}

	/** Throws an McpError the server sees when the user declines or no model is available. */
	async sample(server: string, _params: CreateMessageRequest, _signal: AbortSignal): Promise<CreateMessageResult> {
		throw new McpError(-1, `Sampling is not available for ${server}`);
	}

	/** Forgets every remembered consent (the command "MCP: Reset Sampling Consent"). */
	async resetConsent(): Promise<void> {}

	dispose(): void {}
}
