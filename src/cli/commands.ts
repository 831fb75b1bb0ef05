/**
 * The commands of `mcp-switchboard`, each returning its exit code. Output goes through `Output` so `--json`
 * prints one JSON document on stdout and people get text; errors always go to stderr.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { McpClient, RequestOptions } from '../protocol/client';
import { parseInvocation, type Invocation } from '../manager/invocationFile';
import type { ServerView } from '../manager/types';
import type { Command } from './args';
import { diagnose } from './doctor';
import { renderPrompt, renderResource, renderToolResult } from './render';
import { CliSession, UsageError } from './session';
import { callToolFromCli } from './toolCall';
import { errorMessage } from '../common/errors';
import { isChanged, pinAll } from '../manager/pinning/pins';
import { serverIdentity } from '../manager/serverIdentity';
import { FilePinStore } from './pinFile';
import { runTests } from './testCommand';
import { loadBook, replayHttp, replayStdio } from './replay';
import { runCheck } from './checkCommand';

/** 130: interrupted (Ctrl+C), as a shell reports a process that SIGINT ended. */
export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

export interface Output {
	/** stdout: text for people, or the JSON value with `--json`. */
	result(text: string, json: unknown): void;
	/** stderr: always text. */
	error(text: string): void;
}

/** "stdio: npx -y pkg" or "http: https://…", from the configuration as written (variables unresolved). */
function launchText(view: { config: ServerView['config'] }): string {
	const config = view.config;
	return config.type === 'stdio'
		? `stdio: ${[config.command, ...(config.args ?? [])].join(' ')}`
		: `${config.type}: ${config.url}`;
}

/**
 * The configuration's problems on stderr (a malformed file, an entry that is not valid): a command that uses the
 * servers must not hide why one is missing. Returns true when there were any.
 */
function reportProblems(session: CliSession, out: Output): boolean {
	for (const problem of session.workspace.problems) out.error(`error: ${problem}`);
	return session.workspace.problems.length > 0;
}

/**
 * Runs one command. Aborting `interrupt` (Ctrl+C) cancels a call, read or prompt in flight (a task on the server with
 * tasks/cancel) and the command ends with EXIT.interrupted once the server answered.
 */
export async function runCommand(
	command: Exclude<Command, { name: 'help' | 'search' | 'add' }>,
	session: CliSession,
	out: Output,
	interrupt: AbortSignal = new AbortController().signal,
): Promise<number> {
	if (command.name !== 'servers' && command.name !== 'doctor' && command.name !== 'replay')
		reportProblems(session, out);
	switch (command.name) {
		case 'servers':
			return servers(session, out);
		case 'list':
			return list(session, command.servers, out);
		case 'doctor': {
			const report = await diagnose(session, command.servers);
			out.result(report.text, report.json);
			return report.ok ? EXIT.ok : EXIT.failed;
		}
		case 'call':
			return invoke(
				session,
				{ kind: 'tool', server: command.server, tool: command.tool, arguments: command.args },
				out,
				interrupt,
			);
		case 'read':
			return invoke(session, { kind: 'resource', server: command.server, uri: command.uri }, out, interrupt);
		case 'prompt':
			return invoke(
				session,
				{ kind: 'prompt', server: command.server, prompt: command.prompt, arguments: command.args },
				out,
				interrupt,
			);
		case 'replay': {
			const book = loadBook(command.file);
			const report = (line: string) => out.error(line);
			await (command.httpPort !== undefined
				? replayHttp(book, command.httpPort, report, interrupt)
				: replayStdio(book, report, interrupt));
			return book.unexpected.length > 0 ? EXIT.failed : EXIT.ok;
		}
		case 'check': {
			const end = await runCheck(session, command.server, command.scenario, out, interrupt);
			return end === 'passed' ? EXIT.ok : end === 'interrupted' ? EXIT.interrupted : EXIT.failed;
		}
		case 'test': {
			const end = await runTests(session, command.paths, command.junit, out, interrupt);
			return end === 'passed' ? EXIT.ok : end === 'interrupted' ? EXIT.interrupted : EXIT.failed;
		}
		case 'run': {
			const file = path.resolve(command.file);
			let text: string;
			try {
				text = readFileSync(file, 'utf8');
			} catch (error) {
				throw new UsageError(`cannot read ${command.file}: ${errorMessage(error)}`);
			}
			const parsed = parseInvocation(text, path.basename(file));
			if (!parsed.invocation) throw new UsageError(parsed.problems.join('\n'));
			for (const problem of parsed.problems) out.error(`warning: ${problem}`);
			return invoke(session, parsed.invocation, out, interrupt);
		}
	}
}

