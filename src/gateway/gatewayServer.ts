/**
 * The gateway: one Streamable HTTP MCP endpoint per server of the catalog, `/mcp/<server>` on one listener on
 * 127.0.0.1 (random port), each offering that server's tools, prompts and resources to one client program — VS Code's
 * own agent, which sees each as a server of its own — with one random per-window bearer token for all. Plain Node on
 * the protocol core: each session is a JsonRpcConnection over a SessionTransport, bound to one server.
 *
 * Bad input never stops it: a refused request is an HTTP error with a JSON-RPC error body, a bad message a JSON-RPC
 * error, a failing call the server's error; other sessions and servers keep running.
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
 */
import { randomBytes, randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Disposable } from '../common/disposable';
import { nullLogger, type Logger } from '../common/logger';
import { JsonRpcConnection } from '../protocol/connection';
import { ErrorCode, isNotification, isRequest, isResponse, type RequestId } from '../protocol/jsonrpc';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/protocolConstants';
import type { GatewayCatalog } from './catalog';
import { registerGatewayMethods } from './gatewayMethods';
import { GatewaySessionContext, type GatewayContextOptions } from './gatewayContext';
import { checkRequest, readBody } from './httpChecks';
import { SessionTransport } from './sessionTransport';
import { errorMessage } from '../common/errors';

export interface GatewayOptions {
	/** The bearer token clients must send. Default: 32 random bytes, base64url (a new one per gateway). */
	token?: string;
	/** The largest request body accepted, in bytes. Default 4 MiB (tool arguments, not files). */
	maxBodyBytes?: number;
	/** The most sessions kept at once per server; the least recently used one is closed beyond it. Default 32. */
	maxSessions?: number;
	/** Lifecycle and refusals; the wire at trace level. Default: nothing is logged. */
	logger?: Logger;
	/**
	 * Sent as `instructions` in the initialize result; a function is asked for the endpoint's server at each
	 * initialize. Default: the server's own instructions.
	 */
	instructions?: string | ((server: string) => string | undefined);
	/** The model's context budget (tool search, result caps, the ledger in the log); default: every tool, results whole. */
	context?: GatewayContextOptions;
}

/** A running gateway. */
export interface Gateway extends Disposable {
	/** `http://127.0.0.1:<port>/mcp`, under which each server has its endpoint (`urlFor`). */
	readonly url: string;
	/** `http://127.0.0.1:<port>/mcp/<server>`: the endpoint of one server of the catalog. */
	urlFor(server: string): string;
	readonly token: string;
	/** How many sessions are open (for tests and the status). */
	readonly sessionCount: number;
	/** Stops listening and ends every session. */
	close(): Promise<void>;
}

/** The path under which each server has its endpoint, `/mcp/<server, URI-encoded>`. */
export const GATEWAY_PATH = '/mcp';
const SERVER_PATH_PREFIX = `${GATEWAY_PATH}/`;
const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Coalesces bursts of changes (a server starting fires state and list events back to back) into one notification. */
const LIST_CHANGED_DELAY_MS = 50;

/** The extra answer headers of every request but initialize: none (shared, never written to). */
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

interface Session {
	/** The server this session's endpoint offers. */
	server: string;
	transport: SessionTransport;
	connection: JsonRpcConnection;
}

/** The server a request's path names (`/mcp/<server>`), or undefined for any other path. */
function serverOfPath(url: string | undefined): string | undefined {
	const path = (url ?? '').split('?', 1)[0]!;
	if (!path.startsWith(SERVER_PATH_PREFIX)) return undefined;
	const segment = path.slice(SERVER_PATH_PREFIX.length);
	if (!segment || segment.includes('/')) return undefined;
	try {
		return decodeURIComponent(segment);
	} catch {
		return undefined;
	}
}

