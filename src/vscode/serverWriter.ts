/**
 * The one writer of server configuration, beside its reader (settings.ts): the `mcpSwitchboard.servers` setting at
 * user or workspace level (through `WorkspaceConfiguration.update`, as VS Code writes settings) and `.vscode/mcp.json`
 * files (JSONC edits that keep comments, src/manager/serverEntries.ts). Add Server and Import write through it, and so
 * should the next sources (installing from a registry, Disable, Remove).
 *
 * The Restricted Mode rule lives here: in an untrusted workspace only user-level targets are writable. The workspace's
 * value of the setting is withheld from the extension there (`restrictedConfigurations` in package.json), so writing
 * the object back would replace, and so delete, every server the workspace defines.
 */
import * as vscode from 'vscode';
import {
	addMcpJsonInputs,
	changeMcpJson,
	changeServersSetting,
	mergeInputs,
	type ServerListChange,
} from '../manager/serverEntries';
import type { ConfigSource } from '../manager/types';

const SECTION = 'mcpSwitchboard';
const SERVERS = 'servers';
const INPUTS = 'inputs';

/** Where a server is written. */
export type ServerTarget =
	| { kind: 'user' }
	| { kind: 'workspace' }
	/**
	 * A `.vscode/mcp.json` (created when missing), a project `.mcp.json`, or with `userLevel` the profile's user
	 * `mcp.json` (writable in Restricted Mode, as user settings are).
	 */
	| { kind: 'mcpJson'; uri: vscode.Uri; userLevel?: boolean };

/** The targets that may be written now: user settings always; the workspace's only when it is trusted. */
export function writableTargets(): ServerTarget[] {
	const targets: ServerTarget[] = [{ kind: 'user' }];
	if (vscode.workspace.workspaceFolders?.length && vscode.workspace.isTrusted) targets.push({ kind: 'workspace' });
	return targets;
}

/** Whether `target` may be written now (the Restricted Mode rule). */
export function isWritable(target: ServerTarget): boolean {
	return (
		target.kind === 'user' || (target.kind === 'mcpJson' && target.userLevel === true) || vscode.workspace.isTrusted
	);
}

/** A source's file path as a URI (the user mcp.json's path is a URI string when it is not a local file). */
function uriOfPath(path: string): vscode.Uri {
	return /^[a-z][a-z0-9+.-]+:\/\//i.test(path) ? vscode.Uri.parse(path) : vscode.Uri.file(path);
}

/**
 * Where a configured server's entry is written, from where it was read (`ServerView.source`): what Show
 * Configuration opens and Disable and Remove change. Undefined for a multi-root folder's own settings (the writer
 * writes the workspace level only) and for servers given in code.
 */
export function targetOfSource(source: ConfigSource): ServerTarget | undefined {
	switch (source.kind) {
		case 'user':
			return { kind: 'user' };
		case 'workspace': {
			// In a multi-root workspace the workspace level has the .code-workspace file as its path; a folder's
			// settings have none.
			const multiRoot = vscode.workspace.workspaceFile !== undefined;
			return multiRoot && source.path === undefined ? undefined : { kind: 'workspace' };
		}
		case 'mcpJson':
			return source.path === undefined ? undefined : { kind: 'mcpJson', uri: uriOfPath(source.path) };
		case 'userMcpJson':
			return source.path === undefined ? undefined : { kind: 'mcpJson', uri: uriOfPath(source.path), userLevel: true };
		case 'api':
			return undefined;
	}
}

/** The servers written at `target`'s settings level, as written (undefined for an mcp.json target). */
export function serversAt(target: ServerTarget): Record<string, unknown> | undefined {
	if (target.kind === 'mcpJson') return undefined;
	const inspected = vscode.workspace.getConfiguration(SECTION).inspect<Record<string, unknown>>(SERVERS);
	return target.kind === 'user' ? inspected?.globalValue : inspected?.workspaceValue;
}

