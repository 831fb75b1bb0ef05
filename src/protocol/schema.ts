/**
 * zod schemas for the MCP messages the client interprets, built once at module load.
 * Objects are loose (unknown fields pass through intact) and only as deep as the client needs:
 * content blocks are checked for their `type` and otherwise passed on as the server sent them.
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/schema
 */
import { z } from 'zod';

/** Protocol versions this client speaks, newest first. The first is offered in `initialize`. */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export const LATEST_PROTOCOL_VERSION = SUPPORTED_PROTOCOL_VERSIONS[0];
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];

const MetaSchema = z.looseObject({}).optional();

export const IconSchema = z.looseObject({
	src: z.string(),
	mimeType: z.string().optional(),
	sizes: z.array(z.string()).optional(),
	theme: z.string().optional(),
});
export type Icon = z.infer<typeof IconSchema>;

export const ImplementationSchema = z.looseObject({
	name: z.string(),
	version: z.string(),
	title: z.string().optional(),
	description: z.string().optional(),
	websiteUrl: z.string().optional(),
	icons: z.array(IconSchema).optional(),
});
export type Implementation = z.infer<typeof ImplementationSchema>;

const ListChangedCapability = z.looseObject({ listChanged: z.boolean().optional() });

export const ServerCapabilitiesSchema = z.looseObject({
	experimental: z.looseObject({}).optional(),
	logging: z.looseObject({}).optional(),
	completions: z.looseObject({}).optional(),
	prompts: ListChangedCapability.optional(),
	resources: z.looseObject({ subscribe: z.boolean().optional(), listChanged: z.boolean().optional() }).optional(),
	tools: ListChangedCapability.optional(),
	tasks: z.looseObject({}).optional(),
});
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;

/** What the client advertises; built from the handlers the host supplied (see client.ts). */
export interface ClientCapabilities {
	roots?: { listChanged?: boolean };
	sampling?: { context?: object; tools?: object };
	elicitation?: { form?: object; url?: object };
	experimental?: Record<string, object>;
	[key: string]: unknown;
}

export const InitializeResultSchema = z.looseObject({
	protocolVersion: z.string(),
	capabilities: ServerCapabilitiesSchema,
	serverInfo: ImplementationSchema,
	instructions: z.string().optional(),
	_meta: MetaSchema,
});
export type InitializeResult = z.infer<typeof InitializeResultSchema>;

export const AnnotationsSchema = z.looseObject({
	audience: z.array(z.string()).optional(),
	priority: z.number().optional(),
	lastModified: z.string().optional(),
});

/** Any content block: text, image, audio, resource_link, resource, or a type from a newer spec. Passed through intact. */
export const ContentBlockSchema = z.looseObject({ type: z.string() });
export type ContentBlock = z.infer<typeof ContentBlockSchema> & Record<string, unknown>;

export interface TextContent {
	type: 'text';
	text: string;
	annotations?: z.infer<typeof AnnotationsSchema>;
	_meta?: Record<string, unknown>;
}
export interface ImageContent {
	type: 'image';
	data: string;
	mimeType: string;
	annotations?: z.infer<typeof AnnotationsSchema>;
	_meta?: Record<string, unknown>;
}
export interface AudioContent {
	type: 'audio';
	data: string;
	mimeType: string;
	annotations?: z.infer<typeof AnnotationsSchema>;
	_meta?: Record<string, unknown>;
}
export interface ResourceLink {
	type: 'resource_link';
	uri: string;
	name: string;
	title?: string;
	description?: string;
	mimeType?: string;
	size?: number;
	annotations?: z.infer<typeof AnnotationsSchema>;
	_meta?: Record<string, unknown>;
}
export interface EmbeddedResource {
	type: 'resource';
	resource: ResourceContents;
	annotations?: z.infer<typeof AnnotationsSchema>;
	_meta?: Record<string, unknown>;
}

