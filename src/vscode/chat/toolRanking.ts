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

/** A word's stem from its lower-case form: a plural `s` stripped (so "files" and "file" match). */
function stemLower(lower: string): string {
	return lower.length > 3 && lower.endsWith('s') && !lower.endsWith('ss') ? lower.slice(0, -1) : lower;
}

/** Letters (ASCII and anything beyond it) and digits; everything else separates words. */
function isWordChar(code: number): boolean {
	return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code > 127;
}

/**
 * Calls `word(start, end)` for each word of `text` of two or more characters: split on anything not a letter or digit
 * and on camelCase humps (`getTinyImage` → get, Tiny, Image). A hand-written scanner over char codes: it runs over
 * every tool's texts on a cold request (regex splitting was 10x slower).
 */
function forEachWord(text: string, word: (start: number, end: number) => void): void {
	let start = -1;
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (!isWordChar(code)) {
			if (start >= 0 && i - start >= 2) word(start, i);
			start = -1;
			continue;
		}
		// A capital after a lower-case letter or digit starts a new word (camelCase).
		if (start >= 0 && code >= 65 && code <= 90) {
			const previous = text.charCodeAt(i - 1);
			if ((previous >= 97 && previous <= 122) || (previous >= 48 && previous <= 57)) {
				if (i - start >= 2) word(start, i);
				start = i;
				continue;
			}
		}
		if (start < 0) start = i;
	}
	if (start >= 0 && text.length - start >= 2) word(start, text.length);
}

/** `text` in lower case with the same indexes (per word when lower-casing changes the length, as for 'İ'). */
function lowerAligned(text: string): { lower: string; aligned: boolean } {
	const lower = text.toLowerCase();
	return { lower, aligned: lower.length === text.length };
}

/**
 * Lower-case word stems of a text: the words of {@link forEachWord}, without stop words, a plural `s` stripped.
 * What a request is ranked by; the tools' texts go through the same rules into term ids ({@link termsOf}).
 */
export function tokenize(text: string): string[] {
	const tokens: string[] = [];
	const { lower, aligned } = lowerAligned(text);
	forEachWord(text, (start, end) => {
		const token = stemLower(aligned ? lower.slice(start, end) : text.slice(start, end).toLowerCase());
		if (!STOP_WORDS.has(token)) tokens.push(token);
	});
	return tokens;
}

// ---- term ids ----
// Every distinct stem gets a number once per extension host, and a tool's words are kept as numbers in two shared
// typed arrays (a pool), so scoring compares integers, a new tool list reuses what earlier lists read, and reading a
// tool allocates nothing per word: a word is looked up by hashing its characters where they stand in the text.

/** The open-addressing table of stems: slot → term id + 1 (0: empty). Its size is a power of two. */
let table = new Int32Array(1 << 16);
/** Term id → its stem and its hash. */
let stems: string[] = [];
let stemHashes: number[] = [];
/** Stop words hold the first ids, so one lookup both finds a word and tells it is a stop word. */
let stopWordIds = 0;
/** Past this many distinct stems, or this many pooled terms, everything starts over (a long session, many servers). */
const MAX_VOCABULARY = 1 << 20;
const MAX_POOL = 1 << 24;

/** FNV-1a over `text[start, end)`. */
function hashRange(text: string, start: number, end: number): number {
	let hash = 0x811c9dc5;
	for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
	return hash | 0;
}

/** `code` in lower case, for ASCII letters (the only text read this way: see {@link addTerms}). */
function foldAscii(code: number): number {
	return code >= 65 && code <= 90 ? code + 32 : code;
}

/** True when `text[start, end)`, ASCII capitals folded, is `stem`. */
function sameRange(stem: string, text: string, start: number, end: number): boolean {
	if (stem.length !== end - start) return false;
	for (let i = 0; i < stem.length; i++) if (stem.charCodeAt(i) !== foldAscii(text.charCodeAt(start + i))) return false;
	return true;
}

/**
 * The term id of the stem `text[start, end)` (ASCII capitals folded) whose FNV-1a hash is `hash`; with `add`, a new
 * stem gets the next id, else it is -1.
 */
function lookup(text: string, start: number, end: number, hash: number, add: boolean): number {
	const mask = table.length - 1;
	for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
		const entry = table[slot]!;
		if (entry === 0) {
			if (!add) return -1;
			const id = stems.length;
			stems.push(text.slice(start, end).toLowerCase());
			stemHashes.push(hash);
			table[slot] = id + 1;
			if (stems.length * 2 > table.length) growTable();
			return id;
		}
		if (stemHashes[entry - 1] === hash && sameRange(stems[entry - 1]!, text, start, end)) return entry - 1;
	}
}

/** The term id of the lower-case stem `text[start, end)`; with `add`, a new stem gets the next id, else it is -1. */
function termId(text: string, start: number, end: number, add: boolean): number {
	return lookup(text, start, end, hashRange(text, start, end), add);
}

