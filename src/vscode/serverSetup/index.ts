/**
 * Server setup: Add Server, Import Servers, and the configuration commands (trust reset, saved inputs, start limits).
 * Everything that writes a server into the settings or an mcp.json goes through the one writer beside the reader.
 */
import * as vscode from 'vscode';
import type { Manager } from '../../manager/manager';
import { Commands } from '../commandIds';
import { serverOf, type Target } from '../commandTarget';
import type { ServerConfiguration } from '../settings';
import { addServer } from './addServer';
import { registerConfigCommands } from './configCommands';
import { browseRegistry, installUriHandler } from './registryGallery';
import type { InstallDeps } from './registryInstall';
import { trackRegistryInstalled, updateFromRegistry, updateServerFromRegistry } from './registryUpdates';
import { registerServerEntryCommands } from './serverEntryCommands';
import { userMcpJsonUri } from '../userMcpJson';

/** What server setup needs: it runs before the other features, which get its {@link ServerSetup.addServer}. */
export interface ServerSetupDeps {
	manager: Manager;
	configuration: ServerConfiguration;
}

/** What other features use of server setup: the guided Add Server (the "nothing configured yet" way forward). */
export interface ServerSetup {
	addServer: () => Thenable<unknown>;
}

/**
 * Registers Add Server, Browse MCP Servers (the registry gallery), Update from the Registry, the install link handler,
 * Import Servers, Reset Trust, Clear Inputs, the start limits, and a server's Show Configuration, Disable, Enable and
 * Remove.
 */
export function register(context: vscode.ExtensionContext, deps: ServerSetupDeps): ServerSetup {
	const install: InstallDeps = { secrets: context.secrets, storage: context.globalStorageUri.fsPath };
	// A name in use anywhere (any source) is taken: the same name in two sources would hide one of them.
	const add = () =>
		addServer(
			(name) =>
				deps.manager.get(name) !== undefined ||
				Object.hasOwn(vscode.workspace.getConfiguration('mcpSwitchboard').get<object>('servers') ?? {}, name),
			install,
		);
	registerConfigCommands(context, deps.configuration, deps.manager);
	context.subscriptions.push(
		vscode.commands.registerCommand(Commands.addServer, () => add()),
		vscode.commands.registerCommand(Commands.browseRegistry, () => browseRegistry(install)),
		vscode.commands.registerCommand(Commands.updateFromRegistry, () => updateFromRegistry(install)),
		vscode.commands.registerCommand(Commands.updateServerFromRegistry, (target: Target) => {
			const name = serverOf(target);
			return name ? updateServerFromRegistry(install, name) : updateFromRegistry(install);
		}),
		trackRegistryInstalled(),
		vscode.window.registerUriHandler(installUriHandler(install)),
		registerServerEntryCommands(deps.manager, async () =>
			vscode.Uri.joinPath(await userMcpJsonUri(context), '..', 'settings.json'),
		),
	);
	return { addServer: add };
}
