/**
 * A loopback Streamable HTTP endpoint in front of a stdio server, for Check This Server: the conformance suite's
 * server mode only connects to a URL, and most servers people write speak stdio. Each HTTP session (each
 * `initialize`) gets a fresh server process of its own, started from the configuration, never the user's running
 * instance (the suite calls tools, which may have side effects, and initializes once per scenario, which a stdio
 * server accepts only once per process). Messages pass through unchanged in both directions: the client's requests,
 * notifications and answers go to the process's stdin; what the process writes goes back over the session's HTTP
 * streams (SessionTransport, the gateway's own router): an answer on its request's POST, progress on the POST that
 * carried its token, and anything else the server sends by itself (sampling, elicitation and roots requests,
 * logging, list_changed, resource updates) on the session's GET stream, as the spec allows. stdio carries no
 * relation between a server request and the client request it is for, so the bridge cannot put a sampling request
 * on the stream of the tool call that caused it; a client must listen on GET (the official SDKs do).
 *
 * It listens on 127.0.0.1 on a port the system picks, under a random path (`/mcp/<32 random bytes>`): the suite
 * sends no bearer token, so the path is the secret, and Host and Origin are checked as the gateway checks them.
 * At most `maxSessions` sessions (processes) live at once; the least recently used is closed beyond it (the suite
 * does not end its sessions with DELETE). close() ends every session and resolves once every process has exited.
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
 */
import { randomBytes, randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorMessage } from '../common/errors';
import { nullLogger, type Logger } from '../common/logger';
import {
	ErrorCode,
	isNotification,
	isRequest,
	isResponse,
	type JsonRpcMessage,
	type RequestId,
} from '../protocol/jsonrpc';
import type { Transport } from '../protocol/transports/transport';
import { checkHostAndOrigin, readBody } from './httpChecks';
import { SessionTransport } from './sessionTransport';

export interface StdioBridgeOptions {
	/** Builds the transport of a fresh server process for one session (not started yet; the bridge starts it). */
	spawn(): Transport;
	/** Sessions started, refused requests, process failures. Default: nothing is logged. */
	logger?: Logger;
	/** The most sessions (processes) alive at once; the least recently used one is closed beyond it. Default 4. */
	maxSessions?: number;
	/** The largest request body accepted, in bytes. Default 4 MiB. */
	maxBodyBytes?: number;
}

/** A running bridge. */
export interface StdioBridge {
	/** `http://127.0.0.1:<port>/mcp/<secret>`: the Streamable HTTP endpoint to give the client. */
	readonly url: string;
	/** Sessions open now (each has one process). */
	readonly sessionCount: number;
	/** Sessions opened since the start (each started one process). */
	readonly sessionsStarted: number;
	/** Stops listening, ends every session and resolves once every server process has exited. */
	close(): Promise<void>;
}

interface BridgeSession {
	http: SessionTransport;
	server: Transport;
}

interface BridgeState {
	readonly options: StdioBridgeOptions;
	readonly logger: Logger;
	readonly path: string;
	/** Map order is recency: a used session moves to the end. */
	readonly sessions: Map<string, BridgeSession>;
	/** Sessions being closed (their processes exiting); close() waits for them. */
	readonly closing: Set<Promise<void>>;
	port: number;
	started: number;
	stopped: boolean;
}

function sendError(
	res: http.ServerResponse,
	status: number,
	message: string,
	id: RequestId | null = null,
	code: number = ErrorCode.InvalidRequest,
): void {
	const body = JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });
	res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
	res.end(body);
}

/** Ends one session: its HTTP streams, then its process (awaited by close() through `state.closing`). */
function endSession(state: BridgeState, id: string, why: string): void {
	const session = state.sessions.get(id);
	if (!session) return;
	state.sessions.delete(id);
	state.logger.debug(`stdio bridge: session ${id.slice(0, 8)} ended (${why})`);
	const done = (async () => {
		await session.http.close(`The session ended: ${why}`).catch(() => undefined);
		await session.server.close().catch(() => undefined);
	})();
	state.closing.add(done);
	void done.finally(() => state.closing.delete(done));
}

