/**
 * The MCP server methods the gateway answers, registered on one session's JsonRpcConnection: the handshake, and
 * tools, prompts and resources of the catalog under their gateway names, forwarded through the catalog with the
 * caller's cancellation and progress.
 * Spec (server features): https://modelcontextprotocol.io/specification/2025-11-25/server
 */
import type { JsonRpcConnection } from '../protocol/connection';
import { ErrorCode } from '../protocol/jsonrpc';
import { McpError } from '../protocol/mcpError';
import { SUPPORTED_PROTOCOL_VERSIONS, LATEST_PROTOCOL_VERSION } from '../protocol/protocolConstants';
import type { CallToolResult, Progress, Tool } from '../protocol/schema';
import type { NamedTool } from '../manager/types';
import type { GatewayCatalog } from './catalog';
import { serversForUri } from '../manager/uriTemplate';
import type { GatewaySessionContext } from './gatewayContext';

/** The resource links a session's tool results gave, by URI, so reading one goes to the server that linked it. */
class ResourceLinks {
	private static readonly MAX = 1000;
	private readonly byUri = new Map<string, string>();

	note(server: string, result: CallToolResult): void {
		for (const block of result.content ?? []) {
			if (block.type !== 'resource_link' || typeof block.uri !== 'string') continue;
			this.byUri.delete(block.uri);
			this.byUri.set(block.uri, server);
			if (this.byUri.size > ResourceLinks.MAX) this.byUri.delete(this.byUri.keys().next().value!);
		}
	}

	serverOf(uri: string): string | undefined {
		return this.byUri.get(uri);
	}
}

/** The gateway's serverInfo. */
export const GATEWAY_SERVER_INFO = {
	name: 'mcp-switchboard-gateway',
	title: 'MCP Switchboard',
	version: '0.1.0',
} as const;

/**
 * What a tool looks like to the gateway's clients: the server's tool under its qualified name, the rest as is. The
 * description is one line: VS Code's *Configure Tools* shows each line break as a "⏎" glyph.
 */
function exposedTool(named: NamedTool): Tool {
	const server = `(from the MCP server '${named.server}' in MCP Switchboard)`;
	const own = named.tool.description?.trim().replace(/\s*\n\s*/g, ' ');
	const description = own ? `${own} ${server}` : `${named.tool.title ?? named.tool.name} ${server}`;
	return { ...named.tool, name: named.qualifiedName, title: named.tool.title ?? named.tool.name, description };
}

function objectParam(
	params: Record<string, unknown> | undefined,
	key: string,
	method: string,
): Record<string, unknown> | undefined {
	const value = params?.[key];
	if (value === undefined) return undefined;
	if (typeof value !== 'object' || value === null || Array.isArray(value))
		throw McpError.invalidParams(`${method}: '${key}' must be an object`);
	return value as Record<string, unknown>;
}

function stringParam(params: Record<string, unknown> | undefined, key: string, method: string): string {
	const value = params?.[key];
	if (typeof value !== 'string' || !value)
		throw McpError.invalidParams(`${method}: '${key}' must be a non-empty string`);
	return value;
}

