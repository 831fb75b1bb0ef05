/** Sign-in: the failed-sign-in notification and Sign Out (the OAuth hooks themselves are part of the Host). */
import type * as vscode from 'vscode';
import type { FeatureDeps } from '../featureDeps';
import { SecretStorageTokenStore } from './oauth';
import { notifySignInFailures } from './signInFailures';
import { registerSignOutCommand } from './signOut';

/** Registers the failed-sign-in notification and Sign Out of Server. */
export function register(context: vscode.ExtensionContext, deps: Pick<FeatureDeps, 'manager' | 'logs'>): void {
	context.subscriptions.push(
		notifySignInFailures(deps.manager, deps.logs),
		registerSignOutCommand(deps.manager, new SecretStorageTokenStore(context.secrets)),
	);
}
