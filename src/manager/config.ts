/**
 * Server configuration: parsing the `mcpSwitchboard.servers` setting and VS Code's `.vscode/mcp.json` format into
 * typed entries, merging them by priority, importing Claude Desktop / Cursor `mcpServers` files, and hashing a
 * resolved config so the Manager restarts only what changed. Pure functions; nothing here throws on user input.
 */
import { parseDevConfig } from './devMode';
import { parseOAuthConfig } from './oauthConfig';
import { sha256Hex } from '../common/sha256';
import { parseJsonc } from './jsonc';
import type { ConfigSource, ServerConfig } from './types';
import { ALL_PROTOCOL_VERSIONS } from '../protocol/protocolConstants';
import { isRecord } from '../common/records';

/**
 * One configured server before variables are resolved: strings may still hold `${…}` references.
 * `envFile` is kept apart because it is read (and merged under `env`) at resolution time.
 */
export interface ServerEntry {
	name: string;
	config: ServerConfig;
	/** A dotenv file whose variables are added to `env` (values in `env` win). */
	envFile?: string;
	source: ConfigSource;
	/** True for workspace settings and mcp.json files: these need the user's trust before they start. */
	workspaceDefined: boolean;
}

/** An `inputs` entry of mcp.json (VS Code's format): a value asked from the user for `${input:id}`. */
export type InputDefinition =
	| { type: 'promptString'; id: string; description?: string; default?: string; password?: boolean }
	| { type: 'pickString'; id: string; description?: string; options: string[]; default?: string };

export interface ParseResult {
	servers: ServerEntry[];
	/** One line per problem, each naming the server (or input) and the field. */
	problems: string[];
}

/** Accepted spellings of `type`; everything maps onto the three transports the client speaks. */
const TYPE_ALIASES: Record<string, ServerConfig['type']> = {
	stdio: 'stdio',
	http: 'http',
	streamableHttp: 'http',
	'streamable-http': 'http',
	streamablehttp: 'http',
	sse: 'sse',
};

/** Fields a server entry may have; anything else is reported (a typo like `comand` should not pass silently). */
const KNOWN_FIELDS = new Set([
	'type',
	'command',
	'args',
	'env',
	'envFile',
	'cwd',
	'url',
	'headers',
	'disabled',
	'timeoutMs',
	'oauth',
	'protocolVersion',
	'autoStart',
	'dev',
	'gallery',
	'description',
	'registry',
]);

function describe(value: unknown): string {
	// A missing field: `typeof` + JSON.stringify would say "undefined undefined".
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}

/**
 * A string → string map; non-string values (numbers, booleans) are converted, others reported. With `allowNull`
 * (the `env` field) a `null` is kept: in VS Code's mcp.json format it removes a variable the process would inherit.
 */
function stringMap(value: unknown, where: string, problems: string[]): Record<string, string> | undefined;
function stringMap(
	value: unknown,
	where: string,
	problems: string[],
	allowNull: true,
): Record<string, string | null> | undefined;
function stringMap(
	value: unknown,
	where: string,
	problems: string[],
	allowNull = false,
): Record<string, string | null> | undefined {
	if (value === undefined || value === null) return undefined;
	if (!isRecord(value)) {
		problems.push(`${where}: expected an object of strings, got ${describe(value)}`);
		return undefined;
	}
	const out: Record<string, string | null> = {};
	for (const [key, item] of Object.entries(value)) {
		if (typeof item === 'string') out[key] = item;
		else if (typeof item === 'number' || typeof item === 'boolean') out[key] = String(item);
		else if (item === null) {
			if (allowNull) out[key] = null; // elsewhere (headers) a null means nothing and is left out, as before
		} else
			problems.push(
				`${where}.${key}: expected a string${allowNull ? ' or null (to remove the variable)' : ''}, got ${describe(item)}`,
			);
	}
	return out;
}

/**
 * Parses one server entry. Returns undefined (with problems) when the entry cannot be started at all;
 * a problem in an optional field drops only that field.
 */
