/**
 * What the Servers view is given (vscode.window.createTreeView): the tree of serversTree.ts, with the window's first
 * rows taken care of.
 *
 * - Until this window's configuration is applied, VS Code's request for the rows waits (the view shows its progress
 *   bar) instead of getting none: no rows read as "No MCP servers are configured yet" to a window with fifty.
 * - A window whose sources read as the last window's did shows that window's rows meanwhile (rowSnapshot.ts), so
 *   its servers show before they are parsed, resolved and given connections; then the Manager's rows replace them.
 *   Each window keeps the rows it made at its first apply for the next.
 */
import * as vscode from 'vscode';
import type { Manager } from '../../manager/manager';
import type { TreeNode } from '../shared/treeNodes';
import { keptRow, rowsKey, treeItemOf, type KeptRow, type RowSnapshot } from './rowSnapshot';
import type { ServersTreeProvider } from './serversTree';

export class FirstRowsView implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
	private readonly changed = new vscode.EventEmitter<TreeNode | TreeNode[] | undefined>();
	readonly onDidChangeTreeData = this.changed.event;
	private readonly forwarding: vscode.Disposable;
	/** The last window's rows, while they are shown. */
	private kept: { rows: readonly KeptRow[]; items: Map<string, vscode.TreeItem> } | undefined;
	private shown!: () => void;
	/** Resolves when the view has rows to show: the last window's, or this window's configuration applied. */
	readonly ready = new Promise<void>((resolve) => (this.shown = resolve));
	private appliedOnce!: () => void;
	/** Resolves when this window's configuration was first applied (a kept row's server exists from then on). */
	readonly firstApplied = new Promise<void>((resolve) => (this.appliedOnce = resolve));
	/** What this window's rows are kept under (rowSnapshot.ts rowsKey), from its first read. */
	private key: string | undefined;
	private appliedBefore = false;

	constructor(
		private readonly tree: ServersTreeProvider,
		private readonly manager: Manager,
		/** None where the storage is not on this machine's disk. */
		private readonly snapshot: RowSnapshot | undefined,
		private readonly version: string,
	) {
		this.forwarding = tree.onDidChangeTreeData((nodes) => this.changed.fire(nodes));
		// Read beside the configuration, which is read next.
		void snapshot?.load();
	}

	/** The configuration was read (not yet parsed): the last window's rows show when it read the same. */
	async sourcesRead(fingerprint: string): Promise<void> {
		if (this.key !== undefined) return;
		this.key = rowsKey(this.version, fingerprint);
		const kept = await this.snapshot?.load();
		if (kept?.key !== this.key) return;
		this.kept = { rows: kept.rows, items: new Map(kept.rows.map((row) => [row.server, treeItemOf(row)])) };
		this.changed.fire(undefined);
		this.shown();
		// VS Code's request for the rows is answered before the servers are resolved.
		await new Promise((resolve) => setImmediate(resolve));
	}

	/**
	 * The configuration is applied (or failed to be: `ok` false): the Manager's rows from now on. The first time, when
	 * it succeeded, they are kept for the next window.
	 */
	applied(ok = true): void {
		this.shown();
		this.appliedOnce();
		if (this.kept) {
			this.kept = undefined;
			this.changed.fire(undefined);
		}
		const first = !this.appliedBefore;
		this.appliedBefore = true;
		const { key, snapshot } = this;
		if (!first || !ok || key === undefined || !snapshot) return;
		// After VS Code's requests for the new rows: the rows are built again here, as a new window would first show them.
		setImmediate(() => {
			const rows: KeptRow[] = [];
			for (const node of this.tree.getChildren()) {
				const view = node.kind === 'server' ? this.manager.get(node.server) : undefined;
				if (view) rows.push(keptRow(view, this.tree.getTreeItem(node)));
			}
			void snapshot.keep(key, rows);
		});
	}

	/** The rows shown now, and what the log says of them (firstRows.ts). */
	rows(): { items: vscode.TreeItem[]; running: number; listed: number; kept: boolean } {
		if (this.kept) {
			const rows = this.kept.rows;
			return {
				items: [...this.kept.items.values()],
				running: rows.filter((row) => row.running).length,
				listed: rows.filter((row) => row.listed).length,
				kept: true,
			};
		}
		const views = this.manager.servers();
		return {
			items: this.tree.getChildren().map((node) => this.tree.getTreeItem(node)),
			running: views.filter((view) => view.state.kind === 'running').length,
			listed: views.filter((view) => view.listedAt !== undefined).length,
			kept: false,
		};
	}

	getChildren(element?: TreeNode): vscode.ProviderResult<TreeNode[]> {
		if (element) return this.tree.getChildren(element);
		return this.ready.then(() =>
			this.kept && this.manager.servers().length === 0
				? this.kept.rows.map((row) => this.tree.serverNode(row.server))
				: this.tree.getChildren(),
		);
	}

	getTreeItem(element: TreeNode): vscode.TreeItem {
		const kept = element.kind === 'server' && !this.manager.get(element.server) && this.kept?.items.get(element.server);
		return kept || this.tree.getTreeItem(element);
	}

	getParent(element: TreeNode): TreeNode | undefined {
		return this.tree.getParent(element);
	}

	resolveTreeItem(item: vscode.TreeItem, element: TreeNode): vscode.TreeItem {
		return this.tree.resolveTreeItem(item, element);
	}

	dispose(): void {
		this.forwarding.dispose();
		this.changed.dispose();
	}
}
