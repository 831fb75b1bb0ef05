/**
 * Which protocol era each server spoke, remembered between runs of the command line, so a later `list` or `call` of a
 * server that answered `initialize` skips the `server/discover` probe (and the error an older server answers it with)
 * and goes straight to `initialize`. The spec allows it: clients "MAY persist it across restarts of the same server
 * configuration, re-probing if the cached assumption later fails"
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning). McpClient re-probes when initialize
 * fails, and a connection that fails drops its entry (see createDefaultConnector).
 *
 * One small JSON file in the user's cache folder. Keys are hashes of the server's configuration (its command line or
 * origin), so no argument, path or token of a configuration is written to disk. A missing, unreadable or malformed
 * file is an empty cache; a write that fails is ignored: the cache only saves a round trip.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { replaceFileSync } from '../common/replaceFile';
import * as path from 'node:path';
import type { EraMemory } from '../manager/defaultConnector';
import type { ProtocolEra } from '../protocol/client';
import { userCacheDir } from './cacheDir';

/** The file's format: 2 since the era policy prefers 2025-11-25 for servers that speak both eras. */
const FORMAT_VERSION = 2;

/** Entries kept at most; the oldest go first (a file of a few KB whatever the user runs). */
const MAX_ENTRIES = 500;

/** The eras of servers seen by earlier runs, in `file` (default: cli-eras.json in the user's cache folder). */
export class FileEraCache implements EraMemory {
	private entries: Map<string, ProtocolEra> | undefined;

	constructor(readonly file: string = path.join(userCacheDir(), 'cli-eras.json')) {}

	get(key: string): ProtocolEra | undefined {
		return this.load().get(hash(key));
	}

	set(key: string, era: ProtocolEra): void {
		const entries = this.load();
		const id = hash(key);
		if (entries.get(id) === era) return;
		entries.delete(id);
		entries.set(id, era);
		while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
		this.save();
	}

	delete(key: string): boolean {
		const deleted = this.load().delete(hash(key));
		if (deleted) this.save();
		return deleted;
	}

	private load(): Map<string, ProtocolEra> {
		if (this.entries) return this.entries;
		this.entries = new Map();
		try {
			const parsed: unknown = JSON.parse(readFileSync(this.file, 'utf8'));
			const file =
				typeof parsed === 'object' && parsed !== null ? (parsed as { version?: unknown; eras?: unknown }) : {};
			// Before version 2, 'modern' meant "speaks 2026-07-28"; now it means "needed it" (see planConnect): a server
			// that speaks both eras is asked with initialize again, and remembered anew.
			const current = file.version === FORMAT_VERSION;
			if (typeof file.eras === 'object' && file.eras !== null) {
				for (const [id, era] of Object.entries(file.eras as Record<string, unknown>)) {
					if (era === 'legacy' || (era === 'modern' && current)) this.entries.set(id, era);
				}
			}
		} catch {
			// No file yet, or one this version cannot read: start empty.
		}
		return this.entries;
	}

	private save(): void {
		try {
			// Written aside and renamed, so two runs at once never leave a half-written file.
			replaceFileSync(
				this.file,
				`${JSON.stringify({ version: FORMAT_VERSION, eras: Object.fromEntries(this.entries ?? []) })}\n`,
			);
		} catch {
			// A read-only home or a full disk: the next run probes again, nothing else changes.
		}
	}
}

function hash(key: string): string {
	return createHash('sha256').update(key).digest('base64url').slice(0, 22);
}
