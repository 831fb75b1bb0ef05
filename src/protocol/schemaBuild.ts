/**
 * Builds the zod schemas of schema.ts. Loaded only through `schemas()` (a lazy require), so neither zod nor any
 * schema is evaluated when the core is imported. Uses zod/mini: the same validation as classic zod at a fraction
 * of the code, and bundlers keep only the functions used here (classic zod is ~1 MB as CommonJS and costs
 * 35-100 ms to load; this costs a few ms on first use).
 */
import * as z from 'zod/mini';
import { LOGGING_LEVELS } from './protocolConstants';

/** Every schema, built once by `schemas()` in schema.ts. */
export function buildSchemas() {
	const MetaSchema = z.optional(z.looseObject({}));

	const IconSchema = z.looseObject({
		src: z.string(),
		mimeType: z.optional(z.string()),
		sizes: z.optional(z.array(z.string())),
		theme: z.optional(z.string()),
	});

	const ImplementationSchema = z.looseObject({
		name: z.string(),
		version: z.string(),
		title: z.optional(z.string()),
		description: z.optional(z.string()),
		websiteUrl: z.optional(z.string()),
		icons: z.optional(z.array(IconSchema)),
	});

	const ListChangedCapability = z.looseObject({ listChanged: z.optional(z.boolean()) });

	const ServerCapabilitiesSchema = z.looseObject({
		experimental: z.optional(z.looseObject({})),
		logging: z.optional(z.looseObject({})),
		completions: z.optional(z.looseObject({})),
		prompts: z.optional(ListChangedCapability),
		resources: z.optional(z.looseObject({ subscribe: z.optional(z.boolean()), listChanged: z.optional(z.boolean()) })),
		tools: z.optional(ListChangedCapability),
		tasks: z.optional(z.looseObject({})),
	});

	const InitializeResultSchema = z.looseObject({
		protocolVersion: z.string(),
		capabilities: ServerCapabilitiesSchema,
		serverInfo: ImplementationSchema,
		instructions: z.optional(z.string()),
		_meta: MetaSchema,
	});

	/** `server/discover` (2026-07-28): versions, capabilities, instructions; serverInfo travels in `_meta`. */
	const DiscoverResultSchema = z.looseObject({
		supportedVersions: z.array(z.string()),
		capabilities: ServerCapabilitiesSchema,
		instructions: z.optional(z.string()),
		_meta: MetaSchema,
	});

	const AnnotationsSchema = z.looseObject({
		audience: z.optional(z.array(z.string())),
		priority: z.optional(z.number()),
		lastModified: z.optional(z.string()),
	});

	/** Any content block: text, image, audio, resource_link, resource, or a type from a newer spec. Passed through intact. */
	const ContentBlockSchema = z.looseObject({ type: z.string() });

	const ToolAnnotationsSchema = z.looseObject({
		title: z.optional(z.string()),
		readOnlyHint: z.optional(z.boolean()),
		destructiveHint: z.optional(z.boolean()),
		idempotentHint: z.optional(z.boolean()),
		openWorldHint: z.optional(z.boolean()),
	});

	const ToolSchema = z.looseObject({
		name: z.string(),
		title: z.optional(z.string()),
		description: z.optional(z.string()),
		inputSchema: z.looseObject({}),
		outputSchema: z.optional(z.looseObject({})),
		annotations: z.optional(ToolAnnotationsSchema),
		icons: z.optional(z.array(IconSchema)),
		execution: z.optional(z.looseObject({ taskSupport: z.optional(z.string()) })),
		_meta: MetaSchema,
	});

	const Paginated = { nextCursor: z.optional(z.string()), _meta: MetaSchema };

	const ListToolsResultSchema = z.looseObject({ tools: z.array(ToolSchema), ...Paginated });

	const CallToolResultSchema = z.looseObject({
		content: z._default(z.array(ContentBlockSchema), []),
		structuredContent: z.optional(z.looseObject({})),
		isError: z.optional(z.boolean()),
		_meta: MetaSchema,
	});

	const ResourceSchema = z.looseObject({
		uri: z.string(),
		name: z.string(),
		title: z.optional(z.string()),
		description: z.optional(z.string()),
		mimeType: z.optional(z.string()),
		size: z.optional(z.number()),
		annotations: z.optional(AnnotationsSchema),
		icons: z.optional(z.array(IconSchema)),
		_meta: MetaSchema,
	});

	const ResourceTemplateSchema = z.looseObject({
		uriTemplate: z.string(),
		name: z.string(),
		title: z.optional(z.string()),
		description: z.optional(z.string()),
		mimeType: z.optional(z.string()),
		annotations: z.optional(AnnotationsSchema),
		icons: z.optional(z.array(IconSchema)),
		_meta: MetaSchema,
	});

	const ListResourcesResultSchema = z.looseObject({ resources: z.array(ResourceSchema), ...Paginated });
	const ListResourceTemplatesResultSchema = z.looseObject({
		resourceTemplates: z.array(ResourceTemplateSchema),
		...Paginated,
	});

	const ResourceContentsSchema = z.looseObject({
		uri: z.string(),
		mimeType: z.optional(z.string()),
		text: z.optional(z.string()),
		blob: z.optional(z.string()),
		_meta: MetaSchema,
	});

	const ReadResourceResultSchema = z.looseObject({ contents: z.array(ResourceContentsSchema), _meta: MetaSchema });

	const PromptArgumentSchema = z.looseObject({
		name: z.string(),
		title: z.optional(z.string()),
		description: z.optional(z.string()),
		required: z.optional(z.boolean()),
	});
	const PromptSchema = z.looseObject({
		name: z.string(),
		title: z.optional(z.string()),
		description: z.optional(z.string()),
		arguments: z.optional(z.array(PromptArgumentSchema)),
		icons: z.optional(z.array(IconSchema)),
		_meta: MetaSchema,
	});
	const ListPromptsResultSchema = z.looseObject({ prompts: z.array(PromptSchema), ...Paginated });

	const PromptMessageSchema = z.looseObject({ role: z.enum(['user', 'assistant']), content: ContentBlockSchema });
	const GetPromptResultSchema = z.looseObject({
		description: z.optional(z.string()),
		messages: z.array(PromptMessageSchema),
		_meta: MetaSchema,
	});

	const CompleteResultSchema = z.looseObject({
		completion: z.looseObject({
			values: z.array(z.string()),
			total: z.optional(z.number()),
			hasMore: z.optional(z.boolean()),
		}),
		_meta: MetaSchema,
	});

	const EmptyResultSchema = z.looseObject({ _meta: MetaSchema });

	// ---- notifications from the server ----

	const ProgressNotificationSchema = z.looseObject({
		progressToken: z.union([z.string(), z.number()]),
		progress: z.number(),
		total: z.optional(z.number()),
		message: z.optional(z.string()),
	});

	const LoggingMessageNotificationSchema = z.looseObject({
		level: z.enum(LOGGING_LEVELS),
		logger: z.optional(z.string()),
		data: z.unknown(),
	});

	const ResourceUpdatedNotificationSchema = z.looseObject({ uri: z.string() });
	const ElicitationCompleteNotificationSchema = z.looseObject({ elicitationId: z.string() });
	const CancelledNotificationSchema = z.looseObject({
		requestId: z.optional(z.union([z.string(), z.number()])),
		reason: z.optional(z.string()),
	});

	// ---- requests from the server ----

	/** A sampling message: role plus one content block or (2025-11-25, with tools) an array of them. */
	const SamplingMessageSchema = z.looseObject({
		role: z.enum(['user', 'assistant']),
		content: z.union([ContentBlockSchema, z.array(ContentBlockSchema)]),
	});

	const ModelPreferencesSchema = z.looseObject({
		hints: z.optional(z.array(z.looseObject({ name: z.optional(z.string()) }))),
		costPriority: z.optional(z.number()),
		speedPriority: z.optional(z.number()),
		intelligencePriority: z.optional(z.number()),
	});

	const CreateMessageRequestSchema = z.looseObject({
		messages: z.array(SamplingMessageSchema),
		modelPreferences: z.optional(ModelPreferencesSchema),
		systemPrompt: z.optional(z.string()),
		includeContext: z.optional(z.enum(['none', 'thisServer', 'allServers'])),
		temperature: z.optional(z.number()),
		maxTokens: z.number(),
		stopSequences: z.optional(z.array(z.string())),
		metadata: z.optional(z.looseObject({})),
		tools: z.optional(z.array(ToolSchema)),
		toolChoice: z.optional(z.looseObject({ mode: z.optional(z.string()) })),
		_meta: MetaSchema,
	});

	/** Form mode (default when `mode` is absent) or URL mode (2025-11-25). */
	const ElicitRequestSchema = z.union([
		z.looseObject({
			mode: z.literal('url'),
			message: z.string(),
			url: z.string(),
			// Required in 2025-11-25; 2026-07-28 removed it (MRTR retries the request instead of a completion notification).
			elicitationId: z.optional(z.string()),
		}),
		z.looseObject({
			mode: z.optional(z.literal('form')),
			message: z.string(),
			requestedSchema: z.looseObject({
				type: z.optional(z.literal('object')),
				properties: z.record(z.string(), z.looseObject({})),
				required: z.optional(z.array(z.string())),
			}),
		}),
	]);

	/**
	 * Our answer to `roots/list`, checked before it is sent. Spec: "uri: ... This MUST be a `file://` URI in the
	 * current specification." https://modelcontextprotocol.io/specification/2025-11-25/client/roots#root
	 */
	const ListRootsResultSchema = z.looseObject({
		roots: z.array(
			z.looseObject({
				uri: z.string().check(z.startsWith('file://', { message: 'must be a file:// URI' })),
				name: z.optional(z.string()),
				_meta: MetaSchema,
			}),
		),
		_meta: MetaSchema,
	});

	return {
		IconSchema,
		ImplementationSchema,
		ServerCapabilitiesSchema,
		InitializeResultSchema,
		DiscoverResultSchema,
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
		ListRootsResultSchema,
	};
}

export type Schemas = ReturnType<typeof buildSchemas>;
