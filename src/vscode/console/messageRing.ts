/**
 * The protocol view's storage: the newest messages of one server, bounded by count and by characters of text, with
 * no object per message. Each message's wire text is kept as the string the transport read or wrote (never copied
 * or serialised again) in a fixed array of slots, and its envelope (time, direction, kind, method, id, pairing) in
 * typed arrays; message `seq` lives in slot `seq % capacity`.
 *
 * Why: the tap records every message while a view is open, at up to ~100,000 messages a second. An entry object
 * per message, growing arrays of columns and the items list, all of them surviving young-generation GCs and then
 * promoted, were most of the tap's cost (64 calls in flight: 1.2–1.6x slower with the view open). Here the only
 * thing that outlives a message is its text, and the typed arrays are allocated once. (Copying the text into a byte
 * buffer instead was measured too: ~350 ns a message for the copy, more than keeping the string costs the GC.)
 */

/** Kinds as stored (bits 1–3 of a slot's flags). */
export const enum KindCode {
	Invalid = 0,
	Request = 1,
	Notification = 2,
	Response = 3,
	Error = 4,
}

/** A slot's flags: direction, kind, and where its text and rare values are. */
export const enum Flag {
	/** Received (else sent). */
	In = 1,
	/** Bits 1–3: the KindCode (see kindOf). */
	KindMask = 0b1110,
	/** The stored text is already redacted and cut (a long message); otherwise it is the wire text. */
	Redacted = 16,
	/** The id is a string, kept in `stringIds` (numeric ids are in `ids`). */
	StringId = 32,
	/** The method is kept in `extraMethods` (the log's method table was full). */
	ExtraMethod = 64,
}

/** Flags for a new slot. */
export function flagsOf(received: boolean, kind: KindCode): number {
	return (received ? Flag.In : 0) | (kind << 1);
}

/** The kind in a slot's flags. */
export function kindOf(flags: number): KindCode {
	return (flags & Flag.KindMask) >> 1;
}

export class MessageRing {
	/** Seq of the oldest message kept (equal to `next` when empty). Seqs start at 1 and are never reused. */
	first = 1;
	/** The seq the next message gets. */
	next = 1;
	capacity: number;
	/** Characters of text kept in all. */
	chars = 0;
	times!: Float64Array;
	/** Characters of the whole JSON as it crossed the wire (the stored text may be cut). */
	sizes!: Float64Array;
	flags!: Uint8Array;
	/** Index into the log's method table; 0: none. */
	methods!: Uint16Array;
	/** Numeric id; NaN: none (or a string id, see Flag.StringId). */
	ids!: Float64Array;
	/** The seq of the paired message; 0: none. */
	pairs!: Float64Array;
	/** For a response: ms since its request; NaN: not paired. */
	latencies!: Float64Array;
	/** Rare values per slot that are not numbers; read only when a flag says so. */
	stringIds!: Array<string | undefined>;
	extraMethods!: Array<string | undefined>;
	private texts!: Array<string | undefined>;

	constructor(
		capacity: number,
		/** The most characters of text kept (the newest message is kept whatever its size). */
		readonly maxChars: number,
	) {
		this.capacity = Math.max(1, Math.floor(capacity));
		this.allocate(this.capacity);
	}

	get count(): number {
		return this.next - this.first;
	}

	has(seq: number): boolean {
		return seq >= this.first && seq < this.next && Number.isInteger(seq);
	}

	slot(seq: number): number {
		return seq % this.capacity;
	}

	/**
	 * Appends one text with its flags and returns its seq (the caller fills the rest of its slot). Drops the oldest
	 * messages as needed to stay within the count and the characters.
	 */
	push(text: string, flags: number): number {
		if (this.next - this.first >= this.capacity) this.dropOldest();
		const seq = this.next++;
		const slot = seq % this.capacity;
		this.texts[slot] = text;
		this.flags[slot] = flags;
		this.chars += text.length;
		while (this.chars > this.maxChars && this.first < seq) this.dropOldest();
		return seq;
	}

	/** The stored text of a message kept (the wire text, or its redacted cut: see Flag.Redacted). */
	text(seq: number): string {
		return this.texts[seq % this.capacity]!;
	}

	/** Keeps the newest `capacity` messages with everything known of them. */
	resize(capacity: number): void {
		capacity = Math.max(1, Math.floor(capacity));
		if (capacity === this.capacity) return;
		while (this.count > capacity) this.dropOldest();
		const { times, sizes, flags, methods, ids, pairs, latencies, stringIds, extraMethods, texts } = this;
		const oldCapacity = this.capacity;
		this.capacity = capacity;
		this.allocate(capacity);
		for (let seq = this.first; seq < this.next; seq++) {
			const from = seq % oldCapacity;
			const to = seq % capacity;
			this.times[to] = times[from]!;
			this.sizes[to] = sizes[from]!;
			this.flags[to] = flags[from]!;
			this.methods[to] = methods[from]!;
			this.ids[to] = ids[from]!;
			this.pairs[to] = pairs[from]!;
			this.latencies[to] = latencies[from]!;
			this.stringIds[to] = stringIds[from];
			this.extraMethods[to] = extraMethods[from];
			this.texts[to] = texts[from];
		}
	}

	clear(): void {
		while (this.first < this.next) this.dropOldest();
	}

	/** Forgets the oldest message (its text and rare values, so they can be collected). */
	private dropOldest(): void {
		const slot = this.first++ % this.capacity;
		this.chars -= this.texts[slot]!.length;
		this.texts[slot] = undefined;
		const flags = this.flags[slot]!;
		if (flags & Flag.StringId) this.stringIds[slot] = undefined;
		if (flags & Flag.ExtraMethod) this.extraMethods[slot] = undefined;
	}

	private allocate(capacity: number): void {
		this.times = new Float64Array(capacity);
		this.sizes = new Float64Array(capacity);
		this.flags = new Uint8Array(capacity);
		this.methods = new Uint16Array(capacity);
		this.ids = new Float64Array(capacity);
		this.pairs = new Float64Array(capacity);
		this.latencies = new Float64Array(capacity);
		// Filled, so each array is one packed backing store from the start.
		this.stringIds = new Array<string | undefined>(capacity).fill(undefined);
		this.extraMethods = new Array<string | undefined>(capacity).fill(undefined);
		this.texts = new Array<string | undefined>(capacity).fill(undefined);
	}
}
