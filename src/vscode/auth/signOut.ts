/**
 * "MCP Switchboard: Sign Out of Server…": forgets a remote server's OAuth tokens and client registration, and restarts it when it
 * runs, so its next connection asks the user to sign in again.
 */
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { Manager, ServerView } from '../../manager/manager';
import type { TokenStore } from '../../protocol/auth/types';
import { forgetOAuth, hasStoredOAuthTokens } from './oauth';
import { errorMessage } from '../../common/errors';

function remoteUrl(view: ServerView): string | undefined {
	return view.config.type === 'stdio' ? undefined : view.config.url;
}

/**
 * Signs out of `server` (a tree node's `{ server }` or a name), or of one picked from the remote servers that have
 * stored tokens. Says so, instead of failing, when there is nothing to sign out of. A store failure is shown as an
 * error message. Resolves the name signed out of, or undefined.
 */
export async function signOutOfServer(
	manager: Manager,
	store: TokenStore,
	target?: string | { server: string },
): Promise<string | undefined> {
	let name = typeof target === 'string' ? target : target?.server;
	if (name === undefined) {
		const candidates: Array<vscode.QuickPickItem & { name: string }> = [];
		for (const view of manager.servers()) {
			const url = remoteUrl(view);
			if (url !== undefined && (await hasStoredOAuthTokens(store, url)))
				candidates.push({ label: view.name, description: url, name: view.name });
		}
		if (candidates.length === 0) {
			void vscode.window.showInformationMessage('No MCP server has a stored sign-in.');
			return undefined;
		}
		const picked = await vscode.window.showQuickPick(candidates, {
			title: 'Sign Out of MCP Server',
			placeHolder: 'Server to forget the sign-in of',
		});
		if (!picked) return undefined;
		name = picked.name;
	}
	const view = manager.get(name);
	const url = view && remoteUrl(view);
	if (!view || url === undefined) {
		void vscode.window.showInformationMessage(`MCP server '${name}' does not use a sign-in (only remote servers do).`);
		return undefined;
	}
	try {
		if (!(await forgetOAuth(store, url))) {
			void vscode.window.showInformationMessage(`MCP server '${name}' has no stored sign-in.`);
			return undefined;
		}
	} catch (error) {
		void vscode.window.showErrorMessage(`MCP: signing out of '${name}' failed: ${errorMessage(error)}`);
		return undefined;
	}
	// The open connection holds its token in memory: a restart makes the server authorize again. Not awaited: the
	// restart waits for the new sign-in, and its failures are the Manager's to report (state and error message).
	if (view.state.kind === 'running' || view.state.kind === 'starting')
		void manager.restart(name).catch(() => undefined);
	void vscode.window.showInformationMessage(`Signed out of MCP server '${name}'.`);
	return name;
}

/** Registers the sign-out command. */
export function registerSignOutCommand(manager: Manager, store: TokenStore): vscode.Disposable {
	return vscode.commands.registerCommand(Commands.signOut, (target?: string | { server: string }) =>
		signOutOfServer(manager, store, target),
	);
}
