/**
 * The MCP Registry's `server.json` and its read API's answers, as zod schemas (zod/mini). The shapes follow the
 * registry's published schema (https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json) and its
 * OpenAPI document (docs/reference/api/openapi.yaml in github.com/modelcontextprotocol/registry): camelCase fields,
 * `packages` with `registryType` (npm, pypi, oci, nuget, mcpb), `remotes` (streamable-http, sse), and the registry's
 * own metadata under `_meta["io.modelcontextprotocol.registry/official"]`. Objects are loose: a field a newer schema
 * adds passes through; a missing required field or a wrong type fails with the path that is wrong.
 */
import * as z from 'zod/mini';

/** An input (the value of an argument, environment variable or header): how to ask for it and how to treat it. */
const InputShape = {
	description: z.optional(z.string()),
	isRequired: z.optional(z.boolean()),
	isSecret: z.optional(z.boolean()),
	format: z.optional(z.string()),
	value: z.optional(z.string()),
	default: z.optional(z.string()),
	placeholder: z.optional(z.string()),
	choices: z.optional(z.array(z.string())),
};

export const InputSchema = z.looseObject(InputShape);
/** An input whose `value` may name `{variables}`, each an input of its own. */
const WithVariables = { ...InputShape, variables: z.optional(z.record(z.string(), InputSchema)) };

export const KeyValueInputSchema = z.looseObject({ ...WithVariables, name: z.string() });

export const ArgumentSchema = z.union([
	z.looseObject({ ...WithVariables, type: z.literal('positional'), valueHint: z.optional(z.string()) }),
	z.looseObject({
		...WithVariables,
		type: z.literal('named'),
		name: z.string(),
		isRepeated: z.optional(z.boolean()),
	}),
]);

const RemoteShape = {
	url: z.string(),
	headers: z.optional(z.array(KeyValueInputSchema)),
	/** `{name}` parts of the URL (2025-12-11 and later). */
	variables: z.optional(z.record(z.string(), InputSchema)),
};

export const TransportSchema = z.union([
	z.looseObject({ type: z.literal('stdio') }),
	z.looseObject({ type: z.literal('streamable-http'), ...RemoteShape }),
	z.looseObject({ type: z.literal('sse'), ...RemoteShape }),
]);

export const RemoteSchema = z.union([
	z.looseObject({ type: z.literal('streamable-http'), ...RemoteShape }),
	z.looseObject({ type: z.literal('sse'), ...RemoteShape }),
]);

export const PackageSchema = z.looseObject({
	registryType: z.string(),
	registryBaseUrl: z.optional(z.string()),
	identifier: z.string(),
	version: z.optional(z.string()),
	fileSha256: z.optional(z.string()),
	runtimeHint: z.optional(z.string()),
	transport: TransportSchema,
	runtimeArguments: z.optional(z.array(ArgumentSchema)),
	packageArguments: z.optional(z.array(ArgumentSchema)),
	environmentVariables: z.optional(z.array(KeyValueInputSchema)),
});

export const ServerJsonSchema = z.looseObject({
	$schema: z.optional(z.string()),
	name: z.string(),
	title: z.optional(z.string()),
	description: z.string(),
	version: z.string(),
	websiteUrl: z.optional(z.string()),
	repository: z.optional(z.looseObject({ url: z.optional(z.string()), source: z.optional(z.string()) })),
	packages: z.optional(z.array(PackageSchema)),
	remotes: z.optional(z.array(RemoteSchema)),
});

/** The key of the registry's own metadata in a listing's `_meta`. */
export const OFFICIAL_META = 'io.modelcontextprotocol.registry/official';

export const OfficialMetaSchema = z.looseObject({
	status: z.optional(z.string()),
	/** Not in every registry: a publisher's word on why the version is deprecated. Read when present. */
	statusMessage: z.optional(z.string()),
	publishedAt: z.optional(z.string()),
	updatedAt: z.optional(z.string()),
	isLatest: z.optional(z.boolean()),
});

/** One server version as the API answers it: the server.json and the registry's metadata beside it. */
export const ServerResponseSchema = z.looseObject({
	server: z.unknown(),
	_meta: z.optional(z.record(z.string(), z.unknown())),
});

export const ServerListSchema = z.looseObject({
	servers: z.array(ServerResponseSchema),
	metadata: z.optional(
		z.looseObject({ nextCursor: z.optional(z.nullable(z.string())), count: z.optional(z.number()) }),
	),
});

export type Input = z.infer<typeof InputSchema>;
export type KeyValueInput = z.infer<typeof KeyValueInputSchema>;
export type Argument = z.infer<typeof ArgumentSchema>;
export type Package = z.infer<typeof PackageSchema>;
export type Remote = z.infer<typeof RemoteSchema>;
export type ServerJson = z.infer<typeof ServerJsonSchema>;
export type OfficialMeta = z.infer<typeof OfficialMetaSchema>;

/** Why a document is not a valid server.json: the first few problems with their paths, one line. */
export function serverJsonProblems(value: unknown): { ok: true; server: ServerJson } | { ok: false; problem: string } {
	const parsed = ServerJsonSchema.safeParse(value);
	if (parsed.success) return { ok: true, server: parsed.data };
	const problems = parsed.error.issues
		.slice(0, 3)
		.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(the document)'}: ${issue.message}`);
	return { ok: false, problem: problems.join('; ') };
}
