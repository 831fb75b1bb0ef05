/**
 * The command line's first step, run by the launcher (bin.ts) before it loads the rest of itself: for a command that
 * talks to servers (list, call, read, prompt), read the workspace's configuration and start the local servers it will
 * use. A Node server takes about as long to boot as the command line takes to load (~15-25 ms of compiling and
 * setting up here), so the two now overlap instead of adding up. The run then takes each process over
 * (EarlyStart.claim): the same configuration, read by the same code, gives the same process; a server started here
 * that the run does not use is stopped unasked. Nothing that needs a person happens here: a server whose `${input:}`
 * has no value from a flag, the environment or its default is left to the run, which may ask for it.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_MAX_CONCURRENT_STARTS } from '../manager/startLimits';
import { EarlyStart } from '../protocol/transports/stdioSpawn';
import { parseCommandLine } from './args';
import { inputSource } from './inputs';
import { readWorkspaceServers, resolveWorkspaceEntry } from './workspaceConfig';

/** Starts the local servers the command line `argv` will use; never throws (a problem is the run's to report). */
export async function startServersEarly(argv: readonly string[], cwd: string): Promise<Map<string, EarlyStart>> {
	const started = new Map<string, EarlyStart>();
	try {
		const parsed = parseCommandLine(argv, cwd, (file) => readFileSync(file, 'utf8'));
		if (!parsed.ok) return started;
		const { command, options } = parsed;
		// The servers each command starts (commands.ts): `list` all enabled ones or those named, the others one.
		let names: readonly string[];
		if (command.name === 'list') names = command.servers;
		else if (command.name === 'call' || command.name === 'read' || command.name === 'prompt') names = [command.server];
		else return started;
		const folder = path.resolve(options.workspace);
		const workspace = await readWorkspaceServers(folder);
		const entries =
			names.length === 0
				? workspace.entries.filter((entry) => !entry.config.disabled)
				: workspace.entries.filter((entry) => names.includes(entry.name));
		// What goes wrong here is not reported: the run reads the configuration again and reports it.
		const problems: string[] = [];
		const input = inputSource({ flags: options.inputs, env: process.env, interactive: false, problems });
		for (const entry of entries) {
			// No more at once than the run's Manager starts (its first ones, in the same order): the rest wait for a slot there.
			if (started.size === DEFAULT_MAX_CONCURRENT_STARTS.stdio) break;
			if (entry.config.type !== 'stdio') continue;
			const server = await resolveWorkspaceEntry(entry, folder, workspace.inputs, input, problems);
			// The run's Manager passes inheritEnvironment: true (its default), which is planSpawn's default too.
			if (server?.config.type === 'stdio') started.set(entry.name, new EarlyStart(server.config));
		}
	} catch {
		// A bug here must not cost the run: it reads the configuration again and reports what it finds.
	}
	return started;
}
