/**
 * The protocol view's model: the JSON-RPC messages of one server as they crossed the wire, with direction, time,
 * size, kind, method and id, each response paired with its request and its latency. Bounded: at most `capacity`
 * messages and `maxBytes` bytes of text (UTF-8) are kept (the oldest go first); a message's text is redacted and cut
 * as the log's trace is (traceJsonText) when it is shown or searched. No `vscode` import, so it is unit-tested and
 * benchmarked in plain Node.
 *
 * Cheap while the server is busy: `record()`, which the connection's tap calls for every message, copies the wire
 * text's bytes into a byte ring (the bytes the transport read, or the text we sent, encoded; nothing is serialised
 * again) and writes the envelope into typed arrays (see messageRing.ts): nothing per message on the heap. Each
 * message is paired as it is stored, through a typed-array table of open requests (openRequests.ts); `onDidAdd`
 * reports what was stored a batch at a time, `batchMs` later (or as soon as anything reads the log); the view then
 * builds only the rows its webview shows, as columns (one array per field, not an object per message: see
 * RowColumns, columnsOf); redaction and pretty-printing wait until a message is shown or searched.
 */
import { Emitter, type Event } from '../../common/event';
import { SECRET_KEY_IN_JSON, traceJsonText } from '../../protocol/wireTrace';
import { Flag, flagsOf, KindCode, kindOf, MessageRing } from './messageRing';
import { OpenRequests } from './openRequests';

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
	/** The redacted JSON (cut at 64 KiB), as it crossed the wire when the transport had the text; read on demand. */
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

export const DEFAULT_CAPACITY = 5000;
/** How long recorded messages wait to be processed together (the view shows them at the same pace). */
export const DEFAULT_BATCH_MS = 100;
/** Text kept in all, whatever the count: 64 MiB of UTF-8. */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
/** Texts longer than this are redacted and cut when recorded, so what is kept stays small; shorter ones when shown. */
const LONG_TEXT = 64 * 1024;
/** The kinds by their code in a row's flags (RowColumns). */
export const PROTOCOL_KINDS: readonly ProtocolKind[] = ['invalid', 'request', 'notification', 'response', 'error'];
/** What endOfTask reacts to: settled once, so each task's reaction costs one small promise. */
const SETTLED = Promise.resolve();
/** Methods are kept as indexes into a table of the names seen; past this many names, per message (see Flag.ExtraMethod). */
const EXTRA_METHOD = 0xffff;

/** What filter's byte search found in a message's stored text: the needle; a key the trace redacts (once scanned). */
const enum Mark {
	Text = 1,
	Secret = 2,
	Scanned = 4,
}

/** Consecutive seqs: [first, end). */
export interface SeqRange {
	first: number;
	end: number;
}

/**
 * Rows as columns: row i is message `seqs[i]` (when given; else `first + i`). `flags`: bit 0 received, bits 1–3 the kind (an index into
 * PROTOCOL_KINDS); `methods`: an index into `names`, or -1; `ids`, `latencies`: null for none; `pairs`: 0 for none.
 * Plain arrays, so the message survives any serialisation between the extension host and the webview.
 */
export interface RowColumns {
	first: number;
	seqs?: number[];
	times: number[];
	flags: number[];
	sizes: number[];
	methods: number[];
	names: string[];
	ids: Array<string | number | null>;
	pairs: number[];
	latencies: Array<number | null>;
}

/**
 * An entry read from the log. What can change later (its pairing, once the answer comes) and its text are read from
 * the log when asked for; once the message was dropped, the pairing as it was when last read.
 */
class LoggedMessage implements ProtocolEntry {
	constructor(
		private readonly log: ProtocolLog,
		private row: ProtocolRow,
	) {}

	private get current(): ProtocolRow {
		const row = this.log.rowOf(this.row.seq);
		if (row) this.row = row;
		return this.row;
	}

	get seq(): number {
		return this.row.seq;
	}
	get time(): number {
		return this.row.time;
	}
	get direction(): 'in' | 'out' {
		return this.row.direction;
	}
	get kind(): ProtocolKind {
		return this.row.kind;
	}
	get size(): number {
		return this.row.size;
	}
	get id(): string | number | undefined {
		return this.row.id;
	}
	get method(): string | undefined {
		return this.current.method;
	}
	get pair(): number | undefined {
		return this.current.pair;
	}
	get latencyMs(): number | undefined {
		return this.current.latencyMs;
	}
	get text(): string {
		return this.log.textOf(this.row.seq) ?? 'This message is no longer kept (the view keeps the newest ones).';
	}
}