export function parseServer(
	name: string,
	raw: unknown,
	source: ConfigSource,
	workspaceDefined: boolean,
	problems: string[],
): ServerEntry | undefined {
	const at = `Server '${name}' (${source.label})`;
	if (!name.trim()) {
		problems.push(`A server in ${source.label} has an empty name; it was skipped`);
		return undefined;
	}
	if (!isRecord(raw)) {
		problems.push(`${at}: expected an object with "command" or "url", got ${describe(raw)}`);
		return undefined;
	}
	for (const key of Object.keys(raw)) {
		if (!KNOWN_FIELDS.has(key)) problems.push(`${at}: unknown field "${key}" was ignored`);
	}

	let type: ServerConfig['type'] | undefined;
	if (raw.type !== undefined) {
		type = typeof raw.type === 'string' ? (TYPE_ALIASES[raw.type] ?? TYPE_ALIASES[raw.type.toLowerCase()]) : undefined;
		if (!type) {
			problems.push(`${at}: field "type" must be "stdio", "http" or "sse" (got ${describe(raw.type)})`);
			return undefined;
		}
	} else if (raw.command !== undefined) {
		type = 'stdio';
	} else if (raw.url !== undefined) {
		type = 'http';
	} else {
		problems.push(`${at}: needs "command" (a local server) or "url" (a remote server)`);
		return undefined;
	}

	let timeoutMs: number | undefined;
	if (raw.timeoutMs !== undefined) {
		if (typeof raw.timeoutMs === 'number' && Number.isFinite(raw.timeoutMs) && raw.timeoutMs > 0)
			timeoutMs = raw.timeoutMs;
		else
			problems.push(
				`${at}: field "timeoutMs" must be a positive number of milliseconds (got ${describe(raw.timeoutMs)}); the default is used`,
			);
	}
	let disabled: boolean | undefined;
	if (raw.disabled !== undefined) {
		if (typeof raw.disabled === 'boolean') disabled = raw.disabled;
		else problems.push(`${at}: field "disabled" must be true or false (got ${describe(raw.disabled)})`);
	}

	// "auto" (the default) detects the era; a version pins it (see McpClient's protocolVersion option).
	let protocolVersion: string | undefined;
	if (raw.protocolVersion !== undefined && raw.protocolVersion !== 'auto') {
		if (typeof raw.protocolVersion === 'string' && ALL_PROTOCOL_VERSIONS.includes(raw.protocolVersion))
			protocolVersion = raw.protocolVersion;
		else
			problems.push(
				`${at}: field "protocolVersion" must be "auto" or one of ${ALL_PROTOCOL_VERSIONS.join(', ')} (got ${describe(raw.protocolVersion)}); the version is detected instead`,
			);
	}

	let config: ServerConfig;
	let envFile: string | undefined;
	if (type === 'stdio') {
		const stdio = parseStdioServer(raw, at, problems);
		if (!stdio) return undefined;
		({ config, envFile } = stdio);
	} else {
		const remote = parseRemoteServer(raw, type, at, problems);
		if (!remote) return undefined;
		config = remote;
	}
	if (timeoutMs !== undefined) config.timeoutMs = timeoutMs;
	if (disabled !== undefined) config.disabled = disabled;
	if (protocolVersion !== undefined) config.protocolVersion = protocolVersion;
	if (raw.autoStart !== undefined) {
		if (typeof raw.autoStart === 'boolean') config.autoStart = raw.autoStart;
		else problems.push(`${at}: field "autoStart" must be true or false (got ${describe(raw.autoStart)})`);
	}
	if (raw.dev !== undefined) {
		const dev = parseDevConfig(raw.dev, at, type === 'stdio', problems);
		if (dev) config.dev = dev;
	}
	const entry: ServerEntry = { name, config, source, workspaceDefined };
	if (envFile !== undefined) entry.envFile = envFile;
	return entry;
}

