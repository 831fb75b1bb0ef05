/**
 * A recorded session (`*.mcpsession.json`, manager/sessionRecording.ts) made after the fact from calls a person already
 * made: the Call History's entries of one server become the JSON-RPC exchange they were (`tools/call`,
 * `prompts/get`, `resources/read`, each request with its answer), oldest first, so `mcp-switchboard replay` serves
 * them back exactly as Record Session's files. Pure: no I/O.
 *
 * What a live recording has and the history does not is filled in from what the Manager knows of the server: the
 * handshake of its running connection (else a minimal one naming the server), and its lists (`tools/list`,
 * `prompts/list`, `resources/list`, `resources/templates/list`), so a client of the replay can list before it calls.
 * A call whose result the history did not keep (too large), and a cancelled call, are left out and counted; a call
 * that failed without an answer from the server is answered with a JSON-RPC error carrying its message. Secrets are
 * redacted as Record Session redacts them.
 */
import type { Prompt, Resource, ResourceTemplate, Tool } from '../protocol/schema';
import type { InvocationOutcome, InvocationTarget } from './invocations';
import {
	redactMessage,
	SESSION_FORMAT,
	type RecordedHandshake,
	type RecordedMessage,
	type SessionFile,
} from './sessionRecording';

/** A call as the history keeps it (HistoryEntry has this shape). */
export interface PastCall {
	target: InvocationTarget;
	outcome: InvocationOutcome;
	startedAt: number;
	/** Set when the history did not keep the result. */
	resultDropped?: unknown;
}

/** The server's lists, as the Manager holds them. */
export interface ServerLists {
	tools: readonly Tool[];
	prompts: readonly Prompt[];
	resources: readonly Resource[];
	resourceTemplates: readonly ResourceTemplate[];
}

/** What goes into the file beside the calls. */
export interface SessionSources {
	/** The running connection's handshake; without one, a minimal handshake naming the server is written. */
	handshake?: RecordedHandshake;
	lists?: ServerLists;
	/** Values to redact wherever they occur (configSecrets, password inputs). */
	secrets?: readonly string[];
	now?: Date;
}

/** The file, and the calls it could not hold with why. */
export interface SessionFromCalls {
	session: SessionFile;
	/** How many of the given calls are in the file. */
	calls: number;
	/** Calls left out: `<label>: <why>`. */
	skipped: string[];
}

/** The JSON-RPC error code a failed call is answered with (Internal error: the history keeps only the message). */
export const FAILED_CALL_CODE = -32603;

/** The JSON-RPC request a call made. */
function requestOf(target: InvocationTarget): { method: string; params: Record<string, unknown> } {
	switch (target.kind) {
		case 'tool':
			return { method: 'tools/call', params: { name: target.name, arguments: target.arguments } };
		case 'prompt':
			return { method: 'prompts/get', params: { name: target.name, arguments: target.arguments } };
		case 'resource':
			return { method: 'resources/read', params: { uri: target.uri } };
	}
}

function labelOf(target: InvocationTarget): string {
	return target.kind === 'resource' ? `resource ${target.uri}` : `${target.kind} ${target.name}`;
}

/** A handshake for a server that is not running: what a client needs to go on, named after the server. */
function minimalHandshake(
	server: string,
	lists: ServerLists | undefined,
	calls: readonly PastCall[],
): RecordedHandshake {
	const kinds = new Set(calls.map((call) => call.target.kind));
	const capabilities: Record<string, unknown> = {};
	if (kinds.has('tool') || (lists?.tools.length ?? 0) > 0) capabilities.tools = {};
	if (kinds.has('prompt') || (lists?.prompts.length ?? 0) > 0) capabilities.prompts = {};
	if (kinds.has('resource') || (lists?.resources.length ?? 0) > 0 || (lists?.resourceTemplates.length ?? 0) > 0)
		capabilities.resources = {};
	return { protocolVersion: '2025-06-18', capabilities, serverInfo: { name: server, version: '0.0.0' } };
}

/** The list requests and answers for the lists that have items. */
function listExchanges(lists: ServerLists | undefined): { method: string; result: Record<string, unknown> }[] {
	if (!lists) return [];
	const exchanges: { method: string; result: Record<string, unknown> }[] = [];
	if (lists.tools.length > 0) exchanges.push({ method: 'tools/list', result: { tools: lists.tools } });
	if (lists.prompts.length > 0) exchanges.push({ method: 'prompts/list', result: { prompts: lists.prompts } });
	if (lists.resources.length > 0) exchanges.push({ method: 'resources/list', result: { resources: lists.resources } });
	if (lists.resourceTemplates.length > 0)
		exchanges.push({
			method: 'resources/templates/list',
			result: { resourceTemplates: lists.resourceTemplates },
		});
	return exchanges;
}

/**
 * The session of `server` made from `calls` (any order; those of other servers are ignored), written as the exchange
 * they were, oldest first, after the server's lists.
 */
export function sessionFromCalls(
	server: string,
	calls: readonly PastCall[],
	sources: SessionSources = {},
): SessionFromCalls {
	const secrets = sources.secrets ?? [];
	const own = calls.filter((call) => call.target.server === server).sort((a, b) => a.startedAt - b.startedAt);
	const messages: RecordedMessage[] = [];
	let id = 0;
	const exchange = (method: string, params: Record<string, unknown> | undefined, answer: Record<string, unknown>) => {
		id++;
		const request: Record<string, unknown> = { jsonrpc: '2.0', id, method };
		if (params !== undefined) request.params = params;
		messages.push({ dir: 'out', message: redactMessage(request, secrets) });
		messages.push({ dir: 'in', message: redactMessage({ jsonrpc: '2.0', id, ...answer }, secrets) });
	};
	for (const list of listExchanges(sources.lists)) exchange(list.method, undefined, { result: list.result });
	const skipped: string[] = [];
	let included = 0;
	for (const call of own) {
		const { outcome } = call;
		if (outcome.kind === 'error' && outcome.cancelled) {
			skipped.push(`${labelOf(call.target)}: cancelled, so the server never answered`);
			continue;
		}
		if (call.resultDropped) {
			skipped.push(`${labelOf(call.target)}: its result was too large for the history to keep`);
			continue;
		}
		const { method, params } = requestOf(call.target);
		exchange(
			method,
			params,
			outcome.kind === 'result'
				? { result: outcome.result }
				: { error: { code: FAILED_CALL_CODE, message: outcome.message } },
		);
		included++;
	}
	const handshake = sources.handshake ?? minimalHandshake(server, sources.lists, own);
	const session: SessionFile = {
		format: SESSION_FORMAT,
		server,
		recordedAt: (sources.now ?? new Date()).toISOString(),
		initialize: redactMessage(handshake, secrets) as RecordedHandshake,
		messages,
	};
	return { session, calls: included, skipped };
}
