/**
 * The call history: every invocation the Manager reports (tool calls, prompt gets, resource reads from the palette,
 * the tree, `@mcp`, the gateway, saved files), newest first, kept in the workspace's storage so it survives a
 * reload, capped in count and in the size of what it keeps per result. No `vscode` import: the storage is any
 * key-value store shaped like a Memento, so this is unit-tested in plain Node.
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
	/** The result was larger than MAX_RESULT_CHARS as JSON: its text was not kept (the outcome says how large). */
	resultDropped?: { chars: number };
}

const STORAGE_KEY = 'mcpSwitchboard.callHistory';
/** Results above this (as JSON text) are not kept: workspace storage is a small database, not a file store. */
export const MAX_RESULT_CHARS = 256 * 1024;
export const DEFAULT_MAX_ENTRIES = 200;

/** A short label for an entry's target: the tool or prompt name, or the resource URI. */
export function targetLabel(target: InvocationTarget): string {
	return target.kind === 'resource' ? target.uri : target.name;
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

	constructor(
		private readonly store: KeyValueStore,
		private maxEntries: number = DEFAULT_MAX_ENTRIES,
	) {
		const stored = store.get<unknown>(STORAGE_KEY);
		this.entries = Array.isArray(stored) ? stored.filter(isEntry).slice(0, maxEntries) : [];
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

	/** Adds a record as the newest entry, drops the oldest beyond the cap, and saves. Returns the entry. */
	add(record: InvocationRecord): HistoryEntry {
		const entry: HistoryEntry = { id: `${record.startedAt}-${++this.counter}`, ...record };
		if (record.outcome.kind === 'result') {
			const chars = JSON.stringify(record.outcome.result).length;
			if (chars > MAX_RESULT_CHARS) {
				entry.outcome = { ...record.outcome, result: { content: [] } };
				entry.resultDropped = { chars };
			}
		}
		this.entries = [entry, ...this.entries].slice(0, this.maxEntries);
		this.save();
		return entry;
	}

	/** A new cap (the setting changed); 0 keeps nothing. */
	setMaxEntries(max: number): void {
		this.maxEntries = Math.max(0, Math.floor(max));
		if (this.entries.length > this.maxEntries) {
			this.entries = this.entries.slice(0, this.maxEntries);
			this.save();
		}
	}

	clear(): void {
		this.entries = [];
		this.save();
	}

	/** Resolves when every change so far is in the store. */
	flushed(): Promise<void> {
		return this.saving;
	}

	dispose(): void {
		this.changed.dispose();
	}

	private save(): void {
		const snapshot = this.entries;
		this.saving = this.saving.then(() => this.store.update(STORAGE_KEY, snapshot)).catch(() => undefined);
		this.changed.fire();
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
