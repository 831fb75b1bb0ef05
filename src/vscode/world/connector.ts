/**
 * The Manager's connector in VS Code: a server VS Code itself runs for its agent (manager/configSources.ts marks it
 * `vscodeRuns`) is reached through VS Code (vscodeToolsTransport.ts), so the window runs it once; every other server
 * gets the default connector (its own process or connection).
 */
import { McpClient } from '../../protocol/client';
import { createDefaultConnector, oauthFor } from '../../manager/defaultConnector';
import type { Host } from '../../manager/host';
import type { Connector } from '../../manager/serverConnection';
import type { ConfigSource } from '../../manager/types';
import { VsCodeToolsTransport } from './vscodeToolsTransport';

/** `sourceOf` gives a server's source by name (the Manager's view of it). */
export function worldConnector(host: Host, sourceOf: (server: string) => ConfigSource | undefined): Connector {
	const own = createDefaultConnector(oauthFor(host));
	return async (request) => {
		const source = sourceOf(request.name);
		if (!source?.vscodeRuns) return own(request);
		const transport = new VsCodeToolsTransport(source.vscodeName ?? request.name);
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
	};
}
