/**
 * The protocol view's model: the JSON-RPC messages of one server as they crossed the wire, with direction, time,
 * size, kind, method and id, each response paired with its request and its latency. Bounded: at most `capacity`
 * messages and `maxChars` characters of text are kept (the oldest go first); each message's text is redacted and
 * cut as the log's trace is (traceJsonText). No `vscode` import, so it is unit-tested and benchmarked in plain Node.
 *
 * Cheap while the server is busy: `record()`, which the connection's tap calls for every message, only notes the
 * message, its wire text (the transport's own string: nothing is serialised again) and the time. Redaction, the cut,
 * pairing and the size bound run for a whole batch at once, `batchMs` later (or as soon as anything reads the log),
 * and `onDidAdd` reports the batch. Pretty-printing waits until a message is opened (see protocolView.ts).
 */
import { Emitter, type Event } from '../../common/event';
import { traceJsonText } from '../../protocol/connection';

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
	/** The redacted JSON (cut at 64 KiB), as it crossed the wire when the transport had the text. */
	readonly text: string;
	/** Characters of the whole JSON. */
	size: number;
	/** For a response or error: the seq of its request; for a request: the seq of its response, once it came. */
	pair?: number;
	/** For a response or error: ms since its request. */
	latencyMs?: number;
}

/** What the webview shows of an entry in its list (no text: that is fetched on demand). */
export interface ProtocolRow {
	seq: number;
	time: number;
	direction: 'in' | 'out';
	kind: ProtocolEntry['kind'];
	method?: string;
	id?: string | number;
	size: number;
	latencyMs?: number;
	pair?: number;
}

/** An entry as a row of the view's list. */
export function rowOf(entry: ProtocolEntry): ProtocolRow {
	const { seq, time, direction, kind, method, id, size, latencyMs, pair } = entry;
	return { seq, time, direction, kind, size, ...(method !== undefined ? { method } : {}), ...(id !== undefined ? { id } : {}), ...(latencyMs !== undefined ? { latencyMs } : {}), ...(pair !== undefined ? { pair } : {}) };
}

export const DEFAULT_CAPACITY = 5000;
/** How long recorded messages wait to be processed together (the view shows them at the same pace). */
export const DEFAULT_BATCH_MS = 100;
/** Text kept in all, whatever the count: 64 MiB of characters. */
export const DEFAULT_MAX_CHARS = 64 * 1024 * 1024;
/** Requests still waiting for their answer that are remembered for pairing; a server that never answers cannot grow it. */
const MAX_OPEN_REQUESTS = 10_000;
/** Texts longer than this are redacted and cut when processed; shorter ones when first read. The trace's cut (64 KiB). */
const LONG_TEXT = 64 * 1024;

/** An entry as kept: its text is redacted on first read (most are never read), and cached. */
class LoggedMessage implements ProtocolEntry {
	method?: string;
	id?: string | number;
	pair?: number;
	latencyMs?: number;
	/** Characters held for this entry (counted against the log's maxChars). */
	readonly chars: number;

	constructor(
		readonly seq: number,
		readonly time: number,
		readonly direction: 'in' | 'out',
		readonly kind: ProtocolKind,
		/** The wire text (short, not yet redacted), or the already redacted and cut text of a long message. */
		private body: string,
		private redacted: boolean,
		readonly size: number,
	) {
		this.chars = body.length;
	}

	get text(): string {
		if (!this.redacted) {
			this.body = traceJsonText(this.body).text;
			this.redacted = true;
		}
		return this.body;
	}
}

/**
 * The messages recorded and not yet processed, column by column: no object per message on the hot path, and the
 * message objects themselves are not held (so they die young, as without the tap), only their envelope.
 */
class Recorded {
	directions: Array<'in' | 'out'> = [];
	kinds: ProtocolKind[] = [];
	methods: Array<string | undefined> = [];
	ids: Array<string | number | undefined> = [];
	texts: string[] = [];
	times: number[] = [];
	chars = 0;

	get length(): number {
		return this.texts.length;
	}
}

export class ProtocolLog {
	private items: LoggedMessage[] = [];
	/** Index in `items` of the first live entry (dropped ones are spliced out in batches). */
	private start = 0;
	private chars = 0;
	private seq = 0;
	/** Requests waiting for their answer, by id: the ones we sent and the ones the server sent. */
	private readonly openOut = new Map<unknown, LoggedMessage>();
	private readonly openIn = new Map<unknown, LoggedMessage>();
	private recorded = new Recorded();
	private timer: NodeJS.Timeout | undefined;
	private readonly added = new Emitter<readonly ProtocolEntry[]>();
	/** Fires with each batch of entries added, oldest first. */
	readonly onDidAdd: Event<readonly ProtocolEntry[]> = this.added.event;

	constructor(
		private capacity = DEFAULT_CAPACITY,
		private readonly maxChars = DEFAULT_MAX_CHARS,
		private readonly now: () => number = Date.now,
		private readonly batchMs = DEFAULT_BATCH_MS,
	) {}

	get size(): number {
		this.flush();
		return this.items.length - this.start;
	}

