/**
 * The page of the result view (resultView.ts): one tool call's result as a person reads it. Text blocks as text,
 * images and audio inline (data URIs, allowed by the page's Content-Security-Policy and nothing else from outside),
 * resource links as buttons, structured content and the arguments as formatted JSON, and the call's actions (Run
 * Again, Edit Arguments, Keep Open, Open as Markdown) as buttons. No `vscode` import, so it is unit-tested in plain
 * Node. Server text only ever enters the page escaped.
 */
import { base64Size } from '../../common/text';

type Json = Record<string, unknown>;

/** One call as the result view shows it. */
export interface ShownCall {
	server: string;
	tool: string;
	arguments: Record<string, unknown>;
	/** The server's answer (a CallToolResult, as sent). */
	result: { content: readonly unknown[]; structuredContent?: unknown; isError?: boolean };
	/** Who made the call: `palette` for the person's own (Run Again then runs at once, as from the history). */
	origin: string;
	/** Epoch ms when the call was sent, when known. */
	startedAt?: number;
	durationMs?: number;
}

/** What a link button in the page opens: a resource of the server, or a binary block saved as a file. */
export type ResultLinkTarget =
	{ kind: 'resource'; uri: string; name?: string } | { kind: 'blob'; data: string; mimeType?: string; hint: string };

/** The page and the targets of its link buttons (`data-link` is the index into `links`). */
export interface ResultPage {
	html: string;
	links: ResultLinkTarget[];
	/** The page's text as a screen reader reads it (for tests and the Markdown fallback's title). */
	summary: string;
}

