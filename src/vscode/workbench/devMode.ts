/**
 * Dev mode for server authors (a server's `dev`, manager/devMode.ts, VS Code's own shape): files matching `dev.watch`
 * (globs relative to the workspace folder) restart the server, debounced so that a build writing many files restarts
 * it once; the restart says why in the server's log and the status bar, and calls in flight end with an error naming
 * the restart. The Servers view keeps its rows (the server keeps its name and place) and an open protocol view keeps
 * following the server across the restart. `dev.debug` starts a local server under its debugger
 * (manager/devConnector.ts) and attaches VS Code's debugger once it runs: `node` with the built-in Node debugger's
 * attach configuration, `debugpy` with the Python debugger's (when the Python Debugger extension is installed; else
 * a message says what to install).
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../common/errors';
import type { Event } from '../../common/event';
import type { DebuggableServer } from '../../manager/devConnector';
import type { Manager } from '../../manager/manager';
import type { ServerLogs } from '../logs/logging';

/** How long after the last change of a burst the server restarts. */
export const WATCH_DEBOUNCE_MS = 300;

/** What dev mode needs. */
export interface DevModeDeps {
	manager: Manager;
	logs: ServerLogs;
	/** Fires when a server with `dev.debug` answered its handshake under its debugger. */
	onDebuggable: Event<DebuggableServer>;
}

/** One server's watchers, keyed by its globs so a changed `dev.watch` builds new ones. */
interface Watch {
	key: string;
	watchers: vscode.FileSystemWatcher[];
	timer?: ReturnType<typeof setTimeout>;
	changed: Set<string>;
}

export class DevMode implements vscode.Disposable {
	private readonly watches = new Map<string, Watch>();
	private readonly disposables: vscode.Disposable[] = [];
	/** Restarts dev mode made, by server (tests read it). */
	readonly restarts = new Map<string, number>();
	/** Debug sessions started, by server (tests read it). */
	readonly debugSessions = new Map<string, vscode.DebugSession>();

	constructor(private readonly deps: DevModeDeps) {
		this.disposables.push(
			deps.manager.onDidChangeServers(() => this.sync()),
			deps.onDebuggable((target) => void this.attach(target)),
			vscode.workspace.onDidChangeWorkspaceFolders(() => this.sync(true)),
			vscode.debug.onDidTerminateDebugSession((session) => {
				for (const [server, known] of this.debugSessions) if (known === session) this.debugSessions.delete(server);
			}),
		);
		this.sync();
	}

	/** Builds watchers for servers with `dev.watch`, drops those of servers gone or changed. */
	private sync(rebuild = false): void {
		const wanted = new Map<string, string[]>();
		for (const view of this.deps.manager.servers()) {
			const globs = view.config.dev?.watch ?? [];
			if (globs.length > 0) wanted.set(view.name, globs);
		}
		for (const [server, watch] of this.watches) {
			const globs = wanted.get(server);
			if (rebuild || !globs || JSON.stringify(globs) !== watch.key) this.unwatch(server);
		}
		const folder = vscode.workspace.workspaceFolders?.[0];
		if (!folder) return;
		for (const [server, globs] of wanted) {
			if (this.watches.has(server)) continue;
			const watch: Watch = { key: JSON.stringify(globs), watchers: [], changed: new Set() };
			for (const glob of globs) {
				const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, glob));
				const changed = (uri: vscode.Uri) => this.changed(server, watch, uri);
				watcher.onDidChange(changed);
				watcher.onDidCreate(changed);
				watcher.onDidDelete(changed);
				watch.watchers.push(watcher);
			}
			this.watches.set(server, watch);
		}
	}

	private changed(server: string, watch: Watch, uri: vscode.Uri): void {
		watch.changed.add(vscode.workspace.asRelativePath(uri));
		clearTimeout(watch.timer);
		watch.timer = setTimeout(() => void this.restart(server, watch), WATCH_DEBOUNCE_MS);
	}

	private async restart(server: string, watch: Watch): Promise<void> {
		const files = [...watch.changed];
		watch.changed.clear();
		const state = this.deps.manager.get(server)?.state.kind;
		// A server the person stopped, or one waiting for trust or a sign-in, stays as it is.
		if (state !== 'running' && state !== 'starting' && state !== 'error') return;
		const why = `${files.slice(0, 3).join(', ')}${files.length > 3 ? ` and ${files.length - 3} more` : ''} changed`;
		this.deps.logs.channel(server).info(`dev.watch: ${why}; restarting the server (calls in flight are cancelled)`);
		const status = vscode.window.setStatusBarMessage(`$(sync~spin) Restarting MCP server '${server}': ${why}`);
		this.restarts.set(server, (this.restarts.get(server) ?? 0) + 1);
		try {
			await this.deps.manager.restart(server);
		} catch (error) {
			this.deps.logs.channel(server).error(`dev.watch: the restart failed: ${errorMessage(error)}`);
		} finally {
			status.dispose();
		}
	}

	private async attach(target: DebuggableServer): Promise<void> {
		const { server, debug, port } = target;
		const folder = vscode.workspace.workspaceFolders?.[0];
		const name = `MCP server '${server}'`;
		const configuration: vscode.DebugConfiguration =
			debug.type === 'node'
				? { type: 'node', request: 'attach', name, address: '127.0.0.1', port, continueOnAttach: true }
				: { type: 'debugpy', request: 'attach', name, connect: { host: '127.0.0.1', port } };
		try {
			const previous = this.debugSessions.get(server);
			if (previous) await vscode.debug.stopDebugging(previous);
			const listener = vscode.debug.onDidStartDebugSession((session) => {
				if (session.configuration.name === name) this.debugSessions.set(server, session);
			});
			let started: boolean;
			try {
				started = await vscode.debug.startDebugging(folder, configuration);
			} finally {
				listener.dispose();
			}
			if (!started) throw new Error(`VS Code did not start the ${debug.type} debugger`);
			this.deps.logs.channel(server).info(`dev.debug: the ${debug.type} debugger is attached (port ${port})`);
		} catch (error) {
			const hint =
				debug.type === 'debugpy'
					? " Install the Python Debugger extension (ms-python.debugpy), and debugpy in the server's Python (pip install debugpy)."
					: '';
			this.deps.logs.channel(server).error(`dev.debug: attaching failed: ${errorMessage(error)}.${hint}`);
			void vscode.window.showErrorMessage(
				`MCP server '${server}': attaching the ${debug.type} debugger failed: ${errorMessage(error)}.${hint}`,
			);
		}
	}

	private unwatch(server: string): void {
		const watch = this.watches.get(server);
		if (!watch) return;
		clearTimeout(watch.timer);
		for (const watcher of watch.watchers) watcher.dispose();
		this.watches.delete(server);
	}

	dispose(): void {
		for (const server of [...this.watches.keys()]) this.unwatch(server);
		for (const disposable of this.disposables) disposable.dispose();
	}
}
