/**
 * The servers a workspace folder configures, read the way the extension reads them but from files: the
 * `mcpSwitchboard.servers` key of `.vscode/settings.json`, `.vscode/mcp.json` (VS Code's format, with `inputs`),
 * `.mcp.json` (the `mcpServers` file other MCP hosts keep at a project's root), and VS Code's user settings and
 * user `mcp.json`, in the one precedence of manager/configSources.ts, as in the editor. Variables are resolved with the folder as
 * `${workspaceFolder}`; `${input:id}` values come from `inputValue` (flags, environment or a terminal prompt).
 * The tools the workspace switches off for chat models (settings.json, manager/toolEnablement.ts) are read too, so
 * `list` and `call` can say so.
 */
import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { InputDefinition, ServerEntry } from '../manager/config';
import {
	combineLayers,
	defaultVsCodeUserDir,
	mcpJsonLayer,
	readFolderFiles,
	settingsLayer,
	USER_MCP_JSON_LABEL,
	type ConfigLayer,
} from '../manager/configSources';
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

/** Reads a file as text, undefined when it does not exist. */
async function readIfThere(file: string): Promise<string | undefined> {
	return readText(file);
}

/**
 * Reads every configuration file of `folder`, and the user-level ones of VS Code's default profile
 * (`defaultVsCodeUserDir`: its settings.json's `mcpSwitchboard.servers` and its `mcp.json`), merged in the order the
 * extension uses (manager/configSources.ts). Never throws for a file's content: that becomes a problem.
 */
export async function readWorkspaceServers(
	folder: string,
	userDir: string | undefined = defaultVsCodeUserDir(process.env, process.platform, os.homedir()),
): Promise<WorkspaceServers> {
	const problems: string[] = [];
	const files: string[] = [];
	const layers: ConfigLayer[] = [];
	let enablement: ReturnType<typeof activeDisabledTools> = { profile: undefined, disabled: {} };

	const settingsFile = path.join(folder, '.vscode', 'settings.json');
	const settings = readSettingsFile(settingsFile, '.vscode/settings.json', problems);
	if (settings) {
		files.push(settingsFile);
		const label = '.vscode/settings.json';
		const parsed = settingsLayer(
			'workspaceSettings',
			settings['mcpSwitchboard.servers'],
			{ kind: 'workspace', label, path: settingsFile },
			folder,
		);
		problems.push(...parsed.problems);
		layers.push(parsed.layer);
		enablement = activeDisabledTools({
			disabled: settings[EnablementSettings.disabled],
			profiles: settings[EnablementSettings.profiles],
			activeProfile: settings[EnablementSettings.activeProfile],
		});
	}
	const folderFiles = await readFolderFiles(folder, readIfThere);
	layers.push(...folderFiles.layers);
	problems.push(...folderFiles.problems);
	files.push(...folderFiles.files);
	if (userDir !== undefined) {
		const userSettingsFile = path.join(userDir, 'settings.json');
		const userSettings = readSettingsFile(userSettingsFile, 'User settings', problems);
		if (userSettings && userSettings['mcpSwitchboard.servers'] !== undefined) {
			files.push(userSettingsFile);
			const parsed = settingsLayer('userSettings', userSettings['mcpSwitchboard.servers'], {
				kind: 'user',
				label: 'User settings',
				path: userSettingsFile,
			});
			problems.push(...parsed.problems);
			layers.push(parsed.layer);
		}
		const userMcpJson = path.join(userDir, 'mcp.json');
		const text = readText(userMcpJson);
		if (text !== undefined) {
			files.push(userMcpJson);
			const parsed = mcpJsonLayer('userMcpJson', text, { label: USER_MCP_JSON_LABEL, path: userMcpJson });
			problems.push(...parsed.problems);
			layers.push(parsed.layer);
		}
	}
	const combined = combineLayers(layers, { home: os.homedir(), defaultFolder: folder });
	problems.push(...combined.problems);
	return {
		entries: combined.servers,
		inputs: combined.inputs,
		problems,
		files,
		disabledTools: enablement.disabled,
		toolProfile: enablement.profile,
	};
}

/** A settings.json file's object (JSONC), undefined when it is missing or not an object (a problem says why). */
function readSettingsFile(file: string, label: string, problems: string[]): Record<string, unknown> | undefined {
	const text = readText(file);
	if (text === undefined) return undefined;
	const parsed = parseJsonc(text);
	if (parsed.error !== undefined) problems.push(`${label}: not valid JSON: ${parsed.error}`);
	const value = parsed.value;
	return typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: undefined;
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
