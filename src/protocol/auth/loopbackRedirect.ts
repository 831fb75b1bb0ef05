import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpError } from '../mcpError';
import { ErrorCode } from '../jsonrpc';
import { errorMessage } from '../../common/errors';

/** A listener on 127.0.0.1 that receives one OAuth redirect. */
export interface LoopbackRedirect {
	/** `http://127.0.0.1:<port><path>`, the URI to register and send as `redirect_uri`. */
	readonly redirectUri: string;
	/**
	 * Resolves with the full URL the browser was sent to (query included) on the first request to the path that
	 * carries the expected state (any request, when no state is expected);
	 * rejects when `close()` is called or the start signal aborts first.
	 */
	readonly redirect: Promise<string>;
	/**
	 * From now on only a request whose `state` parameter is `state` ends the wait: any other request to the path
	 * (an image on a web page, another sign-in's late redirect) is answered 400 and ignored, so it cannot abort the
	 * sign-in in progress. Call it as soon as the authorization URL (which carries the state) is known.
	 */
	expectState(state: string): void;
	/** Stops listening; idempotent. */
	close(): Promise<void>;
}

export interface LoopbackRedirectOptions {
	/** A port to try first (e.g. the one of a stored registration); when it is taken, any free port is used. Default: any. */
	port?: number;
	/** Default `/callback`. */
	path?: string;
	/** Aborting closes the listener and rejects `redirect`. */
	signal?: AbortSignal;
	/** The OAuth `state` the redirect must carry (see LoopbackRedirect.expectState). Default: set later, or none. */
	state?: string;
}

const page = (title: string, text: string) =>
	`<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head>` +
	`<body style="font-family:system-ui,sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p></body></html>`;

/**
 * Starts a one-shot loopback redirect listener (RFC 8252 section 7.3: the IP literal, not `localhost`, so no resolver
 * or firewall rule for names gets involved). It answers the browser with a short page that says whether to go back,
 * and never echoes the code or state into the page.
 * Rejects with an Unauthorized McpError when it cannot listen at all.
 */
export async function startLoopbackRedirect(options: LoopbackRedirectOptions = {}): Promise<LoopbackRedirect> {
	const path = options.path ?? '/callback';
	let settle: { resolve(url: string): void; reject(error: unknown): void } | undefined;
	const redirect = new Promise<string>((resolve, reject) => {
		settle = { resolve, reject };
	});
	// Callers that close without waiting must not see an unhandled rejection.
	redirect.catch(() => {});
	let port = 0;
	let expected: string | undefined = options.state;
	const server = createServer((request, response) => {
		const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
		if (request.method !== 'GET' || url.pathname !== path) {
			response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
			return;
		}
		if (expected !== undefined && url.searchParams.get('state') !== expected) {
			response
				.writeHead(400, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
				.end(page('Not this sign-in', 'This address is waiting for another sign-in. You can close this tab.'));
			return;
		}
		const failed = url.searchParams.get('error');
		response.writeHead(200, {
			'content-type': 'text/html; charset=utf-8',
			'cache-control': 'no-store',
			connection: 'close',
		});
		response.end(
			failed
				? page(
						'Authorization failed',
						'The authorization server reported an error. Return to the editor for details; you can close this tab.',
					)
				: page('Authorization complete', 'You can close this tab and return to the editor.'),
		);
		settle?.resolve(url.href);
	});
	server.keepAliveTimeout = 1000;
	port = await listen(server, options.port ?? 0)
		.catch(async (error: unknown) => {
			if (options.port) {
				return listen(server, 0);
			}
			throw error;
		})
		.catch((error: unknown) => {
			throw new McpError(
				ErrorCode.Unauthorized,
				`OAuth: could not listen on 127.0.0.1 for the redirect: ${errorMessage(error)}`,
			);
		});
	let closed: Promise<void> | undefined;
	const close = () => {
		closed ??= new Promise<void>((resolve) => {
			settle?.reject(
				new McpError(ErrorCode.Unauthorized, 'OAuth: the redirect listener was closed before the browser came back'),
			);
			options.signal?.removeEventListener('abort', onAbort);
			// Let the page that answered the redirect finish writing, then cut whatever the browser keeps open.
			const force = setTimeout(() => server.closeAllConnections(), 250);
			server.close(() => {
				clearTimeout(force);
				resolve();
			});
			server.closeIdleConnections();
		});
		return closed;
	};
	const onAbort = () => void close();
	if (options.signal?.aborted) {
		await close();
	} else {
		options.signal?.addEventListener('abort', onAbort, { once: true });
	}
	const expectState = (state: string) => {
		expected = state;
	};
	return { redirectUri: `http://127.0.0.1:${port}${path}`, redirect, expectState, close };
}

function listen(server: Server, port: number): Promise<number> {
	return new Promise<number>((resolve, reject) => {
		const onError = (error: Error) => reject(error);
		server.once('error', onError);
		server.listen(port, '127.0.0.1', () => {
			server.off('error', onError);
			resolve((server.address() as AddressInfo).port);
		});
	});
}
