/**
 * The server configuration as VS Code holds it: the `mcpSwitchboard.servers` setting at every scope (user,
 * workspace, folder) and each folder's `.vscode/mcp.json`, merged (the most specific setting wins; settings win over
 * mcp.json), with variables resolved (inputs asked, passwords kept in SecretStorage) and `envFile`s read.
 * Also decides workspace trust for workspace-defined servers (see trust.ts).
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { mergeServers, parse, parseDotenv, parseMcpJson, type InputDefinition, type ServerEntry } from '../manager/config';
import type { ConfigSource, ResolvedServer } from '../manager/manager';
import { resolveConfig, resolveString, type VariableContext } from '../manager/variables';
import { InputValues } from './inputs';
import { TrustDecisions } from './trust/trust';

const SECTION = 'mcpSwitchboard';
const SERVERS = 'servers';
/** Events within this window are applied once (saving settings.json fires several). */
const DEBOUNCE_MS = 150;

interface Layer {
	entries: ServerEntry[];
	/** The folder `${workspaceFolder}` means for entries of this layer (undefined: the first folder). */
	folder?: vscode.WorkspaceFolder;
}

/**
 * Reads `mcpSwitchboard.servers` and every `.vscode/mcp.json`, resolves variables (asking for `${input:…}` values,
 * passwords kept in SecretStorage), and decides workspace trust for workspace-defined servers.
 */
export class ServerConfiguration implements vscode.Disposable {
	private readonly changed = new vscode.EventEmitter<void>();
	/** Fires (debounced) when settings, mcp.json files, workspace folders or workspace trust change. */
	readonly onDidChange: vscode.Event<void> = this.changed.event;
	private readonly disposables: vscode.Disposable[] = [];
	private readonly trust: TrustDecisions;
	private readonly inputs: InputValues;
	private timer: NodeJS.Timeout | undefined;
	private inputIdsSeen = new Set<string>();

	constructor(
		context: vscode.ExtensionContext,
		private readonly log: vscode.LogOutputChannel,
	) {
		this.trust = new TrustDecisions(context.workspaceState, context.extensionMode === vscode.ExtensionMode.Test, log);
		this.inputs = new InputValues(context.secrets, () => (vscode.workspace.workspaceFile ?? vscode.workspace.workspaceFolders?.[0]?.uri)?.toString() ?? 'no-workspace');
		const fire = () => this.fireSoon();
		this.disposables.push(
			this.changed,
			vscode.workspace.onDidChangeConfiguration((e) => {
				if (e.affectsConfiguration(`${SECTION}.${SERVERS}`)) fire();
			}),
			vscode.workspace.onDidChangeWorkspaceFolders(fire),
			vscode.workspace.onDidGrantWorkspaceTrust(fire),
		);
		const watcher = vscode.workspace.createFileSystemWatcher('**/.vscode/mcp.json');
		this.disposables.push(watcher, watcher.onDidCreate(fire), watcher.onDidChange(fire), watcher.onDidDelete(fire));
	}

