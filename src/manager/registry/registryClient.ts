/**
 * A client of the MCP Registry's read API (the generic registry API the official registry implements, `/v0.1`):
 * `GET {base}/servers?search=&limit=&cursor=&version=latest` pages through the servers by cursor and
 * `GET {base}/servers/{name}/versions/{version}` (`latest` is a version) gives one server.json. Plain `fetch`, a
 * timeout on every request, and answers checked with the schemas in serverJson.ts. Deleted servers are never shown;
 * deprecated ones are, with the registry's word on them. Shared by the extension and the command line.
 */
import { errorMessage } from '../../common/errors';
import {
	OFFICIAL_META,
	OfficialMetaSchema,
	ServerListSchema,
	ServerResponseSchema,
	serverJsonProblems,
	type ServerJson,
} from './serverJson';
import { isRecord } from '../../common/records';

/** The official registry's stable read API. */
export const OFFICIAL_REGISTRY = 'https://registry.modelcontextprotocol.io/v0.1';

/** How long one request to a registry may take before it is given up, in milliseconds. */
export const DEFAULT_REGISTRY_TIMEOUT_MS = 15_000;

/** One server version as a registry lists it. */
export interface RegistryListing {
	/** The registry's base URL (as configured, without a trailing slash). */
	registry: string;
	server: ServerJson;
	status: 'active' | 'deprecated';
	/** For a deprecated version: why, when the registry says so. */
	statusMessage?: string;
	isLatest?: boolean;
	publishedAt?: string;
}

/** What went wrong talking to a registry: each kind has its own sentence, and each sentence names the registry. */
export type RegistryFailureKind = 'unreachable' | 'timeout' | 'http' | 'notFound' | 'deleted' | 'invalid';

/** A registry request that failed; `message` is for people and names the registry's URL. */
export class RegistryError extends Error {
	constructor(
		readonly kind: RegistryFailureKind,
		readonly registry: string,
		message: string,
	) {
		super(message);
		this.name = 'RegistryError';
	}
}

/** A page of a listing: the servers, the ones left out because their server.json is not valid, and the next cursor. */
export interface RegistryPage {
	servers: RegistryListing[];
	invalid: { name: string; problem: string }[];
	nextCursor?: string;
}

export interface RegistryClientOptions {
	timeoutMs?: number;
	/** Injected for tests; the global fetch otherwise. */
	fetch?: typeof fetch;
}

/** The registry URLs of the `mcpSwitchboard.registry.url` setting: a string or an array of them; the official one when unset. */
export function registryUrls(setting: unknown): string[] {
	const values = Array.isArray(setting) ? setting : [setting];
	const urls = values
		.filter((value): value is string => typeof value === 'string' && value.trim() !== '')
		.map((value) => value.trim().replace(/\/+$/, ''));
	return urls.length > 0 ? [...new Set(urls)] : [OFFICIAL_REGISTRY];
}

/** The root cause's text of a failed fetch (undici wraps it: "fetch failed" with a `cause` such as ECONNREFUSED). */
function fetchCause(error: unknown): string {
	const cause = error instanceof Error ? error.cause : undefined;
	if (cause instanceof Error) {
		const code = (cause as NodeJS.ErrnoException).code;
		return code && !cause.message.includes(code) ? `${code} ${cause.message}` : cause.message;
	}
	return errorMessage(error);
}

export class RegistryClient {
	readonly baseUrl: string;
	private readonly timeoutMs: number;
	private readonly fetchImpl: typeof fetch;

	constructor(baseUrl: string, options: RegistryClientOptions = {}) {
		this.baseUrl = baseUrl.trim().replace(/\/+$/, '');
		this.timeoutMs = options.timeoutMs ?? DEFAULT_REGISTRY_TIMEOUT_MS;
		this.fetchImpl = options.fetch ?? fetch;
	}