/**
 * A request's row label: the method, and for a call a person would look for, what it calls (`tools/call echo`,
 * `prompts/get greet`, `resources/read file:///a.txt`). Its answer shows the same label (paired).
 */
export function callLabel(method: string, params: unknown): string {
	if (method !== 'tools/call' && method !== 'prompts/get' && method !== 'resources/read') return method;
	if (typeof params !== 'object' || params === null) return method;
	const what = method === 'resources/read' ? (params as { uri?: unknown }).uri : (params as { name?: unknown }).name;
	return typeof what === 'string' && what.length <= 200 ? `${method} ${what}` : method;
}

export class ProtocolLog {
	private readonly ring: MessageRing;
	/** Every seq up to this one has been reported (onDidAdd). */
	private processed = 0;
	/** Requests waiting for their answer, id to seq: the ones we sent and the ones the server sent. */
	private readonly openOut = new OpenRequests();
	private readonly openIn = new OpenRequests();
	private readonly methodNames: string[] = [''];
	private readonly methodCodes = new Map<string, number>();
	private timer: NodeJS.Timeout | undefined;
	private readonly added = new Emitter<SeqRange>();
	/**
	 * Fires with each batch processed: the seqs it added that are still kept (read them with `columns`). At most once
	 * per `batchMs` while messages arrive (or when the log is read): a server that sends more than the log keeps in
	 * that time has its oldest messages dropped unreported, as the view would have dropped them from its list.
	 */
	readonly onDidAdd: Event<SeqRange> = this.added.event;

	constructor(
		capacity = DEFAULT_CAPACITY,
		maxBytes = DEFAULT_MAX_BYTES,
		private readonly now: () => number = Date.now,
		private readonly batchMs = DEFAULT_BATCH_MS,
	) {
		this.ring = new MessageRing(capacity, maxBytes);
		this.pendingMaxChars = Math.max(1, Math.min(16 * 1024, Math.floor(maxBytes / 24)));
	}

	get size(): number {
		this.flush();
		return this.ring.count;
	}

	/** The seq of the newest message recorded (0: none yet). */
	get lastSeq(): number {
		this.storePending();
		return this.ring.next - 1;
	}

	/**
	 * Notes one message as it crosses the wire (the hot path: no serialising, no redaction, nothing kept on the heap;
	 * paired as it is stored, see pair). `text` is its JSON as sent or received when the caller has it; otherwise the
	 * message is serialised now, so a later change to the object cannot change what the view shows.
	 * `bytes[start..end)`, when given, are the same text as UTF-8 as the transport read it: those are copied instead
	 * of encoding the text again.
	 */
	record(direction: 'in' | 'out', message: unknown, text?: string, bytes?: Uint8Array, start = 0, end = 0): void {
		if (text === undefined) {
			try {
				text = JSON.stringify(message) ?? String(message);
			} catch {
				text = String(message);
			}
		}
		let kind = KindCode.Invalid;
		let method: string | undefined;
		let id: unknown;
		if (typeof message === 'object' && message !== null && !Array.isArray(message)) {
			const envelope = message as Record<string, unknown>;
			id = envelope.id;
			const hasId = typeof id === 'string' || typeof id === 'number';
			if (typeof envelope.method === 'string') {
				method = hasId ? callLabel(envelope.method, envelope.params) : envelope.method;
				kind = hasId ? KindCode.Request : KindCode.Notification;
			} else if (hasId && 'error' in envelope) {
				kind = KindCode.Error;
			} else if (hasId && 'result' in envelope) {
				kind = KindCode.Response;
			}
		}
		const size = text.length;
		let flags = flagsOf(direction === 'in', kind);
		if (bytes === undefined && size <= LONG_TEXT && (this.pendingCount !== 0 || this.stamp !== undefined)) {
			// A text without its bytes (one we send; one received over HTTP) after another message of the same task: encoded
			// with the others of its burst (see MessageRing.pushAll) at the task's end, or before anything else is stored or
			// read. The first message of a task is stored at once, below: when it stays alone (a call at a time), waiting
			// for the task's end cost more than encoding it alone.
			if (this.pendingChars + size > this.pendingMaxChars) this.storePending();
			const i = this.pendingCount++;
			this.pendingTexts[i] = text;
			this.pendingFlags[i] = flags;
			this.pendingMethods[i] = method;
			this.pendingIds[i] = id;
			this.pendingTimes[i] = this.time();
			// time() above queued the task's end, which stores these.
			this.pendingChars += size;
			this.startTimer();
			return;
		}
		this.storePending();
		if (size > LONG_TEXT) {
			// Redacted and cut now, so what is kept stays small.
			text = traceJsonText(text).text;
			flags |= Flag.Redacted;
		}
		const ring = this.ring;
		const seq =
			bytes !== undefined && !(flags & Flag.Redacted)
				? ring.pushBytes(bytes, start, end, flags)
				: ring.push(text, flags);
		this.fill(seq, this.time(), size, method, id);
		this.startTimer();
	}

