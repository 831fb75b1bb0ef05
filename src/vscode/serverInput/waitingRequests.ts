import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { ServerInputQueue, WaitingRequest } from './inputQueue';

/** The command behind the announcement: shows the waiting request, or a list when there are several. */

interface Row extends vscode.QuickPickItem {
	request: WaitingRequest;
}

const dismissButton: vscode.QuickInputButton = {
	iconPath: new vscode.ThemeIcon('close'),
	tooltip: 'Dismiss (the server is told you cancelled)',
};

function ago(since: number): string {
	const seconds = Math.max(0, Math.round((Date.now() - since) / 1000));
	return seconds < 60 ? `${seconds} s ago` : `${Math.round(seconds / 60)} min ago`;
}

/** "everything asks for input", or "2 MCP requests wait for you". */
export function announcement(waiting: readonly WaitingRequest[]): string {
	const first = waiting[0];
	if (!first) return '';
	return waiting.length === 1
		? `${first.server} ${first.summary}`
		: `${waiting.length} MCP server requests wait for you`;
}

/**
 * Announces the server requests that wait for the user (queued behind something, or hidden without an answer): a status
 * bar item ("$(bell-dot) everything asks for input") while any waits, and one notification with Show when requests
 * start waiting. The command {@link Commands.showWaitingRequests} opens the only waiting request, or lists them (each with a
 * Dismiss button) when there are several.
 */
export class WaitingRequestsAnnouncer implements vscode.Disposable {
	private readonly item = vscode.window.createStatusBarItem(
		'mcpSwitchboard.waitingRequests',
		vscode.StatusBarAlignment.Left,
		99,
	);
	private readonly disposables: vscode.Disposable[] = [];
	private announced = false;

	constructor(private readonly queue: ServerInputQueue) {
		this.item.name = 'MCP Server Requests';
		this.item.command = Commands.showWaitingRequests;
		this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
		this.disposables.push(
			this.item,
			queue.onDidChange(() => this.update()),
			// Not awaited: the command returns once the list or the request is on screen, not when the user chose.
			vscode.commands.registerCommand(Commands.showWaitingRequests, () => void this.show()),
		);
		this.update();
	}

	/** The status bar text while requests wait, else undefined (tests read it). */
	get text(): string | undefined {
		return this.queue.waiting().length > 0 ? this.item.text : undefined;
	}

	/** Opens the waiting request (or the list of them). Resolves when the choice was made, not when it is answered. */
	async show(): Promise<void> {
		const waiting = this.queue.waiting();
		const only = waiting.length === 1 ? waiting[0] : undefined;
		if (waiting.length === 0) {
			void vscode.window.showInformationMessage('No MCP server is waiting for an answer.');
			return;
		}
		if (only) {
			this.queue.resume(only.id);
			return;
		}
		// The list is the user's own quick input while it is open: no request pops up over it by itself.
		const lease = this.queue.userInput();
		const pick = vscode.window.createQuickPick<Row>();
		pick.title = 'MCP server requests waiting for you';
		pick.placeholder = 'Pick one to answer it, or dismiss it with ✕';
		const rows = () =>
			this.queue.waiting().map((request): Row => ({
				label: request.server,
				description: request.summary,
				detail: `asked ${ago(request.since)}`,
				buttons: [dismissButton],
				request,
			}));
		pick.items = rows();
		const subscriptions: vscode.Disposable[] = [];
		const chosen = await new Promise<WaitingRequest | undefined>((resolve) => {
			subscriptions.push(
				pick.onDidAccept(() => resolve(pick.selectedItems[0]?.request ?? pick.activeItems[0]?.request)),
				pick.onDidTriggerItemButton(({ item }) => {
					this.queue.dismiss(item.request.id);
					// The request leaves the queue a moment later (its answer is sent first): drop its row now.
					pick.items = pick.items.filter((row) => row.request.id !== item.request.id);
					if (pick.items.length === 0) resolve(undefined);
				}),
				// Requests answered or cancelled by their server meanwhile leave the list; new ones join it.
				this.queue.onDidChange(() => {
					const now = rows();
					if (now.map((r) => r.request.id).join() !== pick.items.map((r) => r.request.id).join()) pick.items = now;
					if (now.length === 0) resolve(undefined);
				}),
				pick.onDidHide(() => resolve(undefined)),
			);
			pick.show();
		});
		for (const s of subscriptions) s.dispose();
		pick.dispose();
		// Resume first, then let go of the screen, so the chosen request (not the oldest) is the one that shows.
		if (chosen) this.queue.resume(chosen.id);
		lease.dispose();
	}

	private update(): void {
		const waiting = this.queue.waiting();
		if (waiting.length === 0) {
			this.item.hide();
			this.announced = false;
			return;
		}
		const text = announcement(waiting);
		this.item.text = `$(bell-dot) ${text}`;
		this.item.tooltip = `${waiting.map((r) => `${r.server} ${r.summary} (${r.state === 'hidden' ? 'put aside' : 'waiting its turn'}, ${ago(r.since)})`).join('\n')}\n\nClick to answer. Hiding a request does not refuse it.`;
		this.item.accessibilityInformation = { label: `${text}. Click to answer.` };
		this.item.show();
		if (!this.announced) {
			// Once per burst: a notification for every waiting request would bury the user.
			this.announced = true;
			void vscode.window
				.showInformationMessage(`MCP: ${text}. The request waits until you answer it.`, 'Show')
				.then((choice) => {
					if (choice === 'Show') void this.show();
				});
		}
	}

	dispose(): void {
		for (const d of this.disposables) d.dispose();
	}
}
