/**
 * Expectations in a saved invocation (`*.mcpcall.json`'s `expect`), so a call file is also a test: the editor's Run
 * CodeLens shows pass or fail with the reason, and `mcp-switchboard test` runs folders of them in CI. Pure: parsing
 * never throws, and evaluation only reads what the call returned.
 *
 * ```json
 * { "server": "everything", "tool": "echo", "arguments": { "message": "hi" },
 *   "expect": { "isError": false, "text": "hi", "match": "^Echo: ", "maxMs": 2000 } }
 * ```
 */
import { errorMessage } from '../common/errors';
import { compileOutputValidator } from '../protocol/outputValidator';
import { isRecord } from '../common/records';

/** What a call file may expect of its call. Every key is optional; an empty object expects only success. */
export interface Expectations {
	/** The tool result's `isError` (a JSON-RPC error is never a pass). Default: not checked. */
	isError?: boolean;
	/** A substring the result's text (its text blocks, joined by newlines) must contain. */
	text?: string;
	/** A regular expression (JavaScript syntax, no flags) the result's text must match. */
	match?: string;
	/** A partial value the structured content must contain (objects: these keys; arrays: same length, each partial). */
	structured?: unknown;
	/** A JSON Schema the structured content must satisfy (the validator that checks tools' `outputSchema`). */
	schema?: Record<string, unknown>;
	/** The longest the call may take, in milliseconds. */
	maxMs?: number;
}

/** What one run of a call file produced, in the terms expectations speak of. */
export interface ObservedCall {
	/** The JSON-RPC error or local failure (closed, timeout) when the call produced no result. */
	error?: string;
	isError: boolean;
	/** The result's text blocks (tool), contents' text (resource) or messages' text (prompt), joined by newlines. */
	text: string;
	structured?: unknown;
	durationMs: number;
}

/** The verdict: `failures` says each unmet expectation in a sentence; empty when the call passed. */
export interface ExpectationReport {
	passed: boolean;
	failures: string[];
}

const EXPECT_KEYS = new Set(['isError', 'text', 'match', 'structured', 'schema', 'maxMs']);

/**
 * Reads `expect` from a call file. Problems name the key (`label: expect.maxMs must be …`); a problem means the file
 * cannot run as a test, so `expect` is undefined then. Unknown keys are problems too (a typo must not pass silently).
 */
export function parseExpectations(raw: unknown, label: string): { expect?: Expectations; problems: string[] } {
	if (!isRecord(raw)) return { problems: [`${label}: "expect" must be an object`] };
	const problems: string[] = [];
	const expect: Expectations = {};
	for (const key of Object.keys(raw)) if (!EXPECT_KEYS.has(key)) problems.push(`${label}: unknown key "expect.${key}"`);
	if (raw.isError !== undefined) {
		if (typeof raw.isError === 'boolean') expect.isError = raw.isError;
		else problems.push(`${label}: "expect.isError" must be true or false`);
	}
	if (raw.text !== undefined) {
		if (typeof raw.text === 'string') expect.text = raw.text;
		else problems.push(`${label}: "expect.text" must be a string`);
	}
	if (raw.match !== undefined) {
		if (typeof raw.match !== 'string') problems.push(`${label}: "expect.match" must be a string`);
		else {
			try {
				new RegExp(raw.match);
				expect.match = raw.match;
			} catch (error) {
				problems.push(`${label}: "expect.match" is not a regular expression (${errorMessage(error)})`);
			}
		}
	}
	if (raw.structured !== undefined) expect.structured = raw.structured;
	if (raw.schema !== undefined) {
		if (isRecord(raw.schema)) expect.schema = raw.schema;
		else problems.push(`${label}: "expect.schema" must be a JSON Schema object`);
	}
	if (raw.maxMs !== undefined) {
		if (typeof raw.maxMs === 'number' && Number.isFinite(raw.maxMs) && raw.maxMs > 0) expect.maxMs = raw.maxMs;
		else problems.push(`${label}: "expect.maxMs" must be a positive number of milliseconds`);
	}
	return problems.length > 0 ? { problems } : { expect, problems };
}

