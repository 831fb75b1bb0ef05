import type * as vscode from 'vscode';

/**
 * The one bridge from VS Code's CancellationToken (the edge) to an AbortSignal (the core).
 * The signal aborts when the token is cancelled, at once if it already is. `dispose()` drops the listener
 * (call it when the operation ends, so long-lived tokens do not collect listeners).
 */
export function toAbortSignal(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
	const controller = new AbortController();
	if (token.isCancellationRequested) {
		controller.abort(new Error('Cancelled by the user'));
		return { signal: controller.signal, dispose() {} };
	}
	const listener = token.onCancellationRequested(() => controller.abort(new Error('Cancelled by the user')));
	return { signal: controller.signal, dispose: () => void listener.dispose() };
}
