/**
 * How long a window takes to show its servers: from activate() to the Servers view's rows built as the view paints
 * them first (state, tool count from the kept listing): the last window's rows when the configuration reads the same
 * (firstRowsView.ts), else the Manager's once the configuration is applied. Logged once, so a user with many servers
 * can see what activation costs them, and read by `npm run bench` in a real VS Code. The rows are built even while the
 * view is hidden: the same work the view does when it opens.
 */
import { plural } from '../../common/text';
import type { FirstRowsView } from './firstRowsView';

export interface FirstRows {
	/** Milliseconds from activate() to the rows built. */
	ms: number;
	servers: number;
	/** Servers running by then (those with `autoStart`, or started by something else meanwhile). */
	running: number;
	/** Servers whose rows show tools from a kept listing. */
	cached: number;
	/** The rows were the last window's (the configuration read the same). */
	kept: boolean;
}

export async function timeFirstRows(
	began: number,
	view: FirstRowsView,
	log: { info(message: string): void },
): Promise<FirstRows> {
	await view.ready;
	const rows = view.rows();
	const ms = performance.now() - began;
	const { running, listed: cached, kept } = rows;
	const from = kept ? "; the last window's rows, until this one's are made" : '';
	log.info(
		`${plural(rows.items.length, 'server')} shown ${Math.round(ms)} ms after activation began (${running} running, ${cached} from kept listings${from})`,
	);
	return { ms, servers: rows.items.length, running, cached, kept };
}
