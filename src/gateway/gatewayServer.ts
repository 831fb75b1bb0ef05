/**
 * The gateway: a Streamable HTTP MCP endpoint on 127.0.0.1 (random port) that offers the catalog's tools, prompts
 * and resources to one client program — VS Code's own agent — with a random per-window bearer token. Plain Node
 * on the protocol core: each session is a JsonRpcConnection over a SessionTransport.
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
	/** The most sessions kept at once; the least recently used one is closed beyond it. Default 32. */
	maxSessions?: number;
	/** Lifecycle and refusals; the wire at trace level. Default: nothing is logged. */
	logger?: Logger;
	/** Sent as `instructions` in the initialize result; a function is asked at each initialize (it may change). */
	instructions?: string | (() => string | undefined);
	/** The model's context budget (tool search, result caps, the ledger in the log); default: every tool, results whole. */
	context?: GatewayContextOptions;
}

/** A running gateway. */
export interface Gateway extends Disposable {
	/** `http://127.0.0.1:<port>/mcp` */
	readonly url: string;
	readonly token: string;
	/** How many sessions are open (for tests and the status). */
	readonly sessionCount: number;
	/** Stops listening and ends every session. */
	close(): Promise<void>;
}

/** The endpoint's path. */
export const GATEWAY_PATH = '/mcp';
const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Coalesces bursts of changes (a server starting fires state and list events back to back) into one notification. */
const LIST_CHANGED_DELAY_MS = 50;

/** The extra answer headers of every request but initialize: none (shared, never written to). */
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

