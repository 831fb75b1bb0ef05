/**
 * The pure half of Import Servers: what an imported entry will run, in one line per field for the pick, and its
 * secrets taken out. Claude Desktop and Cursor files hold tokens in plain text (`env`, `headers`); copied into
 * settings.json they would be uploaded by Settings Sync. Each secret value becomes `${input:id}` in the entry,
 * with a password input definition (for `mcpSwitchboard.inputs`), and the value goes to SecretStorage under that id.
 * No `vscode` here, so it is unit tested in plain Node.
 */
import { textOf } from '../common/text';

/** A value moved out of the entry: `id` is the `${input:id}` now in its place. */
export interface ExtractedSecret {
	id: string;
	/** Where it was, e.g. `env.GITHUB_TOKEN` or `headers.Authorization`. */
	field: string;
	value: string;
	description: string;
}

/** Names that hold credentials (env variables and HTTP headers). */
const SECRET_NAME =
	/(token|secret|passw(or)?d|passwd|api[-_]?key|access[-_]?key|private[-_]?key|credential|auth|cookie|session|bearer|pat$)/i;
/** Values shaped like well-known credentials, whatever their name. */
const SECRET_VALUE =
	/^(bearer\s+\S{8,}|basic\s+\S{8,}|sk-[\w-]{16,}|gh[pousr]_\w{20,}|github_pat_\w{20,}|glpat-[\w-]{16,}|xox[abprs]-[\w-]{10,}|AKIA[0-9A-Z]{16}|AIza[\w-]{30,}|eyJ[\w-]+\.[\w-]+\.[\w-]+)$/i;

/** Whether `value` (under `name`) is a credential that must not be written to settings. */
export function looksSecret(name: string, value: string): boolean {
	if (value.trim() === '' || /^\$\{[^}]+\}$/.test(value.trim())) return false; // Empty, or already a variable.
	return SECRET_NAME.test(name) || SECRET_VALUE.test(value.trim());
}

function inputId(server: string, field: string): string {
	return `${server}.${field}`.replace(/[^A-Za-z0-9_.-]+/g, '_');
}

/**
 * Replaces every secret string in the entry's `env` and `headers` with `${input:<server>.<field>}`. Returns the new
 * entry (the input is not changed) and the secrets taken out.
 */
export function extractSecrets(
	server: string,
	entry: Record<string, unknown>,
): { entry: Record<string, unknown>; secrets: ExtractedSecret[] } {
	const secrets: ExtractedSecret[] = [];
	const out: Record<string, unknown> = { ...entry };
	for (const group of ['env', 'headers'] as const) {
		const values = entry[group];
		if (typeof values !== 'object' || values === null || Array.isArray(values)) continue;
		const copy: Record<string, unknown> = { ...(values as Record<string, unknown>) };
		for (const [key, value] of Object.entries(copy)) {
			if (typeof value !== 'string' || !looksSecret(key, value)) continue;
			const field = `${group}.${key}`;
			const id = inputId(server, field);
			secrets.push({
				id,
				field,
				value,
				description: `${key} for the MCP server '${server}' (imported; kept in VS Code's secret storage)`,
			});
			copy[key] = `\${input:${id}}`;
		}
		out[group] = copy;
	}
	return { entry: out, secrets };
}

/** `KEY=value` with a secret shown as `KEY=•••• (to secret storage)`, for the pick's detail. */
function shownPairs(values: unknown, group: 'env' | 'headers'): string[] {
	if (typeof values !== 'object' || values === null || Array.isArray(values)) return [];
	return Object.entries(values as Record<string, unknown>).map(([key, value]) => {
		const text = typeof value === 'string' ? value : JSON.stringify(value);
		return typeof value === 'string' && looksSecret(key, value)
			? `${key}=•••• (to secret storage)`
			: `${key}=${group === 'env' ? JSON.stringify(text) : text}`;
	});
}

/**
 * Everything an imported entry will run or send, one line per field: command line (or URL), working folder,
 * environment (secrets masked), environment file and headers. Shown before anything is written.
 */
export function describeImport(entry: Record<string, unknown>): string[] {
	const lines: string[] = [];
	if (typeof entry.command === 'string') {
		const args = Array.isArray(entry.args)
			? entry.args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a)))
			: [];
		lines.push(
			`Runs: ${[entry.command, ...args].map((w) => (/^[\w@%+=:,./${}-]+$/.test(w) ? w : JSON.stringify(w))).join(' ')}`,
		);
		lines.push(`In: ${typeof entry.cwd === 'string' ? entry.cwd : '(the workspace folder, or your home directory)'}`);
	} else if (entry.url !== undefined) {
		lines.push(`Connects to: ${textOf(entry.url)}`);
	}
	const env = shownPairs(entry.env, 'env');
	if (env.length > 0) lines.push(`Environment: ${env.join(', ')}`);
	if (typeof entry.envFile === 'string') lines.push(`Environment file: ${entry.envFile}`);
	const headers = shownPairs(entry.headers, 'headers');
	if (headers.length > 0) lines.push(`Headers: ${headers.join(', ')}`);
	return lines;
}
