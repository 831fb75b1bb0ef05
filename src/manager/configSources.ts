/**
 * Every place a server can be configured, in ONE precedence shared by the extension (src/vscode/settings.ts) and
 * the command line (src/cli/workspaceConfig.ts), so both list the same servers for the same folder.
 *
 * Precedence, first wins when two sources name the same server:
 *   1. `mcpSwitchboard.servers` in folder settings (multi-root), 2. in workspace settings, 3. in user settings,
 *   4. each folder's `.vscode/mcp.json` (VS Code's own file), 5. the folder's project-root `.mcp.json` (the file
 *   Claude Code and other hosts keep), 6. the VS Code profile's user-level `mcp.json` (the file *MCP: Open User
 *   Configuration* opens; servers installed from VS Code's gallery or *MCP: Add Server*).
 * Switchboard's own settings come first (they are where a user overrides an entry), then the files from the most
 * specific to the least. Workspace sources (2, 4, 5 and folder settings) need the user's trust; user settings and the
 * user `mcp.json` do not.
 *
 * The same server defined in two sources under different names (same launch command, arguments and working folder,
 * or the same URL, after the variables that need no question: `${workspaceFolder}`, `${userHome}`) runs once (two
 * names for one launch in the same file are taken as deliberate and both run): the entry
 * of the source earlier in the list keeps its name and configuration, the others are listed in its source's
 * `alsoIn` (the tree's tooltip shows both).
 *
 * VS Code itself runs the servers of sources 4 and 6 for its agent (and 5 when `chat.mcp.workspaceRootConfig.enabled`
 * is on): those entries are marked `vscodeRuns`, so the gateway never offers them again and the tree says so.
 */
import * as path from 'node:path';
import { parse, parseMcpJson, type InputDefinition, type ServerEntry } from './config';
import type { ConfigSource } from './types';

/** A kind of configuration source, in precedence order (see the file comment). */
export type ConfigOrigin =
	'folderSettings' | 'workspaceSettings' | 'userSettings' | 'workspaceMcpJson' | 'projectMcpJson' | 'userMcpJson';

/** The sources, first wins. */
export const CONFIG_PRECEDENCE: readonly ConfigOrigin[] = [
	'folderSettings',
	'workspaceSettings',
	'userSettings',
	'workspaceMcpJson',
	'projectMcpJson',
	'userMcpJson',
];

/** Where each source lives, for people (the README's list, the CLI's `servers`). */
export const CONFIG_SOURCE_FILES: Readonly<Record<ConfigOrigin, string>> = {
	folderSettings: '"mcpSwitchboard.servers" in a folder\'s settings (multi-root workspaces)',
	workspaceSettings: '"mcpSwitchboard.servers" in the workspace settings (.vscode/settings.json)',
	userSettings: '"mcpSwitchboard.servers" in the user settings',
	workspaceMcpJson: '.vscode/mcp.json in each workspace folder',
	projectMcpJson: '.mcp.json at the root of each workspace folder',
	userMcpJson: "the VS Code profile's mcp.json (MCP: Open User Configuration)",
};

/** The files inside a workspace folder that configure servers, relative to it. */
export const FOLDER_FILES: readonly { relative: string; origin: 'workspaceMcpJson' | 'projectMcpJson' }[] = [
	{ relative: '.vscode/mcp.json', origin: 'workspaceMcpJson' },
	{ relative: '.mcp.json', origin: 'projectMcpJson' },
];

/** One source's servers, before merging. */
export interface ConfigLayer {
	origin: ConfigOrigin;
	entries: ServerEntry[];
	inputs: InputDefinition[];
	/** The folder `${workspaceFolder}` means for this layer's entries (absent: the first folder). */
	folder?: string;
}

/** Parses one `mcpSwitchboard.servers` value as a layer. */
export function settingsLayer(
	origin: 'folderSettings' | 'workspaceSettings' | 'userSettings',
	raw: unknown,
	source: ConfigSource,
	folder?: string,
): { layer: ConfigLayer; problems: string[] } {
	const result = parse(raw, source);
	return { layer: withFolder({ origin, entries: result.servers, inputs: [] }, folder), problems: result.problems };
}

/**
 * Parses one mcp.json-format file (`.vscode/mcp.json`, `.mcp.json` or the user's `mcp.json`) as a layer. The user
 * `mcp.json` is user-defined: its servers need no trust question.
 */
