// Metadata discovery for the MCP authorization flow: RFC 9728 (protected resource) and RFC 8414 / OIDC
// (authorization server). Ours rather than oauth4webapi's discoveryRequest: MCP asks for a fallback order over
// several well-known URLs that is not one library call, and for tolerant issuer checks on the root fallback.
import { notJson } from './jsonAnswer';

/** Why one OAuth step failed; the provider turns it into an McpError naming the server. */
export class OAuthStepError extends Error {
	constructor(
		readonly step: string,
		readonly why: string,
		options?: { cause?: unknown },
	) {
		super(`${step} failed: ${why}`, options);
	}
}

/** Protected Resource Metadata (RFC 9728 section 2), the fields the client uses; others pass through. */
export interface ProtectedResourceMetadata {
	resource?: string;
	authorization_servers?: string[];
	scopes_supported?: string[];
	[key: string]: unknown;
}

/** Authorization Server Metadata (RFC 8414 section 2 / OIDC Discovery), the fields the client uses. */
export interface AuthorizationServerMetadata {
	issuer: string;
	authorization_endpoint?: string;
	token_endpoint?: string;
	registration_endpoint?: string;
	scopes_supported?: string[];
	code_challenge_methods_supported?: string[];
	token_endpoint_auth_methods_supported?: string[];
	client_id_metadata_document_supported?: boolean;
	authorization_response_iss_parameter_supported?: boolean;
	[key: string]: unknown;
}

export interface HttpContext {
	fetch: typeof fetch;
	signal?: AbortSignal;
	/** Per request. */
	timeoutMs: number;
}

/** The MCP protocol version sent on metadata requests to the MCP server, as the spec suggests. */
const protocolVersion = '2025-11-25';

/**
 * The canonical URI of an MCP server (RFC 8707 `resource`): lower-case scheme and host (URL does that), no fragment,
 * and no trailing slash on an empty path. "MCP clients MUST use the canonical URI of the MCP server"
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#resource-parameter-implementation).
 */
export function canonicalResourceUri(serverUrl: string): string {
	const url = new URL(serverUrl);
	url.hash = '';
	const href = url.href;
	return url.pathname === '/' && !url.search ? href.slice(0, -1) : href;
}

