/**
 * The protocol view's storage: the newest messages of one server, bounded by count and by bytes of text, with no
 * object per message. Each message's wire text is kept as its UTF-8 bytes in one byte ring (a Buffer outside the
 * JavaScript heap: the bytes the transport read are copied there, a text we sent is encoded there), and its envelope
 * (time, direction, kind, method, id, pairing) in typed arrays; message `seq` lives in slot `seq % capacity`.
 *
 * Why: the tap records every message while a view is open, at up to ~100,000 messages a second. Whatever outlives
 * a message on the heap survives young-generation GCs and is then promoted: first an entry object per message, then
 * (measured at 64 calls in flight) even just the text strings kept in a ring of 5,000 slots, which made each
 * scavenge ~8x longer (3.5 ms instead of 0.5 ms, ~1 MiB promoted each) and cost ~3 µs a call. Copying ~100 bytes into
 * the ring costs ~0.2 µs a message; decoding happens only when a message is shown or searched.
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

/** The byte ring's first size; it doubles as needed up to the ring's most bytes. */
const FIRST_BYTES = 64 * 1024;
/** What a typical message takes (a tool call, its answer: ~100–200 bytes): the first size is room for `capacity` of them. */
const BYTES_PER_MESSAGE = 128;
/**
 * Bytes of adjacent texts markMatches reads as one string: few calls, and under V8's large-object size (~128 KiB),
 * so each string dies young instead of in the old generation.
 */
const SEARCH_CHUNK = 64 * 1024;
/** Bytes pushBytes copies past a text, for the next ones of the same read (a pipe reads at most 64 KiB at once). */
const READ_AHEAD = 16 * 1024;
/** Bytes between two texts that markMatches still reads in one run: the line ends between messages of one read. */
const MAX_GAP = 8;

/**
 * Node's own UTF-8 writer behind `Buffer#write` (present in Node 18–24), called directly: the public method's
 * argument checks cost ~25% more per short text. `Buffer#write` where it is missing.
 */
type Utf8Write = (this: Buffer, text: string, offset: number) => number;
const bufferMethods = Buffer.prototype as unknown as { utf8Write?: Utf8Write; write: Utf8Write };
const utf8Write: Utf8Write =
	typeof bufferMethods.utf8Write === 'function' ? bufferMethods.utf8Write : bufferMethods.write;

export class MessageRing {
	/** Seq of the oldest message kept (equal to `next` when empty). Seqs start at 1 and are never reused. */
	first = 1;
	/** The seq the next message gets. */
	next = 1;
	capacity: number;
	/** Bytes of text kept in all. */
	bytes = 0;
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
	/** What the log learnt of a text by searching it, kept so it is learnt once (see ProtocolLog.filter); 0: nothing yet. */
	scans!: Uint8Array;
	/** Rare values per slot that are not numbers; read only when a flag says so. */
	stringIds!: Array<string | undefined>;
	extraMethods!: Array<string | undefined>;
	/** Where each message's text starts in `data`, and its length in bytes. */
	private offsets!: Float64Array;
	private lengths!: Uint32Array;
	/** The byte ring: texts in seq order, wrapping to the start when the end has no room. */
	private data: Buffer = Buffer.allocUnsafeSlow(0);
	/** Where the next text goes in `data`. */
	private head = 0;
	/** The caller's bytes pushBytes last copied ahead: `chunk[chunkStart..chunkEnd)` is at `data[chunkAt..]`. */
	private chunk: Uint8Array | undefined;
	private chunkStart = 0;
	private chunkEnd = 0;
	private chunkAt = 0;
	/** How many bytes past a text pushBytes copies ahead: a read's worth, and a small part of a small ring. */
	private readonly readAhead: number;