/** The caller's progress token, when it asked for progress. */
function progressToken(params: Record<string, unknown> | undefined): string | number | undefined {
	const token = (params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
	return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

/**
 * Registers the gateway's methods on `connection`. Unknown methods are answered MethodNotFound by the connection;
 * a tool, prompt or resource that is unknown, disabled or whose server stopped is an InvalidParams error naming it.
 */
export function registerGatewayMethods(
	connection: JsonRpcConnection,
	catalog: GatewayCatalog,
	instructions?: string | (() => string | undefined),
	budget?: GatewaySessionContext,
): void {
	let exposed: { source: readonly NamedTool[]; tools: Tool[] } | undefined;
	const links = new ResourceLinks();

	connection.setRequestHandler('initialize', (params) => {
		const requested = params?.protocolVersion;
		// Spec: "If the server supports the requested protocol version, it MUST respond with the same version.
		// Otherwise, the server MUST respond with another protocol version it supports."
		const protocolVersion =
			typeof requested === 'string' && (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(requested)
				? requested
				: LATEST_PROTOCOL_VERSION;
		const text = typeof instructions === 'function' ? instructions() : instructions;
		return {
			protocolVersion,
			capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { listChanged: true } },
			serverInfo: GATEWAY_SERVER_INFO,
			...(text ? { instructions: text } : {}),
		};
	});
	connection.setNotificationHandler('notifications/initialized', () => undefined);

	connection.setRequestHandler('tools/list', () => {
		const source = catalog.tools();
		if (exposed?.source !== source) exposed = { source, tools: source.map(exposedTool) };
		return { tools: budget ? budget.tools(exposed.tools, source) : exposed.tools };
	});

	connection.setRequestHandler('tools/call', (params, context) => {
		let name = stringParam(params, 'name', 'tools/call');
		let args = objectParam(params, 'arguments', 'tools/call') ?? {};
		// search_tools, read_result and call_tool of tool search and result caps (gatewayContext.ts).
		const own = budget?.ownCall(name, args, () => catalog.tools());
		if (own && 'result' in own) return own.result;
		if (own) ({ name, args } = own);
		const named = catalog.findTool(name);
		if (!named)
			throw McpError.invalidParams(
				`Unknown tool: ${name} (it is not an enabled tool of a running server in MCP Switchboard)`,
			);
		const token = progressToken(params);
		const onProgress =
			token === undefined
				? undefined
				: (progress: Progress) => {
						const { progress: value, total, message } = progress;
						connection
							.notify('notifications/progress', {
								progressToken: token,
								progress: value,
								...(total !== undefined ? { total } : {}),
								...(message !== undefined ? { message } : {}),
							})
							.catch(() => undefined);
					};
		// cancelWith, not a signal: the caller's cancellation reaches the server's request with no AbortSignal made.
		return catalog
			.callTool(named.server, named.tool.name, args, { cancelWith: context, onProgress })
			.then((result) => (links.note(named.server, result), budget ? budget.result(named, result) : result));
	});

	connection.setRequestHandler('prompts/list', () => ({
		prompts: catalog
			.prompts()
			.map((named) => ({ ...named.prompt, name: named.qualifiedName, title: named.prompt.title ?? named.prompt.name })),
	}));

	connection.setRequestHandler('prompts/get', (params, context) => {
		const name = stringParam(params, 'name', 'prompts/get');
		const args = objectParam(params, 'arguments', 'prompts/get');
		if (args && Object.values(args).some((value) => typeof value !== 'string'))
			throw McpError.invalidParams('prompts/get: every argument value must be a string');
		const named = catalog.prompts().find((prompt) => prompt.qualifiedName === name);
		if (!named)
			throw McpError.invalidParams(
				`Unknown prompt: ${name} (it is not a prompt of a running server in MCP Switchboard)`,
			);
		return catalog.getPrompt(named.server, named.prompt.name, args as Record<string, string> | undefined, {
			cancelWith: context,
		});
	});

	connection.setRequestHandler('resources/list', () => {
		const seen = new Set<string>();
		const resources = catalog
			.resources()
			.flatMap(({ resource }) => (seen.has(resource.uri) ? [] : (seen.add(resource.uri), [resource])));
		return { resources };
	});

	connection.setRequestHandler('resources/templates/list', () => ({
		resourceTemplates: catalog.resourceTemplates().map(({ template }) => template),
	}));

	connection.setRequestHandler('resources/read', async (params, context) => {
		const uri = stringParam(params, 'uri', 'resources/read');
		const listed = catalog.resources().find(({ resource }) => resource.uri === uri);
		if (listed) return catalog.readResource(listed.server, uri, { cancelWith: context });
		// Not listed: it may come from a tool's resource link (the server whose tool linked it answers) or a template
		// (only the server whose template matches it answers). Never every server in turn: another server would learn
		// the URI and could answer with its own content, which the agent trusts.
		const linkedBy = links.serverOf(uri);
		const servers = linkedBy !== undefined ? [linkedBy] : serversForUri(uri, catalog.resourceTemplates());
		if (servers.length === 1) return catalog.readResource(servers[0]!, uri, { cancelWith: context });
		throw new McpError(
			ErrorCode.ResourceNotFound,
			servers.length === 0
				? `Resource not found: ${uri} (no server in MCP Switchboard lists it or has a template that matches it)`
				: `Resource not found: ${uri} (the templates of ${servers.map((s) => `'${s}'`).join(' and ')} match it equally, so none is asked)`,
			{ uri },
		);
	});
}
