// The vscode-free half of the @mcp chat participant: how tool results, tool lists and chat history become text.
// Kept apart from chatParticipant.ts so unit tests run under plain node.
import type { NamedTool, ServerView } from '../../manager/manager';
import type { CallToolResult, ContentBlock, ReadResourceResult } from '../../protocol/schema';
import { base64Size, textOf } from '../../common/text';
import { errorMessage } from '../../common/errors';
import { visibleToModel } from '../../manager/apps/appMeta';

/** The most tool-calling rounds one chat request may run before it stops and says so. */
export const MAX_TOOL_ROUNDS = 10;

/** The most characters of one tool result sent back to the model (the rest is cut with a note). */
export const MAX_RESULT_CHARS = 50_000;

/** What the user sees while a tool runs, e.g. "Calling everything › echo…" (with the server's progress message, if any). */
export function progressLabel(server: string, tool: string, message?: string): string {
	const detail = message?.trim() ? `: ${message.trim()}` : '';
	return `Calling ${server} › ${tool}…${detail}`;
}

/**
 * Image types the chat models behind VS Code's language model API take as input (VS Code's own list for chat image
 * attachments); other images are described instead of sent.
 */
export const MODEL_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The largest image sent to the model, in bytes (larger ones are described: providers refuse big images). */
export const MAX_MODEL_IMAGE_BYTES = 5 * 1024 * 1024;

/** One part of what a tool result gives the model: text, or an image as bytes (a data part at the edge). */
export type ModelPart =
	{ kind: 'text'; text: string } | { kind: 'image'; mimeType: string; data: Uint8Array; label: string };

const READ_HINT = 'the user can attach it with `@mcp /read <uri>`';

/** Name, URI, type and description of a linked or embedded resource, for the model. */
function resourceLabel(
	kind: string,
	fields: { uri?: unknown; name?: unknown; title?: unknown; mimeType?: unknown; description?: unknown },
	extra = '',
): string {
	const name =
		typeof fields.title === 'string' ? fields.title : typeof fields.name === 'string' ? fields.name : undefined;
	const details = [
		`uri ${textOf(fields.uri, '(none)')}`,
		name ? `name "${name}"` : undefined,
		typeof fields.mimeType === 'string' ? `type ${fields.mimeType}` : undefined,
		extra || undefined,
		typeof fields.description === 'string' && fields.description.trim()
			? `description "${fields.description.trim()}"`
			: undefined,
	].filter((detail): detail is string => detail !== undefined);
	return `[${kind}: ${details.join(', ')}]`;
}

