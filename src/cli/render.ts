/**
 * Plain-text rendering of results for people at a terminal. `--json` output bypasses this and prints what the
 * server sent. Binary data is summarised (type and size), never dumped.
 */
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '../protocol/schema';

type Json = Record<string, unknown>;

function bytesOf(base64: string): number {
	return Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
}

function size(bytes: number): string {
	return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** One content block as lines: text as is, media and links as a one-line summary. */
export function renderBlock(block: Json): string {
	switch (block.type) {
		case 'text':
			return String(block.text ?? '');
		case 'image':
		case 'audio':
			return `[${block.type} ${String(block.mimeType ?? '')}, ${size(bytesOf(String(block.data ?? '')))}]`;
		case 'resource_link':
			return `[link ${String(block.name ?? '')}: ${String(block.uri ?? '')}]`;
		case 'resource': {
			const resource = (block.resource ?? {}) as Json;
			if (typeof resource.text === 'string') return `[resource ${String(resource.uri ?? '')}]\n${resource.text}`;
			return `[resource ${String(resource.uri ?? '')}, ${String(resource.mimeType ?? 'binary')}, ${size(bytesOf(String(resource.blob ?? '')))}]`;
		}
		default:
			return `[${String(block.type)} block]\n${JSON.stringify(block, null, 2)}`;
	}
}

export function renderToolResult(result: CallToolResult): string {
	const parts = (result.content as Json[]).map(renderBlock);
	if (result.structuredContent !== undefined) parts.push(`structuredContent:\n${JSON.stringify(result.structuredContent, null, 2)}`);
	if (result.isError) parts.unshift('The tool reported an error:');
	return parts.join('\n');
}

export function renderPrompt(result: GetPromptResult): string {
	const lines: string[] = [];
	if (result.description) lines.push(String(result.description), '');
	for (const message of result.messages as Json[]) lines.push(`${String(message.role)}:`, renderBlock((message.content ?? {}) as Json), '');
	return lines.join('\n').trimEnd();
}

export function renderResource(result: ReadResourceResult): string {
	return (result.contents as Json[])
		.map((content) => (typeof content.text === 'string' ? content.text : `[${String(content.uri ?? '')}: ${String(content.mimeType ?? 'binary')}, ${size(bytesOf(String(content.blob ?? '')))}]`))
		.join('\n');
}
