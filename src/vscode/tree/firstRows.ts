/**
 * How long a window takes to show its servers: from activate() to the configuration applied and the Servers view's
 * rows built as the view paints them first (state, tool count from the kept listing, when listed). Logged once, so a
 * user with many servers can see what activation costs them, and read by `npm run bench` in a real VS Code. The
 * rows are built even while the view is hidden: the same work the view does when it opens, done once.
 */
import { plural } from '../../common/text';
import type { Manager } from '../../manager/manager';
import type { ServersTreeProvider } from './serversTree';

export interface FirstRows {
	/** Milliseconds from activate() to the rows built. */
	ms: number;
	servers: number;
	/** Servers running by then (those with `autoStart`, or started by something else meanwhile). */
	running: number;
	/** Servers whose rows show tools from a kept listing. */
	cached: number;
}

export async function timeFirstRows(
	began: number,
	settled: () => Promise<void>,
	manager: Manager,
	tree: ServersTreeProvider,
	log: { info(message: string): void },
): Promise<FirstRows> {
	await settled();
	const rows = tree.getChildren();
	for (const row of rows) tree.getTreeItem(row);
	const ms = performance.now() - began;
	const views = manager.servers();
	const running = views.filter((view) => view.state.kind === 'running').length;
	const cached = views.filter((view) => view.listedAt !== undefined).length;
	log.info(
		`${plural(rows.length, 'server')} shown ${Math.round(ms)} ms after activation began (${running} running, ${cached} from kept listings)`,
	);
	return { ms, servers: rows.length, running, cached };
}
