import type { Disposable } from './disposable';

/** A subscription point shaped like vscode's `Event<T>`: call it with a listener, get a Disposable back. */
export type Event<T> = (listener: (value: T) => void) => Disposable;

/**
 * Owns the listeners of one event. Expose `emitter.event` publicly and keep `fire` private.
 * A listener that throws does not stop the others; the error goes to `onListenerError` (default: console.error).
 */
export class Emitter<T> {
	private listeners: Array<(value: T) => void> = [];
	private disposed = false;

	constructor(private readonly onListenerError: (error: unknown) => void = (error) => console.error(error)) {}

	readonly event: Event<T> = (listener) => {
		if (this.disposed) {
			return { dispose() {} };
		}
		this.listeners = [...this.listeners, listener];
		return {
			dispose: () => {
				this.listeners = this.listeners.filter((l) => l !== listener);
			},
		};
	};

	get hasListeners(): boolean {
		return this.listeners.length > 0;
	}

	fire(value: T): void {
		// The array is replaced (not mutated) on subscribe/unsubscribe, so iterating it here is safe.
		for (const listener of this.listeners) {
			try {
				listener(value);
			} catch (error) {
				this.onListenerError(error);
			}
		}
	}

	dispose(): void {
		this.disposed = true;
		this.listeners = [];
	}
}

/** Resolves with the next value of an event (tests and one-shot waits). */
export function once<T>(event: Event<T>): Promise<T> {
	return new Promise((resolve) => {
		const subscription = event((value) => {
			subscription.dispose();
			resolve(value);
		});
	});
}
