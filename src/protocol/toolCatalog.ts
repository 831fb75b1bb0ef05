/**
 * What the client knows of a server's tools from its last complete `tools/list`: each tool by name (for its
 * `execution.taskSupport` and `outputSchema`), the cached output validators, and the tools' `x-mcp-header` marks
 * (2026-07-28 over HTTP). The checks of a tool's result live here too, beside the schemas they use.
 */
import type { Logger } from '../common/logger';
import type { JsonRpcRequest } from './jsonrpc';
import { ErrorCode } from './jsonrpc';
import { McpError } from './mcpError';
import type { ParamHeader } from './modern/httpHeaders';
import { modernHttpHeaders } from './modern/onFirstUse';
import type { OutputValidator } from './outputValidator';
import { isPlainCallToolResult } from './plainResults';
import { parseResult } from './resultChecks';
import type { CallToolResult, Tool } from './schema';

/** A cached outputSchema validator and the schema object it was built from. */
interface CachedValidator {
	source: Record<string, unknown>;
	validate: OutputValidator;
}

/** The tools of one server, as its last complete listing gave them. */
export class ToolCatalog {
	/** Tools by name from the last complete `tools/list`; used to find a tool's outputSchema. */
	private knownTools: Map<string, Tool> | undefined;
	/** How many tools/list were started, and which of them `knownTools` comes from. */
	private listings = 0;
	private knownListing = 0;
	private readonly validators = new Map<string, CachedValidator>();
	/** Tools' `x-mcp-header` marks by tool name, from the last `tools/list` (HTTP only). */
	private paramHeaderMarks = new Map<string, ParamHeader[]>();

	constructor(
		private readonly name: string,
		private readonly logger: Logger,
	) {}

	/** Numbers a listing as it starts, so that `adopt` keeps only the newest one started. */
	startListing(): number {
		return ++this.listings;
	}

	/**
	 * Takes the tools of listing `number`. Overlapping listings may finish out of order: outputSchemas come from the
	 * newest one started, never an older. Over HTTP (`checkHeaders`) tools with broken `x-mcp-header` marks are dropped.
	 */
	adopt(number: number, listed: Tool[], checkHeaders: boolean): Tool[] {
		const tools = checkHeaders ? this.checkParamHeaders(listed) : listed;
		if (number > this.knownListing) {
			this.knownListing = number;
			this.knownTools = new Map(tools.map((tool) => [tool.name, tool]));
		}
		return tools;
	}

	/** True when the last listing named the tool. */
	has(name: string): boolean {
		return this.knownTools?.has(name) === true;
	}

	/** The tool's `execution.taskSupport` from the last tools/list: `required`, `optional`, or `forbidden` (also when absent or unknown). */
	taskSupport(name: string): 'required' | 'optional' | 'forbidden' {
		const support = this.knownTools?.get(name)?.execution?.taskSupport;
		return support === 'required' || support === 'optional' ? support : 'forbidden';
	}

	/**
	 * A tools/call (or tasks/result) answer as a CallToolResult. When the last `tools/list` gave the tool an
	 * outputSchema, `structuredContent` is validated against it (see McpClient.callTool).
	 */
	checkResult(tool: string, raw: Record<string, unknown>, method = 'tools/call'): CallToolResult {
		// The hot path: a result of the usual shape is checked structurally (what CallToolResultSchema checks, without
		// copying it); anything else goes through the schema, which fills defaults and names the path of a problem.
		const result = isPlainCallToolResult(raw)
			? (raw as CallToolResult)
			: parseResult(this.name, 'CallToolResultSchema', raw, method);
		const outputSchema = this.knownTools?.get(tool)?.outputSchema;
		if (outputSchema && !result.isError) {
			if (result.structuredContent === undefined) {
				throw new McpError(
					ErrorCode.ProtocolViolation,
					`Tool "${tool}" of ${this.name} has an outputSchema but returned no structuredContent`,
					{ tool },
				);
			}
			const check = this.validatorFor(tool, outputSchema)(result.structuredContent);
			if (!check.ok) {
				throw new McpError(
					ErrorCode.ProtocolViolation,
					`Tool "${tool}" of ${this.name} returned structuredContent that does not match its outputSchema ${check.message}`,
					{ tool, issues: check.issues },
				);
			}
		}
		return result;
	}

	/** `Mcp-Param-*` headers for a tools/call over HTTP, from the tool's `x-mcp-header` marks. */
	paramHeaders(message: JsonRpcRequest): Record<string, string> | undefined {
		if (message.method !== 'tools/call' || this.paramHeaderMarks.size === 0) return undefined;
		const name = message.params?.name;
		const marks = typeof name === 'string' ? this.paramHeaderMarks.get(name) : undefined;
		if (!marks) return undefined;
		const args = message.params?.arguments;
		return modernHttpHeaders().paramHeaderValues(
			marks,
			typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : undefined,
		);
	}

	/**
	 * Drops tools whose `x-mcp-header` marks break the rules: "Rejection means the client MUST exclude the invalid
	 * tool from the result of tools/list ... SHOULD log a warning ... including the tool name and the reason".
	 */
	private checkParamHeaders(tools: Tool[]): Tool[] {
		const marks = new Map<string, ParamHeader[]>();
		const kept: Tool[] = [];
		const { paramHeadersOf } = modernHttpHeaders();
		for (const tool of tools) {
			const found = paramHeadersOf(tool.inputSchema);
			if ('problem' in found) {
				this.logger.warn(`${this.name}: ignored tool "${tool.name}": ${found.problem}`);
				continue;
			}
			if (found.headers.length > 0) marks.set(tool.name, found.headers);
			kept.push(tool);
		}
		this.paramHeaderMarks = marks;
		return kept;
	}

	/** The cached validator of a tool, rebuilt only when its outputSchema changed since it was built. */
	private validatorFor(tool: string, outputSchema: Record<string, unknown>): OutputValidator {
		const cached = this.validators.get(tool);
		if (cached) {
			if (cached.source === outputSchema) {
				return cached.validate;
			}
			// A new tools/list gave new objects; reuse the validator when the schema is the same.
			if (JSON.stringify(cached.source) === JSON.stringify(outputSchema)) {
				cached.source = outputSchema;
				return cached.validate;
			}
		}
		// Loaded on first need: it brings classic zod (fromJSONSchema), which importing the client must not pay for.
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { compileOutputValidator } = require('./outputValidator') as typeof import('./outputValidator');
		const validate = compileOutputValidator(outputSchema, (reason) =>
			this.logger.warn(
				`${this.name}: cannot validate the output of tool "${tool}" (its outputSchema is not supported: ${reason})`,
			),
		);
		this.validators.set(tool, { source: outputSchema, validate });
		return validate;
	}
}
