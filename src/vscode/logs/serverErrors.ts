import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import { oneLine } from '../../common/text';
import type { Manager } from '../../manager/manager';
import { ShownErrors } from './errorToasts';
import type { ServerLogs } from './logging';

/** The error toasts on screen: a near-duplicate of one still shown is logged, not raised again. */
const shownErrors = new ShownErrors();

/**
 * Shows a short error naming the server, with "Show Output" opening that server's log (design convention 10),
 * "Show Configuration" its entry, "Disable" switching it off, and "Show Protocol" its JSON-RPC messages
 * (console/protocolView.ts).
 * The message also goes to that log unless `alreadyLogged` (the Manager logs state changes itself).
 */
export function showServerError(
	logs: ServerLogs,
	server: string | undefined,
	message: string,
	alreadyLogged = false,
): void {
	const text = server !== undefined ? `MCP server '${server}': ${message}` : `MCP: ${message}`;
	if (!alreadyLogged) (server !== undefined ? logs.channel(server) : logs.main).error(message);
	const claim = shownErrors.claim(server, message);
	if (!claim) return;
	// Where it fails, the ways to fix it: its entry (Show Configuration) or switching it off (Disable).
	const actions =
		server !== undefined ? ['Show Output', 'Show Configuration', 'Disable', 'Show Protocol'] : ['Show Output'];
	// The promise settles when the toast is closed or answered: then the same cause may be raised again.
	void vscode.window.showErrorMessage(text, ...actions).then((choice) => {
		claim.done();
		if (choice === 'Show Output') logs.show(server);
		if (choice === 'Show Protocol') void vscode.commands.executeCommand(Commands.showProtocol, server);
		if (choice === 'Show Configuration') void vscode.commands.executeCommand(Commands.showConfiguration, server);
		if (choice === 'Disable') void vscode.commands.executeCommand(Commands.disableServer, server);
	}, claim.done);
}

/**
 * One error notification when a server fails (to start, or later), not one per retry: a server is announced again
 * only after it ran or was stopped in between. The tree and the status bar keep showing the error meanwhile.
 */
export function notifyServerErrors(manager: Manager, logs: ServerLogs): vscode.Disposable {
	const announced = new Set<string>();
	const subscription = manager.onDidChangeState(({ server, state }) => {
		if (state.kind === 'running' || state.kind === 'stopped' || state.kind === 'disabled') {
			announced.delete(server);
			return;
		}
		// A server waiting for the user to sign in (needsSignIn) is not a failure to shout about: its row says "sign in".
		if (state.kind !== 'error' || announced.has(server)) return;
		// A failed sign-in has its own notification, with Sign In Again (auth/signInFailures.ts).
		if (state.signIn) return;
		announced.add(server);
		showServerError(logs, server, oneLine(state.message), true);
	});
	return new vscode.Disposable(() => subscription.dispose());
}
