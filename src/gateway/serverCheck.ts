/**
 * Check This Server for any configured server, shared by the editor and `mcp-switchboard check`: a Streamable HTTP
 * server is checked at its URL; a stdio server through a loopback bridge (stdioBridge.ts) that starts a fresh process
 * of it per session from its configuration (command, arguments, environment, folder) and stops them all when the
 * check ends, fails or is cancelled. The legacy HTTP+SSE transport cannot be checked: the suite speaks Streamable HTTP.
 */
import type { Logger } from '../common/logger';
import { runServerConformance, type ConformanceReport, type SuiteCommand } from '../manager/conformance';
import type { ServerConfig } from '../manager/types';
import { createTransport } from '../protocol/transports/createTransport';
import { startStdioBridge } from './stdioBridge';

export interface ServerCheckOptions {
	/** Aborting stops the suite, then every process the check started. */
	signal?: AbortSignal;
	/** The server processes' stderr and the bridge's messages. */
	logger?: Logger;
	/** Pass the whole environment to a stdio server's processes (mcpSwitchboard.inheritEnvironment); default true. */
	inheritEnvironment?: boolean;
	/** Runs only this scenario of the suite (`mcp-switchboard check --scenario`); default every active one. */
	scenario?: string;
}

/** The one-line command a stdio configuration runs, for the report. */
function commandLine(config: { command: string; args?: string[] }): string {
	return [config.command, ...(config.args ?? [])]
		.map((part) => (/\s/.test(part) ? JSON.stringify(part) : part))
		.join(' ');
}

/**
 * Runs the suite's server scenarios against `config` and resolves with the report; never rejects for a failing
 * server or suite (the report's `failure` says why nothing ran). Resolves only once no process it started is left.
 */
export async function checkServerConformance(
	server: string,
	config: ServerConfig,
	suite: SuiteCommand,
	options: ServerCheckOptions = {},
): Promise<ConformanceReport> {
	if (config.type !== 'stdio') {
		if (config.type === 'http')
			return runServerConformance(server, config.url, suite, options.signal, options.scenario);
		return {
			server,
			url: config.url,
			scenarios: [],
			failure: `'${server}' uses the legacy HTTP+SSE transport; the conformance suite connects over Streamable HTTP only.`,
		};
	}
	const stdio = config;
	const bridge = await startStdioBridge({
		spawn: () =>
			createTransport(stdio, {
				name: server,
				logger: options.logger,
				inheritEnvironment: options.inheritEnvironment ?? true,
			}),
		logger: options.logger,
	});
	try {
		const report = await runServerConformance(server, bridge.url, suite, options.signal, options.scenario);
		return { ...report, stdio: commandLine(stdio) };
	} finally {
		await bridge.close();
		options.logger?.info(`Check This Server: ${bridge.sessionsStarted} server processes started and stopped`);
	}
}
