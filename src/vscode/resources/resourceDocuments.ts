import * as vscode from 'vscode';
import type { Manager } from '../../manager/manager';
import type { ReadResourceResult } from '../../protocol/schema';
import { toAbortSignal } from '../cancellation';
import type { BlobFiles } from '../shared/blobFiles';
import { languageForMime, parseResourceUri, RESOURCE_SCHEME, resourceUri } from '../shared/resourceUris';
import { errorMessage } from '../../common/errors';

/** The key of a resource of a server, whatever title its document has. */
function resourceKey(server: string, uri: string): string {
	return `${server}\u0000${uri}`;
}

/** Text of a read result: every text content, in order; blobs noted by size. */
function textOf(result: ReadResourceResult): string {
	if (result.contents.length === 1 && typeof result.contents[0]?.text === 'string') {
		return result.contents[0].text;
	}
	return result.contents
		.map((content) =>
			typeof content.text === 'string'
				? content.text
				: `[binary ${content.mimeType ?? 'data'}, ${content.blob?.length ?? 0} base64 characters: open it from the tree to see it as a file]`,
		)
		.join('\n\n');
}

/** How long a document restored at start-up waits for its server to be configured and started before it says so. */
export const SERVER_WAIT_MS = 60_000;

/**
 * Resource documents: reads through the Manager (its cache), shows text in a read-only editor whose language
 * follows the MIME type, and writes blobs (images, archives) to files VS Code can preview.
 * Subscribed documents refresh on `notifications/resources/updated`; closing the document unsubscribes.
 *
 * Documents VS Code restores at start-up are read before the servers run: such a read waits for its server (while the
 * configuration is applied and the server starts, up to {@link SERVER_WAIT_MS}); a server that is not running shows a
 * line saying so in the document, not an error notification per tab, and every such document is read again when its
 * server runs. After a server restarts, its subscriptions are made again (they ended with the old connection) and
 * its documents refreshed.
 */
