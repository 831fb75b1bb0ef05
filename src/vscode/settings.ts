// CONTRACT STUB: the Manager work replaces the body; extension.ts wires it by this shape.
import * as vscode from 'vscode';
import type { ResolvedServer } from '../manager/manager';

/**
 * Reads `mcpSwitchboard.servers` and every `.vscode/mcp.json`, resolves variables (asking for `${input:…}` values,
 * passwords kept in SecretStorage), and decides workspace trust for workspace-defined servers.
 */
export class ServerConfiguration implements vscode.Disposable {
	private readonly changed = new vscode.EventEmitter<void>();
	/** Fires (debounced) when settings, mcp.json files, workspace folders or workspace trust change. */
	readonly onDidChange: vscode.Event<void> = this.changed.event;

	constructor(_context: vscode.ExtensionContext, _log: vscode.LogOutputChannel) {}

	/** Never throws on user input: every problem names the server and the field. */
	async resolve(): Promise<{ servers: ResolvedServer[]; problems: string[] }> {
		return { servers: [], problems: [] };
	}

	/** Host.confirmTrust: false without asking in an untrusted workspace; otherwise asks once per config hash. */
	async confirmTrust(_server: string, _description: string): Promise<boolean> {
		return false;
	}

	dispose(): void {
		this.changed.dispose();
	}
}
