/**
 * Who a server is, for anything remembered about it (tool consent, pinned tool definitions): where it is defined
 * (user settings, a workspace's settings or an mcp.json file) and its configuration, never its name alone. A
 * repository can define its own server called `github`; it must not inherit what the user allowed or approved for
 * theirs, and a changed command or URL is another server. Pure, so it is tested in plain Node.
 */
import { sha256Hex } from '../common/sha256';
import { configHash } from './config';
import type { ConfigSource, ResolvedServer, ServerConfig } from './types';

/** The parts of a configured server that identify it. */
export interface ServerIdentityParts {
	name: string;
	source: ConfigSource;
	config: ServerConfig;
}

/** A short stable key (sha-256, hex, 24 chars) for `server`: its name, where it is defined and its configuration. */
export function serverIdentity(server: ServerIdentityParts): string {
	const where = `${server.source.kind}\u0000${server.source.path ?? server.source.label}`;
	return sha256Hex(`${where}\u0000${configHash(server.config)}\u0000${server.name}`).slice(0, 24);
}

/**
 * The hash that decides whether a reconcile restarts a server: the config plus its trust scope, and the trust text
 * when there is one (it also covers fields outside the config, such as `envFile`).
 */
export function serverHash(server: ResolvedServer): string {
	const trust = server.trustText === undefined ? '' : sha256Hex(server.trustText).slice(0, 8);
	return `${configHash(server.config)}${server.workspaceDefined ? 'w' : 'u'}${trust}`;
}
