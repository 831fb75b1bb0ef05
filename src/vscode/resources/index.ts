/** Resources: resource documents (subscriptions, blobs as files) and Read Resource / Subscribe. */
import type * as vscode from 'vscode';
import { showServerError } from '../logs/serverErrors';
import type { FeatureDeps } from '../featureDeps';
import { registerResourceCommands } from './resourceCommands';
import { ResourceDocuments } from './resourceDocuments';

/** Registers the resource documents and their commands; returns the documents. */
export function register(context: vscode.ExtensionContext, deps: FeatureDeps): ResourceDocuments {
	const resources = new ResourceDocuments(deps.manager, deps.blobs, (server, message) =>
		showServerError(deps.logs, server, message),
	);
	context.subscriptions.push(resources, registerResourceCommands({ ...deps, resources }));
	return resources;
}
