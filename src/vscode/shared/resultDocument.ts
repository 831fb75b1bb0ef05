import * as vscode from 'vscode';
import type { CallToolResult, GetPromptResult } from '../../protocol/schema';
import { base64Size } from '../../common/text';
import { type BlobFiles } from './blobFiles';
import { languageForMime, resourceUri } from './resourceUris';
import { errorMessage } from '../../common/errors';
import { ResultView, type ResultPanel, type ShownCall } from './resultView';

/** The scheme of read-only result documents (tool results and prompt messages). */
export const RESULT_SCHEME = 'switchboard-result';

/** How many results stay openable; older ones say they are gone (results are kept in memory only). */
const MAX_RESULTS = 50;

type Json = Record<string, unknown>;

/** A piece of a result document's text that opens `target` when clicked (a resource URI, a saved image). */
export interface ResultLink {
	text: string;
	target: vscode.Uri;
}

/** A rendered result: Markdown text plus the spans in it that are links. */
export interface Rendered {
	markdown: string;
	links: ResultLink[];
}

function isObject(value: unknown): value is Json {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A fenced code block that survives backticks inside `text`. */
export function fence(text: string, language = ''): string {
	const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
	const ticks = '`'.repeat(longest + 1);
	return `${ticks}${language}\n${text}\n${ticks}`;
}

/**
 * Renders content blocks (text, image, audio, resource_link, embedded resource, unknown) as Markdown lines.
 * Link targets stay out of the text (long encoded URIs are unreadable in an editor): the visible label or URI is
 * recorded in `links` and made clickable by the document link provider.
 */
async function renderBlocks(
	blocks: readonly Json[],
	server: string,
	blobs: BlobFiles,
	lines: string[],
	links: ResultLink[],
): Promise<void> {
	let index = 0;
	const saveInto = async (data: string, mimeType: string | undefined, label: string, hint: string) => {
		try {
			const file = await blobs.save(data, mimeType, hint);
			lines.push(`[${label}] (click to open)`, '');
			links.push({ text: `[${label}]`, target: file });
		} catch (error) {
			lines.push(`*${label}: could not be saved (${errorMessage(error)})*`, '');
		}
	};
	for (const block of blocks) {
		index++;
		switch (block.type) {
			case 'text':
				lines.push(typeof block.text === 'string' ? block.text : '', '');
				break;
			case 'image':
			case 'audio': {
				const data = typeof block.data === 'string' ? block.data : '';
				const mimeType = typeof block.mimeType === 'string' ? block.mimeType : undefined;
				await saveInto(
					data,
					mimeType,
					`${block.type} ${index}: ${mimeType ?? 'unknown type'}, ${base64Size(data)}`,
					`${server}-${block.type}`,
				);
				break;
			}
			case 'resource_link': {
				const uri = typeof block.uri === 'string' ? block.uri : '';
				const name = typeof block.title === 'string' ? block.title : typeof block.name === 'string' ? block.name : uri;
				const mimeType = typeof block.mimeType === 'string' ? block.mimeType : undefined;
				lines.push(`- Resource link **${name}**: \`${uri}\`${mimeType ? ` (${mimeType})` : ''}`);
				if (typeof block.description === 'string') lines.push(`  ${block.description}`);
				lines.push('');
				links.push({ text: uri, target: resourceUri(server, uri, name === uri ? undefined : name) });
				break;
			}
			case 'resource': {
				const resource = isObject(block.resource) ? block.resource : {};
				const uri = typeof resource.uri === 'string' ? resource.uri : '';
				const mimeType = typeof resource.mimeType === 'string' ? resource.mimeType : undefined;
				lines.push(`Embedded resource \`${uri}\`${mimeType ? ` (${mimeType})` : ''}`, '');
				if (typeof resource.text === 'string') {
					lines.push(fence(resource.text, languageForMime(mimeType) ?? ''), '');
				} else if (typeof resource.blob === 'string') {
					await saveInto(
						resource.blob,
						mimeType,
						`${mimeType ?? 'binary data'}, ${base64Size(resource.blob)}`,
						uri.split('/').pop() ?? 'resource',
					);
				}
				break;
			}
			default:
				lines.push(`Content of type \`${String(block.type)}\`:`, '', fence(JSON.stringify(block, null, 2), 'json'), '');
				break;
		}
	}
}

/** The Markdown of a tool result: `isError` marked at the top, the content blocks, structured content, the arguments. */
export async function renderToolResult(
	server: string,
	tool: string,
	args: Record<string, unknown>,
	result: CallToolResult,
	blobs: BlobFiles,
): Promise<Rendered> {
	const lines: string[] = [];
	const links: ResultLink[] = [];
	if (result.isError) {
		lines.push(
			'> **Error**: the tool reported a failure (`isError: true`). The content below is its error message.',
			'',
		);
	}
	lines.push(`# ${tool} · ${server}`, '');
	if (result.content.length === 0) {
		lines.push('*(no content blocks)*', '');
	}
	await renderBlocks(result.content, server, blobs, lines, links);
	if (result.structuredContent !== undefined) {
		lines.push('## Structured content', '', fence(JSON.stringify(result.structuredContent, null, 2), 'json'), '');
	}
	lines.push('## Arguments', '', fence(JSON.stringify(args, null, 2), 'json'), '');
	return { markdown: lines.join('\n'), links };
}

/** The Markdown of a prompt's messages, one section per message with its role. */
export async function renderPrompt(
	server: string,
	prompt: string,
	args: Record<string, string>,
	result: GetPromptResult,
	blobs: BlobFiles,
): Promise<Rendered> {
	const lines: string[] = [`# ${prompt} · ${server}`, ''];
	const links: ResultLink[] = [];
	if (result.description) lines.push(`*${result.description}*`, '');
	if (Object.keys(args).length > 0) {
		lines.push(
			'Arguments: ' +
				Object.entries(args)
					.map(([k, v]) => `\`${k}\` = ${JSON.stringify(v)}`)
					.join(', '),
			'',
		);
	}
	for (const message of result.messages) {
		lines.push(`## ${message.role}`, '');
		await renderBlocks([message.content], server, blobs, lines, links);
	}
	return { markdown: lines.join('\n'), links };
}

/**
 * Serves `switchboard-result:` documents: read-only Markdown kept in memory (the last {@link MAX_RESULTS}).
 * Resource links and saved images are clickable through a DocumentLinkProvider, because a plain editor does
 * not follow Markdown links (and long encoded targets would bury the content).
 */
export class ResultDocuments
	implements vscode.TextDocumentContentProvider, vscode.DocumentLinkProvider, vscode.Disposable
{
	private readonly contents = new Map<string, Rendered>();
	private readonly changed = new vscode.EventEmitter<vscode.Uri>();
	readonly onDidChange = this.changed.event;
	private readonly registrations: vscode.Disposable[];
	private counter = 0;
	/** The result tabs of tool calls (a webview per call, one preview tab reused). */
	readonly view: ResultView;

	constructor(blobs: BlobFiles) {
		this.view = new ResultView(blobs);
		this.registrations = [
			this.view,
			vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, this),
			vscode.languages.registerDocumentLinkProvider({ scheme: RESULT_SCHEME }, this),
		];
	}

	provideTextDocumentContent(uri: vscode.Uri): string {
		return (
			this.contents.get(uri.toString())?.markdown ??
			'# Result no longer available\n\nResults are kept in memory for this window only. Run the tool again.'
		);
	}

	provideDocumentLinks(document: vscode.TextDocument): vscode.DocumentLink[] {
		const rendered = this.contents.get(document.uri.toString());
		if (!rendered) return [];
		const text = document.getText();
		const found: vscode.DocumentLink[] = [];
		for (const link of rendered.links) {
			for (
				let at = text.indexOf(link.text);
				at >= 0 && link.text;
				at = text.indexOf(link.text, at + link.text.length)
			) {
				found.push(
					new vscode.DocumentLink(
						new vscode.Range(document.positionAt(at), document.positionAt(at + link.text.length)),
						link.target,
					),
				);
			}
		}
		return found;
	}

	/** Stores a rendered result under a new `switchboard-result:` URI named after `title` and opens it in the active editor group. */
	async show(server: string, title: string, rendered: Rendered): Promise<vscode.TextEditor> {
		const document = await vscode.workspace.openTextDocument(this.store(server, title, rendered));
		if (document.languageId !== 'markdown') {
			await vscode.languages.setTextDocumentLanguage(document, 'markdown');
		}
		return vscode.window.showTextDocument(document, { preview: false });
	}

	/**
	 * Shows a tool call's result in the result view (the preview tab, reused by the next result), with its Markdown
	 * kept as a `switchboard-result:` document for Open as Markdown. Resolves with the tab and the document's URI.
	 */
	async showCall(call: ShownCall, blobs: BlobFiles): Promise<{ panel: ResultPanel; document: vscode.Uri }> {
		const rendered = await renderToolResult(
			call.server,
			call.tool,
			call.arguments,
			call.result as CallToolResult,
			blobs,
		);
		const document = this.store(call.server, call.tool, rendered);
		return { panel: this.view.show(call, document), document };
	}

	/**
	 * Keeps a report (Markdown the extension wrote, e.g. Check This Server's) as a read-only `switchboard-result:`
	 * document, so closing its tab never asks to save an untitled file. Resolves with its URI.
	 */
	keepReport(server: string, title: string, markdown: string): vscode.Uri {
		return this.store(server, title, { markdown, links: [] });
	}

	/** Keeps `rendered` under a new `switchboard-result:` URI named after `title` (the last MAX_RESULTS are kept). */
	private store(server: string, title: string, rendered: Rendered): vscode.Uri {
		const safe = title.replace(/[\\/:*?"<>|#%]+/g, '-');
		const uri = vscode.Uri.from({
			scheme: RESULT_SCHEME,
			path: `/${server.replace(/[\\/]+/g, '-')}/${safe} #${++this.counter}.md`,
		});
		this.contents.set(uri.toString(), rendered);
		while (this.contents.size > MAX_RESULTS) {
			const oldest = this.contents.keys().next().value as string;
			this.contents.delete(oldest);
		}
		return uri;
	}

	dispose(): void {
		for (const registration of this.registrations) registration.dispose();
		this.changed.dispose();
		this.contents.clear();
	}
}
