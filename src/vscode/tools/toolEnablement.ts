/**
 * Which tools are offered to language models (`@mcp` and VS Code's agent through the gateway): every tool unless
 * switched off. The switched-off tools are kept per server in workspace settings — `mcpSwitchboard.tools.disabled`,
 * or, while a named profile is active, that profile's list in `mcpSwitchboard.tools.profiles` — so they travel with
 * the workspace and can be reviewed in settings.json. Calls from the palette are not affected: a person picks the
 * tool by name.
 */
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { Manager } from '../../manager/manager';
import type { NamedTool } from '../../manager/types';
import type { TreeNode } from '../shared/treeNodes';
import { plural } from '../../common/text';
import {
	activeDisabledTools,
	activeToolProfile,
	EnablementSettings,
	parseToolProfiles,
	type DisabledTools,
} from '../../manager/toolEnablement';

/** The command ids (package.json). */

/** Per-tool enablement and named profiles, read from and written to the settings. */
export class ToolEnablement implements vscode.Disposable {
	private readonly changeEmitter = new vscode.EventEmitter<void>();
	/** Fires when the set of enabled tools may have changed (a setting, a checkbox, a profile switch). */
	readonly onDidChange = this.changeEmitter.event;
	private disabledKeys = new Set<string>();
	private readonly subscription: vscode.Disposable;

	constructor() {
		this.read();
		this.subscription = vscode.workspace.onDidChangeConfiguration((event) => {
			if (Object.values(EnablementSettings).some((key) => event.affectsConfiguration(key))) {
				this.read();
				this.changeEmitter.fire();
			}
		});
	}

	/** True unless the tool is switched off in the active list. Constant time (called for every tool per request). */
	readonly isEnabled = (named: Pick<NamedTool, 'server'> & { tool: { name: string } }): boolean =>
		this.disabledKeys.size === 0 || !this.disabledKeys.has(`${named.server}\u0000${named.tool.name}`);

	/** The active profile's name, or undefined for the workspace's own list. */
	activeProfile(): string | undefined {
		return activeToolProfile(
			vscode.workspace.getConfiguration().get<unknown>(EnablementSettings.activeProfile),
			this.profiles(),
		);
	}

	/** Every saved profile. */
	profiles(): Record<string, DisabledTools> {
		return parseToolProfiles(vscode.workspace.getConfiguration().get<unknown>(EnablementSettings.profiles));
	}

	/** The switched-off tools of the active list. */
	disabled(): DisabledTools {
		const config = vscode.workspace.getConfiguration();
		return activeDisabledTools({
			disabled: config.get<unknown>(EnablementSettings.disabled),
			profiles: config.get<unknown>(EnablementSettings.profiles),
			activeProfile: config.get<unknown>(EnablementSettings.activeProfile),
		}).disabled;
	}

	/** Switches tools on or off in the active list (the active profile, or the workspace's own list). */
	async setEnabled(tools: readonly { server: string; tool: string }[], enabled: boolean): Promise<void> {
		const disabled = this.disabled();
		for (const { server, tool } of tools) {
			const list = new Set(disabled[server] ?? []);
			if (enabled) list.delete(tool);
			else list.add(tool);
			if (list.size > 0) disabled[server] = [...list].sort();
			else delete disabled[server];
		}
		await this.writeActive(disabled);
	}

	/** Makes `name` the active profile (undefined: the workspace's own list). */
	async switchTo(name: string | undefined): Promise<void> {
		await vscode.workspace.getConfiguration().update(EnablementSettings.activeProfile, name, target());
	}

	/** Saves the active list as a new profile `name` and switches to it. */
	async saveAs(name: string): Promise<void> {
		const profiles = { ...this.profiles(), [name]: this.disabled() };
		await vscode.workspace.getConfiguration().update(EnablementSettings.profiles, profiles, target());
		await this.switchTo(name);
	}

	dispose(): void {
		this.subscription.dispose();
		this.changeEmitter.dispose();
	}

	private async writeActive(disabled: DisabledTools): Promise<void> {
		const active = this.activeProfile();
		const config = vscode.workspace.getConfiguration();
		if (active) await config.update(EnablementSettings.profiles, { ...this.profiles(), [active]: disabled }, target());
		else
			await config.update(
				EnablementSettings.disabled,
				Object.keys(disabled).length > 0 ? disabled : undefined,
				target(),
			);
		// Read now rather than wait for the configuration event, so the caller sees its own change at once.
		this.read();
		this.changeEmitter.fire();
	}

	private read(): void {
		const keys = new Set<string>();
		for (const [server, tools] of Object.entries(this.disabled()))
			for (const tool of tools) keys.add(`${server}\u0000${tool}`);
		this.disabledKeys = keys;
	}
}

