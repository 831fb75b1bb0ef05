/**
 * One timer for every live task of a client: each task says when it next wants `tasks/get`, the poller arms a
 * single timer for the earliest of those times and, when it fires, starts every poll that is due. With no live
 * task there is no timer at all, so an idle client never wakes the process.
 */
import type { Clock } from '../connectionOptions';

/** Something polled: `poll()` runs when `dueAt` (clock ms) has come; it schedules itself again when done. */
export interface Pollable {
	/** When the next poll is due (clock ms); Infinity while a poll is in flight or nothing is scheduled. */
	dueAt: number;
	poll(): void;
}

/**
 * The poller's clock keeps the process alive, unlike the connection's: between two polls of a task over HTTP
 * nothing else may hold the event loop, and a headless script awaiting a task's result must not exit early.
 */
export const pollingClock: Clock = {
	now: () => Date.now(),
	setTimeout: (callback, ms) => setTimeout(callback, ms),
	clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Polls due this close together share one timer wake-up. */
const COALESCE_MS = 10;

export class TaskPoller {
	private readonly entries = new Set<Pollable>();
	private timer: unknown;
	private timerAt = Infinity;

	constructor(private readonly clock: Clock = pollingClock) {}

	/** How many tasks are scheduled (for tests and the benchmark). */
	get size(): number {
		return this.entries.size;
	}

	/** True while the one timer is armed. */
	get armed(): boolean {
		return this.timer !== undefined;
	}

	now(): number {
		return this.clock.now();
	}

	/** Schedules `entry`'s next poll `delayMs` from now (replacing any earlier schedule of it). */
	schedule(entry: Pollable, delayMs: number): void {
		entry.dueAt = this.clock.now() + Math.max(0, delayMs);
		this.entries.add(entry);
		this.arm(entry.dueAt);
	}

	/** Stops polling `entry`; the timer is cleared when no entry is left. */
	remove(entry: Pollable): void {
		entry.dueAt = Infinity;
		this.entries.delete(entry);
		if (this.entries.size === 0) {
			this.disarm();
		}
	}

	/** Stops everything. */
	clear(): void {
		for (const entry of this.entries) {
			entry.dueAt = Infinity;
		}
		this.entries.clear();
		this.disarm();
	}

	private arm(at: number): void {
		if (at >= this.timerAt) {
			return;
		}
		this.disarm();
		this.timerAt = at;
		this.timer = this.clock.setTimeout(this.fire, Math.max(0, at - this.clock.now()));
	}

	private disarm(): void {
		if (this.timer !== undefined) {
			this.clock.clearTimeout(this.timer);
			this.timer = undefined;
		}
		this.timerAt = Infinity;
	}

	private readonly fire = (): void => {
		this.timer = undefined;
		this.timerAt = Infinity;
		// Polls due within the next few ms go now too: with many tasks, one wake-up serves a batch instead of one each.
		const now = this.clock.now() + COALESCE_MS;
		const due: Pollable[] = [];
		for (const entry of this.entries) {
			if (entry.dueAt <= now) {
				due.push(entry);
			}
		}
		for (const entry of due) {
			// In flight: not due again until the poll reschedules it.
			entry.dueAt = Infinity;
			entry.poll();
		}
		let next = Infinity;
		for (const entry of this.entries) {
			if (entry.dueAt < next) {
				next = entry.dueAt;
			}
		}
		if (next !== Infinity) {
			this.arm(next);
		}
	};
}
