/**
 * Names and command lines for Add Server: a command line split into words as a shell would (quotes, escapes), and a
 * suggested server name from what the person typed. No `vscode`: unit-tested, and the command line may share it.
 */

/** Splits a command line into words, honouring single and double quotes and backslash escapes (no globbing, no variables). */
export function splitCommandLine(line: string): string[] {
	const words: string[] = [];
	let current = '';
	let inWord = false;
	let quote: '"' | "'" | undefined;
	for (let i = 0; i < line.length; i++) {
		const ch = line[i] as string;
		if (quote) {
			if (ch === quote) quote = undefined;
			else if (ch === '\\' && quote === '"' && i + 1 < line.length) current += line[++i];
			else current += ch;
		} else if (ch === '"' || ch === "'") {
			quote = ch;
			inWord = true;
		} else if (ch === '\\' && i + 1 < line.length) {
			current += line[++i];
			inWord = true;
		} else if (/\s/.test(ch)) {
			if (inWord) words.push(current);
			current = '';
			inWord = false;
		} else {
			current += ch;
			inWord = true;
		}
	}
	if (inWord) words.push(current);
	return words;
}

/** A default server name from a command or URL: the package or host, lowercased, safe characters only. */
export function suggestName(commandOrUrl: string): string {
	let base = commandOrUrl;
	try {
		const url = new URL(commandOrUrl);
		if (url.protocol.startsWith('http')) base = url.hostname.split('.').slice(-2, -1)[0] ?? url.hostname;
	} catch {
		const words = splitCommandLine(commandOrUrl);
		const pkg = words.slice(1).find((w) => !w.startsWith('-')) ?? words[0] ?? 'server';
		base =
			pkg
				.replace(/@[^/]*$/, '')
				.split('/')
				.pop() ?? pkg;
		base = base.replace(/^server-|^mcp-server-|-mcp$|\.(js|py|ts)$/g, '');
	}
	return (
		base
			.toLowerCase()
			.replace(/[^a-z0-9_-]+/g, '-')
			.replace(/^-+|-+$/g, '') || 'server'
	);
}
