/**
 * What each server last listed (tools, prompts, resources, templates, server info, protocol version), kept per server
 * identity between sessions, so a server that has not started yet in this window can still be shown and offered, and
 * starts only when something needs it. Keyed on serverIdentity(): a changed configuration is another server, and its
 * old listing is dropped.
 */
import type { Implementation, Prompt, Resource, ResourceTemplate, Tool } from '../protocol/schema';
import { type KeyedJsonFormat, KeyedJsonFiles } from './keyedJsonFiles';
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

/** Listings as kept on disk: format 1, `{ format, listing }`. */
const LISTING_FORMAT: KeyedJsonFormat<CachedListing> = {
	version: 1,
	field: 'listing',
	isValue: (value): value is CachedListing =>
		typeof value === 'object' && value !== null && Array.isArray((value as CachedListing).tools),
	noun: 'listing',
};

/**
 * Listings as one JSON file per server identity in `folder` (the extension's global storage), written in the
 * background (keyedJsonFiles.ts).
 */
export class FileListingStore implements ListingStore {
	private readonly files: KeyedJsonFiles<CachedListing>;

	constructor(folder: string, onError: (message: string) => void = () => undefined) {
		this.files = new KeyedJsonFiles(folder, LISTING_FORMAT, onError);
	}

	load(identity: string): CachedListing | undefined {
		return this.files.load(identity);
	}

	save(identity: string, listing: CachedListing): void {
		this.files.save(identity, listing);
	}

	drop(identity: string): void {
		this.files.drop(identity);
	}

	/** Resolves when every save and drop asked for so far is on disk (tests, and disposal). */
	flush(): Promise<void> {
		return this.files.flush();
	}
}