/** Writes a JSON-RPC error as an HTTP response. */
function sendError(
	res: http.ServerResponse,
	status: number,
	code: number,
	message: string,
	id: RequestId | null = null,
	headers: Record<string, string> = {},
): void {
	const body = JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });
	res.writeHead(
		status,
		Object.assign({}, headers, {
			'content-type': 'application/json',
			'content-length': String(Buffer.byteLength(body)),
		}),
	);
	res.end(body);
}

interface ListSignature {
	tools: string;
	prompts: string;
	resources: string;
}

/** What a list_changed notification must tell: a signature of each server's exposed names, by server. */
function listSignatures(catalog: GatewayCatalog): Map<string, ListSignature> {
	const signatures = new Map<string, ListSignature>();
	const of = (server: string): ListSignature => {
		let signature = signatures.get(server);
		if (!signature) signatures.set(server, (signature = { tools: '', prompts: '', resources: '' }));
		return signature;
	};
	for (const named of catalog.tools())
		of(named.server).tools +=
			`${named.tool.name}\u0001${named.tool.description ?? ''}\u0001${JSON.stringify(named.tool.inputSchema)}\u0000`;
	for (const named of catalog.prompts()) of(named.server).prompts += `${named.prompt.name}\u0000`;
	for (const { server, resource } of catalog.resources()) of(server).resources += `${resource.uri}\u0000`;
	for (const { server, template } of catalog.resourceTemplates())
		of(server).resources += `${template.uriTemplate}\u0000`;
	return signatures;
}

const NO_LISTS: ListSignature = { tools: '', prompts: '', resources: '' };

/** What the request handlers share: the catalog, the options as resolved, and the open sessions. */
interface GatewayState {
	readonly catalog: GatewayCatalog;
	readonly options: GatewayOptions;
	readonly token: string;
	readonly maxBodyBytes: number;
	readonly maxSessions: number;
	readonly logger: Logger;
	/** Map order is recency: a used session moves to the end, the first is the least recently used. */
	readonly sessions: Map<string, Session>;
	/** The port listened on (0 until it listens); a request's Host and Origin must name it. */
	port: number;
}

function endSession(state: GatewayState, id: string): void {
	const session = state.sessions.get(id);
	if (!session) return;
	state.sessions.delete(id);
	void session.connection.close();
}

/** Opens a session on `server`'s endpoint, closing that server's least recently used ones beyond the limit. */
function newSession(state: GatewayState, server: string): Session {
	const { sessions, logger, options } = state;
	const id = randomUUID();
	const transport = new SessionTransport(id);
	// answeredIdMemory 0: the transport refuses an id while it is pending; once answered, a client may reuse it.
	const connection = new JsonRpcConnection(transport, {
		name: `gateway session ${id.slice(0, 8)}`,
		logger,
		answeredIdMemory: 0,
	});
	// read_result appears once the session has a capped result: its client is told to list the tools again.
	const toolsChanged = (): void => void connection.notify('notifications/tools/list_changed').catch(() => undefined);
	const context = options.context && new GatewaySessionContext(options.context, logger, id.slice(0, 8), toolsChanged);
	registerGatewayMethods(connection, state.catalog, server, options.instructions, context);
	const session = { server, transport, connection };
	sessions.set(id, session);
	// The server's least recently used sessions beyond the limit (map order is recency); other servers keep theirs.
	const own = [...sessions].filter(([, other]) => other.server === server);
	for (const [oldId] of own.slice(0, Math.max(0, own.length - state.maxSessions))) endSession(state, oldId);
	logger.info(`gateway: session ${id.slice(0, 8)} for '${server}' opened (${sessions.size} open)`);
	return session;
}

