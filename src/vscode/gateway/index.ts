/** The gateway: the Manager's enabled tools, prompts and resources offered to VS Code's agent (src/gateway). */
import type * as vscode from 'vscode';
import type { NamedTool } from '../../manager/manager';
import type { FeatureDeps } from '../featureDeps';
import { type GatewayProvider, registerGateway } from './gatewayProvider';

/** What the gateway needs beyond the shared deps. */
export interface GatewayDeps extends Pick<FeatureDeps, 'manager' | 'logs' | 'version'> {
	/** Which tools it offers (enabled and visible to models). */
	isEnabled: (named: NamedTool) => boolean;
	/** Fires when that answer may have changed. */
	onDidChangeEnabled: vscode.Event<void>;
}

/** Registers the gateway's MCP server definition provider; returns the provider. */
export function register(context: vscode.ExtensionContext, deps: GatewayDeps): GatewayProvider {
	const gateway = registerGateway(deps.manager, deps.logs.main, deps.version, (named) => deps.isEnabled(named));
	context.subscriptions.push(
		gateway.disposable,
		deps.onDidChangeEnabled(() => gateway.provider.catalog.refilter()),
	);
	return gateway.provider;
}