	/** Texts recorded but not stored yet, and what record learnt of them: the burst being sent (see record). */
	private readonly pendingTexts: string[] = [];
	private readonly pendingFlags: number[] = [];
	private readonly pendingMethods: Array<string | undefined> = [];
	private readonly pendingIds: unknown[] = [];
	private readonly pendingTimes: number[] = [];
	private pendingChars = 0;
	/** How many of the pending arrays' entries are pending (the arrays keep their length, so a burst allocates nothing). */
	private pendingCount = 0;
	/** Characters of pending texts stored at once: a small part of the ring's bytes (encoding reserves 3 bytes a character). */
	private readonly pendingMaxChars: number;

	/** Stores the pending texts (in the order recorded, so seqs follow the wire). */
	private storePending(): void {
		const n = this.pendingCount;
		if (n === 0) return;
		const ring = this.ring;
		const first = ring.pushAll(this.pendingTexts, this.pendingFlags, n);
		for (let i = 0; i < n; i++) {
			// A burst longer than the ring keeps only its newest.
			if (ring.has(first + i))
				this.fill(
					first + i,
					this.pendingTimes[i]!,
					this.pendingTexts[i]!.length,
					this.pendingMethods[i],
					this.pendingIds[i],
				);
		}
		// Let go of, so nothing of them outlives the burst (see messageRing.ts on what surviving costs).
		this.pendingTexts.fill('', 0, n);
		this.pendingMethods.fill(undefined, 0, n);
		this.pendingIds.fill(undefined, 0, n);
		this.pendingCount = 0;
		this.pendingChars = 0;
	}

	/** The envelope of a message just stored. */
	private fill(seq: number, time: number, size: number, method: string | undefined, id: unknown): void {
		const ring = this.ring;
		const slot = ring.slot(seq);
		ring.times[slot] = time;
		ring.sizes[slot] = size;
		// The method of the message before, most often (a busy client calls one method), without a lookup.
		ring.methods[slot] =
			method === undefined ? 0 : method === this.lastMethod ? this.lastMethodCode : this.methodCode(method, slot);
		let flags = ring.flags[slot]!;
		if (typeof id === 'number') {
			ring.ids[slot] = id;
		} else {
			ring.ids[slot] = NaN;
			if (typeof id === 'string') {
				flags |= Flag.StringId;
				ring.flags[slot] = flags;
				ring.stringIds[slot] = id;
			}
		}
		ring.pairs[slot] = 0;
		ring.latencies[slot] = NaN;
		this.pair(seq, slot, flags, id as string | number);
	}

	private startTimer(): void {
		if (this.timer === undefined) {
			this.timer = setTimeout(this.onTimer, this.batchMs);
			this.timer.unref?.();
		}
	}

	/**
	 * The time of the message being recorded: read once and kept until the current task's microtasks ran or the next
	 * flush, as Date.now() costs ~90 ns and a burst of messages (one chunk of a busy server's output, the requests
	 * its answers let through) crosses the wire within the same millisecond or two.
	 */
	private time(): number {
		if (this.stamp === undefined) {
			this.stamp = this.now();
			if (!this.endOfTaskQueued) this.queueEndOfTask();
		}
		return this.stamp;
	}

	private stamp: number | undefined;
	private endOfTaskQueued = false;

