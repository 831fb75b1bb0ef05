/**
 * Names and command lines for Add Server: a command line split into words as a shell would (quotes, escapes), and a
 * suggested server name from what the person typed. No `vscode`: unit-tested, and the command line may share it.
 */

/** Splits a command line into words, honouring single and double quotes and backslash escapes (no globbing, no variables). */
export function splitCommandLine(line: string): string[] {
	const words: string[] = [];
	let current = '';
	let inWord = false;
	let quote: '"' | "'" | undefined;
	for (let i = 0; i < line.length; i++) {
		const ch = line[i] as string;
		if (quote) {
			if (ch === quote) quote = undefined;
			else if (ch === '\\' && quote === '"' && i + 1 < line.length) current += line[++i];
			else current += ch;
		} else if (ch === '"' || ch === "'") {
			quote = ch;
			inWord = true;
		} else if (ch === '\\' && i + 1 < line.length) {
			current += line[++i];
			inWord = true;
		} else if (/\s/.test(ch)) {
			if (inWord) words.push(current);
			current = '';
			inWord = false;
		} else {
			current += ch;
			inWord = true;
		}
	}
	if (inWord) words.push(current);
	return words;
}

/** Words that name no server: a script called index.js, a folder called dist, a URL path /mcp. */
const GENERIC = new Set([
	'index',
	'main',
	'server',
	'app',
	'cli',
	'src',
	'dist',
	'build',
	'lib',
	'bin',
	'out',
	'mcp',
	'sse',
	'api',
	'v1',
	'v2',
	'www',
	'run',
	'start',
	'stdio',
	'http',
]);
/** Launchers whose own name says nothing about the server; the name comes from what they run. */
const LAUNCHERS = new Set([
	'npx',
	'pnpx',
	'pnpm',
	'bunx',
	'bun',
	'yarn',
	'uvx',
	'uv',
	'pipx',
	'deno',
	'node',
	'nodejs',
	'python',
	'python3',
	'py',
	'java',
	'dotnet',
	'go',
	'cargo',
	'ruby',
	'php',
	'sh',
	'bash',
	'cmd',
	'powershell',
	'pwsh',
	'docker',
	'podman',
]);
/** A launcher's subcommands before the package ("pnpm dlx x", "uv run x", "uv tool run x", "go run x"). */
const SUBCOMMANDS = new Set(['run', 'dlx', 'exec', 'x', 'tool', '--']);
/** Container flags that take a value ("-e KEY=value", "-v a:b"), so the value is not the image. */
const CONTAINER_VALUE_FLAGS = new Set([
	'-e',
	'--env',
	'-v',
	'--volume',
	'-p',
	'--publish',
	'--name',
	'--network',
	'-w',
	'--workdir',
	'--entrypoint',
	'--mount',
	'-u',
	'--user',
	'--env-file',
	'--platform',
	'-l',
	'--label',
]);

/** The file endings of scripts and programs a launcher runs. */
const SCRIPT_EXTENSION = /\.(?:m?js|cjs|ts|py|jar|exe|sh|ps1|rb|php|dll)$/i;

function cleanName(word: string): string {
	return word
		.toLowerCase()
		.replace(/[^a-z0-9_-]+/g, '-')
		.replace(/_/g, '-')
		.replace(/^(?:mcp-server-|server-mcp-|mcp-|server-)+/, '')
		.replace(/(?:-mcp-server|-server-mcp|-mcp|-server)+$/, '')
		.replace(/^-+|-+$/g, '');
}

/** Whether a cleaned name names something (not empty, not only digits, not a generic word). */
function meaningful(name: string): boolean {
	return name.length > 0 && !/^[\d-]+$/.test(name) && !GENERIC.has(name);
}

/** A package name without its scope or version: "@scope/server-x@1.2" → "server-x"; an image without registry or tag. */
function packageBase(word: string): string {
	const unversioned = word.startsWith('@') ? word.replace(/(?<=.)@[^/]*$/, '') : word.replace(/@[^/]*$/, '');
	return (unversioned.split('/').pop() ?? unversioned).replace(/:[^/]*$/, '');
}