/** The JSON-RPC message of a POST body, or undefined once the POST was answered with an error. */
function parsePostBody(state: GatewayState, res: http.ServerResponse, body: Buffer | undefined): unknown {
	if (body === undefined) {
		sendError(res, 413, ErrorCode.InvalidRequest, `Request body larger than ${state.maxBodyBytes} bytes`);
		return undefined;
	}
	let message: unknown;
	try {
		message = JSON.parse(body.toString('utf8'));
	} catch (error) {
		sendError(res, 400, ErrorCode.ParseError, `Parse error: the body is not JSON (${errorMessage(error)})`);
		return undefined;
	}
	if (Array.isArray(message)) {
		// JSON-RPC batches were removed from MCP in 2025-06-18; VS Code never sends them.
		sendError(
			res,
			400,
			ErrorCode.InvalidRequest,
			'Invalid request: JSON-RPC batches are not supported; send one message per POST',
		);
		return undefined;
	}
	return message;
}

/**
 * The session a POSTed message belongs to: a new one for initialize, else the one its Mcp-Session-Id names (moved to
 * the end of the recency order). Undefined once the POST was answered with an error.
 */
function sessionForPost(
	state: GatewayState,
	res: http.ServerResponse,
	server: string,
	sessionId: string | undefined,
	message: unknown,
): Session | undefined {
	const id = isRequest(message) ? message.id : null;
	if (isRequest(message) && message.method === 'initialize') {
		if (!state.catalog.servers().includes(server)) {
			sendError(res, 404, ErrorCode.InvalidRequest, `Not found: MCP Switchboard offers no server '${server}'`, id);
			return undefined;
		}
		return newSession(state, server);
	}
	if (sessionId === undefined) {
		// Spec: servers that require a session id "SHOULD respond to requests without an Mcp-Session-Id header
		// (other than initialization) with HTTP 400 Bad Request".
		sendError(res, 400, ErrorCode.InvalidRequest, 'Bad request: no Mcp-Session-Id header (send initialize first)', id);
		return undefined;
	}
	const session = state.sessions.get(sessionId);
	if (session?.server !== server) {
		// Spec: "The server MAY terminate the session at any time, after which it MUST respond to requests
		// containing that session ID with HTTP 404 Not Found."
		sendError(res, 404, ErrorCode.InvalidRequest, 'Session not found: initialize a new session', id);
		return undefined;
	}
	state.sessions.delete(sessionId);
	state.sessions.set(sessionId, session);
	return session;
}

/** Answers one POST to `server`'s endpoint whose body was read (`body` undefined: larger than allowed). */
function handlePost(
	state: GatewayState,
	req: http.IncomingMessage,
	res: http.ServerResponse,
	server: string,
	sessionId: string | undefined,
	body: Buffer | undefined,
): void {
	const message = parsePostBody(state, res, body);
	if (message === undefined) return;
	const session = sessionForPost(state, res, server, sessionId, message);
	if (!session) return;
	if (isRequest(message)) {
		if (session.transport.isPending(message.id)) {
			sendError(
				res,
				400,
				ErrorCode.InvalidRequest,
				`Invalid request: id ${JSON.stringify(message.id)} is already in use by a pending request`,
				message.id,
			);
			return;
		}
		const accept = String(req.headers.accept ?? '');
		// A request that asks for progress may be answered as an event stream, so progress can go before the result;
		// it becomes one only when progress does go first (SessionTransport), else the answer is plain JSON.
		const wantsProgress =
			(message.params?._meta as { progressToken?: unknown } | undefined)?.progressToken !== undefined;
		const sse = wantsProgress && accept.includes('text/event-stream');
		const isInit = message.method === 'initialize';
		session.transport.deliverRequest(
			message,
			res,
			sse,
			isInit ? { 'mcp-session-id': session.transport.sessionId } : NO_HEADERS,
		);
		return;
	}
	if (isNotification(message) || isResponse(message)) {
		session.transport.deliver(message);
		// Spec: "If the input is a JSON-RPC response or notification: If the server accepts the input, the server
		// MUST return HTTP status code 202 Accepted with no body."
		res.writeHead(202).end();
		return;
	}
	sendError(
		res,
		400,
		ErrorCode.InvalidRequest,
		'Invalid request: not a JSON-RPC 2.0 request, notification or response',
	);
}

