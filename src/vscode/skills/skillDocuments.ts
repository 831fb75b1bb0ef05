/**
 * Skill documents: a server's SKILL.md as a read-only file (`switchboard-skill:`), fetched when it is opened or
 * attached to a chat request, never before, and shown only when its bytes match the listing's size and SHA-256 digest
 * and its frontmatter the listing's (manager/context/skills.ts). A file system rather than a content provider because
 * the chat attaches only what its file service finds (`workbench.action.chat.open`'s `attachFiles` checks `exists`).
 * `stat` answers from the listing alone (the manifest's size), so attaching a skill reads nothing yet.
 */
import * as vscode from 'vscode';
import type { Manager } from '../../manager/manager';
import type { McpClient } from '../../protocol/client';
import { loadSkillNamed, skillsOf, type LoadedSkill } from '../../manager/context/skills';
import { errorMessage } from '../../common/errors';
import { parseSkillUri, SKILL_SCHEME } from '../shared/skillUris';

/** What a user reads when a skill cannot be opened: the skill, its server and why. */
export function skillFailure(server: string, name: string, error: unknown): string {
	return `The skill "${name}" of the MCP server '${server}' was not loaded: ${errorMessage(error)}`;
}

/** The read-only file system of skill documents. */
export class SkillDocuments implements vscode.FileSystemProvider, vscode.Disposable {
	private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
	readonly onDidChangeFile = this.changed.event;
	/** The verified SKILL.md of each skill opened on a connection, so reopening a tab does not fetch it again. */
	private readonly loaded = new WeakMap<McpClient, Map<string, LoadedSkill>>();
	private readonly registration: vscode.Disposable;

	constructor(private readonly manager: Manager) {
		this.registration = vscode.workspace.registerFileSystemProvider(SKILL_SCHEME, this, {
			isCaseSensitive: true,
			isReadonly: new vscode.MarkdownString("A server's skill, as the server offers it: read-only."),
		});
	}

	/**
	 * The verified skill `name` of `server`, read now unless this connection already read it (a server waiting for
	 * its next need starts). Throws an Error that says what failed, the server's name included.
	 */
	async load(server: string, name: string): Promise<LoadedSkill> {
		try {
			const client = await this.manager.clientOnDemand(server);
			let skills = this.loaded.get(client);
			if (!skills) this.loaded.set(client, (skills = new Map<string, LoadedSkill>()));
			const known = skills.get(name);
			if (known) return known;
			const loaded = await loadSkillNamed(client, name);
			skills.set(name, loaded);
			return loaded;
		} catch (error) {
			throw new Error(skillFailure(server, name, error), { cause: error });
		}
	}

	private target(uri: vscode.Uri): { server: string; name: string } {
		const target = parseSkillUri(uri);
		if (!target) throw vscode.FileSystemError.FileNotFound(uri);
		return target;
	}

	async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
		const { server, name } = this.target(uri);
		const client = await this.manager.clientOnDemand(server).catch(() => undefined);
		const skills = client ? await skillsOf(client).catch(() => []) : [];
		const skill = skills.find((entry) => entry.frontmatter.name === name);
		if (!skill) throw vscode.FileSystemError.FileNotFound(uri);
		const manifest = Array.isArray(skill.resources)
			? skill.resources.find((entry) => entry.uri === skill.uri)
			: undefined;
		return { type: vscode.FileType.File, ctime: 0, mtime: 0, size: manifest?.size ?? 0 };
	}

	async readFile(uri: vscode.Uri): Promise<Uint8Array> {
		const { server, name } = this.target(uri);
		try {
			return new TextEncoder().encode((await this.load(server, name)).text);
		} catch (error) {
			throw vscode.FileSystemError.Unavailable(errorMessage(error));
		}
	}

	watch(): vscode.Disposable {
		return new vscode.Disposable(() => undefined);
	}

	readDirectory(): [string, vscode.FileType][] {
		return [];
	}

	createDirectory(uri: vscode.Uri): void {
		throw vscode.FileSystemError.NoPermissions(uri);
	}

	writeFile(uri: vscode.Uri): void {
		throw vscode.FileSystemError.NoPermissions(uri);
	}

	delete(uri: vscode.Uri): void {
		throw vscode.FileSystemError.NoPermissions(uri);
	}

	rename(uri: vscode.Uri): void {
		throw vscode.FileSystemError.NoPermissions(uri);
	}

	dispose(): void {
		this.registration.dispose();
		this.changed.dispose();
	}
}
