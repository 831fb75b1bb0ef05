/**
 * What a remembered sampling consent is keyed on. A name alone is not enough: a repository can define its own
 * server called `github` and would inherit the "Always allow" given to the user's. So the key holds where the server
 * is defined (user settings, a workspace's settings or mcp.json file), its configuration as written (a changed
 * command or URL is another server) and the model the request goes to (allowing a cheap model is not allowing an
 * expensive one). Pure, so it is tested in plain Node.
 */
import { createHash } from 'node:crypto';
import { configHash } from '../../manager/config';
import type { ConfigSource, ServerConfig } from '../../manager/types';

/** The parts of a configured server that identify it for consent. */
export interface ServerIdentity {
	name: string;
	source: ConfigSource;
	config: ServerConfig;
}

/**
 * A short stable key (sha-256, hex) for consent of `server` to sample with `modelId`. `name` is used alone only for a
 * client the Manager does not know (`server` undefined: a connection opened in code), in a key space of its own, so
 * it never matches a configured server's consent.
 */
export function samplingConsentKey(
	server: ServerIdentity | undefined,
	modelId: string,
	name = server?.name ?? '',
): string {
	const where = server
		? `${server.source.kind}\u0000${server.source.path ?? server.source.label}\u0000${configHash(server.config)}`
		: 'not-configured';
	return createHash('sha256').update(`${where}\u0000${name}\u0000${modelId}`).digest('hex').slice(0, 32);
}