	constructor(
		capacity: number,
		/** The most bytes of text kept (the newest message is kept whatever its size). */
		readonly maxBytes: number,
	) {
		this.capacity = Math.max(1, Math.floor(capacity));
		this.readAhead = Math.min(READ_AHEAD, Math.floor(maxBytes / 8));
		this.allocate(this.capacity);
		this.data = Buffer.allocUnsafeSlow(
			Math.max(1, Math.min(Math.max(FIRST_BYTES, this.capacity * BYTES_PER_MESSAGE), this.maxBytes)),
		);
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
	 * Appends one text, encoded as UTF-8, with its flags and returns its seq (the caller fills the rest of its slot).
	 * Drops the oldest messages as needed to stay within the count and the bytes.
	 */
	push(text: string, flags: number): number {
		this.chunk = undefined;
		// UTF-8 takes at most 3 bytes per UTF-16 unit: room for that, then the exact length written.
		const seq = this.open(text.length * 3, flags);
		const slot = seq % this.capacity;
		const length = utf8Write.call(this.data, text, this.head);
		this.close(slot, length);
		return seq;
	}

	/**
	 * As push for each of the first `count` of `texts` in order (with `flags[i]`), encoded in one call (each text's byte length is its length when
	 * all are ASCII, the usual case for JSON-RPC; else it is measured); returns the first one's seq. Why: encoding a short text costs ~0.15 µs, most of it the call into Node's writer, so a
	 * burst of messages we send (the requests a read's answers let through) is encoded at once.
	 */
	pushAll(texts: readonly string[], flags: readonly number[], count = texts.length): number {
		const firstSeq = this.next;
		if (count === 1) {
			this.push(texts[0]!, flags[0]!);
			return firstSeq;
		}
		this.chunk = undefined;
		const joined = count === texts.length ? texts.join('') : texts.slice(0, count).join('');
		// Room for all of them at `head`, as for one text (open takes the first seq).
		let seq = this.open(joined.length * 3, flags[0]!);
		const written = utf8Write.call(this.data, joined, this.head);
		// Only ASCII takes as many bytes as UTF-16 units; otherwise each text's own byte length.
		const ascii = written === joined.length;
		for (let i = 0; i < count; i++) {
			if (i > 0) {
				if (this.next - this.first >= this.capacity) this.dropOldest();
				seq = this.next++;
				this.flags[seq % this.capacity] = flags[i]!;
				this.scans[seq % this.capacity] = 0;
			}
			const text = texts[i]!;
			this.close(seq % this.capacity, ascii ? text.length : Buffer.byteLength(text));
		}
		return firstSeq;
	}

	/**
	 * As push, for a text the caller has as UTF-8 bytes (`bytes[start..end)`): they are copied, not decoded. With the
	 * text, the rest of `bytes` (up to READ_AHEAD bytes) is copied too: a read from a busy server holds many messages,
	 * and those after this one, pushed next from the same `bytes`, are then already in place (one copy a read, not
	 * one a message: each copy costs ~0.15 µs, most of it making the view to copy from). Until forgetChunk() or any
	 * other write.
	 */
	pushBytes(bytes: Uint8Array, start: number, end: number, flags: number): number {
		const length = end - start;
		const at = this.chunkAt + (start - this.chunkStart);
		if (bytes === this.chunk && start >= this.chunkStart && end <= this.chunkEnd && at >= this.head) {
			// Already copied with an earlier message of the same read, at or after `head` (only those wrote since).
			if (this.next - this.first >= this.capacity) this.dropOldest();
			const seq = this.next++;
			const slot = seq % this.capacity;
			this.flags[slot] = flags;
			this.scans[slot] = 0;
			this.head = at;
			this.close(slot, length);
			return seq;
		}
		const copyEnd = Math.max(end, Math.min(bytes.length, start + this.readAhead));
		const seq = this.open(copyEnd - start, flags);
		// A plain view (Buffer#subarray makes a Buffer, which costs more).
		this.data.set(new Uint8Array(bytes.buffer, bytes.byteOffset + start, copyEnd - start), this.head);
		this.chunk = bytes;
		this.chunkStart = start;
		this.chunkEnd = copyEnd;
		this.chunkAt = this.head;
		this.close(seq % this.capacity, length);
		return seq;
	}

	/** Forgets the bytes pushBytes copied ahead (the caller's `bytes` may be reused once its call returns). */
	forgetChunk(): void {
		this.chunk = undefined;
	}

	/** The stored text of a message kept (the wire text, or its redacted cut: see Flag.Redacted). */
	text(seq: number): string {
		const slot = seq % this.capacity;
		const offset = this.offsets[slot]!;
		return this.data.toString('utf8', offset, offset + this.lengths[slot]!);
	}

	/**
	 * Marks, in `marks[seq - from]`, each message in [from, to) whose stored bytes, read as Latin-1 (one character a
	 * byte), hold a match of `pattern` (global) within the message: `marks[i] |= mark`. Read that way, a pattern of
	 * ASCII only (as a case-insensitive one, whose ASCII letters no other Latin-1 character folds to) matches exactly
	 * where it matches the UTF-8 text, since every byte of a multi-byte character is 0x80 or more.
	 *
	 * Why: the filter runs on every keystroke over up to 100,000 messages. Decoding each to a string and testing it
	 * cost ~0.6 µs a message; here runs of adjacent texts (up to ~SEARCH_CHUNK bytes) are read as one string each, and
	 * the pattern scans them in one pass.
	 */
	markMatches(pattern: RegExp, from: number, to: number, marks: Uint8Array, mark: number): void {
		const { offsets, lengths, capacity, data } = this;
		from = Math.max(from, this.first);
		to = Math.min(to, this.next);
		let seq = from;
		while (seq < to) {
			// A run of texts that lie one after the other in the ring, maybe a line end apart (a wrap or a long run ends it).
			const runFirst = seq;
			const runStart = offsets[seq % capacity]!;
			let runEnd = runStart + lengths[seq % capacity]!;
			for (seq++; seq < to; seq++) {
				const slot = seq % capacity;
				const offset = offsets[slot]!;
				if (offset < runEnd || offset - runEnd > MAX_GAP || runEnd - runStart >= SEARCH_CHUNK) break;
				runEnd = offset + lengths[slot]!;
			}
			const text = data.toString('latin1', runStart, runEnd);
			// The message the current match falls in, where it starts and ends (relative to the run).
			let at = runFirst;
			let atStart = 0;
			let atEnd = lengths[at % capacity]!;
			pattern.lastIndex = 0;
			for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
				const index = match.index;
				while (atEnd <= index) {
					at++;
					const slot = at % capacity;
					atStart = offsets[slot]! - runStart;
					atEnd = atStart + lengths[slot]!;
				}
				if (index >= atStart && index + match[0].length <= atEnd) {
					marks[at - from] = marks[at - from]! | mark;
					// One match a message is enough: on from the next one.
					pattern.lastIndex = atEnd;
				} else {
					// Across two messages (or from the line end between them): no match; a shorter one may follow.
					pattern.lastIndex = index + 1;
				}
			}
		}
	}

