/**
 * `mcp-switchboard`: the console on the command line (bundled to dist/cli.js). Reads the workspace's server
 * configuration as the extension does and runs one command; see args.ts for the commands and exit codes.
 * No `vscode` here: the same protocol core and Manager as the extension.
 */
import { readFileSync } from 'node:fs';
import { parseCommandLine, USAGE } from './args';
import { EXIT, runCommand, type Output } from './commands';
import { runRegistryCommand } from './registryCommands';
import { CliSession, discardEarlyStarts, UsageError, type RunHooks } from './session';

/** How long an interrupted call may take to hear the server's answer to its cancel before the run stops anyway. */
const CANCEL_GRACE_MS = 5000;

/** Commands whose request in flight Ctrl+C cancels (the others just stop the servers). */
function cancellable(name: string): boolean {
	return (
		name === 'call' ||
		name === 'run' ||
		name === 'test' ||
		name === 'replay' ||
		name === 'check' ||
		name === 'read' ||
		name === 'prompt'
	);
}

async function main(argv: readonly string[], hooks: RunHooks): Promise<number> {
	try {
		return await runMain(argv, hooks);
	} finally {
		// Whatever ended the run (a usage error, a failure before any server started), no early start outlives it.
		await discardEarlyStarts(hooks);
	}
}

async function runMain(argv: readonly string[], hooks: RunHooks): Promise<number> {
	const parsed = parseCommandLine(argv, process.cwd(), (file) => readFileSync(file, 'utf8'));
	if (!parsed.ok) {
		process.stderr.write(`mcp-switchboard: ${parsed.error}\n\n${USAGE}\n`);
		return EXIT.usage;
	}
	const { command, options } = parsed;
	if (command.name === 'help') {
		process.stdout.write(`${USAGE}\n`);
		return EXIT.ok;
	}
	const out: Output = {
		result: (text, json) =>
			process.stdout.write(options.json ? `${JSON.stringify(json, null, 2)}\n` : text ? `${text}\n` : ''),
		error: (text) => process.stderr.write(`${text}\n`),
	};
	if (command.name === 'search' || command.name === 'add') {
		// The registry commands start no server: no session, no early start to take over.
		return runRegistryCommand(command, options, out);
	}
	const session = await CliSession.open(options, hooks);
	// Ctrl+C or a CI job's cancel: a call in flight is cancelled first (a task on the server gets tasks/cancel, and the
	// command reports the answer and ends with 130); anything else, or a second Ctrl+C, or a server that does not answer
	// within CANCEL_GRACE_MS: stop every server (and its process group) and leave.
	const interrupt = new AbortController();
	const stop = () => {
		if (!interrupt.signal.aborted && cancellable(command.name)) {
			interrupt.abort(new Error('Interrupted (Ctrl+C)'));
			setTimeout(stop, CANCEL_GRACE_MS).unref();
			return;
		}
		void session.close().finally(() => process.exit(EXIT.interrupted));
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
	try {
		return await runCommand(command, session, out, interrupt.signal);
	} catch (error) {
		if (error instanceof UsageError) {
			out.error(`mcp-switchboard: ${error.message}`);
			return EXIT.usage;
		}
		throw error;
	} finally {
		await session.close();
	}
}

/** Runs one command line (bin.ts calls this once it loaded the module) and sets the process's exit code. */
export function run(argv: readonly string[], hooks: RunHooks = {}): void {
	main(argv, hooks).then(
		(code) => {
			process.exitCode = code;
			// Every server was closed; if a stray handle (a keep-alive socket) still holds the loop, leave anyway.
			setTimeout(() => process.exit(code), 1000).unref();
		},
		(error: unknown) => {
			process.stderr.write(
				`mcp-switchboard: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
			);
			process.exitCode = EXIT.failed;
		},
	);
}
