/** A counting semaphore: at most `limit` tasks hold a slot at once; the rest wait in order of arrival. */
export class Limiter {
	private active = 0;
	private readonly waiting: Array<() => void> = [];

	constructor(private limit: number) {}

	/** Changes the limit; raising it lets waiting tasks in at once. */
	setLimit(limit: number): void {
		this.limit = Math.max(1, limit);
		this.drain();
	}

	/**
	 * Runs `task` when a slot is free. When `signal` aborts while waiting the task never runs and the promise
	 * rejects with the signal's reason.
	 */
	async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
		await this.acquire(signal);
		try {
			return await task();
		} finally {
			this.active--;
			this.drain();
		}
	}

	private acquire(signal?: AbortSignal): Promise<void> {
		if (signal?.aborted) return Promise.reject(signal.reason);
		if (this.active < this.limit) {
			this.active++;
			return Promise.resolve();
		}
		return new Promise((resolve, reject) => {
			const grant = () => {
				signal?.removeEventListener('abort', onAbort);
				this.active++;
				resolve();
			};
			const onAbort = () => {
				const index = this.waiting.indexOf(grant);
				if (index >= 0) this.waiting.splice(index, 1);
				reject(signal?.reason);
			};
			signal?.addEventListener('abort', onAbort, { once: true });
			this.waiting.push(grant);
		});
	}

	private drain(): void {
		while (this.active < this.limit && this.waiting.length > 0) this.waiting.shift()!();
	}
}