/** Starts a fresh process for a new session and joins its messages to the session's HTTP streams. */
async function openSession(state: BridgeState): Promise<{ id: string; session: BridgeSession }> {
	const id = randomUUID();
	const server = state.options.spawn();
	state.started++;
	await server.start();
	if (state.stopped) {
		await server.close().catch(() => undefined);
		throw new Error('the bridge was closed while the server started');
	}
	const session: BridgeSession = { http: new SessionTransport(id), server };
	server.onMessage((message) => {
		if (isRequest(message) || isNotification(message) || isResponse(message))
			void session.http.send(message).catch(() => undefined);
		else state.logger.warn(`stdio bridge: the server wrote a JSON value that is not a JSON-RPC message; dropped`);
	});
	session.http.onMessage((message) => {
		session.server.send(message as JsonRpcMessage).catch((error: unknown) => {
			state.logger.warn(`stdio bridge: could not pass a message to the server: ${errorMessage(error)}`);
		});
	});
	server.onClose((reason) => endSession(state, id, `the server process ended: ${reason.message}`));
	state.sessions.set(id, session);
	const excess = [...state.sessions.keys()].slice(
		0,
		Math.max(0, state.sessions.size - (state.options.maxSessions ?? 4)),
	);
	for (const old of excess) endSession(state, old, 'least recently used beyond the limit');
	state.logger.debug(`stdio bridge: session ${id.slice(0, 8)} started a server process (${state.sessions.size} open)`);
	return { id, session };
}

/** The session a non-initialize message names (moved to the end of the recency order), or undefined once refused. */
function sessionOf(
	state: BridgeState,
	res: http.ServerResponse,
	sessionId: string | undefined,
	id: RequestId | null,
): BridgeSession | undefined {
	if (sessionId === undefined) {
		sendError(res, 400, 'Bad request: no Mcp-Session-Id header (send initialize first)', id);
		return undefined;
	}
	const session = state.sessions.get(sessionId);
	if (!session) {
		sendError(res, 404, 'Session not found: initialize a new session', id);
		return undefined;
	}
	state.sessions.delete(sessionId);
	state.sessions.set(sessionId, session);
	return session;
}

/** Answers one POST whose body was read (`body` undefined: larger than allowed). */
async function handlePost(
	state: BridgeState,
	req: http.IncomingMessage,
	res: http.ServerResponse,
	sessionId: string | undefined,
	body: Buffer | undefined,
): Promise<void> {
	if (body === undefined) return sendError(res, 413, 'Request body too large');
	let message: unknown;
	try {
		message = JSON.parse(body.toString('utf8'));
	} catch (error) {
		return sendError(
			res,
			400,
			`Parse error: the body is not JSON (${errorMessage(error)})`,
			null,
			ErrorCode.ParseError,
		);
	}
	if (isRequest(message)) {
		const accept = String(req.headers.accept ?? '');
		const wantsProgress =
			(message.params?._meta as { progressToken?: unknown } | undefined)?.progressToken !== undefined;
		const sse = wantsProgress && accept.includes('text/event-stream');
		if (message.method === 'initialize') {
			let opened: { id: string; session: BridgeSession };
			const opening = openSession(state);
			// close() waits for a process still starting too, so none outlives the bridge.
			const settled = opening.then(
				() => undefined,
				() => undefined,
			);
			state.closing.add(settled);
			void settled.finally(() => state.closing.delete(settled));
			try {
				opened = await opening;
			} catch (error) {
				state.logger.warn(`stdio bridge: the server did not start: ${errorMessage(error)}`);
				return sendError(
					res,
					500,
					`The server did not start: ${errorMessage(error)}`,
					message.id,
					ErrorCode.InternalError,
				);
			}
			opened.session.http.deliverRequest(message, res, sse, { 'mcp-session-id': opened.id });
			return;
		}
		const session = sessionOf(state, res, sessionId, message.id);
		if (!session) return;
		if (session.http.isPending(message.id))
			return sendError(res, 400, `Invalid request: id ${JSON.stringify(message.id)} is already pending`, message.id);
		session.http.deliverRequest(message, res, sse);
		return;
	}
	if (isNotification(message) || isResponse(message)) {
		const session = sessionOf(state, res, sessionId, null);
		if (!session) return;
		session.http.deliver(message);
		res.writeHead(202).end();
		return;
	}
	sendError(
		res,
		400,
		'Invalid request: not one JSON-RPC 2.0 request, notification or response (batches are not accepted)',
	);
}

