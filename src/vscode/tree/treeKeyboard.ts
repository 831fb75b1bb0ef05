/**
 * Enter in the Servers view. A tool row has no click command (one stray click ran a tool without arguments), so
 * Enter, VS Code's "open" key in a tree, did nothing on it and running a tool took Shift+F10, ↓, Enter. The
 * keybinding (package.json) sends `{ $treeViewId, $focusedTreeItem: true }`, which the extension host turns into the
 * focused row (its tree argument processor), and this command runs the row's action: Call Tool on a tool, and what
 * Enter does in any tree (`list.select`: the row's click, or expanding it) on every other row.
 */
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { TreeNode } from '../shared/treeNodes';

/** Bound to Enter while the Servers view has focus (not a palette command, so not in Commands). */
export const SERVERS_ENTER = 'mcpSwitchboard.servers.enter';

/** Registers the command behind Enter in the Servers view. */
export function registerTreeKeyboard(): vscode.Disposable {
	return vscode.commands.registerCommand(SERVERS_ENTER, (focused?: TreeNode | null) =>
		focused?.kind === 'tool'
			? vscode.commands.executeCommand(Commands.callTool, focused)
			: vscode.commands.executeCommand('list.select'),
	);
}
