/**
 * Writing server entries, without VS Code: the changes the one writer (src/vscode/serverWriter.ts) and the command
 * line make to a server list. For an mcp.json text they are JSONC edits (`jsonc.ts`) that keep the user's comments,
 * order and formatting and touch only the entry; for the `mcpSwitchboard.servers` setting (an object VS Code writes
 * with `WorkspaceConfiguration.update`) they return the new object. Add Server, Import, and the next sources
 * (installing from a registry, Disable, Remove) all write through these.
 */
import { editJsonc, parseJsonc, propertyRange } from './jsonc';

/** A server entry as written in settings or mcp.json (`{ type, command, args, … }` or `{ type, url, … }`). */
export type ServerEntryJson = Record<string, unknown>;

/** A change to a server list: add or replace entries, set or remove fields of one entry, or remove one entry. */
export type ServerListChange =
	| { kind: 'write'; entries: Readonly<Record<string, ServerEntryJson>> }
	| { kind: 'update'; name: string; patch: Readonly<Record<string, unknown>> }
	| { kind: 'remove'; name: string };

/** The key mcp.json keeps its servers under (VS Code's format; Claude Desktop and Cursor files use `mcpServers`). */
export const MCP_JSON_SERVERS = 'servers';
/** The key of Claude Code's project `.mcp.json`, Claude Desktop's and Cursor's files. */
export const MCP_SERVERS_KEY = 'mcpServers';

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The key a file keeps its servers under: `servers` (VS Code's format, and for a new file), or `mcpServers` when the
 * file has that and no `servers` (a project `.mcp.json`). The reader accepts both (config.ts); edits keep the file's.
 */
export function serversKey(text: string): string {
	if (text.trim() === '') return MCP_JSON_SERVERS;
	const parsed = parseJsonc(text);
	if (parsed.error !== undefined) throw new Error(`cannot edit a file that is not valid JSON: ${parsed.error}`);
	const value = parsed.value;
	return isObject(value) && !isObject(value[MCP_JSON_SERVERS]) && isObject(value[MCP_SERVERS_KEY])
		? MCP_SERVERS_KEY
		: MCP_JSON_SERVERS;
}

/** The servers object of an mcp.json text (empty when there is none); throws on text that is not valid JSONC. */
function mcpJsonServers(text: string, key: string): Record<string, unknown> {
	if (text.trim() === '') return {};
	const parsed = parseJsonc(text);
	if (parsed.error !== undefined) throw new Error(`cannot edit a file that is not valid JSON: ${parsed.error}`);
	const servers = isObject(parsed.value) ? parsed.value[key] : undefined;
	return isObject(servers) ? servers : {};
}

/**
 * Where server `name`'s entry is in a config file's text (offset and length of `"name": {…}`), for opening the file
 * at it: under `servers` or `mcpServers` in an mcp.json, or under `settingsPath` in a settings file
 * (`["mcpSwitchboard.servers"]` in a settings.json, `["settings", "mcpSwitchboard.servers"]` in a .code-workspace).
 * Undefined when the entry is not found.
 */
export function serverEntryRange(
	text: string,
	name: string,
	settingsPath?: readonly string[],
): { offset: number; length: number } | undefined {
	if (settingsPath !== undefined) return propertyRange(text, [...settingsPath, name]);
	return propertyRange(text, [MCP_JSON_SERVERS, name]) ?? propertyRange(text, [MCP_SERVERS_KEY, name]);
}

/** Why an update or removal cannot happen: the server is not in the list. */
function missing(name: string): Error {
	return new Error(`there is no server named '${name}' to change`);
}

/**
 * The mcp.json text after `change`, as JSONC edits: comments, order and formatting stay; only the entry (or its
 * fields) changes. An update or removal of a server that is not there throws (it must not create half an entry).
 */
export function changeMcpJson(text: string, change: ServerListChange): string {
	const key = serversKey(text);
	switch (change.kind) {
		case 'write': {
			let next = text;
			for (const [name, entry] of Object.entries(change.entries)) next = editJsonc(next, [key, name], entry);
			return next;
		}
		case 'update': {
			if (!isObject(mcpJsonServers(text, key)[change.name])) throw missing(change.name);
			let next = text;
			for (const [field, value] of Object.entries(change.patch))
				next = editJsonc(next, [key, change.name, field], value);
			return next;
		}
		case 'remove':
			if (!Object.hasOwn(mcpJsonServers(text, key), change.name)) throw missing(change.name);
			return editJsonc(text, [key, change.name], undefined);
	}
}

/**
 * The `mcpSwitchboard.servers` value after `change` (a new object; `current` is not modified), for
 * `WorkspaceConfiguration.update`. Same rules as {@link changeMcpJson}.
 */
export function changeServersSetting(
	current: Readonly<Record<string, unknown>> | undefined,
	change: ServerListChange,
): Record<string, unknown> {
	const next: Record<string, unknown> = Object.assign({}, current);
	switch (change.kind) {
		case 'write':
			return Object.assign(next, change.entries);
		case 'update': {
			const entry = next[change.name];
			if (!isObject(entry)) throw missing(change.name);
			const updated: Record<string, unknown> = Object.assign({}, entry);
			for (const [field, value] of Object.entries(change.patch)) {
				if (value === undefined) delete updated[field];
				else updated[field] = value;
			}
			next[change.name] = updated;
			return next;
		}
		case 'remove':
			if (!Object.hasOwn(next, change.name)) throw missing(change.name);
			delete next[change.name];
			return next;
	}
}

/**
 * The mcp.json text with `inputs` definitions added (an existing definition with the same id is replaced), as JSONC
 * edits like {@link changeMcpJson}: for the `${input:…}` of an entry written beside them.
 */
export function addMcpJsonInputs(text: string, inputs: readonly Readonly<Record<string, unknown>>[]): string {
	let next = text;
	for (const input of inputs) {
		const parsed = next.trim() === '' ? { value: {} } : parseJsonc(next);
		if (parsed.error !== undefined) throw new Error(`cannot edit a file that is not valid JSON: ${parsed.error}`);
		const current = isObject(parsed.value) && Array.isArray(parsed.value.inputs) ? parsed.value.inputs : [];
		const at = current.findIndex((item) => isObject(item) && item.id === input.id);
		next = editJsonc(next, ['inputs', at >= 0 ? at : current.length], input);
	}
	return next;
}

/** Input definitions merged by id: those of `added` replace those of `current` with the same id, the rest stay. */
export function mergeInputs<T extends Readonly<Record<string, unknown>>>(
	current: readonly T[],
	added: readonly T[],
): T[] {
	const ids = new Set(added.map((input) => input.id));
	return [...current.filter((input) => !ids.has(input.id)), ...added];
}
