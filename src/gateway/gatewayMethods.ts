/**
 * The MCP server methods of one server's endpoint on the gateway, registered on one session's JsonRpcConnection:
 * the handshake (announcing that server, so VS Code names its tools `mcp_<server>_<tool>`), and that server's tools,
 * prompts and resources under their own names, forwarded through the catalog with the caller's cancellation and
 * progress. A session reaches one server only: nothing it sends is ever shown to another server.
 * Spec (server features): https://modelcontextprotocol.io/specification/2025-11-25/server
 */
import type { JsonRpcConnection } from '../protocol/connection';
import { McpError } from '../protocol/mcpError';
import { SUPPORTED_PROTOCOL_VERSIONS, LATEST_PROTOCOL_VERSION } from '../protocol/protocolConstants';
import type { Progress, Tool } from '../protocol/schema';
import type { NamedTool } from '../manager/types';
import type { GatewayCatalog } from './catalog';
import type { GatewaySessionContext } from './gatewayContext';

/** The version announced by an endpoint whose server does not run (its own is not known then). */
const GATEWAY_VERSION = '0.1.0';

/**
 * What a tool looks like to the gateway's clients: the server's own tool, its description on one line (VS Code's
 * *Configure Tools* shows each line break as a "⏎" glyph).
 */
function exposedTool(named: NamedTool): Tool {
	const description = named.tool.description?.trim().replace(/\s*\n\s*/g, ' ');
	return description === named.tool.description ? named.tool : { ...named.tool, description };
}

/** One server's tools as a session offers them, and each by its own name; rebuilt when the catalog's list changes. */
interface ExposedTools {
	source: readonly NamedTool[];
	/** The endpoint's server's tools, in the order of `tools`. */
	own: NamedTool[];
	tools: Tool[];
	byName: Map<string, NamedTool>;
}

function exposeTools(source: readonly NamedTool[], server: string): ExposedTools {
	const own = source.filter((named) => named.server === server);
	return { source, own, tools: own.map(exposedTool), byName: new Map(own.map((named) => [named.tool.name, named])) };
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
 * Registers the methods of `server`'s endpoint on `connection`. Unknown methods are answered MethodNotFound by the
 * connection; a tool or prompt that is unknown, disabled or whose server stopped is an InvalidParams error naming it.
 * `instructions` (a function is asked at each initialize) go into the initialize result; without them, the server's
 * own.
 */
export function registerGatewayMethods(
	connection: JsonRpcConnection,
	catalog: GatewayCatalog,
	server: string,
	instructions?: string | ((server: string) => string | undefined),
	budget?: GatewaySessionContext,
): void {
	let exposed: ExposedTools | undefined;
	const currentTools = (): ExposedTools => {
		const source = catalog.tools();
		if (exposed?.source !== source) exposed = exposeTools(source, server);
		return exposed;
	};

	connection.setRequestHandler('initialize', (params) => {
		const requested = params?.protocolVersion;
		// Spec: "If the server supports the requested protocol version, it MUST respond with the same version.
		// Otherwise, the server MUST respond with another protocol version it supports."
		const protocolVersion =
			typeof requested === 'string' && (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(requested)
				? requested
				: LATEST_PROTOCOL_VERSION;
		// VS Code prefixes the tools with `title || name` (cut to 13 characters): the title is the name the user gave.
		const own = catalog.serverIdentity?.(server);
		const text =
			instructions === undefined
				? own?.instructions
				: typeof instructions === 'function'
					? instructions(server)
					: instructions;
		return {
			protocolVersion,
			capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { listChanged: true } },
			serverInfo: { name: own?.name ?? server, title: server, version: own?.version ?? GATEWAY_VERSION },
			...(text ? { instructions: text } : {}),
		};
	});
	connection.setNotificationHandler('notifications/initialized', () => undefined);

	connection.setRequestHandler('tools/list', () => {
		const listed = currentTools();
		return { tools: budget ? budget.tools(listed.tools, listed.own) : listed.tools };
	});

	connection.setRequestHandler('tools/call', (params, context) => {
		let name = stringParam(params, 'name', 'tools/call');
		let args = objectParam(params, 'arguments', 'tools/call') ?? {};
		// search_tools, read_result and call_tool of tool search and result caps (gatewayContext.ts), over this
		// endpoint's server's tools.
		const own = budget?.ownCall(name, args, () => currentTools().own);
		if (own && 'result' in own) return own.result;
		if (own) ({ name, args } = own);
		const listed = currentTools();
		// call_tool names what search_tools answered (the tool's own name), or a qualified name a model knows from @mcp.
		const named = listed.byName.get(name) ?? listed.own.find((tool) => tool.qualifiedName === name);
		if (!named)
			throw McpError.invalidParams(
				`Unknown tool: ${name} (it is not an enabled tool of the running server '${server}' in MCP Switchboard)`,
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
			.callTool(server, named.tool.name, args, { cancelWith: context, onProgress })
			.then((result) => (budget ? budget.result(named, result) : result));
	});

	const ownPrompts = () => catalog.prompts().filter((named) => named.server === server);
	connection.setRequestHandler('prompts/list', () => ({
		prompts: ownPrompts().map((named) => named.prompt),
	}));

	connection.setRequestHandler('prompts/get', (params, context) => {
		const name = stringParam(params, 'name', 'prompts/get');
		const args = objectParam(params, 'arguments', 'prompts/get');
		if (args && Object.values(args).some((value) => typeof value !== 'string'))
			throw McpError.invalidParams('prompts/get: every argument value must be a string');
		if (!ownPrompts().some((named) => named.prompt.name === name))
			throw McpError.invalidParams(
				`Unknown prompt: ${name} (it is not a prompt of the running server '${server}' in MCP Switchboard)`,
			);
		return catalog.getPrompt(server, name, args as Record<string, string> | undefined, { cancelWith: context });
	});

	connection.setRequestHandler('resources/list', () => ({
		resources: catalog.resources().flatMap((own) => (own.server === server ? [own.resource] : [])),
	}));

	connection.setRequestHandler('resources/templates/list', () => ({
		resourceTemplates: catalog.resourceTemplates().flatMap((own) => (own.server === server ? [own.template] : [])),
	}));

	// Any URI goes to this endpoint's server, the only one the session speaks for (it came from that server's list, a
	// template or a tool's link); no other server ever learns it, so none can answer with its own content.
	connection.setRequestHandler('resources/read', (params, context) =>
		catalog.readResource(server, stringParam(params, 'uri', 'resources/read'), { cancelWith: context }),
	);
}
