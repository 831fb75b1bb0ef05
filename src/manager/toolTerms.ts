// The words of tools as numbers, for ranking them (toolRanking.ts): every distinct word stem gets an integer id once
// per process, and one list of tools (one server's tools/list) becomes an inverted index in typed arrays — for each
// stem, the tools holding it and how often — built in one pass over the tools' texts. Reading a tool allocates
// nothing per known word: a word is hashed where it stands in the text and looked up in an open-addressing table.
import type { NamedTool } from './types';
import { STEM_NOT_PREFIX, stemEnd, stemWord } from './wordStem';

/** How much more a word in a tool's name counts than one in its description (names are short and precise). */
export const NAME_WEIGHT = 3;
export const TITLE_WEIGHT = 2;

/**
 * Words too common in requests and descriptions to tell tools apart: the usual English list (NLTK's), the indefinite
 * pronouns it leaves out ("everything", "someone"), and the words of asking and of every tool ("please", "want",
 * "get", "set", "show", "use").
 */
const STOP_WORDS = (
	'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its itself they them their theirs themselves what which who whom this that these those am is are was were be been being have has had having do does did doing a an the and but if or because as until while of at by for with about against between into through during before after above below to from up down in out on off over under again further then once here there when where why how all any both each few more most other some such no nor not only own same so than too very can will just don should now ' +
	'anybody anyone anything everybody everyone everything nobody nothing somebody someone something ' +
	'get please set show use using want'
).split(' ');
/** The stop words as stems: what a word is compared with once stemmed (in a request and in the index alike). */
const STOP_STEMS = [...new Set(STOP_WORDS.map(stemWord))];
const STOP_WORD_SET = new Set(STOP_STEMS);

function isLowerOrDigit(code: number): boolean {
	return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
}

/** Letters and digits, ASCII or not (anything beyond ASCII counts as a letter); everything else separates words. */
function isWordChar(code: number): boolean {
	return isLowerOrDigit(code) || (code >= 65 && code <= 90) || code > 127;
}

/**
 * Calls `word(start, end, ascii)` for each word of `text` of two or more characters: split on anything not a letter
 * or digit and on camelCase humps (`getTinyImage` → get, Tiny, Image). A char loop, no regex: it runs over every
 * word of every tool when a list arrives.
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
		if (start >= 0 && code >= 65 && code <= 90 && isLowerOrDigit(text.charCodeAt(i - 1))) {
			if (i - start >= 2) word(start, i);
			start = i;
			continue;
		}
		if (start < 0) start = i;
	}
	if (start >= 0 && text.length - start >= 2) word(start, text.length);
}

/** The stem of the word `text[start, end)`: lower-cased on its own (so a query and a tool agree), then stemWord. */
function stemOf(text: string, start: number, end: number): string {
	return stemWord(text.slice(start, end).toLowerCase());
}

/**
 * Lower-case word stems of a text, without stop words: what a request is ranked by. The tools' texts go through
 * the same rules into term ids ({@link buildToolTerms}).
 */
export function tokenize(text: string): string[] {
	const tokens: string[] = [];
	forEachWord(text, (start, end) => {
		const token = stemOf(text, start, end);
		if (!STOP_WORD_SET.has(token)) tokens.push(token);
	});
	return tokens;
}

// ---- the vocabulary: stem → term id ----

/** The open-addressing table of stems: slot → term id + 1 (0: empty). Its size is a power of two. */
let table = new Int32Array(1 << 16);
/** Term id → its stem and its hash. */
let stems: string[] = [];
let stemHashes = new Int32Array(1 << 15);
/** Stop words hold the first ids, so one lookup both finds a word and tells it is a stop word. */
let stopWordIds = 0;
/** Past this many distinct stems the vocabulary starts over (a long session, many servers, many words). */
const MAX_VOCABULARY = 1 << 20;
/** Bumped when the vocabulary starts over: term sets built before hold ids that mean nothing now. */
let generation = 0;

/** The vocabulary's generation: a {@link ToolTerms} of another generation must be built again. */
export function vocabularyGeneration(): number {
	return generation;
}

/** FNV-1a over `text[start, end)`, ASCII capitals folded. */
function hashRange(text: string, start: number, end: number): number {
	let hash = 0x811c9dc5;
	for (let i = start; i < end; i++) hash = Math.imul(hash ^ foldAscii(text.charCodeAt(i)), 0x01000193);
	return hash | 0;
}

// What each ASCII character is to the word scanner (anything beyond ASCII is a letter: OTHER_LETTER).
const SEPARATOR = 0;
const LOWER = 1; // lower-case letters and digits
const UPPER = 2;
const OTHER_LETTER = 3;
const CHAR_KIND = new Uint8Array(128);
for (let code = 0; code < 128; code++)
	CHAR_KIND[code] = isLowerOrDigit(code) ? LOWER : code >= 65 && code <= 90 ? UPPER : SEPARATOR;

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
 * The term id of the stem `text[start, end)` (ASCII capitals folded; the caller has lower-cased anything else) whose
 * hash is `hash`; with `add`, a new stem gets the next id, else it is -1.
 */
