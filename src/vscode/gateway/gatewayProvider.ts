/**
 * Offers Switchboard's servers to VS Code's own agent: one MCP server definition per server (but those VS Code runs
 * itself), labelled with the user's name for it and pointing at that server's endpoint on the gateway (src/gateway,
 * 127.0.0.1) with this window's bearer token in its headers. So *Configure Tools* groups the tools per server and the
 * agent reads `mcp_<server>_<tool>`. The gateway starts when VS Code first asks for the definitions and stops when
 * the setting turns it off; calls then run on the Manager's connections (no second process per server).
 * API: https://code.visualstudio.com/api/extension-guides/ai/mcp#register-an-mcp-server-in-your-extension
 */
import * as vscode from 'vscode';
import type { Manager } from '../../manager/manager';
import { ManagerCatalog, type ToolFilter } from '../../gateway/catalog';
import { gatewayContextSettings, gatewayInstructions } from '../shared/contextSettings';
import { keptResults } from '../shared/fullResults';
import { startGateway, type Gateway } from '../../gateway/gatewayServer';
import { channelLogger } from '../logs/logging';
import { errorMessage } from '../../common/errors';

/** The provider's id (package.json `contributes.mcpServerDefinitionProviders`). */
export const GATEWAY_PROVIDER_ID = 'mcpSwitchboard.gateway';
/** The setting that turns the gateway off. */
export const GATEWAY_ENABLED_SETTING = 'mcpSwitchboard.gateway.enabled';
/** The provider's label in VS Code's MCP lists (package.json); each definition is labelled with its server's name. */
export const GATEWAY_LABEL = 'MCP Switchboard';

function enabled(): boolean {
	return vscode.workspace.getConfiguration().get<boolean>(GATEWAY_ENABLED_SETTING, true);
}

/** The gateway's life in this window, behind VS Code's McpServerDefinitionProvider. */
export class GatewayProvider
	implements vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition>, vscode.Disposable
{
	private readonly changeEmitter = new vscode.EventEmitter<void>();
	readonly onDidChangeMcpServerDefinitions = this.changeEmitter.event;
	readonly catalog: ManagerCatalog;
	private running: Promise<Gateway> | undefined;
	private readonly subscriptions: vscode.Disposable[] = [];
	/** The servers of the last definitions given to VS Code, joined: a change of the set is told to VS Code. */
	private offered: string;

	constructor(
		private readonly manager: Manager,
		private readonly channel: vscode.LogOutputChannel,
		private readonly version: string,
		isEnabled?: ToolFilter,
	) {
		this.catalog = new ManagerCatalog(manager, isEnabled);
		this.offered = this.catalog.servers().join('\u0000');
		this.subscriptions.push(
			// A server added, removed or renamed, or now run by VS Code itself: VS Code asks for the definitions again.
			this.catalog.onDidChange(() => {
				const offered = this.catalog.servers().join('\u0000');
				if (offered === this.offered) return;
				this.offered = offered;
				this.changeEmitter.fire();
			}),
			vscode.workspace.onDidChangeConfiguration((event) => {
				if (!event.affectsConfiguration(GATEWAY_ENABLED_SETTING)) return;
				if (!enabled()) void this.stop();
				this.changeEmitter.fire();
			}),
		);
	}

	/** The running gateway's URL and token, when it runs (for tests and the status). */
	async current(): Promise<Gateway | undefined> {
		return this.running?.catch(() => undefined);
	}

	async provideMcpServerDefinitions(): Promise<vscode.McpHttpServerDefinition[]> {
		if (!enabled()) return [];
		try {
			const gateway = await this.start();
			const servers = this.catalog.servers();
			this.offered = servers.join('\u0000');
			return servers.map((server) => this.definition(gateway, server));
		} catch (error) {
			this.channel.error(`The MCP gateway for VS Code's agent could not start: ${errorMessage(error)}`);
			return [];
		}
	}

	async resolveMcpServerDefinition(
		server: vscode.McpHttpServerDefinition,
	): Promise<vscode.McpHttpServerDefinition | undefined> {
		if (!enabled() || !this.catalog.servers().includes(server.label)) return undefined;
		// The gateway may have been restarted (setting off and on): give VS Code the current address and token.
		const gateway = await this.start();
		// VS Code's agent starts using the gateway: servers never listed start now, in the background, and their tools
		// reach it through tools/list_changed (the others are offered from their cached listing).
		void this.manager.listUncached().catch(() => undefined);
		server.uri = vscode.Uri.parse(gateway.urlFor(server.label));
		server.headers = { ...server.headers, Authorization: `Bearer ${gateway.token}` };
		return server;
	}

	dispose(): void {
		for (const subscription of this.subscriptions) subscription.dispose();
		void this.stop();
		this.catalog.dispose();
		this.changeEmitter.dispose();
	}

	private definition(gateway: Gateway, server: string): vscode.McpHttpServerDefinition {
		return new vscode.McpHttpServerDefinition(
			server,
			vscode.Uri.parse(gateway.urlFor(server)),
			{ Authorization: `Bearer ${gateway.token}` },
			this.version,
		);
	}

	private start(): Promise<Gateway> {
		this.running ??= startGateway(this.catalog, {
			logger: channelLogger(this.channel),
			instructions: (server) => gatewayInstructions(this.manager, server),
			context: { settings: gatewayContextSettings, results: keptResults },
		}).catch((error: unknown) => {
			this.running = undefined;
			throw error;
		});
		return this.running;
	}

	private async stop(): Promise<void> {
		const running = this.running;
		this.running = undefined;
		const gateway = await running?.catch(() => undefined);
		await gateway?.close();
	}
}

/**
 * Registers the gateway with VS Code (when this VS Code has the MCP provider API; otherwise a provider is still
 * returned, unregistered, so `@mcp` and tests can use its catalog).
 */
export function registerGateway(
	manager: Manager,
	channel: vscode.LogOutputChannel,
	version: string,
	isEnabled?: ToolFilter,
): { provider: GatewayProvider; disposable: vscode.Disposable } {
	const provider = new GatewayProvider(manager, channel, version, isEnabled);
	const registration =
		typeof vscode.lm?.registerMcpServerDefinitionProvider === 'function'
			? vscode.lm.registerMcpServerDefinitionProvider(GATEWAY_PROVIDER_ID, provider)
			: undefined;
	return {
		provider,
		disposable: new vscode.Disposable(() => {
			registration?.dispose();
			provider.dispose();
		}),
	};
}
