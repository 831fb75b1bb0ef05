/**
 * The answers of a recorded session (manager/sessionRecording.ts), for `mcp-switchboard replay`'s fake server. Pure:
 * no I/O. A request is answered when the recording has a request with the same method and the same params (ignoring
 * ids and `_meta`, which carry progress tokens and per-request protocol fields that differ from run to run); the
 * handshake (`initialize`, `server/discover`) is answered from the recorded handshake whatever the client sent, and
 * `ping` always. The same request recorded several times is answered with its recordings in turn, the last one
 * repeating. Anything else is unexpected: answered with an error that says so, and counted for the report.
 */
import { SESSION_FORMAT, type RecordedHandshake, type SessionFile } from './sessionRecording';
import { isRecord } from '../common/records';

/** What a replay sends back for one request: a result or a JSON-RPC error. */
export type ReplayAnswer = { result: unknown } | { error: { code: number; message: string; data?: unknown } };

/** JSON-RPC "Method not found", and the code a replay uses for a request it has no recording of. */
export const METHOD_NOT_FOUND = -32601;
export const NOT_RECORDED = -32603;

/** JSON with keys sorted and `_meta` left out, so equal params give equal keys. */
function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (isRecord(value))
		return `{${Object.keys(value)
			.filter((key) => key !== '_meta')
			.sort()
			.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
			.join(',')}}`;
	return JSON.stringify(value) ?? 'null';
}

/** The key a request is matched by: its method and canonical params. */
export function requestKey(method: string, params: unknown): string {
	return `${method} ${params === undefined ? '{}' : canonical(params)}`;
}

/** Reads a session file's text; throws an Error that says what is wrong. */
export function parseSession(text: string): SessionFile {
	const raw = JSON.parse(text) as unknown;
	if (!isRecord(raw) || raw.format !== SESSION_FORMAT || !Array.isArray(raw.messages))
		throw new Error(`not a recorded session (expected "format": "${SESSION_FORMAT}" and "messages")`);
	return raw as unknown as SessionFile;
}

/** A recorded session's answers, consumed as a client asks. */
export class ReplayBook {
	private readonly answers = new Map<string, { list: ReplayAnswer[]; next: number }>();
	private readonly handshake: RecordedHandshake | undefined;
	/** Requests the recording had no answer for, as `method params` lines, in order. */
	readonly unexpected: string[] = [];
	/** How many requests were answered from the recording. */
	answered = 0;

	constructor(readonly session: SessionFile) {
		const requests = new Map<string, string>();
		for (const { dir, message } of session.messages) {
			if (!isRecord(message)) continue;
			const id = message.id;
			if (typeof id !== 'string' && typeof id !== 'number') continue;
			if (dir === 'out' && typeof message.method === 'string') {
				requests.set(String(id), requestKey(message.method, message.params));
			} else if (dir === 'in' && !('method' in message)) {
				const key = requests.get(String(id));
				if (key === undefined) continue;
				requests.delete(String(id));
				const answer: ReplayAnswer =
					'error' in message
						? { error: message.error as { code: number; message: string } }
						: { result: message.result };
				const entry = this.answers.get(key) ?? { list: [], next: 0 };
				entry.list.push(answer);
				this.answers.set(key, entry);
			}
		}
		this.handshake = session.initialize;
	}

	/** How many distinct requests the recording can answer. */
	get size(): number {
		return this.answers.size;
	}

	/** The answer to one request. */
	answer(method: string, params: unknown): ReplayAnswer {
		if (method === 'ping') return { result: {} };
		if (method === 'initialize' && this.handshake) {
			this.answered++;
			return { result: this.handshake };
		}
		const entry = this.answers.get(requestKey(method, params));
		if (entry) {
			this.answered++;
			const answer = entry.list[Math.min(entry.next, entry.list.length - 1)]!;
			entry.next++;
			return answer;
		}
		// A client's probe for the 2026-07-28 era, when the recording spoke the handshake era: the server's refusal.
		if (method === 'server/discover') return { error: { code: METHOD_NOT_FOUND, message: 'Method not found' } };
		const line = requestKey(method, params);
		this.unexpected.push(line.length > 300 ? `${line.slice(0, 300)}…` : line);
		return {
			error: {
				code: NOT_RECORDED,
				message: `Not in the recorded session of '${this.session.server}': ${method} with these params was never recorded`,
			},
		};
	}
}