function servers(session: CliSession, out: Output): number {
	const rows = session.workspace.entries.map((entry) => ({
		name: entry.name,
		type: entry.config.type,
		source: entry.source.label,
		disabled: entry.config.disabled === true,
		launch: launchText(entry),
	}));
	const text =
		rows.length === 0
			? session.configuredText()
			: rows.map((r) => `${r.name}${r.disabled ? ' (disabled)' : ''}  ${r.launch}  [${r.source}]`).join('\n');
	out.result(text, {
		folder: session.folder,
		files: session.workspace.files,
		servers: rows,
		problems: session.workspace.problems,
	});
	for (const problem of session.workspace.problems) out.error(`warning: ${problem}`);
	return EXIT.ok;
}

/** Starts one server for a call; throws a UsageError when it cannot be resolved, returns the failure text otherwise. */
async function startOne(session: CliSession, name: string): Promise<{ client: McpClient } | { error: string }> {
	const [entry] = session.select([name]);
	const { views, unresolved } = await session.start([entry!]);
	const problems = unresolved.get(name);
	if (problems)
		throw new UsageError(
			`Server '${name}' cannot be started:\n${[...session.problemsOf(name), ...problems].join('\n')}`,
		);
	const state = views.get(name)?.state;
	if (state?.kind === 'running') return { client: state.client };
	return {
		error: `Server '${name}' did not start: ${state?.kind === 'error' || state?.kind === 'needsSignIn' ? state.message : (state?.kind ?? 'unknown')}`,
	};
}

async function invoke(
	session: CliSession,
	invocation: Invocation,
	out: Output,
	interrupt: AbortSignal,
): Promise<number> {
	if (invocation.kind === 'tool' && session.toolDisabled(invocation.server, invocation.tool)) {
		// The command line is the developer's own tool: it runs what is asked, and says the editor's chat models do not get it.
		out.error(
			`note: the workspace switches '${invocation.tool}' of server '${invocation.server}' off for chat models (${session.disabledToolsSource()}); running it as asked.`,
		);
	}
	const started = await startOne(session, invocation.server);
	if ('error' in started) {
		out.error(started.error);
		return EXIT.failed;
	}
	const client = started.client;
	const options: RequestOptions = { signal: interrupt };
	if (session.options.timeoutMs !== undefined) options.timeoutMs = session.options.timeoutMs;
	try {
		switch (invocation.kind) {
			case 'tool': {
				const result = await callToolFromCli(
					session,
					invocation.server,
					invocation.tool,
					invocation.arguments,
					interrupt,
					(line) => out.error(line),
					session.options.timeoutMs,
				);
				out.result(renderToolResult(result), result);
				return result.isError ? EXIT.failed : EXIT.ok;
			}
			case 'prompt': {
				const result = await client.getPrompt(invocation.prompt, invocation.arguments, options);
				out.result(renderPrompt(result), result);
				return EXIT.ok;
			}
			case 'resource': {
				const result = await client.readResource(invocation.uri, options);
				out.result(renderResource(result), result);
				return EXIT.ok;
			}
		}
	} catch (error) {
		out.error(`Server '${invocation.server}': ${errorMessage(error)}`);
		return interrupt.aborted ? EXIT.interrupted : EXIT.failed;
	}
}

/**
 * Why a server may list fewer tools here than in VS Code: some (server-everything) offer their sampling tools only to
 * a client that declares sampling at initialize, and this command line has no model. Forms (elicitation) are declared
 * and asked in a terminal; without one (or with --json / --no-input) they are declined unless --answer fills them.
 */
export function fewerToolsNote(session: CliSession): string {
	const { json, noInput, answers } = session.options;
	const canAsk = !json && !noInput && process.stdin.isTTY === true && process.stderr.isTTY === true;
	return canAsk || answers.size > 0
		? 'Note: this command line has no model, so it does not offer sampling; servers that list some tools only to clients that do (VS Code does) show fewer tools here.'
		: 'Note: this command line cannot answer sampling or elicitation requests, as it has no model and nothing to ask in here (forms are declined unless --answer fills them); servers that list some tools only to clients that offer sampling (VS Code does) show fewer tools here.';
}

