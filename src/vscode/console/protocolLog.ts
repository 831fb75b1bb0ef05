/**
 * The protocol view's model: the JSON-RPC messages of one server as they crossed the wire, with direction, time,
 * size, kind, method and id, each response paired with its request and its latency. Bounded: at most `capacity`
 * messages and `maxChars` characters of text are kept (the oldest go first); each message's text is redacted and
 * cut as the log's trace is (traceJson). No `vscode` import, so it is unit-tested and benchmarked in plain Node.
 */
import { Emitter, type Event } from '../../common/event';
import { traceJson } from '../../protocol/connection';

export type ProtocolKind = 'request' | 'notification' | 'response' | 'error' | 'invalid';

export interface ProtocolEntry {
	/** Increasing per log; never reused, so the view can address an entry after older ones were dropped. */
	seq: number;
	/** Epoch ms when the message was seen. */
	time: number;
	direction: 'in' | 'out';
	kind: ProtocolKind;
	method?: string;
	id?: string | number;
	/** The redacted JSON (cut at 64 KiB). */
	text: string;
	/** Characters of the whole redacted JSON. */
	size: number;
	/** For a response or error: the seq of its request; for a request: the seq of its response, once it came. */
	pair?: number;
	/** For a response or error: ms since its request. */
	latencyMs?: number;
}

export const DEFAULT_CAPACITY = 5000;
/** Text kept in all, whatever the count: 64 MiB of characters. */
export const DEFAULT_MAX_CHARS = 64 * 1024 * 1024;
/** Requests still waiting for their answer that are remembered for pairing; a server that never answers cannot grow it. */
const MAX_OPEN_REQUESTS = 10_000;

function classify(message: unknown): { kind: ProtocolKind; method?: string; id?: string | number } {
	if (typeof message !== 'object' || message === null || Array.isArray(message)) return { kind: 'invalid' };
	const record = message as Record<string, unknown>;
	const id = typeof record.id === 'string' || typeof record.id === 'number' ? record.id : undefined;
	const method = typeof record.method === 'string' ? record.method : undefined;
	if (method !== undefined) return id !== undefined ? { kind: 'request', method, id } : { kind: 'notification', method };
	if (id !== undefined && 'error' in record) return { kind: 'error', id };
	if (id !== undefined && 'result' in record) return { kind: 'response', id };
	return { kind: 'invalid' };
}

export class ProtocolLog {
	private items: ProtocolEntry[] = [];
	/** Index in `items` of the first live entry (dropped ones are spliced out in batches). */
	private start = 0;
	private chars = 0;
	private seq = 0;
	/** Open requests by `<direction>:<id>` → their entry. */
	private readonly open = new Map<string, ProtocolEntry>();
	private readonly added = new Emitter<ProtocolEntry>();
	/** Fires for each message added. */
	readonly onDidAdd: Event<ProtocolEntry> = this.added.event;

	constructor(
		private capacity = DEFAULT_CAPACITY,
		private readonly maxChars = DEFAULT_MAX_CHARS,
		private readonly now: () => number = Date.now,
	) {}

	get size(): number {
		return this.items.length - this.start;
	}

	/** Records one message; returns its entry. */
	add(direction: 'in' | 'out', message: unknown): ProtocolEntry {
		const { kind, method, id } = classify(message);
		const { text, length } = traceJson(message);
		const entry: ProtocolEntry = { seq: ++this.seq, time: this.now(), direction, kind, text, size: length };
		if (method !== undefined) entry.method = method;
		if (id !== undefined) entry.id = id;
		if (kind === 'request') {
			if (this.open.size >= MAX_OPEN_REQUESTS) this.open.delete(this.open.keys().next().value!);
			this.open.set(`${direction}:${String(id)}`, entry);
		} else if ((kind === 'response' || kind === 'error') && id !== undefined) {
			// A response travels the other way from its request.
			const key = `${direction === 'in' ? 'out' : 'in'}:${String(id)}`;
			const request = this.open.get(key);
			if (request) {
				this.open.delete(key);
				request.pair = entry.seq;
				entry.pair = request.seq;
				entry.method = request.method!;
				entry.latencyMs = entry.time - request.time;
			}
		}
		this.items.push(entry);
		this.chars += text.length;
		this.trim();
		this.added.fire(entry);
		return entry;
	}

	/** The entries kept, oldest first. */
	entries(): readonly ProtocolEntry[] {
		return this.start === 0 ? this.items : this.items.slice(this.start);
	}

	get(seq: number): ProtocolEntry | undefined {
		// Seqs increase along the array: binary search.
		let lo = this.start;
		let hi = this.items.length - 1;
		while (lo <= hi) {
			const mid = (lo + hi) >> 1;
			const entry = this.items[mid]!;
			if (entry.seq === seq) return entry;
			if (entry.seq < seq) lo = mid + 1;
			else hi = mid - 1;
		}
		return undefined;
	}

	/**
	 * The seqs of entries matching `query` (case-insensitive, in the method or anywhere in the JSON text), oldest
	 * first. `errorsOnly` keeps error responses and invalid messages.
	 */
	filter(query: string, errorsOnly = false): number[] {
		const needle = query.trim();
		// One case-insensitive pattern, instead of lower-casing every message's text on every keystroke.
		const pattern = needle ? new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i') : undefined;
		const out: number[] = [];
		for (let i = this.start; i < this.items.length; i++) {
			const entry = this.items[i]!;
			if (errorsOnly && entry.kind !== 'error' && entry.kind !== 'invalid') continue;
			if (pattern && !(entry.method !== undefined && pattern.test(entry.method)) && !pattern.test(entry.text)) continue;
			out.push(entry.seq);
		}
		return out;
	}

	setCapacity(capacity: number): void {
		this.capacity = Math.max(1, Math.floor(capacity));
		this.trim();
	}

	clear(): void {
		this.items = [];
		this.start = 0;
		this.chars = 0;
		this.open.clear();
	}

	dispose(): void {
		this.added.dispose();
	}

	private trim(): void {
		while (this.size > this.capacity || (this.chars > this.maxChars && this.size > 1)) {
			this.chars -= this.items[this.start]!.text.length;
			this.start++;
		}
		// Splice the dropped head out now and then, not on every message.
		if (this.start > 1024 && this.start > this.items.length / 2) {
			this.items = this.items.slice(this.start);
			this.start = 0;
		}
	}
}