/** True for http URLs on a loopback host, the only plain-http endpoints the client accepts. */
export function isLoopbackUrl(url: URL): boolean {
	const host = url.hostname.replace(/^\[|\]$/g, '');
	return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Fetches Protected Resource Metadata (RFC 9728) for `serverUrl`: the `resource_metadata` URL from the 401 first,
 * then the path-aware well-known URL (`/.well-known/oauth-protected-resource/<path>`), then the root one.
 * Resolves undefined when none answers a JSON document (the list of what was tried is in `tried`);
 * rejects with OAuthStepError when a document is found but is unusable (e.g. for another resource).
 */
export async function discoverProtectedResource(
	serverUrl: string,
	resourceMetadataUrl: string | undefined,
	http: HttpContext,
	tried: string[],
): Promise<{ metadata: ProtectedResourceMetadata; url: string } | undefined> {
	const server = new URL(serverUrl);
	const candidates: string[] = [];
	if (resourceMetadataUrl) {
		candidates.push(new URL(resourceMetadataUrl, server).href);
	}
	const path = server.pathname.replace(/\/$/, '');
	if (path) {
		candidates.push(new URL(`/.well-known/oauth-protected-resource${path}`, server).href);
	}
	candidates.push(new URL('/.well-known/oauth-protected-resource', server).href);
	for (const url of candidates) {
		const body = await getJson(url, http, tried, { 'mcp-protocol-version': protocolVersion });
		if (body === undefined) {
			continue;
		}
		const metadata = body as ProtectedResourceMetadata;
		if (metadata.resource !== undefined && typeof metadata.resource !== 'string') {
			throw new OAuthStepError('protected resource metadata', `${url} has a "resource" that is not a string`);
		}
		if (metadata.resource && !resourceCovers(metadata.resource, serverUrl)) {
			// RFC 9728 section 3.3: a document for another resource must not be used (it could send tokens elsewhere).
			throw new OAuthStepError(
				'protected resource metadata',
				`${url} describes ${metadata.resource}, which does not cover ${serverUrl}`,
			);
		}
		if (
			!Array.isArray(metadata.authorization_servers) ||
			metadata.authorization_servers.length === 0 ||
			!metadata.authorization_servers.every((s) => typeof s === 'string')
		) {
			throw new OAuthStepError('protected resource metadata', `${url} lists no authorization_servers`);
		}
		if (metadata.scopes_supported !== undefined && !isStringArray(metadata.scopes_supported)) {
			delete metadata.scopes_supported;
		}
		return { metadata, url };
	}
	return undefined;
}

/**
 * The well-known URLs tried for an issuer, in order. With a path, the specification's three: "OAuth 2.0
 * Authorization Server Metadata with path insertion", "OpenID Connect Discovery 1.0 with path insertion", "OpenID
 * Connect Discovery 1.0 path appending"
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-server-metadata-discovery),
 * then RFC 8414 at the root as a last resort for servers that publish only there (never before the three: the
 * conformance suite checks that a client does not ask the root first). Without a path: RFC 8414, then OIDC.
 */
export function authorizationServerMetadataUrls(issuer: string): string[] {
	const url = new URL(issuer);
	const path = url.pathname.replace(/\/$/, '');
	const at = (p: string) => new URL(p, url).href;
	if (!path) {
		return [at('/.well-known/oauth-authorization-server'), at('/.well-known/openid-configuration')];
	}
	return [
		at(`/.well-known/oauth-authorization-server${path}`),
		at(`/.well-known/openid-configuration${path}`),
		at(`${path}/.well-known/openid-configuration`),
		at('/.well-known/oauth-authorization-server'),
	];
}

/**
 * Fetches the metadata of the authorization server `issuer`, trying the URLs of authorizationServerMetadataUrls.
 * The document's `issuer` must be `issuer` (RFC 8414 section 3.3), or the origin for the root RFC 8414 URL, or
 * with `sameOriginIssuer` (protocol 2025-03-26, where the URL came from the MCP server) any issuer on its origin.
 * Resolves undefined when no URL answers a JSON document; rejects with OAuthStepError for an unusable one.
 */
export async function discoverAuthorizationServer(
	issuer: string,
	http: HttpContext,
	tried: string[],
	options: { sameOriginIssuer?: boolean } = {},
): Promise<{ metadata: AuthorizationServerMetadata; url: string } | undefined> {
	const root = new URL('/.well-known/oauth-authorization-server', issuer).href;
	for (const url of authorizationServerMetadataUrls(issuer)) {
		const body = await getJson(url, http, tried);
		if (body === undefined) {
			continue;
		}
		const metadata = body as AuthorizationServerMetadata;
		if (typeof metadata.issuer !== 'string') {
			throw new OAuthStepError('authorization server metadata', `${url} has no "issuer"`);
		}
		const allowed = [
			sameIssuer(metadata.issuer, issuer),
			url === root && sameIssuer(metadata.issuer, new URL(issuer).origin),
			options.sameOriginIssuer === true && sameOrigin(metadata.issuer, issuer),
		];
		if (!allowed.some(Boolean)) {
			throw new OAuthStepError(
				'authorization server metadata',
				`${url} names issuer ${metadata.issuer}, expected ${issuer}`,
			);
		}
		for (const field of ['authorization_endpoint', 'token_endpoint'] as const) {
			if (typeof metadata[field] !== 'string') {
				throw new OAuthStepError('authorization server metadata', `${url} has no ${field}`);
			}
		}
		return { metadata, url };
	}
	return undefined;
}

/** GET a JSON object; undefined (and a line in `tried`) for a non-200, a non-JSON body or a network error. */
async function getJson(
	url: string,
	http: HttpContext,
	tried: string[],
	headers: Record<string, string> = {},
): Promise<Record<string, unknown> | undefined> {
	let response: Response;
	try {
		response = await http.fetch(url, {
			headers: { accept: 'application/json', ...headers },
			signal: requestSignal(http),
		});
	} catch (error) {
		if (http.signal?.aborted) {
			throw error;
		}
		tried.push(`${url} (${describeFetchError(error)})`);
		return undefined;
	}
	if (response.status !== 200) {
		await response.body?.cancel().catch(() => {});
		tried.push(`${url} (${response.status})`);
		return undefined;
	}
	const text = await response.text();
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		const { what, http: answer } = notJson(response.status, response.headers.get('content-type'), text);
		tried.push(`${url} (${answer}: ${what})`);
		return undefined;
	}
	if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
		return body as Record<string, unknown>;
	}
	tried.push(`${url} (200 but not a JSON object)`);
	return undefined;
}

/**
 * The caller's signal combined with the per-request timeout, whose reason (what fetch rejects with) is a TimeoutError
 * saying how long it waited: "no answer within 30 s".
 */
export function requestSignal(http: HttpContext): AbortSignal {
	const timeout = new AbortController();
	const seconds = http.timeoutMs / 1000;
	const reason = new DOMException(`no answer within ${seconds >= 1 ? Math.round(seconds) : seconds} s`, 'TimeoutError');
	setTimeout(() => timeout.abort(reason), http.timeoutMs).unref();
	return http.signal ? AbortSignal.any([http.signal, timeout.signal]) : timeout.signal;
}

