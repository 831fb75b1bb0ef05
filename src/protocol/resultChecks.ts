/**
 * The checks every answer of a server goes through before the client uses it, in either era: the capability gate in
 * front of a request, a result against its schema, and a result's `resultType`. Each failure is an McpError that
 * names the server (`name`) and the method.
 */
import { ErrorCode } from './jsonrpc';
import { McpError } from './mcpError';
import { schemas, type Schemas, type ServerCapabilities } from './schema';

/** Throws CapabilityMissing unless the server advertised `capability` (and, when given, its boolean `feature`). */
export function requireCapability(
	name: string,
	capabilities: ServerCapabilities,
	method: string,
	capability: keyof ServerCapabilities,
	feature?: string,
): void {
	const advertised = capabilities[capability] as Record<string, unknown> | undefined;
	if (advertised === undefined || advertised === null || (feature !== undefined && advertised[feature] !== true)) {
		const what = feature === undefined ? capability : `${capability}.${feature}`;
		throw new McpError(
			ErrorCode.CapabilityMissing,
			`${name} does not support ${method} (it did not advertise the '${what}' capability)`,
			{ method, capability: what },
		);
	}
}

/** Validates a result with a prebuilt schema; a mismatch is a ProtocolViolation naming the method and path. */
export function parseResult<K extends keyof Schemas>(
	name: string,
	key: K,
	value: unknown,
	method: string,
): ReturnType<Schemas[K]['parse']> {
	const result = schemas()[key].safeParse(value);
	if (!result.success) {
		const issue = result.error.issues[0];
		const path = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
		throw new McpError(
			ErrorCode.ProtocolViolation,
			`${name} answered ${method} with an invalid result: at ${path}: ${issue?.message ?? 'invalid'}`,
			{ method, issues: result.error.issues },
		);
	}
	return result.data as ReturnType<Schemas[K]['parse']>;
}

/**
 * A result whose `resultType` is absent or "complete" ("clients MUST treat an absent resultType as complete");
 * anything else is refused with a ProtocolViolation.
 */
export function ensureComplete(name: string, method: string, raw: Record<string, unknown>): Record<string, unknown> {
	const type = raw.resultType;
	if (type === undefined || type === 'complete') {
		return raw;
	}
	// "A resultType of any value unrecognized by the client MUST be considered invalid."
	const why =
		type === 'input_required'
			? `, which ${method} may not answer (only tools/call, prompts/get and resources/read may)`
			: type === 'task'
				? `, which ${method} may not answer (the tasks extension allows it only for tools/call)`
				: ', which this client does not know';
	throw new McpError(
		ErrorCode.ProtocolViolation,
		`${name} answered ${method} with resultType ${JSON.stringify(type)}${why}`,
		{ method, resultType: type },
	);
}
