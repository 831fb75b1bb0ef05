import * as vscode from 'vscode';
import { isLoopbackUrl } from '../protocol/auth/discovery';

/**
 * A URL as the user's browser can reach it. A page on this host's loopback (a local test server, or one next to a
 * remote extension host) is mapped with asExternalUri here, keeping the query exactly as it was encoded. Left to
 * openExternal, the mapping decodes the query and re-encodes it with `encodeURI`: `%26` arrives as `&` (a second
 * parameter), and `resource=http://…` stays unescaped, whose `//` code-server's port proxy then collapses (seen in
 * code-server 4.139.1). Any other URL is returned as is.
 */
export async function reachableFromBrowser(url: string): Promise<string> {
	const target = new URL(url);
	if (!isLoopbackUrl(target)) return url;
	try {
		const external = await vscode.env.asExternalUri(vscode.Uri.parse(`${target.origin}${target.pathname}`));
		return `${external.toString()}${target.search}${target.hash}`;
	} catch {
		return url;
	}
}

/**
 * Opens `url` in the user's browser exactly as written: given to openExternal as a string, not `Uri.parse(url)`,
 * which decodes and re-encodes the query (microsoft/vscode#85930); loopback pages mapped by {@link reachableFromBrowser}.
 * Resolves false when the editor could not open it.
 */
export async function openExternalUrl(url: string): Promise<boolean> {
	// openExternal accepts a string as well as a Uri at run time; its type declares only Uri.
	return vscode.env.openExternal((await reachableFromBrowser(url)) as unknown as vscode.Uri);
}