/** A POST whose body could not be read, or whose handling threw: logged, and answered 400 if nothing was sent yet. */
function postFailed(state: GatewayState, res: http.ServerResponse, error: unknown): void {
	state.logger.warn(`gateway: a POST failed: ${String(error)}`);
	if (!res.headersSent) sendError(res, 400, ErrorCode.InvalidRequest, `Bad request: ${errorMessage(error)}`);
	else res.end();
}

/** Opens the listening stream (GET) of the session `sessionId` names on `server`'s endpoint. */
function handleGet(
	state: GatewayState,
	req: http.IncomingMessage,
	res: http.ServerResponse,
	server: string,
	sessionId: string | undefined,
): void {
	const found = sessionId === undefined ? undefined : state.sessions.get(sessionId);
	const session = found?.server === server ? found : undefined;
	if (!session) {
		sendError(
			res,
			sessionId === undefined ? 400 : 404,
			ErrorCode.InvalidRequest,
			sessionId === undefined ? 'Bad request: no Mcp-Session-Id header' : 'Session not found',
		);
		return;
	}
	if (!String(req.headers.accept ?? '').includes('text/event-stream')) {
		sendError(res, 406, ErrorCode.InvalidRequest, 'Not acceptable: the listening stream is text/event-stream');
		return;
	}
	session.transport.openListening(res);
}

/**
 * The server a request is for, or undefined once it was refused (no or a wrong token, a foreign Host or Origin, a
 * path that names no endpoint, an unsupported MCP-Protocol-Version) and answered.
 */
