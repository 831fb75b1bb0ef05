/**
 * MCP 2026-07-28 without a handshake: what every request carries in `params._meta`, the errors only a modern server
 * sends, and what a result's `_meta` says about the server.
 * Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/index#_meta
 */
import { ALL_PROTOCOL_VERSIONS, isModernVersion } from '../protocolConstants';
import type { ClientCapabilities, Implementation, LoggingLevel } from '../schema';
import { McpError } from '../mcpError';

/** The reserved `_meta` keys of 2026-07-28. */
export const MetaKey = {
	protocolVersion: 'io.modelcontextprotocol/protocolVersion',
	clientInfo: 'io.modelcontextprotocol/clientInfo',
	clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
	logLevel: 'io.modelcontextprotocol/logLevel',
	serverInfo: 'io.modelcontextprotocol/serverInfo',
	subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/**
 * Error codes 2026-07-28 defines (in the range it reserves, -32020..-32099).
 * Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/index#error-codes
 */
export const ModernErrorCode = {
	/** HTTP headers do not match the body, or a required header is missing or malformed. */
	HeaderMismatch: -32020,
	/** The request needs a client capability the client did not declare (`data.requiredCapabilities`). */
	MissingRequiredClientCapability: -32021,
	/** The server does not speak the requested version (`data.supported`, `data.requested`). */
	UnsupportedProtocolVersion: -32022,
} as const;

/** What goes into every modern request's `_meta`. */
export interface RequestMetaInput {
	protocolVersion: string;
	clientInfo: Implementation;
	clientCapabilities: ClientCapabilities;
	/** Only when the user wants the server's log messages: "servers MUST NOT emit notifications/message for requests that did not include this field". */
	logLevel?: LoggingLevel | undefined;
}

/** The `_meta` object of a modern request (built once per version / level change and shared by every request). */
export function buildRequestMeta(input: RequestMetaInput): Record<string, unknown> {
	const meta: Record<string, unknown> = {
		[MetaKey.protocolVersion]: input.protocolVersion,
		[MetaKey.clientInfo]: input.clientInfo,
		[MetaKey.clientCapabilities]: input.clientCapabilities,
	};
	if (input.logLevel !== undefined) {
		meta[MetaKey.logLevel] = input.logLevel;
	}
	return meta;
}

/** `params` with the request metadata merged into its `_meta` (a caller's own `_meta` keys, e.g. progressToken, are kept). */
export function withRequestMeta(
	params: Record<string, unknown> | undefined,
	meta: Record<string, unknown>,
): Record<string, unknown> {
	const own = params?._meta;
	return { ...params, _meta: typeof own === 'object' && own !== null ? { ...own, ...meta } : meta };
}

/**
 * True for an error only a modern server sends: one of the codes 2026-07-28 defines. Such an answer to the probe
 * identifies a modern server ("a recognized modern JSON-RPC error ... identifies a modern server: the client retries
 * with a supported version rather than falling back"); anything else identifies a legacy one.
 * Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#backward-compatibility-with-initialization-based-versions
 */
export function isModernError(error: unknown): error is McpError {
	return (
		error instanceof McpError &&
		(error.code === ModernErrorCode.UnsupportedProtocolVersion ||
			error.code === ModernErrorCode.MissingRequiredClientCapability ||
			error.code === ModernErrorCode.HeaderMismatch)
	);
}

/** The versions an UnsupportedProtocolVersion error lists in `data.supported` (strings only; [] when absent). */
export function supportedVersionsOf(error: McpError): string[] {
	const supported = (error.data as { supported?: unknown } | undefined)?.supported;
	return Array.isArray(supported) ? supported.filter((version): version is string => typeof version === 'string') : [];
}

/**
 * The newest version both sides speak, from the server's list; undefined when there is none. `allowed` narrows the
 * client's side (a pinned version).
 */
export function pickCommonVersion(
	serverVersions: readonly string[],
	allowed: readonly string[] = ALL_PROTOCOL_VERSIONS,
): string | undefined {
	return allowed.find((version) => serverVersions.includes(version));
}

/** Whether a server list names any modern version this client speaks. */
export function offersModern(serverVersions: readonly string[]): boolean {
	return serverVersions.some((version) => isModernVersion(version));
}

/**
 * The server's self-description from a result: `_meta['io.modelcontextprotocol/serverInfo']` (2026-07-28), or a
 * top-level `serverInfo` some early servers put in `server/discover`. Undefined when neither has a name.
 */
export function serverInfoOf(result: Record<string, unknown>): Implementation | undefined {
	const meta = result._meta;
	const fromMeta =
		typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>)[MetaKey.serverInfo] : undefined;
	const info = fromMeta ?? result.serverInfo;
	if (typeof info === 'object' && info !== null && typeof (info as { name?: unknown }).name === 'string') {
		const { name, version } = info as { name: string; version?: unknown };
		return { ...(info as Implementation), name, version: typeof version === 'string' ? version : '' };
	}
	return undefined;
}

/** A modern server's error, made to say what to do where the code means something to the user; others as they are. */
export function explainModernError(name: string, error: unknown, method: string): unknown {
	if (!(error instanceof McpError)) return error;
	switch (error.code) {
		case ModernErrorCode.MissingRequiredClientCapability: {
			const required = (error.data as { requiredCapabilities?: unknown } | undefined)?.requiredCapabilities;
			const names = typeof required === 'object' && required !== null ? Object.keys(required).join(', ') : 'unnamed';
			return new McpError(
				error.code,
				`${name} refused ${method}: it needs client capabilities this client did not declare (${names}): ${error.message}`,
				error.data,
				{ cause: error },
			);
		}
		case ModernErrorCode.HeaderMismatch:
			return new McpError(
				error.code,
				`${name} refused ${method}: its HTTP headers did not match the body: ${error.message}`,
				error.data,
				{ cause: error },
			);
		default:
			return error;
	}
}
