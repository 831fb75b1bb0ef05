/**
 * A set of the objects in flight (HTTP requests, replies waiting for their answer) kept in a plain array of slots,
 * for sets that gain and lose an entry per message.
 *
 * Why not a `Set` or `Map` of the objects: with one that lives long and gains and loses an entry per request, the
 * requests it held survive scavenges and get promoted, with all they reference (the ClientRequest, its response,
 * parser state, buffers). Measured at 64 HTTP calls in flight on Node 20 (`--trace-gc-nvp`): ~1.5 MiB promoted per
 * scavenge and scavenges 3-4x as long, against ~25 KiB with this table. The likely reason: the hash tables such a
 * collection rebuilds are allocated in old space, and a replaced one is garbage that only a full collection finds;
 * until then its stale entries keep what they point to alive.
 * A slot that is freed is overwritten with `undefined`, so nothing stale keeps an object alive.
 */
export class SlotTable<T> {
	private readonly items: (T | undefined)[] = [];
	private readonly free: number[] = [];
	private count = 0;

	/** How many objects are in the table. */
	get size(): number {
		return this.count;
	}

	/** Adds `item` and returns its slot, for `remove` and `get`. */
	add(item: T): number {
		const slot = this.free.length > 0 ? this.free.pop()! : this.items.length;
		this.items[slot] = item;
		this.count++;
		return slot;
	}

	/** The object in `slot`, or undefined when the slot is free or there is no slot (a key map's miss, passed on as it came). */
	get(slot: number | undefined): T | undefined {
		return slot === undefined ? undefined : this.items[slot];
	}

	/** Removes `item` from `slot`; false (and nothing changes) when the slot holds something else, e.g. after `clear()`. */
	remove(slot: number, item: T): boolean {
		if (this.items[slot] !== item) {
			return false;
		}
		this.items[slot] = undefined;
		this.free.push(slot);
		this.count--;
		return true;
	}

	/** Empties the table and returns what it held. */
	clear(): T[] {
		const held: T[] = [];
		for (const item of this.items) {
			if (item !== undefined) {
				held.push(item);
			}
		}
		this.items.length = 0;
		this.free.length = 0;
		this.count = 0;
		return held;
	}

	/** Calls `visit` with every object in the table and its slot. */
	forEach(visit: (item: T, slot: number) => void): void {
		for (let slot = 0; slot < this.items.length; slot++) {
			const item = this.items[slot];
			if (item !== undefined) {
				visit(item, slot);
			}
		}
	}
}
