/**
 * Features MCP 2026-07-28 classifies as Deprecated. They keep working with servers that still use them; the log and
 * the Servers view say so, with what replaces them.
 * Spec: https://modelcontextprotocol.io/specification/2026-07-28/deprecated ("Features listed here remain part of
 * the specification but are scheduled for removal ... New implementations should not adopt them.")
 */

import type { Logger } from '../common/logger';

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

/** The deprecated features one server was seen to use, and the log lines that say so. */
export class DeprecationUse {
	/** Used on this connection (roots, sampling, logging), in the order first seen. */
	private readonly used = new Set<DeprecatedFeature>();
	/** The OAuth client of this server was registered through Dynamic Client Registration (kept across connections). */
	signedInThroughDcr = false;

	constructor(
		private readonly logger: () => Logger,
		/** Whether the current connection speaks 2026-07-28. */
		private readonly modern: () => boolean,
	) {}

	/**
	 * Notes a deprecated feature in use. A 2026-07-28 server gets a deprecation note in its log (sampling at every
	 * request, as each one asks the user; the others once per connection); an older one, whose revision still has the
	 * feature, a debug line once.
	 */
	note(feature: DeprecatedFeature, what: string): void {
		const first = !this.used.has(feature);
		this.used.add(feature);
		if (this.modern() && (first || feature === 'sampling')) {
			this.logger().info(`${what}: ${feature} is ${DEPRECATION_NOTES[feature]}. It keeps working.`);
		} else if (first) {
			this.logger().debug(`${what} (${feature} is ${DEPRECATION_NOTES[feature]})`);
		}
	}

	/** A new connection: what it uses is noted afresh. */
	newConnection(): void {
		this.used.clear();
	}

	/** The features in use: the HTTP+SSE transport when `sse`, then those seen, then DCR. */
	features(sse: boolean): DeprecatedFeature[] {
		const features: DeprecatedFeature[] = [];
		if (sse) features.push('HTTP+SSE transport');
		for (const feature of this.used) features.push(feature);
		if (this.signedInThroughDcr) features.push('Dynamic Client Registration');
		return features;
	}
}