function escape(text: string): string {
	return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function isObject(value: unknown): value is Json {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const MEDIA_TYPE = /^(image|audio)\/[\w.+-]+$/;
const BASE64 = /^[A-Za-z0-9+/=\s]*$/;

/** A data URI for inline media, or undefined when the type or data would not be safe in an attribute. */
function dataUri(data: unknown, mimeType: unknown, kind: 'image' | 'audio'): string | undefined {
	if (typeof data !== 'string' || typeof mimeType !== 'string') return undefined;
	if (!MEDIA_TYPE.test(mimeType) || !mimeType.startsWith(kind) || !BASE64.test(data)) return undefined;
	return `data:${mimeType};base64,${data.replace(/\s+/g, '')}`;
}

function json(value: unknown): string {
	return `<pre class="json">${escape(JSON.stringify(value, null, 2) ?? 'undefined')}</pre>`;
}

/** The HTML of one content block; link targets go into `links`. */
function block(item: unknown, index: number, links: ResultLinkTarget[]): string {
	if (!isObject(item)) return json(item);
	const mimeType = typeof item.mimeType === 'string' ? item.mimeType : undefined;
	const size = typeof item.data === 'string' ? base64Size(item.data) : '';
	switch (item.type) {
		case 'text':
			return `<pre class="text">${escape(typeof item.text === 'string' ? item.text : '')}</pre>`;
		case 'image': {
			const src = dataUri(item.data, mimeType, 'image');
			const label = `Image ${index} (${mimeType ?? 'unknown type'}, ${size})`;
			if (!src) return `<p class="note">${escape(label)}: not an image this view can show.</p>`;
			links.push({ kind: 'blob', data: String(item.data), mimeType, hint: 'image' });
			return `<figure><img src="${src}" alt="${escape(label)}"><figcaption>${escape(label)} <button class="link" data-link="${links.length - 1}">Open as File</button></figcaption></figure>`;
		}
		case 'audio': {
			const src = dataUri(item.data, mimeType, 'audio');
			const label = `Audio ${index} (${mimeType ?? 'unknown type'}, ${size})`;
			if (!src) return `<p class="note">${escape(label)}: not audio this view can play.</p>`;
			return `<figure><audio controls src="${src}" aria-label="${escape(label)}"></audio><figcaption>${escape(label)}</figcaption></figure>`;
		}
		case 'resource_link': {
			const uri = typeof item.uri === 'string' ? item.uri : '';
			const name = typeof item.title === 'string' ? item.title : typeof item.name === 'string' ? item.name : uri;
			links.push({ kind: 'resource', uri, ...(name !== uri ? { name } : {}) });
			const description =
				typeof item.description === 'string' ? `<br><span class="note">${escape(item.description)}</span>` : '';
			return `<p>Resource link <button class="link" data-link="${links.length - 1}" title="${escape(uri)}">${escape(name)}</button> <code>${escape(uri)}</code>${mimeType ? ` (${escape(mimeType)})` : ''}${description}</p>`;
		}
		case 'resource': {
			const resource = isObject(item.resource) ? item.resource : {};
			const uri = typeof resource.uri === 'string' ? resource.uri : '';
			const type = typeof resource.mimeType === 'string' ? resource.mimeType : undefined;
			const head = `<p>Embedded resource <code>${escape(uri)}</code>${type ? ` (${escape(type)})` : ''}</p>`;
			if (typeof resource.text === 'string') return `${head}<pre class="text">${escape(resource.text)}</pre>`;
			if (typeof resource.blob !== 'string') return head;
			const src = dataUri(resource.blob, type, 'image');
			links.push({ kind: 'blob', data: resource.blob, mimeType: type, hint: uri.split('/').pop() || 'resource' });
			const open = `<button class="link" data-link="${links.length - 1}">Open as File</button>`;
			return src
				? `${head}<figure><img src="${src}" alt="${escape(uri)}"><figcaption>${open}</figcaption></figure>`
				: `${head}<p class="note">${escape(type ?? 'binary data')}, ${escape(base64Size(resource.blob))} ${open}</p>`;
		}
		default:
			return `<p class="note">Content of type <code>${escape(String(item.type))}</code>:</p>${json(item)}`;
	}
}

function when(call: ShownCall): string {
	const parts = [`from ${call.origin}`];
	if (call.startedAt !== undefined) parts.push(new Date(call.startedAt).toLocaleTimeString());
	if (call.durationMs !== undefined)
		parts.push(
			call.durationMs < 1000 ? `${Math.round(call.durationMs)} ms` : `${(call.durationMs / 1000).toFixed(1)} s`,
		);
	return parts.join(' · ');
}

/**
 * Builds the page of `call`. `preview` says whether the tab will be reused by the next result (Keep Open is offered
 * then). `nonce` and `cspSource` come from the webview.
 */
export function resultViewHtml(call: ShownCall, nonce: string, cspSource: string, preview: boolean): ResultPage {
	const links: ResultLinkTarget[] = [];
	const content = call.result.content;
	const blocks =
		content.length === 0
			? '<p class="note">No content blocks.</p>'
			: content.map((item, i) => block(item, i + 1, links)).join('\n');
	const title = `${call.tool} · ${call.server}`;
	const error = call.result.isError
		? '<p class="error" role="alert"><strong>Error:</strong> the tool reported a failure (isError). What follows is its message.</p>'
		: '';
	const structured =
		call.result.structuredContent !== undefined
			? `<h2>Structured content</h2>${json(call.result.structuredContent)}`
			: '';
	const keep = preview
		? '<button id="keep" title="Keep this tab: the next result opens in a tab of its own">Keep Open</button>'
		: '';
	const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; media-src data:; style-src 'nonce-${nonce}' ${cspSource}; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escape(title)}</title>
<style nonce="${nonce}">
	body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background: var(--vscode-editor-background); padding: 0 16px 16px; }
	header { position: sticky; top: 0; background: var(--vscode-editor-background); padding: 10px 0 8px; border-bottom: 1px solid var(--vscode-panel-border); }
	h1 { font-size: 1.3em; margin: 0 0 2px; overflow-wrap: anywhere; }
	h2 { font-size: 1.05em; margin: 18px 0 6px; }
	.meta, .note, figcaption { color: var(--vscode-descriptionForeground); }
	.actions { display: flex; flex-wrap: wrap; gap: 6px; margin-top: 8px; }
	button { font: inherit; background: var(--vscode-button-secondaryBackground); color: var(--vscode-button-secondaryForeground); border: none; padding: 3px 10px; cursor: pointer; }
	button.primary { background: var(--vscode-button-background); color: var(--vscode-button-foreground); }
	button:hover { background: var(--vscode-button-secondaryHoverBackground); }
	button.primary:hover { background: var(--vscode-button-hoverBackground); }
	button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
	button.link { background: none; color: var(--vscode-textLink-foreground); padding: 0; text-decoration: underline; }
	pre { font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size); white-space: pre-wrap; overflow-wrap: anywhere; margin: 8px 0; }
	pre.json { background: var(--vscode-textCodeBlock-background); padding: 6px 8px; }
	figure { margin: 10px 0; }
	img { max-width: 100%; image-rendering: auto; border: 1px solid var(--vscode-panel-border); background: repeating-conic-gradient(#8882 0 25%, transparent 0 50%) 0 0 / 16px 16px; }
	img[src^="data:image/png"], img[src^="data:image/gif"] { min-width: 48px; }
	.error { color: var(--vscode-errorForeground); border-left: 3px solid var(--vscode-errorForeground); padding-left: 8px; }
</style>
</head>
<body>
<header>
	<h1>${escape(title)}</h1>
	<div class="meta">${escape(when(call))}</div>
	<div class="actions" role="toolbar" aria-label="Result actions">
		<button id="runAgain" class="primary" title="Call ${escape(call.tool)} again with the same arguments">Run Again</button>
		<button id="edit" title="Change the arguments in the form, then call again">Edit Arguments</button>
		${keep}
		<button id="markdown" title="Open this result as a Markdown document">Open as Markdown</button>
	</div>
</header>
<main>
${error}
<h2>Result</h2>
${blocks}
${structured}
<h2>Arguments</h2>
${json(call.arguments)}
</main>
<script nonce="${nonce}">
(() => {
	const vscode = acquireVsCodeApi();
	for (const id of ['runAgain', 'edit', 'keep', 'markdown']) {
		document.getElementById(id)?.addEventListener('click', () => vscode.postMessage({ type: 'action', action: id }));
	}
	for (const button of document.querySelectorAll('button[data-link]')) {
		button.addEventListener('click', () => vscode.postMessage({ type: 'link', index: Number(button.dataset.link) }));
	}
	addEventListener('message', (event) => {
		if (event.data && event.data.type === 'kept') document.getElementById('keep')?.remove();
	});
})();
</script>
</body>
</html>`;
	const summary = [
		title,
		call.result.isError ? 'Error' : '',
		...content.map((item) =>
			isObject(item) && item.type === 'text' ? String(item.text) : isObject(item) ? `[${String(item.type)}]` : '',
		),
	]
		.filter(Boolean)
		.join('\n');
	return { html, links, summary };
}