/** The fields of a local (stdio) server entry; undefined (with a problem) when it has no usable command. */
function parseStdioServer(
	raw: Record<string, unknown>,
	at: string,
	problems: string[],
): { config: ServerConfig; envFile: string | undefined } | undefined {
	if (typeof raw.command !== 'string' || !raw.command.trim()) {
		problems.push(`${at}: field "command" must be a non-empty string (got ${describe(raw.command)})`);
		return undefined;
	}
	let args: string[] | undefined;
	if (raw.args !== undefined) {
		if (Array.isArray(raw.args)) {
			args = [];
			raw.args.forEach((arg, i) => {
				if (typeof arg === 'string') args!.push(arg);
				else if (typeof arg === 'number' || typeof arg === 'boolean') args!.push(String(arg));
				else problems.push(`${at}: field "args[${i}]" must be a string (got ${describe(arg)}); it was left out`);
			});
		} else {
			problems.push(
				`${at}: field "args" must be an array of strings (got ${describe(raw.args)}); no arguments are passed`,
			);
		}
	}
	const env = stringMap(raw.env, `${at}: field "env"`, problems, true);
	let cwd: string | undefined;
	if (raw.cwd !== undefined) {
		if (typeof raw.cwd === 'string') cwd = raw.cwd;
		else problems.push(`${at}: field "cwd" must be a string (got ${describe(raw.cwd)})`);
	}
	let envFile: string | undefined;
	if (raw.envFile !== undefined) {
		if (typeof raw.envFile === 'string') envFile = raw.envFile;
		else problems.push(`${at}: field "envFile" must be a path (got ${describe(raw.envFile)})`);
	}
	if (raw.url !== undefined) problems.push(`${at}: field "url" is ignored for a stdio server`);
	const config: ServerConfig = { type: 'stdio', command: raw.command };
	if (args) config.args = args;
	if (env) config.env = env;
	if (cwd !== undefined) config.cwd = cwd;
	return { config, envFile };
}

/** The fields of a remote (http or sse) server entry; undefined (with a problem) when it has no usable URL. */
function parseRemoteServer(
	raw: Record<string, unknown>,
	type: 'http' | 'sse',
	at: string,
	problems: string[],
): ServerConfig | undefined {
	if (typeof raw.url !== 'string' || !raw.url.trim()) {
		problems.push(`${at}: field "url" must be a non-empty string (got ${describe(raw.url)})`);
		return undefined;
	}
	// Validate only URLs without variables; `${input:host}` etc. are checked after resolution.
	if (!raw.url.includes('${')) {
		let parsed: URL | undefined;
		try {
			parsed = new URL(raw.url);
		} catch {
			parsed = undefined;
		}
		if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
			problems.push(`${at}: field "url" must be an http:// or https:// URL (got ${JSON.stringify(raw.url)})`);
			return undefined;
		}
	}
	const headers = stringMap(raw.headers, `${at}: field "headers"`, problems);
	if (raw.command !== undefined) problems.push(`${at}: field "command" is ignored for a remote (${type}) server`);
	const remote: Extract<ServerConfig, { type: 'http' | 'sse' }> = { type, url: raw.url };
	if (headers) remote.headers = headers;
	if (raw.oauth !== undefined) {
		const oauth = parseOAuthConfig(raw.oauth, at, problems);
		if (oauth) remote.oauth = oauth;
	}
	return remote;
}

/**
 * Parses the `mcpSwitchboard.servers` setting (an object keyed by server name) from one scope.
 * Never throws: a value of the wrong shape gives a problem and no servers; one bad entry never stops the others.
 */
export function parse(raw: unknown, source: ConfigSource): ParseResult {
	const problems: string[] = [];
	const servers: ServerEntry[] = [];
	if (raw === undefined || raw === null) return { servers, problems };
	if (!isRecord(raw)) {
		problems.push(
			`${source.label}: "mcpSwitchboard.servers" must be an object keyed by server name (got ${describe(raw)})`,
		);
		return { servers, problems };
	}
	const workspaceDefined = source.kind === 'workspace' || source.kind === 'mcpJson';
	for (const [name, entry] of Object.entries(raw)) {
		const server = parseServer(name, entry, source, workspaceDefined, problems);
		if (server) servers.push(server);
	}
	return { servers, problems };
}

/** Parses the `inputs` array of an mcp.json file. */
export function parseInputs(raw: unknown, sourceLabel: string): { inputs: InputDefinition[]; problems: string[] } {
	const inputs: InputDefinition[] = [];
	const problems: string[] = [];
	if (raw === undefined || raw === null) return { inputs, problems };
	if (!Array.isArray(raw)) {
		problems.push(`${sourceLabel}: "inputs" must be an array (got ${describe(raw)})`);
		return { inputs, problems };
	}
	raw.forEach((item, i) => {
		const at = `${sourceLabel}: inputs[${i}]`;
		if (!isRecord(item) || typeof item.id !== 'string' || !item.id) {
			problems.push(`${at}: needs a string "id"`);
			return;
		}
		const description = typeof item.description === 'string' ? item.description : undefined;
		const dflt = typeof item.default === 'string' ? item.default : undefined;
		if (item.type === 'promptString') {
			const input: InputDefinition = { type: 'promptString', id: item.id };
			if (description !== undefined) input.description = description;
			if (dflt !== undefined) input.default = dflt;
			if (item.password === true) input.password = true;
			inputs.push(input);
		} else if (item.type === 'pickString') {
			const options = Array.isArray(item.options)
				? item.options
						.map((o) => (typeof o === 'string' ? o : isRecord(o) && typeof o.value === 'string' ? o.value : undefined))
						.filter((o): o is string => o !== undefined)
				: [];
			if (options.length === 0) {
				problems.push(`Input '${item.id}' (${sourceLabel}): a pickString needs a non-empty "options" array`);
				return;
			}
			const input: InputDefinition = { type: 'pickString', id: item.id, options };
			if (description !== undefined) input.description = description;
			if (dflt !== undefined) input.default = dflt;
			inputs.push(input);
		} else {
			problems.push(
				`Input '${item.id}' (${sourceLabel}): field "type" must be "promptString" or "pickString" (got ${describe(item.type)})`,
			);
		}
	});
	return { inputs, problems };
}