export class ResourceDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
	private readonly changed = new vscode.EventEmitter<vscode.Uri>();
	readonly onDidChange = this.changed.event;
	private readonly disposables: vscode.Disposable[] = [];
	/** Subscribed `switchboard-resource:` documents by {@link resourceKey}. */
	private readonly subscriptions = new Map<string, { server: string; uri: string; document: vscode.Uri }>();
	/** Titles resources not in their server's list were opened with (template expansions), by {@link resourceKey}. */
	private readonly titles = new Map<string, string>();
	/** A read done by `open()`, handed to the first provide call so the resource is not read twice. */
	private readonly primed = new Map<string, ReadResourceResult>();
	/** Documents showing "not running" text instead of the resource, by URI string: read again when the server runs. */
	private readonly stale = new Map<string, { server: string; document: vscode.Uri }>();

	constructor(
		private readonly manager: Manager,
		private readonly blobs: BlobFiles,
		private readonly onError: (server: string, message: string) => void,
	) {
		this.disposables.push(
			vscode.workspace.registerTextDocumentContentProvider(RESOURCE_SCHEME, this),
			vscode.workspace.onDidCloseTextDocument((document) => this.closed(document.uri)),
		);
		const updates = manager.onDidUpdateResource(({ server, uri }) => {
			for (const entry of this.subscriptions.values()) {
				if (entry.server === server && entry.uri === uri) this.changed.fire(entry.document);
			}
		});
		const states = manager.onDidChangeState(({ server, state }) => {
			if (state.kind === 'running') void this.serverRunning(server);
		});
		this.disposables.push({ dispose: () => updates.dispose() }, { dispose: () => states.dispose() });
	}

	/** A server (re)started: renew its subscriptions, then refresh its subscribed and stale documents. */
	private async serverRunning(server: string): Promise<void> {
		const refresh = new Map<string, vscode.Uri>();
		for (const entry of this.subscriptions.values()) {
			if (entry.server !== server) continue;
			try {
				await this.manager.client(server).subscribe(entry.uri);
			} catch (error) {
				this.onError(server, `Could not subscribe to ${entry.uri} again after the restart: ${errorMessage(error)}`);
			}
			refresh.set(entry.document.toString(), entry.document);
		}
		for (const [key, entry] of this.stale) {
			if (entry.server === server) refresh.set(key, entry.document);
		}
		for (const document of refresh.values()) this.changed.fire(document);
	}

	/**
	 * Waits until `server` runs: while it is unknown (the configuration is not applied yet) or starting, up to
	 * {@link SERVER_WAIT_MS}. Resolves undefined when it runs, else why it does not.
	 */
	private waitForServer(server: string, token: vscode.CancellationToken): Promise<string | undefined> {
		const why = (): string | undefined | 'wait' => {
			const view = this.manager.get(server);
			if (!view) return 'wait';
			switch (view.state.kind) {
				case 'running':
					return undefined;
				case 'starting':
					return 'wait';
				case 'error':
					return `failed: ${view.state.message}`;
				case 'needsTrust':
					return 'waiting for you to allow it (Start it from the MCP view)';
				case 'needsSignIn':
					return 'waiting for you to sign in (Start it from the MCP view)';
				default:
					return view.state.kind;
			}
		};
		const now = why();
		if (now !== 'wait') return Promise.resolve(now);
		return new Promise((resolve) => {
			const check = () => {
				const reason = why();
				if (reason !== 'wait') done(reason);
			};
			const done = (reason: string | undefined) => {
				clearTimeout(timer);
				for (const d of subscriptions) d.dispose();
				resolve(reason);
			};
			const timer = setTimeout(
				() => done(this.manager.get(server) ? 'still starting' : 'not configured'),
				SERVER_WAIT_MS,
			);
			const subscriptions = [
				this.manager.onDidChangeServers(check),
				this.manager.onDidChangeState(check),
				token.onCancellationRequested(() => done('cancelled')),
			];
		});
	}

	async provideTextDocumentContent(documentUri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
		const target = parseResourceUri(documentUri);
		if (!target) return '';
		const key = documentUri.toString();
		const primed = this.primed.get(key);
		if (primed) {
			this.primed.delete(key);
			return textOf(primed);
		}
		// A tab restored at start-up asks before its server runs: wait for it, and say so in the document (no
		// notification per tab) when it does not run; the document is read again when it does.
		const notRunning = await this.waitForServer(target.server, token);
		if (notRunning !== undefined) {
			this.stale.set(key, { server: target.server, document: documentUri });
			return `MCP server '${target.server}' is ${notRunning}, so ${target.uri} cannot be read yet. This document is read again when the server runs.`;
		}
		this.stale.delete(key);
		const bridge = toAbortSignal(token);
		try {
			return textOf(await this.manager.readResource(target.server, target.uri, { signal: bridge.signal }));
		} catch (error) {
			const message = errorMessage(error);
			this.onError(target.server, `Could not read ${target.uri}: ${message}`);
			return `Could not read ${target.uri} from ${target.server}: ${message}`;
		} finally {
			bridge.dispose();
		}
	}

	/**
	 * Reads `uri` and shows it: text in a read-only editor (language from the MIME type), a single blob as a file
	 * (opened with VS Code's default viewer, e.g. the image preview). Errors go to `onError` and resolve undefined.
	 */
	async open(server: string, uri: string, signal?: AbortSignal, title?: string): Promise<vscode.Uri | undefined> {
		if (title) this.titles.set(resourceKey(server, uri), title);
		let result: ReadResourceResult;
		try {
			result = await this.manager.readResource(
				server,
				uri,
				signal ? { signal, origin: 'palette' } : { origin: 'palette' },
			);
		} catch (error) {
			this.onError(server, `Could not read ${uri}: ${errorMessage(error)}`);
			return undefined;
		}
		const blobs = result.contents.filter((c) => typeof c.blob === 'string');
		if (blobs.length > 0 && blobs.length === result.contents.length) {
			let first: vscode.Uri | undefined;
			for (const content of blobs) {
				const file = await this.blobs.save(
					content.blob ?? '',
					content.mimeType,
					content.uri.split('/').pop() ?? 'resource',
				);
				first ??= file;
				await vscode.commands.executeCommand('vscode.open', file);
			}
			return first;
		}
		const documentUri = this.documentUri(server, uri);
		const key = documentUri.toString();
		this.primed.set(key, result);
		const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
		if (open) {
			// Already open: VS Code would show the old text, so have it ask again (and get what was just read).
			this.changed.fire(documentUri);
		}
		const document = open ?? (await vscode.workspace.openTextDocument(documentUri));
		if (!open) this.primed.delete(key);
		const language = languageForMime(result.contents[0]?.mimeType);
		if (language && document.languageId !== language) {
			await vscode.languages.setTextDocumentLanguage(document, language);
		}
		await vscode.window.showTextDocument(document, { preview: false });
		return documentUri;
	}

	/** Subscribes to `uri` (`resources/subscribe`) so its open document stays current, and opens it. */
	async subscribe(server: string, uri: string): Promise<void> {
		const client = this.manager.client(server);
		if (!client.serverCapabilities.resources?.subscribe) {
			this.onError(server, 'This server does not offer resource subscriptions');
			return;
		}
		await client.subscribe(uri);
		const documentUri = this.documentUri(server, uri);
		this.subscriptions.set(resourceKey(server, uri), { server, uri, document: documentUri });
		await this.open(server, uri);
	}

	/** True while `uri` of `server` is subscribed. */
	isSubscribed(server: string, uri: string): boolean {
		return this.subscriptions.has(resourceKey(server, uri));
	}

	/** Unsubscribes (`resources/unsubscribe`); a server that is gone is simply forgotten. */
	async unsubscribe(server: string, uri: string): Promise<void> {
		if (!this.subscriptions.delete(resourceKey(server, uri))) return;
		try {
			await this.manager.client(server).unsubscribe(uri);
		} catch {
			// Not running any more: the subscription ended with the connection.
		}
	}

	private closed(uri: vscode.Uri): void {
		this.stale.delete(uri.toString());
		const target = parseResourceUri(uri);
		const entry = target && this.subscriptions.get(resourceKey(target.server, target.uri));
		if (entry && entry.document.toString() === uri.toString()) void this.unsubscribe(entry.server, entry.uri);
	}

	/**
	 * The document of `uri`, titled with the name or title the server lists it under (tab: "Resource 5 · everything"),
	 * else the one it was opened with (a template's name and values), so one resource keeps one tab.
	 */
	documentUri(server: string, uri: string): vscode.Uri {
		const listed = this.manager.get(server)?.resources.find((resource) => resource.uri === uri);
		return resourceUri(server, uri, listed?.title ?? listed?.name ?? this.titles.get(resourceKey(server, uri)));
	}

	dispose(): void {
		for (const disposable of this.disposables) disposable.dispose();
		this.changed.dispose();
		this.subscriptions.clear();
		this.primed.clear();
		this.titles.clear();
		this.stale.clear();
	}
}