export function mcpJsonLayer(
	origin: 'workspaceMcpJson' | 'projectMcpJson' | 'userMcpJson',
	text: string,
	source: { label: string; path: string },
	folder?: string,
	lastValid?: LastValidLayers,
): { layer: ConfigLayer; problems: string[] } {
	const kind: ConfigSource['kind'] = origin === 'userMcpJson' ? 'userMcpJson' : 'mcpJson';
	const result = parseMcpJson(text, { kind, label: source.label, path: source.path });
	const layer = withFolder({ origin, entries: result.servers, inputs: result.inputs }, folder);
	if (!lastValid) return { layer, problems: result.problems };
	if (!result.unreadable) {
		lastValid.set(source.path, layer);
		return { layer, problems: result.problems };
	}
	const kept = lastValid.get(source.path);
	if (!kept) return { layer, problems: result.problems };
	return {
		layer: kept,
		problems: [
			...result.problems,
			`${source.label}: its servers as last read stay as they are until the file is valid again`,
		],
	};
}

/**
 * The last layer read from each mcp.json that parsed (by path): a file read while an editor or Switchboard writes
 * it, or saved with a typo, does not stop the servers it defines; they stay as they were until it parses again.
 */
export type LastValidLayers = Map<string, ConfigLayer>;

function withFolder(layer: ConfigLayer, folder: string | undefined): ConfigLayer {
	if (folder !== undefined) layer.folder = folder;
	return layer;
}

/**
 * Reads a folder's `.vscode/mcp.json` and `.mcp.json` through `read` (undefined: no such file). `name` labels them
 * (`<name>/.vscode/mcp.json`); without it the label is the relative path. With `lastValid`, a file that does not
 * parse gives its last valid layer (see LastValidLayers).
 */
export async function readFolderFiles(
	folder: string,
	read: (file: string) => Promise<string | undefined>,
	name?: string,
	lastValid?: LastValidLayers,
): Promise<{ layers: ConfigLayer[]; problems: string[]; files: string[] }> {
	const layers: ConfigLayer[] = [];
	const problems: string[] = [];
	const files: string[] = [];
	// Read together, taken in order.
	const paths = FOLDER_FILES.map(({ relative }) => path.join(folder, ...relative.split('/')));
	const texts = await Promise.all(paths.map((file) => read(file)));
	for (const [i, { relative, origin }] of FOLDER_FILES.entries()) {
		const file = paths[i]!;
		const text = texts[i];
		if (text === undefined) {
			lastValid?.delete(file);
			continue;
		}
		files.push(file);
		const label = name === undefined ? relative : `${name}/${relative}`;
		const parsed = mcpJsonLayer(origin, text, { label, path: file }, folder, lastValid);
		layers.push(parsed.layer);
		problems.push(...parsed.problems);
	}
	return { layers, problems, files };
}

/** What combining the layers needs to know about the machine and VS Code. */
export interface CombineOptions {
	/** `${userHome}` for launch identities. */
	home: string;
	/** The first workspace folder (`${workspaceFolder}` of layers without one). */
	defaultFolder?: string;
	/** VS Code reads the project-root `.mcp.json` too (`chat.mcp.workspaceRootConfig.enabled`). */
	vscodeReadsProjectMcpJson?: boolean;
	/** VS Code runs no MCP servers at all (`chat.mcp.access: "none"`, or a command line): nothing is marked. */
	vscodeRunsNone?: boolean;
}

/** The merged list and what it took to make it. */
export interface CombinedServers {
	/** One entry per server, in precedence order of the source that defined it. */
	servers: ServerEntry[];
	/** Every layer's `inputs`, the first definition of an id winning. */
	inputs: Map<string, InputDefinition>;
	/** The layer's folder of each entry (for `${workspaceFolder}`). */
	folderOf: Map<ServerEntry, string | undefined>;
	problems: string[];
}

/** The origins VS Code itself runs for its agent. */
export function vscodeRunsOrigin(
	origin: ConfigOrigin,
	options: Pick<CombineOptions, 'vscodeReadsProjectMcpJson' | 'vscodeRunsNone'>,
): boolean {
	if (options.vscodeRunsNone === true) return false;
	return (
		origin === 'workspaceMcpJson' ||
		origin === 'userMcpJson' ||
		(origin === 'projectMcpJson' && options.vscodeReadsProjectMcpJson === true)
	);
}

/**
 * Orders the layers by precedence (stable within an origin: folders in workspace order), merges them by name, runs
 * a server defined twice under two names once, and marks the servers VS Code runs itself.
 */
