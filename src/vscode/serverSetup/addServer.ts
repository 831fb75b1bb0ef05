import * as vscode from 'vscode';
import { errorMessage } from '../../common/errors';
import { splitCommandLine, suggestName } from '../../manager/serverNames';
import { type ServerTarget, writableTargets, writeServers } from '../serverWriter';

/** How Add Server names the places it saves to. */
const TARGET_LABELS: Record<ServerTarget['kind'], { label: string; description: string }> = {
	user: { label: 'User settings', description: 'available in every window' },
	workspace: { label: 'Workspace settings', description: 'only this workspace (asks for trust before it starts)' },
	mcpJson: { label: '.vscode/mcp.json', description: 'only this workspace, in the file VS Code shares' },
};

/**
 * Add Server: a guided flow for a local command (stdio) or a remote URL (Streamable HTTP, or legacy SSE),
 * then a name and where to save it (user or workspace settings). Writes `mcpSwitchboard.servers.<name>`;
 * the configuration watcher starts the server. Resolves with the name, or undefined when cancelled.
 */
export async function addServer(): Promise<string | undefined> {
	const kind = await vscode.window.showQuickPick(
		[
			{
				label: '$(terminal) Command (stdio)',
				description: 'run a local program, e.g. npx -y @modelcontextprotocol/server-everything',
				id: 'stdio' as const,
			},
			{
				label: '$(globe) URL (HTTP)',
				description: 'connect to a Streamable HTTP server, e.g. http://localhost:3001/mcp',
				id: 'http' as const,
			},
			{ label: '$(globe) URL (legacy SSE)', description: 'an older server with an /sse endpoint', id: 'sse' as const },
		],
		{ title: 'Add MCP Server (1/3)', placeHolder: 'How does the server run?' },
	);
	if (!kind) return undefined;
	let entry: Record<string, unknown>;
	let hint: string;
	if (kind.id === 'stdio') {
		const line = await vscode.window.showInputBox({
			title: 'Add MCP Server (2/3)',
			prompt: 'The command and its arguments, as you would type them in a shell (no pipes or variables)',
			placeHolder: 'npx -y @modelcontextprotocol/server-everything',
			ignoreFocusOut: true,
			validateInput: (text) => (splitCommandLine(text).length === 0 ? 'Enter a command' : undefined),
		});
		if (line === undefined) return undefined;
		const [command, ...args] = splitCommandLine(line);
		entry = { type: 'stdio', command, args };
		hint = line;
	} else {
		const url = await vscode.window.showInputBox({
			title: 'Add MCP Server (2/3)',
			prompt: kind.id === 'sse' ? 'The SSE endpoint URL' : 'The server URL (the MCP endpoint)',
			placeHolder: kind.id === 'sse' ? 'http://localhost:3001/sse' : 'http://localhost:3001/mcp',
			ignoreFocusOut: true,
			validateInput: (text) => {
				try {
					const parsed = new URL(text);
					return parsed.protocol === 'http:' || parsed.protocol === 'https:'
						? undefined
						: 'Use an http:// or https:// URL';
				} catch {
					return 'Enter a URL like https://example.com/mcp';
				}
			},
		});
		if (url === undefined) return undefined;
		entry = { type: kind.id, url };
		hint = url;
	}
	const existing = vscode.workspace.getConfiguration('mcpSwitchboard').get<Record<string, unknown>>('servers') ?? {};
	const name = await vscode.window.showInputBox({
		title: 'Add MCP Server (3/3)',
		prompt: 'A name for the server (shown in the MCP view and in tool names)',
		value: suggestName(hint),
		ignoreFocusOut: true,
		validateInput: (text) =>
			!text.trim()
				? 'Enter a name'
				: Object.hasOwn(existing, text.trim())
					? `A server named '${text.trim()}' exists already`
					: undefined,
	});
	if (name === undefined) return undefined;
	// Workspace settings are offered only in a trusted workspace (the writer's Restricted Mode rule).
	const targets = writableTargets().map((target) => ({ target, ...TARGET_LABELS[target.kind] }));
	const where =
		targets.length === 1 ? targets[0] : await vscode.window.showQuickPick(targets, { title: 'Save the server in' });
	if (!where) return undefined;
	try {
		// Rejected when trust was revoked while the pick was open.
		await writeServers(where.target, { [name.trim()]: entry });
	} catch (error) {
		void vscode.window.showErrorMessage(`Could not save MCP server '${name.trim()}': ${errorMessage(error)}`);
		return undefined;
	}
	const restricted =
		!vscode.workspace.isTrusted && vscode.workspace.workspaceFolders?.length
			? ' (workspace settings are not offered in Restricted Mode)'
			: '';
	void vscode.window.showInformationMessage(
		`Added MCP server '${name.trim()}' to ${where.label.toLowerCase()}${restricted}.`,
	);
	return name.trim();
}
