/**
 * What each server last listed (tools, prompts, resources, templates, server info, protocol version), kept per server
 * identity between sessions, so a server that has not started yet in this window can still be shown and offered, and
 * starts only when something needs it. Keyed on serverIdentity(): a changed configuration is another server, and its
 * old listing is dropped.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Implementation, Prompt, Resource, ResourceTemplate, Tool } from '../protocol/schema';
import { errorMessage } from '../common/errors';
import type { McpClient } from '../protocol/client';
import type { NamedTool } from './types';

/** One server's last listing. */
export interface CachedListing {
	/** When it was listed, in ms since the epoch. */
	listedAt: number;
	serverInfo?: Implementation;
	protocolVersion?: string;
	tools: Tool[];
	prompts: Prompt[];
	resources: Resource[];
	resourceTemplates: ResourceTemplate[];
}

/** Where listings are kept. `load` is synchronous so a view renders from it at once; writes happen in the background. */
export interface ListingStore {
	/** The listing kept for `identity`, or undefined (none, or unreadable). */
	load(identity: string): CachedListing | undefined;
	/** Keeps `listing` for `identity`, replacing the one before. */
	save(identity: string, listing: CachedListing): void;
	/** Forgets what is kept for `identity` (its configuration changed). */
	drop(identity: string): void;
}

/** What `client` listed, as kept: the lists now shown, with the server's info and protocol version, listed now. */
export function listingOf(
	client: Pick<McpClient, 'serverInfo' | 'protocolVersion'>,
	lists: {
		tools: readonly NamedTool[];
		prompts: readonly Prompt[];
		resources: readonly Resource[];
		resourceTemplates: readonly ResourceTemplate[];
	},
): CachedListing {
	return {
		listedAt: Date.now(),
		serverInfo: client.serverInfo,
		protocolVersion: client.protocolVersion,
		tools: lists.tools.map((named) => named.tool),
		prompts: [...lists.prompts],
		resources: [...lists.resources],
		resourceTemplates: [...lists.resourceTemplates],
	};
}

/** The file format's version: a listing written by another format is ignored. */
const FORMAT = 1;

/**
 * Listings as one JSON file per server identity in `folder` (the extension's global storage). Writes go to a temporary
 * file renamed over the old one, so a reader never sees half a file; bursts of saves for one server write the newest
 * once the write before ends.
 */
export class FileListingStore implements ListingStore {
	private readonly pending = new Map<string, CachedListing | null>();
	private readonly writing = new Set<string>();

	constructor(
		private readonly folder: string,
		private readonly onError: (message: string) => void = () => undefined,
	) {}

	load(identity: string): CachedListing | undefined {
		const waiting = this.pending.get(identity);
		if (waiting !== undefined) return waiting ?? undefined;
		let text: string;
		try {
			text = readFileSync(this.file(identity), 'utf8');
		} catch {
			return undefined;
		}
		try {
			const parsed = JSON.parse(text) as { format?: unknown; listing?: CachedListing };
			if (parsed.format !== FORMAT || !parsed.listing || !Array.isArray(parsed.listing.tools)) return undefined;
			return parsed.listing;
		} catch (error) {
			this.onError(`The cached listing ${identity}.json is unreadable (${errorMessage(error)}); it is listed again`);
			return undefined;
		}
	}

	save(identity: string, listing: CachedListing): void {
		this.queue(identity, listing);
	}

	drop(identity: string): void {
		this.queue(identity, null);
	}

	/** Resolves when every save and drop asked for so far is on disk (tests, and disposal). */
	async flush(): Promise<void> {
		while (this.writing.size > 0 || this.pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 5));
	}

	private queue(identity: string, listing: CachedListing | null): void {
		this.pending.set(identity, listing);
		if (!this.writing.has(identity)) void this.write(identity);
	}

	private async write(identity: string): Promise<void> {
		this.writing.add(identity);
		try {
			while (this.pending.has(identity)) {
				const listing = this.pending.get(identity) ?? null;
				const file = this.file(identity);
				try {
					if (listing === null) {
						await unlink(file).catch(() => undefined);
					} else {
						mkdirSync(this.folder, { recursive: true });
						const temporary = `${file}.${process.pid}.tmp`;
						await writeFile(temporary, JSON.stringify({ format: FORMAT, listing }));
						await rename(temporary, file);
					}
				} catch (error) {
					this.onError(`Keeping the listing of ${identity} failed: ${errorMessage(error)}`);
				}
				// A newer save that came in while writing stays pending and is written next.
				if (this.pending.get(identity) === listing) this.pending.delete(identity);
			}
		} finally {
			this.writing.delete(identity);
		}
	}

	private file(identity: string): string {
		return join(this.folder, `${identity}.json`);
	}
}
