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

/**
 * Saves binary content blocks as files so VS Code can show them (its image preview opens PNG, JPEG, GIF, SVG…).
 * Files go into the extension's global storage under `blobs/`; the Markdown links to them.
 */
export class BlobFiles {
	private counter = 0;
	constructor(private readonly folder: vscode.Uri) {}

	/** Writes base64 `data` and returns the file's URI. Throws when the storage folder cannot be written. */
	async save(data: string, mimeType: string | undefined, hint: string): Promise<vscode.Uri> {
		await vscode.workspace.fs.createDirectory(this.folder);
		const safe = hint.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60) || 'blob';
		const uri = vscode.Uri.joinPath(this.folder, `${Date.now()}-${++this.counter}-${safe}.${extensionForMime(mimeType)}`);
		await vscode.workspace.fs.writeFile(uri, Buffer.from(data, 'base64'));
		return uri;
	}
}