	/**
	 * One microtask per task that recorded anything, for all that waits for the task's end: the time read for it and
	 * the texts of its burst (see record). A reaction to a settled promise, not queueMicrotask: that one makes an
	 * AsyncResource and a bound function and enters its async scope each time, which measured ~3x the cost
	 * (~70–200 ns against ~25 ns); with one message a task (a call at a time) that was a measurable part of a round trip.
	 */
	private queueEndOfTask(): void {
		this.endOfTaskQueued = true;
		void SETTLED.then(this.endOfTask);
	}

	private readonly endOfTask = (): void => {
		this.endOfTaskQueued = false;
		this.stamp = undefined;
		try {
			this.storePending();
		} catch (error) {
			// As queueMicrotask would report it (here it would only reject the reaction's promise, which nobody reads).
			queueMicrotask(() => {
				throw error;
			});
		}
		// The transport's bytes are its own again (see MessageRing.pushBytes).
		this.ring.forgetChunk();
	};

	private lastMethod: string | undefined;
	private lastMethodCode = 0;

	private methodCode(method: string, slot: number): number {
		let code = this.methodCodes.get(method);
		if (code === undefined && this.methodNames.length < EXTRA_METHOD) {
			code = this.methodNames.length;
			this.methodCodes.set(method, code);
			this.methodNames.push(method);
		}
		if (code !== undefined) {
			this.lastMethod = method;
			this.lastMethodCode = code;
			return code;
		}
		this.ring.flags[slot] = this.ring.flags[slot]! | Flag.ExtraMethod;
		this.ring.extraMethods[slot] = method;
		return EXTRA_METHOD;
	}

	private readonly onTimer = (): void => {
		this.timer = undefined;
		this.flush();
	};

	/** Records one message and processes it at once; returns its entry (tests, and callers that need the entry). */
	add(direction: 'in' | 'out', message: unknown, text?: string): ProtocolEntry {
		this.record(direction, message, text);
		this.flush();
		return this.get(this.lastSeq)!;
	}

	/** Processes what was recorded (stores the burst being sent): one onDidAdd with the batch's seqs. */
	flush(): void {
		this.storePending();
		this.process();
	}

	/** Reports what was stored and not reported yet: one onDidAdd with its seqs. */
	private process(): void {
		if (this.timer !== undefined) {
			clearTimeout(this.timer);
			this.timer = undefined;
		}
		this.stamp = undefined;
		const ring = this.ring;
		ring.forgetChunk();
		const from = Math.max(this.processed + 1, ring.first);
		const to = ring.next;
		if (from >= to) return;
		this.processed = to - 1;
		this.added.fire({ first: from, end: to });
	}

	/** The rows of the messages kept in [first, end) (default: all), as columns (tests, and a whole range at once). */
	columns(first = 0, end = Infinity): RowColumns {
		this.flush();
		first = Math.max(first, this.ring.first);
		end = Math.min(end, this.ring.next);
		const seqs: number[] = [];
		for (let seq = first; seq < end; seq++) seqs.push(seq);
		return { ...this.columnsOf(seqs), first };
	}

	/**
	 * The rows of these messages, as columns: what the view posts to its webview for the rows it shows (it asks for
	 * them; the webview makes its row objects there, off the extension host where the MCP clients run). Seqs no
	 * longer kept are left out; `seqs` says which rows came.
	 */
	columnsOf(seqs: readonly number[]): RowColumns {
		this.flush();
		const ring = this.ring;
		const kept = seqs.filter((seq) => ring.has(seq));
		const n = kept.length;
		const columns: RowColumns = {
			first: kept[0] ?? ring.first,
			seqs: kept,
			times: new Array<number>(n),
			flags: new Array<number>(n),
			sizes: new Array<number>(n),
			methods: new Array<number>(n),
			names: [],
			ids: new Array<string | number | null>(n),
			pairs: new Array<number>(n),
			latencies: new Array<number | null>(n),
		};
		const names = new Map<number, number>();
		for (let i = 0; i < n; i++) {
			const slot = ring.slot(kept[i]!);
			columns.times[i] = ring.times[slot]!;
			columns.flags[i] = ring.flags[slot]! & (Flag.In | Flag.KindMask);
			columns.sizes[i] = ring.sizes[slot]!;
			const code = ring.methods[slot]!;
			let method = -1;
			if (code !== 0) {
				const known = code === EXTRA_METHOD ? undefined : names.get(code);
				if (known !== undefined) {
					method = known;
				} else {
					method = columns.names.push(this.methodAt(slot)!) - 1;
					if (code !== EXTRA_METHOD) names.set(code, method);
				}
			}
			columns.methods[i] = method;
			columns.ids[i] = this.idAt(slot) ?? null;
			columns.pairs[i] = ring.pairs[slot]!;
			const latency = ring.latencies[slot]!;
			columns.latencies[i] = Number.isNaN(latency) ? null : latency;
		}
		return columns;
	}

