/**
 * One round of listing a server: the lists asked for, fetched together, each numbered per kind so that a listing
 * that finishes after a newer one is recognised and dropped by whoever applies them (ServerConnection).
 */
import type { CacheHints, ListOptions, McpClient } from '../protocol/client';
import type { Prompt, Resource, ResourceTemplate, Tool } from '../protocol/schema';
import type { ListKind } from './connectionTypes';

/** One list as fetched, with its number in its kind's sequence. */
export interface NumberedList<T> {
	items: T[];
	number: number;
}

/** What one round fetched: a list per kind asked for and fetched (absent: not asked for, or failed), and cache hints. */
export interface ListingRound {
	tools?: NumberedList<Tool>;
	resources?: NumberedList<Resource>;
	resourceTemplates?: NumberedList<ResourceTemplate>;
	prompts?: NumberedList<Prompt>;
	hints: Partial<Record<ListKind, CacheHints>>;
}

/**
 * Lists `kinds` on `client`. Each kind asked for takes the next number of `sequence[kind].started`; a failed list is
 * reported to `onFailure` and left out of the round.
 */
export async function listServer(
	client: McpClient,
	kinds: ReadonlySet<ListKind>,
	sequence: Record<ListKind, { started: number; applied: number }>,
	onFailure: (kind: ListKind, error: unknown) => void,
): Promise<ListingRound> {
	const caps = client.serverCapabilities ?? {};
	const hints: Partial<Record<ListKind, CacheHints>> = {};
	const get = async <T>(
		kind: ListKind,
		enabled: unknown,
		list: (options: ListOptions) => Promise<T[]>,
	): Promise<NumberedList<T> | undefined> => {
		if (!kinds.has(kind)) return undefined;
		const number = ++sequence[kind].started;
		// A capability the server no longer advertises (server/discover answered without it) empties its list: keeping
		// the old one would offer tools the server has withdrawn.
		if (!enabled) return { items: [], number };
		try {
			return { items: await list({ onCacheHints: (h) => (hints[kind] = h) }), number };
		} catch (error) {
			onFailure(kind, error);
			return undefined;
		}
	};
	const [tools, resources, resourceTemplates, prompts] = await Promise.all([
		get('tools', caps.tools, (options) => client.listTools(options)),
		get('resources', caps.resources, (options) => client.listResources(options)),
		get('resourceTemplates', caps.resources, (options) => client.listResourceTemplates(options)),
		get('prompts', caps.prompts, (options) => client.listPrompts(options)),
	]);
	const round: ListingRound = { hints };
	if (tools) round.tools = tools;
	if (resources) round.resources = resources;
	if (resourceTemplates) round.resourceTemplates = resourceTemplates;
	if (prompts) round.prompts = prompts;
	return round;
}

/** The items of `result` unless a newer listing of its kind was applied already (then undefined, after `onDropped`). */
export function newestOf<T>(
	sequence: { started: number; applied: number },
	result: NumberedList<T> | undefined,
	onDropped: () => void,
): T[] | undefined {
	if (!result) return undefined;
	if (result.number < sequence.applied) {
		onDropped();
		return undefined;
	}
	sequence.applied = result.number;
	return result.items;
}

/** Whether a list fetched again differs from the one shown. */
export function listChanged(items: readonly unknown[], old: readonly unknown[]): boolean {
	return items.length !== old.length || JSON.stringify(items) !== JSON.stringify(old);
}

/**
 * A 2026-07-28 server sends list changes only on a subscriptions/listen stream that asks for them: ask for each list
 * cached here that the server's capabilities offer (the client keeps the stream open and listens again after a drop
 * until it closes; older servers send list changes unasked and this does nothing).
 */
export function listenForCachedLists(client: McpClient): void {
	const caps = client.serverCapabilities ?? {};
	client.listenForChanges({
		tools: caps.tools !== undefined,
		prompts: caps.prompts !== undefined,
		resources: caps.resources !== undefined,
	});
}
