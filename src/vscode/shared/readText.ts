/**
 * A text file's contents, or undefined when it cannot be read (most often: it does not exist). A `file:` URI is read
 * with Node's fs in this extension host, which runs where the files are (the workspace's machine in a remote window):
 * measured in code-server at window start, `vscode.workspace.fs.readFile` took 100–500 ms per configuration file while
 * the workbench was still loading, Node's fs under a millisecond. Other schemes (virtual workspaces) go through
 * `vscode.workspace.fs`.
 */
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';

export async function readText(uri: vscode.Uri): Promise<string | undefined> {
	try {
		if (uri.scheme === 'file') return await readFile(uri.fsPath, 'utf8');
		return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
	} catch {
		return undefined;
	}
}
