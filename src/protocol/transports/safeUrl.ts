/**
 * URLs as they may be shown: in logs, error messages and error data. A server URL often carries a credential
 * (`https://user:password@host/…`, `?api_key=…`, `?token=…`), and logs and error notifications are read, copied and
 * pasted into bug reports. Everything the project shows goes through `safeUrl`; the real URL is only ever sent.
 */

/**
 * The URL with its user info and every query value replaced by `…` and the fragment dropped:
 * `https://u:p@example.com/mcp?api_key=abc&x=1` → `https://…@example.com/mcp?api_key=…&x=…`. Query names stay (they say
 * what was configured). A string that is not a URL gives `(an invalid URL)`, never the string itself.
 */
export function safeUrl(url: URL | string): string {
	let parsed: URL;
	try {
		parsed = typeof url === 'string' ? new URL(url) : url;
	} catch {
		return '(an invalid URL)';
	}
	const userinfo = parsed.username || parsed.password ? '…@' : '';
	const names = [...parsed.searchParams.keys()];
	const query = names.length > 0 ? `?${names.map((name) => `${encodeURIComponent(name)}=…`).join('&')}` : '';
	return `${parsed.protocol}//${userinfo}${parsed.host}${parsed.pathname}${query}`;
}
