/**
 * Pinning in VS Code: the pins in global storage, the setting that turns holding back off
 * (`mcpSwitchboard.pinning.holdChanged`), a notification and a badge on the Servers view when a server's tools,
 * prompts or resource templates changed since they were approved, and *Review Changed Definitions…*, which opens
 * VS Code's diff editor on the old and new definitions (two read-only documents) and asks Accept or Keep Blocked.
 * What is held back is decided in `manager/pinning`; `@mcp` and the gateway apply it through their filters.
 */
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { FeatureDeps } from '../featureDeps';
import { DefinitionPins } from '../../manager/pinning/definitionPins';
import { type DefinitionChange, reviewTexts } from '../../manager/pinning/pins';
import { extensionPinStore } from './pinStore';

export const PIN_REVIEW_SCHEME = 'switchboard-pins';
const HOLD_SETTING = 'pinning.holdChanged';

/** Whether changed definitions are held back (`mcpSwitchboard.pinning.holdChanged`, default true). */
function holdChanged(): boolean {
	return vscode.workspace.getConfiguration('mcpSwitchboard').get<boolean>(HOLD_SETTING, true) !== false;
}

/** What Review returns (for tests and automation): the server, the changes shown, and the answer. */
export interface ReviewOutcome {
	server: string;
	changes: DefinitionChange[];
	before: string;
	after: string;
	accepted: boolean;
}

/** The review documents' text, by URI path, served read-only. */
class ReviewDocuments implements vscode.TextDocumentContentProvider {
	private readonly texts = new Map<string, string>();
	private readonly changed = new vscode.EventEmitter<vscode.Uri>();
	readonly onDidChange = this.changed.event;

	set(uri: vscode.Uri, text: string): void {
		this.texts.set(uri.path, text);
		this.changed.fire(uri);
	}

	provideTextDocumentContent(uri: vscode.Uri): string {
		return this.texts.get(uri.path) ?? '';
	}

	dispose(): void {
		this.changed.dispose();
	}
}

/**
 * Registers pinning. `showBadgeOn(view)` gives the Servers view, whose badge then counts the servers with changes
 * to review.
 */
export function register(
	context: vscode.ExtensionContext,
	{ manager, logs }: Pick<FeatureDeps, 'manager' | 'logs'>,
): { pins: DefinitionPins; showBadgeOn(view: vscode.TreeView<never>): void } {
	let view: vscode.TreeView<never> | undefined;
	const pins = new DefinitionPins(manager, {
		store: extensionPinStore(context, (message) => logs.main.warn(message)),
		holdChanged,
	});
	const documents = new ReviewDocuments();
	/** What was announced per server (the changes' text), so one change is announced once. */
	const announced = new Map<string, string>();

	const review = async (target?: string | { server?: string }): Promise<ReviewOutcome | undefined> => {
		let server = typeof target === 'string' ? target : target?.server;
		if (server === undefined) {
			const changed = pins.changedServers();
			if (changed.length === 0) {
				void vscode.window.showInformationMessage('MCP: no server changed its definitions since you approved them.');
				return undefined;
			}
			server =
				changed.length === 1
					? changed[0]
					: await vscode.window.showQuickPick(changed, { title: 'Review changed definitions of which server?' });
			if (server === undefined) return undefined;
		}
		const changes = pins.changes(server);
		if (changes.length === 0) {
			void vscode.window.showInformationMessage(`MCP server '${server}' has no changed definitions to review.`);
			return undefined;
		}
		const { before, after } = reviewTexts(changes);
		const stamp = Date.now();
		const left = vscode.Uri.from({ scheme: PIN_REVIEW_SCHEME, path: `/${stamp}/${server} (approved).jsonc` });
		const right = vscode.Uri.from({ scheme: PIN_REVIEW_SCHEME, path: `/${stamp}/${server} (now).jsonc` });
		documents.set(left, before);
		documents.set(right, after);
		await vscode.commands.executeCommand(
			'vscode.diff',
			left,
			right,
			`${server}: definitions approved ↔ now (${changes.length} changed)`,
			{ preview: true },
		);
		const accept = 'Accept';
		const choice = await vscode.window.showQuickPick(
			[
				{ label: accept, description: 'offer these definitions to chat models and the gateway again' },
				{ label: 'Keep Blocked', description: 'they stay held back; the palette still runs them, with a warning' },
			],
			{ title: `Accept the changed definitions of '${server}'?`, ignoreFocusOut: true },
		);
		const accepted = choice?.label === accept;
		if (accepted) await pins.accept(server);
		return { server, changes, before, after, accepted };
	};

	const announce = (server: string) => {
		const changes = pins.changes(server);
		const key = changes.map((c) => `${c.kind}:${c.name}:${c.after}`).join('\n');
		if (view) {
			const count = pins.changedServers().length;
			view.badge =
				count > 0 ? { value: count, tooltip: `${count} MCP server(s) changed definitions to review` } : undefined;
		}
		if (changes.length === 0 || announced.get(server) === key) return;
		announced.set(server, key);
		const names = changes.map((c) => `${c.kind} ${c.name}`).join(', ');
		const held = holdChanged() ? ' They are held back from chat models and the gateway until you review them.' : '';
		void vscode.window
			.showWarningMessage(
				`MCP server '${server}' changed ${changes.length === 1 ? 'a definition' : `${changes.length} definitions`} since you approved them (${names}).${held}`,
				'Review Changes',
				'Keep Blocked',
			)
			.then((answer) => {
				if (answer === 'Review Changes') void review(server);
			});
	};

	context.subscriptions.push(
		pins,
		documents,
		vscode.workspace.registerTextDocumentContentProvider(PIN_REVIEW_SCHEME, documents),
		vscode.commands.registerCommand(Commands.reviewDefinitionChanges, review),
		pins.onDidChange(({ server }) => announce(server)),
		vscode.workspace.onDidChangeConfiguration((event) => {
			if (event.affectsConfiguration(`mcpSwitchboard.${HOLD_SETTING}`)) pins.refresh();
		}),
	);
	const showBadgeOn = (servers: vscode.TreeView<never>) => {
		view = servers;
		for (const server of pins.changedServers()) announce(server);
	};
	return { pins, showBadgeOn };
}
