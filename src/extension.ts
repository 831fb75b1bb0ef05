import * as vscode from 'vscode';
import { Manager, type NamedTool } from './manager/manager';
import { visibleToModel } from './manager/apps/appMeta';
import { addServer } from './vscode/tree/addServer';
import { registerChatParticipant } from './vscode/chat/chatParticipant';
import { type ActiveCall, ToolCommands } from './vscode/tools/commands';
import { Commands } from './vscode/commandIds';
import { notifyServerErrors, showServerError } from './vscode/logs/serverErrors';
import { registerServerCommands } from './vscode/tree/serverCommands';
import { registerResourceCommands } from './vscode/resources/resourceCommands';
import { registerPromptCommands } from './vscode/prompts/promptCommands';
import {
	ElicitationPresenter,
	handleUrlElicitationRequired,
	watchElicitationCompletions,
} from './vscode/elicitation/elicitation';
import { VsCodeHost } from './vscode/host';
import { registerConfigCommands } from './vscode/tree/importServers';
import { ServerLogs } from './vscode/logs/logging';
import { ResourceDocuments } from './vscode/resources/resourceDocuments';
import { BlobFiles } from './vscode/resources/blobFiles';
import { ResultDocuments } from './vscode/tools/resultDocument';
import { SecretStorageTokenStore, vsCodeOAuthHooks } from './vscode/auth/oauth';
import { registerSamplingCommands, SamplingBroker } from './vscode/sampling/sampling';
import { loggingLevel, watchLogLevelSetting } from './vscode/logs/serverLogging';
import { ServersTreeProvider, type TreeNode } from './vscode/tree/serversTree';
import { ServerConfiguration } from './vscode/settings';
import { registerSignOutCommand } from './vscode/auth/signOut';
import { notifySignInFailures } from './vscode/auth/signInFailures';
import { ServersStatusBar } from './vscode/tree/statusBar';
import { ServerInputQueue } from './vscode/serverInput/inputQueue';
import { WaitingRequestsAnnouncer } from './vscode/serverInput/waitingRequests';
import { TaskList } from './vscode/tasks/taskList';
import { registerTaskCommands } from './vscode/tasks/taskCommands';
import { registerGateway, type GatewayProvider } from './vscode/gateway/gatewayProvider';
import { registerConsentCommands, ToolConsent } from './vscode/tools/consent';
import { type DefinitionPins, offeredToModels } from './manager/pinning/definitionPins';
import { registerPinning } from './vscode/pinning';
import { registerEnablementUi, ToolEnablement, watchCheckboxes } from './vscode/tools/toolEnablement';
import type { CallHistory } from './vscode/console/callHistory';
import type { ProtocolViews } from './vscode/console/protocolView';
import { advertisedExtensions, type AppViews } from './vscode/console/apps';
import { registerConsole } from './vscode/console';
import { errorMessage } from './common/errors';

/** The id of the Servers view (package.json `contributes.views`). */
export const SERVERS_VIEW = 'mcpSwitchboard.servers';

/** What `activate` returns: a small API for e2e suites and other extensions' tests. Not a stable public API. */
export interface SwitchboardApi {
	manager: Manager;
	/** The Servers view's data provider (getChildren / getTreeItem as the view calls them). */
	tree: ServersTreeProvider;
	treeView: vscode.TreeView<TreeNode>;
	/** Tool calls in flight, each cancellable as the notification's Cancel button does. */
	activeCalls(): readonly ActiveCall[];
	/** The status bar's current text, e.g. "$(server-process) MCP 1/1". */
	statusText(): string;
	/** The folder where this extension's log channels are written (one `.log` file per channel). */
	logUri: vscode.Uri;
	/** Where images and other binary results of this window are saved. */
	blobs: BlobFiles;
	/** The one queue of server-initiated UI (elicitation, URL consent, sampling consent) and its announcement. */
	inputQueue: ServerInputQueue;
	waitingRequests: WaitingRequestsAnnouncer;
	/** The presenters, so suites can answer their quick inputs. */
	elicitation: ElicitationPresenter;
	sampling: SamplingBroker;
	/** Resolves when the configuration as of now has been applied (servers started or stopped). */
	settled: () => Promise<void>;
	/** The tasks started in this workspace (kept in workspace state). */
	tasks: TaskList;
	/** The MCP server offered to VS Code's agent (its running gateway's URL and token, its catalog). */
	gateway: GatewayProvider;
	/** Tool permissions (what chat models may run without asking). */
	consent: ToolConsent;
	/** Pinned definitions: what changed since it was approved, held back from models until reviewed. */
	pins: DefinitionPins;
	/** Which tools chat models get (checkboxes, profiles). */
	enablement: ToolEnablement;
	/** The call history (newest first), as the Call History view shows it. */
	history: CallHistory;
	/** The open protocol views, by server. */
	protocol: ProtocolViews;
	/** The open MCP App panels. */
	apps: AppViews;
}

