/**
 * Features MCP 2026-07-28 classifies as Deprecated. They keep working with servers that still use them; the log and
 * the Servers view say so, with what replaces them.
 * Spec: https://modelcontextprotocol.io/specification/2026-07-28/deprecated ("Features listed here remain part of
 * the specification but are scheduled for removal ... New implementations should not adopt them.")
 */

/** A deprecated feature a server was seen to use. */
export type DeprecatedFeature = 'HTTP+SSE transport' | 'roots' | 'sampling' | 'logging' | 'Dynamic Client Registration';

/** Why each is deprecated and what replaces it, as the registry of deprecated features says. */
export const DEPRECATION_NOTES: Readonly<Record<DeprecatedFeature, string>> = {
	'HTTP+SSE transport': 'deprecated since MCP 2025-03-26 (SEP-2596); servers should move to Streamable HTTP',
	roots:
		'deprecated in MCP 2026-07-28 (SEP-2577); servers should take directories or files through tool parameters, resource URIs or configuration',
	sampling: 'deprecated in MCP 2026-07-28 (SEP-2577); servers should call LLM provider APIs directly',
	logging: 'deprecated in MCP 2026-07-28 (SEP-2577); servers should log to stderr (stdio) or use OpenTelemetry',
	'Dynamic Client Registration':
		'this sign-in registered its client through Dynamic Client Registration, deprecated in MCP 2026-07-28 (PR #2858); the authorization server should support Client ID Metadata Documents (then set "oauth.clientMetadataUrl")',
};

/** "uses deprecated HTTP+SSE transport, sampling", or '' when none. */
export function deprecationSummary(features: readonly DeprecatedFeature[]): string {
	return features.length === 0 ? '' : `uses deprecated ${features.join(', ')}`;
}
