// Suites may change settings freely; the runner puts the files back between suites, so one suite's servers do
// not leak into the next (a second server left in the settings changes every count the next suite sees).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

/**
 * The contents of the settings files a suite may change: every file in the first workspace folder's `.vscode/`,
 * and the user settings file named by `MCP_SWITCHBOARD_E2E_USER_SETTINGS` (set by the runners).
 */
export class SettingsSnapshot {
	private readonly files = new Map<string, string | undefined>();
	private readonly dirs: string[] = [];

	/**
	 * Takes the snapshot now, or takes over one a previous window saved (`saved()`), so the window that continues a
	 * suite puts back the files as they were before the run. Never throws: a folder it cannot read is simply not watched.
	 */
	constructor(saved?: SavedSettings) {
		if (saved) {
			this.dirs.push(...saved.dirs);
			for (const [file, content] of Object.entries(saved.files)) this.files.set(file, content ?? undefined);
			return;
		}
		const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
		if (folder?.scheme === 'file') {
			const dir = path.join(folder.fsPath, '.vscode');
			this.dirs.push(dir);
			for (const name of safeList(dir)) this.files.set(path.join(dir, name), safeRead(path.join(dir, name)));
		}
		const user = process.env.MCP_SWITCHBOARD_E2E_USER_SETTINGS;
		if (user) this.files.set(user, safeRead(user));
	}

	/** The snapshot as JSON, for the next window (see nextWindow.ts). */
	saved(): SavedSettings {
		return { dirs: [...this.dirs], files: Object.fromEntries([...this.files].map(([f, c]) => [f, c ?? null])) };
	}

	/**
	 * Writes back every file whose content changed, and removes files that appeared in a watched folder.
	 * @returns the paths it changed (empty when the suite left everything as it was).
	 */
	restore(): string[] {
		const changed: string[] = [];
		for (const dir of this.dirs) {
			for (const name of safeList(dir)) {
				const file = path.join(dir, name);
				if (!this.files.has(file)) {
					fs.rmSync(file, { force: true });
					changed.push(file);
				}
			}
		}
		for (const [file, content] of this.files) {
			if (safeRead(file) === content) continue;
			if (content === undefined) fs.rmSync(file, { force: true });
			else {
				fs.mkdirSync(path.dirname(file), { recursive: true });
				fs.writeFileSync(file, content);
			}
			changed.push(file);
		}
		return changed;
	}
}

/** A snapshot as JSON: the watched folders, and each file's content (null: it did not exist). */
export interface SavedSettings {
	dirs: string[];
	files: Record<string, string | null>;
}

function safeList(dir: string): string[] {
	try {
		return fs.readdirSync(dir).filter((name) => fs.statSync(path.join(dir, name)).isFile());
	} catch {
		return [];
	}
}

function safeRead(file: string): string | undefined {
	try {
		return fs.readFileSync(file, 'utf8');
	} catch {
		return undefined;
	}
}