export function combineLayers(layers: readonly ConfigLayer[], options: CombineOptions): CombinedServers {
	const ordered = [...layers].sort((a, b) => CONFIG_PRECEDENCE.indexOf(a.origin) - CONFIG_PRECEDENCE.indexOf(b.origin));
	const folderOf = new Map<ServerEntry, string | undefined>();
	const inputs = new Map<string, InputDefinition>();
	for (const layer of ordered) {
		for (const entry of layer.entries) {
			folderOf.set(entry, layer.folder ?? options.defaultFolder);
		}
		for (const input of layer.inputs) if (!inputs.has(input.id)) inputs.set(input.id, input);
	}
	const problems: string[] = [];
	const byName = new Map<string, ServerEntry>();
	const byLaunch = new Map<string, ServerEntry>();
	const servers: ServerEntry[] = [];
	/** Folds `entry` into `kept` (the same server): its source is listed, and VS Code's running it is noted. */
	const fold = (kept: ServerEntry, entry: ServerEntry, origin: ConfigOrigin) => {
		kept.source = {
			...kept.source,
			alsoIn: [...(kept.source.alsoIn ?? []), { ...entry.source, name: entry.name }],
			...(vscodeRunsOrigin(origin, options) && !kept.source.vscodeRuns
				? { vscodeRuns: true, vscodeName: entry.name }
				: {}),
		};
	};
	for (const layer of ordered) {
		for (const entry of layer.entries) {
			const origin = layer.origin;
			const identity = launchIdentity(entry, folderOf.get(entry), options.home);
			const sameName = byName.get(entry.name);
			if (sameName) {
				// The same name and the same launch in another file (VS Code may run that copy): one server, both sources.
				if (identity !== undefined && identity === launchIdentity(sameName, folderOf.get(sameName), options.home))
					fold(sameName, entry, origin);
				else if (sameName.source.label !== entry.source.label)
					problems.push(
						`Server '${entry.name}' in ${entry.source.label} is overridden by the one in ${sameName.source.label}`,
					);
				continue;
			}
			const twin = identity === undefined ? undefined : byLaunch.get(identity);
			// Twins within one file are deliberate (two names for two processes); only another source's copy folds.
			if (twin && twin.source.label !== entry.source.label) {
				fold(twin, entry, origin);
				problems.push(
					`Server '${entry.name}' in ${entry.source.label} runs the same as '${twin.name}' in ${twin.source.label}: it runs once, as '${twin.name}'`,
				);
				continue;
			}
			const copy: ServerEntry = { ...entry };
			if (vscodeRunsOrigin(origin, options))
				copy.source = { ...entry.source, vscodeRuns: true, vscodeName: entry.name };
			folderOf.set(copy, folderOf.get(entry));
			byName.set(entry.name, copy);
			if (identity !== undefined && !byLaunch.has(identity)) byLaunch.set(identity, copy);
			servers.push(copy);
		}
	}
	return { servers, inputs, folderOf, problems };
}

/**
 * What makes two entries the same server: the command, arguments and working folder (stdio) or the URL (remote),
 * with `${workspaceFolder}` and `${userHome}` replaced. Undefined for a disabled entry (it never runs) or one whose
 * launch still depends on a question or the environment (`${input:…}`, `${env:…}`): those are compared by name only.
 */
export function launchIdentity(entry: ServerEntry, folder: string | undefined, home: string): string | undefined {
	const config = entry.config;
	if (config.disabled) return undefined;
	const expand = (text: string) =>
		text
			.replace(/\$\{workspaceFolder\}/g, folder ?? '${workspaceFolder}')
			.replace(/\$\{userHome\}/g, home)
			.replace(/\$\{pathSeparator\}|\$\{\/\}/g, path.sep);
	const parts =
		config.type === 'stdio'
			? ['stdio', config.command, ...(config.args ?? []), `cwd=${path.resolve(expand(config.cwd ?? folder ?? home))}`]
			: ['url', config.url.replace(/\/+$/, '')];
	const expanded = parts.map(expand);
	if (expanded.some((part) => /\$\{(input|env|command):/.test(part))) return undefined;
	return JSON.stringify(expanded);
}

/** The tooltip's line for a server's sources: where it is configured, and the other places that define it too. */
export function describeSources(source: ConfigSource): string {
	const also = (source.alsoIn ?? []).map((other) =>
		other.name === undefined ? other.label : `${other.label} (as '${other.name}')`,
	);
	return also.length === 0 ? source.label : `${source.label}; also ${also.join(', ')}`;
}

/**
 * The default VS Code profile's `User` folder on this machine, for the command line (the extension asks VS Code):
 * `MCP_SWITCHBOARD_VSCODE_USER_DIR` when set (empty: none), else VS Code's default per platform.
 */
export function defaultVsCodeUserDir(
	env: NodeJS.ProcessEnv,
	platform: NodeJS.Platform,
	home: string,
): string | undefined {
	const override = env.MCP_SWITCHBOARD_VSCODE_USER_DIR;
	if (override !== undefined) return override === '' ? undefined : override;
	if (platform === 'win32') return env.APPDATA ? path.join(env.APPDATA, 'Code', 'User') : undefined;
	if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Code', 'User');
	return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'Code', 'User');
}

/** The label of the user-level `mcp.json` in tooltips and problems. */
export const USER_MCP_JSON_LABEL = 'User mcp.json';
