/**
 * Resolves `${…}` variables in server configs: `${workspaceFolder}`, `${workspaceFolder:name}`, `${userHome}`,
 * `${env:NAME}`, `${pathSeparator}` (also `${/}`), and `${input:id}` through an asker supplied by the edge.
 * Pure: every value it needs comes in through {@link VariableContext}. Never throws on user input.
 */
import type { ServerConfig } from './types';

export interface VariableContext {
	/** The folder `${workspaceFolder}` means: the mcp.json's own folder, else the first workspace folder. */
	workspaceFolder?: string;
	/** Every workspace folder, for `${workspaceFolder:name}`. */
	workspaceFolders: readonly { name: string; path: string }[];
	userHome: string;
	/** The extension host's environment (process.env at the edge). */
	env: Readonly<Record<string, string | undefined>>;
	pathSeparator: string;
	/**
	 * Asks for (or recalls) the value of `${input:id}`; resolves undefined when the user cancels or the id is not
	 * defined. Absent: `${input:…}` is a problem.
	 */
	input?: (id: string) => Promise<string | undefined>;
}

const VARIABLE = /\$\{([^}]*)\}/g;

/**
 * Replaces every variable in `value`. An unknown variable, an undefined folder name or a cancelled input is a
 * problem naming `where`, and the result is undefined: a server must not start with a silently empty value.
 * An unset `${env:NAME}` resolves to an empty string (as in VS Code) but is reported, since it is often a typo.
 */
export async function resolveString(
	value: string,
	context: VariableContext,
	where: string,
): Promise<{ value: string | undefined; problems: string[] }> {
	if (!value.includes('${')) return { value, problems: [] };
	const problems: string[] = [];
	let failed = false;
	let out = '';
	let last = 0;
	for (const match of value.matchAll(VARIABLE)) {
		out += value.slice(last, match.index);
		last = match.index + match[0].length;
		const name = match[1]!;
		const replacement = await resolveOne(name, context, where, problems);
		if (replacement === undefined) failed = true;
		else out += replacement;
	}
	out += value.slice(last);
	return { value: failed ? undefined : out, problems };
}

async function resolveOne(
	name: string,
	context: VariableContext,
	where: string,
	problems: string[],
): Promise<string | undefined> {
	const colon = name.indexOf(':');
	const head = colon < 0 ? name : name.slice(0, colon);
	const arg = colon < 0 ? undefined : name.slice(colon + 1);
	switch (head) {
		case 'workspaceFolder':
			if (arg === undefined) {
				if (context.workspaceFolder === undefined)
					problems.push(`${where}: \${workspaceFolder} is used but no folder is open`);
				return context.workspaceFolder;
			} else {
				const folder = context.workspaceFolders.find((f) => f.name === arg);
				if (!folder)
					problems.push(
						`${where}: \${workspaceFolder:${arg}} names no open folder (open: ${context.workspaceFolders.map((f) => f.name).join(', ') || 'none'})`,
					);
				return folder?.path;
			}
		case 'userHome':
			return context.userHome;
		case 'pathSeparator':
		case '/':
			return context.pathSeparator;
		case 'env': {
			if (!arg) {
				problems.push(`${where}: \${env:} needs a variable name`);
				return undefined;
			}
			const found = context.env[arg];
			// VS Code resolves an unset variable to an empty string, as a shell does (its configurationResolver, issue
			// #46436): so do we, and say so, naming the variable and where it is used.
			if (found === undefined)
				problems.push(`${where}: environment variable ${arg} is not set (used as an empty value, as in VS Code)`);
			return found ?? '';
		}
		case 'input': {
			if (!arg) {
				problems.push(`${where}: \${input:} needs an input id`);
				return undefined;
			}
			if (!context.input) {
				problems.push(`${where}: \${input:${arg}} cannot be asked here`);
				return undefined;
			}
			const answer = await context.input(arg);
			if (answer === undefined)
				problems.push(
					`${where}: no value for \${input:${arg}} (not defined in "inputs", or the question was cancelled)`,
				);
			return answer;
		}
		default:
			problems.push(`${where}: unknown variable \${${name}}`);
			return undefined;
	}
}

