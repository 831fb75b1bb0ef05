/**
 * How a stdio server's process is started: the command line for this OS, the environment, the spawn options, in one
 * place for StdioTransport and for an early start (EarlyStart), which spawns a server before its transport exists,
 * so the command line can load the rest of itself while the server boots. A transport adopts an early start only
 * when it would have spawned exactly the same thing (same file, arguments, environment and folder).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { win32 } from 'node:path';
import { childEnvironment } from './childEnvironment';

const isWindows = process.platform === 'win32';

/** What `spawn` gets for one server. */
export interface SpawnPlan extends SpawnCommand {
	env: NodeJS.ProcessEnv;
	cwd: string | undefined;
}

/** What a stdio server is configured with (StdioTransportOptions' part that decides the process). */
export interface StdioCommand {
	command: string;
	args?: string[];
	env?: Record<string, string | null>;
	inheritEnvironment?: boolean;
	cwd?: string;
}

/** The process a stdio server config gives on this OS (inheritEnvironment defaults to true, as StdioTransport's). */
export function planSpawn(config: StdioCommand): SpawnPlan {
	const env = childEnvironment(process.env, config.env, config.inheritEnvironment ?? true);
	const cwd = config.cwd;
	return { ...commandLine(config.command, config.args ?? [], env, cwd), env, cwd };
}

/** Spawns a plan: all three pipes, no shell, its own process group on POSIX (so the whole tree can be signalled). */
export function spawnPlanned(plan: SpawnPlan): ChildProcess {
	return spawn(plan.file, plan.args, {
		cwd: plan.cwd,
		env: plan.env,
		stdio: ['pipe', 'pipe', 'pipe'],
		shell: false,
		// On Windows `detached` would open a console.
		detached: !isWindows,
		windowsHide: true,
		windowsVerbatimArguments: plan.verbatim,
	});
}

/** See EarlyStart's constructor. */
function holdUnread(): void {}

/** Compares plans by everything that reaches the process. */
function planKey(plan: SpawnPlan): string {
	const env = Object.keys(plan.env)
		.sort()
		.map((key) => [key, plan.env[key]]);
	return JSON.stringify([plan.file, plan.args, plan.verbatim, plan.cwd ?? null, env]);
}

/**
 * A server process started before the transport that will talk to it, with what happened to it meanwhile (spawned,
 * failed to spawn, exited), so the transport can take it over as if it had spawned it: its stdout and stderr wait,
 * unread, in their pipes. A start nobody claims must be discarded (discardEarlyStart in stdio.ts).
 */
export class EarlyStart {
	readonly child: ChildProcess | undefined;
	/** An error before the process ran (ENOENT, EACCES...), thrown by spawn or emitted before 'spawn'. */
	spawnError: unknown;
	spawned = false;
	exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
	private claimed = false;
	private readonly key: string;

	/** Spawns `command` now (see planSpawn); a transport for the same command takes it over. */
	constructor(readonly command: StdioCommand) {
		const plan = planSpawn(command);
		this.key = planKey(plan);
		let child: ChildProcess | undefined;
		try {
			child = spawnPlanned(plan);
		} catch (error) {
			this.spawnError = error;
		}
		this.child = child;
		if (!child) return;
		child.once('spawn', () => (this.spawned = true));
		// Without a listener an 'error' event would end this process; once claimed, the transport's own listener reports.
		child.on('error', (error) => {
			if (!this.spawned && this.spawnError === undefined) this.spawnError = error;
		});
		child.once('exit', (code, signal) => (this.exit = { code, signal }));
		// Node drops what an exited child wrote to pipes nobody listens to (it resumes them on exit, to reach their end).
		// A 'readable' listener that reads nothing keeps it buffered, unread, for the transport; claim() removes it.
		for (const stream of [child.stdout, child.stderr]) stream?.on('readable', holdUnread);
	}

	/** Ends the hold on the pipes: the transport's own 'data' listeners read them from where the process began. */
	private release(): void {
		for (const stream of [this.child?.stdout, this.child?.stderr]) stream?.removeListener('readable', holdUnread);
	}

	/** This start, for a transport about to spawn `plan`: once, and only when it is the same process. */
	claim(plan: SpawnPlan): EarlyStart | undefined {
		if (this.claimed || planKey(plan) !== this.key) return undefined;
		this.claimed = true;
		this.release();
		return this;
	}

