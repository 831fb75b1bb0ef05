import * as vscode from 'vscode';
import type { Manager } from '../../manager/manager';
import { plural } from '../../common/text';

/** The status bar text for a set of states: "MCP 3/4" (running / configured), with an error count when any. */
export function statusText(states: readonly { kind: string }[]): { text: string; errors: number } {
	const running = states.filter((s) => s.kind === 'running').length;
	// A server waiting for a sign-in needs the user too: counted with the errors, as it was when it was one.
	const errors = states.filter((s) => s.kind === 'error' || s.kind === 'needsSignIn').length;
	const icon = errors > 0 ? '$(warning)' : '$(server-process)';
	return { text: `${icon} MCP ${running}/${states.length}`, errors };
}

/**
 * "MCP 3/4": running servers out of those configured, with the warning background while any server is in error.
 * Clicking it lists the servers with their actions. Hidden when nothing is configured (the MCP view says what to do).
 */
export class ServersStatusBar implements vscode.Disposable {
	private readonly item: vscode.StatusBarItem;
	private readonly subscriptions: { dispose(): void }[];
	private timer: ReturnType<typeof setTimeout> | undefined;

	constructor(
		private readonly manager: Manager,
		command: string,
	) {
		this.item = vscode.window.createStatusBarItem('mcpSwitchboard.servers', vscode.StatusBarAlignment.Left, 50);
		this.item.name = 'MCP Servers';
		this.item.command = command;
		this.subscriptions = [
			manager.onDidChangeServers(() => this.schedule()),
			manager.onDidChangeState(() => this.schedule()),
		];
		this.update();
	}

	private schedule(): void {
		// State changes come in bursts (starting → running for every server); one repaint per burst is enough.
		this.timer ??= setTimeout(() => {
			this.timer = undefined;
			this.update();
		}, 50);
	}

	/** Repaints from the Manager's current state. */
	update(): void {
		const views = this.manager.servers();
		if (views.length === 0) {
			this.item.hide();
			return;
		}
		const { text, errors } = statusText(views.map((v) => v.state));
		this.item.text = text;
		this.item.backgroundColor = errors > 0 ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
		const lines = views.map(
			(v) =>
				`${v.name}: ${v.state.kind}${v.state.kind === 'error' || v.state.kind === 'needsSignIn' ? ` (${v.state.message.split('\n', 1)[0]})` : ''}`,
		);
		this.item.tooltip = `MCP servers\n${lines.join('\n')}\n\nClick for actions`;
		this.item.accessibilityInformation = {
			label: `MCP: ${views.filter((v) => v.state.kind === 'running').length} of ${plural(views.length, 'server')} running${errors > 0 ? `, ${errors} in error` : ''}`,
		};
		this.item.show();
	}

	/** The current text (tests). */
	get text(): string {
		return this.item.text;
	}

	dispose(): void {
		if (this.timer) clearTimeout(this.timer);
		for (const s of this.subscriptions) s.dispose();
		this.item.dispose();
	}
}
