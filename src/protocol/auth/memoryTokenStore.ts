import type { TokenStore } from './types';

/** A TokenStore in memory, for the headless API and tests: everything is gone when the process ends. */
export class MemoryTokenStore implements TokenStore {
	private readonly values = new Map<string, string>();

	async get(key: string): Promise<string | undefined> {
		return this.values.get(key);
	}

	async set(key: string, value: string): Promise<void> {
		this.values.set(key, value);
	}

	async delete(key: string): Promise<void> {
		this.values.delete(key);
	}

	/** The stored keys (tests check what is kept, never the values' secrets in logs). */
	keys(): string[] {
		return [...this.values.keys()];
	}
}
