import * as vscode from 'vscode';

const extensions: Record<string, string> = {
	'image/png': 'png',
	'image/jpeg': 'jpg',
	'image/gif': 'gif',
	'image/webp': 'webp',
	'image/svg+xml': 'svg',
	'audio/wav': 'wav',
	'audio/x-wav': 'wav',
	'audio/mpeg': 'mp3',
	'audio/ogg': 'ogg',
	'application/pdf': 'pdf',
	'application/gzip': 'gz',
	'application/zip': 'zip',
	'application/json': 'json',
	'text/plain': 'txt',
};

/** A file extension for a MIME type ("bin" when unknown). */
export function extensionForMime(mimeType: string | undefined): string {
	return (mimeType && extensions[mimeType.split(';')[0]?.trim().toLowerCase() ?? '']) ?? 'bin';
}

/** The file in each window's folder that names the extension host process owning it. */
const OWNER_FILE = 'owner.json';
/** A folder (or loose file) with no living owner is left alone this long after its last change: it may be in use by a host we cannot see. */
export const ORPHAN_AGE_MS = 24 * 60 * 60 * 1000;

/** Whether process `pid` runs on this machine (global storage is per machine, as are the windows sharing it). */
function processAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: it exists but belongs to someone else.
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/**
 * Saves binary content blocks as files so VS Code can show them (its image preview opens PNG, JPEG, GIF, SVG…).
 *
 * Every window writes into a folder of its own, `<global storage>/blobs/<window>/`, because global storage is shared
 * by all windows: clearing one shared folder at activation broke the image links of every other open window (and
 * made activation wait on the delete). Old folders are cleaned lazily, after this window's first save and off its
 * path: a folder goes when the extension host that owns it (its `owner.json`) no longer runs, or, without an owner,
 * when it has not changed for {@link ORPHAN_AGE_MS}.
 */
export class BlobFiles {
	private counter = 0;
	private prepared: Promise<void> | undefined;
	/** Resolves when the lazy clean-up of other windows' folders has run (tests wait on it). */
	cleaned: Promise<void> | undefined;
	/** This window's folder. */
	readonly folder: vscode.Uri;

	/**
	 * @param root the shared `blobs` folder in global storage.
	 * @param window a name unique to this window session (default `vscode.env.sessionId`).
	 */
	constructor(
		private readonly root: vscode.Uri,
		window: string = vscode.env.sessionId,
	) {
		this.folder = vscode.Uri.joinPath(root, window.replace(/[^A-Za-z0-9._-]+/g, '-') || 'window');
	}

	/** Writes base64 `data` and returns the file's URI. Throws when the storage folder cannot be written. */
	async save(data: string, mimeType: string | undefined, hint: string): Promise<vscode.Uri> {
		await (this.prepared ??= this.prepare());
		const safe = hint.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60) || 'blob';
		const uri = vscode.Uri.joinPath(
			this.folder,
			`${Date.now()}-${++this.counter}-${safe}.${extensionForMime(mimeType)}`,
		);
		await vscode.workspace.fs.writeFile(uri, Buffer.from(data, 'base64'));
		this.cleaned ??= this.cleanOthers();
		return uri;
	}

	private async prepare(): Promise<void> {
		await vscode.workspace.fs.createDirectory(this.folder);
		await vscode.workspace.fs.writeFile(
			vscode.Uri.joinPath(this.folder, OWNER_FILE),
			Buffer.from(JSON.stringify({ pid: process.pid })),
		);
	}

	/** Deletes what windows that are gone left behind. Never throws: a folder that cannot be read or deleted stays. */
	private async cleanOthers(): Promise<void> {
		let entries: [string, vscode.FileType][];
		try {
			entries = await vscode.workspace.fs.readDirectory(this.root);
		} catch {
			return;
		}
		const own = this.folder.path.split('/').pop();
		for (const [name, type] of entries) {
			if (name === own) continue;
			const uri = vscode.Uri.joinPath(this.root, name);
			try {
				if (await this.abandoned(uri, type))
					await vscode.workspace.fs.delete(uri, { recursive: true, useTrash: false });
			} catch {
				// In use, or gone already: try again next session.
			}
		}
	}

	private async abandoned(uri: vscode.Uri, type: vscode.FileType): Promise<boolean> {
		if (type === vscode.FileType.Directory) {
			const owner = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(uri, OWNER_FILE)).then(
				(bytes) => (JSON.parse(Buffer.from(bytes).toString('utf8')) as { pid?: unknown }).pid,
				() => undefined,
			);
			if (typeof owner === 'number') return !processAlive(owner);
		}
		// No owner (a file of the old shared layout, or a folder whose owner file was never written): judge by age.
		const stat = await vscode.workspace.fs.stat(uri);
		return Date.now() - stat.mtime > ORPHAN_AGE_MS;
	}
}