	/** One page of the servers whose name or description matches `search` (all of them without one), latest versions only. */
	async listPage(
		query: { search?: string; limit?: number; cursor?: string } = {},
		signal?: AbortSignal,
	): Promise<RegistryPage> {
		const url = new URL(`${this.baseUrl}/servers`);
		if (query.search) url.searchParams.set('search', query.search);
		url.searchParams.set('limit', String(query.limit ?? 30));
		if (query.cursor) url.searchParams.set('cursor', query.cursor);
		url.searchParams.set('version', 'latest');
		const body = await this.getJson(url, signal);
		const parsed = ServerListSchema.safeParse(body);
		if (!parsed.success)
			throw new RegistryError(
				'invalid',
				this.baseUrl,
				`The MCP registry at ${this.baseUrl} sent a listing that is not the registry API's (${parsed.error.issues[0]?.message ?? 'unknown shape'}).`,
			);
		const page: RegistryPage = { servers: [], invalid: [] };
		for (const item of parsed.data.servers) {
			const listing = this.listing(item);
			if (listing === 'deleted') continue;
			if ('problem' in listing) page.invalid.push(listing);
			else page.servers.push(listing);
		}
		// A registry that ignores `version=latest` lists every version: keep one per name, the latest.
		page.servers = latestPerName(page.servers);
		const next = parsed.data.metadata?.nextCursor;
		if (next) page.nextCursor = next;
		return page;
	}

	/**
	 * Servers matching `search` across pages, following cursors until `max` servers were found or the listing ends.
	 * Invalid entries are reported beside them, never thrown.
	 */
	async search(search: string | undefined, max = 100, signal?: AbortSignal): Promise<RegistryPage> {
		const all: RegistryPage = { servers: [], invalid: [] };
		let cursor: string | undefined;
		const seen = new Set<string>();
		do {
			const page = await this.listPage({ search, limit: Math.min(100, max), cursor }, signal);
			all.servers.push(...page.servers);
			all.invalid.push(...page.invalid);
			cursor = page.nextCursor;
			// A registry that hands back the same cursor would loop forever.
			if (cursor !== undefined && seen.has(cursor)) break;
			if (cursor !== undefined) seen.add(cursor);
		} while (cursor !== undefined && all.servers.length < max);
		all.servers = latestPerName(all.servers).slice(0, max);
		if (cursor !== undefined) all.nextCursor = cursor;
		return all;
	}

	/** One version of a server (`latest` by default). Throws a RegistryError: not found, deleted, or not a valid server.json. */
	async get(name: string, version = 'latest', signal?: AbortSignal): Promise<RegistryListing> {
		const url = new URL(`${this.baseUrl}/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`);
		const body = await this.getJson(url, signal, `${name}${version === 'latest' ? '' : `@${version}`}`);
		const parsed = ServerResponseSchema.safeParse(body);
		const listing = parsed.success ? this.listing(parsed.data) : { name, problem: 'the answer has no "server"' };
		if (listing === 'deleted')
			throw new RegistryError(
				'deleted',
				this.baseUrl,
				`'${name}' was deleted from the MCP registry at ${this.baseUrl}.`,
			);
		if ('problem' in listing)
			throw new RegistryError(
				'invalid',
				this.baseUrl,
				`The server.json of '${name}' in the MCP registry at ${this.baseUrl} is not valid: ${listing.problem}. Nothing was installed.`,
			);
		return listing;
	}

	private listing(item: {
		server: unknown;
		_meta?: Record<string, unknown>;
	}): RegistryListing | 'deleted' | { name: string; problem: string } {
		const metaParsed = OfficialMetaSchema.safeParse(item._meta?.[OFFICIAL_META] ?? {});
		const meta = metaParsed.success ? metaParsed.data : {};
		if (meta.status === 'deleted') return 'deleted';
		const checked = serverJsonProblems(item.server);
		if (!checked.ok) {
			const name = isRecord(item.server) && typeof item.server.name === 'string' ? item.server.name : '(no name)';
			return { name, problem: checked.problem };
		}
		const listing: RegistryListing = {
			registry: this.baseUrl,
			server: checked.server,
			status: meta.status === 'deprecated' ? 'deprecated' : 'active',
		};
		if (meta.statusMessage) listing.statusMessage = meta.statusMessage;
		if (meta.isLatest !== undefined) listing.isLatest = meta.isLatest;
		if (meta.publishedAt) listing.publishedAt = meta.publishedAt;
		return listing;
	}

