/**
 * The call history: every invocation the Manager reports (tool calls, prompt gets, resource reads from the palette,
 * the tree, `@mcp`, the gateway, saved files), newest first, kept in the workspace's storage so it survives a
 * reload, capped in count and in the size of what it keeps per result. No `vscode` import: the storage is any
 * key-value store shaped like a Memento, so this is unit-tested in plain Node.
 *
 * Workspace storage is a small database on disk, not a file store, and results may hold secrets: what is written
 * there is capped in total ({@link MAX_STORED_CHARS}, oldest entries first to go), a result larger than
 * {@link MAX_STORED_RESULT_CHARS} is kept in memory for this window only (after a reload its row says so), and the
 * list is written at most once per {@link SAVE_DELAY_MS} however many calls come, not rewritten on every call.
 */
import { Emitter, type Event } from '../../common/event';
import type {
	InvocationOrigin,
	InvocationOutcome,
	InvocationRecord,
	InvocationTarget,
} from '../../manager/invocations';

/** A Memento's two methods. */
export interface KeyValueStore {
	get<T>(key: string): T | undefined;
	update(key: string, value: unknown): Thenable<void>;
}

export interface HistoryEntry {
	/** Unique within the history; also the path of the entry's result document. */
	id: string;
	target: InvocationTarget;
	origin: InvocationOrigin;
	startedAt: number;
	durationMs: number;
	outcome: InvocationOutcome;
	/**
	 * The result was not kept (the outcome says how large it was): larger than MAX_RESULT_CHARS as JSON, or (after a
	 * reload, `notStored`) larger than MAX_STORED_RESULT_CHARS, kept in memory only.
	 */
	resultDropped?: { chars: number; notStored?: boolean };
	/**
	 * A folded row (see {@link foldsCalls}): the calls of one tool from one origin on one server, shown as its
	 * newest call; `count` calls since `firstAt`.
	 */
	repeats?: { count: number; firstAt: number };
}

const STORAGE_KEY = 'mcpSwitchboard.callHistory';
/** Results above this (as JSON text) are not kept: workspace storage is a small database, not a file store. */
export const MAX_RESULT_CHARS = 256 * 1024;
/** Results above this (as JSON text) are kept in memory for this window, not written to workspace storage. */
export const MAX_STORED_RESULT_CHARS = 16 * 1024;
/** What the history writes to workspace storage in all (JSON text); older entries beyond it are not written. */
export const MAX_STORED_CHARS = 1024 * 1024;
/** Calls within this time of each other are written together. */
export const SAVE_DELAY_MS = 1000;
export const DEFAULT_MAX_ENTRIES = 200;
/**
 * Folded rows kept besides the user's own calls: one per (server, tool, origin) that an app polls, so even an app
 * polling many tools leaves the history to the person.
 */
export const MAX_FOLDED_ROWS = 20;

/**
 * Calls made by an MCP App (its own `tools/call`, often a poll every few seconds) fold into one row per server, tool
 * and origin instead of a row each: the system-monitor example polls every ~2 s, which as rows would push every
 * call the person made out of the history within minutes. What a person or a model asked for keeps a row per call.
 */
export function foldsCalls(origin: InvocationOrigin): boolean {
	return origin === 'app';
}

function foldKey(entry: HistoryEntry): string {
	return `${entry.origin}\u0000${entry.target.server}\u0000${targetLabel(entry.target)}\u0000${entry.target.kind}`;
}

/** An entry as written to storage: its result left out when large (see MAX_STORED_RESULT_CHARS). */
function storedForm(entry: HistoryEntry, resultChars: number): HistoryEntry {
	if (entry.outcome.kind !== 'result' || resultChars <= MAX_STORED_RESULT_CHARS) return entry;
	return {
		...entry,
		outcome: { ...entry.outcome, result: { content: [] } },
		resultDropped: { chars: resultChars, notStored: true },
	};
}

/** A short label for an entry's target: the tool or prompt name, or the resource URI. */
export function targetLabel(target: InvocationTarget): string {
	return target.kind === 'resource' ? target.uri : target.name;
}

/**
 * What Compare with Previous shows of a call, as JSON: its arguments (a resource read: its URI) above what came back
 * (the result as sent, or the error), so the diff shows an argument that changed beside the result it changed.
 */
export function comparisonText(entry: HistoryEntry): string {
	const target = entry.target;
	const asked = target.kind === 'resource' ? { uri: target.uri } : { arguments: target.arguments };
	const outcome = entry.outcome;
	const answered = entry.resultDropped
		? {
				result: `(not kept: ${entry.resultDropped.chars.toLocaleString('en-US')} characters of JSON; run the call again to see it)`,
			}
		: outcome.kind === 'error'
			? { error: outcome.message, cancelled: outcome.cancelled }
			: { result: outcome.result };
	return `${JSON.stringify({ ...asked, ...answered }, null, 2)}\n`;
}

/** Whether two targets are "the same call" for Compare with Previous (same server and tool/prompt/URI). */
export function sameCall(a: InvocationTarget, b: InvocationTarget): boolean {
	return a.kind === b.kind && a.server === b.server && targetLabel(a) === targetLabel(b);
}

