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
