/**
 * `mcp-switchboard doctor`: starts each server and says in plain words what is wrong — a configuration problem, a
 * command that is not on PATH, a process that crashed (with its last stderr lines, which the connection's error
 * already carries), a server that wants authorization, a protocol version we do not speak — or that it is fine.
 */
import { accessSync, constants, statSync } from 'node:fs';
import * as path from 'node:path';
import { plural } from '../common/text';
import type { ServerEntry } from '../manager/config';
import type { CliSession } from './session';

export interface Diagnosis {
	name: string;
	ok: boolean;
	/** One short sentence, e.g. "running: server-everything 2.0.0, protocol 2025-11-25, 17 tools". */
	summary: string;
	/** What to do about it, when something is wrong. */
	hint?: string;
	/** The full error text (stderr lines included), when something is wrong. */
	detail?: string;
}

function executable(file: string): boolean {
	try {
		if (!statSync(file).isFile()) return false;
		if (process.platform !== 'win32') accessSync(file, constants.X_OK);
		return true;
	} catch {
		return false;
	}
}

/** Whether `command` can be run: a path is checked as is (relative to `cwd`), a bare name is searched on PATH. */
export function findCommand(command: string, cwd: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
	if (command.includes('/') || command.includes('\\')) {
		const file = path.resolve(cwd, command);
		return executable(file) ? file : undefined;
	}
	const extensions = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
	for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
		for (const ext of extensions) {
			const file = path.join(dir, command + ext);
			if (executable(file)) return file;
		}
	}
	return undefined;
}

/** A hint for an error message: what the user can do about the usual failures. */
function hintFor(message: string): string | undefined {
	if (/\b401\b|unauthori[sz]ed|authori[sz]ation/i.test(message))
		return 'The server wants you to sign in: sign in from the editor (MCP Switchboard), or send a token with "headers": { "Authorization": "Bearer ${input:token}" }.';
	if (/protocol version/i.test(message))
		return 'The server speaks a protocol version this client does not; update the server or the client.';
	if (/timed out|timeout/i.test(message))
		return 'The server did not answer in time: raise "timeoutMs" for it, or run it by hand to see whether it waits for something.';
	if (/ECONNREFUSED|refused/i.test(message))
		return 'Nothing answers at that address: start the server, or check the URL and port.';
	if (/exited|crash|code \d+|signal/i.test(message))
		return 'The process ended before it answered; its last output is above. Run the command by hand to see more.';
	return undefined;
}

/** An error's first line without the server's name in front: the report names the server already. */
function withoutName(line: string, name: string): string {
	return line.startsWith(`${name}: `) ? line.slice(name.length + 2) : line;
}

function diagnoseEntryConfig(session: CliSession, entry: ServerEntry): Diagnosis | undefined {
	if (entry.config.type !== 'stdio' || entry.config.command.includes('${')) return undefined;
	const cwd =
		entry.config.cwd && !entry.config.cwd.includes('${')
			? path.resolve(session.folder, entry.config.cwd)
			: session.folder;
	if (findCommand(entry.config.command, cwd)) return undefined;
	const onPath = !entry.config.command.includes('/') && !entry.config.command.includes('\\');
	return {
		name: entry.name,
		ok: false,
		summary: onPath
			? `command '${entry.config.command}' is not on PATH`
			: `command '${entry.config.command}' does not exist or is not executable`,
		hint: onPath
			? `Install it, or give its absolute path in "command" (PATH here: ${process.env.PATH ?? '(empty)'}).`
			: 'Check the path in "command".',
	};
}

/** Diagnoses the named servers (all when empty); `ok` is false when any has a problem. */
export async function diagnose(
	session: CliSession,
	names: readonly string[],
): Promise<{ ok: boolean; text: string; json: unknown }> {
	const entries = session.select(names);
	const results = new Map<string, Diagnosis>();
	const toStart: ServerEntry[] = [];
	for (const entry of entries) {
		const problem = diagnoseEntryConfig(session, entry);
		if (problem) results.set(entry.name, problem);
		else toStart.push(entry);
	}
	const { views, unresolved } = await session.start(toStart);
	for (const entry of toStart) {
		const problems = unresolved.get(entry.name);
		if (problems) {
			results.set(entry.name, {
				name: entry.name,
				ok: false,
				summary: 'its configuration cannot be resolved',
				detail: [...session.problemsOf(entry.name), ...problems].join('\n'),
			});
			continue;
		}
		const state = views.get(entry.name)?.state;
		if (state?.kind === 'running') {
			const client = state.client;
			const view = views.get(entry.name)!;
			await session.listsReady(view);
			const tools = view.tools.length;
			const info = `${client.serverInfo.name} ${client.serverInfo.version}, protocol ${client.protocolVersion}, ${plural(tools, 'tool')}`;
			results.set(entry.name, { name: entry.name, ok: true, summary: `running: ${info}` });
		} else {
			const message =
				state?.kind === 'error' || state?.kind === 'needsSignIn'
					? state.message
					: `did not start (${state?.kind ?? 'unknown'})`;
			const diagnosis: Diagnosis = {
				name: entry.name,
				ok: false,
				summary: withoutName(message.split('\n')[0]!, entry.name),
				detail: message,
			};
			const hint = hintFor(message);
			if (hint) diagnosis.hint = hint;
			results.set(entry.name, diagnosis);
		}
	}
	const ordered = entries.map((entry) => results.get(entry.name)!);
	const lines: string[] = [];
	for (const d of ordered) {
		lines.push(`${d.ok ? '✓' : '✗'} ${d.name}: ${d.summary}`);
		if (d.detail && d.detail !== d.summary)
			lines.push(
				...d.detail
					.split('\n')
					.slice(1)
					.map((l) => `    ${l}`),
			);
		if (d.hint) lines.push(`    → ${d.hint}`);
	}
	for (const problem of session.workspace.problems) lines.push(`! ${problem}`);
	if (entries.length === 0) lines.push(session.configuredText());
	const failed = ordered.filter((d) => !d.ok).length;
	const configProblems = session.workspace.problems.length;
	lines.push(
		'',
		ordered.length === 0
			? `No server to check${configProblems > 0 ? `: the configuration has ${plural(configProblems, 'problem')}` : ''}`
			: failed === 0 && configProblems === 0
				? `${plural(ordered.length, 'server')} OK`
				: failed === 0
					? `${plural(ordered.length, 'server')} OK, and ${plural(configProblems, 'configuration problem')}`
					: `${failed} of ${plural(ordered.length, 'server')} with problems`,
	);
	return {
		ok: failed === 0 && entries.length > 0 && configProblems === 0,
		text: lines.join('\n'),
		json: { servers: ordered, problems: session.workspace.problems },
	};
}
