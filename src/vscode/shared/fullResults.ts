// Results capped for a model and kept whole (src/manager/context/resultStore.ts): one store for the window, shared
// by `@mcp` and the gateway, and the read-only documents that show a kept result whole in an editor.
import * as vscode from 'vscode';
import { ResultStore, type StoredResult } from '../../manager/context/resultStore';

/** The whole results of this window that were capped for a model (the editor opens them; `read_result` pages them). */
export const keptResults = new ResultStore();

/** The scheme of the documents that show a capped result whole. */
export const FULL_RESULT_SCHEME = 'switchboard-full-result';

/** The document of stored result `id`. */
export function fullResultUri(stored: StoredResult): vscode.Uri {
	const name = `${stored.server}-${stored.tool}-${stored.id}`.replace(/[^\w.-]+/g, '_');
	return vscode.Uri.from({ scheme: FULL_RESULT_SCHEME, path: `/${name}.txt`, query: stored.id });
}

/** Serves stored results as read-only documents, and the command that opens one. */
export function registerFullResults(command: string): vscode.Disposable {
	const provider = vscode.workspace.registerTextDocumentContentProvider(FULL_RESULT_SCHEME, {
		provideTextDocumentContent: (uri) =>
			keptResults.get(uri.query)?.text ??
			'This result is no longer kept (the newest results are kept in memory for this window only).',
	});
	const open = vscode.commands.registerCommand(command, async (id?: unknown) => {
		const stored = typeof id === 'string' ? keptResults.get(id) : undefined;
		if (!stored) {
			void vscode.window.showWarningMessage(
				'That result is no longer kept (results are kept in memory for this window only).',
			);
			return undefined;
		}
		const document = await vscode.workspace.openTextDocument(fullResultUri(stored));
		await vscode.window.showTextDocument(document, { preview: false });
		return document;
	});
	return vscode.Disposable.from(provider, open);
}