/** Workspace settings when a workspace is open (enablement belongs to the project), else user settings. */
function target(): vscode.ConfigurationTarget {
	return vscode.workspace.workspaceFolders?.length
		? vscode.ConfigurationTarget.Workspace
		: vscode.ConfigurationTarget.Global;
}

/**
 * The status bar item ("$(tools) review" while a profile is active, "$(tools) 3 off" when tools are switched off) and
 * MCP: Switch Tool Profile… (its click): pick a profile, the workspace's own list, or save the current one as a new
 * profile.
 */
export function registerEnablementUi(enablement: ToolEnablement): vscode.Disposable {
	const item = vscode.window.createStatusBarItem('mcpSwitchboard.toolProfile', vscode.StatusBarAlignment.Left, 99);
	item.name = 'MCP Tool Profile';
	item.command = Commands.switchToolProfile;
	const render = () => {
		const active = enablement.activeProfile();
		const off = Object.values(enablement.disabled()).reduce((sum, tools) => sum + tools.length, 0);
		const profiles = Object.keys(enablement.profiles()).length;
		item.text = `$(tools) ${active ?? (off > 0 ? `${off} off` : 'all tools')}`;
		item.tooltip = `MCP tools offered to chat models: ${active ? `profile "${active}"` : "the workspace's list"}, ${off} switched off. Click to switch profiles.`;
		if (active || off > 0 || profiles > 0) item.show();
		else item.hide();
	};
	render();
	const command = vscode.commands.registerCommand(Commands.switchToolProfile, async () => {
		type Item = vscode.QuickPickItem & { profile?: string; save?: boolean };
		const active = enablement.activeProfile();
		const items: Item[] = [
			{
				label: 'Workspace list',
				description: active === undefined ? 'active' : undefined,
				detail: 'The tools switched off with the checkboxes in the MCP view',
			},
			...Object.entries(enablement.profiles()).map(([name, disabled]) => ({
				label: name,
				profile: name,
				description: name === active ? 'active' : undefined,
				detail: `${plural(
					Object.values(disabled).reduce((sum, tools) => sum + tools.length, 0),
					'tool',
				)} switched off`,
			})),
			{ label: '', kind: vscode.QuickPickItemKind.Separator },
			{ label: '$(save) Save the current list as a profile…', save: true },
		];
		const chosen = await vscode.window.showQuickPick(items, {
			title: 'MCP Tool Profile',
			placeHolder: "Which tools chat models get (@mcp and VS Code's agent)",
		});
		if (!chosen) return;
		if (chosen.save) {
			const name = await vscode.window.showInputBox({
				title: 'Save Tool Profile',
				prompt: 'A name for the current list of switched-off tools, e.g. review or deploy',
				validateInput: (value) => (value.trim() ? undefined : 'Enter a name'),
			});
			if (name?.trim()) await enablement.saveAs(name.trim());
			return;
		}
		await enablement.switchTo(chosen.profile);
	});
	return vscode.Disposable.from(item, command, enablement.onDidChange(render));
}

/** Applies the Servers view's checkboxes: a tool row's switches that tool for chat models. */
export function watchCheckboxes(treeView: vscode.TreeView<TreeNode>, enablement: ToolEnablement): vscode.Disposable {
	return treeView.onDidChangeCheckboxState(async (event) => {
		for (const [node, state] of event.items) {
			if (node.kind === 'tool')
				await enablement.setEnabled(
					[{ server: node.server, tool: node.tool.tool.name }],
					state === vscode.TreeItemCheckboxState.Checked,
				);
		}
	});
}

/**
 * Offer All Tools / Offer No Tools on a server's Tools row (what the server row's checkbox did): every tool the server
 * lists switched on or off for chat models at once. From the palette they ask which server.
 */
export function registerBulkEnablement(manager: Manager, enablement: ToolEnablement): vscode.Disposable {
	const apply = (enabled: boolean) => async (node?: TreeNode) => {
		const server =
			node && 'server' in node
				? node.server
				: await vscode.window.showQuickPick(
						manager
							.servers()
							.filter((view) => view.tools.length > 0)
							.map((view) => view.name),
						{
							title: enabled ? 'Offer All Tools to Chat Models' : 'Offer No Tools to Chat Models',
							placeHolder: 'Which server',
						},
					);
		if (!server) return;
		const tools = (manager.get(server)?.tools ?? []).map((named) => ({ server: named.server, tool: named.tool.name }));
		await enablement.setEnabled(tools, enabled);
	};
	return vscode.Disposable.from(
		vscode.commands.registerCommand(Commands.offerAllTools, apply(true)),
		vscode.commands.registerCommand(Commands.offerNoTools, apply(false)),
	);
}