function growTable(): void {
	table = new Int32Array(table.length * 2);
	const mask = table.length - 1;
	for (let id = 0; id < stems.length; id++) {
		let slot = stemHashes[id]! & mask;
		while (table[slot] !== 0) slot = (slot + 1) & mask;
		table[slot] = id + 1;
	}
}

/** One tool's weighted terms: where its distinct term ids and counts sit in the pool, and its length (their sum). */
interface ToolTerms {
	start: number;
	end: number;
	length: number;
}

/** The pool: every read tool's term ids and weighted counts, one run per tool. */
let poolIds = new Int32Array(1 << 16);
let poolCounts = new Float32Array(1 << 16);
let poolUsed = 0;

/** By tool object (the Manager keeps its objects while a server's list is unchanged). */
let termsByTool = new WeakMap<NamedTool, ToolTerms>();
/**
 * By the texts themselves, keyed by description (a string the server sent: its hash is computed once) with name,
 * server and title compared, so a restarted server's new objects with the same words are not read again.
 */
const termsByText = new Map<string, TextEntry[]>();

interface TextEntry extends ToolTerms {
	name: string;
	server: string;
	title: string | undefined;
}
/** Past this many descriptions the text cache starts over (tools that went away are not kept forever). */
const MAX_TEXT_ENTRIES = 50_000;

function resetVocabulary(): void {
	table = new Int32Array(1 << 16);
	stems = [];
	stemHashes = [];
	for (const word of STOP_WORDS) termId(word, 0, word.length, true);
	stopWordIds = stems.length;
	poolUsed = 0;
	termsByText.clear();
	termsByTool = new WeakMap();
}

// Reused while one tool's terms are counted: where each id sits in `scratchIds` (valid when stamped with this tool).
let slotOf = new Int32Array(1024);
let stampOf = new Int32Array(1024);
let stamp = 0;
const scratchIds: number[] = [];
const scratchCounts: number[] = [];

/** Counts term `id` with `weight` into the scratch arrays (stop words are not counted). */
function count(id: number, weight: number): void {
	if (id < stopWordIds) return;
	if (id >= slotOf.length) {
		const size = Math.max(id + 1, slotOf.length * 2);
		const slots = new Int32Array(size);
		slots.set(slotOf);
		slotOf = slots;
		const stamps = new Int32Array(size);
		stamps.set(stampOf);
		stampOf = stamps;
	}
	if (stampOf[id] === stamp) {
		scratchCounts[slotOf[id]!]! += weight;
	} else {
		stampOf[id] = stamp;
		slotOf[id] = scratchIds.length;
		scratchIds.push(id);
		scratchCounts.push(weight);
	}
}

/**
 * Anything but printable ASCII and line breaks: lower-casing non-ASCII may change the length, so such texts take the
 * slower path (control characters too, which costs nothing: they separate words either way).
 */
const NON_ASCII = /[^\t\n\r\u0020-\u007e]/;

/**
 * Counts the stems of `text` with `weight`: the words and stems of {@link tokenize}, read in one pass that hashes each
 * word's folded characters as it goes, so a known word costs no string at all (most words of most tools are known).
 */
function addTerms(text: string | undefined, weight: number): void {
	if (!text) return;
	if (NON_ASCII.test(text)) {
		forEachWord(text, (start, end) => {
			const word = stemLower(text.slice(start, end).toLowerCase());
			count(termId(word, 0, word.length, true), weight);
		});
		return;
	}
	let start = -1;
	let hash = 0;
	let before = 0; // the hash without the last character, for a stripped plural s
	const flush = (end: number) => {
		if (end - start < 2) return;
		// stemLower: "files" → "file", not "class" → "clas"; the folded last two characters decide.
		const plural = end - start > 3 && foldAscii(text.charCodeAt(end - 1)) === 115 && foldAscii(text.charCodeAt(end - 2)) !== 115;
		count(plural ? lookup(text, start, end - 1, before, true) : lookup(text, start, end, hash, true), weight);
	};
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		const isUpper = code >= 65 && code <= 90;
		if (!(isUpper || (code >= 97 && code <= 122) || (code >= 48 && code <= 57))) {
			if (start >= 0) flush(i);
			start = -1;
			continue;
		}
		// A capital after a lower-case letter or digit starts a new word (camelCase).
		if (start >= 0 && isUpper) {
			const previous = text.charCodeAt(i - 1);
			if ((previous >= 97 && previous <= 122) || (previous >= 48 && previous <= 57)) {
				flush(i);
				start = -1;
			}
		}
		if (start < 0) {
			start = i;
			hash = 0x811c9dc5;
		}
		before = hash;
		hash = Math.imul(hash ^ (isUpper ? code + 32 : code), 0x01000193) | 0;
	}
	if (start >= 0) flush(text.length);
}

