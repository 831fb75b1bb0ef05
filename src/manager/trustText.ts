/**
 * The text a trust question shows for a workspace-defined server, and the text its decision is keyed on: every
 * field that decides what runs or where data goes, exactly as written (variables such as `${input:…}` and
 * `${env:…}` unresolved). Keyed on the written text, so changing any of it, including a header template, an
 * environment value or the envFile path, asks again; shown unresolved, so no secret is evaluated or printed
 * before the user allowed the server. Pure: no I/O.
 */
import type { ServerConfig } from './types';

/** A value as written, quoted when it would otherwise read ambiguously (spaces, quotes, empty). */
function shown(value: string): string {
	return /^[^\s'"]+$/.test(value) ? value : JSON.stringify(value);
}

function quoteArg(arg: string): string {
	return /^[A-Za-z0-9_@%+=:,./${}-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** `KEY=value` pairs; a null value (mcp.json's way to remove an inherited variable) reads as removed. */
function pairs(values: Readonly<Record<string, string | null | undefined>>): string[] {
	return Object.entries(values).map(([key, value]) =>
		value === null || value === undefined ? `${key} (removed)` : `${key}=${shown(value)}`,
	);
}

/**
 * Every field of `config` (plus `envFile`, which is kept outside the config) as written, one per line: the
 * command line or URL, working folder, environment, environment file, header templates and OAuth client
 * settings. Settings that do not change what runs (timeout, disabled) are left out.
 */
export function describeAsWritten(config: ServerConfig, envFile?: string): string {
	const lines: string[] = [];
	if (config.type === 'stdio') {
		lines.push(`Command: ${[config.command, ...(config.args ?? [])].map(quoteArg).join(' ')}`);
		if (config.cwd !== undefined) lines.push(`Working folder: ${shown(config.cwd)}`);
		const env = pairs(config.env ?? {});
		if (env.length > 0) lines.push(`Environment: ${env.join(', ')}`);
		if (envFile !== undefined)
			lines.push(`Environment file: ${shown(envFile)} (its variables are added to the environment)`);
		return lines.join('\n');
	}
	lines.push(`URL (${config.type === 'sse' ? 'HTTP+SSE' : 'Streamable HTTP'}): ${config.url}`);
	for (const [name, value] of Object.entries(config.headers ?? {})) lines.push(`Header ${name}: ${shown(value)}`);
	if (config.oauth) {
		const { clientId, clientSecret, ...rest } = config.oauth as Record<string, unknown>;
		if (typeof clientId === 'string') lines.push(`OAuth client id: ${shown(clientId)}`);
		if (typeof clientSecret === 'string') lines.push(`OAuth client secret: ${shown(clientSecret)}`);
		const other = Object.entries(rest).filter(([, v]) => v !== undefined);
		if (other.length > 0)
			lines.push(
				`OAuth: ${other.map(([k, v]) => `${k}=${typeof v === 'string' ? shown(v) : JSON.stringify(v)}`).join(', ')}`,
			);
	}
	return lines.join('\n');
}
