/**
 * One notification per failed OAuth sign-in: it names the server, the step that failed and why, and offers
 * "Sign In Again" (a start by the user, which runs the sign-in anew) and "Show Log" (the server's channel, where the
 * steps before the failure are). A server that only waits for the user to sign in (its row says "sign in") gets none,
 * and nothing here touches other servers.
 */
import * as vscode from 'vscode';
import type { Manager, ServerState, SignInFailure } from '../../manager/manager';
import type { ServerLogs } from '../logs/logging';

/** The notification's buttons. */
export const SIGN_IN_AGAIN = 'Sign In Again';
export const SHOW_LOG = 'Show Log';

/** Longest notification text; the server's log has the whole message. */
const maxLength = 300;

/**
 * The notification's text, e.g. "MCP server 'x': sign-in failed at the token request to https://as.example/token:
 * the authorization server answered HTML, not JSON (HTTP 200 text/html)".
 */
export function signInFailureText(server: string, failure: SignInFailure): string {
	const text = `MCP server '${server}': sign-in failed at the ${failure.step}: ${failure.reason}`;
	return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

/** The failed sign-in in `state` (a server waiting for the user to sign in is `needsSignIn`, not a failure). */
export function failedSignIn(state: ServerState): SignInFailure | undefined {
	return state.kind === 'error' ? state.signIn : undefined;
}

/** Shows a notification each time a server's sign-in fails (again only after it left the error state in between). */
export function notifySignInFailures(manager: Manager, logs: ServerLogs): vscode.Disposable {
	const announced = new Set<string>();
	const subscription = manager.onDidChangeState(({ server, state }) => {
		if (state.kind !== 'error') {
			// Starting, running or stopped: the next failure is a new one.
			announced.delete(server);
			return;
		}
		const failure = failedSignIn(state);
		if (!failure || announced.has(server)) return;
		announced.add(server);
		void vscode.window.showErrorMessage(signInFailureText(server, failure), SIGN_IN_AGAIN, SHOW_LOG).then((choice) => {
			// A failure of the new attempt becomes the server's state, and its own notification.
			if (choice === SIGN_IN_AGAIN) void manager.start(server).catch(() => undefined);
			else if (choice === SHOW_LOG) logs.show(server);
		});
	});
	return new vscode.Disposable(() => subscription.dispose());
}
