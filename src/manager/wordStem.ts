// A light English stemmer for ranking tools (toolTerms.ts): requests and tool descriptions use different forms of the
// same word ("changed" / "change", "creating" / "creates", "entries" / "entry"), and BM25 only meets equal terms. It
// strips inflections only (plural -s and -ies, -ed, -ing, a final -e), never derivations (-ation, -ment, -er), so
// words of different meaning stay apart ("file" / "fill", "user" / "use"). The stem need not be a word: requests
// and tools go through the same function, so only equality matters. It works on a range of a text, so the index can
// stem a word where it stands without making a string (ASCII capitals are folded).

/** What {@link stemEnd} answers for a word whose stem is not a prefix of it (plural -ies → -y). */
export const STEM_NOT_PREFIX = -1;

function lower(text: string, i: number): number {
	const code = text.charCodeAt(i);
	return code >= 65 && code <= 90 ? code + 32 : code;
}

function isVowel(code: number): boolean {
	return code === 97 || code === 101 || code === 105 || code === 111 || code === 117 || code === 121; // a e i o u y
}

function hasVowel(text: string, start: number, end: number): boolean {
	for (let i = start; i < end; i++) if (isVowel(lower(text, i))) return true;
	return false;
}

function endsWith(text: string, start: number, end: number, suffix: string): boolean {
	if (end - start < suffix.length) return false;
	for (let i = 0; i < suffix.length; i++)
		if (lower(text, end - suffix.length + i) !== suffix.charCodeAt(i)) return false;
	return true;
}

/** Drops one of a final doubled consonant left by -ed / -ing ("stopp" → "stop"); l, s and z stay ("fill", "pass"). */
function undoubled(text: string, start: number, end: number): number {
	const last = lower(text, end - 1);
	if (end - start < 4 || last !== lower(text, end - 2) || isVowel(last)) return end;
	return last === 108 || last === 115 || last === 122 ? end : end - 1;
}

/**
 * Where the stem of the word `text[start, end)` ends (its stem is `text[start, result)`, lower-cased), or
 * {@link STEM_NOT_PREFIX} for a plural -ies (see {@link stemWord}).
 */
export function stemEnd(text: string, start: number, end: number): number {
	const length = end - start;
	if (length < 4) return end;
	let stem = end;
	if (length > 4 && endsWith(text, start, end, 'ies')) return STEM_NOT_PREFIX;
	if (endsWith(text, start, end, 's')) {
		if (!endsWith(text, start, end, 'ss')) stem = end - 1;
	} else if (endsWith(text, start, end, 'ing')) {
		if (length >= 6 && hasVowel(text, start, end - 3)) stem = undoubled(text, start, end - 3);
	} else if (endsWith(text, start, end, 'ed')) {
		if (length >= 5 && !endsWith(text, start, end, 'eed') && hasVowel(text, start, end - 2))
			stem = undoubled(text, start, end - 2);
	}
	return stem - start >= 4 && lower(text, stem - 1) === 101 ? stem - 1 : stem; // a final e
}

/**
 * The stem of a lower-case word: plural -ies → -y, plural -s (not -ss), -ed (not -eed), -ing, then a final -e, each
 * only when a stem of three letters with a vowel is left ("changed", "changes", "changing", "change" → "chang";
 * "string", "need", "class" stay). Words of fewer than four letters are kept as they are.
 */
export function stemWord(word: string): string {
	const end = stemEnd(word, 0, word.length);
	if (end === STEM_NOT_PREFIX) return word.slice(0, -3) + 'y';
	return end === word.length ? word : word.slice(0, end);
}
