import * as vscode from 'vscode';
import type { Resource, ResourceTemplate } from '../../protocol/schema';
import { Commands } from '../commandIds';
import { commandError, nothingConfigured, type Target } from '../commandTarget';
import { promptDepsOf, readTemplate, type DocumentCommandDeps } from '../prompts/promptCommands';
import { errorMessage } from '../../common/errors';

/** Registers Read Resource (resources and templates) and Subscribe. */
export function registerResourceCommands(deps: DocumentCommandDeps): vscode.Disposable {
	return vscode.Disposable.from(
		vscode.commands.registerCommand(Commands.readResource, (target: Target) => readResource(deps, target)),
		vscode.commands.registerCommand(Commands.subscribeResource, (target: Target) => subscribe(deps, target)),
	);
}

async function pickResource(
	deps: DocumentCommandDeps,
): Promise<{ server: string; resource?: Resource; template?: ResourceTemplate } | undefined> {
	const items: (vscode.QuickPickItem & { server: string; resource?: Resource; template?: ResourceTemplate })[] = [];
	for (const view of deps.manager.servers()) {
		for (const resource of view.resources)
			items.push({
				label: resource.title ?? resource.name,
				description: `${view.name} · ${resource.uri}`,
				server: view.name,
				resource,
			});
		for (const template of view.resourceTemplates)
			items.push({
				label: `$(symbol-variable) ${template.title ?? template.name}`,
				description: `${view.name} · ${template.uriTemplate}`,
				server: view.name,
				template,
			});
	}
	if (items.length === 0) {
		if (deps.manager.servers().length === 0) await nothingConfigured(deps);
		else void vscode.window.showInformationMessage('No running MCP server offers resources.');
		return undefined;
	}
	return vscode.window.showQuickPick(items, {
		title: 'Read Resource',
		placeHolder: 'Pick a resource or template',
		matchOnDescription: true,
	});
}

async function readResource(deps: DocumentCommandDeps, target: Target): Promise<vscode.Uri | undefined> {
	let chosen: { server: string; resource?: Resource; template?: ResourceTemplate; uri?: string } | undefined;
	if (target && typeof target === 'object' && 'kind' in target) {
		if (target.kind === 'resource') chosen = { server: target.server, resource: target.resource };
		if (target.kind === 'template') chosen = { server: target.server, template: target.template };
	} else if (target && typeof target === 'object' && target.server !== undefined && target.uri !== undefined) {
		chosen = { server: target.server, uri: target.uri };
	}
	chosen ??= await pickResource(deps);
	if (!chosen) return undefined;
	if (chosen.template) return readTemplate(promptDepsOf(deps), chosen.server, chosen.template);
	const uri = chosen.uri ?? chosen.resource?.uri;
	return uri !== undefined
		? deps.resources.open(chosen.server, uri, undefined, chosen.resource?.title ?? chosen.resource?.name)
		: undefined;
}

async function subscribe(deps: DocumentCommandDeps, target: Target): Promise<void> {
	const node =
		target && typeof target === 'object' && 'kind' in target && target.kind === 'resource' ? target : undefined;
	const picked = node ? { server: node.server, resource: node.resource } : await pickResource(deps);
	if (!picked?.resource) return;
	try {
		await deps.resources.subscribe(picked.server, picked.resource.uri);
	} catch (error) {
		commandError(deps, picked.server, `could not subscribe to ${picked.resource.uri}: ${errorMessage(error)}`);
	}
}