export const ToolAnnotationsSchema = z.looseObject({
	title: z.string().optional(),
	readOnlyHint: z.boolean().optional(),
	destructiveHint: z.boolean().optional(),
	idempotentHint: z.boolean().optional(),
	openWorldHint: z.boolean().optional(),
});
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;

export const ToolSchema = z.looseObject({
	name: z.string(),
	title: z.string().optional(),
	description: z.string().optional(),
	inputSchema: z.looseObject({}),
	outputSchema: z.looseObject({}).optional(),
	annotations: ToolAnnotationsSchema.optional(),
	icons: z.array(IconSchema).optional(),
	execution: z.looseObject({ taskSupport: z.string().optional() }).optional(),
	_meta: MetaSchema,
});
export type Tool = z.infer<typeof ToolSchema>;

const Paginated = { nextCursor: z.string().optional(), _meta: MetaSchema };

export const ListToolsResultSchema = z.looseObject({ tools: z.array(ToolSchema), ...Paginated });

export const CallToolResultSchema = z.looseObject({
	content: z.array(ContentBlockSchema).default([]),
	structuredContent: z.looseObject({}).optional(),
	isError: z.boolean().optional(),
	_meta: MetaSchema,
});
export type CallToolResult = z.infer<typeof CallToolResultSchema>;

export const ResourceSchema = z.looseObject({
	uri: z.string(),
	name: z.string(),
	title: z.string().optional(),
	description: z.string().optional(),
	mimeType: z.string().optional(),
	size: z.number().optional(),
	annotations: AnnotationsSchema.optional(),
	icons: z.array(IconSchema).optional(),
	_meta: MetaSchema,
});
export type Resource = z.infer<typeof ResourceSchema>;

export const ResourceTemplateSchema = z.looseObject({
	uriTemplate: z.string(),
	name: z.string(),
	title: z.string().optional(),
	description: z.string().optional(),
	mimeType: z.string().optional(),
	annotations: AnnotationsSchema.optional(),
	icons: z.array(IconSchema).optional(),
	_meta: MetaSchema,
});
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;

export const ListResourcesResultSchema = z.looseObject({ resources: z.array(ResourceSchema), ...Paginated });
export const ListResourceTemplatesResultSchema = z.looseObject({ resourceTemplates: z.array(ResourceTemplateSchema), ...Paginated });

export const ResourceContentsSchema = z.looseObject({
	uri: z.string(),
	mimeType: z.string().optional(),
	text: z.string().optional(),
	blob: z.string().optional(),
	_meta: MetaSchema,
});
export type ResourceContents = z.infer<typeof ResourceContentsSchema>;

export const ReadResourceResultSchema = z.looseObject({ contents: z.array(ResourceContentsSchema), _meta: MetaSchema });
export type ReadResourceResult = z.infer<typeof ReadResourceResultSchema>;

export const PromptArgumentSchema = z.looseObject({
	name: z.string(),
	title: z.string().optional(),
	description: z.string().optional(),
	required: z.boolean().optional(),
});
export const PromptSchema = z.looseObject({
	name: z.string(),
	title: z.string().optional(),
	description: z.string().optional(),
	arguments: z.array(PromptArgumentSchema).optional(),
	icons: z.array(IconSchema).optional(),
	_meta: MetaSchema,
});
export type Prompt = z.infer<typeof PromptSchema>;
export const ListPromptsResultSchema = z.looseObject({ prompts: z.array(PromptSchema), ...Paginated });

export const PromptMessageSchema = z.looseObject({ role: z.enum(['user', 'assistant']), content: ContentBlockSchema });
export type PromptMessage = z.infer<typeof PromptMessageSchema>;
export const GetPromptResultSchema = z.looseObject({
	description: z.string().optional(),
	messages: z.array(PromptMessageSchema),
	_meta: MetaSchema,
});
export type GetPromptResult = z.infer<typeof GetPromptResultSchema>;

/** A `completion/complete` reference: a prompt by name or a resource template by URI template. */
export type CompletionReference = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
export const CompleteResultSchema = z.looseObject({
	completion: z.looseObject({ values: z.array(z.string()), total: z.number().optional(), hasMore: z.boolean().optional() }),
	_meta: MetaSchema,
});
export type CompleteResult = z.infer<typeof CompleteResultSchema>;

