/**
 * The result view: one webview tab per tool call that shows what came back as a person reads it (text, images and
 * audio inline, structured content, the arguments) with the call's actions: Run Again, Edit Arguments, Keep Open,
 * Open as Markdown. Like VS Code's preview editors, one tab is reused by the next result until the person keeps it
 * (Keep Open, or any action that works on it), so results do not pile up as tabs. A call opened from the Call History
 * is shown by the same page.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import { errorMessage } from '../../common/errors';
import type { BlobFiles } from './blobFiles';
import { resourceUri } from './resourceUris';
import { resultViewHtml, type ResultPage, type ShownCall } from './resultViewHtml';

export type { ShownCall } from './resultViewHtml';

/** The webview panels' view type (also what VS Code restores by, though results are not restored). */
export const RESULT_VIEW_TYPE = 'mcpSwitchboard.result';

/** One result tab. */
export class ResultPanel {
	private page: ResultPage;
	private readonly disposables: vscode.Disposable[] = [];

	constructor(
		readonly panel: vscode.WebviewPanel,
		private shown: ShownCall,
		private markdown: vscode.Uri | undefined,
		private isPreview: boolean,
		private readonly blobs: BlobFiles,
		private readonly onKeep: (panel: ResultPanel) => void,
		onClose: (panel: ResultPanel) => void,
	) {
		this.page = this.render();
		this.disposables.push(
			panel.webview.onDidReceiveMessage((message: unknown) => void this.onMessage(message)),
			panel.onDidDispose(() => {
				for (const disposable of this.disposables) disposable.dispose();
				onClose(this);
			}),
		);
	}

	/** The call shown. */
	get call(): ShownCall {
		return this.shown;
	}

	/** Whether the next result replaces this one (a preview tab). */
	get preview(): boolean {
		return this.isPreview;
	}

	/** The page's text as read aloud: title, error mark, text blocks (for tests). */
	get summary(): string {
		return this.page.summary;
	}

	/** The Markdown document of the same result (Open as Markdown), when one was made. */
	get markdownUri(): vscode.Uri | undefined {
		return this.markdown;
	}

	/** Shows another call in this (preview) tab. */
	replace(call: ShownCall, markdown: vscode.Uri | undefined): void {
		this.shown = call;
		this.markdown = markdown;
		this.page = this.render();
	}

	/** Keeps the tab: the next result opens in a tab of its own. */
	keep(): void {
		if (!this.isPreview) return;
		this.isPreview = false;
		void this.panel.webview.postMessage({ type: 'kept' });
		this.onKeep(this);
	}

	private render(): ResultPage {
		const nonce = randomBytes(16).toString('base64');
		const page = resultViewHtml(this.shown, nonce, this.panel.webview.cspSource, this.isPreview);
		this.panel.title = `${this.shown.result.isError ? 'Error: ' : ''}${this.shown.tool} · ${this.shown.server}`;
		this.panel.webview.html = page.html;
		return page;
	}

	/** Runs one of the page's buttons. Only the page's own messages are acted on (the page runs no other script). */
	async onMessage(message: unknown): Promise<void> {
		if (typeof message !== 'object' || message === null) return;
		const { type, action, index } = message as { type?: unknown; action?: unknown; index?: unknown };
		const call = this.shown;
		// A call re-run from here is the person's own when the first one was (as a Call History re-run).
		const rerun = {
			server: call.server,
			tool: call.tool,
			arguments: call.arguments,
			via: 'history' as const,
			typedHere: call.origin === 'palette',
		};
		try {
			if (type === 'link' && typeof index === 'number') {
				const link = this.page.links[index];
				if (link?.kind === 'resource')
					await vscode.commands.executeCommand('vscode.open', resourceUri(call.server, link.uri, link.name));
				else if (link?.kind === 'blob')
					await vscode.commands.executeCommand(
						'vscode.open',
						await this.blobs.save(link.data, link.mimeType, `${call.server}-${link.hint}`),
					);
				return;
			}
			if (type !== 'action') return;
			switch (action) {
				case 'runAgain':
					await vscode.commands.executeCommand(Commands.callTool, rerun);
					return;
				case 'edit':
					await vscode.commands.executeCommand(Commands.callTool, { ...rerun, edit: true });
					return;
				case 'keep':
					this.keep();
					return;
				case 'markdown':
					if (this.markdown) await vscode.window.showTextDocument(this.markdown, { preview: true });
					return;
			}
		} catch (error) {
			void vscode.window.showErrorMessage(`MCP server '${call.server}': ${errorMessage(error)}`);
		}
	}
}

/** The result tabs: at most one preview tab, reused by each new result, and the tabs the person kept. */
export class ResultView implements vscode.Disposable {
	private previewPanel: ResultPanel | undefined;
	private last: ResultPanel | undefined;
	private readonly open = new Set<ResultPanel>();

	constructor(private readonly blobs: BlobFiles) {}

	/** The tab shown last (for tests and automation). */
	get current(): ResultPanel | undefined {
		return this.last;
	}

	/** Every open result tab. */
	get panels(): readonly ResultPanel[] {
		return [...this.open];
	}

	/** Shows `call` in the preview tab (made when there is none), in the active editor group. */
	show(call: ShownCall, markdown?: vscode.Uri): ResultPanel {
		const reused = this.previewPanel;
		if (reused) {
			reused.replace(call, markdown);
			reused.panel.reveal(undefined, false);
			this.last = reused;
			return reused;
		}
		const panel = vscode.window.createWebviewPanel(
			RESULT_VIEW_TYPE,
			call.tool,
			{ viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
			{ enableScripts: true, enableFindWidget: true, localResourceRoots: [] },
		);
		const view = new ResultPanel(
			panel,
			call,
			markdown,
			true,
			this.blobs,
			(kept) => {
				if (this.previewPanel === kept) this.previewPanel = undefined;
			},
			(closed) => {
				this.open.delete(closed);
				if (this.previewPanel === closed) this.previewPanel = undefined;
				if (this.last === closed) this.last = undefined;
			},
		);
		this.open.add(view);
		this.previewPanel = view;
		this.last = view;
		return view;
	}

	dispose(): void {
		for (const view of [...this.open]) view.panel.dispose();
		this.open.clear();
	}
}
