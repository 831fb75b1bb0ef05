/**
 * A configured server's own entry, wherever it is defined: Show Configuration opens its file at the entry (user or
 * workspace settings.json, `.vscode/mcp.json`, a project `.mcp.json`, the user `mcp.json`), Disable and Enable set or
 * remove its `"disabled": true`, Remove deletes the entry. So a broken server can be fixed, switched off or removed
 * where it fails: its row, its error toast and the status bar's list offer these. Every change goes through the one
 * writer (serverWriter.ts), which keeps comments and refuses workspace files in Restricted Mode.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../common/errors';
import type { Manager } from '../../manager/manager';
import { serverEntryRange } from '../../manager/serverEntries';
import type { ConfigSource } from '../../manager/types';
import { Commands } from '../commandIds';
import { serverOf, type Target } from '../commandTarget';
import { isWritable, removeServer, targetOfSource, updateServer, type ServerTarget } from '../serverWriter';

const SERVERS_SETTING = 'mcpSwitchboard.servers';

/** The document and the keys above the server's entry in it, for a settings or mcp.json target. */
async function documentOf(
	target: ServerTarget,
	userSettingsUri: () => Promise<vscode.Uri>,
): Promise<{ document: vscode.TextDocument; settingsPath?: string[] } | undefined> {
	switch (target.kind) {
		case 'mcpJson':
			return { document: await vscode.workspace.openTextDocument(target.uri) };
		case 'user': {
			// The profile's settings.json, beside its user mcp.json. VS Code's Open User Settings (JSON) is the way when
			// that file cannot be read: it places its own cursor after it resolves, so it is not the first choice.
			const document = await vscode.workspace.openTextDocument(await userSettingsUri()).then(
				(opened) => opened,
				async () => {
					await vscode.commands.executeCommand('workbench.action.openSettingsJson');
					return vscode.window.activeTextEditor?.document;
				},
			);
			return document ? { document, settingsPath: [SERVERS_SETTING] } : undefined;
		}
		case 'workspace': {
			const file = vscode.workspace.workspaceFile;
			if (file && file.scheme !== 'untitled')
				return {
					document: await vscode.workspace.openTextDocument(file),
					settingsPath: ['settings', SERVERS_SETTING],
				};
			const folder = vscode.workspace.workspaceFolders?.[0];
			if (!folder) return undefined;
			return {
				document: await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json')),
				settingsPath: [SERVERS_SETTING],
			};
		}
	}
}

/**
 * Opens the file that defines `name` (from `source`) with the cursor on the entry's name and the entry in view.
 * Resolves with the editor, or undefined when the source has no file this can open (servers given in code, a
 * multi-root folder's settings: those say where to look).
 */
export async function showServerEntry(
	name: string,
	source: ConfigSource,
	userSettingsUri: () => Promise<vscode.Uri>,
): Promise<vscode.TextEditor | undefined> {
	const target = targetOfSource(source);
	const found = target && (await documentOf(target, userSettingsUri));
	if (!found) {
		void vscode.window.showInformationMessage(
			`MCP server '${name}' is defined in ${source.label}; open that file to change it.`,
		);
		return undefined;
	}
	const editor = await vscode.window.showTextDocument(found.document, { preview: false });
	const range = serverEntryRange(found.document.getText(), name, found.settingsPath);
	if (range) {
		const start = found.document.positionAt(range.offset);
		// The key, quotes included: the cursor lands on the server's name, the whole entry is revealed.
		editor.selection = new vscode.Selection(start, found.document.positionAt(range.offset + name.length + 2));
		editor.revealRange(
			new vscode.Range(start, found.document.positionAt(range.offset + range.length)),
			vscode.TextEditorRevealType.InCenterIfOutsideViewport,
		);
	}
	return editor;
}

/** The server a command acts on, with where it is written; says why when there is none or it cannot be written. */
function entryOf(
	manager: Manager,
	target: Target,
	action: string,
): { name: string; source: ConfigSource; writeTo: ServerTarget } | undefined {
	const name = serverOf(target);
	const view = name === undefined ? undefined : manager.get(name);
	if (name === undefined || !view) {
		void vscode.window.showInformationMessage(`Pick an MCP server in the MCP view to ${action} it.`);
		return undefined;
	}
	const writeTo = targetOfSource(view.source);
	if (!writeTo) {
		void vscode.window.showInformationMessage(
			`MCP server '${name}' is defined in ${view.source.label}; ${action} it there.`,
		);
		return undefined;
	}
	if (!isWritable(writeTo)) {
		void vscode.window.showWarningMessage(
			`MCP server '${name}' is defined in ${view.source.label}, which cannot be changed in Restricted Mode. Trust the workspace to ${action} it.`,
		);
		return undefined;
	}
	return { name, source: view.source, writeTo };
}

async function setDisabled(manager: Manager, target: Target, disabled: boolean): Promise<boolean> {
	const entry = entryOf(manager, target, disabled ? 'disable' : 'enable');
	if (!entry) return false;
	try {
		// Enable removes the field rather than writing false: the entry reads as it did before Disable.
		await updateServer(entry.writeTo, entry.name, { disabled: disabled ? true : undefined });
		return true;
	} catch (error) {
		void vscode.window.showErrorMessage(
			`Could not ${disabled ? 'disable' : 'enable'} MCP server '${entry.name}' in ${entry.source.label}: ${errorMessage(error)}`,
		);
		return false;
	}
}

async function remove(manager: Manager, target: Target): Promise<boolean> {
	const entry = entryOf(manager, target, 'remove');
	if (!entry) return false;
	// A quick pick rather than a modal dialog: answered from the keyboard where the person is, and in tests (VS Code
	// refuses modal dialogs to extension tests).
	const answer = await vscode.window.showQuickPick(
		[
			{
				label: '$(trash) Remove',
				detail: `Deletes the entry '${entry.name}' from ${entry.source.label}; the rest of the file stays as it is.`,
				remove: true,
			},
			{ label: 'Cancel', remove: false },
		],
		{ title: `Remove MCP server '${entry.name}' from ${entry.source.label}?`, placeHolder: 'Remove the server?' },
	);
	if (!answer?.remove) return false;
	try {
		await removeServer(entry.writeTo, entry.name);
		return true;
	} catch (error) {
		void vscode.window.showErrorMessage(
			`Could not remove MCP server '${entry.name}' from ${entry.source.label}: ${errorMessage(error)}`,
		);
		return false;
	}
}

/**
 * Registers Show Configuration, Disable, Enable and Remove for a server (its row, its toast, the status bar).
 * `userSettingsUri` is the profile's settings.json (beside its user mcp.json).
 */
export function registerServerEntryCommands(
	manager: Manager,
	userSettingsUri: () => Promise<vscode.Uri>,
): vscode.Disposable {
	return vscode.Disposable.from(
		vscode.commands.registerCommand(Commands.showConfiguration, async (target: Target) => {
			const name = serverOf(target);
			const view = name === undefined ? undefined : manager.get(name);
			if (name === undefined || !view) {
				void vscode.window.showInformationMessage('Pick an MCP server in the MCP view to show its configuration.');
				return undefined;
			}
			return showServerEntry(name, view.source, userSettingsUri);
		}),
		vscode.commands.registerCommand(Commands.disableServer, (target: Target) => setDisabled(manager, target, true)),
		vscode.commands.registerCommand(Commands.enableServer, (target: Target) => setDisabled(manager, target, false)),
		vscode.commands.registerCommand(Commands.removeServer, (target: Target) => remove(manager, target)),
	);
}