interface Session {
	transport: SessionTransport;
	connection: JsonRpcConnection;
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

/** What a list_changed notification must tell: a signature of the exposed names. */
function listSignature(catalog: GatewayCatalog): { tools: string; prompts: string; resources: string } {
	return {
		tools: catalog
			.tools()
			.map(
				(named) =>
					`${named.qualifiedName}\u0001${named.tool.description ?? ''}\u0001${JSON.stringify(named.tool.inputSchema)}`,
			)
			.join('\u0000'),
		prompts: catalog
			.prompts()
			.map((named) => named.qualifiedName)
			.join('\u0000'),
		resources: [
			...catalog.resources().map(({ resource }) => resource.uri),
			...catalog.resourceTemplates().map(({ template }) => template.uriTemplate),
		].join('\u0000'),
	};
}

/**
 * Starts the gateway on 127.0.0.1 with a port the system picks. Rejects only when it cannot listen. The catalog's
 * changes reach every session as `notifications/tools/list_changed` (and prompts/resources) on its GET stream.
 */
export async function startGateway(catalog: GatewayCatalog, options: GatewayOptions = {}): Promise<Gateway> {
	const token = options.token ?? randomBytes(32).toString('base64url');
	const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
	const maxSessions = options.maxSessions ?? 32;
	const logger = options.logger ?? nullLogger;
	// Map order is recency: a used session moves to the end, the first is the least recently used.
	const sessions = new Map<string, Session>();
	let port = 0;

	const endSession = (id: string): void => {
		const session = sessions.get(id);
		if (!session) return;
		sessions.delete(id);
		void session.connection.close();
	};

	const newSession = (): Session => {
		const id = randomUUID();
		const transport = new SessionTransport(id);
		// answeredIdMemory 0: the transport refuses an id while it is pending; once answered, a client may reuse it.
		const connection = new JsonRpcConnection(transport, {
			name: `gateway session ${id.slice(0, 8)}`,
			logger,
			answeredIdMemory: 0,
		});
		const context = options.context && new GatewaySessionContext(options.context, logger, id.slice(0, 8));
		registerGatewayMethods(connection, catalog, options.instructions, context);
		const session = { transport, connection };
		sessions.set(id, session);
		while (sessions.size > maxSessions) endSession(sessions.keys().next().value!);
		logger.info(`gateway: session ${id.slice(0, 8)} opened (${sessions.size} open)`);
		return session;
	};

	/** Answers one POST whose body was read (`body` undefined: larger than allowed). */
	const handlePost = (
		req: http.IncomingMessage,
		res: http.ServerResponse,
		sessionId: string | undefined,
		body: Buffer | undefined,
	): void => {
		if (body === undefined) {
			sendError(res, 413, ErrorCode.InvalidRequest, `Request body larger than ${maxBodyBytes} bytes`);
			return;
		}
		let message: unknown;
		try {
			message = JSON.parse(body.toString('utf8'));
		} catch (error) {
			sendError(res, 400, ErrorCode.ParseError, `Parse error: the body is not JSON (${errorMessage(error)})`);
			return;
		}
		if (Array.isArray(message)) {
			// JSON-RPC batches were removed from MCP in 2025-06-18; VS Code never sends them.
			sendError(
				res,
				400,
				ErrorCode.InvalidRequest,
				'Invalid request: JSON-RPC batches are not supported; send one message per POST',
			);
			return;
		}
		const isInit = isRequest(message) && message.method === 'initialize';
		let session: Session | undefined;
		if (isInit) {
			session = newSession();
		} else if (sessionId === undefined) {
			// Spec: servers that require a session id "SHOULD respond to requests without an Mcp-Session-Id header
			// (other than initialization) with HTTP 400 Bad Request".
			sendError(
				res,
				400,
				ErrorCode.InvalidRequest,
				'Bad request: no Mcp-Session-Id header (send initialize first)',
				isRequest(message) ? message.id : null,
			);
			return;
		} else {
			session = sessions.get(sessionId);
			if (!session) {
				// Spec: "The server MAY terminate the session at any time, after which it MUST respond to requests
				// containing that session ID with HTTP 404 Not Found."
				sendError(
					res,
					404,
					ErrorCode.InvalidRequest,
					'Session not found: initialize a new session',
					isRequest(message) ? message.id : null,
				);
				return;
			}
			sessions.delete(sessionId);
			sessions.set(sessionId, session);
		}
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
	};

	/** A POST whose body could not be read, or whose handling threw: logged, and answered 400 if nothing was sent yet. */
	const postFailed = (res: http.ServerResponse, error: unknown): void => {
		logger.warn(`gateway: a POST failed: ${String(error)}`);
		if (!res.headersSent) sendError(res, 400, ErrorCode.InvalidRequest, `Bad request: ${errorMessage(error)}`);
		else res.end();
	};

	const server = http.createServer((req, res) => {
		const refusal = checkRequest(req, port, token);
		if (refusal) {
			logger.warn(`gateway: refused ${req.method ?? '?'} from ${req.socket.remoteAddress ?? '?'}: ${refusal.message}`);
			req.resume();
			sendError(
				res,
				refusal.status,
				ErrorCode.InvalidRequest,
				refusal.message,
				null,
				refusal.status === 401 ? { 'www-authenticate': 'Bearer' } : {},
			);
			return;
		}
		const path = (req.url ?? '').split('?', 1)[0];
		if (path !== GATEWAY_PATH) {
			req.resume();
			sendError(res, 404, ErrorCode.InvalidRequest, `Not found: the MCP endpoint is ${GATEWAY_PATH}`);
			return;
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
			return;
		}
		const sessionHeader = req.headers['mcp-session-id'];
		const sessionId = typeof sessionHeader === 'string' ? sessionHeader : undefined;
		switch (req.method) {
			case 'POST':
				readBody(req, maxBodyBytes, (readError, body) => {
					if (readError) {
						postFailed(res, readError);
						return;
					}
					try {
						handlePost(req, res, sessionId, body);
					} catch (error) {
						postFailed(res, error);
					}
				});
				return;
			case 'GET': {
				req.resume();
				const session = sessionId === undefined ? undefined : sessions.get(sessionId);
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
				return;
			}
			case 'DELETE':
				req.resume();
				if (sessionId === undefined || !sessions.has(sessionId)) {
					sendError(res, 404, ErrorCode.InvalidRequest, 'Session not found');
					return;
				}
				endSession(sessionId);
				res.writeHead(204).end();
				return;
			default:
				req.resume();
				res.writeHead(405, { allow: 'GET, POST, DELETE' }).end();
		}
	});
	// Long tool calls answer late; keep-alive connections are reused by the client between calls.
	server.requestTimeout = 0;
	server.keepAliveTimeout = 60_000;

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		// Loopback only: nothing beyond this machine can connect.
		server.listen(0, '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
	port = (server.address() as AddressInfo).port;
	logger.info(`gateway: listening on http://127.0.0.1:${port}${GATEWAY_PATH}`);

	let signature = listSignature(catalog);
	let timer: ReturnType<typeof setTimeout> | undefined;
	const changeSubscription = catalog.onDidChange(() => {
		if (timer) return;
		timer = setTimeout(() => {
			timer = undefined;
			const next = listSignature(catalog);
			const methods = [
				next.tools !== signature.tools ? 'notifications/tools/list_changed' : undefined,
				next.prompts !== signature.prompts ? 'notifications/prompts/list_changed' : undefined,
				next.resources !== signature.resources ? 'notifications/resources/list_changed' : undefined,
			].filter((method): method is string => method !== undefined);
			signature = next;
			for (const method of methods) {
				for (const session of sessions.values()) session.connection.notify(method).catch(() => undefined);
			}
			if (methods.length > 0) logger.debug(`gateway: sent ${methods.join(', ')} to ${sessions.size} session(s)`);
		}, LIST_CHANGED_DELAY_MS);
	});

	let closing: Promise<void> | undefined;
	const close = (): Promise<void> =>
		(closing ??= (async () => {
			changeSubscription.dispose();
			if (timer) clearTimeout(timer);
			for (const id of [...sessions.keys()]) endSession(id);
			await new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			});
			logger.info('gateway: stopped');
		})());

	return {
		url: `http://127.0.0.1:${port}${GATEWAY_PATH}`,
		token,
		get sessionCount() {
			return sessions.size;
		},
		close,
		dispose: () => void close(),
	};
}
