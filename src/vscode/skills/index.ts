/** Skills: a server's skills (SEP-2640) listed for the Servers tree, opened as documents, attached to `@mcp`. */
import type * as vscode from 'vscode';
import type { FeatureDeps } from '../featureDeps';
import { registerSkillCommands } from './skillCommands';
import { SkillDocuments } from './skillDocuments';
import { SkillListings } from './skillListings';

/** Registers skill documents and their commands; returns the listings the Servers tree shows. */
export function register(context: vscode.ExtensionContext, deps: Pick<FeatureDeps, 'manager' | 'logs'>): SkillListings {
	const listings = new SkillListings(deps.manager, (server, message) => deps.logs.channel(server).warn(message));
	const documents = new SkillDocuments(deps.manager);
	context.subscriptions.push(listings, documents, registerSkillCommands(listings, documents));
	return listings;
}
