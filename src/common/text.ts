/**
 * `value` as text for a message, where `value` comes from a peer and may be anything: strings, numbers and
 * booleans as themselves, objects as JSON (never "[object Object]"), null and undefined as `fallback`.
 */
export function textOf(value: unknown, fallback = ''): string {
	if (value === undefined || value === null) return fallback;
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
	try {
		return JSON.stringify(value) ?? fallback;
	} catch {
		return fallback;
	}
}

/** How much data a base64 string holds, for people: "512 B", "12.3 KB", "4.0 MB". */
export function base64Size(base64: string): string {
	const bytes = Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
	return bytes < 1024
		? `${bytes} B`
		: bytes < 1024 * 1024
			? `${(bytes / 1024).toFixed(1)} KB`
			: `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * A multi-line message as one line of at most `max` characters, for a notification (VS Code shows only its first
 * line): "exited with code 3. Last stderr lines:" keeps the stderr lines that follow it instead of ending there.
 */
export function oneLine(message: string, max = 300): string {
	const line = message
		.split('\n')
		.map((part) => part.trim())
		.filter((part) => part.length > 0)
		.join(' ');
	return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * "1 tool", "2 tools", "0 tools": a count with its noun in the right number. `many` is the plural when it is not the
 * noun plus "s" ("1 entry", "3 entries").
 */
export function plural(count: number, one: string, many = `${one}s`): string {
	return `${count} ${count === 1 ? one : many}`;
}

/**
 * Orders names as people scan a list: ignoring case, then by code unit. Not `localeCompare`: its first call builds
 * ICU's collator, 8 ms in a fresh Node process and 15 ms in a starting extension host, paid before the Servers view's
 * first rows; server and tool names are identifiers, for which the two orders agree.
 */
export function compareNames(a: string, b: string): number {
	const x = a.toLowerCase();
	const y = b.toLowerCase();
	if (x !== y) return x < y ? -1 : 1;
	return a < b ? -1 : a > b ? 1 : 0;
}