/**
 * Expands an RFC 6570 URI template with the given values: simple `{x}`, reserved `{+x}`, fragment `{#x}`,
 * label `{.x}`, path `{/x}`, and query `{?x,y}` / `{&x}` expressions (enough for MCP resource templates).
 */
export function expandUriTemplate(template: string, values: Record<string, string>): string {
	return template.replace(/\{([+#./;?&]?)([^}]+)\}/g, (_all, operator: string, list: string) => {
		const names = list.split(',').map((n) => n.trim().replace(/\*$/, '').replace(/:\d+$/, ''));
		const reserved = operator === '+' || operator === '#';
		const encode = (v: string) => (reserved ? encodeURI(v) : encodeURIComponent(v));
		const present = names.filter((n) => values[n] !== undefined && values[n] !== '');
		if (present.length === 0) return '';
		switch (operator) {
			case '?':
			case '&':
				return operator + present.map((n) => `${n}=${encode(values[n] ?? '')}`).join('&');
			case ';':
				return present.map((n) => `;${n}=${encode(values[n] ?? '')}`).join('');
			case '/':
				return present.map((n) => `/${encode(values[n] ?? '')}`).join('');
			case '.':
				return present.map((n) => `.${encode(values[n] ?? '')}`).join('');
			case '#':
				return '#' + present.map((n) => encode(values[n] ?? '')).join(',');
			default:
				return present.map((n) => encode(values[n] ?? '')).join(',');
		}
	});
}

/** The variable names of a URI template, in order, without duplicates. */
export function templateVariables(template: string): string[] {
	const names: string[] = [];
	for (const match of template.matchAll(/\{[+#./;?&]?([^}]+)\}/g)) {
		for (const raw of (match[1] ?? '').split(',')) {
			const name = raw.trim().replace(/\*$/, '').replace(/:\d+$/, '');
			if (name && !names.includes(name)) names.push(name);
		}
	}
	return names;
}