/**
 * Parses a `.vscode/mcp.json` file's text (VS Code's format: `{ "servers": {…}, "inputs": […] }`). Comments and
 * trailing commas are accepted, as VS Code does. Never throws: invalid JSON gives one problem.
 */
export function parseMcpJson(
	text: string,
	source: ConfigSource,
): ParseResult & { inputs: InputDefinition[]; unreadable?: true } {
	const parsed = parseJsonc(text);
	if (parsed.error !== undefined)
		return {
			servers: [],
			inputs: [],
			problems: [`${source.label}: not valid JSON: ${parsed.error}`],
			unreadable: true,
		};
	const raw = parsed.value;
	if (!isRecord(raw))
		return {
			servers: [],
			inputs: [],
			problems: [`${source.label}: expected an object with "servers"`],
			unreadable: true,
		};
	// Some people paste a Claude/Cursor file here: accept its `mcpServers` key too.
	const serversRaw = raw.servers ?? raw.mcpServers;
	const result = serversRaw === undefined ? { servers: [], problems: [] } : parse(serversRaw, source);
	const inputs = parseInputs(raw.inputs, source.label);
	return { servers: result.servers, inputs: inputs.inputs, problems: [...result.problems, ...inputs.problems] };
}

/**
 * Merges server lists in priority order: the first list that names a server wins, and the losers are
 * reported as information (so a user sees why their mcp.json entry is not the one running).
 */
export function mergeServers(lists: readonly (readonly ServerEntry[])[]): {
	servers: ServerEntry[];
	problems: string[];
} {
	const byName = new Map<string, ServerEntry>();
	const problems: string[] = [];
	for (const list of lists) {
		for (const server of list) {
			const existing = byName.get(server.name);
			if (existing) {
				if (existing.source.label !== server.source.label) {
					problems.push(
						`Server '${server.name}' in ${server.source.label} is overridden by the one in ${existing.source.label}`,
					);
				}
				continue;
			}
			byName.set(server.name, server);
		}
	}
	return { servers: [...byName.values()], problems };
}

/**
 * Converts a Claude Desktop (`claude_desktop_config.json`) or Cursor (`.cursor/mcp.json`) file into entries for
 * the `mcpSwitchboard.servers` setting. Both use `{ "mcpServers": { name: { command, args, env } | { url, headers } } }`.
 * Returns plain JSON objects ready to write; entries that cannot be parsed are reported and left out.
 */
export function importMcpServers(
	text: string,
	label: string,
): { servers: Record<string, Record<string, unknown>>; problems: string[] } {
	const parsed = parseJsonc(text);
	if (parsed.error !== undefined) return { servers: {}, problems: [`${label}: not valid JSON: ${parsed.error}`] };
	const raw = parsed.value;
	const table = isRecord(raw) ? (raw.mcpServers ?? raw.servers) : undefined;
	if (!isRecord(table)) return { servers: {}, problems: [`${label}: no "mcpServers" object found`] };
	const problems: string[] = [];
	const servers: Record<string, Record<string, unknown>> = {};
	const source: ConfigSource = { kind: 'api', label };
	for (const [name, entry] of Object.entries(table)) {
		const parsed = parseServer(name, normaliseImported(entry), source, false, problems);
		if (!parsed) continue;
		const out: Record<string, unknown> = { ...parsed.config };
		if (parsed.envFile !== undefined) out.envFile = parsed.envFile;
		servers[name] = out;
	}
	return { servers, problems };
}

