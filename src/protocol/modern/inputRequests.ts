/**
 * Multi round-trip requests (MRTR): a `tools/call`, `prompts/get` or `resources/read` answered with
 * `resultType: "input_required"` carries `inputRequests` (elicitation, sampling, roots) that the client answers with
 * the same handlers it uses for a legacy server's requests, then retries the request with a new id, the
 * `inputResponses` and the `requestState` exactly as received.
 * Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
import { ErrorCode } from '../jsonrpc';
import { McpError } from '../mcpError';
import {
	schemas,
	type CreateMessageRequest,
	type CreateMessageResult,
	type ElicitRequest,
	type ElicitResult,
	type Root,
} from '../schema';
import { isRecord } from '../../common/records';

/** The client's answers to input requests: the same handlers that answer a legacy server's requests. */
export interface InputHandlers {
	roots?: ((signal: AbortSignal) => Promise<Root[]> | Root[]) | undefined;
	sampling?: ((params: CreateMessageRequest, signal: AbortSignal) => Promise<CreateMessageResult>) | undefined;
	elicitation?: ((params: ElicitRequest, signal: AbortSignal) => Promise<ElicitResult>) | undefined;
	elicitationUrl?: boolean | undefined;
}

/** The methods that may answer `input_required` ("Servers MUST NOT send InputRequiredResult responses on any other client requests"). */
export const INPUT_REQUIRED_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** Default most rounds one request may take before it fails (a server that asks forever must not loop forever). */
export const DEFAULT_MAX_INPUT_ROUNDS = 10;
/** The largest `requestState` echoed back (it rides along on every retry); past it the request fails. */
export const MAX_REQUEST_STATE_CHARS = 1024 * 1024;

/** An `InputRequiredResult` after the checks: at least one of its two fields, each of the right type. */
export interface InputRequired {
	inputRequests: Record<string, { method: string; params?: Record<string, unknown> }> | undefined;
	requestState: string | undefined;
}

/**
 * True when `params` passes ElicitRequestSchema's form branch as it is: mode absent or "form", a string message, and
 * a requestedSchema whose type is absent or "object", whose properties are objects and whose `required` is a string
 * array. Unknown fields pass, as there. The usual question is checked this way, without zod's copy: it sits between
 * the two requests of every multi round-trip call. Anything else (URL mode, a malformed form) goes through the schema,
 * which names the problem.
 */
export function isPlainElicitForm(params: Record<string, unknown>): params is ElicitRequest & Record<string, unknown> {
	const { mode, message, requestedSchema } = params;
	if ((mode !== undefined && mode !== 'form') || typeof message !== 'string' || !isRecord(requestedSchema))
		return false;
	const { type, properties, required } = requestedSchema;
	if ((type !== undefined && type !== 'object') || !isRecord(properties)) return false;
	for (const key in properties) {
		if (!isRecord(properties[key])) return false;
	}
	if (required === undefined) return true;
	if (!Array.isArray(required)) return false;
	for (const name of required as unknown[]) {
		if (typeof name !== 'string') return false;
	}
	return true;
}

/**
 * Checks an `input_required` result; throws a ProtocolViolation that names the server, the method and the round for
 * one that breaks the rules (neither field, a non-string or oversized requestState, an input request without a method).
 */
export function parseInputRequired(result: Record<string, unknown>, where: string): InputRequired {
	const { inputRequests, requestState } = result;
	if (inputRequests === undefined && requestState === undefined) {
		throw new McpError(
			ErrorCode.ProtocolViolation,
			`${where}: the server answered input_required with neither inputRequests nor requestState`,
		);
	}
	if (requestState !== undefined && typeof requestState !== 'string') {
		throw new McpError(ErrorCode.ProtocolViolation, `${where}: the server sent a requestState that is not a string`);
	}
	if (typeof requestState === 'string' && requestState.length > MAX_REQUEST_STATE_CHARS) {
		throw new McpError(
			ErrorCode.ProtocolViolation,
			`${where}: the server sent a requestState of ${requestState.length} characters (more than ${MAX_REQUEST_STATE_CHARS}); not sending it back`,
		);
	}
	if (inputRequests !== undefined) {
		if (!isRecord(inputRequests)) {
			throw new McpError(ErrorCode.ProtocolViolation, `${where}: the server sent inputRequests that is not an object`);
		}
		for (const [key, request] of Object.entries(inputRequests)) {
			if (
				!isRecord(request) ||
				typeof request.method !== 'string' ||
				(request.params !== undefined && !isRecord(request.params))
			) {
				throw new McpError(
					ErrorCode.ProtocolViolation,
					`${where}: input request "${key}" has no method or malformed params`,
				);
			}
		}
	}
	return { inputRequests: inputRequests as InputRequired['inputRequests'], requestState: requestState };
}

/**
 * Answers every input request through the handlers, in order (they may show the user one dialog after another), and
 * returns the `inputResponses` map. A request the client declared no capability for, or with invalid params, fails
 * the whole call with an McpError naming the key; a handler's refusal is its own answer (decline/cancel), and an
 * aborted `signal` rejects with the handler's cancellation.
 */
export async function answerInputRequests(
	requests: NonNullable<InputRequired['inputRequests']>,
	handlers: InputHandlers,
	signal: AbortSignal,
	where: string,
): Promise<Record<string, unknown>> {
	const responses: Record<string, unknown> = {};
	for (const [key, request] of Object.entries(requests)) {
		signal.throwIfAborted();
		const params = request.params ?? {};
		switch (request.method) {
			case 'elicitation/create': {
				if (!handlers.elicitation) throw missing(where, key, request.method, 'elicitation');
				if (isPlainElicitForm(params)) {
					responses[key] = await handlers.elicitation(params, signal);
					break;
				}
				const parsed = schemas().ElicitRequestSchema.safeParse(params);
				if (!parsed.success) throw invalid(where, key, request.method, parsed.error.issues[0]?.message);
				if (parsed.data.mode === 'url' && !handlers.elicitationUrl)
					throw missing(where, key, request.method, 'elicitation.url');
				responses[key] = await handlers.elicitation(parsed.data, signal);
				break;
			}
			case 'sampling/createMessage': {
				if (!handlers.sampling) throw missing(where, key, request.method, 'sampling');
				const parsed = schemas().CreateMessageRequestSchema.safeParse(params);
				if (!parsed.success) throw invalid(where, key, request.method, parsed.error.issues[0]?.message);
				responses[key] = await handlers.sampling(parsed.data, signal);
				break;
			}
			case 'roots/list': {
				if (!handlers.roots) throw missing(where, key, request.method, 'roots');
				const parsed = schemas().ListRootsResultSchema.safeParse({ roots: await handlers.roots(signal) });
				if (!parsed.success)
					throw new McpError(
						ErrorCode.InternalError,
						`${where}: the roots handler returned an invalid answer: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
					);
				responses[key] = parsed.data;
				break;
			}
			default:
				throw new McpError(
					ErrorCode.ProtocolViolation,
					`${where}: input request "${key}" asks for ${request.method}, which is not an input request this client answers`,
				);
		}
	}
	return responses;
}

function missing(where: string, key: string, method: string, capability: string): McpError {
	return new McpError(
		ErrorCode.ProtocolViolation,
		`${where}: input request "${key}" asks for ${method}, but this client did not declare the '${capability}' capability`,
	);
}

function invalid(where: string, key: string, method: string, why: string | undefined): McpError {
	return new McpError(
		ErrorCode.ProtocolViolation,
		`${where}: input request "${key}" (${method}) is invalid: ${why ?? 'invalid'}`,
	);
}
