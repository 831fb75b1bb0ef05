/**
 * How a tool reads in a picker, the same as in the MCP view's tree: its name first (short, what the palette, files and
 * call history call it), then its title when that differs, then where it comes from; its description's first line
 * below. One name everywhere, so "echo" in the tree is "echo" in the Call Tool pick. Also the arguments as the
 * confirmation before a run shows them. No `vscode` here.
 */
import type { NamedTool } from '../../manager/manager';

/** A quick pick row for one tool, without the `vscode` item type (the caller adds what it needs). */
export interface ToolPickRow {
	label: string;
	description: string | undefined;
	detail: string | undefined;
}

/** The tool's human title (`title`, else `annotations.title`), or undefined when it has none or it is the name. */
export function toolTitle(tool: NamedTool['tool']): string | undefined {
	const title = tool.title ?? tool.annotations?.title;
	return title && title !== tool.name ? title : undefined;
}

/**
 * The pick row for `named`: label the tool's name, description its title and (with `withServer`, for a pick among
 * every server's tools) the server, detail the first line of its description.
 */
export function toolPickRow(named: NamedTool, withServer: boolean): ToolPickRow {
	const description = [toolTitle(named.tool), withServer ? named.server : undefined].filter(Boolean).join(' · ');
	const detail = named.tool.description?.split('\n', 1)[0]?.trim();
	return { label: named.tool.name, description: description || undefined, detail: detail || undefined };
}

/**
 * The arguments as the confirmation before a tool runs shows them: every one, whole, as one line of JSON (the quick
 * input's prompt wraps it). Never cut: the user agrees to exactly what will be sent.
 */
export function consentArguments(args: Record<string, unknown>): string {
	return Object.keys(args).length === 0 ? 'No arguments' : `Arguments: ${JSON.stringify(args)}`;
}
