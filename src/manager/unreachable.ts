/**
 * A remote server that could not be reached at all (nothing listens at the URL, the host is unknown), told apart
 * from one that connected and then failed: "crash loop, stopped retrying" is the wrong story for a URL that refused
 * every connection. The kind comes from the HTTP client's error (its `data.code`, Node's errno code), never from the
 * message's wording.
 */
import { McpError } from '../protocol/mcpError';

/** Why a server could not be reached. */
export type UnreachableCause = 'refused' | 'notFound' | 'timedOut' | 'noRoute';

const CAUSES: Readonly<Record<string, UnreachableCause>> = {
	ECONNREFUSED: 'refused',
	ENOTFOUND: 'notFound',
	EAI_AGAIN: 'notFound',
	ETIMEDOUT: 'timedOut',
	EHOSTUNREACH: 'noRoute',
	ENETUNREACH: 'noRoute',
};

/** The cause when `error` says the server could not be reached (a failed connection, not a failed answer). */
export function unreachableCause(error: unknown): UnreachableCause | undefined {
	if (!(error instanceof McpError) || error.local === undefined) return undefined;
	const code = (error.data as { code?: unknown } | undefined)?.code;
	return typeof code === 'string' ? CAUSES[code] : undefined;
}

/** The cause in a few words, for a state label or a row: "connection refused". */
export const UNREACHABLE_WORDS: Readonly<Record<UnreachableCause, string>> = {
	refused: 'connection refused',
	notFound: 'host not found',
	timedOut: 'connection timed out',
	noRoute: 'no route to the host',
};
