/**
 * Plain-text rendering of results for people at a terminal. `--json` output bypasses this and prints what the
 * server sent. Binary data is summarised (type and size), never dumped.
 */
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '../protocol/schema';
import { base64Size, textOf } from '../common/text';

type Json = Record<string, unknown>;

/** One content block as lines: text as is, media and links as a one-line summary. */
export function renderBlock(block: Json): string {
	switch (block.type) {
		case 'text':
			return textOf(block.text);
		case 'image':
		case 'audio':
			return `[${block.type} ${textOf(block.mimeType)}, ${base64Size(textOf(block.data))}]`;
		case 'resource_link':
			return `[link ${textOf(block.name)}: ${textOf(block.uri)}]`;
		case 'resource': {
			const resource = (block.resource ?? {}) as Json;
			if (typeof resource.text === 'string') return `[resource ${textOf(resource.uri)}]\n${resource.text}`;
			return `[resource ${textOf(resource.uri)}, ${textOf(resource.mimeType, 'binary')}, ${base64Size(textOf(resource.blob))}]`;
		}
		default:
			return `[${String(block.type)} block]\n${JSON.stringify(block, null, 2)}`;
	}
}

export function renderToolResult(result: CallToolResult): string {
	const parts = (result.content as Json[]).map(renderBlock);
	if (result.structuredContent !== undefined)
		parts.push(`structuredContent:\n${JSON.stringify(result.structuredContent, null, 2)}`);
	if (result.isError) parts.unshift('The tool reported an error:');
	return parts.join('\n');
}

export function renderPrompt(result: GetPromptResult): string {
	const lines: string[] = [];
	if (result.description) lines.push(String(result.description), '');
	for (const message of result.messages as Json[])
		lines.push(`${String(message.role)}:`, renderBlock((message.content ?? {}) as Json), '');
	return lines.join('\n').trimEnd();
}

export function renderResource(result: ReadResourceResult): string {
	return (result.contents as Json[])
		.map((content) =>
			typeof content.text === 'string'
				? content.text
				: `[${textOf(content.uri)}: ${textOf(content.mimeType, 'binary')}, ${base64Size(textOf(content.blob))}]`,
		)
		.join('\n');
}
