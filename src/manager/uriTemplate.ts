/**
 * Whether a URI could have come from a resource template (RFC 6570, https://www.rfc-editor.org/rfc/rfc6570), and how
 * specific that template is. The gateway uses it to send a `resources/read` of a URI no server lists to the server
 * whose template matches, never to every server in turn. Pure.
 */

/** What one expression `{…}` may expand to, by its operator (RFC 6570 §3.2). */
function expressionPattern(operator: string): string {
	switch (operator) {
		case '+':
		case '#':
			return '.*';
		case '/':
			return '(?:/[^/?#]*)*';
		case '.':
			return '(?:\\.[^/?#]*)*';
		case ';':
			return '(?:;[^/?#]*)*';
		case '?':
			return '(?:\\?[^#]*)?';
		case '&':
			return '(?:&[^#]*)?';
		default:
			return '[^/?#]*';
	}
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A compiled template: its regular expression and how many literal characters it has (more: more specific). */
export interface UriTemplateMatcher {
	matches(uri: string): boolean;
	literalLength: number;
}

/** Compiles `template`; a template that is not well formed (an unclosed `{`) matches only itself. */
export function uriTemplateMatcher(template: string): UriTemplateMatcher {
	let pattern = '';
	let literalLength = 0;
	let rest = template;
	while (rest.length > 0) {
		const open = rest.indexOf('{');
		if (open < 0) {
			pattern += escapeRegExp(rest);
			literalLength += rest.length;
			break;
		}
		const close = rest.indexOf('}', open);
		if (close < 0) return { matches: (uri) => uri === template, literalLength: template.length };
		pattern += escapeRegExp(rest.slice(0, open));
		literalLength += open;
		const expression = rest.slice(open + 1, close);
		pattern += expressionPattern(/^[+#./;?&]/.test(expression) ? expression[0]! : '');
		rest = rest.slice(close + 1);
	}
	const regex = new RegExp(`^${pattern}$`, 's');
	return { matches: (uri) => regex.test(uri), literalLength };
}

/**
 * The servers whose templates match `uri`, keeping only those with the most specific matching template (the most
 * literal characters): a catch-all `{+uri}` of one server does not compete with another's `files:///{path}`.
 */
export function serversForUri(
	uri: string,
	templates: readonly { server: string; template: { uriTemplate: string } }[],
): string[] {
	let best = -1;
	let servers: string[] = [];
	for (const { server, template } of templates) {
		const matcher = uriTemplateMatcher(template.uriTemplate);
		if (!matcher.matches(uri)) continue;
		if (matcher.literalLength > best) {
			best = matcher.literalLength;
			servers = [server];
		} else if (matcher.literalLength === best && !servers.includes(server)) servers.push(server);
	}
	return servers;
}
