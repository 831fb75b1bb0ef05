/**
 * The configuration commands: Import Servers, Reset Trust, Clear Inputs; and the `mcpSwitchboard.maxConcurrentStarts.*`
 * settings applied to a running Manager.
 */
import * as vscode from 'vscode';
import { plural } from '../../common/text';
import type { Manager } from '../../manager/manager';
import { Commands } from '../commandIds';
import type { ServerConfiguration } from '../settings';
import { importServers } from './importServers';

/**
 * Registers the configuration commands. With `manager`, also applies `mcpSwitchboard.maxConcurrentStarts.*`
 * to it now and whenever the settings change. Returns one Disposable for everything.
 */
export function registerConfigCommands(
	context: vscode.ExtensionContext,
	config: ServerConfiguration,
	manager?: Manager,
): vscode.Disposable {
	const disposables: vscode.Disposable[] = [
		vscode.commands.registerCommand(Commands.importServers, (file?: vscode.Uri) =>
			importServers(context.secrets, file instanceof vscode.Uri ? file : undefined),
		),
		vscode.commands.registerCommand(Commands.resetTrust, async () => {
			const count = await config.resetTrust();
			void vscode.window.showInformationMessage(
				count === 0
					? 'MCP: there were no server trust decisions to reset.'
					: `MCP: forgot ${plural(count, 'server trust decision')}; workspace servers will ask again when you start them.`,
			);
		}),
		vscode.commands.registerCommand(Commands.clearInputs, async () => {
			await config.clearInputs();
			void vscode.window.showInformationMessage(
				'MCP: saved input values were forgotten; servers that use them will ask again.',
			);
		}),
	];
	if (manager) {
		manager.setMaxConcurrentStarts(config.startLimits());
		disposables.push(
			vscode.workspace.onDidChangeConfiguration((e) => {
				if (e.affectsConfiguration('mcpSwitchboard.maxConcurrentStarts'))
					manager.setMaxConcurrentStarts(config.startLimits());
			}),
		);
	}
	const all = vscode.Disposable.from(...disposables);
	context.subscriptions.push(all);
	return all;
}
