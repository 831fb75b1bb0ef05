// Which tools go to the model when there are more than it accepts: a lexical ranking (Okapi BM25) of the tools'
// names, titles and descriptions against the request and the conversation, with pinned tools always sent. No
// network, no model: the same request gives the same selection.
//
// The index is built per server when its tools/list arrives (indexServerTools: off the chat request's path, and
// only for the server whose list changed; toolTerms.ts reads the texts), so a request only combines the servers'
// indexes for the enabled tools and scores the request's few words through their postings.
import type { Disposable } from '../common/disposable';
import type { Event } from '../common/event';
import {
	buildToolTerms,
	definitionChars,
	termIdOf,
	tokenize,
	vocabularyGeneration,
	vocabularySize,
	type ToolTerms,
} from './toolTerms';
import type { NamedTool } from './types';

export { definitionChars, tokenize } from './toolTerms';

/** The most tools a chat request may carry (VS Code and the model APIs refuse more). */
export const MAX_MODEL_TOOLS = 128;

// BM25's usual constants: term-frequency saturation and length normalisation.
const K1 = 1.2;
const B = 0.75;

/**
 * The term index of each server's current tool list. {@link update} with the list a server just sent builds that
 * server's index (and nothing else); a request's tools are found in these indexes by object.
 */
export class ToolIndexer {
	private readonly byServer = new Map<string, ToolTerms>();

	/** Indexes `tools` as `server`'s list, unless that very list is indexed already. */
	update(server: string, tools: readonly NamedTool[]): void {
		const known = this.byServer.get(server);
		if (known && known.tools === tools && known.generation === vocabularyGeneration()) return;
		if (tools.length === 0) this.byServer.delete(server);
		else this.byServer.set(server, buildToolTerms(tools));
	}

	/** Forgets the servers not in `names` (removed from the configuration). */
	retain(names: ReadonlySet<string>): void {
		for (const server of this.byServer.keys()) if (!names.has(server)) this.byServer.delete(server);
	}

	/** The index holding `named` (current vocabulary), or undefined when its server's list was not indexed with it. */
	find(named: NamedTool): ToolTerms | undefined {
		const terms = this.byServer.get(named.server);
		if (!terms || !terms.position.has(named)) return undefined;
		if (terms.generation === vocabularyGeneration()) return terms;
		const rebuilt = buildToolTerms(terms.tools);
		this.byServer.set(named.server, rebuilt);
		return rebuilt;
	}
}

/** The indexer the extension feeds from the Manager (indexServerTools) and selectTools reads by default. */
export const toolIndexer = new ToolIndexer();

/** What {@link indexServerTools} needs of the Manager. */
export interface ToolListSource {
	readonly onDidChangeLists: Event<{ server: string }>;
	readonly onDidChangeServers: Event<void>;
	servers(): readonly { readonly name: string; readonly tools: readonly NamedTool[] }[];
	get(name: string): { readonly tools: readonly NamedTool[]; readonly listsRead?: boolean } | undefined;
}

/**
 * Keeps `indexer` current with the Manager's tool lists: each server's index is rebuilt shortly after its list
 * changes (a burst of list events reads once, after the event's own work), never on a chat request's path.
 */
export function indexServerTools(source: ToolListSource, indexer: ToolIndexer = toolIndexer): Disposable {
	const pending = new Set<string>();
	let timer: ReturnType<typeof setTimeout> | undefined;
	const flush = () => {
		timer = undefined;
		for (const server of pending) {
			const view = source.get(server);
			// A kept listing nobody has read yet stays unread (a request that offers its tools indexes them itself).
			if (view?.listsRead !== false) indexer.update(server, view?.tools ?? []);
		}
		pending.clear();
	};
	const schedule = (server: string) => {
		pending.add(server);
		timer ??= setTimeout(flush, 0);
	};
	for (const server of source.servers()) schedule(server.name);
	const lists = source.onDidChangeLists(({ server }) => schedule(server));
	const servers = source.onDidChangeServers(() => indexer.retain(new Set(source.servers().map((s) => s.name))));
	return {
		dispose: () => {
			if (timer) clearTimeout(timer);
			lists.dispose();
			servers.dispose();
		},
	};
}

/**
 * The ranking data of one list of tools (the enabled tools of a request): where each tool sits in its server's
 * index. Tools of no indexed list (a server whose new list is not read yet, tests) are read into an index of their
 * own here.
 */