	/**
	 * Notes one message as it crosses the wire (the hot path: no serialising, no redaction, no pairing here).
	 * `text` is its JSON as sent or received when the caller has it; otherwise the message is serialised now, so a
	 * later change to the object cannot change what the view shows.
	 */
	record(direction: 'in' | 'out', message: unknown, text?: string): void {
		if (text === undefined) {
			try {
				text = JSON.stringify(message) ?? String(message);
			} catch {
				text = String(message);
			}
		}
		const recorded = this.recorded;
		recorded.directions.push(direction);
		let kind: ProtocolKind = 'invalid';
		let method: string | undefined;
		let id: string | number | undefined;
		if (typeof message === 'object' && message !== null && !Array.isArray(message)) {
			const envelope = message as Record<string, unknown>;
			if (typeof envelope.id === 'string' || typeof envelope.id === 'number') id = envelope.id;
			if (typeof envelope.method === 'string') {
				method = envelope.method;
				kind = id !== undefined ? 'request' : 'notification';
			} else if (id !== undefined && 'error' in envelope) {
				kind = 'error';
			} else if (id !== undefined && 'result' in envelope) {
				kind = 'response';
			}
		}
		recorded.kinds.push(kind);
		recorded.methods.push(method);
		recorded.ids.push(id);
		recorded.texts.push(text);
		recorded.times.push(this.now());
		recorded.chars += text.length;
		if (recorded.chars > this.maxChars || recorded.length > this.capacity) {
			// Nobody read the log for a while and the batch alone is over the bounds: process it now.
			this.flush();
		} else if (this.timer === undefined) {
			this.timer = setTimeout(this.onTimer, this.batchMs);
			this.timer.unref?.();
		}
	}

	private readonly onTimer = (): void => {
		this.timer = undefined;
		this.flush();
	};

	/** Records one message and processes it at once; returns its entry (tests, and callers that need the entry). */
	add(direction: 'in' | 'out', message: unknown, text?: string): ProtocolEntry {
		this.record(direction, message, text);
		this.flush();
		return this.items[this.items.length - 1]!;
	}

	/** Processes what was recorded: the cut of long messages, pairing, the bounds; then one onDidAdd for the batch. */
	flush(): void {
		if (this.timer !== undefined) {
			clearTimeout(this.timer);
			this.timer = undefined;
		}
		const batch = this.recorded;
		if (batch.length === 0) return;
		this.recorded = new Recorded();
		const entries: LoggedMessage[] = new Array<LoggedMessage>(batch.length);
		for (let i = 0; i < batch.length; i++) {
			entries[i] = this.entryOf(batch.directions[i]!, batch.kinds[i]!, batch.methods[i], batch.ids[i], batch.texts[i]!, batch.times[i]!);
		}
		this.trim();
		this.added.fire(entries);
	}

	private entryOf(direction: 'in' | 'out', kind: ProtocolKind, method: string | undefined, id: string | number | undefined, wire: string, time: number): LoggedMessage {
		// A long message is redacted and cut now, so what is kept stays small; a short one on first read.
		const long = wire.length > LONG_TEXT;
		const entry = new LoggedMessage(++this.seq, time, direction, kind, long ? traceJsonText(wire).text : wire, long, wire.length);
		if (method !== undefined) entry.method = method;
		if (id !== undefined) entry.id = id;
		if (kind === 'request') {
			const open = direction === 'out' ? this.openOut : this.openIn;
			if (open.size >= MAX_OPEN_REQUESTS) open.delete(open.keys().next().value);
			open.set(id, entry);
		} else if ((kind === 'response' || kind === 'error') && id !== undefined) {
			// A response travels the other way from its request.
			const open = direction === 'in' ? this.openOut : this.openIn;
			const request = open.get(id);
			if (request) {
				open.delete(id);
				request.pair = entry.seq;
				entry.pair = request.seq;
				entry.method = request.method!;
				entry.latencyMs = entry.time - request.time;
			}
		}
		this.items.push(entry);
		this.chars += entry.chars;
		return entry;
	}

	/** The entries kept, oldest first. */
	entries(): readonly ProtocolEntry[] {
		this.flush();
		return this.start === 0 ? this.items : this.items.slice(this.start);
	}

	get(seq: number): ProtocolEntry | undefined {
		this.flush();
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
	 * first. `errorsOnly` keeps error responses and invalid messages. With `afterSeq`, only entries newer than it
	 * (the view filters each new batch alone instead of every message again).
	 */
	filter(query: string, errorsOnly = false, afterSeq = 0): number[] {
		this.flush();
		const needle = query.trim();
		// One case-insensitive pattern, instead of lower-casing every message's text on every keystroke.
		const pattern = needle ? new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i') : undefined;
		const out: number[] = [];
		for (let i = this.firstAfter(afterSeq); i < this.items.length; i++) {
			const entry = this.items[i]!;
			if (errorsOnly && entry.kind !== 'error' && entry.kind !== 'invalid') continue;
			if (pattern && !(entry.method !== undefined && pattern.test(entry.method)) && !pattern.test(entry.text)) continue;
			out.push(entry.seq);
		}
		return out;
	}

	/** Index in `items` of the first live entry whose seq is greater than `seq`. */
	private firstAfter(seq: number): number {
		let lo = this.start;
		let hi = this.items.length;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (this.items[mid]!.seq <= seq) lo = mid + 1;
			else hi = mid;
		}
		return lo;
	}

	setCapacity(capacity: number): void {
		this.capacity = Math.max(1, Math.floor(capacity));
		this.trim();
	}

	clear(): void {
		this.flush();
		this.items = [];
		this.start = 0;
		this.chars = 0;
		this.openOut.clear();
		this.openIn.clear();
	}

	dispose(): void {
		if (this.timer !== undefined) clearTimeout(this.timer);
		this.timer = undefined;
		this.recorded = new Recorded();
		this.added.dispose();
	}

	private trim(): void {
		while (this.items.length - this.start > this.capacity || (this.chars > this.maxChars && this.items.length - this.start > 1)) {
			this.chars -= this.items[this.start]!.chars;
			this.start++;
		}
		// Splice the dropped head out now and then, not on every message.
		if (this.start > 1024 && this.start > this.items.length / 2) {
			this.items = this.items.slice(this.start);
			this.start = 0;
		}
	}
}