	private fireSoon(): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = setTimeout(() => {
			this.timer = undefined;
			this.changed.fire();
		}, DEBOUNCE_MS);
	}

	/** Never throws on user input: every problem names the server and the field. */
	async resolve(): Promise<{ servers: ResolvedServer[]; problems: string[] }> {
		const problems: string[] = [];
		const { layers, inputs } = await this.readLayers(problems);
		const merged = mergeServers(layers.map((layer) => layer.entries));
		problems.push(...merged.problems);
		const folderOf = new Map<ServerEntry, vscode.WorkspaceFolder | undefined>();
		for (const layer of layers) for (const entry of layer.entries) folderOf.set(entry, layer.folder);

		const servers: ResolvedServer[] = [];
		for (const entry of merged.servers) {
			try {
				const server = await this.resolveEntry(entry, folderOf.get(entry), inputs, problems);
				if (server) servers.push(server);
			} catch (error) {
				problems.push(`Server '${entry.name}': ${error instanceof Error ? error.message : String(error)}`);
			}
		}
		return { servers, problems };
	}

	/** Host.confirmTrust: false without asking in an untrusted workspace; otherwise asks once per config hash. */
	async confirmTrust(server: string, description: string): Promise<boolean> {
		const allowed = await this.trust.confirm(server, description);
		if (!allowed) this.log.info(`Workspace-defined server '${server}' was not started: ${vscode.workspace.isTrusted ? 'not allowed' : 'the workspace is not trusted'}`);
		return allowed;
	}

	/** Forgets every trust decision of this workspace and re-applies the configuration (servers waiting for trust are asked again). */
	async resetTrust(): Promise<number> {
		const count = await this.trust.reset();
		this.changed.fire();
		return count;
	}

	/** Forgets the `${input:…}` answers (and stored passwords) so the next start asks again. */
	async clearInputs(): Promise<void> {
		await this.inputs.clear([...this.inputIdsSeen]);
		this.changed.fire();
	}

	/** `mcpSwitchboard.maxConcurrentStarts.*`: undefined fields leave the Manager's defaults. */
	startLimits(): { stdio?: number; remote?: number } {
		const config = vscode.workspace.getConfiguration(SECTION);
		const limits: { stdio?: number; remote?: number } = {};
		const stdio = config.get<number>('maxConcurrentStarts.stdio');
		const remote = config.get<number>('maxConcurrentStarts.remote');
		if (typeof stdio === 'number' && stdio >= 1) limits.stdio = Math.floor(stdio);
		if (typeof remote === 'number' && remote >= 1) limits.remote = Math.floor(remote);
		return limits;
	}

	dispose(): void {
		if (this.timer) clearTimeout(this.timer);
		for (const disposable of this.disposables) disposable.dispose();
	}

	/** Every layer, most specific first: folder settings, workspace settings, user settings, then each mcp.json. */
	private async readLayers(problems: string[]): Promise<{ layers: Layer[]; inputs: Map<string, InputDefinition> }> {
		const folders = vscode.workspace.workspaceFolders ?? [];
		const multiRoot = vscode.workspace.workspaceFile !== undefined || folders.length > 1;
		const layers: Layer[] = [];
		const add = (raw: unknown, source: ConfigSource, folder?: vscode.WorkspaceFolder) => {
			const result = parse(raw, source);
			problems.push(...result.problems);
			layers.push(folder ? { entries: result.servers, folder } : { entries: result.servers });
		};

		if (multiRoot) {
			for (const folder of folders) {
				const inspected = vscode.workspace.getConfiguration(SECTION, folder.uri).inspect<unknown>(SERVERS);
				if (inspected?.workspaceFolderValue !== undefined) add(inspected.workspaceFolderValue, { kind: 'workspace', label: `Folder settings (${folder.name})` }, folder);
			}
		}
		const inspected = vscode.workspace.getConfiguration(SECTION).inspect<unknown>(SERVERS);
		if (inspected?.workspaceValue !== undefined) {
			const label = multiRoot ? 'Workspace settings' : `Workspace settings (${folders[0]?.name ?? 'workspace'})`;
			add(inspected.workspaceValue, { kind: 'workspace', label, ...(vscode.workspace.workspaceFile ? { path: vscode.workspace.workspaceFile.fsPath } : {}) }, multiRoot ? undefined : folders[0]);
		}
		if (inspected?.globalValue !== undefined) add(inspected.globalValue, { kind: 'user', label: 'User settings' });

		const inputs = new Map<string, InputDefinition>();
		for (const folder of folders) {
			const uri = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
			let text: string;
			try {
				text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
			} catch {
				continue; // No mcp.json in this folder.
			}
			const label = `${folder.name}/.vscode/mcp.json`;
			const result = parseMcpJson(text, { kind: 'mcpJson', label, path: uri.fsPath });
			problems.push(...result.problems);
			layers.push({ entries: result.servers, folder });
			for (const input of result.inputs) if (!inputs.has(input.id)) inputs.set(input.id, input);
		}
		return { layers, inputs };
	}

	private variableContext(folder: vscode.WorkspaceFolder | undefined, inputs: Map<string, InputDefinition>): VariableContext {
		const folders = vscode.workspace.workspaceFolders ?? [];
		const base = folder ?? folders[0];
		const context: VariableContext = {
			workspaceFolders: folders.map((f) => ({ name: f.name, path: f.uri.fsPath })),
			userHome: os.homedir(),
			env: process.env,
			pathSeparator: path.sep,
			input: (id) => {
				this.inputIdsSeen.add(id);
				return this.inputs.get(id, inputs.get(id));
			},
		};
		if (base) context.workspaceFolder = base.uri.fsPath;
		return context;
	}

	private async resolveEntry(entry: ServerEntry, folder: vscode.WorkspaceFolder | undefined, inputs: Map<string, InputDefinition>, problems: string[]): Promise<ResolvedServer | undefined> {
		const base = { name: entry.name, source: entry.source, workspaceDefined: entry.workspaceDefined };
		// A disabled server never starts: do not ask for its inputs. Its config is kept as written (for the tree).
		if (entry.config.disabled) return { ...base, config: entry.config };
		const context = this.variableContext(folder, inputs);
		const resolved = await resolveConfig(entry.name, entry.config, context);
		problems.push(...resolved.problems);
		if (!resolved.config) {
			this.log.warn(`Server '${entry.name}' was not started: its configuration could not be resolved`);
			return undefined;
		}
		const config = resolved.config;
		if (entry.envFile !== undefined && config.type === 'stdio') {
			const file = await resolveString(entry.envFile, context, `Server '${entry.name}': field "envFile"`);
			problems.push(...file.problems);
			if (file.value === undefined) return undefined;
			const absolute = path.isAbsolute(file.value) ? file.value : path.join(context.workspaceFolder ?? os.homedir(), file.value);
			try {
				const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(absolute)));
				const parsed = parseDotenv(text, absolute);
				problems.push(...parsed.problems.map((p) => `Server '${entry.name}': field "envFile": ${p}`));
				config.env = { ...parsed.env, ...config.env };
			} catch (error) {
				problems.push(`Server '${entry.name}': field "envFile": cannot read ${absolute} (${error instanceof Error ? error.message : String(error)})`);
				return undefined;
			}
		}
		return { ...base, config };
	}
}