/** The bytes of an image the model can take, or why not (as the text to send instead). */
function modelImage(mimeType: unknown, base64: unknown): { data: Uint8Array } | { why: string } {
	if (typeof base64 !== 'string' || !base64) return { why: 'no data' };
	if (typeof mimeType !== 'string' || !MODEL_IMAGE_TYPES.has(mimeType.toLowerCase()))
		return { why: 'not sent: the model takes PNG, JPEG, GIF and WebP images' };
	const data = Buffer.from(base64, 'base64');
	if (data.byteLength === 0) return { why: 'not valid base64' };
	if (data.byteLength > MAX_MODEL_IMAGE_BYTES)
		return { why: `not sent: larger than ${MAX_MODEL_IMAGE_BYTES / 1024 / 1024} MB` };
	return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

/**
 * A resource's contents (embedded in a result, or read) as parts: its text under its label, an image the model takes
 * as the image after the label, other binary content described (`binaryNote` says how to get it).
 */
function contentParts(kind: string, resource: Record<string, unknown>, binaryNote: string): ModelPart[] {
	if (typeof resource.text === 'string')
		return [{ kind: 'text', text: `${resourceLabel(kind, resource)}\n${resource.text}` }];
	const size = base64Size(textOf(resource.blob));
	const image = modelImage(resource.mimeType, resource.blob);
	if ('data' in image) {
		return [
			{ kind: 'text', text: resourceLabel(kind, resource, `${size}, sent as the image that follows`) },
			{
				kind: 'image',
				mimeType: String(resource.mimeType).toLowerCase(),
				data: image.data,
				label: resourceLabel(kind, resource, `image, ${size}`),
			},
		];
	}
	return [{ kind: 'text', text: resourceLabel(kind, resource, `binary, ${size}, not shown; ${binaryNote}`) }];
}

/** One content block as parts for the model: text as is, images as images where the model takes them, the rest described. */
function blockParts(block: ContentBlock): ModelPart[] {
	const b = block as Record<string, unknown>;
	switch (b.type) {
		case 'text':
			return [{ kind: 'text', text: textOf(b.text) }];
		case 'image': {
			const label = `[image ${textOf(b.mimeType, '(no type)')}, ${base64Size(textOf(b.data))}`;
			const image = modelImage(b.mimeType, b.data);
			return 'data' in image
				? [
						{
							kind: 'image',
							mimeType: String(b.mimeType).toLowerCase(),
							data: image.data,
							label: `${label}, sent as an image]`,
						},
					]
				: [{ kind: 'text', text: `${label}, ${image.why}]` }];
		}
		case 'audio':
			// VS Code's chat models take text and images; audio goes as its description.
			return [
				{
					kind: 'text',
					text: `[audio ${textOf(b.mimeType, '(no type)')}, ${base64Size(textOf(b.data))}, not sent: the model takes text and images only; the result document in VS Code plays it]`,
				},
			];
		case 'resource_link':
			return [{ kind: 'text', text: resourceLabel('resource link', b, READ_HINT) }];
		case 'resource':
			return contentParts(
				'embedded resource',
				(typeof b.resource === 'object' && b.resource !== null ? b.resource : {}) as Record<string, unknown>,
				READ_HINT,
			);
		default:
			return [{ kind: 'text', text: `[${textOf(b.type, 'unknown')} content]` }];
	}
}

/**
 * `parts` with adjacent texts joined into one part (by line breaks, so the model reads one text between images) and
 * the text beyond `maxChars` in all cut with a note saying how much.
 */
function withinBudget(parts: readonly ModelPart[], maxChars: number): ModelPart[] {
	const kept: ModelPart[] = [];
	const pushText = (text: string) => {
		const last = kept[kept.length - 1];
		if (last?.kind === 'text') kept[kept.length - 1] = { kind: 'text', text: `${last.text}\n${text}` };
		else kept.push({ kind: 'text', text });
	};
	let left = maxChars;
	for (let i = 0; i < parts.length; i++) {
		const part = parts[i]!;
		if (part.kind === 'image') {
			kept.push(part);
		} else if (part.text.length <= left) {
			pushText(part.text);
			left -= part.text.length;
		} else {
			const rest = parts.slice(i + 1).reduce((sum, p) => sum + (p.kind === 'text' ? p.text.length : 0), 0);
			pushText(`${part.text.slice(0, left)}\n[cut: ${part.text.length - left + rest} more characters]`);
			break;
		}
	}
	return kept;
}

/**
 * A read resource as parts for the model (for `/read` and attached resource documents): each content's text under
 * its URI and type, images the model takes as images, other binary content described; cut like a tool result.
 */
export function resourceParts(result: ReadResourceResult, maxChars = MAX_RESULT_CHARS): ModelPart[] {
	const parts = result.contents.flatMap((content) =>
		contentParts('resource', content as Record<string, unknown>, 'the model takes text and images only'),
	);
	return withinBudget(parts.length > 0 ? parts : [{ kind: 'text', text: '(the resource has no contents)' }], maxChars);
}

/**
 * A tool result as the parts the model receives: the content blocks in order (text, images the model takes as
 * images, everything else described with its URI, name and type so the user can `/read` it), then the structured
 * content as JSON text; "Tool error:" first when the server set `isError`; a note when it is empty. Text beyond
 * `maxChars` in all (default {@link MAX_RESULT_CHARS}) is cut with a note. Never throws on odd content.
 */
export function toolResultParts(result: CallToolResult, maxChars = MAX_RESULT_CHARS): ModelPart[] {
	const parts = (result.content ?? []).flatMap((block) => blockParts(block as ContentBlock));
	if (result.structuredContent !== undefined)
		parts.push({ kind: 'text', text: `Structured content (JSON):\n${textOf(result.structuredContent)}` });
	if (parts.length === 0) parts.push({ kind: 'text', text: '(the tool returned no content)' });
	if (result.isError === true) {
		const first = parts[0]!;
		if (first.kind === 'text') parts[0] = { kind: 'text', text: `Tool error: ${first.text}` };
		else parts.unshift({ kind: 'text', text: 'Tool error:' });
	}
	return withinBudget(parts, maxChars);
}

/**
 * A tool result as one text (for people and logs; the model gets {@link toolResultParts}): the parts' text, with
 * images as their one-line description.
 */
export function toolResultText(result: CallToolResult, maxChars = MAX_RESULT_CHARS): string {
	return toolResultParts(result, maxChars)
		.map((part) => (part.kind === 'text' ? part.text : part.label))
		.join('\n');
}

/** A failed call (thrown, not `isError`) as the error text the model receives, naming server and tool. */
export function toolFailureText(server: string, tool: string, error: unknown): string {
	const message = errorMessage(error);
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
 * servers that are configured but not running listed with their state. Says so when nothing is configured. App-only
 * tools (MCP Apps: `_meta.ui.visibility` without "model") are left out, as from the model's list, and counted.
 */
export function toolsMarkdown(
	servers: readonly Pick<ServerView, 'name' | 'state' | 'tools'>[],
	describe: (server: Pick<ServerView, 'state'>) => string,
): string {
	if (servers.length === 0) return 'No MCP server is configured.';
	const lines: string[] = [];
	const notRunning: string[] = [];
	for (const server of servers) {
		if (server.state.kind !== 'running') {
			notRunning.push(`- ${oneLine(server.name)}: ${oneLine(describe(server))}`);
			continue;
		}
		lines.push(`### ${oneLine(server.name)}`, '');
		// The model never gets an app-only tool (the same rule as the tools offered to it), so it is not listed.
		const forModel = server.tools.filter((named) => visibleToModel(named.tool));
		if (forModel.length === 0) lines.push('No tools.');
		for (const named of forModel) {
			const description = named.tool.description ?? named.tool.title ?? '';
			lines.push(`- ${code(named.qualifiedName)}${description ? ` — ${oneLine(description)}` : ''}`);
		}
		const appOnly = server.tools.length - forModel.length;
		if (appOnly > 0)
			lines.push(
				'',
				`_${appOnly} app-only ${appOnly === 1 ? 'tool' : 'tools'} not listed: only the server's MCP App calls ${appOnly === 1 ? 'it' : 'them'}._`,
			);
		lines.push('');
	}
	if (lines.length === 0) lines.push('No MCP server is running.', '');
	if (notRunning.length > 0) lines.push('Not running:', '', ...notRunning);
	return lines.join('\n').trimEnd();
}

/** The model-facing description of a tool: its description, else its title, else its name (never empty). */
export function toolDescription(named: NamedTool): string {
	return (
		named.tool.description?.trim() ||
		named.tool.title?.trim() ||
		`${named.tool.name} (from the MCP server ${named.server})`
	);
}

/** The JSON Schema sent for a tool: the tool's input schema, or an empty object schema when it has none. */
export function toolInputSchema(named: NamedTool): object {
	const schema = named.tool.inputSchema as object | undefined;
	return schema && typeof schema === 'object' ? schema : { type: 'object', properties: {} };
}