function lookup(text: string, start: number, end: number, hash: number, add: boolean): number {
	const mask = table.length - 1;
	for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
		const entry = table[slot]!;
		if (entry === 0) {
			if (!add) return -1;
			const id = stems.length;
			stems.push(text.slice(start, end).toLowerCase());
			if (id === stemHashes.length) stemHashes = grownInt32(stemHashes, id * 2, id);
			stemHashes[id] = hash;
			fitTerm(id);
			table[slot] = id + 1;
			if (stems.length * 2 > table.length) growTable();
			return id;
		}
		if (stemHashes[entry - 1] === hash && sameRange(stems[entry - 1]!, text, start, end)) return entry - 1;
	}
}

/** The term id of a lower-case stem, or -1 when no tool has it. */
export function termIdOf(stem: string): number {
	return lookup(stem, 0, stem.length, hashRange(stem, 0, stem.length), false);
}

/** The number of term ids handed out so far (ids are below it). */
export function vocabularySize(): number {
	return stems.length;
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

function resetVocabulary(): void {
	table = new Int32Array(1 << 16);
	stems = [];
	for (const word of STOP_STEMS) lookup(word, 0, word.length, hashRange(word, 0, word.length), true);
	stopWordIds = stems.length;
	generation++;
}

// ---- reading one list of tools ----
// Scratch space reused by every build (one build runs at a time: builds are synchronous). Entries of the build so
// far: term id, tool position, weighted count. `slotOf[id]` is where the current tool's entry for `id` sits, valid
// when `stampOf[id]` is the current tool's stamp; `localOf[id]` numbers the build's distinct terms, valid when
// `buildOf[id]` is the build's stamp.
let entryIds = new Int32Array(1 << 14);
let entryTools = new Int32Array(1 << 14);
let entryCounts = new Float32Array(1 << 14);
let entries = 0;
let slotOf = new Int32Array(1 << 12);
let stampOf = new Int32Array(1 << 12);
let localOf = new Int32Array(1 << 12);
let buildOf = new Int32Array(1 << 12);
let toolStamp = 0;
let buildStamp = 0;
let currentTool = 0;
let toolStart = 0;

function grownInt32(array: Int32Array, size: number, keep: number): Int32Array<ArrayBuffer> {
	const grown = new Int32Array(size);
	grown.set(array.subarray(0, keep));
	return grown;
}

/** Makes the per-term scratch arrays hold term `id`. */
function fitTerm(id: number): void {
	if (id < slotOf.length) return;
	const size = Math.max(id + 1, slotOf.length * 2);
	slotOf = grownInt32(slotOf, size, slotOf.length);
	stampOf = grownInt32(stampOf, size, stampOf.length);
	localOf = grownInt32(localOf, size, localOf.length);
	buildOf = grownInt32(buildOf, size, buildOf.length);
}

resetVocabulary();

/** Counts term `id` with `weight` for the current tool (stop words are not counted). */
function count(id: number, weight: number): void {
	if (id < stopWordIds) return;
	if (stampOf[id] === toolStamp) {
		entryCounts[slotOf[id]!]! += weight;
		return;
	}
	if (entries === entryIds.length) {
		const size = entries * 2;
		entryIds = grownInt32(entryIds, size, entries);
		entryTools = grownInt32(entryTools, size, entries);
		const counts = new Float32Array(size);
		counts.set(entryCounts);
		entryCounts = counts;
	}
	stampOf[id] = toolStamp;
	slotOf[id] = entries;
	entryIds[entries] = id;
	entryTools[entries] = currentTool;
	entryCounts[entries] = weight;
	entries++;
}

/**
 * Counts the stems of `text` with `weight`: the words and stems of {@link tokenize}, read in one pass that hashes each
 * word's folded characters as it goes, so a known ASCII word costs no string at all (most words of most tools are).
 * A word with characters beyond ASCII is lower-cased as a string (that may change its length, as for 'İ').
 */
function addTerms(text: string | undefined, weight: number): void {
	if (!text) return;
	const length = text.length;
	let start = -1;
	let hash = 0;
	let ascii = true;
	let previous = SEPARATOR;
	for (let i = 0; i < length; i++) {
		const code = text.charCodeAt(i);
		const kind = code < 128 ? CHAR_KIND[code]! : OTHER_LETTER;
		// A word ends at a separator, or at a capital after a lower-case letter or digit (camelCase).
		if (kind === SEPARATOR || (kind === UPPER && previous === LOWER)) {
			if (start >= 0 && i - start >= 2) addWord(text, start, i, hash, ascii, weight);
			start = -1;
			previous = kind;
			if (kind === SEPARATOR) continue;
		}
		previous = kind;
		if (start < 0) {
			start = i;
			hash = 0x811c9dc5;
			ascii = true;
		}
		if (kind === OTHER_LETTER) ascii = false;
		hash = Math.imul(hash ^ (kind === UPPER ? code + 32 : code), 0x01000193);
	}
	if (start >= 0 && length - start >= 2) addWord(text, start, length, hash, ascii, weight);
}

/** Counts the word `text[start, end)` whose folded hash is `hash`. */
function addWord(text: string, start: number, end: number, hash: number, ascii: boolean, weight: number): void {
	const stem = ascii ? stemEnd(text, start, end) : STEM_NOT_PREFIX;
	if (stem === end) {
		count(lookup(text, start, end, hash, true), weight);
	} else if (stem !== STEM_NOT_PREFIX) {
		// An inflected word ("files", "changed"): its stem is where it stands, hashed without a string.
		count(lookup(text, start, stem, hashRange(text, start, stem), true), weight);
	} else {
		// Beyond ASCII, or a stem that is no prefix ("entries" → "entry"): as a string, as tokenize does.
		const word = stemOf(text, start, end);
		count(lookup(word, 0, word.length, hashRange(word, 0, word.length), true), weight);
	}
}

/**
 * The inverted index of one list of tools (typically one server's): for each term, the positions of the tools that
 * hold it and its weighted count there (name ×{@link NAME_WEIGHT}, title ×{@link TITLE_WEIGHT}, server and
 * description ×1), each tool's length (the sum of its counts) and its definition's size as sent to a model.
 */
export interface ToolTerms {
	readonly tools: readonly NamedTool[];
	/** The vocabulary generation its ids belong to. */
	readonly generation: number;
	/** Tool → its position in `tools`. */
	readonly position: Map<NamedTool, number>;
	readonly lengths: Float32Array;
	/** Each tool's {@link definitionChars}, measured when first asked (-1 until then: most tools are never sent). */
	readonly definitionChars: Float64Array;
	/** Term id → its row in the postings. */
	readonly rowOf: Map<number, number>;
	/** Row r's postings are `postingTool/postingCount[rowStart[r] .. rowStart[r + 1])`. */
	readonly rowStart: Int32Array;
	readonly postingTool: Int32Array;
	readonly postingCount: Float32Array;
}

/** A tool definition's size as sent to the model (what a definition budget counts). */
export function definitionChars(named: NamedTool): number {
	return (
		named.qualifiedName.length +
		(named.tool.description?.length ?? 0) +
		JSON.stringify(named.tool.inputSchema ?? {}).length
	);
}

/** How much a word of an input parameter's name or description counts (they say what the tool works on). */
export const PARAMETER_WEIGHT = 0.5;

/** Counts the words of the top-level parameters' names and descriptions with {@link PARAMETER_WEIGHT}. */
function addSchemaTerms(schema: unknown): void {
	const properties = (schema as { properties?: unknown } | undefined)?.properties;
	if (typeof properties !== 'object' || properties === null) return;
	for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
		addTerms(name, PARAMETER_WEIGHT);
		const description = (property as { description?: unknown } | null)?.description;
		if (typeof description === 'string') addTerms(description, PARAMETER_WEIGHT);
	}
}