export class CallHistory {
	private entries: HistoryEntry[];
	private counter: number;
	private readonly changed = new Emitter<void>();
	readonly onDidChange: Event<void> = this.changed.event;
	/** Writes happen one after another, so a later state never lands before an earlier one. */
	private saving: Promise<void> = Promise.resolve();
	/** A write waiting for SAVE_DELAY_MS, so a burst of calls is written once. */
	private pendingSave: ReturnType<typeof setTimeout> | undefined;
	/** Each entry's stored form and its size as JSON, measured once when it is added (never the whole list per call). */
	private readonly stored = new WeakMap<HistoryEntry, { form: HistoryEntry; chars: number }>();

	constructor(
		private readonly store: KeyValueStore,
		private maxEntries: number = DEFAULT_MAX_ENTRIES,
		private readonly saveDelayMs = SAVE_DELAY_MS,
	) {
		const stored = store.get<unknown>(STORAGE_KEY);
		this.entries = Array.isArray(stored) ? this.capped(stored.filter(isEntry)) : [];
		this.counter = this.entries.reduce((max, e) => Math.max(max, Number(e.id.split('-')[1]) || 0), 0);
	}

	/** Newest first. */
	all(): readonly HistoryEntry[] {
		return this.entries;
	}

	get(id: string): HistoryEntry | undefined {
		return this.entries.find((e) => e.id === id);
	}

	/** The newest entry of the same call that is older than `entry` (for Compare with Previous). */
	previous(entry: HistoryEntry): HistoryEntry | undefined {
		const index = this.entries.indexOf(entry);
		return index < 0 ? undefined : this.entries.slice(index + 1).find((e) => sameCall(e.target, entry.target));
	}

	/**
	 * Adds a record as the newest entry, drops the oldest beyond the cap, and saves. Returns the entry. A call of an
	 * origin that {@link foldsCalls} replaces the row of its server, tool and origin, counting the calls.
	 */
	add(record: InvocationRecord): HistoryEntry {
		const entry: HistoryEntry = { id: `${record.startedAt}-${++this.counter}`, ...record };
		let rest = this.entries;
		if (foldsCalls(record.origin)) {
			const key = foldKey(entry);
			const earlier = rest.find((e) => e.repeats && foldKey(e) === key);
			entry.repeats = earlier?.repeats
				? { count: earlier.repeats.count + 1, firstAt: earlier.repeats.firstAt }
				: { count: 1, firstAt: record.startedAt };
			if (earlier) rest = rest.filter((e) => e !== earlier);
		}
		let resultChars = 0;
		if (record.outcome.kind === 'result') {
			resultChars = JSON.stringify(record.outcome.result).length;
			if (resultChars > MAX_RESULT_CHARS) {
				entry.outcome = { ...record.outcome, result: { content: [] } };
				entry.resultDropped = { chars: resultChars };
			}
		}
		const form = storedForm(entry, entry.resultDropped ? 0 : resultChars);
		this.stored.set(entry, { form, chars: JSON.stringify(form).length });
		this.entries = this.capped([entry, ...rest]);
		this.save();
		return entry;
	}

	/**
	 * The newest `maxEntries` calls of their own and the newest MAX_FOLDED_ROWS folded rows, in order (a cap of 0
	 * keeps neither).
	 */
	private capped(entries: readonly HistoryEntry[]): HistoryEntry[] {
		const maxFolded = Math.min(MAX_FOLDED_ROWS, this.maxEntries);
		let calls = 0;
		let folded = 0;
		return entries.filter((e) => (e.repeats ? ++folded <= maxFolded : ++calls <= this.maxEntries));
	}

	/** A new cap (the setting changed); 0 keeps nothing. */
	setMaxEntries(max: number): void {
		this.maxEntries = Math.max(0, Math.floor(max));
		const capped = this.capped(this.entries);
		if (capped.length < this.entries.length) {
			this.entries = capped;
			this.save();
		}
	}

	clear(): void {
		this.entries = [];
		this.save();
	}

	/** Writes what is waiting now and resolves when every change so far is in the store. */
	flushed(): Promise<void> {
		if (this.pendingSave !== undefined) this.write();
		return this.saving;
	}

	/** Writes what is waiting (the window closes) and stops. */
	dispose(): void {
		if (this.pendingSave !== undefined) this.write();
		this.changed.dispose();
	}

	private save(): void {
		this.pendingSave ??= setTimeout(() => this.write(), this.saveDelayMs);
		(this.pendingSave as { unref?: () => void }).unref?.();
		this.changed.fire();
	}

	/** The newest entries' stored forms, up to MAX_STORED_CHARS in all. */
	private snapshot(): HistoryEntry[] {
		const forms: HistoryEntry[] = [];
		let total = 2;
		for (const entry of this.entries) {
			let stored = this.stored.get(entry);
			if (!stored) {
				// Read back from storage: already in its stored form.
				stored = { form: entry, chars: JSON.stringify(entry).length };
				this.stored.set(entry, stored);
			}
			total += stored.chars + 1;
			if (total > MAX_STORED_CHARS) break;
			forms.push(stored.form);
		}
		return forms;
	}

	private write(): void {
		clearTimeout(this.pendingSave);
		this.pendingSave = undefined;
		const snapshot = this.snapshot();
		this.saving = this.saving.then(() => this.store.update(STORAGE_KEY, snapshot)).catch(() => undefined);
	}
}

function isEntry(value: unknown): value is HistoryEntry {
	if (typeof value !== 'object' || value === null) return false;
	const entry = value as Partial<HistoryEntry>;
	return (
		typeof entry.id === 'string' &&
		typeof entry.target === 'object' &&
		entry.target !== null &&
		typeof entry.outcome === 'object' &&
		entry.outcome !== null &&
		typeof entry.startedAt === 'number'
	);
}
