/** The Servers view, its commands (Start, Stop, Restart, Show Log, Refresh, Open Settings) and the status bar. */
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { FeatureDeps } from '../featureDeps';
import type { TreeNode } from '../shared/treeNodes';
import type { TaskList } from '../tasks/taskList';
import type { SkillListings } from '../skills/skillListings';
import { registerBulkEnablement, type ToolEnablement, watchCheckboxes } from '../tools/toolEnablement';
import { registerServerCommands } from './serverCommands';
import { ServersTreeProvider } from './serversTree';
import { FirstRowsView } from './firstRowsView';
import { RowSnapshot } from './rowSnapshot';
import * as path from 'node:path';
import { ServersStatusBar } from './statusBar';
import { registerTreeKeyboard } from './treeKeyboard';

/** The id of the Servers view (package.json `contributes.views`). */
export const SERVERS_VIEW = 'mcpSwitchboard.servers';

/** What the tree needs beyond the shared deps. */
export interface TreeDeps extends FeatureDeps {
	tasks: TaskList;
	enablement: ToolEnablement;
	/** The servers' skills, for their Skills group. */
	skills?: SkillListings;
}

/** What tests and other features use of the tree. */
export interface ServersTree {
	tree: ServersTreeProvider;
	/** What the view is given: the tree, with the window's first rows (firstRowsView.ts). */
	view: FirstRowsView;
	treeView: vscode.TreeView<TreeNode>;
	statusBar: ServersStatusBar;
}

/** Registers the Servers view, its checkboxes, the server commands and the status bar. */
export function register(context: vscode.ExtensionContext, deps: TreeDeps): ServersTree {
	const tree = new ServersTreeProvider(deps.manager, deps.tasks, deps.enablement, deps.skills);
	// Rows depend on the workspace's files and trust: one file per workspace (the user's storage without a folder).
	const storage = context.storageUri ?? context.globalStorageUri;
	const snapshot =
		storage.scheme === 'file'
			? new RowSnapshot(path.join(storage.fsPath, 'first-rows.json'), (message) => deps.logs.main.warn(message))
			: undefined;
	const view = new FirstRowsView(tree, deps.manager, snapshot, deps.version);
	// Checkboxes are managed here: a tool's checkbox switches it through the settings (there is no cascade to manage).
	const treeView = vscode.window.createTreeView(SERVERS_VIEW, {
		treeDataProvider: view,
		showCollapseAll: true,
		manageCheckboxStateManually: true,
	});
	const statusBar = new ServersStatusBar(deps.manager, Commands.showServers);
	// Expanding a server's row is a need: a server that starts on need starts (its cached tools show meanwhile).
	// A row kept from the last window may be expanded before its server exists: the need waits for the configuration.
	const expanded = treeView.onDidExpandElement(({ element }) => {
		if (element.kind !== 'server') return;
		if (deps.manager.get(element.server)) void deps.manager.need(element.server);
		else void view.firstApplied.then(() => deps.manager.need(element.server));
	});
	context.subscriptions.push(
		watchCheckboxes(treeView, deps.enablement),
		registerBulkEnablement(deps.manager, deps.enablement),
		tree,
		view,
		treeView,
		registerServerCommands(deps),
		registerTreeKeyboard(),
		statusBar,
		expanded,
	);
	return { tree, view, treeView, statusBar };
}
