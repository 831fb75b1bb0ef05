/**
 * The URIs of resource documents (`switchboard-resource:`), shared by the features that open or link them: resources,
 * chat, tool results.
 */
import * as vscode from 'vscode';

/**
 * The scheme of read-only resource documents: `switchboard-resource:/<server>/<name>?server=…&uri=…`.
 * Not `mcp-resource:`: VS Code's built-in MCP support registers a file system for that scheme.
 */
export const RESOURCE_SCHEME = 'switchboard-resource';

const languages: Record<string, string> = {
	'text/markdown': 'markdown',
	'text/x-markdown': 'markdown',
	'application/json': 'json',
	'application/ld+json': 'json',
	'application/schema+json': 'json',
	'text/html': 'html',
	'text/css': 'css',
	'text/javascript': 'javascript',
	'application/javascript': 'javascript',
	'text/typescript': 'typescript',
	'application/typescript': 'typescript',
	'text/x-python': 'python',
	'application/x-python': 'python',
	'text/xml': 'xml',
	'application/xml': 'xml',
	'image/svg+xml': 'xml',
	'text/yaml': 'yaml',
	'application/yaml': 'yaml',
	'application/x-yaml': 'yaml',
	'text/x-shellscript': 'shellscript',
	'application/x-sh': 'shellscript',
	'text/x-c': 'c',
	'text/x-java': 'java',
	'text/x-rust': 'rust',
	'text/x-go': 'go',
	'application/sql': 'sql',
	'text/csv': 'plaintext',
	'text/plain': 'plaintext',
};

/** The VS Code language id for a MIME type (parameters ignored), or undefined when unknown. */
export function languageForMime(mimeType: string | undefined): string | undefined {
	if (!mimeType) return undefined;
	const base = mimeType.split(';')[0]?.trim().toLowerCase() ?? '';
	return languages[base] ?? (base.endsWith('+json') ? 'json' : base.endsWith('+xml') ? 'xml' : undefined);
}

/**
 * The document URI that shows resource `uri` of `server`. Its path ends in what the tab shows: the resource's title or
 * name and its server ("Resource 5 · everything"), else the URI's last segment ("5 · everything"), where VS Code
 * would otherwise title the tab with the last segment alone. The server and URI travel in the query.
 */
export function resourceUri(server: string, uri: string, title?: string): vscode.Uri {
	const last = decodeSafe(
		uri
			.replace(/[?#].*$/, '')
			.split('/')
			.filter(Boolean)
			.pop() ?? '',
	);
	const name = `${title?.trim() || last || 'resource'} · ${server}`.replace(/[\\/:*?"<>|\n]+/g, '-');
	return vscode.Uri.from({
		scheme: RESOURCE_SCHEME,
		path: `/${server.replace(/[\\/]+/g, '-')}/${name}`,
		query: new URLSearchParams({ server, uri }).toString(),
	});
}

function decodeSafe(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}

/** The server and resource URI behind an `switchboard-resource:` document, or undefined for anything else. */
export function parseResourceUri(uri: vscode.Uri): { server: string; uri: string } | undefined {
	if (uri.scheme !== RESOURCE_SCHEME) return undefined;
	const params = new URLSearchParams(uri.query);
	const server = params.get('server');
	const resource = params.get('uri');
	return server !== null && resource !== null ? { server, uri: resource } : undefined;
}
