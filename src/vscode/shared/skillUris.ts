/**
 * The URIs of skill documents (`switchboard-skill:`), shared by the features that open, list or attach them: skills,
 * the Servers tree, chat. A skill document is a server's SKILL.md, read only when opened or attached.
 */
import * as vscode from 'vscode';

/** The scheme of read-only skill documents: `switchboard-skill:/<server>/<name> · SKILL.md?server=…&skill=…`. */
export const SKILL_SCHEME = 'switchboard-skill';

/**
 * The document URI of the skill `name` of `server`. Its last segment is what the tab and a chat attachment show
 * ("release-notes · SKILL.md", a Markdown file by its extension); the server and name travel in the query.
 */
export function skillUri(server: string, name: string): vscode.Uri {
	const safe = (text: string) => text.replace(/[\\/:*?"<>|\n]+/g, '-');
	return vscode.Uri.from({
		scheme: SKILL_SCHEME,
		path: `/${safe(server)}/${safe(name)} · SKILL.md`,
		query: new URLSearchParams({ server, skill: name }).toString(),
	});
}

/** The server and skill name behind a `switchboard-skill:` document, or undefined for anything else. */
export function parseSkillUri(uri: vscode.Uri): { server: string; name: string } | undefined {
	if (uri.scheme !== SKILL_SCHEME) return undefined;
	const params = new URLSearchParams(uri.query);
	const server = params.get('server');
	const name = params.get('skill');
	return server !== null && name !== null ? { server, name } : undefined;
}
