/** The description of a server VS Code itself runs for its agent (its `.vscode/mcp.json` or user `mcp.json`). */
export const ALSO_IN_VSCODE = 'also in VS Code';

/** The tooltip's line for such a server: why the gateway leaves it out. */
export const VSCODE_RUNS_NOTE =
	"VS Code also runs this server for its agent, so MCP Switchboard's gateway does not offer it again";
