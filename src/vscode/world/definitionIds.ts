/**
 * VS Code's id for the server definition of an mcp.json entry, so the connector can ask VS Code to start that one
 * server (`workbench.mcp.startServer <id>`) and no other. Plain data, no `vscode` import: unit-tested.
 *
 * VS Code 1.139 (`src/vs/workbench/contrib/mcp`, read in code-server 1.139.1's workbench.js): an entry's id is
 * `<collection>.<key>`, the collection being `mcp.config.` + the config path's id: `ws<folder index>` for a folder's
 * `.vscode/mcp.json`, `usrlocal` for the profile's user `mcp.json` (`usrremote` for a remote's user file); a folder's
 * project-root `.mcp.json` is the collection `workspace-dot-mcp.<folder index>`. The command filters VS Code's servers
 * by `definition.id ===` that id, so an id VS Code does not have starts nothing.
 */
import * as path from 'node:path';
import type { ConfigSource } from '../../manager/types';

/**
 * The ids VS Code may give the server `name` of `source` (more than one only where which one exists depends on the
 * host: the user file of a local or a remote window); none when VS Code does not run it. `folders` are the workspace
 * folders' paths in VS Code's order.
 */
export function vscodeDefinitionIds(source: ConfigSource, name: string, folders: readonly string[]): string[] {
	if (!source.vscodeRuns) return [];
	// The entry VS Code runs may be a twin of the one Switchboard kept (same launch in settings): look at both.
	const places = [{ ...source, name: source.vscodeName ?? name }, ...(source.alsoIn ?? [])];
	return places.flatMap((place) => idsOf(place, place.name ?? name, folders));
}

function idsOf(source: ConfigSource, key: string, folders: readonly string[]): string[] {
	if (source.kind === 'userMcpJson') return [`mcp.config.usrlocal.${key}`, `mcp.config.usrremote.${key}`];
	if (source.kind !== 'mcpJson' || source.path === undefined) return [];
	const file = path.resolve(source.path);
	const index = folders.findIndex((folder) => path.join(path.resolve(folder), '.vscode', 'mcp.json') === file);
	if (index >= 0) return [`mcp.config.ws${index}.${key}`];
	const root = folders.findIndex((folder) => path.join(path.resolve(folder), '.mcp.json') === file);
	return root >= 0 ? [`workspace-dot-mcp.${root}.${key}`] : [];
}
