/**
 * Requests still waiting for their answer, by id, for the protocol view's pairing: id to the request's seq.
 *
 * Why not a Map: the log pairs ~100,000 messages a second while a server is busy, each request added and then deleted
 * when its answer comes. A Map with that churn rebuilds its table every few dozen deletions, and those tables,
 * held by a long-lived Map, survive young-generation GCs and get promoted: ~500 KiB a scavenge at 64 calls in
 * flight, most of the tap's cost then. Integer ids (what most clients send, ours included) go into an
 * open-addressing table in typed arrays that is allocated once; other ids (strings, fractions, huge numbers) into a
 * Map, as before.
 */
const BITS = 14;
const SIZE = 1 << BITS;
const MASK = SIZE - 1;

export class OpenRequests {
	/** The most requests remembered; past it, the oldest are forgotten (a server that never answers cannot grow it). */
	readonly max: number;
	/** Integer ids; NaN: free. Linear probing, deletion by shifting back (no tombstones). */
	private readonly keys = new Float64Array(SIZE).fill(NaN);
	private readonly seqs = new Float64Array(SIZE);
	private count = 0;
	private readonly others = new Map<string | number, number>();

	constructor(max = 10_000) {
		// Below the table's size, so probing always finds a free slot.
		this.max = Math.min(max, (SIZE * 3) >> 2);
	}

	get size(): number {
		return this.count + this.others.size;
	}

	set(id: string | number, seq: number): void {
		if (this.count + this.others.size >= this.max) this.forgetOldest();
		if (!isSmallInteger(id)) {
			this.others.set(id, seq);
			return;
		}
		let index = hash(id);
		for (;;) {
			const key = this.keys[index]!;
			if (key !== key) break;
			if (key === id) {
				this.seqs[index] = seq;
				return;
			}
			index = (index + 1) & MASK;
		}
		this.keys[index] = id;
		this.seqs[index] = seq;
		this.count++;
	}

	/** The seq of the request with this id, forgotten at once (a request is answered once); undefined: none. */
	take(id: string | number): number | undefined {
		if (!isSmallInteger(id)) {
			const seq = this.others.get(id);
			if (seq !== undefined) this.others.delete(id);
			return seq;
		}
		let index = hash(id);
		for (;;) {
			const key = this.keys[index]!;
			if (key !== key) return undefined;
			if (key === id) break;
			index = (index + 1) & MASK;
		}
		const seq = this.seqs[index]!;
		this.remove(index);
		return seq;
	}

	clear(): void {
		this.keys.fill(NaN);
		this.count = 0;
		this.others.clear();
	}

	/** Frees `index`, moving later entries of its probe run back so every lookup still finds them. */
	private remove(index: number): void {
		let hole = index;
		let next = (index + 1) & MASK;
		for (;;) {
			const key = this.keys[next]!;
			if (key !== key) break;
			const home = hash(key);
			// The entry at `next` may fill the hole unless its home lies cyclically in (hole, next].
			if (((next - home) & MASK) >= ((next - hole) & MASK)) {
				this.keys[hole] = key;
				this.seqs[hole] = this.seqs[next]!;
				hole = next;
			}
			next = (next + 1) & MASK;
		}
		this.keys[hole] = NaN;
		this.count--;
	}

	/**
	 * Rare (that many requests unanswered): forgets the older half of them at once, so a server that never answers
	 * costs one pass per `max / 2` requests, not one per request.
	 */
	private forgetOldest(): void {
		const kept: Array<[string | number, number]> = [];
		for (let index = 0; index < SIZE; index++) {
			const key = this.keys[index]!;
			if (key === key) kept.push([key, this.seqs[index]!]);
		}
		for (const entry of this.others) kept.push(entry);
		kept.sort((a, b) => a[1] - b[1]);
		this.clear();
		for (const [id, seq] of kept.slice(kept.length >> 1)) this.set(id, seq);
	}
}

function isSmallInteger(id: string | number): id is number {
	return typeof id === 'number' && (id | 0) === id;
}

function hash(id: number): number {
	return Math.imul(id | 0, 0x9e3779b1) >>> (32 - BITS);
}