/**
 * The tools of `view` whose definition changed since a `list` first pinned them (manager/pinning; the pins are in the
 * user's state folder, cli/pinFile.ts). The first listing of a server pins it and marks nothing.
 */
function changedSincePinned(view: ServerView, store = new FilePinStore()): string[] {
	const identity = serverIdentity(view);
	const tools = view.tools.map((named) => named.tool);
	const record = store.get(identity);
	if (!record) {
		store.set(identity, pinAll({ tools, prompts: view.prompts, templates: view.resourceTemplates }));
		return [];
	}
	return tools.filter((tool) => isChanged(record, 'tool', tool)).map((tool) => tool.name);
}

async function list(session: CliSession, names: readonly string[], out: Output): Promise<number> {
	const entries = session.select(names).filter((entry) => names.length > 0 || !entry.config.disabled);
	const { views, unresolved } = await session.start(entries);
	const json: unknown[] = [];
	const lines: string[] = [];
	let failed = false;
	for (const entry of entries) {
		const problems = unresolved.get(entry.name);
		const state = views.get(entry.name)?.state;
		if (problems || state?.kind !== 'running') {
			failed = true;
			const error = problems
				? problems.join('; ')
				: state?.kind === 'error' || state?.kind === 'needsSignIn'
					? state.message
					: `not running (${state?.kind ?? 'unknown'})`;
			json.push({ name: entry.name, state: 'error', error });
			lines.push(`${entry.name}: ${error}`, '');
			continue;
		}
		const client = state.client;
		const view = views.get(entry.name)!;
		await session.listsReady(view);
		const tools = view.tools.map((t) => t.tool);
		const { resources, resourceTemplates, prompts } = view;
		const disabledTools = session.workspace.disabledTools[entry.name] ?? [];
		const changedTools = changedSincePinned(view);
		json.push({
			name: entry.name,
			state: 'running',
			protocolVersion: client.protocolVersion,
			serverInfo: client.serverInfo,
			tools,
			disabledTools,
			changedTools,
			resources,
			resourceTemplates,
			prompts,
		});
		lines.push(
			`${entry.name}  ${client.serverInfo.name} ${client.serverInfo.version}, protocol ${client.protocolVersion}`,
		);
		const section = (
			title: string,
			items: readonly {
				name?: string;
				uri?: string;
				uriTemplate?: string;
				description?: string;
				off?: boolean;
				changed?: boolean;
			}[],
			note = '',
		) => {
			if (items.length === 0) return;
			lines.push(`  ${title} (${items.length}${note})`);
			for (const item of items) {
				const label = item.name ?? item.uri ?? item.uriTemplate ?? '';
				const first = item.description?.split('\n')[0];
				const marks = `${item.changed ? ' (changed since first listed)' : ''}${item.off ? ' (switched off)' : ''}`;
				lines.push(`    ${label}${marks}${first ? ` — ${first}` : ''}`);
			}
		};
		const toolRows = tools.map((tool) => ({
			name: tool.name,
			description: tool.description,
			off: session.toolDisabled(entry.name, tool.name),
			changed: changedTools.includes(tool.name),
		}));
		const off = toolRows.filter((row) => row.off).length;
		section(
			'tools',
			toolRows,
			off > 0 ? `, ${off} switched off for chat models by ${session.disabledToolsSource()}` : '',
		);
		section(
			'resources',
			resources.map((r) => ({ name: r.uri, description: r.name })),
		);
		section(
			'resource templates',
			resourceTemplates.map((t) => ({ name: t.uriTemplate, description: t.name })),
		);
		section('prompts', prompts);
		lines.push('');
	}
	if (entries.length === 0) lines.push(session.configuredText());
	if (json.some((server) => (server as { state: string }).state === 'running')) lines.push(fewerToolsNote(session));
	out.result(lines.join('\n').trimEnd(), {
		toolProfile: session.workspace.toolProfile ?? null,
		servers: json,
		problems: session.workspace.problems,
	});
	// A configuration problem (on stderr) means the list is not the whole of what is configured: not a success.
	return failed || session.workspace.problems.length > 0 ? EXIT.failed : EXIT.ok;
}
