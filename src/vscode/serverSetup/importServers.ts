/**
 * Import Servers: servers from a Claude Desktop or Cursor `mcpServers` file into the user's `mcpSwitchboard.servers`
 * setting, their secrets into SecretStorage.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { plural } from '../../common/text';
import { importMcpServers } from '../../manager/config';
import { inputSecretKey, USER_INPUT_SCOPE } from '../inputs';
import { serversAt, userInputs, writeServers, writeUserInputs } from '../serverWriter';
import { describeImport, extractSecrets } from '../../manager/importSecrets';
import { errorMessage } from '../../common/errors';

/** Where Claude Desktop and Cursor keep their server lists on this platform. */
export function knownServerFiles(): { label: string; path: string }[] {
	const home = os.homedir();
	const claude =
		process.platform === 'darwin'
			? path.join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json')
			: process.platform === 'win32'
				? path.join(
						process.env.APPDATA ?? path.join(home, 'AppData', 'Roaming'),
						'Claude',
						'claude_desktop_config.json',
					)
				: path.join(process.env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Claude', 'claude_desktop_config.json');
	const files = [
		{ label: 'Claude Desktop', path: claude },
		{ label: 'Cursor (user)', path: path.join(home, '.cursor', 'mcp.json') },
	];
	// A workspace's own file is offered only in a trusted workspace: importing it into user settings would let a
	// cloned repository run its servers in every window, bypassing Restricted Mode.
	if (vscode.workspace.isTrusted) {
		for (const folder of vscode.workspace.workspaceFolders ?? []) {
			if (folder.uri.scheme === 'file')
				files.push({ label: `Cursor (${folder.name})`, path: path.join(folder.uri.fsPath, '.cursor', 'mcp.json') });
		}
	}
	return files;
}

/** Whether `uri` lies in one of the open workspace folders. */
function inWorkspace(uri: vscode.Uri): boolean {
	return vscode.workspace.getWorkspaceFolder(uri) !== undefined;
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
 * Imports servers from `file` (or, without one, a file the user picks) into the user setting. Each server is shown
 * with everything it will run (command line, working folder, environment, headers) before anything is written;
 * servers whose name already exists are offered unticked, so nothing is overwritten without the user choosing it.
 * Tokens in `env` and `headers` do not go into settings.json (which Settings Sync uploads): each becomes an
 * `${input:…}` password input in `mcpSwitchboard.inputs`, its value kept in SecretStorage. In Restricted Mode a
 * file inside the workspace is refused. Resolves with the names written (empty when cancelled or nothing was found).
 */
export async function importServers(secrets: vscode.SecretStorage, file?: vscode.Uri): Promise<string[]> {
	let uri = file;
	if (!uri) {
		const found: { label: string; description: string; uri?: vscode.Uri }[] = [];
		for (const candidate of knownServerFiles()) {
			if (await exists(candidate.path))
				found.push({ label: candidate.label, description: candidate.path, uri: vscode.Uri.file(candidate.path) });
		}
		found.push({
			label: '$(folder-opened) Browse…',
			description: 'Pick a claude_desktop_config.json or mcp.json file',
		});
		const picked = await vscode.window.showQuickPick(found, {
			title: 'Import MCP servers from',
			placeHolder: 'A Claude Desktop or Cursor configuration file',
		});
		if (!picked) return [];
		uri = picked.uri;
		if (!uri) {
			const chosen = await vscode.window.showOpenDialog({
				canSelectMany: false,
				filters: { JSON: ['json'] },
				title: 'Import MCP servers',
			});
			uri = chosen?.[0];
			if (!uri) return [];
		}
	}
	if (!vscode.workspace.isTrusted && inWorkspace(uri)) {
		void vscode.window.showWarningMessage(
			`MCP: ${path.basename(uri.fsPath)} belongs to this workspace, which is in Restricted Mode. Trust the workspace before importing its servers: imported servers run in every window.`,
		);
		return [];
	}
	let text: string;
	try {
		text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
	} catch (error) {
		void vscode.window.showErrorMessage(`MCP: cannot read ${uri.fsPath}: ${errorMessage(error)}`);
		return [];
	}
	const { servers, problems } = importMcpServers(text, path.basename(uri.fsPath));
	const names = Object.keys(servers);
	if (names.length === 0) {
		void vscode.window.showWarningMessage(
			`MCP: no servers to import from ${uri.fsPath}${problems.length ? `: ${problems[0]}` : ''}`,
		);
		return [];
	}
	const existing = serversAt({ kind: 'user' }) ?? {};
	const items = names.map((name) => {
		const entry = servers[name]!;
		const replaces = existing[name] ? `replaces the existing '${name}'` : undefined;
		const secretCount = extractSecrets(name, entry).secrets.length;
		const description =
			[replaces, secretCount > 0 ? `${plural(secretCount, 'secret')} to secret storage` : undefined]
				.filter(Boolean)
				.join(' · ') || undefined;
		return { label: name, description, detail: describeImport(entry).join(' · '), picked: !existing[name] };
	});
	const chosen = await vscode.window.showQuickPick(items, {
		canPickMany: true,
		title: `Import MCP servers from ${path.basename(uri.fsPath)}`,
		placeHolder: 'Servers to add to your user settings: each runs in every window, with what is shown below it',
		matchOnDetail: true,
	});
	if (!chosen || chosen.length === 0) return [];
	const next: Record<string, Record<string, unknown>> = {};
	const definitions = userInputs();
	let moved = 0;
	for (const item of chosen) {
		const { entry, secrets: found } = extractSecrets(item.label, servers[item.label]!);
		for (const secret of found) {
			await secrets.store(inputSecretKey(USER_INPUT_SCOPE, secret.id), secret.value);
			const definition = { type: 'promptString', id: secret.id, description: secret.description, password: true };
			const at = definitions.findIndex((d) => d.id === secret.id);
			if (at >= 0) definitions[at] = definition;
			else definitions.push(definition);
			moved++;
		}
		next[item.label] = entry;
	}
	// Inputs first: the servers that use them are applied when `servers` changes.
	if (moved > 0) await writeUserInputs(definitions);
	await writeServers({ kind: 'user' }, next);
	const skipped = problems.length
		? ` ${problems.length} entr${problems.length === 1 ? 'y was' : 'ies were'} skipped: ${problems[0]}`
		: '';
	const kept =
		moved > 0
			? ` ${moved} secret${moved === 1 ? ' was' : 's were'} kept in VS Code's secret storage, not in settings.json.`
			: '';
	void vscode.window.showInformationMessage(
		`MCP: imported ${chosen.map((c) => c.label).join(', ')} into your user settings.${kept}${skipped}`,
	);
	return chosen.map((c) => c.label);
}
