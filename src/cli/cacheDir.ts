import * as os from 'node:os';
import * as path from 'node:path';

/**
 * The command line's folder in the user's cache: $XDG_CACHE_HOME, %LOCALAPPDATA% (Windows), ~/Library/Caches (macOS)
 * or ~/.cache, then `mcp-switchboard`. It holds only what saves time and can be deleted at any moment (the servers'
 * protocol eras, the compiled code of the command line).
 */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
	const base =
		env.XDG_CACHE_HOME ||
		(process.platform === 'win32' ? env.LOCALAPPDATA : undefined) ||
		(process.platform === 'darwin' ? path.join(os.homedir(), 'Library', 'Caches') : path.join(os.homedir(), '.cache'));
	return path.join(base, 'mcp-switchboard');
}

/**
 * The command line's folder for what it remembers on purpose (the pins of servers' tool definitions, cli/pinFile.ts):
 * $XDG_STATE_HOME, %LOCALAPPDATA% (Windows), ~/Library/Application Support (macOS) or ~/.local/state, then
 * `mcp-switchboard`. Not the cache folder: deleting it would forget what was approved.
 */
export function userStateDir(env: NodeJS.ProcessEnv = process.env): string {
	const base =
		env.XDG_STATE_HOME ||
		(process.platform === 'win32' ? env.LOCALAPPDATA : undefined) ||
		(process.platform === 'darwin'
			? path.join(os.homedir(), 'Library', 'Application Support')
			: path.join(os.homedir(), '.local', 'state'));
	return path.join(base, 'mcp-switchboard');
}
