/**
 * Restart policy for crashed servers: exponential backoff (1 s doubling to 60 s) and a crash-loop cap
 * (5 crashes within 3 minutes stop the restarts). Pure bookkeeping over timestamps, so tests drive it with a fake clock.
 */

import { effectiveTimeout } from '../common/timers';

export interface RestartPolicyOptions {
	/** First delay in ms. Default 1000. */
	initialDelayMs?: number;
	/** Largest delay in ms. Default 60000. */
	maxDelayMs?: number;
	/** Crashes within `windowMs` that make a crash loop. Default 5. */
	maxCrashes?: number;
	/** The crash-loop window in ms. Default 180000 (3 minutes). */
	windowMs?: number;
	/** A run at least this long resets the backoff to its first delay. Default 60000. */
	stableAfterMs?: number;
}

export type RestartDecision =
	{ restart: true; delayMs: number; attempt: number } | { restart: false; crashes: number; windowMs: number };

export class RestartPolicy {
	private readonly initialDelayMs: number;
	private readonly maxDelayMs: number;
	private readonly maxCrashes: number;
	readonly windowMs: number;
	private readonly stableAfterMs: number;
	private crashes: number[] = [];
	private attempt = 0;

	constructor(options: RestartPolicyOptions = {}) {
		this.initialDelayMs = options.initialDelayMs ?? 1000;
		this.maxDelayMs = options.maxDelayMs ?? 60_000;
		this.maxCrashes = options.maxCrashes ?? 5;
		this.windowMs = options.windowMs ?? 180_000;
		this.stableAfterMs = options.stableAfterMs ?? 60_000;
	}

	/** The delay before restart attempt `attempt` (1-based): 1 s, 2 s, 4 s, … capped at 60 s. */
	delayFor(attempt: number): number {
		return Math.min(this.maxDelayMs, this.initialDelayMs * 2 ** Math.max(0, attempt - 1));
	}

	/**
	 * Records a crash at `now`; `ranForMs` is how long the server had been running (0 when it failed to start).
	 * Returns whether to restart and after how long, or that the crash-loop cap was reached.
	 */
	recordCrash(now: number, ranForMs: number): RestartDecision {
		if (ranForMs >= this.stableAfterMs) this.attempt = 0;
		this.crashes = this.crashes.filter((t) => now - t < this.windowMs);
		this.crashes.push(now);
		if (this.crashes.length >= this.maxCrashes) {
			return { restart: false, crashes: this.crashes.length, windowMs: this.windowMs };
		}
		this.attempt++;
		return { restart: true, delayMs: this.delayFor(this.attempt), attempt: this.attempt };
	}

	/** Forgets every crash (a user's explicit start or restart, or a config change). */
	reset(): void {
		this.crashes = [];
		this.attempt = 0;
	}
}

/** A clock the lifecycle code uses, so tests can run minutes of backoff in no time. */
export interface Clock {
	now(): number;
	setTimeout(callback: () => void, ms: number): { dispose(): void };
}

/** The real clock. A delay of `Infinity` (or beyond Node's 2^31-1 ms limit) never fires, instead of firing at once. */
export const systemClock: Clock = {
	now: () => Date.now(),
	setTimeout(callback, ms) {
		if (effectiveTimeout(ms) === Infinity) return { dispose: () => undefined };
		const handle = setTimeout(callback, ms);
		return { dispose: () => clearTimeout(handle) };
	},
};