/** A short reason for a fetch that threw (undici hides the useful part in `cause`). */
export function describeFetchError(error: unknown): string {
	if (error instanceof Error) {
		if (error.name === 'TimeoutError') {
			return error.message.startsWith('no answer within') ? error.message : 'timed out';
		}
		const cause = (error as { cause?: unknown }).cause;
		if (cause instanceof Error) {
			return `${error.message}: ${cause.message}`;
		}
		return error.message;
	}
	return String(error);
}

// The resource's origin matches and the server URL's path starts with the resource's path.
function resourceCovers(resource: string, serverUrl: string): boolean {
	try {
		const r = new URL(resource);
		const s = new URL(serverUrl);
		if (r.origin !== s.origin) {
			return false;
		}
		const rPath = r.pathname.endsWith('/') ? r.pathname : `${r.pathname}/`;
		const sPath = s.pathname.endsWith('/') ? s.pathname : `${s.pathname}/`;
		return sPath.startsWith(rPath);
	} catch {
		return false;
	}
}

function sameOrigin(a: string, b: string): boolean {
	try {
		return new URL(a).origin === new URL(b).origin;
	} catch {
		return false;
	}
}

function sameIssuer(a: string, b: string): boolean {
	return a.replace(/\/$/, '') === b.replace(/\/$/, '');
}

function isStringArray(value: unknown): value is string[] {
	return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/** What discovery found for one authorization. */
export interface Discovered {
	as: AuthorizationServerMetadata;
	/** The canonical resource URI (RFC 8707 `resource`). */
	resource: string;
	prm: { metadata: ProtectedResourceMetadata; url: string } | undefined;
	/** Set when nothing was found and `as` holds the 2025-03-26 default endpoints: what was tried. */
	noMetadata?: string;
}

/**
 * Which authorization server protects this resource (RFC 9728 protected resource metadata), and what it supports
 * (RFC 8414 / OIDC discovery). Servers of protocol 2025-03-26 have no resource metadata: then the server's origin
 * is the authorization server, its metadata at the origin's well-known URL, and without any metadata the default
 * endpoints /authorize, /token and /register of that origin
 * (https://modelcontextprotocol.io/specification/2025-03-26/basic/authorization#2-3-3-fallbacks-for-servers-without-metadata-discovery).
 */
export async function discoverAuthorization(
	serverUrl: string,
	challenge: Record<string, string>,
	http: HttpContext,
	info: (message: string) => void,
): Promise<Discovered> {
	const prmTried: string[] = [];
	const prm = await discoverProtectedResource(serverUrl, challenge.resource_metadata, http, prmTried);
	const origin = new URL(serverUrl).origin;
	let issuers: string[];
	if (prm) {
		issuers = prm.metadata.authorization_servers ?? [];
		info(`protected resource metadata from ${prm.url} names ${issuers.join(', ')}`);
	} else {
		issuers = [origin];
		info(
			`no protected resource metadata (${prmTried.join(', ')}); trying the server's origin as authorization server (protocol 2025-03-26)`,
		);
	}
	const asTried: string[] = [];
	let found: { metadata: AuthorizationServerMetadata; url: string } | undefined;
	for (const issuer of issuers) {
		// 2025-03-26 derived the metadata URL from the server, not from an issuer: any issuer on the same origin is
		// that server's authorization server there (the conformance suite serves issuer <origin>/oauth).
		found = await discoverAuthorizationServer(issuer, http, asTried, { sameOriginIssuer: !prm });
		if (found) {
			break;
		}
	}
	let noMetadata: string | undefined;
	if (!found && !prm) {
		noMetadata = `no protected resource metadata at ${prmTried.join(', ')}, and no authorization server metadata at ${asTried.join(', ')}`;
		info(
			`no authorization server metadata (${asTried.join(', ')}); using the default endpoints /authorize, /token and /register of ${origin}`,
		);
		found = {
			url: origin,
			metadata: {
				issuer: origin,
				authorization_endpoint: `${origin}/authorize`,
				token_endpoint: `${origin}/token`,
				registration_endpoint: `${origin}/register`,
				// 2025-03-26: "PKCE is REQUIRED for all clients"; with no metadata there is nothing to advertise it.
				code_challenge_methods_supported: ['S256'],
			},
		};
	}
	if (!found) {
		throw new OAuthStepError(
			'authorization server metadata discovery',
			`no metadata for ${issuers.join(', ')} at ${asTried.join(', ')}`,
		);
	}
	info(`authorization server ${found.metadata.issuer} (metadata from ${found.url})`);
	// "MCP clients MUST use the canonical URI of the MCP server": the resource's own identifier when it names one.
	const resource = canonicalResourceUri(prm?.metadata.resource ?? serverUrl);
	return { as: found.metadata, resource, prm, noMetadata };
}
