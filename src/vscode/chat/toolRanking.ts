// Which tools go to the model when there are more than it accepts: a lexical ranking (Okapi BM25) of the tools'
// names, titles and descriptions against the request and the conversation, with pinned tools always sent. No
// network, no model: the same request gives the same selection. Kept free of `vscode` so unit tests and the
// benchmark run it under plain Node.
import type { NamedTool } from '../../manager/types';

/** The most tools a chat request may carry (VS Code and the model APIs refuse more). */
export const MAX_MODEL_TOOLS = 128;

// BM25's usual constants: term-frequency saturation and length normalisation.
const K1 = 1.2;
const B = 0.75;
/** How much more a word in a tool's name counts than one in its description (names are short and precise). */
const NAME_WEIGHT = 3;
const TITLE_WEIGHT = 2;

/** Words too common in requests and descriptions to tell tools apart. */
const STOP_WORDS = new Set(
	'a an and are as at be by can do does for from get has have how i in is it its me my of on or please set show that the this to use using want was what when where which with you your'.split(' '),
);

/**
 * Lower-case word stems of a text: splits on anything not a letter or digit and on camelCase humps
 * (`getTinyImage` → get, tiny, image), drops stop words and one-letter words, and strips a plural `s`.
 */
export function tokenize(text: string): string[] {
	const words = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^\p{L}\p{N}]+/u);
	const tokens: string[] = [];
	for (const word of words) {
		if (word.length < 2 || STOP_WORDS.has(word)) continue;
		tokens.push(word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word);
	}
	return tokens;
}

/** An inverted index over a set of tools; build once per tool list (see {@link ToolIndex.for}). */
export class ToolIndex {
	private static cache = new WeakMap<readonly NamedTool[], ToolIndex>();
	/** term → the tools containing it, as [tool index, weighted term frequency] pairs, flattened. */
	private readonly postings = new Map<string, number[]>();
	private readonly lengths: Float64Array;
	private readonly averageLength: number;

	/** The index of `tools`, built on first use and cached for that array (the Manager rebuilds it on change). */
	static for(tools: readonly NamedTool[]): ToolIndex {
		let index = ToolIndex.cache.get(tools);
		if (!index) {
			index = new ToolIndex(tools);
			ToolIndex.cache.set(tools, index);
		}
		return index;
	}

	constructor(readonly tools: readonly NamedTool[]) {
		this.lengths = new Float64Array(tools.length);
		let total = 0;
		const counts = new Map<string, number>();
		tools.forEach((named, i) => {
			counts.clear();
			const add = (text: string | undefined, weight: number) => {
				if (!text) return;
				for (const token of tokenize(text)) counts.set(token, (counts.get(token) ?? 0) + weight);
			};
			add(named.tool.name, NAME_WEIGHT);
			add(named.server, 1);
			add(named.tool.title, TITLE_WEIGHT);
			add(named.tool.description, 1);
			let length = 0;
			for (const [term, count] of counts) {
				length += count;
				let list = this.postings.get(term);
				if (!list) this.postings.set(term, (list = []));
				list.push(i, count);
			}
			this.lengths[i] = length;
			total += length;
		});
		this.averageLength = tools.length > 0 ? total / tools.length : 1;
	}

	/**
	 * BM25 scores of every tool for `query` (weighted texts: the request at 1, older turns lower). A tool that shares
	 * no word with the query scores 0.
	 */
	score(query: readonly { text: string; weight: number }[]): Float64Array {
		const scores = new Float64Array(this.tools.length);
		const terms = new Map<string, number>();
		for (const { text, weight } of query) for (const token of tokenize(text)) terms.set(token, Math.max(terms.get(token) ?? 0, weight));
		const n = this.tools.length;
		for (const [term, weight] of terms) {
			const list = this.postings.get(term);
			if (!list) continue;
			const df = list.length / 2;
			const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
			for (let p = 0; p < list.length; p += 2) {
				const i = list[p]!;
				const tf = list[p + 1]!;
				const norm = tf + K1 * (1 - B + (B * this.lengths[i]!) / this.averageLength);
				scores[i]! += weight * idf * ((tf * (K1 + 1)) / norm);
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

function isPinned(named: NamedTool, pinned: readonly string[]): boolean {
	for (const pattern of pinned) {
		if (pattern === named.qualifiedName) return true;
		if (pattern.endsWith('*') && named.qualifiedName.startsWith(pattern.slice(0, -1))) return true;
	}
	return false;
}

/** A tool definition's size as sent to the model (what the budget counts). */
export function definitionChars(named: NamedTool): number {
	return named.qualifiedName.length + (named.tool.description?.length ?? 0) + JSON.stringify(named.tool.inputSchema ?? {}).length;
}

/**
 * Picks the tools for one request: every tool when they fit; otherwise pinned tools first, then the best BM25
 * matches, then (for the slots left) the rest in configuration order. The result keeps configuration order, so the
 * same tools in a different request are offered alike.
 */
export function selectTools(tools: readonly NamedTool[], request: SelectionRequest): Selection {
	const max = Math.max(0, Math.min(request.maxTools ?? MAX_MODEL_TOOLS, MAX_MODEL_TOOLS));
	const budget = request.maxDefinitionChars ?? Infinity;
	const fits = tools.length <= max && (budget === Infinity || tools.reduce((sum, named) => sum + definitionChars(named), 0) <= budget);
	if (fits) return { tools: [...tools], leftOut: 0, all: true };

	const pinned = request.pinned ?? [];
	const chosen = new Uint8Array(tools.length);
	let count = 0;
	let used = 0;
	const take = (i: number): void => {
		if (chosen[i] || count >= max) return;
		const size = budget === Infinity ? 0 : definitionChars(tools[i]!);
		if (used + size > budget) return;
		chosen[i] = 1;
		count++;
		used += size;
	};
	if (pinned.length > 0) for (let i = 0; i < tools.length; i++) if (isPinned(tools[i]!, pinned)) take(i);
	const scores = ToolIndex.for(tools).score(request.query);
	const ranked: number[] = [];
	for (let i = 0; i < scores.length; i++) if (scores[i]! > 0) ranked.push(i);
	ranked.sort((a, b) => scores[b]! - scores[a]! || a - b);
	for (const i of ranked) {
		if (count >= max) break;
		take(i);
	}
	for (let i = 0; i < tools.length && count < max; i++) take(i);
	const selected = tools.filter((_, i) => chosen[i] === 1);
	return { tools: selected, leftOut: tools.length - selected.length, all: false };
}
