import * as vscode from 'vscode';
import { Emitter, type Event } from '../common/event';
import type { Logger } from '../common/logger';
import type { Host } from '../manager/host';
import type { Root } from '../protocol/schema';
import type { ElicitationPresenter } from './elicitation/elicitation';
import type { ServerLogs } from './logs/logging';
import type { SamplingBroker } from './sampling/sampling';
import type { ServerConfiguration } from './settings';

/** The pieces of the edge the Host delegates to; each absent one leaves its feature unadvertised. */
export interface HostParts {
	logs: ServerLogs;
	elicitation?: ElicitationPresenter;
	sampling?: SamplingBroker;
	configuration?: ServerConfiguration;
	/** The `logging/setLevel` level for a server; undefined leaves the server's default. */
	loggingLevel?: Host['loggingLevel'];
	/** OAuth hooks for a remote server; undefined: a 401 fails with a clear error. */
	oauth?: Host['oauth'];
	/** MCP extensions advertised to servers (read at each connect); undefined: none. */
	extensions?: Host['extensions'];
}

/** The workspace folders that are on disk, as MCP roots (`file://` URIs, named after the folder). */
export function workspaceRoots(): Root[] {
	return (vscode.workspace.workspaceFolders ?? [])
		.filter((folder) => folder.uri.scheme === 'file')
		.map((folder) => ({ uri: folder.uri.toString(), name: folder.name }));
}

/**
 * VS Code as the core's Host: per-server log channels, workspace folders as roots (with a change event),
 * elicitation and sampling through their presenters, trust through the server configuration.
 * Roots are read fresh on every call, so a folder added while a server runs is offered at once.
 */
export class VsCodeHost implements Host, vscode.Disposable {
	private readonly rootsChanged = new Emitter<void>();
	readonly onDidChangeRoots: Event<void> = this.rootsChanged.event;
	private readonly subscription: vscode.Disposable;

	readonly elicit?: Host['elicit'];
	readonly sample?: Host['sample'];
	readonly confirmTrust?: Host['confirmTrust'];
	readonly loggingLevel?: Host['loggingLevel'];
	readonly oauth?: Host['oauth'];
	readonly extensions?: Host['extensions'];

	constructor(private readonly parts: HostParts) {
		this.subscription = vscode.workspace.onDidChangeWorkspaceFolders(() => this.rootsChanged.fire());
		// Assigned only when the part exists: the Manager advertises a capability only for a method that is present.
		const { elicitation, sampling, configuration, loggingLevel, oauth } = parts;
		if (elicitation) {
			this.elicit = (server, params, signal) => elicitation.elicit(server, params, signal);
		}
		if (sampling) {
			this.sample = (server, params, signal) => sampling.sample(server, params, signal);
		}
		if (configuration) {
			this.confirmTrust = (server, description, options) => configuration.confirmTrust(server, description, options);
		}
		if (loggingLevel) {
			this.loggingLevel = loggingLevel;
		}
		if (oauth) {
			this.oauth = oauth;
		}
		if (parts.extensions) {
			this.extensions = parts.extensions;
		}
	}

	logger(server: string): Logger {
		return this.parts.logs.logger(server);
	}

	roots(): readonly Root[] {
		return workspaceRoots();
	}

	dispose(): void {
		this.subscription.dispose();
		this.rootsChanged.dispose();
	}
}
