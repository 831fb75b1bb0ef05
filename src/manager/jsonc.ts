/**
 * JSON with comments and trailing commas (settings.json, mcp.json, Claude Desktop and Cursor files), read and edited
 * with `jsonc-parser`, the parser VS Code itself uses for these files: a syntax error is reported with its line and
 * column, and an edit changes only the value it sets, keeping the user's comments and formatting.
 * https://github.com/microsoft/node-jsonc-parser
 */
import type * as Jsonc from 'jsonc-parser';

let loaded: typeof Jsonc | undefined;

/** The parser, loaded on first use: importing the core must not pay for it. */
function jsonc(): typeof Jsonc {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return (loaded ??= require('jsonc-parser') as typeof Jsonc);
}

/** A parse: the value, or the first syntax error as "line L, column C: what was wrong" (1-based, as editors count). */
export type JsoncParse = { value: unknown; error?: undefined } | { value?: undefined; error: string };

/**
 * Parses JSONC as VS Code does (comments and trailing commas allowed). Never throws: text that is not valid gives
 * `error` naming the line and column of the first mistake, e.g. `line 4, column 3: property name expected`.
 */
export function parseJsonc(text: string): JsoncParse {
	// Most files are plain JSON: Node's own parser reads them several times faster than jsonc-parser (50 servers: ~0.3
	// against ~3 ms), to the same value. Comments, trailing commas and mistakes go to jsonc-parser, which reads the
	// first two as VS Code does and names the line and column of the third.
	try {
		return { value: JSON.parse(text) as unknown };
	} catch {
		// Not plain JSON: read as JSONC below.
	}
	const { parse, printParseErrorCode } = jsonc();
	const errors: Jsonc.ParseError[] = [];
	const value: unknown = parse(text, errors, {
		allowTrailingComma: true,
		disallowComments: false,
		allowEmptyContent: false,
	});
	const first = errors[0];
	if (first) {
		const { line, column } = position(text, first.offset);
		return { error: `line ${line}, column ${column}: ${describeCode(printParseErrorCode(first.error))}` };
	}
	return { value };
}

/** How an edit lays out what it inserts. Default: the indentation the text already uses (tabs when it has none). */
export interface JsoncFormat {
	insertSpaces?: boolean;
	tabSize?: number;
	eol?: string;
}

/**
 * Sets the value at `path` (object keys and array indexes, e.g. `['servers', 'files', 'disabled']`) in a JSONC text,
 * or removes it when `value` is undefined, and returns the new text. Everything else (comments, order, formatting)
 * stays as written; missing parent objects are created. Throws an Error naming line and column when the text is not
 * valid JSONC (an edit must not guess around a broken file).
 */
export function editJsonc(
	text: string,
	path: readonly (string | number)[],
	value: unknown,
	format: JsoncFormat = detectFormat(text),
): string {
	const checked = text.trim() === '' ? { value: {} } : parseJsonc(text);
	if (checked.error !== undefined) throw new Error(`cannot edit a file that is not valid JSON: ${checked.error}`);
	const { modify, applyEdits } = jsonc();
	const base = text.trim() === '' ? '{}' : text;
	const edits = modify(base, [...path], value, {
		formattingOptions: {
			insertSpaces: format.insertSpaces ?? false,
			tabSize: format.tabSize ?? 4,
			eol: format.eol ?? '\n',
		},
	});
	return applyEdits(base, edits);
}

/** The indentation and line ends a text already uses, so an edit looks like the rest of the file. */
export function detectFormat(text: string): JsoncFormat {
	const eol = text.includes('\r\n') ? '\r\n' : '\n';
	const indent = /\n([ \t]+)\S/.exec(text)?.[1];
	if (!indent || indent.startsWith('\t')) return { insertSpaces: false, tabSize: 4, eol };
	return { insertSpaces: true, tabSize: indent.length, eol };
}

/** 1-based line and column of an offset. */
function position(text: string, offset: number): { line: number; column: number } {
	let line = 1;
	let lineStart = 0;
	for (let i = 0; i < offset && i < text.length; i++) {
		if (text.charCodeAt(i) === 10) {
			line++;
			lineStart = i + 1;
		}
	}
	return { line, column: offset - lineStart + 1 };
}

/** 'PropertyNameExpected' → 'property name expected'. */
function describeCode(code: string): string {
	return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/**
 * Where the property at `path` is in a JSONC text: the offset and length of its key and value (`"name": {…}`), or
 * undefined when there is no such property or the text cannot be read. Lets an editor open a file at an entry.
 */
export function propertyRange(
	text: string,
	path: readonly (string | number)[],
): { offset: number; length: number } | undefined {
	const { parseTree, findNodeAtLocation } = jsonc();
	const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
	const value = root && findNodeAtLocation(root, [...path]);
	if (!value) return undefined;
	// The value's parent is the property node (key and value) when the value sits in an object.
	const property = value.parent?.type === 'property' ? value.parent : value;
	return { offset: property.offset, length: property.length };
}
