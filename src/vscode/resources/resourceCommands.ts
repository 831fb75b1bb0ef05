import * as vscode from 'vscode';
import type { Resource, ResourceTemplate } from '../../protocol/schema';
import { Commands } from '../commandIds';
import { commandError, nothingConfigured, type CommandBase, type Target } from '../commandTarget';
import type { ResourceDocuments } from './resourceDocuments';
import { askArguments } from '../shared/argumentQuestions';
import { expandUriTemplate, templateVariables } from './resourceDocuments';
import { errorMessage } from '../../common/errors';

/** What the palette's resource commands act on. */
export interface ResourceCommandDeps extends CommandBase {
	resources: ResourceDocuments;
}

/** Registers Read Resource (resources and templates) and Subscribe. */
export function registerResourceCommands(deps: ResourceCommandDeps): vscode.Disposable {
	return vscode.Disposable.from(
		vscode.commands.registerCommand(Commands.readResource, (target: Target) => readResource(deps, target)),
		vscode.commands.registerCommand(Commands.subscribeResource, (target: Target) => subscribe(deps, target)),
	);
}

async function pickResource(
	deps: ResourceCommandDeps,
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

async function readResource(deps: ResourceCommandDeps, target: Target): Promise<vscode.Uri | undefined> {
	let chosen: { server: string; resource?: Resource; template?: ResourceTemplate; uri?: string } | undefined;
	if (target && typeof target === 'object' && 'kind' in target) {
		if (target.kind === 'resource') chosen = { server: target.server, resource: target.resource };
		if (target.kind === 'template') chosen = { server: target.server, template: target.template };
	} else if (target && typeof target === 'object' && target.server !== undefined && target.uri !== undefined) {
		chosen = { server: target.server, uri: target.uri };
	}
	chosen ??= await pickResource(deps);
	if (!chosen) return undefined;
	if (chosen.template) return readTemplate(deps, chosen.server, chosen.template);
	const uri = chosen.uri ?? chosen.resource?.uri;
	return uri !== undefined
		? deps.resources.open(chosen.server, uri, undefined, chosen.resource?.title ?? chosen.resource?.name)
		: undefined;
}

async function subscribe(deps: ResourceCommandDeps, target: Target): Promise<void> {
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

/** Read from a resource template: asks each URI variable (with completions), expands the template, opens the resource. */
export async function readTemplate(
	deps: Pick<ResourceCommandDeps, 'manager' | 'resources'>,
	server: string,
	template: ResourceTemplate,
): Promise<vscode.Uri | undefined> {
	const variables = templateVariables(template.uriTemplate).map((name) => ({ name, required: true }));
	const answers = await askArguments(
		deps.manager,
		server,
		`Read ${template.title ?? template.name}`,
		{ type: 'ref/resource', uri: template.uriTemplate },
		variables,
	);
	if (!answers) return undefined;
	// Its tab: the template's name and the values given ("Dynamic Text Resource 5 · everything").
	return deps.resources.open(
		server,
		expandUriTemplate(template.uriTemplate, answers),
		undefined,
		[template.title ?? template.name, ...Object.values(answers)].join(' '),
	);
}