/** Routes one HTTP request: refused, or POST a message, GET the listening stream, DELETE the session. */
function handleRequest(state: BridgeState, req: http.IncomingMessage, res: http.ServerResponse): void {
	const refusal = checkHostAndOrigin(req, state.port);
	const onPath = (req.url ?? '').split('?', 1)[0] === state.path;
	if (refusal || !onPath || state.stopped) {
		req.resume();
		if (refusal) state.logger.warn(`stdio bridge: refused ${req.method ?? '?'}: ${refusal.message}`);
		return sendError(res, refusal?.status ?? (state.stopped ? 503 : 404), refusal?.message ?? 'Not found');
	}
	const header = req.headers['mcp-session-id'];
	const sessionId = typeof header === 'string' ? header : undefined;
	if (req.method === 'POST') {
		readBody(req, state.options.maxBodyBytes ?? 4 * 1024 * 1024, (readError, body) => {
			if (readError) return void sendError(res, 400, `Bad request: ${errorMessage(readError)}`);
			handlePost(state, req, res, sessionId, body).catch((error: unknown) => {
				if (!res.headersSent) sendError(res, 500, errorMessage(error));
				else res.end();
			});
		});
		return;
	}
	req.resume();
	if (req.method === 'GET') {
		const session = sessionOf(state, res, sessionId, null);
		if (!session) return;
		if (!String(req.headers.accept ?? '').includes('text/event-stream'))
			return sendError(res, 406, 'Not acceptable: the listening stream is text/event-stream');
		session.http.openListening(res);
		return;
	}
	if (req.method === 'DELETE') {
		if (sessionId === undefined || !state.sessions.has(sessionId)) return sendError(res, 404, 'Session not found');
		endSession(state, sessionId, 'the client ended it');
		res.writeHead(204).end();
		return;
	}
	res.writeHead(405, { allow: 'GET, POST, DELETE' }).end();
}

/** Starts a bridge on 127.0.0.1 (a port the system picks). Rejects only when it cannot listen. */
export async function startStdioBridge(options: StdioBridgeOptions): Promise<StdioBridge> {
	const state: BridgeState = {
		options,
		logger: options.logger ?? nullLogger,
		path: `/mcp/${randomBytes(32).toString('base64url')}`,
		sessions: new Map(),
		closing: new Set(),
		port: 0,
		started: 0,
		stopped: false,
	};
	const listener = http.createServer((req, res) => handleRequest(state, req, res));
	// A tool call may take long; the suite's calls are answered when the server answers.
	listener.requestTimeout = 0;
	await new Promise<void>((resolve, reject) => {
		listener.once('error', reject);
		listener.listen(0, '127.0.0.1', () => {
			listener.off('error', reject);
			resolve();
		});
	});
	state.port = (listener.address() as AddressInfo).port;
	let closing: Promise<void> | undefined;
	return {
		url: `http://127.0.0.1:${state.port}${state.path}`,
		get sessionCount() {
			return state.sessions.size;
		},
		get sessionsStarted() {
			return state.started;
		},
		close: () =>
			(closing ??= (async () => {
				state.stopped = true;
				for (const id of [...state.sessions.keys()]) endSession(state, id, 'the bridge closed');
				await new Promise<void>((resolve) => {
					listener.close(() => resolve());
					listener.closeAllConnections();
				});
				while (state.closing.size > 0) await Promise.all([...state.closing]);
			})()),
	};
}
