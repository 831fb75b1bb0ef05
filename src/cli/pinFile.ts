/**
 * The command line's pins (manager/pinning): one JSON file in the user's state folder (cacheDir.ts), keyed by server identity (a
 * hash, so no command line or path is written). The first `list` of a server pins its tools; a later `list` marks
 * the tools whose definition changed since. A missing or malformed file is no pins; a failed write is ignored.
 */
import { readFileSync } from 'node:fs';
import { replaceFileSync } from '../common/replaceFile';
import * as path from 'node:path';
import type { PinRecord, PinStore } from '../manager/pinning/pins';
import { userStateDir } from './cacheDir';

export class FilePinStore implements PinStore {
	private records: Record<string, PinRecord> | undefined;

	constructor(readonly file: string = path.join(userStateDir(), 'cli-pins.json')) {}

	get(identity: string): PinRecord | undefined {
		return this.load()[identity];
	}

	set(identity: string, record: PinRecord): void {
		this.load()[identity] = record;
		try {
			replaceFileSync(this.file, JSON.stringify({ pins: this.records }));
		} catch {
			// Only the marking of changed tools is lost.
		}
	}

	private load(): Record<string, PinRecord> {
		if (this.records) return this.records;
		try {
			const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as { pins?: unknown };
			this.records =
				typeof parsed.pins === 'object' && parsed.pins !== null ? (parsed.pins as Record<string, PinRecord>) : {};
		} catch {
			this.records = {};
		}
		return this.records;
	}
}
