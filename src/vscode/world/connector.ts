/**
 * The Manager's connector in VS Code: a server VS Code itself runs for its agent (manager/configSources.ts marks it
 * `vscodeRuns`) is reached through VS Code (vscodeToolsTransport.ts), so the window keeps one process of it; every
 * other server gets the default connector (its own process or connection).
 *
 * VS Code names the tools after the server's announced `serverInfo.title || serverInfo.name` (its label only when it
 * announces none), which only a connection tells. So the first start of such a server connects once on its own to
 * learn that name, closes that connection as soon as VS Code's tools under the name are found (asking VS Code to
 * start that one server, by VS Code's id for it, when it has not yet; not for a server with `${input:}` values, whose
 * inputs VS Code would ask the user for a second time), and goes through VS Code from then on; the name is
 * remembered for the window. When VS Code offers no tools of it (MCP off in VS Code, the server failing there), the
 * own connection stays.
 */
import { McpClient } from '../../protocol/client';
import { createDefaultConnector, oauthFor } from '../../manager/defaultConnector';
import type { Host } from '../../manager/host';
import type { Connector, ConnectRequest } from '../../manager/serverConnection';
import type { ConfigSource } from '../../manager/types';
import * as vscode from 'vscode';
import { vscodeDefinitionIds } from './definitionIds';
import { VsCodeToolsTransport, vscodeToolsOf } from './vscodeToolsTransport';

/** Asks VS Code to start its definition of this one server (and none of its others) and waits for its tools. */
/** How many times a VS Code-run server is asked to start in VS Code, and how far apart, before keeping our own. */
const START_ATTEMPTS = 5;
const START_RETRY_MS = 2_000;

async function startInVsCode(source: ConfigSource, name: string): Promise<void> {
	const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
	for (const id of vscodeDefinitionIds(source, name, folders))
		await vscode.commands.executeCommand('workbench.mcp.startServer', id, { waitForLiveTools: true });
}

/**
 * `sourceOf` gives a server's source by name, `writtenOf` its configuration as written, `${input:}` unresolved (the
 * Manager's view of it).
 */
export function worldConnector(
	host: Host,
	sourceOf: (server: string) => ConfigSource | undefined,
	writtenOf: (server: string) => unknown,
): Connector {
	const own = createDefaultConnector(oauthFor(host));
	/** The announced name of each server VS Code runs, by its label in VS Code. */
	const announced = new Map<string, string>();
	const withTools = (names: (string | undefined)[]) =>
		names.find((name): name is string => name !== undefined && vscodeToolsOf(name).length > 0);

	return async (request) => {
		const source = sourceOf(request.name);
		if (!source?.vscodeRuns) return own(request);
		const label = source.vscodeName ?? request.name;
		let name = withTools([announced.get(label), label]);
		if (name === undefined) {
			const client = await own(request);
			const info = client.serverInfo;
			const names = [info.title || info.name, label];
			announced.set(label, names[0]!);
			name = withTools(names);
			// VS Code lists a server's tools once it has started it; ask it to start this one, unless it takes
			// `${input:}` values: Switchboard has just asked for them, and VS Code keeps its own and would ask again.
			// An mcp.json written a moment ago may not be read by VS Code yet (its file watcher lags behind ours): the
			// start is asked again, two seconds apart, before Switchboard settles for its own process.
			const inputs = JSON.stringify(writtenOf(request.name) ?? null).includes('${input:');
			for (let attempt = 0; name === undefined && !inputs && attempt < START_ATTEMPTS; attempt++) {
				if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, START_RETRY_MS));
				if (request.signal.aborted) break;
				await startInVsCode(source, request.name);
				name = withTools(names);
			}
			if (name === undefined) {
				request.logger.info(`VS Code offers no tools of '${label}': MCP Switchboard keeps its own connection`);
				return client;
			}
			await client.close();
		}
		request.logger.info(`'${label}' runs in VS Code: MCP Switchboard reaches its tools through VS Code`);
		return bridged(request, name);
	};
}

/** An MCP client over VS Code's tools of the server VS Code names `name`. */
async function bridged(request: ConnectRequest, name: string): Promise<McpClient> {
	const transport = new VsCodeToolsTransport(name);
	const onAbort = () => void transport.close();
	if (request.signal.aborted) throw request.signal.reason;
	request.signal.addEventListener('abort', onAbort, { once: true });
	try {
		return await McpClient.connect(transport, {
			name: request.name,
			logger: request.logger,
			handlers: request.handlers,
			connectTimeoutMs: Infinity,
			knownEra: 'legacy',
		});
	} finally {
		request.signal.removeEventListener('abort', onAbort);
	}
}