/** The running extension's Manager and its one disposal (shared by deactivate and context.subscriptions). */
let active: { dispose(): Promise<void> } | undefined;

/**
 * The composition root: log channels → Host → Manager → tree, commands, documents, status bar; everything goes into
 * `context.subscriptions`. Configuration is applied on start and on every change, without blocking activation on
 * server starts. An activation error is shown (with Show Output) and rethrown, so VS Code records it too.
 */
export async function activate(context: vscode.ExtensionContext): Promise<SwitchboardApi> {
	const logs = new ServerLogs();
	context.subscriptions.push(logs);
	try {
		const configuration = new ServerConfiguration(context, logs.main);
		// One queue for every UI a server starts: they take turns, and a hidden one waits, announced, instead of being refused.
		const inputQueue = new ServerInputQueue();
		const waitingRequests = new WaitingRequestsAnnouncer(inputQueue);
		context.subscriptions.push(inputQueue, waitingRequests);
		const elicitation = new ElicitationPresenter((server) => logs.channel(server), { queue: inputQueue });
		const sampling = new SamplingBroker(context, (server) => logs.channel(server), { queue: inputQueue });
		const oauth = vsCodeOAuthHooks(context.secrets, (server) => logs.logger(server));
		// MCP Apps (io.modelcontextprotocol/ui) is advertised while mcpSwitchboard.apps.enabled is on (console/apps).
		const host = new VsCodeHost({
			logs,
			elicitation,
			sampling,
			configuration,
			loggingLevel,
			oauth,
			extensions: advertisedExtensions,
		});
		context.subscriptions.push(configuration, elicitation, sampling, host, registerSamplingCommands(sampling));

		const manager = new Manager(host, { inheritEnvironment: configuration.inheritEnvironment() });
		context.subscriptions.push(
			vscode.workspace.onDidChangeConfiguration((e) => {
				if (e.affectsConfiguration('mcpSwitchboard.inheritEnvironment'))
					void manager.setInheritEnvironment(configuration.inheritEnvironment());
			}),
		);
		// Sampling consent is remembered per server definition (where it is defined, its config) and model, not per name.
		sampling.setServerIdentity((server) => manager.get(server));
		let disposing: Promise<void> | undefined;
		const disposeManager = () => (disposing ??= manager.dispose());
		active = { dispose: disposeManager };
		// deactivate() awaits this same promise (so no server process survives); this covers disposal without deactivate.
		context.subscriptions.push({ dispose: () => void disposeManager().catch(() => undefined) });

		// Import servers, reset trust, clear inputs; also applies the start limits setting to the Manager.
		registerConfigCommands(context, configuration, manager);
		context.subscriptions.push(
			watchElicitationCompletions(manager, elicitation),
			watchLogLevelSetting(manager, (server) => logs.channel(server)),
		);

		const tasks = new TaskList(manager, context.workspaceState);
		context.subscriptions.push(tasks);
		// Which tools chat models get (@mcp and the gateway), from the workspace settings and profiles.
		const enablement = new ToolEnablement();
		context.subscriptions.push(enablement, registerEnablementUi(enablement));
		// One consent for every caller: the palette's rule for Call Tool, the model's rule for @mcp (consent.ts).
		const consent = new ToolConsent(context.workspaceState);
		// Remembered tool permissions are keyed on the server's identity (where defined, its config), not its name.
		consent.setServerLookup((server) => manager.get(server));
		// What a model may see and call: switched on, and not an app-only tool (MCP Apps: "Host MUST NOT include tools in
		// the agent's tool list when their visibility does not include "model"").
		// Pinning holds back tools, prompts and templates that changed since they were approved (vscode/pinning).
		const pinning = registerPinning(context, manager);
		consent.setDefinitionCheck((server, tool) => pinning.pins.isChanged(server, 'tool', tool));
		const forModels = offeredToModels(
			pinning.pins,
			(named: NamedTool) => enablement.isEnabled(named) && visibleToModel(named.tool),
		);
		context.subscriptions.push(
			registerChatParticipant(context, manager, { consent, tasks, isEnabled: forModels }),
			registerConsentCommands(consent),
		);
		const version = String((context.extension.packageJSON as { version?: string }).version);
		const gateway = registerGateway(manager, logs.main, version, forModels);
		context.subscriptions.push(
			gateway.disposable,
			enablement.onDidChange(() => gateway.provider.catalog.refilter()),
			pinning.disposable,
			pinning.pins.onDidChange(() => gateway.provider.catalog.refilter()),
		);
		gateway.provider.catalog.holdBack(pinning.pins);

		const tree = new ServersTreeProvider(manager, tasks, enablement);
		// Checkboxes are managed here: a server's checkbox switches its tools through the settings, not VS Code's cascade.
		const treeView = vscode.window.createTreeView(SERVERS_VIEW, {
			treeDataProvider: tree,
			showCollapseAll: true,
			manageCheckboxStateManually: true,
		});
		context.subscriptions.push(watchCheckboxes(treeView, manager, enablement));
		pinning.showBadgeOn(treeView as vscode.TreeView<never>);
		context.subscriptions.push(tree, treeView);

		// One folder per window; other windows' old folders are cleaned after the first save, never at activation.
		const blobs = new BlobFiles(vscode.Uri.joinPath(context.globalStorageUri, 'blobs'));
		const results = new ResultDocuments();
		const resources = new ResourceDocuments(manager, blobs, (server, message) =>
			showServerError(logs, server, message),
		);
		context.subscriptions.push(results, resources);

		const openSettings = () =>
			vscode.commands.executeCommand('workbench.action.openSettings', `@ext:${context.extension.id}`);
		// Each feature registers its own commands; they share the Manager, the logs and the ways forward (commandTarget.ts).
		const base = { manager, logs, addServer, openSettings };
		context.subscriptions.push(
			registerServerCommands(base),
			registerResourceCommands({ ...base, results, resources, blobs }),
			registerPromptCommands({ ...base, results, resources, blobs }),
		);
		const commands = new ToolCommands({
			...base,
			results,
			blobs,
			userInput: () => inputQueue.userInput(),
			consent,
			// A -32042 "URL elicitation required" error: open the pages (with consent), then offer to retry the call.
			retryAfterError: (server, tool, error) =>
				handleUrlElicitationRequired(server, error, elicitation, `the call of ${tool}`),
			tasks,
		});
		context.subscriptions.push(
			registerTaskCommands({
				tasks,
				results,
				blobs,
				showError: (server, message) => showServerError(logs, server, message),
			}),
		);
		const devConsole = registerConsole(context, manager, {
			logs,
			consent,
			isEnabled: enablement.isEnabled,
			hostInfo: { name: 'MCP Switchboard', version },
		});
		context.subscriptions.push(devConsole.disposable);
		const statusBar = new ServersStatusBar(manager, Commands.showServers);
		context.subscriptions.push(
			commands,
			statusBar,
			notifyServerErrors(manager, logs),
			notifySignInFailures(manager, logs),
			registerSignOutCommand(manager, new SecretStorageTokenStore(context.secrets)),
		);

		// Apply configuration changes one at a time, in order; a change during an apply is applied after it.
		let shownProblems = '';
		let chain: Promise<void> = Promise.resolve();
		const apply = (): Promise<void> => {
			chain = chain.then(async () => {
				try {
					const { servers, problems } = await configuration.resolve();
					for (const problem of problems) logs.main.warn(problem);
					const key = problems.join('\n');
					if (problems.length > 0 && key !== shownProblems) {
						const more = problems.length > 1 ? ` (and ${problems.length - 1} more in the output)` : '';
						void vscode.window
							.showWarningMessage(`MCP configuration: ${problems[0]}${more}`, 'Open Settings', 'Show Output')
							.then((choice) => {
								if (choice === 'Open Settings') void openSettings();
								if (choice === 'Show Output') logs.show();
							});
					}
					shownProblems = key;
					await manager.reconcile(servers);
				} catch (error) {
					logs.main.error(error instanceof Error ? error : String(error));
					void vscode.window
						.showErrorMessage(`MCP: applying the server configuration failed: ${errorMessage(error)}`, 'Show Output')
						.then((choice) => {
							if (choice === 'Show Output') logs.show();
						});
				}
			});
			return chain;
		};
		context.subscriptions.push(configuration.onDidChange(() => void apply()));
		void apply();

		logs.main.info(
			`MCP Switchboard ${String((context.extension.packageJSON as { version?: string }).version)} activated`,
		);
		return {
			manager,
			tree,
			treeView,
			activeCalls: () => commands.activeCalls,
			statusText: () => statusBar.text,
			logUri: context.logUri,
			blobs,
			inputQueue,
			waitingRequests,
			elicitation,
			sampling,
			settled: () => chain,
			tasks,
			gateway: gateway.provider,
			consent,
			pins: pinning.pins,
			enablement,
			history: devConsole.history,
			protocol: devConsole.protocol,
			apps: devConsole.apps,
		};
	} catch (error) {
		const message = errorMessage(error);
		logs.main.error(error instanceof Error ? error : message);
		void vscode.window.showErrorMessage(`MCP Switchboard failed to start: ${message}`, 'Show Output').then((choice) => {
			if (choice === 'Show Output') logs.show();
		});
		throw error;
	}
}

/** Stops every server and waits for it, so no server process outlives the extension host. */
export async function deactivate(): Promise<void> {
	const current = active;
	active = undefined;
	await current?.dispose();
}
