// Token estimates for what goes into a model's context: definitions, instructions, results. No tokenizer: the
// models behind vscode.lm each count differently, and a budget only needs the order of magnitude, so text counts
// as about 4 characters a token (the rule of thumb OpenAI and Anthropic give for English and code; the Fake Echo
// model of the e2e suites counts the same way).
import type { CallToolResult } from '../../protocol/schema';

/** Characters per token in the estimate. */
export const CHARS_PER_TOKEN = 4;

/**
 * What one image costs, whatever its size: the providers scale images down to about 1,100 × 1,100 pixels and
 * charge by area (Anthropic: width × height / 750 ≈ 1,600 tokens at that size), so a fixed figure is close enough.
 */
export const IMAGE_TOKENS = 1_600;

/** The estimated tokens of `text`. */
export function estimateTokens(text: string): number {
	return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** The estimated tokens of a tool's definition as a model receives it: name, description and input schema. */
export function definitionTokens(tool: { name: string; description?: string; inputSchema?: unknown }): number {
	return (
		estimateTokens(tool.name) +
		estimateTokens(tool.description ?? '') +
		estimateTokens(JSON.stringify(tool.inputSchema ?? {}))
	);
}

/**
 * The estimated tokens of a tool result: its text, each image at {@link IMAGE_TOKENS}, other binary content (audio,
 * blobs) by its base64 text, resource links by their JSON, and the structured content by its JSON.
 */
export function resultTokens(result: Pick<CallToolResult, 'content' | 'structuredContent'>): number {
	let tokens = 0;
	for (const block of result.content ?? []) {
		const b = block as Record<string, unknown>;
		if (b.type === 'text' && typeof b.text === 'string') tokens += estimateTokens(b.text);
		else if (b.type === 'image') tokens += IMAGE_TOKENS;
		else if (b.type === 'audio' && typeof b.data === 'string') tokens += estimateTokens(b.data);
		else if (b.type === 'resource' && typeof b.resource === 'object' && b.resource !== null) {
			const resource = b.resource as Record<string, unknown>;
			const mimeType = typeof resource.mimeType === 'string' ? resource.mimeType : '';
			if (typeof resource.text === 'string') tokens += estimateTokens(resource.text);
			else if (mimeType.startsWith('image/')) tokens += IMAGE_TOKENS;
			else if (typeof resource.blob === 'string') tokens += estimateTokens(resource.blob);
		} else tokens += estimateTokens(JSON.stringify(b));
	}
	if (result.structuredContent !== undefined) tokens += estimateTokens(JSON.stringify(result.structuredContent));
	return tokens;
}