/**
 * Resolves every string of a config (command, args, env values, cwd, url, header values, oauth fields).
 * `config` is undefined when a required field could not be resolved; problems name the server and the field.
 */
export async function resolveConfig(
	serverName: string,
	config: ServerConfig,
	context: VariableContext,
): Promise<{ config: ServerConfig | undefined; problems: string[] }> {
	const problems: string[] = [];
	let ok = true;
	const at = (field: string) => `Server '${serverName}': field "${field}"`;
	const one = async (value: string, field: string): Promise<string> => {
		const result = await resolveString(value, context, at(field));
		problems.push(...result.problems);
		if (result.value === undefined) ok = false;
		return result.value ?? '';
	};
	// A null (env only: remove the inherited variable) has nothing to resolve and stays null.
	const map = async <V extends string | null>(values: Record<string, V> | undefined, field: string) => {
		if (!values) return undefined;
		const out: Record<string, V> = {};
		for (const [key, value] of Object.entries(values))
			out[key] = (value === null ? value : await one(value, `${field}.${key}`)) as V;
		return out;
	};
	let resolved: ServerConfig;
	if (config.type === 'stdio') {
		resolved = { ...config, command: await one(config.command, 'command') };
		if (config.args) {
			const args: string[] = [];
			for (let i = 0; i < config.args.length; i++) args.push(await one(config.args[i]!, `args[${i}]`));
			resolved.args = args;
		}
		if (config.env) resolved.env = (await map(config.env, 'env'))!;
		if (config.cwd !== undefined) resolved.cwd = await one(config.cwd, 'cwd');
	} else {
		resolved = { ...config, url: await one(config.url, 'url') };
		if (config.headers) resolved.headers = (await map(config.headers, 'headers'))!;
		if (config.oauth) {
			const oauth = { ...config.oauth };
			if (oauth.clientId !== undefined) oauth.clientId = await one(oauth.clientId, 'oauth.clientId');
			if (oauth.clientSecret !== undefined) oauth.clientSecret = await one(oauth.clientSecret, 'oauth.clientSecret');
			if (oauth.privateKeyFile !== undefined)
				oauth.privateKeyFile = await one(oauth.privateKeyFile, 'oauth.privateKeyFile');
			if (oauth.assertion !== undefined) oauth.assertion = await one(oauth.assertion, 'oauth.assertion');
			if (oauth.enterprise) {
				const e = { ...oauth.enterprise };
				e.idpTokenEndpoint = await one(e.idpTokenEndpoint, 'oauth.enterprise.idpTokenEndpoint');
				e.idpClientId = await one(e.idpClientId, 'oauth.enterprise.idpClientId');
				e.idToken = await one(e.idToken, 'oauth.enterprise.idToken');
				if (e.idpClientSecret !== undefined)
					e.idpClientSecret = await one(e.idpClientSecret, 'oauth.enterprise.idpClientSecret');
				oauth.enterprise = e;
			}
			resolved.oauth = oauth;
		}
		if (ok && config.url.includes('${')) {
			try {
				const url = new URL(resolved.url);
				if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
			} catch {
				problems.push(
					`${at('url')}: resolved to ${JSON.stringify(resolved.url)}, which is not an http:// or https:// URL`,
				);
				ok = false;
			}
		}
	}
	return { config: ok ? resolved : undefined, problems };
}

/** The ids of every `${input:id}` a config uses, so the edge asks only for inputs actually needed. */
export function inputIds(config: ServerConfig): string[] {
	const ids = new Set<string>();
	for (const match of JSON.stringify(config).matchAll(/\$\{input:([^}]*)\}/g)) ids.add(match[1]!);
	return [...ids];
}
