// The vscode-free half of the @mcp chat participant: how tool results, tool lists and chat history become text.
// Kept apart from chatParticipant.ts so unit tests run under plain node.
import type { NamedTool, ServerView } from '../../manager/manager';
import type { CallToolResult, ContentBlock } from '../../protocol/schema';

/** The most tool-calling rounds one chat request may run before it stops and says so. */
export const MAX_TOOL_ROUNDS = 10;

/** The most characters of one tool result sent back to the model (the rest is cut with a note). */
export const MAX_RESULT_CHARS = 50_000;

/** What the user sees while a tool runs, e.g. "Calling everything › echo…" (with the server's progress message, if any). */
export function progressLabel(server: string, tool: string, message?: string): string {
	const detail = message?.trim() ? `: ${message.trim()}` : '';
	return `Calling ${server} › ${tool}…${detail}`;
}

/** One content block as text for the model: text as is, anything else as a short bracketed description. */
function blockText(block: ContentBlock): string {
	switch (block.type) {
		case 'text':
			return String(block.text);
		case 'image':
		case 'audio':
			return `[${block.type} ${String(block.mimeType)}, not shown]`;
		case 'resource_link':
			return `[resource link ${String(block.name)}: ${String(block.uri)}]`;
		case 'resource': {
			const resource = block.resource as { uri?: unknown; text?: unknown; mimeType?: unknown };
			if (typeof resource.text === 'string') return `[resource ${String(resource.uri)}]\n${resource.text}`;
			return `[resource ${String(resource.uri)}${typeof resource.mimeType === 'string' ? ` (${resource.mimeType})` : ''}, binary, not shown]`;
		}
		default:
			return `[${String((block as { type?: unknown }).type)} content]`;
	}
}

/**
 * A tool result as the text the model receives: the content blocks' text, then the structured content as JSON,
 * prefixed "Tool error:" when the server set `isError`. Empty results say so (a model handles "" badly).
 * Cut to `maxChars` (default {@link MAX_RESULT_CHARS}) with a note. Never throws on odd content.
 */
export function toolResultText(result: CallToolResult, maxChars = MAX_RESULT_CHARS): string {
	const parts = (result.content ?? []).map((block) => blockText(block as ContentBlock));
	if (result.structuredContent !== undefined) parts.push(`Structured content:\n${JSON.stringify(result.structuredContent)}`);
	let text = parts.join('\n');
	if (!text) text = '(the tool returned no content)';
	if (result.isError === true) text = `Tool error: ${text}`;
	if (text.length > maxChars) text = `${text.slice(0, maxChars)}\n[cut: ${text.length - maxChars} more characters]`;
	return text;
}

/** A failed call (thrown, not `isError`) as the error text the model receives, naming server and tool. */
export function toolFailureText(server: string, tool: string, error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	const first = message.split('\n', 1)[0] ?? message;
	return `Tool error: ${server} › ${tool} failed: ${first.length > 500 ? `${first.slice(0, 499)}…` : first}`;
}

/** Markdown inline code that survives backticks in the value. */
function code(value: string): string {
	const ticks = value.includes('`') ? '``' : '`';
	return `${ticks}${value}${ticks}`;
}

/** One line of Markdown-safe plain text (no line breaks, no leading list/heading markers taking effect). */
function oneLine(value: string, max = 200): string {
	const line = value.replace(/\s+/g, ' ').trim();
	const cut = line.length > max ? `${line.slice(0, max - 1)}…` : line;
	return cut.replace(/([\\*_[\]<>#|])/g, '\\$1');
}

/**
 * The `/tools` answer: per running server a heading and one line per tool (qualified name in code, description),
 * servers that are configured but not running listed with their state. Says so when nothing is configured.
 */
export function toolsMarkdown(servers: readonly Pick<ServerView, 'name' | 'state' | 'tools'>[], describe: (server: Pick<ServerView, 'state'>) => string): string {
	if (servers.length === 0) return 'No MCP server is configured.';
	const lines: string[] = [];
	const notRunning: string[] = [];
	for (const server of servers) {
		if (server.state.kind !== 'running') {
			notRunning.push(`- ${oneLine(server.name)}: ${oneLine(describe(server))}`);
			continue;
		}
		lines.push(`### ${oneLine(server.name)}`, '');
		if (server.tools.length === 0) lines.push('No tools.');
		for (const named of server.tools) {
			const description = named.tool.description ?? named.tool.title ?? '';
			lines.push(`- ${code(named.qualifiedName)}${description ? ` — ${oneLine(description)}` : ''}`);
		}
		lines.push('');
	}
	if (lines.length === 0) lines.push('No MCP server is running.', '');
	if (notRunning.length > 0) lines.push('Not running:', '', ...notRunning);
	return lines.join('\n').trimEnd();
}

/** The model-facing description of a tool: its description, else its title, else its name (never empty). */
export function toolDescription(named: NamedTool): string {
	return named.tool.description?.trim() || named.tool.title?.trim() || `${named.tool.name} (from the MCP server ${named.server})`;
}

/** The JSON Schema sent for a tool: the tool's input schema, or an empty object schema when it has none. */
export function toolInputSchema(named: NamedTool): object {
	const schema = named.tool.inputSchema as object | undefined;
	return schema && typeof schema === 'object' ? schema : { type: 'object', properties: {} };
}