/** The first place `actual` departs from `expected` (a path like `items[0].name` and what differs), or undefined. */
export function partialMismatch(expected: unknown, actual: unknown, path = ''): string | undefined {
	const here = path || '(root)';
	if (Array.isArray(expected)) {
		if (!Array.isArray(actual)) return `${here}: expected an array, got ${describe(actual)}`;
		if (actual.length !== expected.length) return `${here}: expected ${expected.length} items, got ${actual.length}`;
		for (let i = 0; i < expected.length; i++) {
			const mismatch = partialMismatch(expected[i], actual[i], `${path}[${i}]`);
			if (mismatch) return mismatch;
		}
		return undefined;
	}
	if (isRecord(expected)) {
		if (!isRecord(actual)) return `${here}: expected an object, got ${describe(actual)}`;
		for (const [key, value] of Object.entries(expected)) {
			const child = path ? `${path}.${key}` : key;
			if (!(key in actual)) return `${child}: missing`;
			const mismatch = partialMismatch(value, actual[key], child);
			if (mismatch) return mismatch;
		}
		return undefined;
	}
	return Object.is(expected, actual) ? undefined : `${here}: expected ${describe(expected)}, got ${describe(actual)}`;
}

function describe(value: unknown): string {
	if (value === undefined) return 'nothing';
	const text = JSON.stringify(value);
	return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function quote(text: string): string {
	const line = text.replace(/\s+/g, ' ').trim();
	return line.length > 80 ? `"${line.slice(0, 77)}…"` : `"${line}"`;
}

/**
 * Judges one run against its expectations. A call that failed with an error fails every file, whatever it expects;
 * the other checks each add one sentence, in the order of the keys above.
 */
export function evaluateExpectations(expect: Expectations, observed: ObservedCall): ExpectationReport {
	if (observed.error !== undefined) return { passed: false, failures: [`the call failed: ${observed.error}`] };
	const failures: string[] = [];
	if (expect.isError !== undefined && expect.isError !== observed.isError)
		failures.push(
			expect.isError
				? `expected an error result, got success: ${quote(observed.text)}`
				: `expected success, got an error result: ${quote(observed.text)}`,
		);
	if (expect.text !== undefined && !observed.text.includes(expect.text))
		failures.push(`text does not contain ${quote(expect.text)}: got ${quote(observed.text)}`);
	if (expect.match !== undefined && !new RegExp(expect.match).test(observed.text))
		failures.push(`text does not match /${expect.match}/: got ${quote(observed.text)}`);
	if (expect.structured !== undefined) {
		const mismatch =
			observed.structured === undefined
				? 'the result has no structured content'
				: partialMismatch(expect.structured, observed.structured);
		if (mismatch) failures.push(`structured content: ${mismatch}`);
	}
	if (expect.schema !== undefined) {
		if (observed.structured === undefined) failures.push('schema: the result has no structured content');
		else {
			let unsupported: string | undefined;
			const check = compileOutputValidator(expect.schema, (reason) => (unsupported = reason))(observed.structured);
			if (unsupported !== undefined) failures.push(`schema cannot be checked: ${unsupported}`);
			else if (!check.ok) failures.push(`schema: ${check.message}`);
		}
	}
	if (expect.maxMs !== undefined && observed.durationMs > expect.maxMs)
		failures.push(`took ${Math.round(observed.durationMs)} ms, more than maxMs ${expect.maxMs}`);
	return { passed: failures.length === 0, failures };
}

interface TextBlock {
	type?: unknown;
	text?: unknown;
}

function joinTexts(blocks: readonly unknown[]): string {
	return blocks
		.map((block) => (block as TextBlock | undefined)?.text)
		.filter((text): text is string => typeof text === 'string')
		.join('\n');
}

/**
 * What a call file's run returned, read from the result as sent: a tool result (`content`, `isError`,
 * `structuredContent`), a resource read (`contents`) or a prompt (`messages`). `error` is a failure without a result.
 */
export function observeResult(result: unknown, durationMs: number, error?: string): ObservedCall {
	if (error !== undefined || !isRecord(result))
		return { error: error ?? 'no result', isError: true, text: '', durationMs };
	if (Array.isArray(result.messages)) {
		const contents = result.messages.map((message) => (isRecord(message) ? message.content : undefined));
		return { isError: false, text: joinTexts(contents), durationMs };
	}
	if (Array.isArray(result.contents)) return { isError: false, text: joinTexts(result.contents), durationMs };
	const observed: ObservedCall = {
		isError: result.isError === true,
		text: Array.isArray(result.content) ? joinTexts(result.content) : '',
		durationMs,
	};
	if (result.structuredContent !== undefined) observed.structured = result.structuredContent;
	return observed;
}

/** One line for people: `passed` or the failures joined by `; `. */
export function reportText(report: ExpectationReport): string {
	return report.passed ? 'passed' : report.failures.join('; ');
}
