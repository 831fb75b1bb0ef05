/**
 * What looks suspicious in a tool's definition (tool poisoning, OWASP MCP Top 10 MCP03): text a person cannot see
 * but a model reads (Unicode tag characters U+E0000–E007F, zero-width and bidirectional controls, ANSI escapes),
 * instructions aimed at the model rather than describing the tool (ignore earlier instructions, keep something from
 * the user, read private files, send data to an address, call other servers' tools), and a description far longer
 * than its peers'. Each finding says what was found, for the tree and the consent question. Heuristics: a finding is
 * a reason to look, not proof. Pure.
 */
import type { Tool } from '../../protocol/schema';

/** One thing found, in words for people. */
export interface Suspicion {
	kind: 'hidden-text' | 'model-instructions' | 'long-description';
	detail: string;
}

const HIDDEN: readonly { pattern: RegExp; what: string }[] = [
	{ pattern: /[\u{E0000}-\u{E007F}]/gu, what: 'Unicode tag characters (invisible text)' },
	{ pattern: /[\u200B-\u200D\u2060\uFEFF]/g, what: 'zero-width characters' },
	{ pattern: /[\u202A-\u202E\u2066-\u2069\u200E\u200F]/g, what: 'bidirectional text controls' },
	// ESC then [ (CSI) or ] (OSC): built from a string, since a literal control character in a regex is a lint error.
	{ pattern: new RegExp(`${String.fromCharCode(27)}[[\\]]`, 'g'), what: 'terminal (ANSI) escape sequences' },
];

const INSTRUCTIONS: readonly { pattern: RegExp; what: string }[] = [
	{
		pattern:
			/\b(ignore|disregard|forget)\b[^.\n]{0,40}\b(previous|prior|above|earlier|all|other)\b[^.\n]{0,20}\b(instructions?|prompts?|rules?)/i,
		what: 'tells the model to ignore its instructions',
	},
	{
		pattern:
			/\b(do not|don't|never|without)\b[^.\n]{0,30}\b(tell|inform|mention|show|reveal|notify|alert)\w*\b[^.\n]{0,20}\b(the )?user\b/i,
		what: 'tells the model to hide something from the user',
	},
	{
		pattern:
			/(~\/\.ssh|id_rsa|id_ed25519|\.aws\/credentials|\.env\b|\/etc\/passwd|\.netrc|\.npmrc|\.git-credentials|private key)/i,
		what: 'mentions private files or keys',
	},
	{
		pattern:
			/\b(read|open|cat|load|include|attach)\b[^.\n]{0,30}\b(file|files|contents?|config|credentials?|secrets?|tokens?)\b/i,
		what: 'asks the model to read files or secrets',
	},
	{
		pattern:
			/\b(send|post|upload|forward|exfiltrate|transmit|leak)\b[^.\n]{0,60}(https?:\/\/|\bto (this|the following|an?) (url|address|endpoint|server|webhook)\b|\bwebhook\b)/i,
		what: 'asks the model to send data to an address',
	},
	{
		pattern:
			/\b(call|use|invoke|run)\b[^.\n]{0,30}\b(mcp__\w+|other (server|tool)s?'?|another (server|tool)|every (other )?tool)/i,
		what: "steers the model to other servers' tools",
	},
	{
		pattern: /<\s*(important|system|instructions?|secret)\s*>/i,
		what: 'contains tags aimed at the model (<IMPORTANT>, <system>…)',
	},
];

/** A description this many times longer than the median of its server's tools (and at least LONG_MIN chars) is flagged. */
const LONG_FACTOR = 5;
const LONG_MIN = 600;

/** Every string a model reads in a tool's definition: name, title, description, and the schema's descriptions. */
function modelText(tool: Tool): string {
	const parts: string[] = [tool.name, tool.title ?? '', tool.description ?? ''];
	const walk = (value: unknown, depth: number): void => {
		if (depth > 8 || typeof value !== 'object' || value === null) return;
		for (const [key, inner] of Object.entries(value)) {
			if ((key === 'description' || key === 'title') && typeof inner === 'string') parts.push(inner);
			else walk(inner, depth + 1);
		}
	};
	walk(tool.inputSchema, 0);
	walk(tool.outputSchema, 0);
	return parts.join('\n');
}

function median(values: readonly number[]): number {
	if (values.length === 0) return 0;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)]!;
}

/** What looks suspicious in `tool`, compared with `peers` (its server's other tools) for length. Empty: nothing. */
export function suspicionsOf(tool: Tool, peers: readonly Tool[] | (() => readonly Tool[]) = []): Suspicion[] {
	const text = modelText(tool);
	const found: Suspicion[] = [];
	for (const { pattern, what } of HIDDEN) {
		const count = text.match(pattern)?.length ?? 0;
		if (count > 0) found.push({ kind: 'hidden-text', detail: `${count} ${what}` });
	}
	for (const { pattern, what } of INSTRUCTIONS)
		if (pattern.test(text)) found.push({ kind: 'model-instructions', detail: what });
	const length = tool.description?.length ?? 0;
	// The peers' median only for a long description: a tree of 5,000 tools asks for every row, and the median of all
	// the others per row would make it quadratic.
	if (length < LONG_MIN) return found;
	const all = typeof peers === 'function' ? peers() : peers;
	const others = median(all.filter((peer) => peer.name !== tool.name).map((peer) => peer.description?.length ?? 0));
	if (others > 0 && length > others * LONG_FACTOR)
		found.push({
			kind: 'long-description',
			detail: `a description of ${length} characters, ${Math.round(length / others)}× its server's usual ${others}`,
		});
	return found;
}

/** The findings as one line ("hides 3 Unicode tag characters; tells the model to …"), or undefined for none. */
export function suspicionText(found: readonly Suspicion[]): string | undefined {
	return found.length === 0 ? undefined : found.map((s) => s.detail).join('; ');
}