/** Throws, writing nothing, when `target` may not be written now (trust may be revoked while a question is open). */
function requireWritable(target: ServerTarget): void {
	if (!isWritable(target))
		throw new Error('this workspace is in Restricted Mode: only user settings can be changed until you trust it');
}

/** Rewrites the mcp.json at `uri` through `edit` (a file that is not there yet reads as empty text). */
async function editMcpJson(uri: vscode.Uri, edit: (text: string) => string): Promise<void> {
	let text = '';
	try {
		text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
	} catch (error) {
		if (!(error instanceof vscode.FileSystemError && error.code === 'FileNotFound')) throw error;
	}
	await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(edit(text)));
}

/**
 * Applies `change` to the servers at `target`. Rejects, writing nothing, when the target is not writable now (trust
 * may be revoked while a question is open), when an update or removal names a server that is not there, or when an
 * mcp.json is not valid JSONC.
 */
export async function changeServers(target: ServerTarget, change: ServerListChange): Promise<void> {
	requireWritable(target);
	if (target.kind === 'mcpJson') {
		await editMcpJson(target.uri, (text) => changeMcpJson(text, change));
		return;
	}
	const next = changeServersSetting(serversAt(target), change);
	await vscode.workspace
		.getConfiguration(SECTION)
		.update(
			SERVERS,
			next,
			target.kind === 'user' ? vscode.ConfigurationTarget.Global : vscode.ConfigurationTarget.Workspace,
		);
}

/** Adds or replaces servers at `target`, by name. */
export function writeServers(target: ServerTarget, entries: Record<string, Record<string, unknown>>): Promise<void> {
	return changeServers(target, { kind: 'write', entries });
}

/** Sets (or, for undefined values, removes) fields of server `name` at `target`, e.g. `{ disabled: true }`. */
export function updateServer(target: ServerTarget, name: string, patch: Record<string, unknown>): Promise<void> {
	return changeServers(target, { kind: 'update', name, patch });
}

/** Removes server `name` from `target`. */
export function removeServer(target: ServerTarget, name: string): Promise<void> {
	return changeServers(target, { kind: 'remove', name });
}

/** The user-level `mcpSwitchboard.inputs` definitions (for `${input:…}` in user-level servers), as written. */
export function userInputs(): Record<string, unknown>[] {
	const inputs = vscode.workspace.getConfiguration(SECTION).inspect<unknown[]>(INPUTS)?.globalValue;
	return (Array.isArray(inputs) ? inputs : []).filter(
		(i): i is Record<string, unknown> => typeof i === 'object' && i !== null,
	);
}

/** Replaces the user-level input definitions. Written before the servers that use them, which apply on their change. */
export async function writeUserInputs(definitions: Record<string, unknown>[]): Promise<void> {
	await vscode.workspace.getConfiguration(SECTION).update(INPUTS, definitions, vscode.ConfigurationTarget.Global);
}

/**
 * Writes one server with the input definitions its `${input:…}` need (an install from a registry): in an mcp.json,
 * both in one write (its `inputs`); at user level, the definitions into `mcpSwitchboard.inputs` first, then the
 * server. Workspace settings cannot define inputs, so a server that needs some is refused there (use mcp.json).
 */
export async function writeServerWithInputs(
	target: ServerTarget,
	name: string,
	entry: Record<string, unknown>,
	inputs: readonly Record<string, unknown>[],
): Promise<void> {
	requireWritable(target);
	if (target.kind === 'mcpJson') {
		await editMcpJson(target.uri, (text) =>
			addMcpJsonInputs(changeMcpJson(text, { kind: 'write', entries: { [name]: entry } }), inputs),
		);
		return;
	}
	if (inputs.length > 0) {
		if (target.kind === 'workspace')
			throw new Error('workspace settings cannot define inputs: write it to .vscode/mcp.json');
		await writeUserInputs(mergeInputs(userInputs(), inputs));
	}
	await writeServers(target, { [name]: entry });
}
