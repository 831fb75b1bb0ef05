// Results too large for a model's context: the model gets the head, the size and a reference, the whole text stays
// here (in memory, bounded) for the user to open in an editor and for the model to page through with `read_result`.
import { CHARS_PER_TOKEN } from './tokens';

/** The default bound of one tool result for a model, in estimated tokens (about what Claude Code allows). */
export const DEFAULT_RESULT_MAX_TOKENS = 25_000;

/** The name of the tool that pages through a stored result. */
export const READ_RESULT_TOOL = 'read_result';

/** A result kept whole. */
export interface StoredResult {
	/** Short and unique in this window, e.g. `r3`. */
	readonly id: string;
	readonly server: string;
	readonly tool: string;
	/** The whole result as text (images and other binary content as their one-line descriptions). */
	readonly text: string;
	/** The estimated tokens of the whole result (images and structured content counted). */
	readonly tokens: number;
}

/** One page of a stored result. */
export interface ResultPage {
	text: string;
	offset: number;
	/** Where the next page starts, or undefined at the end. */
	next: number | undefined;
	total: number;
}

/**
 * The stored results of this window: the newest {@link maxResults}, and no more than {@link maxChars} characters in
 * all (the oldest go first; a result larger than that alone is still kept, alone).
 */
export class ResultStore {
	private readonly results = new Map<string, StoredResult>();
	private chars = 0;
	private counter = 0;

	constructor(
		private readonly maxResults = 50,
		private readonly maxChars = 64 * 1024 * 1024,
	) {}

	/** Keeps `text` as the whole result of `server` › `tool`. */
	put(server: string, tool: string, text: string, tokens: number): StoredResult {
		const stored: StoredResult = { id: `r${++this.counter}`, server, tool, text, tokens };
		this.results.set(stored.id, stored);
		this.chars += text.length;
		for (const [id, old] of this.results) {
			if (this.results.size <= 1 || (this.results.size <= this.maxResults && this.chars <= this.maxChars)) break;
			this.results.delete(id);
			this.chars -= old.text.length;
		}
		return stored;
	}

	get(id: string): StoredResult | undefined {
		return this.results.get(id);
	}

	/** `maxChars` characters of result `id` from `offset` (0 when missing or out of range), or undefined when gone. */
	page(id: string, offset: number, maxChars: number): ResultPage | undefined {
		const stored = this.results.get(id);
		if (!stored) return undefined;
		const total = stored.text.length;
		const start = Number.isInteger(offset) && offset > 0 && offset < total ? offset : 0;
		const end = Math.min(total, start + Math.max(1, Math.floor(maxChars)));
		return { text: stored.text.slice(start, end), offset: start, next: end < total ? end : undefined, total };
	}
}

/** A size for people: bytes, KB or MB of text. */
export function charsLabel(chars: number): string {
	if (chars < 1024) return `${chars} characters`;
	if (chars < 1024 * 1024) return `${(chars / 1024).toFixed(1)} KB`;
	return `${(chars / 1024 / 1024).toFixed(1)} MB`;
}

/** The note after a capped result's head: its size, the reference, and how to read on. */
export function cappedNote(stored: StoredResult, shownChars: number): string {
	return (
		`\n\n[Result cut: about ${stored.tokens} tokens (${charsLabel(stored.text.length)}) in all, the first ` +
		`${shownChars} characters are above. The whole result is stored as "${stored.id}": call ${READ_RESULT_TOOL} ` +
		`with {"id": "${stored.id}", "offset": ${shownChars}} to read on. The user can open it whole from the chat.]`
	);
}

/** The head of a capped result: the first `maxTokens` estimated tokens of its text. */
export function headOf(text: string, maxTokens: number): string {
	return text.slice(0, Math.max(0, Math.floor(maxTokens * CHARS_PER_TOKEN)));
}

/** The definition of {@link READ_RESULT_TOOL} as a model receives it. */
export const READ_RESULT_DEFINITION = {
	name: READ_RESULT_TOOL,
	description:
		'Reads on in a tool result that was too large to send whole (its note names the id and the offset to go on from). Returns up to maxChars characters from offset, and the offset of the next page.',
	inputSchema: {
		type: 'object',
		properties: {
			id: { type: 'string', description: 'The stored result, e.g. "r1".' },
			offset: { type: 'integer', minimum: 0, description: 'The character to start from (0 is the start).' },
			maxChars: { type: 'integer', minimum: 1, description: 'How many characters at most (default 20000).' },
		},
		required: ['id'],
	},
} as const;

/** Answers a `read_result` call as text for the model. */
export function readResultAnswer(store: ResultStore, input: Record<string, unknown>): string {
	const id = typeof input.id === 'string' ? input.id : '';
	const offset = typeof input.offset === 'number' ? input.offset : 0;
	const maxChars =
		typeof input.maxChars === 'number' && input.maxChars > 0 ? Math.min(input.maxChars, 100_000) : 20_000;
	const page = store.page(id, offset, maxChars);
	if (!page) return `Tool error: there is no stored result "${id}" (results are kept in memory for this window only).`;
	const where = `[characters ${page.offset}–${page.offset + page.text.length} of ${page.total}`;
	const next = page.next === undefined ? '; this is the end]' : `; read on with offset ${page.next}]`;
	return `${where}${next}\n${page.text}`;
}

/**
 * The limit of `server` › `tool` in estimated tokens: `byTool` keyed by the qualified name (`mcp__server__tool`),
 * then by the server's name, else `fallback`.
 */
export function resultLimitFor(
	byTool: Readonly<Record<string, unknown>>,
	fallback: number,
	server: string,
	qualifiedName: string,
): number {
	for (const key of [qualifiedName, server]) {
		const value = byTool[key];
		if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
	}
	return fallback;
}