export class ToolIndex {
	private static cache = new WeakMap<readonly NamedTool[], ToolIndex>();
	/** The indexes the tools come from, and for each, its tool positions → this list's positions (-1: not in it). */
	private readonly sources: ToolTerms[] = [];
	private readonly listIndexOf: Int32Array[] = [];
	/** Whether every tool of a source is in this list (its postings count as they are). */
	private readonly complete: boolean[] = [];
	private readonly lengths: Float64Array;
	/** Each tool's source and position there. */
	private readonly sourceIndex: Int32Array;
	private readonly positions: Int32Array;
	private readonly averageLength: number;
	private readonly generation: number;

	/** The index of `tools`, cached for that array (the Manager's list is the same array until a list changes). */
	static for(tools: readonly NamedTool[], indexer: ToolIndexer = toolIndexer): ToolIndex {
		let index = ToolIndex.cache.get(tools);
		if (!index || index.generation !== vocabularyGeneration()) {
			index = new ToolIndex(tools, indexer);
			ToolIndex.cache.set(tools, index);
		}
		return index;
	}

	constructor(
		readonly tools: readonly NamedTool[],
		indexer: ToolIndexer = toolIndexer,
	) {
		const n = tools.length;
		this.lengths = new Float64Array(n);
		this.sourceIndex = new Int32Array(n);
		this.positions = new Int32Array(n);
		const sourceOf = new Array<ToolTerms | undefined>(n);
		const unindexed: number[] = [];
		for (let i = 0; i < n; i++) {
			sourceOf[i] = indexer.find(tools[i]!);
			if (!sourceOf[i]) unindexed.push(i);
		}
		if (unindexed.length > 0) {
			const own = buildToolTerms(unindexed.map((i) => tools[i]!));
			for (const i of unindexed) sourceOf[i] = own;
			// Reading them may have started the vocabulary over: then the servers' indexes are read again too.
			if (own.generation !== vocabularyGeneration() || sourceOf.some((s) => s!.generation !== own.generation)) {
				for (let i = 0; i < n; i++) if (sourceOf[i] !== own) sourceOf[i] = indexer.find(tools[i]!) ?? own;
			}
		}
		this.generation = vocabularyGeneration();
		const slot = new Map<ToolTerms, number>();
		let total = 0;
		for (let i = 0; i < n; i++) {
			const source = sourceOf[i]!;
			let s = slot.get(source);
			if (s === undefined) {
				s = this.sources.length;
				slot.set(source, s);
				this.sources.push(source);
				this.listIndexOf.push(new Int32Array(source.tools.length).fill(-1));
				this.complete.push(false);
			}
			const at = source.position.get(tools[i]!)!;
			this.listIndexOf[s]![at] = i;
			this.lengths[i] = source.lengths[at]!;
			this.sourceIndex[i] = s;
			this.positions[i] = at;
			total += this.lengths[i]!;
		}
		for (let s = 0; s < this.sources.length; s++) this.complete[s] = !this.listIndexOf[s]!.includes(-1);
		this.averageLength = n > 0 ? total / n : 1;
	}

	/** Tool i's definition size as sent to the model (see {@link definitionChars}). */
	definitionChars(i: number): number {
		const sizes = this.sources[this.sourceIndex[i]!]!.definitionChars;
		const at = this.positions[i]!;
		if (sizes[at]! < 0) sizes[at] = definitionChars(this.tools[i]!);
		return sizes[at]!;
	}

	/**
	 * BM25 scores of every tool for `query` (weighted texts: the request at 1, older turns lower). A tool that shares
	 * no word with the query scores 0.
	 */
	score(query: readonly { text: string; weight: number }[]): Float64Array {
		const scores = new Float64Array(this.tools.length);
		// The query's known terms, each with its highest weight.
		const weightOf = new Map<number, number>();
		for (const { text, weight } of query) {
			for (const token of tokenize(text)) {
				const id = termIdOf(token);
				if (id >= 0 && id < vocabularySize()) weightOf.set(id, Math.max(weightOf.get(id) ?? 0, weight));
			}
		}
		const n = this.tools.length;
		for (const [id, weight] of weightOf) {
			// Document frequency among this list's tools: whole postings for complete sources, else those in the list.
			let df = 0;
			for (let s = 0; s < this.sources.length; s++) {
				const source = this.sources[s]!;
				const row = source.rowOf.get(id);
				if (row === undefined) continue;
				const from = source.rowStart[row]!;
				const to = source.rowStart[row + 1]!;
				if (this.complete[s]) df += to - from;
				else for (let p = from; p < to; p++) if (this.listIndexOf[s]![source.postingTool[p]!]! >= 0) df++;
			}
			if (df === 0) continue;
			const idf = weight * Math.log(1 + (n - df + 0.5) / (df + 0.5));
			for (let s = 0; s < this.sources.length; s++) {
				const source = this.sources[s]!;
				const row = source.rowOf.get(id);
				if (row === undefined) continue;
				const listIndexOf = this.listIndexOf[s]!;
				for (let p = source.rowStart[row]!, to = source.rowStart[row + 1]!; p < to; p++) {
					const i = listIndexOf[source.postingTool[p]!]!;
					if (i < 0) continue;
					const tf = source.postingCount[p]!;
					scores[i]! += (idf * (tf * (K1 + 1))) / (tf + K1 * (1 - B + (B * this.lengths[i]!) / this.averageLength));
				}
			}
		}
		return scores;
	}
}