	private async getJson(url: URL, signal: AbortSignal | undefined, what?: string): Promise<unknown> {
		const timeout = AbortSignal.timeout(this.timeoutMs);
		let response: Response;
		try {
			response = await this.fetchImpl(url, {
				headers: { accept: 'application/json' },
				signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
			});
		} catch (error) {
			if (signal?.aborted) throw error;
			if (timeout.aborted)
				throw new RegistryError(
					'timeout',
					this.baseUrl,
					`The MCP registry at ${this.baseUrl} did not answer within ${Math.round(this.timeoutMs / 1000)} s.`,
				);
			throw new RegistryError(
				'unreachable',
				this.baseUrl,
				`Cannot reach the MCP registry at ${this.baseUrl} (${fetchCause(error)}). Check the registry URL and your network.`,
			);
		}
		if (response.status === 404 && what !== undefined)
			throw new RegistryError('notFound', this.baseUrl, `The MCP registry at ${this.baseUrl} has no server '${what}'.`);
		if (!response.ok)
			throw new RegistryError(
				'http',
				this.baseUrl,
				`The MCP registry at ${this.baseUrl} answered ${response.status} ${response.statusText} to ${url.pathname}.`,
			);
		try {
			return await response.json();
		} catch {
			throw new RegistryError('invalid', this.baseUrl, `The MCP registry at ${this.baseUrl} did not answer with JSON.`);
		}
	}
}

/** One listing per server name: the one marked latest, else the last one listed. */
function latestPerName(listings: readonly RegistryListing[]): RegistryListing[] {
	const byName = new Map<string, RegistryListing>();
	for (const listing of listings) {
		const known = byName.get(listing.server.name);
		if (!known || listing.isLatest === true || known.isLatest !== true) byName.set(listing.server.name, listing);
	}
	return [...byName.values()];
}

/** The result of asking several registries: what each found, and a sentence for each that failed. */
export interface MultiRegistryResult {
	servers: RegistryListing[];
	invalid: { registry: string; name: string; problem: string }[];
	failures: RegistryError[];
}

/** Searches every registry in `urls` at once; one that fails is reported, the others' servers are still listed. */
export async function searchRegistries(
	urls: readonly string[],
	search: string | undefined,
	options: RegistryClientOptions & { max?: number; signal?: AbortSignal } = {},
): Promise<MultiRegistryResult> {
	const results = await Promise.allSettled(
		urls.map((url) => new RegistryClient(url, options).search(search, options.max ?? 100, options.signal)),
	);
	const out: MultiRegistryResult = { servers: [], invalid: [], failures: [] };
	results.forEach((result, index) => {
		const registry = urls[index] ?? '';
		if (result.status === 'fulfilled') {
			out.servers.push(...result.value.servers);
			out.invalid.push(...result.value.invalid.map((item) => ({ registry, ...item })));
		} else if (result.reason instanceof RegistryError) out.failures.push(result.reason);
		else
			out.failures.push(
				new RegistryError(
					'unreachable',
					registry,
					`The MCP registry at ${registry} failed: ${errorMessage(result.reason)}`,
				),
			);
	});
	return out;
}

/** Finds `name` in the first registry of `urls` that has it; the last failure when none does. */
export async function findServer(
	urls: readonly string[],
	name: string,
	version = 'latest',
	options: RegistryClientOptions & { signal?: AbortSignal } = {},
): Promise<RegistryListing> {
	let last: unknown;
	for (const url of urls) {
		try {
			return await new RegistryClient(url, options).get(name, version, options.signal);
		} catch (error) {
			// Not there: try the next registry. Anything else (deleted, invalid, unreachable) is the answer.
			if (error instanceof RegistryError && error.kind === 'notFound' && url !== urls[urls.length - 1]) {
				last = error;
				continue;
			}
			throw error;
		}
	}
	throw last instanceof Error ? last : new Error(`no registry to look up '${name}' in`);
}
