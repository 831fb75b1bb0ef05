/**
 * The environment a stdio server is started with. By default (for the extension, `mcpSwitchboard.inheritEnvironment`
 * false) a server gets only the variables a program needs to run and find its tools — not the editor's whole
 * environment, which often holds cloud credentials and tokens (`AWS_SECRET_ACCESS_KEY`, `GITHUB_TOKEN`, …) that a
 * server from a cloned repository should not see. Configured variables are added on top; a configured `null` removes
 * a variable (VS Code's mcp.json format).
 *
 * Facts from other hosts: the official MCP SDK's `getDefaultEnvironment()` passes HOME, LOGNAME, PATH, SHELL, TERM,
 * USER (a list "inspired by the default env inheritance of sudo") and on Windows APPDATA, HOMEDRIVE, HOMEPATH,
 * LOCALAPPDATA, PATH, PROCESSOR_ARCHITECTURE, SYSTEMDRIVE, SYSTEMROOT, TEMP, USERNAME, USERPROFILE, PROGRAMFILES, and
 * skips values that start with `()` (exported shell functions). Ours adds what launchers such as `npx` and `uvx` need
 * to work behind a proxy, with a private CA, in the user's language and with their cache folders.
 */

/** Passed to every server when the environment is not inherited whole (names compared case-insensitively on Windows). */
export const DEFAULT_INHERITED_VARIABLES: readonly string[] = [
	// Finding programs, the user and their home (npx, uvx and node need PATH and HOME).
	'PATH',
	'HOME',
	'USER',
	'LOGNAME',
	'SHELL',
	'TERM',
	// Language and time.
	'LANG',
	'LANGUAGE',
	'LC_ALL',
	'LC_CTYPE',
	'LC_MESSAGES',
	'TZ',
	// Temporary and per-user folders (caches of npx / uvx live under them).
	'TMPDIR',
	'TMP',
	'TEMP',
	'XDG_CONFIG_HOME',
	'XDG_CACHE_HOME',
	'XDG_DATA_HOME',
	'XDG_RUNTIME_DIR',
	// Network: proxies and extra certificate authorities, without which package downloads fail in many companies.
	'HTTP_PROXY',
	'HTTPS_PROXY',
	'NO_PROXY',
	'http_proxy',
	'https_proxy',
	'no_proxy',
	'NODE_EXTRA_CA_CERTS',
	'SSL_CERT_FILE',
	'SSL_CERT_DIR',
	// Windows: the system and the user's folders.
	'APPDATA',
	'LOCALAPPDATA',
	'HOMEDRIVE',
	'HOMEPATH',
	'USERPROFILE',
	'USERNAME',
	'SYSTEMROOT',
	'SYSTEMDRIVE',
	'WINDIR',
	'COMSPEC',
	'PATHEXT',
	'PROGRAMFILES',
	'PROGRAMFILES(X86)',
	'PROGRAMDATA',
	'PROCESSOR_ARCHITECTURE',
	'NUMBER_OF_PROCESSORS',
	'OS',
];

/**
 * The environment for a child: the parent's whole environment when `inheritAll`, otherwise only the
 * DEFAULT_INHERITED_VARIABLES it has (shell functions, values starting with `()`, left out); then each configured
 * variable set, or removed when its value is `null`. On Windows names match whatever their case.
 */
export function childEnvironment(
	parent: Readonly<Record<string, string | undefined>>,
	configured: Readonly<Record<string, string | null>> | undefined,
	inheritAll: boolean,
	platform: NodeJS.Platform = process.platform,
): Record<string, string> {
	const windows = platform === 'win32';
	const env: Record<string, string> = {};
	const allowed = inheritAll
		? undefined
		: new Set(DEFAULT_INHERITED_VARIABLES.map((name) => (windows ? name.toUpperCase() : name)));
	for (const [name, value] of Object.entries(parent)) {
		if (value === undefined) continue;
		if (allowed && (!allowed.has(windows ? name.toUpperCase() : name) || value.startsWith('()'))) continue;
		env[name] = value;
	}
	for (const [name, value] of Object.entries(configured ?? {})) {
		if (windows) {
			// One variable whatever its case: `Path` from the parent and `PATH` from the config must not both reach the child.
			for (const existing of Object.keys(env)) if (existing.toUpperCase() === name.toUpperCase()) delete env[existing];
		}
		if (value === null) delete env[name];
		else env[name] = value;
	}
	return env;
}
