/**
 * Pins as one JSON file per server identity in a folder (the extension's global storage, `pins/`). A pin keeps each
 * definition's text for the review's diff, so a server with thousands of tools pins megabytes: too much for VS Code's
 * global state, which is held in memory and warns past a megabyte (keyedJsonFiles.ts).
 */
import { type KeyedJsonFormat, KeyedJsonFiles } from '../keyedJsonFiles';
import type { PinRecord, PinStore } from './pins';

/** Whether `value` has the shape of a PinRecord (its three kinds, each an object). */
export function isPinRecord(value: unknown): value is PinRecord {
	if (typeof value !== 'object' || value === null) return false;
	const record = value as Partial<PinRecord>;
	return [record.tool, record.prompt, record.template].every((part) => typeof part === 'object' && part !== null);
}

const PIN_FORMAT: KeyedJsonFormat<PinRecord> = { version: 1, field: 'pins', isValue: isPinRecord, noun: 'pins' };

/** Where pins were kept before: read once per identity, moved into the folder, then forgotten there. */
export interface LegacyPins {
	take(identity: string): PinRecord | undefined;
}

export class FolderPinStore implements PinStore {
	private readonly files: KeyedJsonFiles<PinRecord>;
	/**
	 * What was read or set, by identity (null: nothing kept). Pins are asked for once per definition on every listing
	 * (`DefinitionPins.isChanged`), so each file is read once per window, as global state was held in memory.
	 */
	private readonly known = new Map<string, PinRecord | null>();

	constructor(
		folder: string,
		private readonly legacy?: LegacyPins,
		onError?: (message: string) => void,
	) {
		this.files = new KeyedJsonFiles(folder, PIN_FORMAT, onError);
	}

	get(identity: string): PinRecord | undefined {
		const known = this.known.get(identity);
		if (known !== undefined) return known ?? undefined;
		let record = this.files.load(identity);
		if (record === undefined) {
			record = this.legacy?.take(identity);
			if (record !== undefined) this.files.save(identity, record);
		}
		this.known.set(identity, record ?? null);
		return record;
	}

	set(identity: string, record: PinRecord): void {
		this.known.set(identity, record);
		this.files.save(identity, record);
	}

	/** Resolves when every pin set so far is on disk (tests, and disposal). */
	flush(): Promise<void> {
		return this.files.flush();
	}
}
