/**
 * The request patterns the client's methods share in both eras: a request that may answer `input_required` (2026-07-28
 * multi round-trip requests, answered by the host's handlers) and a list followed page by page to its end.
 */
import type { Logger } from '../common/logger';
import type { ClientHandlers, ListOptions } from './clientOptions';
import type { RequestOptions } from './connectionOptions';
import type { ClientEra } from './eras/era';
import { ErrorCode } from './jsonrpc';
import { McpError } from './mcpError';
import { cacheHintsOf, combineCacheHints, type CacheHints } from './modern/caching';
import { modernInputRequests } from './modern/onFirstUse';
import {
	isPlainListPromptsResult,
	isPlainListResourcesResult,
	isPlainListResourceTemplatesResult,
	isPlainListToolsResult,
} from './plainResults';
import { ensureComplete, parseResult } from './resultChecks';
import type { Schemas } from './schema';

/** The most pages a list method follows before it stops (a guard against a server that never ends a listing). */
const MAX_PAGES = 10_000;

/** The structural check of each list result (the same as its schema; see plainResults.ts). */
const PLAIN_LISTS = {
	ListToolsResultSchema: isPlainListToolsResult,
	ListResourcesResultSchema: isPlainListResourcesResult,
	ListResourceTemplatesResultSchema: isPlainListResourceTemplatesResult,
	ListPromptsResultSchema: isPlainListPromptsResult,
} as const;

/** The schema of a paginated list result. */
export type ListSchemaKey = keyof typeof PLAIN_LISTS;

/** The item type of list `K`'s array field `F`. */
export type ListItem<K extends ListSchemaKey, F extends string> =
	ReturnType<Schemas[K]['parse']> extends Record<F, Array<infer T>> ? T : never;

/** What the request patterns need from the client. */
export interface RequestRounds {
	readonly name: string;
	readonly logger: Logger;
	/** The era in use, which builds and sends each request. */
	readonly era: ClientEra;
	readonly handlers: ClientHandlers;
	/** The most `input_required` rounds one request may take; undefined: DEFAULT_MAX_INPUT_ROUNDS. */
	readonly maxRounds: number | undefined;
	/** Where results that took input rounds are remembered (no cache may keep them). */
	readonly inputResults: WeakSet<object>;
}

/**
 * A request that may answer `input_required` (multi round-trip): the input requests are answered by the handlers,
 * then the request is sent again (a new id) with the same params plus `inputResponses` and the `requestState`
 * exactly as received, until a complete result, the round limit, an error or the caller's cancellation.
 * Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
export async function sendWithInput(
	rounds: RequestRounds,
	method: string,
	params: Record<string, unknown>,
	options: RequestOptions | undefined,
	what: string,
): Promise<Record<string, unknown>> {
	// Made only when the server asks for input: an AbortController costs more than the rest of a call's bookkeeping.
	let signal = options?.signal;
	let request = params;
	for (let round = 1; ; round++) {
		let raw: Record<string, unknown>;
		try {
			raw = await rounds.era.send(method, request, options);
		} catch (error) {
			if (round === 1 || !(error instanceof McpError)) throw error;
			throw new McpError(
				error.code,
				`${rounds.name}: ${method} ${what} failed in round ${round} (after the input it asked for was sent): ${error.message}`,
				error.data,
				{ cause: error },
			);
		}
		if (raw.resultType !== 'input_required') {
			if (round > 1) rounds.inputResults.add(raw);
			// The tasks extension: "a tools/call that supports both MRTR and this extension may use them sequentially".
			if (raw.resultType === 'task' && method === 'tools/call' && rounds.era.tasksExtension) return raw;
			return ensureComplete(rounds.name, method, raw);
		}
		const where = `${rounds.name}: ${method} ${what}, round ${round}`;
		// Only a 2026-07-28 server answers input_required: the first such answer loads the code that handles it.
		const { answerInputRequests, parseInputRequired, DEFAULT_MAX_INPUT_ROUNDS } = modernInputRequests();
		const maxRounds = rounds.maxRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
		if (round > maxRounds) {
			throw new McpError(
				ErrorCode.ProtocolViolation,
				`${where}: the server still asks for input after ${maxRounds} rounds; giving up`,
				{ method, rounds: maxRounds },
			);
		}
		const input = parseInputRequired(raw, where);
		const keys = input.inputRequests ? Object.keys(input.inputRequests) : [];
		rounds.logger.debug(
			`${where}: the server asks for ${keys.length > 0 ? keys.join(', ') : 'nothing (retry with its requestState)'}`,
		);
		signal ??= options?.cancelWith?.signal ?? new AbortController().signal;
		const responses = input.inputRequests
			? await answerInputRequests(input.inputRequests, rounds.handlers, signal, where)
			: undefined;
		// Only the original params, never anything from another request ("MUST NOT be used for any other request").
		request = { ...params };
		if (responses !== undefined) request.inputResponses = responses;
		if (input.requestState !== undefined) request.requestState = input.requestState;
	}
}

/** Follows `nextCursor` to the end, stopping (with a warning) if the server repeats a cursor. */
export async function paginate<K extends ListSchemaKey, F extends string>(
	rounds: RequestRounds,
	method: string,
	key: K,
	field: F,
	options: ListOptions | undefined,
): Promise<Array<ListItem<K, F>>> {
	type Item = ListItem<K, F>;
	const items: Item[] = [];
	const seen = new Set<string>();
	const onHints = options?.onCacheHints;
	const hints: CacheHints[] = [];
	const done = (): typeof items => {
		onHints?.(combineCacheHints(hints));
		return items;
	};
	let cursor: string | undefined;
	for (let page = 0; page < MAX_PAGES; page++) {
		const raw = ensureComplete(
			rounds.name,
			method,
			await rounds.era.send(method, cursor === undefined ? undefined : { cursor }, options),
		);
		if (onHints) hints.push(cacheHintsOf(raw));
		// A list of the usual shape is checked structurally (see PLAIN_LISTS); anything else goes through the schema,
		// which names the path of a problem.
		const result = PLAIN_LISTS[key](raw) ? raw : parseResult(rounds.name, key, raw, method);
		const pageItems = result[field] as Item[];
		for (const item of pageItems) {
			items.push(item);
		}
		const next = result.nextCursor as string | undefined;
		if (next === undefined || next === '') {
			return done();
		}
		if (seen.has(next)) {
			rounds.logger.warn(
				`${rounds.name}: ${method} repeated the cursor ${JSON.stringify(next)}; stopped after ${items.length} items`,
			);
			return done();
		}
		seen.add(next);
		cursor = next;
	}
	rounds.logger.warn(
		`${rounds.name}: ${method} did not end after ${MAX_PAGES} pages; stopped after ${items.length} items`,
	);
	return done();
}