	get isClaimed(): boolean {
		return this.claimed;
	}
}

/** What to hand to `spawn`. */
export interface SpawnCommand {
	file: string;
	args: string[];
	/** Pass the arguments to Windows as they are (they were quoted for cmd.exe already). */
	verbatim: boolean;
}

function commandLine(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string | undefined): SpawnCommand {
	if (!isWindows) {
		// spawn searches the PATH of `env` itself.
		return { file: command, args, verbatim: false };
	}
	return windowsCommandLine(command, args, env, cwd ?? process.cwd());
}

/**
 * What to spawn on Windows (exported for tests, which run it on any OS). A bare name is looked up on PATH with
 * PATHEXT, because `npx`, `uvx` and friends are often `.cmd` shims. Node refuses to run a `.cmd` or `.bat` without
 * a shell (CVE-2024-27980), so those run through `cmd.exe /d /s /c "…"`, each argument quoted for the program's
 * own parser (backslashes before a quote doubled, the quote escaped) and cmd's special characters escaped with `^`
 * twice: once for the cmd.exe that runs the line, once more for the shim's `%*`, which cmd expands and parses again.
 */
export function windowsCommandLine(
	command: string,
	args: string[],
	env: NodeJS.ProcessEnv,
	cwd: string,
	isFile: (path: string) => boolean = isRegularFile,
): SpawnCommand {
	const resolved = resolveWindowsCommand(command, env, cwd, isFile) ?? command;
	const ext = win32.extname(resolved).toLowerCase();
	if (ext !== '.cmd' && ext !== '.bat') {
		return { file: resolved, args, verbatim: false };
	}
	const line = [
		escapeForCmd(win32.normalize(resolved)),
		...args.map((arg) => escapeForCmd(quoteArgument(arg), 2)),
	].join(' ');
	const shell = windowsEnv(env, 'COMSPEC') ?? 'cmd.exe';
	return { file: shell, args: ['/d', '/s', '/c', `"${line}"`], verbatim: true };
}

/** A Windows program-argument quote: wrap in quotes; backslashes that end up before a quote are doubled. */
function quoteArgument(arg: string): string {
	let quoted = '"';
	let backslashes = 0;
	for (const char of arg) {
		if (char === '\\') {
			backslashes += 1;
			continue;
		}
		if (char === '"') {
			quoted += '\\'.repeat(backslashes * 2 + 1) + '"';
		} else {
			quoted += '\\'.repeat(backslashes) + char;
		}
		backslashes = 0;
	}
	return quoted + '\\'.repeat(backslashes * 2) + '"';
}

/** Escapes cmd.exe's special characters (quotes included) with `^`, `times` times over. */
function escapeForCmd(text: string, times = 1): string {
	let escaped = text;
	for (let i = 0; i < times; i++) {
		escaped = escaped.replace(/[()[\]%!^"`<>&|;, *?]/g, '^$&');
	}
	return escaped;
}

/** A variable of a Windows environment, whose names are spelled in any case (`Path`, `PATH`). */
export function windowsEnv(env: NodeJS.ProcessEnv, name: string): string | undefined {
	return Object.entries(env).find(([key]) => key.toUpperCase() === name)?.[1];
}

function isRegularFile(path: string): boolean {
	try {
		return statSync(path).isFile();
	} catch {
		return false;
	}
}

function resolveWindowsCommand(
	command: string,
	env: NodeJS.ProcessEnv,
	cwd: string,
	isFile: (path: string) => boolean,
): string | undefined {
	const extensions = (windowsEnv(env, 'PATHEXT') ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean);
	// A name with an extension is tried as it is first; then (or only, without one) with each PATHEXT extension.
	const candidates = (base: string) =>
		win32.extname(base) ? [base, ...extensions.map((e) => base + e)] : extensions.map((e) => base + e);
	const hasDirectory = /[\\/]/.test(command);
	const path = windowsEnv(env, 'PATH') ?? '';
	// Unlike cmd.exe, a bare name is not looked up in the working directory: a workspace must not be able to shadow `npx`.
	const directories = hasDirectory ? [undefined] : path.split(';').filter(Boolean);
	for (const directory of directories) {
		const base = directory === undefined ? win32.resolve(cwd, command) : win32.join(directory, command);
		for (const candidate of candidates(base)) {
			if (isFile(candidate)) {
				return candidate;
			}
		}
	}
	return undefined;
}
