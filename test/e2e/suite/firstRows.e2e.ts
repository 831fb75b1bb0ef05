// A window's first rows (tree/firstRowsView.ts, rowSnapshot.ts), in the real extension host with VS Code's own
// TreeItem, ThemeIcon and storage: the view's request for rows waits for the configuration instead of getting none
// (which reads as "No MCP servers are configured yet"); a window whose configuration reads as the last window's did
// shows that window's rows before its Manager has a single server, then its own; another configuration, or a damaged
// file, shows nothing early and the file is made again. "The next window" here is a second Manager, tree and view
// over the same file, before its configuration is applied: what a new window's activation builds.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import { MemoryLogger } from '../../../src/common/logger';
import { FileListingStore } from '../../../src/manager/listingCache';
import { Manager, type ResolvedServer } from '../../../src/manager/manager';
import type { TreeNode } from '../../../src/vscode/shared/treeNodes';
import { FirstRowsView } from '../../../src/vscode/tree/firstRowsView';
import { keptRowsIn, RowSnapshot } from '../../../src/vscode/tree/rowSnapshot';
import { ServersTreeProvider } from '../../../src/vscode/tree/serversTree';
import { extensionApi, sleep, test, waitFor } from './harness';

/** What a person sees of a row before hovering it. */
function shown(item: vscode.TreeItem) {
	return {
		label: item.label,
		description: item.description,
		icon: item.iconPath instanceof vscode.ThemeIcon ? [item.iconPath.id, item.iconPath.color?.id] : undefined,
		contextValue: item.contextValue,
		collapsible: item.collapsibleState,
		command: item.command?.command,
	};
}

/**
 * A new window's Manager, tree and view over `file`, before its configuration is applied. Its listings are a copy of
 * this window's taken at the start, so what this window lists meanwhile does not change the rows compared.
 */
function nextWindow(listings: string, file: string, errors: string[]) {
	const logger = new MemoryLogger('info');
	const manager = new Manager(
		{ logger: () => logger },
		{ autoStart: false, listingStore: new FileListingStore(listings) },
	);
	const tree = new ServersTreeProvider(manager);
	const view = new FirstRowsView(tree, manager, new RowSnapshot(file, (message) => errors.push(message)), 'e2e');
	return {
		manager,
		tree,
		view,
		dispose: async () => {
			view.dispose();
			tree.dispose();
			await manager.dispose();
		},
	};
}

