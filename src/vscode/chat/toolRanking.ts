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

/** A word's stem: lower case, a plural `s` stripped (so "files" and "file" match). */
function stem(word: string): string {
	const lower = word.toLowerCase();
	return lower.length > 3 && lower.endsWith('s') && !lower.endsWith('ss') ? lower.slice(0, -1) : lower;
}

/** Letters (ASCII and anything beyond it) and digits; everything else separates words. */
function isWordChar(code: number): boolean {
	return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code > 127;
}

/**
 * Lower-case word stems of a text: splits on anything not a letter or digit and on camelCase humps
 * (`getTinyImage` → get, tiny, image), drops stop words and one-letter words, and strips a plural `s`.
 * A hand-written scanner: this runs over every tool's texts when the index is built (regex splitting was 10x slower).
 */
export function tokenize(text: string): string[] {
	const tokens: string[] = [];
	let start = -1;
	const flush = (end: number) => {
		if (start >= 0 && end - start >= 2) {
			const token = stem(text.slice(start, end));
			if (!STOP_WORDS.has(token)) tokens.push(token);
		}
		start = -1;
	};
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (!isWordChar(code)) {
			flush(i);
			continue;
		}
		// A capital after a lower-case letter or digit starts a new word (camelCase).
		if (start >= 0 && code >= 65 && code <= 90) {
			const previous = text.charCodeAt(i - 1);
			if ((previous >= 97 && previous <= 122) || (previous >= 48 && previous <= 57)) flush(i);
		}
		if (start < 0) start = i;
	}
	flush(text.length);
	return tokens;
}

/** One tool's weighted term counts, computed once per tool object (a list change elsewhere does not redo it). */
const termCache = new WeakMap<NamedTool, { terms: string[]; counts: number[]; length: number }>();

/** Reused for every tool's counts: a new Map per tool was most of the garbage of an index build. */
const scratch = new Map<string, number>();

function termsOf(named: NamedTool): { terms: string[]; counts: number[]; length: number } {
	const cached = termCache.get(named);
	if (cached) return cached;
	const counts = scratch;
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
	for (const count of counts.values()) length += count;
	const entry = { terms: [...counts.keys()], counts: [...counts.values()], length };
	termCache.set(named, entry);
	return entry;
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
		tools.forEach((named, i) => {
			const { terms, counts, length } = termsOf(named);
			for (let t = 0; t < terms.length; t++) {
				const term = terms[t]!;
				let list = this.postings.get(term);
				if (!list) this.postings.set(term, (list = []));
				list.push(i, counts[t]!);
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