/** Cursor and others use `serverUrl` / `transport` in places; map them onto our fields. */
function normaliseImported(entry: unknown): unknown {
	if (!isRecord(entry)) return entry;
	const copy: Record<string, unknown> = { ...entry };
	if (copy.url === undefined && typeof copy.serverUrl === 'string') copy.url = copy.serverUrl;
	delete copy.serverUrl;
	if (copy.type === undefined && typeof copy.transport === 'string') copy.type = copy.transport;
	delete copy.transport;
	return copy;
}

/** JSON with object keys sorted, so equal configs hash equally whatever the key order in the file. */
export function canonicalJson(value: unknown): string {
	// Built by concatenation, not arrays joined: activation runs this for every configured server.
	if (Array.isArray(value)) {
		let text = '[';
		for (let i = 0; i < value.length; i++) text += (i === 0 ? '' : ',') + canonicalJson(value[i]);
		return `${text}]`;
	}
	if (isRecord(value)) {
		let text = '{';
		for (const key of sortedKeys(value)) {
			const field = value[key];
			if (field === undefined) continue;
			text += (text.length === 1 ? '' : ',') + JSON.stringify(key) + ':' + canonicalJson(field);
		}
		return `${text}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/**
 * The keys of `value` in the order Array#sort gives strings (by UTF-16 code units). A config has a handful of keys,
 * and Array#sort allocates about a kilobyte of work space per call; an insertion sort in place allocates nothing.
 */
function sortedKeys(value: object): string[] {
	const keys = Object.keys(value);
	if (keys.length > 16) return keys.sort();
	for (let i = 1; i < keys.length; i++) {
		const key = keys[i]!;
		let j = i - 1;
		for (; j >= 0 && keys[j]! > key; j--) keys[j + 1] = keys[j]!;
		keys[j + 1] = key;
	}
	return keys;
}

/**
 * A short hash of a resolved config (sha-256, hex, 16 chars): the Manager restarts a server only when it changes.
 * `autoStart` is left out: when a server starts is not who it is, so changing it keeps its consent, pins and cache.
 */
export function configHash(config: ServerConfig): string {
	const { autoStart: _when, ...what } = config;
	return sha256Hex(canonicalJson(what)).slice(0, 16);
}

/**
 * Exactly what will run, for the trust prompt: the command line (or URL), working folder and environment
 * variables (names and values; the user is deciding whether to run this). Headers are listed by name only,
 * since they usually carry credentials.
 */
export function describeLaunch(config: ServerConfig): string {
	if (config.type === 'stdio') {
		const lines = [`Command: ${[config.command, ...(config.args ?? [])].map(quoteArg).join(' ')}`];
		if (config.cwd) lines.push(`Working folder: ${config.cwd}`);
		const env = Object.entries(config.env ?? {});
		if (env.length > 0) lines.push(`Environment: ${env.map(([k, v]) => `${k}=${v}`).join(', ')}`);
		return lines.join('\n');
	}
	const lines = [`URL (${config.type === 'sse' ? 'HTTP+SSE' : 'Streamable HTTP'}): ${config.url}`];
	const headers = Object.keys(config.headers ?? {});
	if (headers.length > 0) lines.push(`Headers: ${headers.join(', ')}`);
	return lines.join('\n');
}

function quoteArg(arg: string): string {
	return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * Parses a dotenv file (`KEY=value`, `export KEY=value`, `#` comments, single or double quotes, `\n` in double
 * quotes). Lines that are not assignments are reported by number.
 */
export function parseDotenv(text: string, label: string): { env: Record<string, string>; problems: string[] } {
	const env: Record<string, string> = {};
	const problems: string[] = [];
	text.split(/\r?\n/).forEach((line, index) => {
		const trimmed = line.trim();
		if (!trimmed || trimmed.startsWith('#')) return;
		const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(trimmed);
		if (!match) {
			problems.push(`${label}:${index + 1}: not a KEY=value line`);
			return;
		}
		let value = match[2]!;
		if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
			value = value.slice(1, -1).replace(/\\n/g, '\n').replace(/\\"/g, '"');
		} else if (value.startsWith("'") && value.endsWith("'") && value.length >= 2) {
			value = value.slice(1, -1);
		} else {
			value = value.replace(/\s+#.*$/, '');
		}
		env[match[1]!] = value;
	});
	return { env, problems };
}
