/**
 * Install links, read without VS Code: `vscode://<publisher>.mcp-switchboard/install?name=<registry name>[&version=…]
 * [&registry=<url>]`, `…/install?config=<JSON>` (a server.json, or a server entry with a `name`), and VS Code's own
 * `vscode:mcp/install?<JSON>` payload (`{ "name": …, "command" | "url": …, … }`) pasted into Add Server. A link only
 * says what to install: the extension always shows what will run and asks before anything is written.
 */
import { errorMessage } from '../../common/errors';
import { extractSecrets } from '../importSecrets';
import { serverJsonProblems, type ServerJson } from './serverJson';
import { isRecord } from '../../common/records';

/** What a link asks to install. */
export type InstallRequest =
	| { kind: 'registry'; name: string; version?: string; registry?: string }
	| { kind: 'serverJson'; server: ServerJson }
	| { kind: 'entry'; name: string; entry: Record<string, unknown>; inputs?: Record<string, unknown>[] };

/** The fields a pasted or linked server entry may carry (anything else, e.g. `cwd` or `envFile`, is refused). */
const ENTRY_FIELDS = new Set(['type', 'command', 'args', 'env', 'url', 'headers']);

/** A JSON config from a link: a server.json (has `packages` or `remotes`) or a server entry with a `name`. */
export function requestFromConfig(json: unknown): InstallRequest {
	if (!isRecord(json)) throw new Error("the link's configuration is not a JSON object");
	if (Array.isArray(json.packages) || Array.isArray(json.remotes)) {
		const checked = serverJsonProblems(json);
		if (!checked.ok) throw new Error(`the link's server.json is not valid: ${checked.problem}`);
		return { kind: 'serverJson', server: checked.server };
	}
	const name = typeof json.name === 'string' ? json.name.trim() : '';
	if (!name) throw new Error('the link\'s server has no "name"');
	if (typeof json.command !== 'string' && typeof json.url !== 'string')
		throw new Error(`the link's server '${name}' has neither "command" nor "url"`);
	const entry: Record<string, unknown> = {};
	const inputs = linkInputs(json.inputs, name);
	for (const [key, value] of Object.entries(json)) {
		if (key === 'name' || key === 'gallery' || key === 'version' || key === 'inputs') continue;
		if (!ENTRY_FIELDS.has(key))
			throw new Error(`the link's server '${name}' has a field this does not install: "${key}"`);
		entry[key] = value;
	}
	return inputs.length > 0 ? { kind: 'entry', name, entry, inputs } : { kind: 'entry', name, entry };
}

/** VS Code's payload may define the inputs its `${input:…}` use (`promptString`/`pickString` with an `id`). */
function linkInputs(value: unknown, name: string): Record<string, unknown>[] {
	if (value === undefined) return [];
	const inputs = Array.isArray(value) ? value : [value];
	return inputs.map((input) => {
		if (!isRecord(input) || typeof input.id !== 'string' || !/^(promptString|pickString)$/.test(String(input.type)))
			throw new Error(`the link's server '${name}' has an input that is not a promptString or pickString with an id`);
		return input;
	});
}

/** A linked entry made safe to write: secret values moved out, each to be kept in SecretStorage. */
export interface SecuredEntry {
	/** The entry with each secret value replaced by `${input:<id>}`. */
	entry: Record<string, unknown>;
	/** The input definitions to write: the link's own, then a password input per secret moved out. */
	inputs: Record<string, unknown>[];
	/** The values for SecretStorage, under their input ids. */
	secrets: { id: string; value: string }[];
}

/**
 * The entry of a link with its secret-looking `env`/`headers` values (the rule Import uses) replaced by
 * `${input:…}` password inputs, so no token from a link is written in plain text to a settings or mcp.json file.
 * Every other value stays as the link wrote it.
 */
export function secureLinkedEntry(
	name: string,
	entry: Record<string, unknown>,
	linkInputs: readonly Record<string, unknown>[] = [],
): SecuredEntry {
	const extracted = extractSecrets(name, entry);
	const moved = extracted.secrets.map((secret) => ({
		type: 'promptString',
		id: secret.id,
		description: `${secret.field} for the MCP server '${name}' (from an install link; kept in VS Code's secret storage)`,
		password: true,
	}));
	const ids = new Set(moved.map((input) => input.id));
	return {
		entry: extracted.entry,
		inputs: [...linkInputs.filter((input) => !ids.has(input.id as string)), ...moved],
		secrets: extracted.secrets.map(({ id, value }) => ({ id, value })),
	};
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch (error) {
		throw new Error(`the link's configuration is not valid JSON (${errorMessage(error)})`, { cause: error });
	}
}

/** The request of an `/install` URI's query (already decoded by the URI's parser, so `+` is a plus). */
export function requestFromQuery(query: string): InstallRequest {
	const params = new URLSearchParams(query);
	const config = params.get('config');
	if (config !== null) return requestFromConfig(parseJson(config));
	const name = params.get('name')?.trim();
	if (!name) throw new Error('the install link names no server (?name=… or ?config=…)');
	const request: InstallRequest = { kind: 'registry', name };
	const version = params.get('version')?.trim();
	if (version) request.version = version;
	const registry = params.get('registry')?.trim();
	if (registry) request.registry = registry;
	return request;
}

/** VS Code's `vscode:mcp/install?{json}` (or `vscode-insiders:`) text, as pasted; undefined when it is not one. */
export function requestFromVsCodeLink(text: string): InstallRequest | undefined {
	const match = /^\s*vscode(?:-insiders)?:(?:\/\/)?mcp\/install\?(.+?)\s*$/s.exec(text);
	if (!match) return undefined;
	const payload = match[1] as string;
	let decoded = payload;
	try {
		decoded = decodeURIComponent(payload);
	} catch {
		// Not percent-encoded: read as written.
	}
	return requestFromConfig(parseJson(decoded));
}
