/**
 * Pins kept in the extension's global state (they survive restarts and are the same in every window), one key per
 * server identity. The identity holds where the server is defined, so a workspace's server never shares pins with
 * another workspace's server of the same name.
 */
import type * as vscode from 'vscode';
import type { PinRecord, PinStore } from '../../manager/pinning/pins';

const PREFIX = 'mcpSwitchboard.pins.';

function isRecord(value: unknown): value is PinRecord {
	if (typeof value !== 'object' || value === null) return false;
	const record = value as Partial<PinRecord>;
	return [record.tool, record.prompt, record.template].every((part) => typeof part === 'object' && part !== null);
}

export class MementoPinStore implements PinStore {
	constructor(private readonly memento: vscode.Memento) {}

	get(identity: string): PinRecord | undefined {
		const value = this.memento.get<unknown>(PREFIX + identity);
		return isRecord(value) ? value : undefined;
	}

	set(identity: string, record: PinRecord): Thenable<void> {
		return this.memento.update(PREFIX + identity, record);
	}
}
