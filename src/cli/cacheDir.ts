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
