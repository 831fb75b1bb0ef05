/**
 * Server setup: Add Server, Import Servers, and the configuration commands (trust reset, saved inputs, start limits).
 * Everything that writes a server into the settings or an mcp.json goes through the one writer beside the reader.
 */
import * as vscode from 'vscode';
import type { Manager } from '../../manager/manager';
import { Commands } from '../commandIds';
import type { ServerConfiguration } from '../settings';
import { addServer } from './addServer';
import { registerConfigCommands } from './configCommands';
import { browseRegistry, installUriHandler } from './registryGallery';
import type { InstallDeps } from './registryInstall';
import { updateFromRegistry } from './registryUpdates';

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
 * Import Servers, Reset Trust, Clear Inputs and the start limits.
 */
export function register(context: vscode.ExtensionContext, deps: ServerSetupDeps): ServerSetup {
	registerConfigCommands(context, deps.configuration, deps.manager);
	const install: InstallDeps = { secrets: context.secrets, storage: context.globalStorageUri.fsPath };
	const add = () => addServer(install);
	context.subscriptions.push(
		vscode.commands.registerCommand(Commands.addServer, add),
		vscode.commands.registerCommand(Commands.browseRegistry, () => browseRegistry(install)),
		vscode.commands.registerCommand(Commands.updateFromRegistry, () => updateFromRegistry(install)),
		vscode.window.registerUriHandler(installUriHandler(install)),
	);
	return { addServer: add };
}
