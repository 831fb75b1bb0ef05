/**
 * Tools: Call Tool, Run Again, Copy Tool Name; tool consent (one prompt for the palette, `@mcp` and the gateway); which
 * tools chat models get (checkboxes, profiles).
 */
import type * as vscode from 'vscode';
import { type DefinitionPins, offeredToModels } from '../../manager/pinning/definitionPins';
import { visibleToModel } from '../../manager/apps/appMeta';
import type { NamedTool } from '../../manager/manager';
import type { FeatureDeps } from '../featureDeps';
import type { TaskList } from '../tasks/taskList';
import { type ActiveCall, ToolCommands } from './commands';
import { registerConsentCommands, ToolConsent } from './consent';
import { registerEnablementUi, ToolEnablement } from './toolEnablement';

/** What tools need beyond the shared deps. */
export interface ToolDeps extends FeatureDeps {
	/** The Tasks list: calls that run as tasks are followed there. */
	tasks: TaskList;
	/** Marks the user's own Call Tool form as open (server requests wait meanwhile, announced). */
	userInput(): vscode.Disposable;
	/** Given a failed call's error, handles what it asks for (e.g. URL elicitation) and says whether to retry once. */
	retryAfterError(server: string, tool: string, error: unknown): Promise<boolean>;
	/** Pinned definitions: a changed tool asks again and is held back from models until reviewed (vscode/pinning). */
	pins: DefinitionPins;
}

/** What other features use of tools. */
export interface Tools {
	consent: ToolConsent;
	enablement: ToolEnablement;
	/**
	 * What a model may see and call: switched on, and not an app-only tool (MCP Apps: "Host MUST NOT include tools in
	 * the agent's tool list when their visibility does not include "model"").
	 */
	forModels: (named: NamedTool) => boolean;
	/** Tool calls in flight, each cancellable as the notification's Cancel button does. */
	activeCalls: () => readonly ActiveCall[];
}

/** Registers the tool commands, consent and enablement; returns what chat, the gateway, the tree and console use. */
export function register(context: vscode.ExtensionContext, deps: ToolDeps): Tools {
	// Which tools chat models get (@mcp and the gateway), from the workspace settings and profiles.
	const enablement = new ToolEnablement();
	// One consent for every caller: the palette's rule for Call Tool, the model's rule for @mcp (consent.ts).
	const consent = new ToolConsent(context.workspaceState);
	// Remembered tool permissions are keyed on the server's identity (where defined, its config), not its name.
	consent.setServerLookup((server) => deps.manager.get(server));
	consent.setDefinitionCheck((server, tool) => deps.pins.isChanged(server, 'tool', tool));
	const commands = new ToolCommands({ ...deps, consent });
	context.subscriptions.push(enablement, registerEnablementUi(enablement), registerConsentCommands(consent), commands);
	return {
		consent,
		enablement,
		// Held back while changed since approved (manager/pinning), as well as switched off or app-only.
		forModels: offeredToModels(deps.pins, (named) => enablement.isEnabled(named) && visibleToModel(named.tool)),
		activeCalls: () => commands.activeCalls,
	};
}