	/** Keeps the newest `capacity` messages with everything known of them. */
	resize(capacity: number): void {
		capacity = Math.max(1, Math.floor(capacity));
		if (capacity === this.capacity) return;
		this.chunk = undefined;
		while (this.count > capacity) this.dropOldest();
		const { times, sizes, flags, methods, ids, pairs, latencies, scans, stringIds, extraMethods, offsets, lengths } =
			this;
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
			this.scans[to] = scans[from]!;
			this.stringIds[to] = stringIds[from];
			this.extraMethods[to] = extraMethods[from];
			this.offsets[to] = offsets[from]!;
			this.lengths[to] = lengths[from]!;
		}
	}

	clear(): void {
		this.chunk = undefined;
		while (this.first < this.next) this.dropOldest();
	}

	/**
	 * Makes room for the next message's text of at most `need` bytes at `head`, dropping the oldest messages (or
	 * growing the ring) as needed, and takes its seq.
	 */
	private open(need: number, flags: number): number {
		if (this.next - this.first >= this.capacity) this.dropOldest();
		for (;;) {
			if (this.first === this.next) {
				this.head = 0;
				if (need > this.data.length) this.grow(need);
				break;
			}
			// The oldest text starts at `tail`; texts run from there to `head`, wrapping past the end when tail > head.
			const tail = this.offsets[this.first % this.capacity]!;
			if (tail < this.head) {
				if (this.head + need <= this.data.length) break;
				// Strictly before the oldest, so head === tail means an empty ring only.
				if (need < tail) {
					this.head = 0;
					break;
				}
			} else if (this.head + need < tail) {
				break;
			} else if (this.bytes === 0) {
				// Only empty texts are kept: nothing to keep clear of.
				this.head = 0;
				if (need <= this.data.length) break;
			}
			if (this.data.length < this.maxBytes) this.grow(need);
			else this.dropOldest();
		}
		const seq = this.next++;
		this.flags[seq % this.capacity] = flags;
		this.scans[seq % this.capacity] = 0;
		return seq;
	}

	private close(slot: number, length: number): void {
		this.offsets[slot] = this.head;
		this.lengths[slot] = length;
		this.head += length;
		this.bytes += length;
		// The newest message is kept whatever its size.
		while (this.bytes > this.maxBytes && this.first < this.next - 1) this.dropOldest();
	}

	/**
	 * A larger byte ring with the texts kept copied to its start, in order: the run from the oldest text to the end
	 * of the texts before the wrap, then the run from the ring's start to `head` (two copies, not one per message).
	 */
	private grow(need: number): void {
		this.chunk = undefined;
		const size = Math.max(Math.min(this.maxBytes, this.data.length * 2), need + this.bytes + 1);
		const data = Buffer.allocUnsafeSlow(size);
		let head = 0;
		if (this.first < this.next) {
			const { offsets, lengths, capacity } = this;
			const tail = offsets[this.first % capacity]!;
			// Where the texts from `tail` on end (the end of the last one before the wrap, or `head`).
			let runEnd = tail;
			for (let seq = this.first; seq < this.next; seq++) {
				const slot = seq % capacity;
				if (offsets[slot]! < tail) break;
				runEnd = offsets[slot]! + lengths[slot]!;
			}
			this.data.copy(data, 0, tail, runEnd);
			const wrapped = runEnd - tail;
			if (tail >= this.head && this.bytes > 0) this.data.copy(data, wrapped, 0, this.head);
			for (let seq = this.first; seq < this.next; seq++) {
				const slot = seq % capacity;
				offsets[slot] = offsets[slot]! >= tail ? offsets[slot]! - tail : offsets[slot]! + wrapped;
			}
			head = tail >= this.head && this.bytes > 0 ? wrapped + this.head : wrapped;
		}
		this.data = data;
		this.head = head;
	}

	/** Forgets the oldest message (its rare values, so they can be collected; its bytes are reused). */
	private dropOldest(): void {
		const slot = this.first++ % this.capacity;
		this.bytes -= this.lengths[slot]!;
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
		this.scans = new Uint8Array(capacity);
		this.offsets = new Float64Array(capacity);
		this.lengths = new Uint32Array(capacity);
		// Filled, so each array is one packed backing store from the start.
		this.stringIds = new Array<string | undefined>(capacity).fill(undefined);
		this.extraMethods = new Array<string | undefined>(capacity).fill(undefined);
	}
}
