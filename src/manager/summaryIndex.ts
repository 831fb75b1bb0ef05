/**
 * Every kept listing's summary in one file (`summaries.json` beside the listings), so a window with fifty servers
 * shows their rows after one read instead of fifty: on this kind of machine each file read costs more than the JSON
 * in it.
 *
 * Read once, synchronously, when the first row asks; written in the background (a temporary file renamed over the
 * old one), one write at a time, the changes of a burst together. Windows share the file: a write merges this
 * window's changes into what is on disk then, so one window does not drop what another kept. The summaries are a
 * cache: one lost in a race is made again from its listing (listingCache.ts).
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { errorMessage } from '../common/errors';
import { replaceFile } from '../common/replaceFile';

/**
 * What a server's row shows of its last listing without reading the listing itself: a listing of a thousand tools is
 * hundreds of KB of JSON to parse, its summary a list of names.
 */
export interface ListingSummary {
	listedAt: number;
	toolNames: string[];
	prompts: number;
	resources: number;
	resourceTemplates: number;
}

/** The file's format: `{ format: 1, summaries: { [identity]: ListingSummary } }`. */
const FORMAT = 1;

function isSummary(value: unknown): value is ListingSummary {
	const summary = value as ListingSummary;
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof summary.listedAt === 'number' &&
		Array.isArray(summary.toolNames) &&
		summary.toolNames.every((name) => typeof name === 'string') &&
		typeof summary.prompts === 'number' &&
		typeof summary.resources === 'number' &&
		typeof summary.resourceTemplates === 'number'
	);
}

/** The summaries in `text`; entries of another shape are left out, a file of another format or no JSON is empty. */
function summariesIn(text: string): Map<string, ListingSummary> {
	const parsed = JSON.parse(text) as { format?: unknown; summaries?: unknown };
	const entries = new Map<string, ListingSummary>();
	if (parsed?.format !== FORMAT || typeof parsed.summaries !== 'object' || parsed.summaries === null) return entries;
	for (const [identity, summary] of Object.entries(parsed.summaries)) {
		if (isSummary(summary)) entries.set(identity, summary);
	}
	return entries;
}

export class SummaryIndex {
	private entries: Map<string, ListingSummary> | undefined;
	/** What this window changed since its last write (null: dropped). */
	private readonly changes = new Map<string, ListingSummary | null>();
	private writing: Promise<void> | undefined;

	constructor(
		private readonly file: string,
		private readonly onError: (message: string) => void = () => undefined,
	) {}

	get(identity: string): ListingSummary | undefined {
		return this.read().get(identity);
	}

	set(identity: string, summary: ListingSummary): void {
		this.change(identity, summary);
	}

	delete(identity: string): void {
		if (!this.read().has(identity) && !this.changes.has(identity)) return;
		this.change(identity, null);
	}

	/** Resolves when every change so far is on disk (tests, and disposal). */
	async flush(): Promise<void> {
		while (this.writing) await this.writing;
	}

	private read(): Map<string, ListingSummary> {
		if (this.entries) return this.entries;
		let text: string | undefined;
		try {
			text = readFileSync(this.file, 'utf8');
		} catch {
			// None kept yet.
		}
		try {
			this.entries = text === undefined ? new Map() : summariesIn(text);
		} catch (error) {
			this.onError(
				`The kept listing summaries (${this.file}) are unreadable (${errorMessage(error)}); they are made again`,
			);
			this.entries = new Map();
		}
		return this.entries;
	}

	private change(identity: string, summary: ListingSummary | null): void {
		const entries = this.read();
		if (summary) entries.set(identity, summary);
		else entries.delete(identity);
		this.changes.set(identity, summary);
		this.schedule();
	}

	/** One write at a time; changes made while one is under way are written by the next, started as it ends. */
	private schedule(): void {
		if (this.writing) return;
		this.writing = this.write().finally(() => {
			this.writing = undefined;
			if (this.changes.size > 0) this.schedule();
		});
	}

	private async write(): Promise<void> {
		await Promise.resolve(); // the changes made in the same synchronous run, together
		const changes = new Map(this.changes);
		this.changes.clear();
		try {
			const merged = await this.onDisk();
			for (const [identity, summary] of changes) {
				if (summary) merged.set(identity, summary);
				else merged.delete(identity);
			}
			await replaceFile(this.file, JSON.stringify({ format: FORMAT, summaries: Object.fromEntries(merged) }));
		} catch (error) {
			this.onError(`Keeping the listing summaries failed: ${errorMessage(error)}`);
		}
	}

	/** What the file holds now (other windows may have written since this one read it). */
	private async onDisk(): Promise<Map<string, ListingSummary>> {
		try {
			return summariesIn(await readFile(this.file, 'utf8'));
		} catch {
			return new Map(this.read());
		}
	}
}
