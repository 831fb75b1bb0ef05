/** Something that holds a resource until `dispose()` is called. Shaped like vscode's Disposable. */
export interface Disposable {
	dispose(): void;
}

/** Turns a function into a Disposable that runs it at most once. */
export function toDisposable(dispose: () => void): Disposable {
	let done = false;
	return {
		dispose() {
			if (!done) {
				done = true;
				dispose();
			}
		},
	};
}

/**
 * Owns a set of disposables and disposes them together, in reverse order of addition.
 * Adding to a store that is already disposed disposes the addition at once, so late results never leak.
 */
export class DisposableStore implements Disposable {
	private readonly items = new Set<Disposable>();
	private disposed = false;

	get isDisposed(): boolean {
		return this.disposed;
	}

	add<T extends Disposable>(item: T): T {
		if (this.disposed) {
			item.dispose();
		} else {
			this.items.add(item);
		}
		return item;
	}

	delete(item: Disposable): void {
		if (this.items.delete(item)) {
			item.dispose();
		}
	}

	dispose(): void {
		if (this.disposed) {
			return;
		}
		this.disposed = true;
		const items = [...this.items].reverse();
		this.items.clear();
		const errors: unknown[] = [];
		for (const item of items) {
			try {
				item.dispose();
			} catch (error) {
				errors.push(error);
			}
		}
		if (errors.length === 1) {
			throw errors[0];
		}
		if (errors.length > 1) {
			throw new AggregateError(errors, 'Several disposables failed to dispose');
		}
	}
}
