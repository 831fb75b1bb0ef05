/**
 * `mcp-switchboard`: the console on the command line (bundled to dist/cli.js). Reads the workspace's server
 * configuration as the extension does and runs one command; see args.ts for the commands and exit codes.
 * No `vscode` here: the same protocol core and Manager as the extension.
 */
import { readFileSync } from 'node:fs';
import { parseCommandLine, USAGE } from './args';
import { EXIT, runCommand, type Output } from './commands';
import { CliSession, discardEarlyStarts, UsageError, type RunHooks } from './session';

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
	const session = await CliSession.open(options, hooks);
	// Ctrl+C or a CI job's cancel: stop every server (and its process group) before leaving.
	const stop = () => {
		void session.close().finally(() => process.exit(130));
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
	try {
		return await runCommand(command, session, out);
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
