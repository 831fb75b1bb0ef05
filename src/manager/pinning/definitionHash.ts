/**
 * What a pinned definition is: the parts of a tool, prompt or resource template that tell a model what it does and
 * how to call it (name, title, description, input and output schema, annotations; a prompt's arguments; a
 * template's URI template and MIME type), in a canonical form (sorted keys), and its hash. Anything else a server
 * sends (`_meta`, icons) is left out: changing it does not change what the model reads. Pure.
 */
import { sha256Hex } from '../../common/sha256';
import { canonicalJson } from '../config';
import type { Prompt, ResourceTemplate, Tool } from '../../protocol/schema';

/** The kinds of definitions a server offers a model. */
export type DefinitionKind = 'tool' | 'prompt' | 'template';

/** A definition's pinned parts, as a plain object (what the review's diff shows). */
export type DefinitionParts = Record<string, unknown>;

/** The pinned parts of a tool. */
export function toolParts(tool: Tool): DefinitionParts {
	return {
		name: tool.name,
		title: tool.title,
		description: tool.description,
		inputSchema: tool.inputSchema,
		outputSchema: tool.outputSchema,
		annotations: tool.annotations,
	};
}

/** The pinned parts of a prompt. */
export function promptParts(prompt: Prompt): DefinitionParts {
	return { name: prompt.name, title: prompt.title, description: prompt.description, arguments: prompt.arguments };
}

/** The pinned parts of a resource template. */
export function templateParts(template: ResourceTemplate): DefinitionParts {
	return {
		name: template.name,
		title: template.title,
		description: template.description,
		uriTemplate: template.uriTemplate,
		mimeType: template.mimeType,
		annotations: template.annotations,
	};
}

/** The parts as pretty JSON with sorted keys and no undefined fields: what the review's diff editor shows. */
export function partsText(parts: DefinitionParts): string {
	return `${JSON.stringify(JSON.parse(canonicalJson(parts)) as unknown, null, 2)}\n`;
}

/** sha-256 (hex, 32 chars) of the canonical parts. */
export function hashParts(parts: DefinitionParts): string {
	return sha256Hex(canonicalJson(parts)).slice(0, 32);
}

/** The hash of a tool's definition. */
export function definitionHash(tool: Tool): string {
	return hashParts(toolParts(tool));
}