	/** The seqs kept: [first, end). */
	range(): SeqRange {
		this.flush();
		return { first: this.ring.first, end: this.ring.next };
	}

	/**
	 * Pairs a message as it is stored (fill): a request goes into the table of open requests, a response finds its
	 * request there. Done for a whole batch later, this was most of the batch's work: at 64 calls in flight, where
	 * the log's 5,000 messages filled in ~15 ms and each fill was a batch, 0.24 ms at once (0.05 ms without it), while
	 * the client read nothing and the server waited for it; spread over the messages, it overlaps with the server's
	 * work. `flags` and `id` as fill just stored them (the id of a request or a response is a string or a number).
	 */
	private pair(seq: number, slot: number, flags: number, id: string | number): void {
		const ring = this.ring;
		const kind = kindOf(flags);
		if (kind === KindCode.Request) {
			(flags & Flag.In ? this.openIn : this.openOut).set(id, seq);
		} else if (kind === KindCode.Response || kind === KindCode.Error) {
			// A response travels the other way from its request.
			const open = flags & Flag.In ? this.openOut : this.openIn;
			const request = open.take(id);
			if (request === undefined || !ring.has(request)) return;
			const requestSlot = ring.slot(request);
			ring.pairs[requestSlot] = seq;
			ring.pairs[slot] = request;
			ring.latencies[slot] = ring.times[slot]! - ring.times[requestSlot]!;
			ring.methods[slot] = ring.methods[requestSlot]!;
			if (ring.methods[slot] === EXTRA_METHOD) {
				ring.flags[slot] = ring.flags[slot]! | Flag.ExtraMethod;
				ring.extraMethods[slot] = ring.extraMethods[requestSlot];
			}
		}
	}

	private idAt(slot: number): string | number | undefined {
		const ring = this.ring;
		if (ring.flags[slot]! & Flag.StringId) return ring.stringIds[slot];
		const id = ring.ids[slot]!;
		return Number.isNaN(id) ? undefined : id;
	}

	private methodAt(slot: number): string | undefined {
		const code = this.ring.methods[slot]!;
		return code === 0 ? undefined : code === EXTRA_METHOD ? this.ring.extraMethods[slot] : this.methodNames[code];
	}

	/** The row of a message kept (its seq must be live). */
	private rowAt(seq: number): ProtocolRow {
		const ring = this.ring;
		const slot = ring.slot(seq);
		const flags = ring.flags[slot]!;
		const row: ProtocolRow = {
			seq,
			time: ring.times[slot]!,
			direction: flags & Flag.In ? 'in' : 'out',
			kind: PROTOCOL_KINDS[kindOf(flags)]!,
			size: ring.sizes[slot]!,
		};
		const method = this.methodAt(slot);
		if (method !== undefined) row.method = method;
		const id = this.idAt(slot);
		if (id !== undefined) row.id = id;
		const latency = ring.latencies[slot]!;
		if (!Number.isNaN(latency)) row.latencyMs = latency;
		const pair = ring.pairs[slot]!;
		if (pair !== 0) row.pair = pair;
		return row;
	}

	/** The entries kept, oldest first. */
	entries(): readonly ProtocolEntry[] {
		this.flush();
		const entries: ProtocolEntry[] = [];
		for (let seq = this.ring.first; seq < this.ring.next; seq++) entries.push(this.get(seq)!);
		return entries;
	}

	get(seq: number): ProtocolEntry | undefined {
		const row = this.rowOf(seq);
		return row && new LoggedMessage(this, row);
	}

