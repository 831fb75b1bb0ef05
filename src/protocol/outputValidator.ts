/**
 * Validators for a tool's `outputSchema`, built from JSON Schema with zod 4's `z.fromJSONSchema` (no second
 * validation library). The client loads this module on the first validator it needs: it pulls in classic zod. Building one costs ~0.4 ms, so the client builds a tool's validator on that tool's first
 * call and caches it, never on `tools/list`: a server with 1,000 tools must not cost 1,000 compilations per list.
 *
 * Spec: "Servers MUST provide structured results that conform to this schema. Clients SHOULD validate structured
 * results against this schema." https://modelcontextprotocol.io/specification/2025-11-25/server/tools#output-schema
 */
import { fromJSONSchema } from 'zod';
import { errorMessage } from '../common/errors';

/** The outcome of one check: ok, or a message that names the path of the first problem. */
export type OutputCheck = { ok: true } | { ok: false; message: string; issues: unknown[] };

/** Checks a value against one outputSchema. */
export type OutputValidator = (value: unknown) => OutputCheck;

/** How many validators were built in this process (tests assert laziness and caching with it). */
export const outputValidatorStats = { compiled: 0 };

/**
 * Builds the validator for one JSON Schema. Never throws: a schema zod cannot translate (e.g. an unresolvable
 * `$ref`) yields a validator that accepts everything and reports why once through `onUnsupported`.
 */
export function compileOutputValidator(
	schema: Record<string, unknown>,
	onUnsupported?: (reason: string) => void,
): OutputValidator {
	outputValidatorStats.compiled++;
	let zodSchema: ReturnType<typeof fromJSONSchema>;
	try {
		zodSchema = fromJSONSchema(schema);
	} catch (error) {
		onUnsupported?.(errorMessage(error));
		return () => ({ ok: true });
	}
	return (value) => {
		const result = zodSchema.safeParse(value);
		if (result.success) {
			return { ok: true };
		}
		const issues = result.error.issues;
		const first = issues[0];
		const path = first && first.path.length > 0 ? first.path.map(String).join('.') : '(root)';
		return { ok: false, message: `at ${path}: ${first?.message ?? 'invalid'}`, issues };
	};
}