test("a window that reads the last window's configuration shows its rows first, then its own", async () => {
	const a = await extensionApi<SwitchboardApi>();
	await a.settled();
	const definitions: ResolvedServer[] = a.manager.servers().map((view) => ({
		name: view.name,
		config: view.config,
		source: view.source,
		workspaceDefined: false,
	}));
	const names = definitions.map((server) => server.name);
	assert.ok(names.length > 0, 'the e2e workspace has servers configured');
	const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'first-rows-'));
	const file = path.join(scratch, 'first-rows.json');
	const listings = path.join(scratch, 'listings');
	if (fs.existsSync(a.listingFolder)) fs.cpSync(a.listingFolder, listings, { recursive: true });
	const errors: string[] = [];
	const windows: { dispose(): Promise<void> }[] = [];
	try {
		// A window with nothing kept: its rows come from its Manager, and are kept once its configuration is applied.
		const before = nextWindow(listings, file, errors);
		windows.push(before);
		await before.view.sourcesRead('configuration 1');
		assert.equal(before.view.rows().kept, false, 'nothing was kept');
		await before.manager.reconcile(definitions);
		before.view.applied();
		const kept = await waitFor(() => fs.existsSync(file) && keptRowsIn(fs.readFileSync(file, 'utf8')), {
			message: 'the rows kept for the next window',
		});
		const ownRows = Object.fromEntries(
			names.map((name) => [name, shown(before.tree.getTreeItem(before.tree.serverNode(name)))]),
		);
		// In the order the view shows them.
		const order = before.tree.getChildren().map((node) => (node as Extract<TreeNode, { kind: 'server' }>).server);
		assert.deepEqual(
			kept.rows.map((row) => row.server),
			order,
		);

		// The next window, same configuration: its request for rows is answered with the kept ones while its Manager
		// has no server yet, each row as this window showed it.
		const next = nextWindow(listings, file, errors);
		windows.push(next);
		let answered: TreeNode[] | undefined;
		const request = Promise.resolve(next.view.getChildren()).then((nodes) => (answered = nodes ?? []));
		await sleep(50);
		assert.equal(answered, undefined, 'the request waits for the configuration');
		await next.view.sourcesRead('configuration 1');
		await request;
		assert.equal(next.manager.servers().length, 0);
		assert.deepEqual(
			answered!.map((node) => (node as Extract<TreeNode, { kind: 'server' }>).server),
			order,
		);
		for (const node of answered!) {
			const name = (node as Extract<TreeNode, { kind: 'server' }>).server;
			assert.deepEqual(shown(next.view.getTreeItem(node)), ownRows[name], `${name}'s kept row`);
		}
		assert.deepEqual(
			{ kept: next.view.rows().kept, count: next.view.rows().items.length },
			{ kept: true, count: names.length },
		);
		// Then its configuration is applied: its own rows, the same as the window before made. A kept row expanded
		// meanwhile waits for that to start its server (tree/index.ts).
		let applied = false;
		void next.view.firstApplied.then(() => (applied = true));
		await sleep(10);
		assert.equal(applied, false, 'not applied while the kept rows show');
		await next.manager.reconcile(definitions);
		next.view.applied();
		await next.view.firstApplied;
		assert.equal(next.view.rows().kept, false);
		const nodes = (await next.view.getChildren()) ?? [];
		assert.equal(nodes.length, names.length);
		for (const node of nodes) {
			const name = (node as Extract<TreeNode, { kind: 'server' }>).server;
			assert.deepEqual(shown(next.view.getTreeItem(node)), ownRows[name], `${name}'s own row`);
		}

		// Another configuration: nothing early; the request waits for this window's own rows.
		const other = nextWindow(listings, file, errors);
		windows.push(other);
		let done = false;
		const waiting = Promise.resolve(other.view.getChildren()).then((rows) => ((done = true), rows));
		await other.view.sourcesRead('configuration 2');
		await sleep(50);
		assert.equal(done, false, 'no rows before its configuration is applied');
		other.view.applied();
		assert.deepEqual(await waiting, [], 'its own rows: this Manager has none');
		// It keeps its own rows under its own key (none here), replacing the last window's.
		await waitFor(() => keptRowsIn(fs.readFileSync(file, 'utf8'))?.rows.length === 0, {
			message: 'the rows of configuration 2 kept',
		});

		// A damaged file shows nothing early, and the window's rows are kept again over it.
		fs.writeFileSync(file, '{"format": 1, "key": ');
		const damaged = nextWindow(listings, file, errors);
		windows.push(damaged);
		await damaged.view.sourcesRead('configuration 2');
		assert.equal(damaged.view.rows().kept, false);
		damaged.view.applied();
		await waitFor(() => keptRowsIn(fs.readFileSync(file, 'utf8')) !== undefined, {
			message: 'the damaged file made again',
		});
		// A window whose first apply failed keeps nothing: the next window is not shown rows of a half-applied one.
		const keptBefore = fs.readFileSync(file, 'utf8');
		const failed = nextWindow(listings, file, errors);
		windows.push(failed);
		await failed.view.sourcesRead('configuration 3');
		failed.view.applied(false);
		await failed.view.firstApplied;
		await sleep(100);
		assert.equal(fs.readFileSync(file, 'utf8'), keptBefore, 'the kept rows are left as they were');
		assert.deepEqual(errors, []);
	} finally {
		for (const window of windows) await window.dispose();
		fs.rmSync(scratch, { recursive: true, force: true });
	}
});
