import * as vscode from 'vscode';
import { errorMessage } from './common/errors';
import { Manager } from './manager/manager';
import { Emitter } from './common/event';
import { withDebugger, type DebuggableServer } from './manager/devConnector';
import * as auth from './vscode/auth';
import { vsCodeOAuthHooks } from './vscode/auth/oauth';
import * as chat from './vscode/chat';
import * as devConsole from './vscode/console';
import { advertisedExtensions, type AppViews } from './vscode/console/apps';
import { worldConnector } from './vscode/world/connector';
import type { DefinitionPins } from './manager/pinning/definitionPins';
import * as pinningFeature from './vscode/pinning';
import type { CallHistory } from './vscode/console/callHistory';
import type { ProtocolViews } from './vscode/console/protocolView';
import * as elicitationFeature from './vscode/elicitation';
import { ElicitationPresenter } from './vscode/elicitation/elicitation';
import { handleUrlElicitationRequired } from './vscode/elicitation/urlElicitations';
import type { FeatureDeps } from './vscode/featureDeps';
import * as gatewayFeature from './vscode/gateway';
import type { GatewayProvider } from './vscode/gateway/gatewayProvider';
import { VsCodeHost } from './vscode/host';
import * as logsFeature from './vscode/logs';
import { ServerLogs } from './vscode/logs/logging';
import { loggingLevel } from './vscode/logs/serverLogging';
import * as prompts from './vscode/prompts';
import * as resources from './vscode/resources';
import * as samplingFeature from './vscode/sampling';
import { SamplingBroker } from './vscode/sampling/sampling';
import * as serverInput from './vscode/serverInput';
import type { ServerInputQueue } from './vscode/serverInput/inputQueue';
import type { WaitingRequestsAnnouncer } from './vscode/serverInput/waitingRequests';
import * as serverSetup from './vscode/serverSetup';
import { ServerConfiguration } from './vscode/settings';
import { followStartSettings, listingFolder, startOptions } from './vscode/serverStarts';
import { BlobFiles } from './vscode/shared/blobFiles';
import { ResultDocuments } from './vscode/shared/resultDocument';
import type { TreeNode } from './vscode/shared/treeNodes';
import * as tasksFeature from './vscode/tasks';
import type { TaskList } from './vscode/tasks/taskList';
import * as tools from './vscode/tools';
import type { ActiveCall } from './vscode/tools/commands';
import type { ToolConsent } from './vscode/tools/consent';
import type { ToolEnablement } from './vscode/tools/toolEnablement';
import * as tree from './vscode/tree';
import * as skillsFeature from './vscode/skills';
import * as workbench from './vscode/workbench';
import type { ServersTreeProvider } from './vscode/tree/serversTree';
import { type FirstRows, timeFirstRows } from './vscode/tree/firstRows';
import type { FirstRowsView } from './vscode/tree/firstRowsView';

/** The id of the Servers view (package.json `contributes.views`). */
export { SERVERS_VIEW } from './vscode/tree';

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
	/** When this window first had its servers' rows (vscode/tree/firstRows.ts). */
	firstRows: Promise<FirstRows>;
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
	/** Result documents and the result view (its tabs). */
	results: ResultDocuments;
	/** The open protocol views, by server. */
	protocol: ProtocolViews;
	/** The open MCP App panels. */
	apps: AppViews;
	/** The folder where each server's last listing is kept (one file per server identity). */
	listingFolder: string;
	/** The workbench for server authors (recordings in progress). */
	workbench: workbench.Workbench;
}

/** The running extension's Manager and its one disposal (shared by deactivate and context.subscriptions). */
let active: { dispose(): Promise<void> } | undefined;

/**
 * The composition root: log channels → Host → Manager, then each feature's `register(context, deps)` in turn (each
 * puts what it owns into `context.subscriptions` and returns what later features or tests use). Configuration is
 * applied on start and on every change, without blocking activation on server starts. An activation error is shown
 * (with Show Output) and rethrown, so VS Code records it too.
 */
