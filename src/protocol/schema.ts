/**
 * zod schemas for the MCP messages the client interprets, and the types inferred from them.
 * Objects are loose (unknown fields pass through intact) and only as deep as the client needs:
 * content blocks are checked for their `type` and otherwise passed on as the server sent them.
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/schema
 *
 * Nothing here runs at import time: the headless API (dist/core.js) and extension activation must not pay for
 * zod. The schemas are built with zod/mini in schemaBuild.ts, loaded by `schemas()` on first use; the exported
 * `XxxSchema` constants are lazy stand-ins that do the same on first touch (hot paths call `schemas()` directly).
 * They are zod/mini schemas: `.parse`/`.safeParse` work as in classic zod; wrap with functions (`z.optional(x)`)
 * instead of chaining.
 */
import type * as ZodMini from 'zod/mini';
import type { Schemas } from './schemaBuild';

export {
	LATEST_PROTOCOL_VERSION,
	LOGGING_LEVELS,
	SUPPORTED_PROTOCOL_VERSIONS,
	type LoggingLevel,
	type ProtocolVersion,
} from './protocolConstants';

export type { Schemas } from './schemaBuild';

let built: Schemas | undefined;

/** Builds every schema on the first call (a few ms, once); later calls return the same objects. */
export function schemas(): Schemas {
	// A require inside a function: bundlers evaluate schemaBuild (and zod/mini) only now.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return (built ??= (require('./schemaBuild') as typeof import('./schemaBuild')).buildSchemas());
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
				return Reflect.get(real, property, real) as unknown;
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
export type Icon = ZodMini.infer<Schemas['IconSchema']>;

export const ImplementationSchema = lazy('ImplementationSchema');
export type Implementation = ZodMini.infer<Schemas['ImplementationSchema']>;

export const ServerCapabilitiesSchema = lazy('ServerCapabilitiesSchema');
export type ServerCapabilities = ZodMini.infer<Schemas['ServerCapabilitiesSchema']>;

/** What the client advertises; built from the handlers the host supplied (see client.ts). */
export interface ClientCapabilities {
	roots?: { listChanged?: boolean };
	sampling?: { context?: object; tools?: object };
	elicitation?: { form?: object; url?: object };
	experimental?: Record<string, object>;
	/** MCP extensions the client supports, by identifier (SEP-1724), e.g. `io.modelcontextprotocol/ui`. */
	extensions?: Record<string, object>;
	[key: string]: unknown;
}

export const InitializeResultSchema = lazy('InitializeResultSchema');
export type InitializeResult = ZodMini.infer<Schemas['InitializeResultSchema']>;

export const AnnotationsSchema = lazy('AnnotationsSchema');
type Annotations = ZodMini.infer<Schemas['AnnotationsSchema']>;

/** Any content block: text, image, audio, resource_link, resource, or a type from a newer spec. Passed through intact. */
export const ContentBlockSchema = lazy('ContentBlockSchema');
export type ContentBlock = ZodMini.infer<Schemas['ContentBlockSchema']> & Record<string, unknown>;

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
export type ToolAnnotations = ZodMini.infer<Schemas['ToolAnnotationsSchema']>;

export const ToolSchema = lazy('ToolSchema');
export type Tool = ZodMini.infer<Schemas['ToolSchema']>;

export const ListToolsResultSchema = lazy('ListToolsResultSchema');

export const CallToolResultSchema = lazy('CallToolResultSchema');
export type CallToolResult = ZodMini.infer<Schemas['CallToolResultSchema']>;

export const ResourceSchema = lazy('ResourceSchema');
export type Resource = ZodMini.infer<Schemas['ResourceSchema']>;

export const ResourceTemplateSchema = lazy('ResourceTemplateSchema');
export type ResourceTemplate = ZodMini.infer<Schemas['ResourceTemplateSchema']>;

export const ListResourcesResultSchema = lazy('ListResourcesResultSchema');
export const ListResourceTemplatesResultSchema = lazy('ListResourceTemplatesResultSchema');

export const ResourceContentsSchema = lazy('ResourceContentsSchema');
export type ResourceContents = ZodMini.infer<Schemas['ResourceContentsSchema']>;

export const ReadResourceResultSchema = lazy('ReadResourceResultSchema');
export type ReadResourceResult = ZodMini.infer<Schemas['ReadResourceResultSchema']>;

export const PromptArgumentSchema = lazy('PromptArgumentSchema');
export const PromptSchema = lazy('PromptSchema');
export type Prompt = ZodMini.infer<Schemas['PromptSchema']>;
export const ListPromptsResultSchema = lazy('ListPromptsResultSchema');

export const PromptMessageSchema = lazy('PromptMessageSchema');
export type PromptMessage = ZodMini.infer<Schemas['PromptMessageSchema']>;
export const GetPromptResultSchema = lazy('GetPromptResultSchema');
export type GetPromptResult = ZodMini.infer<Schemas['GetPromptResultSchema']>;

/** A `completion/complete` reference: a prompt by name or a resource template by URI template. */
export type CompletionReference = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
export const CompleteResultSchema = lazy('CompleteResultSchema');
export type CompleteResult = ZodMini.infer<Schemas['CompleteResultSchema']>;

export const EmptyResultSchema = lazy('EmptyResultSchema');

// ---- notifications from the server ----

export const ProgressNotificationSchema = lazy('ProgressNotificationSchema');
export type Progress = ZodMini.infer<Schemas['ProgressNotificationSchema']>;

export const LoggingMessageNotificationSchema = lazy('LoggingMessageNotificationSchema');
export type LoggingMessage = ZodMini.infer<Schemas['LoggingMessageNotificationSchema']>;

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
export type SamplingMessage = ZodMini.infer<Schemas['SamplingMessageSchema']>;

export const ModelPreferencesSchema = lazy('ModelPreferencesSchema');

export const CreateMessageRequestSchema = lazy('CreateMessageRequestSchema');
export type CreateMessageRequest = ZodMini.infer<Schemas['CreateMessageRequestSchema']>;

export interface CreateMessageResult {
	role: 'assistant';
	content: ContentBlock | ContentBlock[];
	model: string;
	stopReason?: 'endTurn' | 'stopSequence' | 'maxTokens' | 'toolUse' | string;
	_meta?: Record<string, unknown>;
}

/** Form mode (default when `mode` is absent) or URL mode (2025-11-25). */
export const ElicitRequestSchema = lazy('ElicitRequestSchema');
export type ElicitRequest = ZodMini.infer<Schemas['ElicitRequestSchema']>;
export type ElicitFormRequest = Extract<ElicitRequest, { requestedSchema: unknown }>;
export type ElicitUrlRequest = Extract<ElicitRequest, { mode: 'url' }>;

export interface ElicitResult {
	action: 'accept' | 'decline' | 'cancel';
	content?: Record<string, string | number | boolean | string[]>;
	_meta?: Record<string, unknown>;
}
