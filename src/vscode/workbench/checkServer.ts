/**
 * Check This Server: runs the official conformance suite's server scenarios against a configured server's Streamable
 * HTTP endpoint (manager/conformance.ts) and shows the report as a Markdown preview: each scenario passed or failed,
 * the suite's message and links to the spec. The suite runs through `npx` (`@modelcontextprotocol/conformance`, which
 * needs Node 22 or newer on the PATH); its server mode connects to a URL, so a local (stdio) server is checked through
 * a loopback bridge that starts fresh processes of it from its configuration (gateway/serverCheck.ts), never the
 * running one: the suite calls its tools. Cancel stops the suite and every process the check started.
 */
import * as vscode from 'vscode';
import { checkServerConformance } from '../../gateway/serverCheck';
import { conformanceMarkdown, suiteFromEnvironment, type ConformanceReport } from '../../manager/conformance';
import { toAbortSignal } from '../cancellation';
import { commandError, pickServer, serverOf, type CommandBase, type Target } from '../commandTarget';
import { errorMessage } from '../../common/errors';
import type { ServerConfig } from '../../manager/types';
import type { SuiteCommand } from '../../manager/conformance';
import type { FeatureDeps } from '../featureDeps';

/** What the check needs: the commands' base and the result documents, where the report is kept read-only. */
export type CheckServerDeps = CommandBase & Pick<FeatureDeps, 'results'>;

/** Runs the check and opens its report; resolves with the report (tests), undefined when nothing ran. */
export async function checkServer(base: CheckServerDeps, target: Target): Promise<ConformanceReport | undefined> {
	const server =
		serverOf(target) ??
		(await pickServer(base, 'Check which server against the MCP conformance suite?', () => true, ''));
	if (!server) return undefined;
	if (base.manager.get(server)?.config.type === 'sse') {
		void vscode.window.showInformationMessage(
			`Check This Server needs Streamable HTTP or stdio; '${server}' uses the legacy HTTP+SSE transport, which the conformance suite does not speak.`,
		);
		return undefined;
	}
	let config: ServerConfig;
	let suite: SuiteCommand;
	try {
		// MCP_SWITCHBOARD_CONFORMANCE names a local suite (and a Node 22) where npx cannot fetch one.
		suite = suiteFromEnvironment(process.env);
		// Variables resolved and, for a workspace-defined server, the person's permission: the check runs its command.
		config = await base.manager.configToRun(server);
	} catch (error) {
		commandError(base, server, `Check This Server: ${errorMessage(error)}`);
		return undefined;
	}
	let cancelled = false;
	const report = await vscode.window.withProgress(
		{
			location: vscode.ProgressLocation.Notification,
			title:
				config.type === 'stdio'
					? `Checking '${server}' against the MCP conformance suite (fresh processes of it, not the running one)…`
					: `Checking '${server}' against the MCP conformance suite…`,
			cancellable: true,
		},
		async (_progress, token) => {
			const bridge = toAbortSignal(token);
			try {
				return await checkServerConformance(server, config, suite, {
					signal: bridge.signal,
					logger: base.logs.logger(server),
					inheritEnvironment: base.manager.inheritsEnvironment,
				});
			} finally {
				cancelled = token.isCancellationRequested;
				bridge.dispose();
			}
		},
	);
	if (cancelled) {
		// Resolved only once the suite and every process it started have exited (serverCheck.ts).
		base.logs.channel(server).info('Check This Server: cancelled; the suite and its server processes were stopped');
		return undefined;
	}
	base.logs
		.channel(server)
		.info(
			`Check This Server: ${report.failure !== undefined ? `the suite could not run: ${report.failure}` : `${report.scenarios.filter((s) => s.passed).length} of ${report.scenarios.length} conformance scenarios passed`}`,
		);
	const document = base.results.keepReport(server, 'Conformance', conformanceMarkdown(report));
	await vscode.commands.executeCommand('markdown.showPreview', document);
	return report;
}
