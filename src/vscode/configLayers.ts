/**
 * Every source of servers as VS Code holds them, as the layers of manager/configSources.ts (one precedence with the
 * command line): `mcpSwitchboard.servers` at folder, workspace and user scope, each folder's `.vscode/mcp.json` and
 * project-root `.mcp.json`, and the profile's user `mcp.json` (userMcpJson.ts). Only reads; settings.ts merges.
 */
import * as vscode from 'vscode';
import {
	combineLayers,
	mcpJsonLayer,
	readFolderFiles,
	settingsLayer,
	USER_MCP_JSON_LABEL,
	type CombinedServers,
	type ConfigLayer,
	type LastValidLayers,
} from '../manager/configSources';
import type { ConfigSource } from '../manager/types';
import type { UserMcpJson } from './userMcpJson';
import { readText } from './shared/readText';
import * as os from 'node:os';
import { sha256Hex } from '../common/sha256';

const SECTION = 'mcpSwitchboard';
const SERVERS = 'servers';
/** VS Code's own setting for reading the project-root `.mcp.json` (experimental in 1.139, off in stable). */
const VSCODE_ROOT_CONFIG = 'chat.mcp.workspaceRootConfig.enabled';

/** This window's last valid read of each mcp.json (configSources.ts LastValidLayers). */
const lastValidFiles: LastValidLayers = new Map();

/**
 * What a window read of its sources: the files parsed (a workspace has a few), the settings' servers not yet, and a
 * fingerprint of it all, so a window whose sources are what the last one read can show that window's rows before
 * parsing and resolving fifty servers (tree/rowSnapshot.ts).
 */
export interface ConfigRead {
	/** sha-256 of every setting value and file text read: any edit changes it. */
	fingerprint: string;
	/** Every layer, unordered (combineLayers orders them), with the problems of parsing them; parsed once. */
	layers(): { layers: ConfigLayer[]; problems: string[] };
}

/** Reads every source of this window (settings at each scope, each folder's files, the user mcp.json). */
export async function readConfigLayers(userMcpJson: UserMcpJson | undefined): Promise<ConfigRead> {
	const folders = vscode.workspace.workspaceFolders ?? [];
	const multiRoot = vscode.workspace.workspaceFile !== undefined || folders.length > 1;
	/** What the fingerprint covers, in the order read. */
	const read: unknown[] = [];
	const settings: Parameters<typeof settingsLayer>[] = [];
	const addSettings = (
		origin: 'folderSettings' | 'workspaceSettings' | 'userSettings',
		raw: unknown,
		source: ConfigSource,
		folder?: vscode.WorkspaceFolder,
	) => {
		read.push(origin, source.label, raw);
		settings.push([origin, raw, source, folder?.uri.fsPath]);
	};

	if (multiRoot) {
		for (const folder of folders) {
			const inspected = vscode.workspace.getConfiguration(SECTION, folder.uri).inspect<unknown>(SERVERS);
			if (inspected?.workspaceFolderValue !== undefined)
				addSettings(
					'folderSettings',
					inspected.workspaceFolderValue,
					{ kind: 'workspace', label: `Folder settings (${folder.name})` },
					folder,
				);
		}
	}
	const inspected = vscode.workspace.getConfiguration(SECTION).inspect<unknown>(SERVERS);
	if (inspected?.workspaceValue !== undefined) {
		const label = multiRoot ? 'Workspace settings' : `Workspace settings (${folders[0]?.name ?? 'workspace'})`;
		addSettings(
			'workspaceSettings',
			inspected.workspaceValue,
			{
				kind: 'workspace',
				label,
				...(vscode.workspace.workspaceFile ? { path: vscode.workspace.workspaceFile.fsPath } : {}),
			},
			multiRoot ? undefined : folders[0],
		);
	}
	if (inspected?.globalValue !== undefined)
		addSettings('userSettings', inspected.globalValue, { kind: 'user', label: 'User settings' });

	// Every file at once: the folders' files and the user mcp.json.
	const [folderFiles, user] = await Promise.all([
		Promise.all(
			folders.map((folder) => {
				const readFile = async (file: string) => {
					const text = await readText(vscode.Uri.joinPath(folder.uri, file.slice(folder.uri.fsPath.length)));
					read.push(file, text ?? null);
					return text;
				};
				return readFolderFiles(folder.uri.fsPath, readFile, folder.name, lastValidFiles);
			}),
		),
		userMcpJson?.read(),
	]);
	if (user) read.push(user.path, user.text);
	const fingerprint = sha256Hex(JSON.stringify(read));

	let parsed: { layers: ConfigLayer[]; problems: string[] } | undefined;
	const layers = () => {
		if (parsed) return parsed;
		parsed = { layers: [], problems: [] };
		for (const args of settings) {
			const layer = settingsLayer(...args);
			parsed.layers.push(layer.layer);
			parsed.problems.push(...layer.problems);
		}
		for (const files of folderFiles) {
			parsed.layers.push(...files.layers);
			parsed.problems.push(...files.problems);
		}
		if (user) {
			const layer = mcpJsonLayer(
				'userMcpJson',
				user.text,
				{ label: USER_MCP_JSON_LABEL, path: user.path },
				undefined,
				lastValidFiles,
			);
			parsed.layers.push(layer.layer);
			parsed.problems.push(...layer.problems);
		}
		return parsed;
	};
	return { fingerprint, layers };
}

/**
 * Whether this VS Code runs MCP servers for its agent at all: it has the MCP API and `chat.mcp.access` (1.139; the
 * older `chat.mcp.enabled`) does not turn them off.
 */
export function vscodeRunsMcp(): boolean {
	const config = vscode.workspace.getConfiguration();
	if (typeof vscode.lm?.registerMcpServerDefinitionProvider !== 'function') return false;
	return config.get<unknown>('chat.mcp.access') !== 'none' && config.get<unknown>('chat.mcp.enabled') !== false;
}

/** The layers merged in the shared precedence, runs of the same server folded into one, VS Code's own marked. */
export function combineWindowLayers(layers: readonly ConfigLayer[]): CombinedServers {
	const first = vscode.workspace.workspaceFolders?.[0];
	return combineLayers(layers, {
		home: os.homedir(),
		...(first ? { defaultFolder: first.uri.fsPath } : {}),
		vscodeReadsProjectMcpJson: vscode.workspace.getConfiguration().get<boolean>(VSCODE_ROOT_CONFIG, false),
		vscodeRunsNone: !vscodeRunsMcp(),
	});
}