export async function activate(context: vscode.ExtensionContext): Promise<SwitchboardApi> {
	const began = performance.now();
	const logs = new ServerLogs();
	context.subscriptions.push(logs);
	try {
		const version = String((context.extension.packageJSON as { version?: string }).version);
		const configuration = new ServerConfiguration(context, logs.main);
		context.subscriptions.push(configuration);
		const { queue: inputQueue, waitingRequests } = serverInput.register(context);

		const { host, elicitation, sampling } = createHost(context, logs, configuration, inputQueue);
		const debuggable = new Emitter<DebuggableServer>();
		context.subscriptions.push({ dispose: () => debuggable.dispose() });
		const manager = createManager(context, host, configuration, logs, debuggable);

		// The features, each registered the same way; later ones get what earlier ones return.
		const setup = serverSetup.register(context, { manager, configuration });
		// One folder per window; other windows' old folders are cleaned after the first save, never at activation.
		const blobs = new BlobFiles(vscode.Uri.joinPath(context.globalStorageUri, 'blobs'));
		const results = new ResultDocuments(blobs);
		context.subscriptions.push(results);
		const openSettings = () =>
			vscode.commands.executeCommand('workbench.action.openSettings', `@ext:${context.extension.id}`);
		const deps: FeatureDeps = {
			manager,
			logs,
			configuration,
			results,
			blobs,
			version,
			addServer: setup.addServer,
			openSettings,
		};
		logsFeature.register(context, deps);
		auth.register(context, deps);
		elicitationFeature.register(context, { ...deps, elicitation });
		samplingFeature.register(context, { ...deps, sampling });
		const tasks = tasksFeature.register(context, deps);
		resources.register(context, deps);
		prompts.register(context, deps);
		// Pinning holds back tools, prompts and templates that changed since they were approved (vscode/pinning).
		const pinning = pinningFeature.register(context, deps);
		const toolsApi = tools.register(context, {
			...deps,
			pins: pinning.pins,
			tasks,
			userInput: () => inputQueue.userInput(),
			// A -32042 "URL elicitation required" error: open the pages (with consent), then offer to retry the call.
			retryAfterError: (server, tool, error) =>
				handleUrlElicitationRequired(server, error, elicitation, `the call of ${tool}`),
		});
		const { consent, enablement, forModels } = toolsApi;
		chat.register(context, { manager, consent, tasks, isEnabled: forModels });
		const gateway = gatewayFeature.register(context, {
			...deps,
			isEnabled: forModels,
			onDidChangeEnabled: enablement.onDidChange,
		});
		gateway.catalog.holdBack(pinning.pins);
		context.subscriptions.push(pinning.pins.onDidChange(() => gateway.catalog.refilter()));
		const skills = skillsFeature.register(context, deps);
		const servers = tree.register(context, { ...deps, tasks, enablement, skills });
		pinning.showBadgeOn(servers.treeView as vscode.TreeView<never>);
		const consoleApi = devConsole.register(context, {
			manager,
			logs,
			consent,
			isEnabled: enablement.isEnabled,
			hostInfo: { name: 'MCP Switchboard', version },
			results,
			blobs,
		});

		// The workbench for server authors: Record Session (vscode/workbench).
		const authoring = workbench.register(context, {
			...deps,
			secretInputValues: () => configuration.secretInputValues(),
			onDebuggable: debuggable.event,
			history: consoleApi.history,
		});

		const settled = applyConfiguration(context, configuration, manager, logs, openSettings, servers.view);
		logs.main.info(`MCP Switchboard ${version} activated`);
		const firstRows = timeFirstRows(began, servers.view, logs.main);
		return {
			manager,
			tree: servers.tree,
			treeView: servers.treeView,
			activeCalls: toolsApi.activeCalls,
			statusText: () => servers.statusBar.text,
			logUri: context.logUri,
			blobs,
			inputQueue,
			waitingRequests,
			elicitation,
			sampling,
			settled,
			firstRows,
			tasks,
			gateway,
			consent,
			pins: pinning.pins,
			enablement,
			history: consoleApi.history,
			results,
			protocol: consoleApi.protocol,
			workbench: authoring,
			apps: consoleApi.apps,
			listingFolder: listingFolder(context),
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

/** The Host: the parts of the edge the Manager calls (server questions, sampling, trust, sign-in, MCP Apps). */
function createHost(
	context: vscode.ExtensionContext,
	logs: ServerLogs,
	configuration: ServerConfiguration,
	queue: ServerInputQueue,
): { host: VsCodeHost; elicitation: ElicitationPresenter; sampling: SamplingBroker } {
	const elicitation = new ElicitationPresenter((server) => logs.channel(server), { queue });
	const sampling = new SamplingBroker(context, (server) => logs.channel(server), { queue });
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
	context.subscriptions.push(host);
	return { host, elicitation, sampling };
}

/** The Manager on the Host, disposed once (by deactivate or with the extension's subscriptions). */
function createManager(
	context: vscode.ExtensionContext,
	host: VsCodeHost,
	configuration: ServerConfiguration,
	logs: ServerLogs,
	debuggable: Emitter<DebuggableServer>,
): Manager {
	// A server VS Code runs itself is reached through VS Code (vscode/world/connector.ts): one process. A server with
	// dev.debug starts under its debugger, and the workbench attaches VS Code's (vscode/workbench/devMode.ts).
	const manager: Manager = new Manager(host, {
		...startOptions(context, (message) => logs.main.warn(message)),
		inheritEnvironment: configuration.inheritEnvironment(),
		connect: withDebugger(
			worldConnector(
				host,
				(server) => manager.get(server)?.source,
				(server) => manager.get(server)?.config,
			),
			(target) => debuggable.fire(target),
		),
	});
	context.subscriptions.push(
		vscode.workspace.onDidChangeConfiguration((e) => {
			if (e.affectsConfiguration('mcpSwitchboard.inheritEnvironment'))
				void manager.setInheritEnvironment(configuration.inheritEnvironment());
		}),
	);
	followStartSettings(context, manager);
	let disposing: Promise<void> | undefined;
	const disposeManager = () => (disposing ??= manager.dispose());
	active = { dispose: disposeManager };
	// deactivate() awaits this same promise (so no server process survives); this covers disposal without deactivate.
	context.subscriptions.push({ dispose: () => void disposeManager().catch(() => undefined) });
	return manager;
}

/**
 * Applies the configuration now and on every change, one at a time, in order (a change during an apply is applied
 * after it); the first time, the view shows the last window's rows meanwhile when it can. Problems are logged and
 * shown once per distinct set. Returns what resolves when the configuration as of the call has been applied.
 */
function applyConfiguration(
	context: vscode.ExtensionContext,
	configuration: ServerConfiguration,
	manager: Manager,
	logs: ServerLogs,
	openSettings: () => Thenable<unknown>,
	view: FirstRowsView,
): () => Promise<void> {
	let shownProblems = '';
	let chain: Promise<void> = Promise.resolve();
	const apply = (): Promise<void> => {
		chain = chain.then(async () => {
			let applied = false;
			try {
				const sources = await configuration.read();
				// The last window's rows show meanwhile when the configuration reads as it did then (tree/firstRowsView.ts).
				await view.sourcesRead(sources.fingerprint);
				const { servers, problems } = await configuration.resolve(sources);
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
				applied = true;
			} catch (error) {
				logs.main.error(error instanceof Error ? error : String(error));
				void vscode.window
					.showErrorMessage(`MCP: applying the server configuration failed: ${errorMessage(error)}`, 'Show Output')
					.then((choice) => {
						if (choice === 'Show Output') logs.show();
					});
			} finally {
				view.applied(applied);
			}
		});
		return chain;
	};
	context.subscriptions.push(configuration.onDidChange(() => void apply()));
	void apply();
	return () => chain;
}

/** Stops every server and waits for it, so no server process outlives the extension host. */
export async function deactivate(): Promise<void> {
	const current = active;
	active = undefined;
	await current?.dispose();
}