export const EmptyResultSchema = z.looseObject({ _meta: MetaSchema });

export const LOGGING_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

// ---- notifications from the server ----

export const ProgressNotificationSchema = z.looseObject({
	progressToken: z.union([z.string(), z.number()]),
	progress: z.number(),
	total: z.number().optional(),
	message: z.string().optional(),
});
export type Progress = z.infer<typeof ProgressNotificationSchema>;

export const LoggingMessageNotificationSchema = z.looseObject({
	level: z.enum(LOGGING_LEVELS),
	logger: z.string().optional(),
	data: z.unknown(),
});
export type LoggingMessage = z.infer<typeof LoggingMessageNotificationSchema>;

export const ResourceUpdatedNotificationSchema = z.looseObject({ uri: z.string() });
export const ElicitationCompleteNotificationSchema = z.looseObject({ elicitationId: z.string() });
export const CancelledNotificationSchema = z.looseObject({
	requestId: z.union([z.string(), z.number()]).optional(),
	reason: z.string().optional(),
});

// ---- requests from the server ----

export interface Root {
	uri: string;
	name?: string;
}
export interface ListRootsResult {
	roots: Root[];
}

/** A sampling message: role plus one content block or (2025-11-25, with tools) an array of them. */
export const SamplingMessageSchema = z.looseObject({
	role: z.enum(['user', 'assistant']),
	content: z.union([ContentBlockSchema, z.array(ContentBlockSchema)]),
});
export type SamplingMessage = z.infer<typeof SamplingMessageSchema>;

export const ModelPreferencesSchema = z.looseObject({
	hints: z.array(z.looseObject({ name: z.string().optional() })).optional(),
	costPriority: z.number().optional(),
	speedPriority: z.number().optional(),
	intelligencePriority: z.number().optional(),
});

export const CreateMessageRequestSchema = z.looseObject({
	messages: z.array(SamplingMessageSchema),
	modelPreferences: ModelPreferencesSchema.optional(),
	systemPrompt: z.string().optional(),
	includeContext: z.enum(['none', 'thisServer', 'allServers']).optional(),
	temperature: z.number().optional(),
	maxTokens: z.number(),
	stopSequences: z.array(z.string()).optional(),
	metadata: z.looseObject({}).optional(),
	tools: z.array(ToolSchema).optional(),
	toolChoice: z.looseObject({ mode: z.string().optional() }).optional(),
	_meta: MetaSchema,
});
export type CreateMessageRequest = z.infer<typeof CreateMessageRequestSchema>;

export interface CreateMessageResult {
	role: 'assistant';
	content: ContentBlock | ContentBlock[];
	model: string;
	stopReason?: 'endTurn' | 'stopSequence' | 'maxTokens' | 'toolUse' | string;
	_meta?: Record<string, unknown>;
}

/** Form mode (default when `mode` is absent) or URL mode (2025-11-25). */
export const ElicitRequestSchema = z.union([
	z.looseObject({
		mode: z.literal('url'),
		message: z.string(),
		url: z.string(),
		elicitationId: z.string(),
	}),
	z.looseObject({
		mode: z.literal('form').optional(),
		message: z.string(),
		requestedSchema: z.looseObject({
			type: z.literal('object').optional(),
			properties: z.record(z.string(), z.looseObject({})),
			required: z.array(z.string()).optional(),
		}),
	}),
]);
export type ElicitRequest = z.infer<typeof ElicitRequestSchema>;
export type ElicitFormRequest = Extract<ElicitRequest, { requestedSchema: unknown }>;
export type ElicitUrlRequest = Extract<ElicitRequest, { mode: 'url' }>;

export interface ElicitResult {
	action: 'accept' | 'decline' | 'cancel';
	content?: Record<string, string | number | boolean | string[]>;
	_meta?: Record<string, unknown>;
}
