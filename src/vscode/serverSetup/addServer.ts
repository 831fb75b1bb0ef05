import * as vscode from 'vscode';
import { errorMessage } from '../../common/errors';
import { requestFromVsCodeLink } from '../../manager/registry/installLink';
import { type ServerTarget, writableTargets, writeServers } from '../serverWriter';
import { browseRegistry, installRequest } from './registryGallery';
import type { InstallDeps } from './registryInstall';

/** Splits a command line into words, honouring single and double quotes and backslash escapes (no globbing, no variables). */
export function splitCommandLine(line: string): string[] {
	const words: string[] = [];
	let current = '';
	let inWord = false;
	let quote: '"' | "'" | undefined;
	for (let i = 0; i < line.length; i++) {
		const ch = line[i] as string;
		if (quote) {
			if (ch === quote) quote = undefined;
			else if (ch === '\\' && quote === '"' && i + 1 < line.length) current += line[++i];
			else current += ch;
		} else if (ch === '"' || ch === "'") {
			quote = ch;
			inWord = true;
		} else if (ch === '\\' && i + 1 < line.length) {
			current += line[++i];
			inWord = true;
		} else if (/\s/.test(ch)) {
			if (inWord) words.push(current);
			current = '';
			inWord = false;
		} else {
			current += ch;
			inWord = true;
		}
	}
	if (inWord) words.push(current);
	return words;
}

/** A default server name from a command or URL: the package or host, lowercased, safe characters only. */
export function suggestName(commandOrUrl: string): string {
	let base = commandOrUrl;
	try {
		const url = new URL(commandOrUrl);
		if (url.protocol.startsWith('http')) base = url.hostname.split('.').slice(-2, -1)[0] ?? url.hostname;
	} catch {
		const words = splitCommandLine(commandOrUrl);
		const pkg = words.slice(1).find((w) => !w.startsWith('-')) ?? words[0] ?? 'server';
		base =
			pkg
				.replace(/@[^/]*$/, '')
				.split('/')
				.pop() ?? pkg;
		base = base.replace(/^server-|^mcp-server-|-mcp$|\.(js|py|ts)$/g, '');
	}
	return (
		base
			.toLowerCase()
			.replace(/[^a-z0-9_-]+/g, '-')
			.replace(/^-+|-+$/g, '') || 'server'
	);
}

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
export async function addServer(install?: InstallDeps): Promise<string | undefined> {
	const kind = await vscode.window.showQuickPick(
		[
			...(install
				? [
						{
							label: '$(library) Browse MCP Servers…',
							description: 'install one from the MCP Registry',
							id: 'registry' as const,
						},
					]
				: []),
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
	if (kind.id === 'registry' && install) return browseRegistry(install);
	let entry: Record<string, unknown>;
	let hint: string;
	if (kind.id === 'stdio') {
		const line = await vscode.window.showInputBox({
			title: 'Add MCP Server (2/3)',
			prompt:
				'The command and its arguments, as you would type them in a shell (no pipes or variables), or a pasted vscode:mcp/install?{…} link',
			placeHolder: 'npx -y @modelcontextprotocol/server-everything',
			ignoreFocusOut: true,
			validateInput: (text) => {
				try {
					if (requestFromVsCodeLink(text)) return undefined;
				} catch (error) {
					return errorMessage(error);
				}
				return splitCommandLine(text).length === 0 ? 'Enter a command' : undefined;
			},
		});
		if (line === undefined) return undefined;
		// VS Code's install link, pasted: shown in full and written only after a yes (registryGallery.ts).
		const linked = requestFromVsCodeLink(line);
		if (linked && install) return installRequest(install, linked);
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
