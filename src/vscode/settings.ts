/**
 * The server configuration as VS Code holds it: the `mcpSwitchboard.servers` setting at every scope (user,
 * workspace, folder), each folder's `.vscode/mcp.json` and `.mcp.json`, and the profile's user `mcp.json`, merged in
 * the precedence of manager/configSources.ts (shared with the command line). User-level servers are resolved here (inputs from `mcpSwitchboard.inputs`, passwords kept in
 * SecretStorage); a workspace-defined server is handed to the Manager as written, with a `resolve` the Manager calls
 * only after the user allowed it (trust.ts): until then no `${input:}` is asked, no envFile read, no `${env:}`
 * expanded, and the tree shows the unresolved text.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { parseInputs, type InputDefinition, type ServerEntry } from '../manager/config';
import type { ResolvedServer } from '../manager/manager';
import { describeAsWritten } from '../manager/trustText';
import type { ServerConfig } from '../manager/types';
import { resolveEntry } from '../manager/resolveEntry';
import type { VariableContext } from '../manager/variables';
import { InputValues, USER_INPUT_SCOPE } from './inputs';
import { TrustDecisions } from './trust/trust';
import { errorMessage } from '../common/errors';
// world: the sources and their precedence live in manager/configSources.ts (shared with the CLI).
import { combineWindowLayers, readConfigLayers, type ConfigRead } from './configLayers';
import { UserMcpJson } from './userMcpJson';

const SECTION = 'mcpSwitchboard';
const SERVERS = 'servers';
/** User-level `inputs` (mcp.json's format) for `${input:…}` in user-level servers; workspace values are ignored. */
const INPUTS = 'inputs';
/** Events within this window are applied once (saving settings.json fires several). */
const DEBOUNCE_MS = 150;

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
	/** Answers for `${input:…}` of workspace-defined servers (secrets scoped to this workspace). */
	private readonly inputs: InputValues;
	/** Answers for `${input:…}` of user-level servers (`mcpSwitchboard.inputs`; secrets shared by every window). */
	private readonly userInputs: InputValues;
	private timer: NodeJS.Timeout | undefined;
	private inputIdsSeen = new Set<string>();
	/** world: the profile's user-level mcp.json (VS Code's own user servers), read and watched. */
	private readonly userMcpJson: UserMcpJson;

	constructor(
		context: vscode.ExtensionContext,
		private readonly log: vscode.LogOutputChannel,
	) {
		this.trust = new TrustDecisions(context.workspaceState, context.extensionMode === vscode.ExtensionMode.Test, log);
		this.inputs = new InputValues(
			context.secrets,
			() =>
				(vscode.workspace.workspaceFile ?? vscode.workspace.workspaceFolders?.[0]?.uri)?.toString() ?? 'no-workspace',
		);
		this.userInputs = new InputValues(context.secrets, () => USER_INPUT_SCOPE);
		const fire = () => this.fireSoon();
		this.disposables.push(
			this.changed,
			vscode.workspace.onDidChangeConfiguration((e) => {
				if (e.affectsConfiguration(`${SECTION}.${SERVERS}`) || e.affectsConfiguration(`${SECTION}.${INPUTS}`)) fire();
			}),
			vscode.workspace.onDidChangeWorkspaceFolders(fire),
			vscode.workspace.onDidGrantWorkspaceTrust(fire),
		);
		const watcher = vscode.workspace.createFileSystemWatcher('**/.vscode/mcp.json');
		this.disposables.push(watcher, watcher.onDidCreate(fire), watcher.onDidChange(fire), watcher.onDidDelete(fire));
		// world: the project-root .mcp.json, the user mcp.json, and VS Code's chat.mcp settings (what VS Code runs).
		const rootWatcher = vscode.workspace.createFileSystemWatcher('**/.mcp.json');
		this.userMcpJson = new UserMcpJson(context);
		this.disposables.push(
			rootWatcher,
			rootWatcher.onDidCreate(fire),
			rootWatcher.onDidChange(fire),
			rootWatcher.onDidDelete(fire),
			this.userMcpJson,
			this.userMcpJson.onDidChange(fire),
			vscode.workspace.onDidChangeConfiguration((e) => {
				if (e.affectsConfiguration('chat.mcp')) fire();
			}),
		);
	}

	private fireSoon(): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = setTimeout(() => {
			this.timer = undefined;
			this.changed.fire();
		}, DEBOUNCE_MS);
	}

	/** Reads every source (settings and files) without parsing the servers in them yet; `resolve` takes it. */
	read(): Promise<ConfigRead> {
		return readConfigLayers(this.userMcpJson);
	}

	/**
	 * The servers in `sources` (what `read()` returned). Never throws on user input: every problem names the server and
	 * the field. User-level servers come back resolved; workspace-defined ones as written, with `trustText` and a
	 * `resolve` for after the trust check.
	 */
	async resolve(sources: ConfigRead): Promise<{ servers: ResolvedServer[]; problems: string[] }> {
		const problems: string[] = [];
		// world: every source, merged in the shared precedence (configLayers.ts, manager/configSources.ts).
		const read = sources.layers();
		problems.push(...read.problems);
		const merged = combineWindowLayers(read.layers);
		problems.push(...merged.problems);
		const inputs = merged.inputs;
		const userInputs = this.readUserInputs(problems);
		const folderOf = new Map<ServerEntry, vscode.WorkspaceFolder | undefined>();
		for (const [entry, fsPath] of merged.folderOf)
			folderOf.set(
				entry,
				vscode.workspace.workspaceFolders?.find((f) => f.uri.fsPath === fsPath),
			);

		const servers: ResolvedServer[] = [];
		for (const entry of merged.servers) {
			const folder = folderOf.get(entry);
			const base = { name: entry.name, source: entry.source, workspaceDefined: entry.workspaceDefined };
			// A disabled server never starts: do not ask for its inputs. Its config is kept as written (for the tree).
			if (entry.config.disabled) {
				servers.push({ ...base, config: entry.config });
				continue;
			}
			if (entry.workspaceDefined) {
				const server: ResolvedServer = {
					...base,
					config: entry.config,
					trustText: describeAsWritten(entry.config, entry.envFile),
					resolve: async () => {
						const resolved = await this.resolveEntry(entry, folder, inputs, this.inputs);
						for (const problem of resolved.problems) this.log.warn(problem);
						// Kept for the error of a start that fails (an unset ${env:X} in its url), as the command line does.
						server.notes = resolved.problems.filter((p) => p.includes(`'${entry.name}'`));
						if (!resolved.config)
							throw new Error(
								resolved.problems.filter((p) => p.includes(`'${entry.name}'`)).join('; ') ||
									`Server '${entry.name}': its configuration could not be resolved`,
							);
						return resolved.config;
					},
				};
				servers.push(server);
				continue;
			}
			try {
				const resolved = await this.resolveEntry(entry, folder, userInputs, this.userInputs);
				problems.push(...resolved.problems);
				const notes = resolved.problems.filter((p) => p.includes(`'${entry.name}'`));
				if (resolved.config) servers.push({ ...base, config: resolved.config, ...(notes.length > 0 ? { notes } : {}) });
				else this.log.warn(`Server '${entry.name}' was not started: its configuration could not be resolved`);
			} catch (error) {
				problems.push(`Server '${entry.name}': ${errorMessage(error)}`);
			}
		}
		return { servers, problems };
	}

	/**
	 * Host.confirmTrust: false without asking in an untrusted workspace (an explicit Start there says how to trust
	 * it); otherwise a remembered decision, or, only for an explicit Start (`ask`), the question.
	 */
	async confirmTrust(server: string, description: string, options: { ask: boolean } = { ask: true }): Promise<boolean> {
		const allowed = await this.trust.confirm(server, description, options);
		if (!allowed && options.ask) {
			this.log.info(
				`Workspace-defined server '${server}' was not started: ${vscode.workspace.isTrusted ? 'not allowed' : 'the workspace is not trusted (Restricted Mode)'}`,
			);
			if (!vscode.workspace.isTrusted) {
				const MANAGE = 'Manage Workspace Trust';
				void vscode.window
					.showInformationMessage(
						`MCP server '${server}' is defined by this workspace, which is in Restricted Mode: trust the workspace to run it.`,
						MANAGE,
					)
					.then((choice) => (choice === MANAGE ? vscode.commands.executeCommand('workbench.trust.manage') : undefined));
			}
		}
		return allowed;
	}

	/** Forgets every trust decision of this workspace and re-applies the configuration (a workspace server asks again when the user next starts it). */
	async resetTrust(): Promise<number> {
		const count = await this.trust.reset();
		this.changed.fire();
		return count;
	}

	/** Forgets the `${input:…}` answers (and stored passwords) so the next start asks again. */
	async clearInputs(): Promise<void> {
		await this.inputs.clear([...this.inputIdsSeen]);
		await this.userInputs.clear([...this.inputIdsSeen]);
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

	/**
	 * `mcpSwitchboard.inheritEnvironment` (application scope, so a workspace cannot widen it): false, the default,
	 * gives local servers only the variables a program needs plus their `env`.
	 */
	inheritEnvironment(): boolean {
		return vscode.workspace.getConfiguration(SECTION).inspect<boolean>('inheritEnvironment')?.globalValue === true;
	}

	dispose(): void {
		if (this.timer) clearTimeout(this.timer);
		for (const disposable of this.disposables) disposable.dispose();
	}

	/** `mcpSwitchboard.inputs` from user settings only: a workspace must not define what user-level servers ask. */
	private readUserInputs(problems: string[]): Map<string, InputDefinition> {
		const raw = vscode.workspace.getConfiguration(SECTION).inspect<unknown>(INPUTS)?.globalValue;
		const parsed = parseInputs(raw, `User settings "${SECTION}.${INPUTS}"`);
		problems.push(...parsed.problems);
		return new Map(parsed.inputs.map((input) => [input.id, input]));
	}

	/** The values of password inputs answered in this window (a recorded session redacts them). */
	secretInputValues(): string[] {
		return [...this.inputs.secretValues(), ...this.userInputs.secretValues()];
	}

	private variableContext(
		folder: vscode.WorkspaceFolder | undefined,
		inputs: Map<string, InputDefinition>,
		values: InputValues,
	): VariableContext {
		const folders = vscode.workspace.workspaceFolders ?? [];
		const base = folder ?? folders[0];
		const context: VariableContext = {
			workspaceFolders: folders.map((f) => ({ name: f.name, path: f.uri.fsPath })),
			userHome: os.homedir(),
			env: process.env,
			pathSeparator: path.sep,
			input: (id) => {
				this.inputIdsSeen.add(id);
				return values.get(id, inputs.get(id));
			},
		};
		if (base) context.workspaceFolder = base.uri.fsPath;
		return context;
	}

	/** Resolves variables and reads the envFile; `config` undefined when a required value is missing. */
	private resolveEntry(
		entry: ServerEntry,
		folder: vscode.WorkspaceFolder | undefined,
		inputs: Map<string, InputDefinition>,
		values: InputValues,
	): Promise<{ config: ServerConfig | undefined; problems: string[] }> {
		return resolveEntry(entry, {
			context: this.variableContext(folder, inputs, values),
			defaultCwd: defaultCwd(folder ?? vscode.workspace.workspaceFolders?.[0]),
			readFile: async (file) => new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(file))),
		});
	}
}

/** The working folder of a stdio server without "cwd": its (or the first) workspace folder on disk, else the home directory. */
export function defaultCwd(folder: vscode.WorkspaceFolder | undefined): string {
	return folder?.uri.scheme === 'file' ? folder.uri.fsPath : os.homedir();
}
