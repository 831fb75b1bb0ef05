/**
 * The VS Code profile's user-level `mcp.json`: the file *MCP: Open User Configuration* opens, where VS Code keeps the
 * servers installed from its gallery or with *MCP: Add Server*. VS Code has no API that names it, so it is found
 * from the profile's location, as VS Code's own `userDataProfile.mcpResource` is built (`joinPath(profile.location,
 * 'mcp.json')`, in 1.139's workbench):
 * - `context.globalStorageUri` is `<user data>/User/globalStorage/<extension id>` (extension storage is kept with the
 *   default profile), so `<user data>/User` is two levels up;
 * - the default profile's location is that folder; another profile's is `User/profiles/<id>`, and which profile a
 *   window uses is in `User/globalStorage/storage.json` (`profileAssociations`, by workspace URI); a profile created
 *   with "use the default profile's MCP servers" (`useDefaultFlags.mcp`) reads the default one.
 * The file is read with `vscode.workspace.fs` (any scheme) and watched.
 */
import * as vscode from 'vscode';
import { parseJsonc } from '../manager/jsonc';
import { readText } from './shared/readText';

interface StoredProfile {
	location?: unknown;
	useDefaultFlags?: { mcp?: unknown };
}

/** `<user data>/User` from the extension's global storage folder. */
export function userFolder(globalStorageUri: vscode.Uri): vscode.Uri {
	return vscode.Uri.joinPath(globalStorageUri, '..', '..');
}

/**
 * The profile folder this window uses: the profile associated with the open workspace (or the empty window) in
 * storage.json, else the default profile (the User folder itself).
 */
export async function profileFolder(user: vscode.Uri): Promise<vscode.Uri> {
	const text = await readText(vscode.Uri.joinPath(user, 'globalStorage', 'storage.json'));
	if (text === undefined) return user;
	const storage = parseJsonc(text).value as
		| {
				userDataProfiles?: StoredProfile[];
				profileAssociations?: { workspaces?: Record<string, unknown>; emptyWindows?: Record<string, unknown> };
		  }
		| undefined;
	const workspace = vscode.workspace.workspaceFile ?? vscode.workspace.workspaceFolders?.[0]?.uri;
	const associations = storage?.profileAssociations?.workspaces ?? {};
	const id = workspace
		? (associations[workspace.toString()] ?? associations[workspace.toString(true)])
		: Object.values(storage?.profileAssociations?.emptyWindows ?? {})[0];
	if (typeof id !== 'string' || id === '__default__profile__') return user;
	const profile = storage?.userDataProfiles?.find((p) => p.location === id);
	if (!profile || profile.useDefaultFlags?.mcp === true) return user;
	return vscode.Uri.joinPath(user, 'profiles', id);
}

/** The user-level `mcp.json` of this window's profile. */
export async function userMcpJsonUri(context: Pick<vscode.ExtensionContext, 'globalStorageUri'>): Promise<vscode.Uri> {
	return vscode.Uri.joinPath(await profileFolder(userFolder(context.globalStorageUri)), 'mcp.json');
}

/** Reads the file (undefined when there is none) and fires `onDidChange` when it is created, changed or deleted. */
export class UserMcpJson implements vscode.Disposable {
	private readonly changed = new vscode.EventEmitter<void>();
	readonly onDidChange = this.changed.event;
	private readonly located: Promise<vscode.Uri>;
	private readonly disposables: vscode.Disposable[] = [this.changed];

	constructor(context: Pick<vscode.ExtensionContext, 'globalStorageUri'>) {
		this.located = userMcpJsonUri(context);
		void this.located.then((uri) => {
			const base = vscode.Uri.joinPath(uri, '..');
			const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(base, 'mcp.json'));
			const fire = () => this.changed.fire();
			this.disposables.push(watcher, watcher.onDidCreate(fire), watcher.onDidChange(fire), watcher.onDidDelete(fire));
		});
	}

	/** Where the file is (it may not exist). */
	uri(): Promise<vscode.Uri> {
		return this.located;
	}

	/** The file's text and path, or undefined when it does not exist. */
	async read(): Promise<{ text: string; path: string } | undefined> {
		const uri = await this.located;
		const text = await readText(uri);
		return text === undefined ? undefined : { text, path: uri.scheme === 'file' ? uri.fsPath : uri.toString() };
	}

	dispose(): void {
		for (const disposable of this.disposables) disposable.dispose();
	}
}