/** Copies the scratch counts into the pool as one tool's run. */
function pooled(): ToolTerms {
	const count = scratchIds.length;
	if (poolUsed + count > poolIds.length) {
		const size = Math.max(poolIds.length * 2, poolUsed + count);
		const ids = new Int32Array(size);
		ids.set(poolIds.subarray(0, poolUsed));
		poolIds = ids;
		const counts = new Float32Array(size);
		counts.set(poolCounts.subarray(0, poolUsed));
		poolCounts = counts;
	}
	let length = 0;
	for (let i = 0; i < count; i++) {
		poolIds[poolUsed + i] = scratchIds[i]!;
		poolCounts[poolUsed + i] = scratchCounts[i]!;
		length += scratchCounts[i]!;
	}
	const terms = { start: poolUsed, end: poolUsed + count, length };
	poolUsed += count;
	return terms;
}

/** One tool's terms: from its object, else from its texts, else read now (and kept for both). */
function termsOf(named: NamedTool): ToolTerms {
	const known = termsByTool.get(named);
	if (known) return known;
	const { name, title, description = '' } = named.tool;
	const server = named.server;
	let same = termsByText.get(description);
	let terms: ToolTerms | undefined = same?.find((entry) => entry.name === name && entry.server === server && entry.title === title);
	if (!terms) {
		if (stems.length > MAX_VOCABULARY || poolUsed > MAX_POOL) resetVocabulary();
		if (termsByText.size >= MAX_TEXT_ENTRIES) termsByText.clear();
		stamp++;
		scratchIds.length = 0;
		scratchCounts.length = 0;
		addTerms(name, NAME_WEIGHT);
		addTerms(server, 1);
		addTerms(title, TITLE_WEIGHT);
		addTerms(description, 1);
		const run = pooled();
		const entry: TextEntry = { start: run.start, end: run.end, length: run.length, name, server, title };
		terms = entry;
		same = termsByText.get(description);
		if (same) same.push(entry);
		else termsByText.set(description, [entry]);
	}
	termsByTool.set(named, terms);
	return terms;
}

resetVocabulary();

/**
 * The ranking data of a set of tools: each tool's term ids (cached per tool, see {@link termsOf}) and lengths. No
 * inverted index: a request has a handful of words, so scoring scans the tools' few terms once, which costs less
 * than building postings for every word of every tool (that build was most of a cold request).
 */
export class ToolIndex {
	private static cache = new WeakMap<readonly NamedTool[], ToolIndex>();
	private readonly terms: ToolTerms[];
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
		this.terms = new Array<ToolTerms>(tools.length);
		this.lengths = new Float64Array(tools.length);
		let total = 0;
		for (let i = 0; i < tools.length; i++) {
			const terms = termsOf(tools[i]!);
			this.terms[i] = terms;
			this.lengths[i] = terms.length;
			total += terms.length;
		}
		this.averageLength = tools.length > 0 ? total / tools.length : 1;
	}

	/**
	 * BM25 scores of every tool for `query` (weighted texts: the request at 1, older turns lower). A tool that shares
	 * no word with the query scores 0.
	 */
	score(query: readonly { text: string; weight: number }[]): Float64Array {
		const scores = new Float64Array(this.tools.length);
		// The query's known terms, each with its highest weight; `querySlot` maps a term id to its place (+1) here.
		const weights: number[] = [];
		const ids: number[] = [];
		const querySlot = new Map<number, number>();
		for (const { text, weight } of query) {
			for (const token of tokenize(text)) {
				const id = termId(token, 0, token.length, false);
				if (id < 0) continue;
				const slot = querySlot.get(id);
				if (slot === undefined) {
					querySlot.set(id, ids.length);
					ids.push(id);
					weights.push(weight);
				} else {
					weights[slot] = Math.max(weights[slot]!, weight);
				}
			}
		}
		if (ids.length === 0) return scores;
		// One pass: which tools hold which query term, and how often (the hits), and each term's document frequency.
		// The pool may have grown since this index was built: read it through the current arrays.
		const isQueryTerm = new Uint8Array(stems.length);
		for (const id of ids) isQueryTerm[id] = 1;
		const hitTool: number[] = [];
		const hitSlot: number[] = [];
		const hitCount: number[] = [];
		const df = new Float64Array(ids.length);
		for (let i = 0; i < this.terms.length; i++) {
			const { start, end } = this.terms[i]!;
			for (let t = start; t < end; t++) {
				const id = poolIds[t]!;
				if (isQueryTerm[id] !== 1) continue;
				const slot = querySlot.get(id)!;
				df[slot]!++;
				hitTool.push(i);
				hitSlot.push(slot);
				hitCount.push(poolCounts[t]!);
			}
		}
		const n = this.tools.length;
		const idf = df.map((d) => Math.log(1 + (n - d + 0.5) / (d + 0.5)));
		for (let h = 0; h < hitTool.length; h++) {
			const i = hitTool[h]!;
			const slot = hitSlot[h]!;
			const tf = hitCount[h]!;
			const norm = tf + K1 * (1 - B + (B * this.lengths[i]!) / this.averageLength);
			scores[i]! += weights[slot]! * idf[slot]! * ((tf * (K1 + 1)) / norm);
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