/** What to select from. */
export interface SelectionRequest {
	/** The user's request, then earlier turns (weighted lower). */
	query: readonly { text: string; weight: number }[];
	/** The most tools to send. Default {@link MAX_MODEL_TOOLS}; never more. */
	maxTools?: number;
	/** Qualified names (or `mcp__server__*` patterns) of tools that always go, before any ranked tool. */
	pinned?: readonly string[];
	/** A budget for the tools' definitions in characters (name + description + schema as JSON); default none. */
	maxDefinitionChars?: number;
}

/** The selection: the tools to send, in configuration order, and how many were left out. */
export interface Selection {
	tools: NamedTool[];
	leftOut: number;
	/** True when everything fit (no ranking was needed). */
	all: boolean;
}

/** Whether `named` matches a pinned name or `mcp__server__*` pattern. */
export function isPinned(named: NamedTool, pinned: readonly string[]): boolean {
	for (const pattern of pinned) {
		if (pattern === named.qualifiedName) return true;
		if (pattern.endsWith('*') && named.qualifiedName.startsWith(pattern.slice(0, -1))) return true;
	}
	return false;
}

/**
 * The indexes of the `wanted` best scores above `above` (more on a tie at the last place), best first, ties in list
 * order. Only those are sorted: a request's words match most of thousands of tools, and sorting them all with a
 * comparator was most of a request's time.
 */
function bestFirst(scores: Float64Array, wanted: number, above: number): number[] {
	const positive: number[] = [];
	for (let i = 0; i < scores.length; i++) if (scores[i]! > above) positive.push(i);
	let candidates = positive;
	if (wanted <= 0) return [];
	if (positive.length > wanted) {
		const sorted = new Float64Array(positive.length);
		for (let p = 0; p < positive.length; p++) sorted[p] = scores[positive[p]!]!;
		sorted.sort();
		const bar = sorted[sorted.length - wanted]!;
		candidates = positive.filter((i) => scores[i]! >= bar);
	}
	return candidates.sort((a, b) => scores[b]! - scores[a]! || a - b);
}

/**
 * Picks the tools for one request: every tool when they fit; otherwise pinned tools first, then the best BM25
 * matches, then (for the slots left) the rest in configuration order. The result keeps configuration order, so the
 * same tools in a different request are offered alike. Reads the servers' indexes from `indexer`.
 */
export function selectTools(
	tools: readonly NamedTool[],
	request: SelectionRequest,
	indexer: ToolIndexer = toolIndexer,
): Selection {
	const max = Math.max(0, Math.min(request.maxTools ?? MAX_MODEL_TOOLS, MAX_MODEL_TOOLS));
	const budget = request.maxDefinitionChars ?? Infinity;
	if (
		tools.length <= max &&
		(budget === Infinity || tools.reduce((sum, named) => sum + definitionChars(named), 0) <= budget)
	) {
		return { tools: [...tools], leftOut: 0, all: true };
	}
	const index = ToolIndex.for(tools, indexer);
	const pinned = request.pinned ?? [];
	const chosen = new Uint8Array(tools.length);
	let count = 0;
	let used = 0;
	const take = (i: number): void => {
		if (chosen[i] || count >= max) return;
		const size = budget === Infinity ? 0 : index.definitionChars(i);
		if (used + size > budget) return;
		chosen[i] = 1;
		count++;
		used += size;
	};
	if (pinned.length > 0) for (let i = 0; i < tools.length; i++) if (isPinned(tools[i]!, pinned)) take(i);
	const scores = index.score(request.query);
	for (const i of bestFirst(scores, max - count, 0)) {
		if (count >= max) break;
		take(i);
	}
	// Tools refused by the budget left slots: the rest of the matches, best first.
	if (count < max && budget !== Infinity) {
		for (const i of bestFirst(scores, tools.length, 0)) {
			if (count >= max) break;
			take(i);
		}
	}
	for (let i = 0; i < tools.length && count < max; i++) take(i);
	const selected = tools.filter((_, i) => chosen[i] === 1);
	return { tools: selected, leftOut: tools.length - selected.length, all: false };
}
