/**
 * Configuration commands: import servers from a Claude Desktop or Cursor `mcpServers` file into the user's
 * `mcpSwitchboard.servers` setting, reset workspace trust decisions, forget saved inputs; and the
 * `mcpSwitchboard.maxConcurrentStarts.*` settings applied to a running Manager.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { importMcpServers } from '../../manager/config';
import type { Manager } from '../../manager/manager';
import type { ServerConfiguration } from '../settings';

export const ConfigCommands = {
	importServers: 'mcpSwitchboard.importServers',
	resetTrust: 'mcpSwitchboard.resetTrust',
	clearInputs: 'mcpSwitchboard.clearInputs',
} as const;

/** Where Claude Desktop and Cursor keep their server lists on this platform. */
export function knownServerFiles(): { label: string; path: string }[] {
	const home = os.homedir();
	const claude =
		process.platform === 'darwin'
			? path.join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json')
			: process.platform === 'win32'
				? path.join(process.env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json')
				: path.join(process.env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Claude', 'claude_desktop_config.json');
	const files = [
		{ label: 'Claude Desktop', path: claude },
		{ label: 'Cursor (user)', path: path.join(home, '.cursor', 'mcp.json') },
	];
	for (const folder of vscode.workspace.workspaceFolders ?? []) {
		if (folder.uri.scheme === 'file') files.push({ label: `Cursor (${folder.name})`, path: path.join(folder.uri.fsPath, '.cursor', 'mcp.json') });
	}
	return files;
}

async function exists(file: string): Promise<boolean> {
	try {
		await vscode.workspace.fs.stat(vscode.Uri.file(file));
		return true;
	} catch {
		return false;
	}
}

/**
 * Imports servers from `file` (or, without one, a file the user picks) into the user setting. Servers whose name
 * already exists are offered unticked, so nothing is overwritten without the user choosing it.
 * Resolves with the names written (empty when cancelled or nothing was found).
 */
export async function importServers(file?: vscode.Uri): Promise<string[]> {
	let uri = file;
	if (!uri) {
		const found: { label: string; description: string; uri?: vscode.Uri }[] = [];
		for (const candidate of knownServerFiles()) {
			if (await exists(candidate.path)) found.push({ label: candidate.label, description: candidate.path, uri: vscode.Uri.file(candidate.path) });
		}
		found.push({ label: '$(folder-opened) Browse…', description: 'Pick a claude_desktop_config.json or mcp.json file' });
		const picked = await vscode.window.showQuickPick(found, { title: 'Import MCP servers from', placeHolder: 'A Claude Desktop or Cursor configuration file' });
		if (!picked) return [];
		uri = picked.uri;
		if (!uri) {
			const chosen = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { JSON: ['json'] }, title: 'Import MCP servers' });
			uri = chosen?.[0];
			if (!uri) return [];
		}
	}
	let text: string;
	try {
		text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
	} catch (error) {
		void vscode.window.showErrorMessage(`MCP: cannot read ${uri.fsPath}: ${error instanceof Error ? error.message : String(error)}`);
		return [];
	}
	const { servers, problems } = importMcpServers(text, path.basename(uri.fsPath));
	const names = Object.keys(servers);
	if (names.length === 0) {
		void vscode.window.showWarningMessage(`MCP: no servers to import from ${uri.fsPath}${problems.length ? `: ${problems[0]}` : ''}`);
		return [];
	}
	const config = vscode.workspace.getConfiguration('mcpSwitchboard');
	const existing = (config.inspect<Record<string, unknown>>('servers')?.globalValue ?? {});
	const items = names.map((name) => {
		const entry = servers[name]!;
		const what = typeof entry.command === 'string' ? [entry.command, ...((entry.args as string[] | undefined) ?? [])].join(' ') : String(entry.url);
		return { label: name, description: existing[name] ? `replaces the existing '${name}'` : undefined, detail: what, picked: !existing[name] };
	});
	const chosen = await vscode.window.showQuickPick(items, { canPickMany: true, title: `Import MCP servers from ${path.basename(uri.fsPath)}`, placeHolder: 'Servers to add to your user settings' });
	if (!chosen || chosen.length === 0) return [];
	const next = { ...existing };
	for (const item of chosen) next[item.label] = servers[item.label];
	await config.update('servers', next, vscode.ConfigurationTarget.Global);
	const skipped = problems.length ? ` ${problems.length} entr${problems.length === 1 ? 'y was' : 'ies were'} skipped: ${problems[0]}` : '';
	void vscode.window.showInformationMessage(`MCP: imported ${chosen.map((c) => c.label).join(', ')} into your user settings.${skipped}`);
	return chosen.map((c) => c.label);
}

/**
 * Registers the configuration commands. With `manager`, also applies `mcpSwitchboard.maxConcurrentStarts.*`
 * to it now and whenever the settings change. Returns one Disposable for everything.
 */
export function registerConfigCommands(context: vscode.ExtensionContext, config: ServerConfiguration, manager?: Manager): vscode.Disposable {
	const disposables: vscode.Disposable[] = [
		vscode.commands.registerCommand(ConfigCommands.importServers, (file?: vscode.Uri) => importServers(file instanceof vscode.Uri ? file : undefined)),
		vscode.commands.registerCommand(ConfigCommands.resetTrust, async () => {
			const count = await config.resetTrust();
			void vscode.window.showInformationMessage(
				count === 0 ? 'MCP: there were no server trust decisions to reset.' : `MCP: forgot ${count} server trust decision${count === 1 ? '' : 's'}; workspace servers will ask again before they start.`,
			);
		}),
		vscode.commands.registerCommand(ConfigCommands.clearInputs, async () => {
			await config.clearInputs();
			void vscode.window.showInformationMessage('MCP: saved input values were forgotten; servers that use them will ask again.');
		}),
	];
	if (manager) {
		manager.setMaxConcurrentStarts(config.startLimits());
		disposables.push(
			vscode.workspace.onDidChangeConfiguration((e) => {
				if (e.affectsConfiguration('mcpSwitchboard.maxConcurrentStarts')) manager.setMaxConcurrentStarts(config.startLimits());
			}),
		);
	}
	const all = vscode.Disposable.from(...disposables);
	context.subscriptions.push(all);
	return all;
}
