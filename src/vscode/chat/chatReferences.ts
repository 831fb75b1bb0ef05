/**
 * What the user attached to an `@mcp` request (`request.references`: `#file`, a selection, an open editor, one of our
 * resource or skill documents) as content the model receives before the prompt: files and selections as their text,
 * images as images, our `switchboard-resource:` documents read again through their server, a server's skill
 * (`switchboard-skill:`) as its verified SKILL.md, strings as they are, anything else by its description. A reference
 * that cannot be read says so and the others still go.
 */
import * as vscode from 'vscode';
import type { Manager } from '../../manager/manager';
import { parseResourceUri } from '../shared/resourceUris';
import { parseSkillUri } from '../shared/skillUris';
import {
	MAX_MODEL_IMAGE_BYTES,
	MAX_RESULT_CHARS,
	MODEL_IMAGE_TYPES,
	resourceParts,
	type ModelPart,
} from './chatMapping';
import { plural } from '../../common/text';
import { errorMessage } from '../../common/errors';

/** A part as the language model API's: text, or an image as a data part. */
export function modelPart(part: ModelPart): vscode.LanguageModelTextPart | vscode.LanguageModelDataPart {
	return part.kind === 'text'
		? new vscode.LanguageModelTextPart(part.text)
		: vscode.LanguageModelDataPart.image(part.data, part.mimeType);
}

/** Image files by extension, for attached files the model can see as images. */
const IMAGE_TYPES: Record<string, string> = {
	'.png': 'image/png',
	'.jpg': 'image/jpeg',
	'.jpeg': 'image/jpeg',
	'.gif': 'image/gif',
	'.webp': 'image/webp',
};

/** A path for people: relative to the workspace when inside it. */
function shownPath(uri: vscode.Uri): string {
	return uri.scheme === 'file' || uri.scheme === 'vscode-remote'
		? vscode.workspace.asRelativePath(uri)
		: uri.toString(true);
}

function cut(text: string, max = MAX_RESULT_CHARS): string {
	return text.length > max ? `${text.slice(0, max)}\n[cut: ${text.length - max} more characters]` : text;
}

/** Counts what an attached skill put into the model's context (the ledger's skills column). */
export type SkillCounter = (server: string, text: string) => void;

/**
 * A skill the user attached: its SKILL.md as the skill documents' file system reads it (fetched now, or held from
 * this connection's earlier read, and only when its size, digest and frontmatter match the server's listing).
 */
async function skillParts(uri: vscode.Uri, skill: { server: string; name: string }, count?: SkillCounter) {
	let bytes: Uint8Array;
	try {
		bytes = await vscode.workspace.fs.readFile(uri);
	} catch (error) {
		return [
			{
				kind: 'text',
				text: `[attached skill ${skill.server}/${skill.name}: ${errorMessage(error)}]`,
			} satisfies ModelPart,
		];
	}
	const text = `[attached skill ${skill.server}/${skill.name} of the MCP server '${skill.server}', ${plural(bytes.byteLength, 'byte')}, verified]\n${new TextDecoder().decode(bytes)}`;
	count?.(skill.server, text);
	return [{ kind: 'text', text } satisfies ModelPart];
}

/** A file or folder the user attached. */
async function uriParts(
	manager: Manager,
	uri: vscode.Uri,
	signal: AbortSignal,
	count?: SkillCounter,
): Promise<ModelPart[]> {
	const skill = parseSkillUri(uri);
	if (skill) return skillParts(uri, skill, count);
	const resource = parseResourceUri(uri);
	if (resource) {
		const result = await manager.readResource(resource.server, resource.uri, { signal, origin: 'chat' });
		return [
			{ kind: 'text', text: `[attached resource of the MCP server '${resource.server}']` },
			...resourceParts(result),
		];
	}
	const name = shownPath(uri);
	const stat = await vscode.workspace.fs.stat(uri);
	if (stat.type & vscode.FileType.Directory) {
		const entries = await vscode.workspace.fs.readDirectory(uri);
		const listed = entries
			.slice(0, 200)
			.map(([entry, type]) => (type & vscode.FileType.Directory ? `${entry}/` : entry));
		return [
			{
				kind: 'text',
				text: `[attached folder ${name}: ${plural(entries.length, 'entry', 'entries')}]\n${listed.join('\n')}${entries.length > listed.length ? '\n…' : ''}`,
			},
		];
	}
	const extension = /\.[^./\\]+$/.exec(uri.path)?.[0]?.toLowerCase() ?? '';
	const imageType = IMAGE_TYPES[extension];
	if (imageType && MODEL_IMAGE_TYPES.has(imageType)) {
		if (stat.size > MAX_MODEL_IMAGE_BYTES)
			return [
				{
					kind: 'text',
					text: `[attached image ${name}: ${stat.size} bytes, not sent: larger than ${MAX_MODEL_IMAGE_BYTES / 1024 / 1024} MB]`,
				},
			];
		const data = await vscode.workspace.fs.readFile(uri);
		return [
			{ kind: 'text', text: `[attached image ${name}, ${imageType}, sent as the image that follows]` },
			{ kind: 'image', mimeType: imageType, data, label: `[attached image ${name}]` },
		];
	}
	const document = await vscode.workspace.openTextDocument(uri);
	return [{ kind: 'text', text: `[attached file ${name} (${document.languageId})]\n${cut(document.getText())}` }];
}

/** One reference as parts; a failure becomes a line saying what could not be read. */
async function referenceParts(
	manager: Manager,
	reference: vscode.ChatPromptReference,
	signal: AbortSignal,
	count?: SkillCounter,
): Promise<ModelPart[]> {
	const value = reference.value;
	try {
		if (value instanceof vscode.Uri) return await uriParts(manager, value, signal, count);
		if (value instanceof vscode.Location) {
			const document = await vscode.workspace.openTextDocument(value.uri);
			const { start, end } = value.range;
			const lines = start.line === end.line ? `line ${start.line + 1}` : `lines ${start.line + 1}-${end.line + 1}`;
			return [
				{
					kind: 'text',
					text: `[attached selection of ${shownPath(value.uri)}, ${lines} (${document.languageId})]\n${cut(document.getText(value.range))}`,
				},
			];
		}
		if (typeof value === 'string') return [{ kind: 'text', text: `[attached ${reference.id}]\n${cut(value)}` }];
	} catch (error) {
		if (signal.aborted) throw error;
		const what =
			value instanceof vscode.Uri
				? shownPath(value)
				: value instanceof vscode.Location
					? shownPath(value.uri)
					: reference.id;
		return [{ kind: 'text', text: `[attached ${what}: could not be read: ${errorMessage(error)}]` }];
	}
	return [
		{
			kind: 'text',
			text: `[attached ${reference.id}${reference.modelDescription ? `: ${reference.modelDescription}` : ''}]`,
		},
	];
}

/**
 * Every reference of the request as parts, in the order the user wrote them (VS Code lists them last first).
 * Empty when nothing is attached. `count` is told each attached skill's text.
 */
export async function attachedParts(
	manager: Manager,
	references: readonly vscode.ChatPromptReference[],
	signal: AbortSignal,
	count?: SkillCounter,
): Promise<ModelPart[]> {
	const inOrder = [...references].sort((a, b) => (a.range?.[0] ?? Infinity) - (b.range?.[0] ?? Infinity));
	const parts: ModelPart[] = [];
	for (const reference of inOrder) parts.push(...(await referenceParts(manager, reference, signal, count)));
	return parts;
}
