/**
 * Values kept as one JSON file per key in a folder (the extension's global storage): server listings, pinned
 * definitions. VS Code keeps `globalState` in memory and warns past about a megabyte; a server with thousands of tools
 * outgrows it, so anything sized by a server's listing lives on disk here instead.
 *
 * Reads are synchronous so a view renders at once; writes go to a temporary file renamed over the old one (a reader
 * never sees half a file), in the background, and a burst of saves for one key writes the newest once the write
 * before it ends.
 */
import { readFileSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage } from '../common/errors';
import { replaceFile } from '../common/replaceFile';

/** How one kind of value is kept: its file format's version, the field that holds it, its check, and its name in messages. */
export interface KeyedJsonFormat<T> {
	/** A file written with another version is ignored (read as absent). */
	version: number;
	/** The property of the file's object that holds the value (`{ format, [field]: value }`). */
	field: string;
	/** Whether a parsed value has the expected shape; a file that fails it is ignored. */
	isValue(value: unknown): value is T;
	/** What the values are, for messages ("listing", "pins"). */
	noun: string;
}

export class KeyedJsonFiles<T> {
	private readonly pending = new Map<string, T | null>();
	private readonly writing = new Set<string>();

	constructor(
		private readonly folder: string,
		private readonly format: KeyedJsonFormat<T>,
		private readonly onError: (message: string) => void = () => undefined,
	) {}

	/** The value kept for `key`, or undefined (none, another format, or unreadable: said through onError). */
	load(key: string): T | undefined {
		const waiting = this.pending.get(key);
		if (waiting !== undefined) return waiting ?? undefined;
		let text: string;
		try {
			text = readFileSync(this.file(key), 'utf8');
		} catch {
			return undefined;
		}
		try {
			const parsed = JSON.parse(text) as Record<string, unknown>;
			const value = parsed[this.format.field];
			return parsed.format === this.format.version && this.format.isValue(value) ? value : undefined;
		} catch (error) {
			this.onError(`The kept ${this.format.noun} ${key}.json is unreadable (${errorMessage(error)}); it is ignored`);
			return undefined;
		}
	}

	/** Keeps `value` for `key`, replacing the one before. */
	save(key: string, value: T): void {
		this.queue(key, value);
	}

	/** Forgets what is kept for `key`. */
	drop(key: string): void {
		this.queue(key, null);
	}

	/** Resolves when every save and drop asked for so far is on disk (tests, and disposal). */
	async flush(): Promise<void> {
		while (this.writing.size > 0 || this.pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 5));
	}

	private queue(key: string, value: T | null): void {
		this.pending.set(key, value);
		if (!this.writing.has(key)) void this.write(key);
	}

	private async write(key: string): Promise<void> {
		this.writing.add(key);
		try {
			while (this.pending.has(key)) {
				const value = this.pending.get(key) ?? null;
				const file = this.file(key);
				try {
					if (value === null) {
						await unlink(file).catch(() => undefined);
					} else {
						await replaceFile(file, JSON.stringify({ format: this.format.version, [this.format.field]: value }));
					}
				} catch (error) {
					this.onError(`Keeping the ${this.format.noun} of ${key} failed: ${errorMessage(error)}`);
				}
				// A newer save that came in while writing stays pending and is written next.
				if (this.pending.get(key) === value) this.pending.delete(key);
			}
		} finally {
			this.writing.delete(key);
		}
	}

	private file(key: string): string {
		return join(this.folder, `${key}.json`);
	}
}
