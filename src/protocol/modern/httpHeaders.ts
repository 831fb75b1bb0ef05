import { isRecord } from '../../common/records';
/**
 * The HTTP headers 2026-07-28 mirrors from a request's body, so gateways can route without parsing it: `Mcp-Method`,
 * `Mcp-Name` and `Mcp-Param-{Name}` for tool parameters marked `x-mcp-header`, with the revision's encoding for
 * values that are not plain header text; and the checks that make a tool's `x-mcp-header` marks valid.
 * Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#request-metadata
 */

/**
 * Methods whose `params.name` (or `params.uri`, `params.taskId`) goes into `Mcp-Name`. The tasks extension: "When
 * tasks/get, tasks/update, or tasks/cancel is sent over the Streamable HTTP transport, the client MUST set the
 * Mcp-Name header ... to the value of params.taskId" (so a load balancer routes it to the instance holding the task).
 */
const NAMED_METHODS: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
	'tools/call': 'name',
	'prompts/get': 'name',
	'resources/read': 'uri',
	'tasks/get': 'taskId',
	'tasks/update': 'taskId',
	'tasks/cancel': 'taskId',
};

const SENTINEL = /^=\?base64\?.*\?=$/s;

/**
 * A value as a header may carry it. "When a value cannot be safely represented as a plain ASCII header value (e.g., it
 * contains non-ASCII characters, control characters, or has leading/trailing whitespace), clients MUST use Base64
 * encoding of the UTF-8 representation" as `=?base64?…?=`, and so for a plain value that looks like that form.
 * Tab counts as unsafe here: it is legal inside a field value but is stripped at either end and some proxies fold it.
 */
export function encodeHeaderValue(value: string): string {
	let plain = value.length === 0 || (value.charCodeAt(0) !== 0x20 && value.charCodeAt(value.length - 1) !== 0x20);
	for (let i = 0; plain && i < value.length; i++) {
		const code = value.charCodeAt(i);
		if (code < 0x20 || code > 0x7e) plain = false;
	}
	if (plain && !SENTINEL.test(value)) return value;
	return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** `Mcp-Method` for every request, and `Mcp-Name` for tools/call, prompts/get, resources/read and tasks/get|update|cancel. */
export function standardHeaders(method: string, params: Record<string, unknown> | undefined): Record<string, string> {
	const headers: Record<string, string> = { 'mcp-method': method };
	const field = NAMED_METHODS[method];
	const name = field === undefined ? undefined : params?.[field];
	if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name);
	return headers;
}

/** One `x-mcp-header` mark: the header's name part and the chain of `properties` keys leading to the parameter. */
export interface ParamHeader {
	header: string;
	path: readonly string[];
}

/** RFC 9110 `tchar`: the characters of a field name. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE_TYPES = new Set(['string', 'integer', 'boolean']);
/** Keywords under which a mark is not statically reachable (the chain must be `properties` keys only). */
const NESTING_KEYWORDS = [
	'items',
	'prefixItems',
	'additionalProperties',
	'patternProperties',
	'oneOf',
	'anyOf',
	'allOf',
	'not',
	'if',
	'then',
	'else',
	'$defs',
	'definitions',
	'dependentSchemas',
	'contains',
];

/**
 * The `x-mcp-header` marks of a tool's inputSchema, or the reason the tool must be rejected: an empty name, one that
 * is not an HTTP token, a duplicate (case-insensitively), a mark on a non-primitive parameter (`number` included), or
 * a mark not reachable through `properties` alone. "Clients using the Streamable HTTP transport MUST reject tool
 * definitions where any x-mcp-header value violates these constraints."
 */
export function paramHeadersOf(inputSchema: Record<string, unknown>): { headers: ParamHeader[] } | { problem: string } {
	const headers: ParamHeader[] = [];
	const seen = new Set<string>();
	const problems: string[] = [];
	const visit = (schema: Record<string, unknown>, path: string[], reachable: boolean): void => {
		if ('x-mcp-header' in schema && path.length > 0) {
			const mark = schema['x-mcp-header'];
			const where = path.join('.') || '(root)';
			if (!reachable) problems.push(`x-mcp-header on "${where}" is not reachable through properties alone`);
			else if (typeof mark !== 'string' || mark.length === 0)
				problems.push(`x-mcp-header on "${where}" is empty or not a string`);
			else if (!TOKEN.test(mark))
				problems.push(`x-mcp-header ${JSON.stringify(mark)} on "${where}" is not a valid HTTP header name`);
			else if (seen.has(mark.toLowerCase())) problems.push(`x-mcp-header ${JSON.stringify(mark)} is used twice`);
			else if (typeof schema.type !== 'string' || !PRIMITIVE_TYPES.has(schema.type))
				problems.push(
					`x-mcp-header ${JSON.stringify(mark)} marks "${where}" of type ${JSON.stringify(schema.type ?? 'unknown')}; only string, integer and boolean may be mirrored`,
				);
			else {
				seen.add(mark.toLowerCase());
				headers.push({ header: mark, path });
			}
		} else if ('x-mcp-header' in schema && path.length === 0) {
			problems.push('x-mcp-header on the schema root');
		}
		const properties = schema.properties;
		if (isRecord(properties)) {
			for (const [key, child] of Object.entries(properties)) {
				if (isRecord(child)) visit(child, [...path, key], reachable);
			}
		}
		for (const keyword of NESTING_KEYWORDS) {
			const nested = schema[keyword];
			const list = Array.isArray(nested)
				? nested
				: isRecord(nested)
					? keyword === '$defs' ||
						keyword === 'definitions' ||
						keyword === 'patternProperties' ||
						keyword === 'dependentSchemas'
						? Object.values(nested)
						: [nested]
					: [];
			for (const child of list) {
				if (isRecord(child)) visit(child, [...path, `<${keyword}>`], false);
			}
		}
	};
	visit(inputSchema, [], true);
	return problems.length > 0 ? { problem: problems.join('; ') } : { headers };
}

/**
 * `Mcp-Param-{Name}` headers for one call: the value at each mark's path, as a string (integers in decimal, booleans
 * lowercase), encoded. A missing or null value sends no header ("Client MUST omit the header").
 */
export function paramHeaderValues(
	marks: readonly ParamHeader[],
	args: Record<string, unknown> | undefined,
): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const { header, path } of marks) {
		let value: unknown = args;
		for (const key of path) {
			value = isRecord(value) ? value[key] : undefined;
		}
		let text: string | undefined;
		if (typeof value === 'string') text = value;
		else if (typeof value === 'boolean') text = value ? 'true' : 'false';
		else if (typeof value === 'number' && Number.isFinite(value))
			text = Number.isInteger(value) ? value.toFixed(0) : String(value);
		if (text !== undefined) headers[`mcp-param-${header.toLowerCase()}`] = encodeHeaderValue(text);
	}
	return headers;
}
