import { isRecord } from '../common/records';
/**
 * Structural checks that a result passes its zod schema (schemaBuild.ts) as it is: the same fields and types, field
 * by field, with unknown fields passing as there. When one says yes, the client uses the result without zod; when it
 * says no, the schema parses it and names the path of the problem. So a session whose results are of the usual shape
 * (a `list` from the command line: initialize and the four lists) never loads zod, which costs more than the rest of
 * the command's own start-up; validation is the same either way. Keep each in step with its schema.
 */

const optionalString = (value: unknown) => value === undefined || typeof value === 'string';
const optionalBoolean = (value: unknown) => value === undefined || typeof value === 'boolean';
const optionalNumber = (value: unknown) => value === undefined || typeof value === 'number';
const optionalRecord = (value: unknown) => value === undefined || isRecord(value);

function isStringArray(value: unknown): boolean {
	return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** IconSchema, as an optional array. */
export function isPlainIcons(value: unknown): boolean {
	if (value === undefined) return true;
	if (!Array.isArray(value)) return false;
	for (const icon of value as unknown[]) {
		if (
			!isRecord(icon) ||
			typeof icon.src !== 'string' ||
			!optionalString(icon.mimeType) ||
			!optionalString(icon.theme)
		)
			return false;
		if (icon.sizes !== undefined && !isStringArray(icon.sizes)) return false;
	}
	return true;
}

/** ImplementationSchema (serverInfo). */
function isPlainImplementation(value: unknown): boolean {
	return (
		isRecord(value) &&
		typeof value.name === 'string' &&
		typeof value.version === 'string' &&
		optionalString(value.title) &&
		optionalString(value.description) &&
		optionalString(value.websiteUrl) &&
		isPlainIcons(value.icons)
	);
}

const optionalListChanged = (value: unknown) =>
	value === undefined || (isRecord(value) && optionalBoolean(value.listChanged));

/** ServerCapabilitiesSchema. */
function isPlainServerCapabilities(value: unknown): boolean {
	if (!isRecord(value)) return false;
	const resources = value.resources;
	return (
		optionalRecord(value.experimental) &&
		optionalRecord(value.logging) &&
		optionalRecord(value.completions) &&
		optionalListChanged(value.prompts) &&
		(resources === undefined ||
			(isRecord(resources) && optionalBoolean(resources.subscribe) && optionalBoolean(resources.listChanged))) &&
		optionalListChanged(value.tools) &&
		optionalRecord(value.tasks)
	);
}

/** InitializeResultSchema. */
export function isPlainInitializeResult(value: Record<string, unknown>): boolean {
	return (
		typeof value.protocolVersion === 'string' &&
		isPlainServerCapabilities(value.capabilities) &&
		isPlainImplementation(value.serverInfo) &&
		optionalString(value.instructions) &&
		optionalRecord(value._meta)
	);
}

/** AnnotationsSchema (resources and templates). */
function isPlainAnnotations(value: unknown): boolean {
	if (value === undefined) return true;
	return (
		isRecord(value) &&
		(value.audience === undefined || isStringArray(value.audience)) &&
		optionalNumber(value.priority) &&
		optionalString(value.lastModified)
	);
}

/** The fields ResourceSchema and ResourceTemplateSchema share besides their address. */
function isPlainDescribed(value: Record<string, unknown>): boolean {
	return (
		typeof value.name === 'string' &&
		optionalString(value.title) &&
		optionalString(value.description) &&
		optionalString(value.mimeType) &&
		isPlainAnnotations(value.annotations) &&
		isPlainIcons(value.icons) &&
		optionalRecord(value._meta)
	);
}

function isPlainResource(value: unknown): boolean {
	return isRecord(value) && typeof value.uri === 'string' && optionalNumber(value.size) && isPlainDescribed(value);
}

function isPlainResourceTemplate(value: unknown): boolean {
	return isRecord(value) && typeof value.uriTemplate === 'string' && isPlainDescribed(value);
}

function isPlainPromptArgument(value: unknown): boolean {
	return (
		isRecord(value) &&
		typeof value.name === 'string' &&
		optionalString(value.title) &&
		optionalString(value.description) &&
		optionalBoolean(value.required)
	);
}

function isPlainPrompt(value: unknown): boolean {
	if (
		!isRecord(value) ||
		typeof value.name !== 'string' ||
		!optionalString(value.title) ||
		!optionalString(value.description)
	)
		return false;
	if (
		value.arguments !== undefined &&
		!(Array.isArray(value.arguments) && value.arguments.every(isPlainPromptArgument))
	)
		return false;
	return isPlainIcons(value.icons) && optionalRecord(value._meta);
}

/** A paginated list result: `field` an array whose items all pass `item`, nextCursor a string, _meta an object. */
function isPlainPage(value: Record<string, unknown>, field: string, item: (value: unknown) => boolean): boolean {
	const items = value[field];
	return Array.isArray(items) && optionalString(value.nextCursor) && optionalRecord(value._meta) && items.every(item);
}

/** ListResourcesResultSchema. */
export const isPlainListResourcesResult = (value: Record<string, unknown>): boolean =>
	isPlainPage(value, 'resources', isPlainResource);
/** ListResourceTemplatesResultSchema. */
export const isPlainListResourceTemplatesResult = (value: Record<string, unknown>): boolean =>
	isPlainPage(value, 'resourceTemplates', isPlainResourceTemplate);
/** ListPromptsResultSchema. */
export const isPlainListPromptsResult = (value: Record<string, unknown>): boolean =>
	isPlainPage(value, 'prompts', isPlainPrompt);

/**
 * True when `value` passes CallToolResultSchema as it is: content an array of objects with a string `type`,
 * structuredContent and _meta objects when present, isError a boolean when present. Unknown fields pass, as there.
 */
export function isPlainCallToolResult(value: Record<string, unknown>): boolean {
	const content = value.content;
	if (!Array.isArray(content)) {
		return false;
	}
	for (let i = 0; i < content.length; i++) {
		const block: unknown = content[i];
		if (!isRecord(block) || typeof block.type !== 'string') {
			return false;
		}
	}
	const { structuredContent, isError, _meta } = value;
	return (
		(structuredContent === undefined || isRecord(structuredContent)) &&
		(isError === undefined || typeof isError === 'boolean') &&
		(_meta === undefined || isRecord(_meta))
	);
}

function isPlainTool(tool: unknown): boolean {
	if (!isRecord(tool) || typeof tool.name !== 'string' || !isRecord(tool.inputSchema)) return false;
	if (
		!optionalString(tool.title) ||
		!optionalString(tool.description) ||
		!optionalRecord(tool.outputSchema) ||
		!optionalRecord(tool._meta)
	)
		return false;
	const annotations = tool.annotations;
	if (annotations !== undefined) {
		if (!isRecord(annotations) || !optionalString(annotations.title)) return false;
		if (
			!optionalBoolean(annotations.readOnlyHint) ||
			!optionalBoolean(annotations.destructiveHint) ||
			!optionalBoolean(annotations.idempotentHint) ||
			!optionalBoolean(annotations.openWorldHint)
		)
			return false;
	}
	const execution = tool.execution;
	if (execution !== undefined && !(isRecord(execution) && optionalString(execution.taskSupport))) return false;
	return isPlainIcons(tool.icons);
}

/**
 * True when `value` passes ListToolsResultSchema as it is (the same checks, field by field, without zod's copy of
 * every tool: a list of 1,000 tools is the one large result a client parses at start-up). Unknown fields pass.
 */
export function isPlainListToolsResult(value: Record<string, unknown>): boolean {
	const tools = value.tools;
	if (!Array.isArray(tools) || !optionalString(value.nextCursor) || !optionalRecord(value._meta)) return false;
	for (let i = 0; i < tools.length; i++) {
		if (!isPlainTool(tools[i])) return false;
	}
	return true;
}
