/**
 * What VS Code adds to a chat request on its own that `@mcp` must not forward to the model. VS Code 1.139 attaches,
 * to every participant's request and without the user choosing it, the workspace's instruction files
 * (`.github/copilot-instructions.md`, `AGENTS.md`, `*.instructions.md` that apply: ids `vscode.instructions.file.root__<uri>`
 * and `vscode.instructions.file.reference__<uri>`, `vscode.prompt.instructions…` before) and its customizations index
 * (`vscode.customizations.index`: the skills, agents and prompt files it knows, as text). They are written for VS
 * Code's own agent and name its tools (`#tool:read/readFile`, `#tool:agent/runSubagent`), which `@mcp` does not
 * offer, so the model was told to call tools it cannot. (Read in code-server 1.139.1's workbench: `yB()` and
 * `qOo()` build these entries, `automaticallyAdded` marks them; the extension API passes them as references.)
 * What the user attached (files, selections, a prompt file they ran, `#` references) still goes.
 */
import type * as vscode from 'vscode';

/** Reference ids (or their prefix before `__<uri>`) VS Code adds by itself for its own agent. */
const HIDDEN_IDS = ['vscode.customizations.index', 'vscode.instructions.file.', 'vscode.prompt.instructions'];

/** Whether VS Code added `reference` by itself for its own agent (instructions, the customizations index). */
export function isHiddenContext(reference: { id: string }): boolean {
	return HIDDEN_IDS.some((id) => reference.id === id || reference.id.startsWith(id));
}

/** The references the user attached: the request's, without what VS Code added for its own agent. */
export function userReferences(
	references: readonly vscode.ChatPromptReference[] | undefined,
): vscode.ChatPromptReference[] {
	return (references ?? []).filter((reference) => !isHiddenContext(reference));
}