function admittedServer(state: GatewayState, req: http.IncomingMessage, res: http.ServerResponse): string | undefined {
	const refusal = checkRequest(req, state.port, state.token);
	if (refusal) {
		state.logger.warn(
			`gateway: refused ${req.method ?? '?'} from ${req.socket.remoteAddress ?? '?'}: ${refusal.message}`,
		);
		req.resume();
		sendError(
			res,
			refusal.status,
			ErrorCode.InvalidRequest,
			refusal.message,
			null,
			refusal.status === 401 ? { 'www-authenticate': 'Bearer' } : {},
		);
		return undefined;
	}
	const server = serverOfPath(req.url);
	if (server === undefined) {
		req.resume();
		sendError(
			res,
			404,
			ErrorCode.InvalidRequest,
			`Not found: each server's MCP endpoint is ${SERVER_PATH_PREFIX}<server name, URI-encoded>`,
		);
		return undefined;
	}
	const version = req.headers['mcp-protocol-version'];
	if (typeof version === 'string' && !(SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
		req.resume();
		sendError(
			res,
			400,
			ErrorCode.InvalidRequest,
			`Bad request: unsupported MCP-Protocol-Version ${version} (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
		);
		return undefined;
	}
	return server;
}

/** Routes one HTTP request: refused, or by method to a server's endpoint (POST a message, GET listen, DELETE end). */
function handleRequest(state: GatewayState, req: http.IncomingMessage, res: http.ServerResponse): void {
	const server = admittedServer(state, req, res);
	if (server === undefined) return;
	const sessionHeader = req.headers['mcp-session-id'];
	const sessionId = typeof sessionHeader === 'string' ? sessionHeader : undefined;
	switch (req.method) {
		case 'POST':
			readBody(req, state.maxBodyBytes, (readError, body) => {
				if (readError) {
					postFailed(state, res, readError);
					return;
				}
				try {
					handlePost(state, req, res, server, sessionId, body);
				} catch (error) {
					postFailed(state, res, error);
				}
			});
			return;
		case 'GET':
			req.resume();
			handleGet(state, req, res, server, sessionId);
			return;
		case 'DELETE':
			req.resume();
			if (sessionId === undefined || state.sessions.get(sessionId)?.server !== server) {
				sendError(res, 404, ErrorCode.InvalidRequest, 'Session not found');
				return;
			}
			endSession(state, sessionId);
			res.writeHead(204).end();
			return;
		default:
			req.resume();
			res.writeHead(405, { allow: 'GET, POST, DELETE' }).end();
	}
}

/**
 * Tells sessions what changed of their server's lists, coalescing bursts of catalog changes: each session gets the
 * list_changed notifications of the lists that changed; the sessions of servers no longer offered are ended.
 */
function notifyListChanges(state: GatewayState): Disposable {
	const { catalog, sessions, logger } = state;
	let signatures = listSignatures(catalog);
	let timer: ReturnType<typeof setTimeout> | undefined;
	const tellSessions = (): void => {
		const next = listSignatures(catalog);
		const offered = new Set(catalog.servers());
		let told = 0;
		for (const [id, session] of [...sessions]) {
			if (!offered.has(session.server)) {
				endSession(state, id);
				continue;
			}
			const before = signatures.get(session.server) ?? NO_LISTS;
			const after = next.get(session.server) ?? NO_LISTS;
			const methods = [
				after.tools !== before.tools ? 'notifications/tools/list_changed' : undefined,
				after.prompts !== before.prompts ? 'notifications/prompts/list_changed' : undefined,
				after.resources !== before.resources ? 'notifications/resources/list_changed' : undefined,
			];
			for (const method of methods) {
				if (method === undefined) continue;
				session.connection.notify(method).catch(() => undefined);
				told++;
			}
		}
		signatures = next;
		if (told > 0) logger.debug(`gateway: sent ${told} list_changed notification(s)`);
	};
	const changeSubscription = catalog.onDidChange(() => {
		if (timer) return;
		timer = setTimeout(() => {
			timer = undefined;
			tellSessions();
		}, LIST_CHANGED_DELAY_MS);
	});
	return {
		dispose: () => {
			changeSubscription.dispose();
			if (timer) clearTimeout(timer);
		},
	};
}

/** Listens on 127.0.0.1 with a port the system picks; resolves with the port. */
async function listenOnLoopback(server: http.Server): Promise<number> {
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		// Loopback only: nothing beyond this machine can connect.
		server.listen(0, '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
	return (server.address() as AddressInfo).port;
}

/**
 * Starts the gateway on 127.0.0.1 with a port the system picks. Rejects only when it cannot listen. The catalog's
 * changes reach every session as `notifications/tools/list_changed` (and prompts/resources) on its GET stream.
 */
export async function startGateway(catalog: GatewayCatalog, options: GatewayOptions = {}): Promise<Gateway> {
	const state: GatewayState = {
		catalog,
		options,
		token: options.token ?? randomBytes(32).toString('base64url'),
		maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
		maxSessions: options.maxSessions ?? 32,
		logger: options.logger ?? nullLogger,
		sessions: new Map<string, Session>(),
		port: 0,
	};
	const { sessions, logger } = state;

	const server = http.createServer((req, res) => handleRequest(state, req, res));
	// Long tool calls answer late; keep-alive connections are reused by the client between calls.
	server.requestTimeout = 0;
	server.keepAliveTimeout = 60_000;

	const port = (state.port = await listenOnLoopback(server));
	logger.info(`gateway: listening on http://127.0.0.1:${port}${SERVER_PATH_PREFIX}<server>`);

	const listChanges = notifyListChanges(state);

	let closing: Promise<void> | undefined;
	const close = (): Promise<void> =>
		(closing ??= (async () => {
			listChanges.dispose();
			for (const id of [...sessions.keys()]) endSession(state, id);
			await new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			});
			logger.info('gateway: stopped');
		})());

	return {
		url: `http://127.0.0.1:${port}${GATEWAY_PATH}`,
		urlFor: (server) => `http://127.0.0.1:${port}${SERVER_PATH_PREFIX}${encodeURIComponent(server)}`,
		token: state.token,
		get sessionCount() {
			return sessions.size;
		},
		close,
		dispose: () => void close(),
	};
}
