/**
 * The servers a workspace folder configures, read the way the extension reads them but from files: the
 * `mcpSwitchboard.servers` key of `.vscode/settings.json`, `.vscode/mcp.json` (VS Code's format, with `inputs`),
 * and `.mcp.json` (the `mcpServers` file other MCP hosts keep at a project's root). The same name in an earlier
 * file wins (settings, then mcp.json, then .mcp.json), as in the editor. Variables are resolved with the folder as
 * `${workspaceFolder}`; `${input:id}` values come from `inputValue` (flags, environment or a terminal prompt).
 * The tools the workspace switches off for chat models (settings.json, manager/toolEnablement.ts) are read too, so
 * `list` and `call` can say so.
 */
import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { mergeServers, parse, parseMcpJson, type InputDefinition, type ServerEntry } from '../manager/config';
import { parseJsonc } from '../manager/jsonc';
import { resolveEntry } from '../manager/resolveEntry';
import { activeDisabledTools, EnablementSettings, type DisabledTools } from '../manager/toolEnablement';
import type { ResolvedServer } from '../manager/types';
import type { VariableContext } from '../manager/variables';

/** A configured server before resolution, with the file it came from (for `servers` and problems). */
export interface WorkspaceServers {
	entries: ServerEntry[];
	inputs: Map<string, InputDefinition>;
	/** One line per problem, naming the file and the server. */
	problems: string[];
	/** The files that were found and read. */
	files: string[];
	/** The tools `.vscode/settings.json` switches off for chat models, and the tool profile that list comes from. */
	disabledTools: DisabledTools;
	toolProfile: string | undefined;
}

/** Asks for the value of an input; undefined when it has none (the server is then not started). */
export type InputValue = (definition: InputDefinition | undefined, id: string) => Promise<string | undefined>;

/** Read synchronously: a few small files in a one-shot process, and node:fs/promises costs ~2 ms to load. */
function readText(file: string): string | undefined {
	try {
		return readFileSync(file, 'utf8');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
		throw error;
	}
}

/** Reads every configuration file of `folder`. Never throws for a file's content: that becomes a problem. */
export async function readWorkspaceServers(folder: string): Promise<WorkspaceServers> {
	const problems: string[] = [];
	const files: string[] = [];
	const layers: ServerEntry[][] = [];
	const inputs = new Map<string, InputDefinition>();
	let enablement: ReturnType<typeof activeDisabledTools> = { profile: undefined, disabled: {} };

	const settingsFile = path.join(folder, '.vscode', 'settings.json');
	const settingsText = readText(settingsFile);
	if (settingsText !== undefined) {
		files.push(settingsFile);
		const label = '.vscode/settings.json';
		const parsed = parseJsonc(settingsText);
		if (parsed.error !== undefined) problems.push(`${label}: not valid JSON: ${parsed.error}`);
		const settings = parsed.value;
		if (typeof settings === 'object' && settings !== null) {
			const values = settings as Record<string, unknown>;
			const result = parse(values['mcpSwitchboard.servers'], { kind: 'workspace', label, path: settingsFile });
			problems.push(...result.problems);
			layers.push(result.servers);
			enablement = activeDisabledTools({
				disabled: values[EnablementSettings.disabled],
				profiles: values[EnablementSettings.profiles],
				activeProfile: values[EnablementSettings.activeProfile],
			});
		}
	}
	for (const [relative, kind] of [
		['.vscode/mcp.json', 'mcpJson'],
		['.mcp.json', 'mcpJson'],
	] as const) {
		const file = path.join(folder, relative);
		const text = readText(file);
		if (text === undefined) continue;
		files.push(file);
		const result = parseMcpJson(text, { kind, label: relative, path: file });
		problems.push(...result.problems);
		layers.push(result.servers);
		for (const input of result.inputs) if (!inputs.has(input.id)) inputs.set(input.id, input);
	}
	const merged = mergeServers(layers);
	problems.push(...merged.problems);
	return {
		entries: merged.servers,
		inputs,
		problems,
		files,
		disabledTools: enablement.disabled,
		toolProfile: enablement.profile,
	};
}

/**
 * Resolves one entry's variables and reads its `envFile` (manager/resolveEntry.ts, as the extension does, with the
 * folder as `${workspaceFolder}` and default working folder). Returns undefined (with problems naming the server and
 * field) when it cannot be started: an unknown variable, an input without a value, an unreadable envFile.
 */
export async function resolveWorkspaceEntry(
	entry: ServerEntry,
	folder: string,
	inputs: Map<string, InputDefinition>,
	inputValue: InputValue,
	problems: string[],
): Promise<ResolvedServer | undefined> {
	const context: VariableContext = {
		workspaceFolder: folder,
		workspaceFolders: [{ name: path.basename(folder), path: folder }],
		userHome: os.homedir(),
		env: process.env,
		pathSeparator: path.sep,
		input: (id) => inputValue(inputs.get(id), id),
	};
	const resolved = await resolveEntry(entry, {
		context,
		defaultCwd: folder,
		readFile: async (file) => readFileSync(file, 'utf8'),
	});
	problems.push(...resolved.problems);
	if (!resolved.config) return undefined;
	const notes = resolved.problems.filter((p) => p.includes(`'${entry.name}'`));
	return {
		name: entry.name,
		config: resolved.config,
		source: entry.source,
		workspaceDefined: entry.workspaceDefined,
		...(notes.length > 0 ? { notes } : {}),
	};
}
