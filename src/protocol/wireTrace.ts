/**
 * The wire as the trace and the protocol view show it: a message's JSON with secret-looking values redacted and
 * cut at 64 KiB, built only when tracing.
 */

/** Keys whose values never reach a log: credentials, tokens, cookies. `progressToken` is not a secret. */
const SECRET_KEY = /authorization|cookie|password|secret|token|api[-_]?key/i;
/**
 * Any text SECRET_KEY could match, anywhere in serialised JSON (keys or values): a superset, so a message that
 * skips the replacer can have no key to redact.
 */
export const SECRET_KEY_IN_JSON = new RegExp(SECRET_KEY.source, 'i');

/** A JSON.stringify replacer that writes `[redacted]` for the value of a secret-looking key (the trace's rule). */
export function redact(key: string, value: unknown): unknown {
	return key !== 'progressToken' && key !== 'cursor' && SECRET_KEY.test(key) && value !== undefined
		? '[redacted]'
		: value;
}

/** The longest trace line kept; a 50 MiB result would otherwise freeze the output view that shows it. */
const MAX_TRACE_CHARS = 64 * 1024;

/** The wire form of a message for the trace, with secrets redacted and cut at 64 KiB. Built only when tracing. */
export function traceString(message: unknown): string {
	return traceJson(message).text;
}

/** traceString's text plus the length of the whole redacted JSON (before the cut), for the protocol view. */
export function traceJson(message: unknown): { text: string; length: number } {
	let text: string;
	try {
		// A replacer function makes JSON.stringify several times slower, and most messages have no secret-looking key:
		// stringify plainly, and again with the replacer only when such a key appears in the text.
		text = JSON.stringify(message) ?? String(message);
		if (SECRET_KEY_IN_JSON.test(text)) text = JSON.stringify(message, redact) ?? text;
	} catch {
		text = String(message);
	}
	return cutTrace(text);
}

/**
 * traceJson for a message whose JSON text is at hand (as it crossed the wire): the same redaction and cut, without
 * serialising the message again. Text that mentions a secret-looking key is parsed and serialised with the redaction;
 * text that cannot be parsed then is not shown at all (it might hold the secret).
 */
export function traceJsonText(json: string): { text: string; length: number } {
	let text = json;
	if (SECRET_KEY_IN_JSON.test(json)) {
		try {
			text = JSON.stringify(JSON.parse(json), redact) ?? json;
		} catch {
			text = `[not shown: ${json.length} characters that are not JSON and may hold a secret]`;
		}
	}
	return cutTrace(text);
}

function cutTrace(text: string): { text: string; length: number } {
	if (text.length <= MAX_TRACE_CHARS) return { text, length: text.length };
	// A slice would keep the whole string alive behind it (V8 sliced strings): copy the head, so a 50 MiB message
	// kept in the protocol view costs 64 KiB.
	const head = Buffer.from(text.slice(0, MAX_TRACE_CHARS), 'utf8').toString('utf8');
	return { text: `${head}… (${text.length} characters)`, length: text.length };
}

/** A short form of a message (200 characters) for a warning about it. */
export function tracePreview(message: unknown): string {
	const text = traceString(message);
	return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
