/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension) as far as tools and resources say it: which tool has an app,
 * who may call a tool, and the app's HTML with its declared sandbox settings from a `resources/read` result.
 * Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
 */
import type { ReadResourceResult, Tool } from '../../protocol/schema';

/** The extension's identifier, the key under `capabilities.extensions`. */
export const APPS_EXTENSION_ID = 'io.modelcontextprotocol/ui';

/** "`mimeType` MUST be `text/html;profile=mcp-app`" for an app's resource. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** The version of the Apps protocol this host speaks in `ui/initialize`. */
export const APPS_PROTOCOL_VERSION = '2026-01-26';

/** What a client advertises when it renders apps (spec: "Client (Host) Capabilities"). */
export const APPS_CLIENT_CAPABILITY: Readonly<Record<string, object>> = {
	[APPS_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] },
};

/** Who may call a tool: the model (agent), the app, or both (the default when a tool says nothing). */
export type ToolVisibility = 'model' | 'app';

/** Origins the app declares it needs (spec: `McpUiResourceCsp`). */
export interface AppCspDeclaration {
	connectDomains?: string[];
	resourceDomains?: string[];
	frameDomains?: string[];
	baseUriDomains?: string[];
}

/** An app's HTML and what its resource declares about its sandbox. */
export interface AppContent {
	uri: string;
	html: string;
	csp: AppCspDeclaration;
	/** Browser permissions asked for (camera, microphone, geolocation, clipboardWrite); this host grants none. */
	permissions: string[];
	/** true: a visible border and background; false: none; undefined: the host decides. */
	prefersBorder?: boolean;
}

function record(value: unknown): Record<string, unknown> | undefined {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: undefined;
}

/**
 * The `ui://` resource a tool's results render with: `_meta.ui.resourceUri`, or the deprecated flat
 * `_meta["ui/resourceUri"]` ("deprecated … will be removed before GA", still sent by today's servers). Anything that
 * is not a `ui://` URI ("URI MUST start with `ui://`") means no app.
 */
export function appResourceUri(tool: Pick<Tool, '_meta'>): string | undefined {
	const meta = record(tool._meta);
	const nested = record(meta?.ui)?.resourceUri;
	const uri = typeof nested === 'string' ? nested : meta?.['ui/resourceUri'];
	return typeof uri === 'string' && uri.startsWith('ui://') ? uri : undefined;
}

/** A tool's `_meta.ui.visibility`; "defaults to `["model", "app"]` if omitted" (also when it is malformed). */
export function toolVisibility(tool: Pick<Tool, '_meta'>): readonly ToolVisibility[] {
	const value = record(record(tool._meta)?.ui)?.visibility;
	if (!Array.isArray(value)) return ['model', 'app'];
	return value.filter((v): v is ToolVisibility => v === 'model' || v === 'app');
}

/** "Host MUST NOT include tools in the agent's tool list when their visibility does not include "model"". */
export function visibleToModel(tool: Pick<Tool, '_meta'>): boolean {
	return toolVisibility(tool).includes('model');
}

/** "Host MUST reject `tools/call` requests from apps for tools that don't include "app" in visibility". */
export function callableByApp(tool: Pick<Tool, '_meta'>): boolean {
	return toolVisibility(tool).includes('app');
}

function strings(value: unknown): string[] | undefined {
	return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
}

/**
 * The app in a `resources/read` result of `uri`: the content whose URI matches (else the first), which must be
 * `text/html;profile=mcp-app` with `text` or base64 `blob`.
 * @throws Error saying what is wrong (no content, another MIME type, no HTML) — shown to the person as it is.
 */
export function appContent(uri: string, result: ReadResourceResult): AppContent {
	const contents = result.contents;
	const content = contents.find((c) => c.uri === uri) ?? contents[0];
	if (!content) throw new Error(`the app resource ${uri} came back empty`);
	const mime = (content.mimeType ?? '').replace(/\s+/g, '').toLowerCase();
	if (mime !== APP_MIME_TYPE)
		throw new Error(
			`the app resource ${uri} is ${content.mimeType ? `'${content.mimeType}'` : 'of no MIME type'}, not '${APP_MIME_TYPE}'`,
		);
	const html =
		typeof content.text === 'string'
			? content.text
			: typeof content.blob === 'string'
				? Buffer.from(content.blob, 'base64').toString('utf8')
				: undefined;
	if (html === undefined || html.trim() === '') throw new Error(`the app resource ${uri} has no HTML`);
	const ui = record(record(content._meta)?.ui);
	const declared = record(ui?.csp);
	const csp: AppCspDeclaration = {};
	for (const key of ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const) {
		const list = strings(declared?.[key]);
		if (list && list.length > 0) csp[key] = list;
	}
	const permissions = Object.keys(record(ui?.permissions) ?? {});
	const prefersBorder = typeof ui?.prefersBorder === 'boolean' ? ui.prefersBorder : undefined;
	return { uri, html, csp, permissions, ...(prefersBorder !== undefined ? { prefersBorder } : {}) };
}