	/** The row of a message kept; undefined once it was dropped. */
	rowOf(seq: number): ProtocolRow | undefined {
		this.flush();
		return this.ring.has(seq) ? this.rowAt(seq) : undefined;
	}

	/** The text of a message kept, redacted and cut as the log's trace; undefined once it was dropped. */
	textOf(seq: number): string | undefined {
		if (!this.ring.has(seq)) return undefined;
		const text = this.ring.text(seq);
		return this.ring.flags[this.ring.slot(seq)]! & Flag.Redacted ? text : traceJsonText(text).text;
	}

	/**
	 * The seqs of entries matching `query` (case-insensitive, in the method or anywhere in the JSON text as shown,
	 * redacted), oldest first. `errorsOnly` keeps error responses and invalid messages. With `afterSeq`, only entries
	 * newer than it (the view filters each new batch alone instead of every message again).
	 */
	filter(query: string, errorsOnly = false, afterSeq = 0): number[] {
		this.flush();
		const needle = query.trim();
		const ring = this.ring;
		const from = Math.max(ring.first, Math.floor(afterSeq) + 1);
		const to = ring.next;
		const out: number[] = [];
		// One case-insensitive pattern, instead of lower-casing every message's text on every keystroke.
		const escaped = needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
		const pattern = needle ? new RegExp(escaped, 'i') : undefined;
		// An ASCII needle (as many bytes as characters) is searched in the stored bytes (markMatches), where the shown text is the stored one: every
		// message but those with a key the trace redacts, which are found the same way and then searched as shown.
		let marks: Uint8Array | undefined;
		if (pattern && Buffer.byteLength(needle) === needle.length) {
			marks = new Uint8Array(Math.max(0, to - from));
			ring.markMatches(new RegExp(escaped, 'gi'), from, to, marks, Mark.Text);
			this.scanForSecrets(from, to);
		}
		// Per method code: 0 not tested yet, 1 no match, 2 a match (names past the table are tested each time).
		const methodMatches = new Uint8Array(pattern ? this.methodNames.length : 0);
		const { capacity, flags: allFlags, methods, scans } = ring;
		for (let seq = from; seq < to; seq++) {
			const slot = seq % capacity;
			const flags = allFlags[slot]!;
			const kind = kindOf(flags);
			if (errorsOnly && kind !== KindCode.Error && kind !== KindCode.Invalid) continue;
			if (pattern) {
				const code = methods[slot]!;
				if (code !== 0) {
					let matches =
						code === EXTRA_METHOD ? (pattern.test(ring.extraMethods[slot] ?? '') ? 2 : 1) : methodMatches[code]!;
					if (matches === 0) methodMatches[code] = matches = pattern.test(this.methodNames[code]!) ? 2 : 1;
					if (matches === 2) {
						out.push(seq);
						continue;
					}
				}
				if (marks !== undefined && !(scans[slot]! & Mark.Secret && !(flags & Flag.Redacted))) {
					if (!(marks[seq - from]! & Mark.Text)) continue;
				} else if (!pattern.test(this.textOf(seq)!)) {
					continue;
				}
			}
			out.push(seq);
		}
		return out;
	}

	/**
	 * Notes (in the ring's `scans`) which texts of [from, to) hold a key the trace redacts, for those not scanned yet:
	 * once a message, as this pattern (an alternation the regex engine cannot skip through) costs ~1.5 ns a byte, 5x
	 * the needle's.
	 */
	private scanForSecrets(from: number, to: number): void {
		const scans = this.ring.scans;
		let start = from;
		while (start < to && scans[this.ring.slot(start)] !== 0) start++;
		if (start >= to) return;
		const marks = new Uint8Array(to - start);
		this.ring.markMatches(new RegExp(SECRET_KEY_IN_JSON.source, 'gi'), start, to, marks, Mark.Secret);
		for (let seq = start; seq < to; seq++) scans[this.ring.slot(seq)] = Mark.Scanned | marks[seq - start]!;
	}

	setCapacity(capacity: number): void {
		this.flush();
		this.ring.resize(capacity);
	}

	clear(): void {
		this.flush();
		this.ring.clear();
		this.openOut.clear();
		this.openIn.clear();
	}

	dispose(): void {
		if (this.timer !== undefined) clearTimeout(this.timer);
		this.timer = undefined;
		this.processed = this.lastSeq;
		this.added.dispose();
	}
}
