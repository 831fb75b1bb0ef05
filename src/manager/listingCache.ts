/**
 * What each server last listed (tools, prompts, resources, templates, server info, protocol version), kept per server
 * identity between sessions, so a server that has not started yet in this window can still be shown and offered, and
 * starts only when something needs it. Keyed on serverIdentity(): a changed configuration is another server, and its
 * old listing is dropped.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Implementation, Prompt, Resource, ResourceTemplate, Tool } from '../protocol/schema';
import { type KeyedJsonFormat, KeyedJsonFiles } from './keyedJsonFiles';
import { type ListingSummary, SummaryIndex } from './summaryIndex';

export type { ListingSummary } from './summaryIndex';
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

/** The summary of `listing`. */
export function summaryOf(listing: CachedListing): ListingSummary {
	return {
		listedAt: listing.listedAt,
		toolNames: listing.tools.map((tool) => tool.name),
		prompts: listing.prompts.length,
		resources: listing.resources.length,
		resourceTemplates: listing.resourceTemplates.length,
	};
}

/** The summary `store` keeps for `identity`; a store that keeps none: its listing's. */
export function summaryIn(store: ListingStore, identity: string): ListingSummary | undefined {
	if (store.summary) return store.summary(identity);
	const listing = store.load(identity);
	return listing && summaryOf(listing);
}

/** Where listings are kept. `load` is synchronous so a view renders from it at once; writes happen in the background. */
export interface ListingStore {
	/** The listing kept for `identity`, or undefined (none, or unreadable). */
	load(identity: string): CachedListing | undefined;
	/** Its summary, kept beside it (a store without one: the Manager summarises what `load` gives). */
	summary?(identity: string): ListingSummary | undefined;
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

/** Listings as kept on disk: format 1, `{ format, listing }`. */
const LISTING_FORMAT: KeyedJsonFormat<CachedListing> = {
	version: 1,
	field: 'listing',
	isValue: (value): value is CachedListing =>
		typeof value === 'object' && value !== null && Array.isArray((value as CachedListing).tools),
	noun: 'listing',
};

/**
 * Listings as one JSON file per server identity in `folder` (the extension's global storage), and their summaries
 * together in `folder/summaries.json`, written in the background (keyedJsonFiles.ts, summaryIndex.ts).
 */
export class FileListingStore implements ListingStore {
	private readonly files: KeyedJsonFiles<CachedListing>;
	private readonly summaries: SummaryIndex;
	private cleared = false;

	constructor(
		private readonly folder: string,
		onError: (message: string) => void = () => undefined,
	) {
		this.files = new KeyedJsonFiles(folder, LISTING_FORMAT, onError);
		this.summaries = new SummaryIndex(join(folder, 'summaries.json'), onError);
	}

	load(identity: string): CachedListing | undefined {
		return this.files.load(identity);
	}

	/** The summary; a listing kept before summaries were is summarised once, and its summary kept. */
	summary(identity: string): ListingSummary | undefined {
		const kept = this.summaries.get(identity);
		if (kept) return kept;
		const listing = this.load(identity);
		if (!listing) return undefined;
		const summary = summaryOf(listing);
		this.summaries.set(identity, summary);
		return summary;
	}

	save(identity: string, listing: CachedListing): void {
		if (!this.cleared) {
			// Summaries were kept one file each (in `summaries/`) before they were kept together.
			this.cleared = true;
			void rm(join(this.folder, 'summaries'), { recursive: true, force: true }).catch(() => undefined);
		}
		this.files.save(identity, listing);
		this.summaries.set(identity, summaryOf(listing));
	}

	drop(identity: string): void {
		this.files.drop(identity);
		this.summaries.delete(identity);
	}

	/** Resolves when every save and drop asked for so far is on disk (tests, and disposal). */
	async flush(): Promise<void> {
		await Promise.all([this.files.flush(), this.summaries.flush()]);
	}
}
