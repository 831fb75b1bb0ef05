/**
 * zod schemas for the MCP messages the client interprets, and the types inferred from them.
 * Objects are loose (unknown fields pass through intact) and only as deep as the client needs:
 * content blocks are checked for their `type` and otherwise passed on as the server sent them.
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/schema
 *
 * Nothing here runs at import time: loading zod and building its schemas costs ~60-100 ms in a fresh process,
 * which the headless API (dist/core.js) and extension activation must not pay. `schemas()` loads zod and builds
 * every schema once, on first use; the exported `XxxSchema` constants are lazy stand-ins that do the same on first
 * touch (hot paths call `schemas()` directly).
 */
import type * as Zod from 'zod';

type ZodNamespace = typeof Zod.z;

/** Protocol versions this client speaks, newest first. The first is offered in `initialize`. */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export const LATEST_PROTOCOL_VERSION = SUPPORTED_PROTOCOL_VERSIONS[0];
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];

export const LOGGING_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

/** Loads zod on first use (a `require` inside a function, so bundles evaluate it lazily too). */
export function loadZod(): ZodNamespace {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return (require('zod') as typeof Zod).z;
}

function build(z: ZodNamespace) {
	const MetaSchema = z.looseObject({}).optional();

	const IconSchema = z.looseObject({
		src: z.string(),
		mimeType: z.string().optional(),
		sizes: z.array(z.string()).optional(),
		theme: z.string().optional(),
	});

	const ImplementationSchema = z.looseObject({
		name: z.string(),
		version: z.string(),
		title: z.string().optional(),
		description: z.string().optional(),
		websiteUrl: z.string().optional(),
		icons: z.array(IconSchema).optional(),
	});

	const ListChangedCapability = z.looseObject({ listChanged: z.boolean().optional() });

	const ServerCapabilitiesSchema = z.looseObject({
		experimental: z.looseObject({}).optional(),
		logging: z.looseObject({}).optional(),
		completions: z.looseObject({}).optional(),
		prompts: ListChangedCapability.optional(),
		resources: z.looseObject({ subscribe: z.boolean().optional(), listChanged: z.boolean().optional() }).optional(),
		tools: ListChangedCapability.optional(),
		tasks: z.looseObject({}).optional(),
	});

	const InitializeResultSchema = z.looseObject({
		protocolVersion: z.string(),
		capabilities: ServerCapabilitiesSchema,
		serverInfo: ImplementationSchema,
		instructions: z.string().optional(),
		_meta: MetaSchema,
	});

	const AnnotationsSchema = z.looseObject({
		audience: z.array(z.string()).optional(),
		priority: z.number().optional(),
		lastModified: z.string().optional(),
	});

	/** Any content block: text, image, audio, resource_link, resource, or a type from a newer spec. Passed through intact. */
	const ContentBlockSchema = z.looseObject({ type: z.string() });

	const ToolAnnotationsSchema = z.looseObject({
		title: z.string().optional(),
		readOnlyHint: z.boolean().optional(),
		destructiveHint: z.boolean().optional(),
		idempotentHint: z.boolean().optional(),
		openWorldHint: z.boolean().optional(),
	});

	const ToolSchema = z.looseObject({
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

	const Paginated = { nextCursor: z.string().optional(), _meta: MetaSchema };

	const ListToolsResultSchema = z.looseObject({ tools: z.array(ToolSchema), ...Paginated });

	const CallToolResultSchema = z.looseObject({
		content: z.array(ContentBlockSchema).default([]),
		structuredContent: z.looseObject({}).optional(),
		isError: z.boolean().optional(),
		_meta: MetaSchema,
	});

	const ResourceSchema = z.looseObject({
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

	const ResourceTemplateSchema = z.looseObject({
		uriTemplate: z.string(),
		name: z.string(),
		title: z.string().optional(),
		description: z.string().optional(),
		mimeType: z.string().optional(),
		annotations: AnnotationsSchema.optional(),
		icons: z.array(IconSchema).optional(),
		_meta: MetaSchema,
	});

	const ListResourcesResultSchema = z.looseObject({ resources: z.array(ResourceSchema), ...Paginated });
	const ListResourceTemplatesResultSchema = z.looseObject({ resourceTemplates: z.array(ResourceTemplateSchema), ...Paginated });

	const ResourceContentsSchema = z.looseObject({
		uri: z.string(),
		mimeType: z.string().optional(),
		text: z.string().optional(),
		blob: z.string().optional(),
		_meta: MetaSchema,
	});

	const ReadResourceResultSchema = z.looseObject({ contents: z.array(ResourceContentsSchema), _meta: MetaSchema });

	const PromptArgumentSchema = z.looseObject({
		name: z.string(),
		title: z.string().optional(),
		description: z.string().optional(),
		required: z.boolean().optional(),
	});
	const PromptSchema = z.looseObject({
		name: z.string(),
		title: z.string().optional(),
		description: z.string().optional(),
		arguments: z.array(PromptArgumentSchema).optional(),
		icons: z.array(IconSchema).optional(),
		_meta: MetaSchema,
	});
	const ListPromptsResultSchema = z.looseObject({ prompts: z.array(PromptSchema), ...Paginated });

	const PromptMessageSchema = z.looseObject({ role: z.enum(['user', 'assistant']), content: ContentBlockSchema });
	const GetPromptResultSchema = z.looseObject({
		description: z.string().optional(),
		messages: z.array(PromptMessageSchema),
		_meta: MetaSchema,
	});

	const CompleteResultSchema = z.looseObject({
		completion: z.looseObject({ values: z.array(z.string()), total: z.number().optional(), hasMore: z.boolean().optional() }),
		_meta: MetaSchema,
	});

	const EmptyResultSchema = z.looseObject({ _meta: MetaSchema });

	// ---- notifications from the server ----

	const ProgressNotificationSchema = z.looseObject({
		progressToken: z.union([z.string(), z.number()]),
		progress: z.number(),
		total: z.number().optional(),
		message: z.string().optional(),
	});

	const LoggingMessageNotificationSchema = z.looseObject({
		level: z.enum(LOGGING_LEVELS),
		logger: z.string().optional(),
		data: z.unknown(),
	});

	const ResourceUpdatedNotificationSchema = z.looseObject({ uri: z.string() });
	const ElicitationCompleteNotificationSchema = z.looseObject({ elicitationId: z.string() });
	const CancelledNotificationSchema = z.looseObject({
		requestId: z.union([z.string(), z.number()]).optional(),
		reason: z.string().optional(),
	});

	// ---- requests from the server ----

	/** A sampling message: role plus one content block or (2025-11-25, with tools) an array of them. */
	const SamplingMessageSchema = z.looseObject({
		role: z.enum(['user', 'assistant']),
		content: z.union([ContentBlockSchema, z.array(ContentBlockSchema)]),
	});

	const ModelPreferencesSchema = z.looseObject({
		hints: z.array(z.looseObject({ name: z.string().optional() })).optional(),
		costPriority: z.number().optional(),
		speedPriority: z.number().optional(),
		intelligencePriority: z.number().optional(),
	});

	const CreateMessageRequestSchema = z.looseObject({
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

	/** Form mode (default when `mode` is absent) or URL mode (2025-11-25). */
	const ElicitRequestSchema = z.union([
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

	return {
		IconSchema,
		ImplementationSchema,
		ServerCapabilitiesSchema,
		InitializeResultSchema,
		AnnotationsSchema,
		ContentBlockSchema,
		ToolAnnotationsSchema,
		ToolSchema,
		ListToolsResultSchema,
		CallToolResultSchema,
		ResourceSchema,
		ResourceTemplateSchema,
		ListResourcesResultSchema,
		ListResourceTemplatesResultSchema,
		ResourceContentsSchema,
		ReadResourceResultSchema,
		PromptArgumentSchema,
		PromptSchema,
		ListPromptsResultSchema,
		PromptMessageSchema,
		GetPromptResultSchema,
		CompleteResultSchema,
		EmptyResultSchema,
		ProgressNotificationSchema,
		LoggingMessageNotificationSchema,
		ResourceUpdatedNotificationSchema,
		ElicitationCompleteNotificationSchema,
		CancelledNotificationSchema,
		SamplingMessageSchema,
		ModelPreferencesSchema,
		CreateMessageRequestSchema,
		ElicitRequestSchema,
	};
}

/** Every schema, built together on first use. */
export type Schemas = ReturnType<typeof build>;

let built: Schemas | undefined;

/** Loads zod and builds every schema on the first call (~60-100 ms once); later calls return the same objects. */
export function schemas(): Schemas {
	return (built ??= build(loadZod()));
}

/**
 * A stand-in for one schema that builds them all on first touch and then forwards everything to the real one,
 * so `XxxSchema.parse(...)`, `z.array(XxxSchema)` and `instanceof` behave as with the schema itself.
 */
function lazy<K extends keyof Schemas>(key: K): Schemas[K] {
	const target = (): object => schemas()[key];
	return new Proxy(
		{},
		{
			get: (_stub, property) => {
				const real = target();
				return Reflect.get(real, property, real);
			},
			set: (_stub, property, value) => Reflect.set(target(), property, value),
			has: (_stub, property) => Reflect.has(target(), property),
			ownKeys: () => Reflect.ownKeys(target()),
			getOwnPropertyDescriptor: (_stub, property) => {
				const descriptor = Reflect.getOwnPropertyDescriptor(target(), property);
				// The stub has no properties of its own: a proxy may report them only as configurable.
				return descriptor && { ...descriptor, configurable: true };
			},
			getPrototypeOf: () => Reflect.getPrototypeOf(target()),
		},
	) as Schemas[K];
}

export const IconSchema = lazy('IconSchema');
export type Icon = Zod.infer<Schemas['IconSchema']>;

export const ImplementationSchema = lazy('ImplementationSchema');
export type Implementation = Zod.infer<Schemas['ImplementationSchema']>;

export const ServerCapabilitiesSchema = lazy('ServerCapabilitiesSchema');
export type ServerCapabilities = Zod.infer<Schemas['ServerCapabilitiesSchema']>;

/** What the client advertises; built from the handlers the host supplied (see client.ts). */
export interface ClientCapabilities {
	roots?: { listChanged?: boolean };
	sampling?: { context?: object; tools?: object };
	elicitation?: { form?: object; url?: object };
	experimental?: Record<string, object>;
	[key: string]: unknown;
}

export const InitializeResultSchema = lazy('InitializeResultSchema');
export type InitializeResult = Zod.infer<Schemas['InitializeResultSchema']>;

export const AnnotationsSchema = lazy('AnnotationsSchema');
type Annotations = Zod.infer<Schemas['AnnotationsSchema']>;

/** Any content block: text, image, audio, resource_link, resource, or a type from a newer spec. Passed through intact. */
export const ContentBlockSchema = lazy('ContentBlockSchema');
export type ContentBlock = Zod.infer<Schemas['ContentBlockSchema']> & Record<string, unknown>;

export interface TextContent {
	type: 'text';
	text: string;
	annotations?: Annotations;
	_meta?: Record<string, unknown>;
}
export interface ImageContent {
	type: 'image';
	data: string;
	mimeType: string;
	annotations?: Annotations;
	_meta?: Record<string, unknown>;
}
export interface AudioContent {
	type: 'audio';
	data: string;
	mimeType: string;
	annotations?: Annotations;
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
	annotations?: Annotations;
	_meta?: Record<string, unknown>;
}
export interface EmbeddedResource {
	type: 'resource';
	resource: ResourceContents;
	annotations?: Annotations;
	_meta?: Record<string, unknown>;
}

export const ToolAnnotationsSchema = lazy('ToolAnnotationsSchema');
export type ToolAnnotations = Zod.infer<Schemas['ToolAnnotationsSchema']>;

export const ToolSchema = lazy('ToolSchema');
export type Tool = Zod.infer<Schemas['ToolSchema']>;

export const ListToolsResultSchema = lazy('ListToolsResultSchema');

export const CallToolResultSchema = lazy('CallToolResultSchema');
export type CallToolResult = Zod.infer<Schemas['CallToolResultSchema']>;

export const ResourceSchema = lazy('ResourceSchema');
export type Resource = Zod.infer<Schemas['ResourceSchema']>;

export const ResourceTemplateSchema = lazy('ResourceTemplateSchema');
export type ResourceTemplate = Zod.infer<Schemas['ResourceTemplateSchema']>;

export const ListResourcesResultSchema = lazy('ListResourcesResultSchema');
export const ListResourceTemplatesResultSchema = lazy('ListResourceTemplatesResultSchema');

export const ResourceContentsSchema = lazy('ResourceContentsSchema');
export type ResourceContents = Zod.infer<Schemas['ResourceContentsSchema']>;

export const ReadResourceResultSchema = lazy('ReadResourceResultSchema');
export type ReadResourceResult = Zod.infer<Schemas['ReadResourceResultSchema']>;

export const PromptArgumentSchema = lazy('PromptArgumentSchema');
export const PromptSchema = lazy('PromptSchema');
export type Prompt = Zod.infer<Schemas['PromptSchema']>;
export const ListPromptsResultSchema = lazy('ListPromptsResultSchema');

export const PromptMessageSchema = lazy('PromptMessageSchema');
export type PromptMessage = Zod.infer<Schemas['PromptMessageSchema']>;
export const GetPromptResultSchema = lazy('GetPromptResultSchema');
export type GetPromptResult = Zod.infer<Schemas['GetPromptResultSchema']>;

/** A `completion/complete` reference: a prompt by name or a resource template by URI template. */
export type CompletionReference = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
export const CompleteResultSchema = lazy('CompleteResultSchema');
export type CompleteResult = Zod.infer<Schemas['CompleteResultSchema']>;

export const EmptyResultSchema = lazy('EmptyResultSchema');

// ---- notifications from the server ----

export const ProgressNotificationSchema = lazy('ProgressNotificationSchema');
export type Progress = Zod.infer<Schemas['ProgressNotificationSchema']>;

export const LoggingMessageNotificationSchema = lazy('LoggingMessageNotificationSchema');
export type LoggingMessage = Zod.infer<Schemas['LoggingMessageNotificationSchema']>;

export const ResourceUpdatedNotificationSchema = lazy('ResourceUpdatedNotificationSchema');
export const ElicitationCompleteNotificationSchema = lazy('ElicitationCompleteNotificationSchema');
export const CancelledNotificationSchema = lazy('CancelledNotificationSchema');

// ---- requests from the server ----

export interface Root {
	uri: string;
	name?: string;
}
export interface ListRootsResult {
	roots: Root[];
}

/** A sampling message: role plus one content block or (2025-11-25, with tools) an array of them. */
export const SamplingMessageSchema = lazy('SamplingMessageSchema');
export type SamplingMessage = Zod.infer<Schemas['SamplingMessageSchema']>;

export const ModelPreferencesSchema = lazy('ModelPreferencesSchema');

export const CreateMessageRequestSchema = lazy('CreateMessageRequestSchema');
export type CreateMessageRequest = Zod.infer<Schemas['CreateMessageRequestSchema']>;

export interface CreateMessageResult {
	role: 'assistant';
	content: ContentBlock | ContentBlock[];
	model: string;
	stopReason?: 'endTurn' | 'stopSequence' | 'maxTokens' | 'toolUse' | string;
	_meta?: Record<string, unknown>;
}

/** Form mode (default when `mode` is absent) or URL mode (2025-11-25). */
export const ElicitRequestSchema = lazy('ElicitRequestSchema');
export type ElicitRequest = Zod.infer<Schemas['ElicitRequestSchema']>;
export type ElicitFormRequest = Extract<ElicitRequest, { requestedSchema: unknown }>;
export type ElicitUrlRequest = Extract<ElicitRequest, { mode: 'url' }>;

export interface ElicitResult {
	action: 'accept' | 'decline' | 'cancel';
	content?: Record<string, string | number | boolean | string[]>;
	_meta?: Record<string, unknown>;
}