/** Reads `tools` into a {@link ToolTerms}: every text once, then a counting sort of the entries by term. */
export function buildToolTerms(tools: readonly NamedTool[]): ToolTerms {
	if (stems.length > MAX_VOCABULARY) resetVocabulary();
	const n = tools.length;
	const lengths = new Float32Array(n);
	const sizes = new Float64Array(n).fill(-1);
	const position = new Map<NamedTool, number>();
	entries = 0;
	for (let t = 0; t < n; t++) {
		const named = tools[t]!;
		const { name, title, description } = named.tool;
		position.set(named, t);
		currentTool = t;
		toolStart = entries;
		toolStamp++;
		addTerms(name, NAME_WEIGHT);
		addTerms(named.server, 1);
		addTerms(title, TITLE_WEIGHT);
		addTerms(description, 1);
		addSchemaTerms(named.tool.inputSchema);
		let length = 0;
		for (let e = toolStart; e < entries; e++) length += entryCounts[e]!;
		lengths[t] = length;
	}
	// Rows: the build's distinct terms in order of first sight; count each row's postings, then place them.
	buildStamp++;
	const rowOf = new Map<number, number>();
	const rowOfEntry = new Int32Array(entries);
	let rows = 0;
	for (let e = 0; e < entries; e++) {
		const id = entryIds[e]!;
		if (buildOf[id] !== buildStamp) {
			buildOf[id] = buildStamp;
			localOf[id] = rows;
			rowOf.set(id, rows);
			rows++;
		}
		rowOfEntry[e] = localOf[id]!;
	}
	const rowStart = new Int32Array(rows + 1);
	for (let e = 0; e < entries; e++) rowStart[rowOfEntry[e]! + 1]!++;
	for (let r = 0; r < rows; r++) rowStart[r + 1]! += rowStart[r]!;
	const fill = rowStart.slice(0, rows);
	const postingTool = new Int32Array(entries);
	const postingCount = new Float32Array(entries);
	for (let e = 0; e < entries; e++) {
		const at = fill[rowOfEntry[e]!]!++;
		postingTool[at] = entryTools[e]!;
		postingCount[at] = entryCounts[e]!;
	}
	return { tools, generation, position, lengths, definitionChars: sizes, rowOf, rowStart, postingTool, postingCount };
}
