import { isRecord } from '../common/records';
/**
 * A server's development mode, in VS Code's own shape (`dev` in a server entry of mcp.json, see VS Code's
 * `mcpConfiguration.ts`): `watch` is a glob, or a list of globs, relative to the workspace folder, whose changes
 * restart the server; `debug` (local servers only) starts it under a debugger that the editor attaches to: `node`
 * (the Node inspector) or `debugpy` (Python; `debugpyPath` names the debugpy executable). Pure: parsing never throws,
 * and `debugLaunch` only rewrites a command line.
 *
 * ```json
 * "weather": { "command": "node", "args": ["build/index.js"], "dev": { "watch": "build/**\/*.js", "debug": { "type": "node" } } }
 * ```
 */

/** The `debug` part: which debugger the server starts under. */
export type DevDebug = { type: 'node' } | { type: 'debugpy'; debugpyPath?: string };

/** A server's `dev` field, parsed. */
export interface DevConfig {
	/** Globs relative to the workspace folder; empty: nothing is watched. */
	watch: string[];
	debug?: DevDebug;
}

/** Parses `dev` (`at` names the server in problems); a problem drops only the part it concerns. */
export function parseDevConfig(raw: unknown, at: string, stdio: boolean, problems: string[]): DevConfig | undefined {
	if (!isRecord(raw)) {
		problems.push(`${at}: field "dev" must be an object like { "watch": "src/**/*.ts" }; it was ignored`);
		return undefined;
	}
	const dev: DevConfig = { watch: [] };
	const watch = raw.watch;
	if (typeof watch === 'string' && watch) dev.watch = [watch];
	else if (Array.isArray(watch) && watch.every((glob) => typeof glob === 'string')) dev.watch = watch.filter(Boolean);
	else if (watch !== undefined)
		problems.push(`${at}: field "dev.watch" must be a glob or a list of globs; nothing is watched`);
	const debug = raw.debug;
	if (debug !== undefined) {
		if (!stdio) problems.push(`${at}: field "dev.debug" works only for a local (stdio) server; it was ignored`);
		else if (isRecord(debug) && debug.type === 'node') dev.debug = { type: 'node' };
		else if (isRecord(debug) && debug.type === 'debugpy') {
			dev.debug =
				typeof debug.debugpyPath === 'string' && debug.debugpyPath
					? { type: 'debugpy', debugpyPath: debug.debugpyPath }
					: { type: 'debugpy' };
		} else
			problems.push(`${at}: field "dev.debug" must be { "type": "node" } or { "type": "debugpy" }; it was ignored`);
	}
	return dev;
}

/** A local server's command line. */
export interface Launch {
	command: string;
	args: string[];
	env: Record<string, string | null>;
}

function baseName(command: string): string {
	return (command.split(/[\\/]/).pop() ?? command).toLowerCase().replace(/\.exe$/, '');
}

/**
 * The command line that starts a local server under `debug`, its debugger listening on 127.0.0.1:`port`:
 * - node: `node --inspect=127.0.0.1:PORT …` when the command is node itself, else `NODE_OPTIONS=--inspect=…` (npx,
 *   tsx: the Node process they start inherits it);
 * - debugpy: `python -m debugpy --listen 127.0.0.1:PORT …` when the command is a Python, else the `debugpyPath`
 *   executable (default `debugpy`) in front of the command (`debugpy --listen 127.0.0.1:PORT uv run server.py`… runs
 *   a module or file: a non-Python command such as uv is given to debugpy as the program to run).
 */
export function debugLaunch(launch: Launch, debug: DevDebug, port: number): Launch {
	const address = `127.0.0.1:${port}`;
	const name = baseName(launch.command);
	if (debug.type === 'node') {
		if (name === 'node' || name === 'nodejs') return { ...launch, args: [`--inspect=${address}`, ...launch.args] };
		const inherited = launch.env.NODE_OPTIONS ?? process.env.NODE_OPTIONS ?? '';
		return { ...launch, env: { ...launch.env, NODE_OPTIONS: `${inherited} --inspect=${address}`.trim() } };
	}
	if (/^python(\d+(\.\d+)?)?$/.test(name) && !debug.debugpyPath)
		return { ...launch, args: ['-m', 'debugpy', '--listen', address, ...launch.args] };
	return {
		...launch,
		command: debug.debugpyPath ?? 'debugpy',
		args: ['--listen', address, launch.command, ...launch.args],
	};
}
