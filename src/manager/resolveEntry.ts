/**
 * From a configured entry to the config the Manager starts: variables resolved (see variables.ts), a stdio
 * server's working folder defaulted, and its `envFile` read and merged under `env`. Shared by the extension
 * (files read through VS Code's file system) and the command line (node:fs). Never throws on user input.
 */
import * as path from 'node:path';
import type { ServerEntry } from './config';
import { parseDotenv } from './config';
import type { ServerConfig } from './types';
import { resolveConfig, resolveString, type VariableContext } from './variables';
import { errorMessage } from '../common/errors';

export interface ResolveEntryOptions {
	/** Variables, inputs and the folder `${workspaceFolder}` means. */
	context: VariableContext;
	/** A stdio server without `cwd` runs here (a relative `cwd` is taken from here too). */
	defaultCwd: string;
	/** Reads the envFile; rejects when it cannot (the message goes into the problem). */
	readFile(absolutePath: string): Promise<string>;
}

/**
 * Resolves `entry`. `config` is undefined when it cannot start (an unknown variable, an input without a value, an
 * unreadable envFile); every problem names the server and the field.
 */
export async function resolveEntry(
	entry: ServerEntry,
	options: ResolveEntryOptions,
): Promise<{ config: ServerConfig | undefined; problems: string[] }> {
	const { context } = options;
	const problems: string[] = [];
	const resolved = await resolveConfig(entry.name, entry.config, context);
	problems.push(...resolved.problems);
	const config = resolved.config;
	if (!config) return { config: undefined, problems };
	if (config.type !== 'stdio') return { config, problems };
	// The settings say a server without "cwd" runs in its workspace folder (or the home directory without one), not
	// wherever the extension host or the shell happened to start.
	config.cwd = config.cwd === undefined ? options.defaultCwd : path.resolve(options.defaultCwd, config.cwd);
	if (entry.envFile === undefined) return { config, problems };
	const where = `Server '${entry.name}': field "envFile"`;
	const file = await resolveString(entry.envFile, context, where);
	problems.push(...file.problems);
	if (file.value === undefined) return { config: undefined, problems };
	const absolute = path.resolve(context.workspaceFolder ?? options.defaultCwd, file.value);
	let text: string;
	try {
		text = await options.readFile(absolute);
	} catch (error) {
		problems.push(`${where}: cannot read ${absolute} (${errorMessage(error)})`);
		return { config: undefined, problems };
	}
	const parsed = parseDotenv(text, absolute);
	problems.push(...parsed.problems.map((p) => `${where}: ${p}`));
	config.env = { ...parsed.env, ...config.env };
	return { config, problems };
}
