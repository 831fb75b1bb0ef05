/**
 * A server VS Code itself runs (its `.vscode/mcp.json` or user `mcp.json`) reached through VS Code instead of a
 * second process: this transport answers the Manager's MCP client in memory, listing the server's tools from
 * `vscode.lm.tools` and calling them with `vscode.lm.invokeTool`, so the window keeps ONE process of the server (VS
 * Code's) while the tree, the palette and `@mcp` still see and run its tools. What the public API gives is tools
 * only: such a server offers no resources or prompts here.
 *
 * VS Code names an MCP server's tools `mcp_<label>_<tool>` (tag `mcp`), the label lower-cased, characters other than
 * `a-z0-9_.-` made `_` and cut to 13 (McpPrefixGenerator in src/vs/workbench/contrib/mcp/common/mcpServer.ts, 1.139:
 * `18 - "mcp_".length - 1`); the label of an mcp.json server is its key. That prefix picks the server's tools.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../common/errors';
import { ErrorCode, type JsonRpcMessage } from '../../protocol/jsonrpc';
import { McpError } from '../../protocol/mcpError';
import type { Transport } from '../../protocol/transports/transport';
import { TransportEvents } from '../../protocol/transports/transportEvents';

/** The protocol version this in-memory server speaks (answered to `initialize`). */
const BRIDGE_PROTOCOL_VERSION = '2025-06-18';

/** VS Code's tool-name prefix for the MCP server labelled `label` (the first of that name). */
export function vscodeToolPrefix(label: string): string {
	return `mcp_${label
		.toLowerCase()
		.replace(/[^a-z0-9_.-]+/g, '_')
		.slice(0, 13)}_`;
}

/** VS Code's tools of the server labelled `label`, with the server's own tool name (VS Code's, minus its prefix). */
export function vscodeToolsOf(
	label: string,
	tools: readonly vscode.LanguageModelToolInformation[] = vscode.lm.tools,
): { name: string; info: vscode.LanguageModelToolInformation }[] {
	const prefix = vscodeToolPrefix(label);
	return tools
		.filter((tool) => tool.tags.includes('mcp') && tool.name.startsWith(prefix))
		.map((info) => ({ name: info.name.slice(prefix.length), info }));
}

/** The in-memory transport for one server; `kind` is 'window' (no process, no socket). */
export class VsCodeToolsTransport extends TransportEvents implements Transport {
	readonly kind = 'window' as const;
	private open = true;

	constructor(private readonly label: string) {
		super();
	}

	async start(): Promise<void> {
		// Nothing to open: VS Code owns the server's process.
	}

	async send(message: JsonRpcMessage): Promise<void> {
		if (!('method' in message) || !('id' in message)) return; // notifications and responses: nothing to answer
		const { id, method } = message;
		const params = message.params ?? {};
		let reply: JsonRpcMessage;
		try {
			reply = { jsonrpc: '2.0', id, result: await this.answer(method, params) };
		} catch (error) {
			const mcp = error instanceof McpError ? error : new McpError(ErrorCode.InternalError, errorMessage(error));
			reply = { jsonrpc: '2.0', id, error: mcp.toJson() };
		}
		// Asynchronously, as a peer would answer: the client registered its request before sending it.
		setImmediate(() => {
			if (this.open) this.messageEmitter.fire(reply);
		});
	}

	async close(): Promise<void> {
		if (!this.open) return;
		this.open = false;
		this.closeEmitter.fire(
			new McpError(ErrorCode.ConnectionClosed, `Connection to '${this.label}' through VS Code closed`),
		);
	}

	private async answer(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
		switch (method) {
			case 'initialize':
				return {
					protocolVersion: BRIDGE_PROTOCOL_VERSION,
					capabilities: { tools: {} },
					serverInfo: { name: this.label, version: 'through VS Code' },
					instructions: `'${this.label}' runs in VS Code; MCP Switchboard reaches its tools through VS Code.`,
				};
			case 'ping':
				return {};
			case 'tools/list':
				return { tools: (await this.tools()).map(({ name, info }) => toMcpTool(name, info)) };
			case 'tools/call':
				return this.call(String(params.name), params.arguments ?? {});
			default:
				throw new McpError(ErrorCode.MethodNotFound, `${method} is not available through VS Code`);
		}
	}

	/** The server's tools; when VS Code has none yet, asks it to start its servers and waits for their tools. */
	private async tools(): Promise<{ name: string; info: vscode.LanguageModelToolInformation }[]> {
		const now = vscodeToolsOf(this.label);
		if (now.length > 0) return now;
		await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
		return vscodeToolsOf(this.label);
	}

	private async call(name: string, input: object): Promise<Record<string, unknown>> {
		const tool = (await this.tools()).find((candidate) => candidate.name === name);
		if (!tool) throw new McpError(ErrorCode.InvalidParams, `VS Code offers no tool '${name}' of '${this.label}'`);
		try {
			const result = await vscode.lm.invokeTool(tool.info.name, { input, toolInvocationToken: undefined });
			return { content: result.content.map(toMcpContent) };
		} catch (error) {
			return { content: [{ type: 'text', text: errorMessage(error) }], isError: true };
		}
	}
}

function toMcpTool(name: string, info: vscode.LanguageModelToolInformation): object {
	return {
		name,
		description: info.description,
		inputSchema: info.inputSchema ?? { type: 'object', properties: {} },
	};
}

function toMcpContent(part: unknown): object {
	if (part instanceof vscode.LanguageModelTextPart) return { type: 'text', text: part.value };
	if (part instanceof vscode.LanguageModelDataPart) {
		if (part.mimeType.startsWith('image/'))
			return { type: 'image', data: Buffer.from(part.data).toString('base64'), mimeType: part.mimeType };
		return { type: 'text', text: new TextDecoder().decode(part.data) };
	}
	return { type: 'text', text: '(a result part VS Code gave in a form MCP Switchboard cannot show)' };
}
