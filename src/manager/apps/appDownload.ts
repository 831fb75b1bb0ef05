/**
 * `ui/download-file`: an app asks the host to save files it made (sandboxed frames cannot download). This checks the
 * request against what the spec allows and turns each item into a file name and bytes, or a link to read; the edge
 * asks the person where to save (the save dialog is the confirmation the spec asks for).
 * Spec (draft, also in the ext-apps SDK's 2026-01-26 types as the host capability `downloadFile`):
 * https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/draft/apps.mdx — "`ui/download-file` -
 * Request host to download a file": `contents` is an array of `EmbeddedResource` or `ResourceLink`; "host SHOULD derive
 * the filename from the last segment of `resource.uri`"; "Host SHOULD sanitize filenames to prevent path traversal."
 */
import { McpError } from '../../protocol/mcpError';

/** At most this many files in one request (each gets its own save dialog). */
export const MAX_DOWNLOAD_ITEMS = 10;

/** One file the app offers, ready to save. */
export type DownloadItem =
	| { kind: 'embedded'; fileName: string; mimeType?: string; bytes: Uint8Array }
	/** A resource link: the host reads it from the app's own server (`resources/read`) before saving. */
	| { kind: 'link'; fileName: string; mimeType?: string; uri: string };

function record(value: unknown): Record<string, unknown> | undefined {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: undefined;
}

const EXTENSIONS: Record<string, string> = {
	'application/json': '.json',
	'application/pdf': '.pdf',
	'application/zip': '.zip',
	'text/plain': '.txt',
	'text/csv': '.csv',
	'text/html': '.html',
	'text/markdown': '.md',
	'image/png': '.png',
	'image/jpeg': '.jpg',
	'image/gif': '.gif',
	'image/webp': '.webp',
	'image/svg+xml': '.svg',
};

/** Characters no file name on Windows, macOS or Linux may hold, and control characters. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f<>:"/\\|?*]/g;
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;

/**
 * A safe file name from the last segment of `uri` (decoded): no separators, control or reserved characters, no
 * leading dots, at most 120 characters, never `.`/`..` or a Windows device name; `download<ext>` when nothing is left.
 */
export function downloadFileName(uri: string, mimeType?: string): string {
	let segment: string;
	try {
		const url = new URL(uri);
		const parts = url.pathname.split('/').filter((part) => part !== '');
		segment = parts.length > 0 ? decodeURIComponent(parts[parts.length - 1] ?? '') : '';
		if (segment === '' && url.protocol !== 'file:') segment = url.hostname;
	} catch {
		segment = '';
	}
	let name = segment
		.replace(UNSAFE, '_')
		.replace(/^[.\s]+/, '')
		.replace(/[.\s]+$/, '')
		.trim();
	if (name.length > 120) {
		const dot = name.lastIndexOf('.');
		const extension = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
		name = name.slice(0, 120 - extension.length) + extension;
	}
	if (name === '' || RESERVED.test(name))
		name = `download${EXTENSIONS[(mimeType ?? '').split(';')[0]?.trim() ?? ''] ?? ''}`;
	return name;
}

function invalid(message: string): McpError {
	return McpError.invalidParams(`Invalid content: ${message}`);
}

function isUri(text: string): boolean {
	try {
		new URL(text);
		return true;
	} catch {
		return false;
	}
}

/** Strict base64 (RFC 4648 alphabet, padding optional): anything else is refused rather than half-decoded. */
function base64Bytes(text: string, where: string): Uint8Array {
	const compact = text.replace(/\s+/g, '');
	if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) throw invalid(`${where}.blob is not base64`);
	return new Uint8Array(Buffer.from(compact, 'base64'));
}

/**
 * The files of a `ui/download-file` request, or an InvalidParams error that says which item is wrong and why:
 * `contents` must be a non-empty array (at most MAX_DOWNLOAD_ITEMS) of `{ type: "resource", resource: { uri, text|blob } }`
 * or `{ type: "resource_link", uri, name }`. Links over http(s) are refused: the host would fetch what the app's own
 * policy (its declared connect origins) may not reach.
 */
export function parseDownloadRequest(params: Record<string, unknown> | undefined): DownloadItem[] {
	const contents = params?.contents;
	if (!Array.isArray(contents) || contents.length === 0)
		throw invalid('ui/download-file needs `contents`, a non-empty array of embedded resources or resource links');
	if (contents.length > MAX_DOWNLOAD_ITEMS)
		throw invalid(`at most ${MAX_DOWNLOAD_ITEMS} files in one ui/download-file (got ${contents.length})`);
	return contents.map((entry, index): DownloadItem => {
		const where = `contents[${index}]`;
		const item = record(entry);
		const type = item?.type;
		if (type === 'resource') {
			const resource = record(item?.resource);
			const uri = resource?.uri;
			if (typeof uri !== 'string' || !isUri(uri))
				throw invalid(`${where}.resource.uri must be a URI (its last segment names the file)`);
			const mimeType = typeof resource?.mimeType === 'string' ? resource.mimeType : undefined;
			const fileName = downloadFileName(uri, mimeType);
			if (typeof resource?.text === 'string')
				return { kind: 'embedded', fileName, mimeType, bytes: new TextEncoder().encode(resource.text) };
			if (typeof resource?.blob === 'string')
				return { kind: 'embedded', fileName, mimeType, bytes: base64Bytes(resource.blob, `${where}.resource`) };
			throw invalid(`${where}.resource needs \`text\` or \`blob\``);
		}
		if (type === 'resource_link') {
			const uri = item?.uri;
			if (typeof uri !== 'string' || !isUri(uri)) throw invalid(`${where}.uri must be a URI`);
			const scheme = new URL(uri).protocol;
			if (scheme === 'http:' || scheme === 'https:' || scheme === 'file:')
				throw new McpError(
					-32000,
					`Policy violation: ${where} links to ${scheme}// content; this host saves only embedded content and resources of the app's own server`,
				);
			const mimeType = typeof item?.mimeType === 'string' ? item.mimeType : undefined;
			const named =
				typeof item?.name === 'string' && item.name.trim() !== ''
					? downloadFileName(`x:///${encodeURIComponent(item.name.trim())}`, mimeType)
					: undefined;
			return { kind: 'link', fileName: named ?? downloadFileName(uri, mimeType), mimeType, uri };
		}
		throw invalid(
			`${where} is ${typeof type === 'string' ? `of type "${type.slice(0, 40)}"` : 'not a content block'}; only embedded resources ("resource") and resource links ("resource_link") can be downloaded`,
		);
	});
}