/** From a script's path: its file name, or when that is generic (index.js) the nearest folder that is not (dist, src). */
function fromPath(word: string): string | undefined {
	const parts = word.split(/[\\/]+/).filter(Boolean);
	for (let i = parts.length - 1; i >= 0; i--) {
		const name = cleanName(parts[i]!.replace(SCRIPT_EXTENSION, ''));
		if (meaningful(name)) return name;
	}
	return undefined;
}

function fromUrl(url: URL): string {
	// A named host says it: mcp.notion.com → notion, api.githubcopilot.com → githubcopilot.
	const labels = url.hostname.split('.');
	const isAddress = url.hostname === 'localhost' || /^[\d.]+$/.test(url.hostname) || url.hostname.startsWith('[');
	if (!isAddress) {
		const named = labels.slice(0, -1).map(cleanName).filter(meaningful).pop();
		if (named) return named;
	}
	// A local address: the path may name it (/weather/mcp), else the port does (localhost-3001).
	const fromPathName = url.pathname.split('/').map(cleanName).filter(meaningful).shift();
	if (fromPathName) return fromPathName;
	return url.port ? `localhost-${url.port}` : 'localhost';
}

function fromCommand(line: string): string {
	const words = splitCommandLine(line);
	const [command, ...rest] = words;
	if (command === undefined) return 'server';
	const exe = (command.split(/[\\/]/).pop() ?? command).replace(/\.(?:exe|cmd|bat)$/i, '').toLowerCase();
	const isContainer = exe === 'docker' || exe === 'podman';
	for (let i = 0; i < rest.length; i++) {
		const word = rest[i]!;
		if (word === '-m' || word === '--module') {
			// python -m mcp_server_time
			const module = rest[i + 1];
			const name = module ? cleanName(module.split('.')[0] ?? module) : '';
			if (meaningful(name)) return name;
			i++;
			continue;
		}
		if (isContainer && CONTAINER_VALUE_FLAGS.has(word)) {
			i++;
			continue;
		}
		if (word.startsWith('-') || SUBCOMMANDS.has(word) || word.includes('=')) continue;
		// A script (weather.py, ./x, /opt/y/index.js, C:\x) rather than a package (@scope/name, name@1).
		const isPath =
			!word.startsWith('@') &&
			(SCRIPT_EXTENSION.test(word) ||
				(/[\\/]/.test(word) && (word.startsWith('.') || word.startsWith('/') || /^[a-z]:/i.test(word))));
		const name = isPath && !isContainer ? fromPath(word) : cleanName(packageBase(word));
		if (name && meaningful(name)) return name;
		// A scoped package with a generic name names its scope: @playwright/mcp → playwright.
		const scope = word.startsWith('@') ? cleanName(word.slice(1).split('/')[0] ?? '') : '';
		if (meaningful(scope)) return scope;
		// A generic word (a flag's value such as "--with mcp", or index.js): the next word may name it.
	}
	const own = cleanName(exe);
	return LAUNCHERS.has(exe) || !meaningful(own) ? `${exe.replace(/[^a-z0-9]+/g, '')}-server` : own;
}

/**
 * A default server name from a command line or URL, as a person would name it: the package it runs
 * (`npx -y @modelcontextprotocol/server-filesystem .` → `filesystem`), the module (`python -m mcp_server_time` →
 * `time`), the image (`docker run -i --rm mcp/github` → `github`), the script's folder when the script is generic
 * (`node ~/weather/dist/index.js` → `weather`), or the URL's host (`https://mcp.notion.com/mcp` → `notion`; a
 * local address by its path or port, `localhost-3001`). Never only digits or a generic word such as "index".
 */
export function suggestName(commandOrUrl: string): string {
	const text = commandOrUrl.trim();
	if (/^https?:\/\//i.test(text)) {
		try {
			return fromUrl(new URL(text));
		} catch {
			// not a URL after all: read it as a command
		}
	}
	return fromCommand(text);
}

/** `base`, or `base-2`, `base-3`… the first that `taken` does not have. */
export function uniqueName(base: string, taken: (name: string) => boolean): string {
	if (!taken(base)) return base;
	for (let i = 2; ; i++) if (!taken(`${base}-${i}`)) return `${base}-${i}`;
}
