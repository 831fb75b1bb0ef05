/**
 * Constants both the schemas and their builder need: the protocol versions spoken and the logging levels. Their own
 * file so that schema.ts → schemaBuild.ts is the only direction between those two.
 */
/**
 * Legacy protocol versions this client speaks through the `initialize` handshake, newest first. The first is offered
 * in `initialize`. (Named before 2026-07-28 existed; kept as the handshake list.)
 */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export const LATEST_PROTOCOL_VERSION = SUPPORTED_PROTOCOL_VERSIONS[0];
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];

/**
 * Modern protocol versions (no handshake: version, capabilities and client info travel in every request's `_meta`),
 * newest first. Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
 */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;

/** Every version this client speaks, newest first: the modern ones, then the handshake ones. */
export const ALL_PROTOCOL_VERSIONS: readonly string[] = [...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS];

/** True for a version spoken without the `initialize` handshake (2026-07-28 and later). */
export function isModernVersion(version: string): boolean {
	return (MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

export const LOGGING_LEVELS = [
	'debug',
	'info',
	'notice',
	'warning',
	'error',
	'critical',
	'alert',
	'emergency',
] as const;
export type LoggingLevel = (typeof LOGGING_LEVELS)[number];
