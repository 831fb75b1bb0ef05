/**
 * Qualified tool names `mcp__<server>__<tool>`: what language models and the chat see. Model APIs accept only
 * `[A-Za-z0-9_-]` and at most 64 characters, so names are sanitised and, when too long or colliding, shortened
 * with a short stable hash of the original server and tool names. Unique across all servers, with reverse lookup.
 */
import { createHash } from 'node:crypto';

/** The longest name model APIs accept. */
export const MAX_TOOL_NAME_LENGTH = 64;
const HASH_LENGTH = 6;

/** Replaces every character outside `[A-Za-z0-9_-]` with `_`. */
export function sanitizeName(name: string): string {
	return name.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** A short stable hash (base-36 of sha-1) of some strings. */
export function shortHash(...parts: string[]): string {
	const digest = createHash('sha1').update(parts.join('\u0000')).digest();
	return (digest.readUInt32BE(0) * 4 + (digest[4]! >> 6)).toString(36).padStart(HASH_LENGTH, '0').slice(-HASH_LENGTH);
}

/**
 * The qualified name for a tool, without cross-server uniqueness: sanitised, and when longer than 64 characters
 * cut to fit with `_<hash>` of the original names appended (so two long names that share a prefix stay distinct).
 */
export function qualifyToolName(serverPart: string, tool: string, server = serverPart): string {
	const full = `mcp__${serverPart}__${sanitizeName(tool)}`;
	if (full.length <= MAX_TOOL_NAME_LENGTH) return full;
	return `${full.slice(0, MAX_TOOL_NAME_LENGTH - HASH_LENGTH - 1)}_${shortHash(server, tool)}`;
}

/**
 * Assigns unique qualified names. Server prefixes are assigned once per set of servers (two names that sanitise
 * alike, like "my server" and "my_server", get a hash suffix, in configuration order), so a server's tool names do
 * not depend on other servers' tools. Updating one server's tools costs time linear in its tool count.
 */
export class ToolNameRegistry<T = unknown> {
	private prefixes = new Map<string, string>();
	private readonly byServer = new Map<string, Map<string, { qualifiedName: string; value: T }>>();
	private readonly byQualified = new Map<string, { server: string; tool: string; value: T }>();

	/**
	 * Sets the servers (in configuration order) and forgets the tools of servers no longer present. Returns true
	 * when a remaining server's prefix changed: the caller then sets those servers' tools again.
	 */
	setServers(servers: readonly string[]): boolean {
		const prefixes = new Map<string, string>();
		const used = new Set<string>();
		for (const server of servers) {
			let prefix = sanitizeName(server);
			// Keep room for a tool name: a server prefix longer than 24 characters is shortened with a hash.
			if (prefix.length > 24) prefix = `${prefix.slice(0, 24 - HASH_LENGTH - 1)}_${shortHash(server)}`;
			if (used.has(prefix) || prefix.includes('__'))
				prefix = `${prefix.replace(/__+/g, '_').slice(0, 24 - HASH_LENGTH - 1)}_${shortHash(server)}`;
			used.add(prefix);
			prefixes.set(server, prefix);
		}
		const changed = [...prefixes].some(([s, p]) => this.prefixes.get(s) !== p) || this.prefixes.size !== prefixes.size;
		this.prefixes = prefixes;
		for (const server of [...this.byServer.keys()]) {
			if (!prefixes.has(server)) this.clear(server);
		}
		return changed;
	}

	/** Forgets one server's tools. */
	clear(server: string): void {
		const old = this.byServer.get(server);
		if (old) for (const entry of old.values()) this.byQualified.delete(entry.qualifiedName);
		this.byServer.delete(server);
	}

	/**
	 * Replaces one server's tools. `make` builds the stored value from each item and its qualified name;
	 * returns the values in the same order.
	 */
	setTools<I extends { name: string }>(
		server: string,
		tools: readonly I[],
		make: (item: I, qualifiedName: string) => T,
	): T[] {
		this.clear(server);
		if (tools.length === 0) return [];
		const prefix = this.prefixes.get(server) ?? sanitizeName(server);
		const entries = new Map<string, { qualifiedName: string; value: T }>();
		const values: T[] = [];
		for (const item of tools) {
			const name = item.name;
			let qualified = qualifyToolName(prefix, name, server);
			if (this.byQualified.has(qualified)) {
				// Two tools that sanitise alike ("a.b" and "a_b"): the later one gets a hash of its original name.
				const base = qualified.slice(0, MAX_TOOL_NAME_LENGTH - HASH_LENGTH - 1);
				qualified = `${base}_${shortHash(server, name)}`;
				for (let i = 2; this.byQualified.has(qualified); i++)
					qualified = `${base}_${shortHash(server, name, String(i))}`;
			}
			const value = make(item, qualified);
			entries.set(name, { qualifiedName: qualified, value });
			this.byQualified.set(qualified, { server, tool: name, value });
			values.push(value);
		}
		this.byServer.set(server, entries);
		return values;
	}

	/** Reverse lookup: the server and original tool name of a qualified name. */
	lookup(qualifiedName: string): { server: string; tool: string; value: T } | undefined {
		return this.byQualified.get(qualifiedName);
	}

	/** The qualified name of one tool, when known. */
	qualifiedName(server: string, tool: string): string | undefined {
		return this.byServer.get(server)?.get(tool)?.qualifiedName;
	}

	get size(): number {
		return this.byQualified.size;
	}
}
