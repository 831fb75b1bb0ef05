import * as vscode from 'vscode';
import type { ServerView } from '../../manager/manager';
import { Commands } from '../commandIds';
import { commandError, nothingConfigured, pickServer, serverOf, type CommandBase, type Target } from '../commandTarget';
import { stateIcon, stateLabel, stateMessage } from '../shared/serverStates';
import { errorMessage } from '../../common/errors';

/**
 * Registers the server commands of the tree, the palette and the status bar: Start, Stop, Restart, Show Log, Refresh,
 * Open Settings and the status bar's server list. Each stays registered when nothing runs and says why
 * it cannot act (convention 11).
 */
export function registerServerCommands(base: CommandBase): vscode.Disposable {
	const register = (id: string, fn: (target: Target) => unknown) => vscode.commands.registerCommand(id, fn);
	return vscode.Disposable.from(
		register(Commands.startServer, (target) => lifecycle(base, target, 'start')),
		register(Commands.stopServer, (target) => lifecycle(base, target, 'stop')),
		register(Commands.restartServer, (target) => lifecycle(base, target, 'restart')),
		register(Commands.showServerLog, (target) => showLog(base, target)),
		register(Commands.refresh, (target) => refresh(base, target)),
		register(Commands.openSettings, () => base.openSettings()),
		register(Commands.showServers, () => showServers(base)),
	);
}

function running(): (view: ServerView) => boolean {
	return (view) => view.state.kind === 'running';
}

async function lifecycle(base: CommandBase, target: Target, action: 'start' | 'stop' | 'restart'): Promise<void> {
	const filter: (view: ServerView) => boolean =
		action === 'start'
			? (view) => view.state.kind !== 'running' && view.state.kind !== 'starting'
			: action === 'stop'
				? (view) =>
						view.state.kind === 'running' ||
						view.state.kind === 'starting' ||
						view.state.kind === 'error' ||
						view.state.kind === 'needsSignIn'
				: () => true;
	const server =
		serverOf(target) ??
		(await pickServer(
			base,
			`Server to ${action}`,
			filter,
			action === 'start' ? 'Every MCP server is already running.' : 'No MCP server is running.',
		));
	if (server === undefined) return;
	try {
		await vscode.window.withProgress(
			{
				location: vscode.ProgressLocation.Window,
				title: `MCP: ${action === 'stop' ? 'stopping' : action === 'start' ? 'starting' : 'restarting'} ${server}`,
			},
			() => base.manager[action](server),
		);
	} catch (error) {
		commandError(base, server, `${action} failed: ${errorMessage(error)}`);
	}
}

async function showLog(base: CommandBase, target: Target): Promise<void> {
	const server = serverOf(target) ?? (await pickServer(base, 'Show the log of', () => true, ''));
	if (server !== undefined) base.logs.show(server);
}

async function refresh(base: CommandBase, target: Target): Promise<void> {
	const servers =
		serverOf(target) !== undefined
			? [serverOf(target) as string]
			: base.manager
					.servers()
					.filter(running())
					.map((v) => v.name);
	if (servers.length === 0) {
		if (base.manager.servers().length === 0) await nothingConfigured(base);
		else
			void vscode.window.showInformationMessage(
				'No MCP server is running: nothing to refresh. Start one from the MCP view.',
			);
		return;
	}
	await Promise.all(
		servers.map((server) =>
			base.manager.refresh(server).catch((error: unknown) => {
				commandError(base, server, `refresh failed: ${errorMessage(error)}`);
			}),
		),
	);
}

/** The status bar's list: every server with its state, then the actions for the chosen one. */
async function showServers(base: CommandBase): Promise<void> {
	const views = base.manager.servers();
	if (views.length === 0) {
		await nothingConfigured(base);
		return;
	}
	const icon = (view: ServerView) => `$(${stateIcon(view.state).id})`;
	const chosen = await vscode.window.showQuickPick(
		views.map((view) => ({
			label: `${icon(view)} ${view.name}`,
			description: stateLabel(view.state),
			detail: stateMessage(view.state),
			name: view.name,
		})),
		{ title: 'MCP Servers', placeHolder: 'Pick a server for its actions' },
	);
	if (!chosen) return;
	const view = base.manager.get(chosen.name);
	const active = view?.state.kind === 'running' || view?.state.kind === 'starting';
	const actions = [
		...(active
			? [
					{ label: '$(debug-restart) Restart', id: Commands.restartServer },
					{ label: '$(debug-stop) Stop', id: Commands.stopServer },
				]
			: [{ label: '$(debug-start) Start', id: Commands.startServer }]),
		...(view?.state.kind === 'running' ? [{ label: '$(play) Call Tool…', id: Commands.callTool }] : []),
		{ label: '$(output) Show Log', id: Commands.showServerLog },
		// Fix, switch off or remove it from here too (its entry, through the one writer).
		{ label: '$(gear) Show Configuration', id: Commands.showConfiguration },
		view?.state.kind === 'disabled'
			? { label: '$(check) Enable', id: Commands.enableServer }
			: { label: '$(circle-slash) Disable', id: Commands.disableServer },
		{ label: '$(trash) Remove…', id: Commands.removeServer },
	];
	const action = await vscode.window.showQuickPick(actions, { title: chosen.name });
	if (action) await vscode.commands.executeCommand(action.id, chosen.name);
}
