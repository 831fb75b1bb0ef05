/**
 * Check This Server: runs the official conformance suite's server scenarios against a configured server's Streamable
 * HTTP endpoint (manager/conformance.ts) and shows the report as a Markdown preview: each scenario passed or failed,
 * the suite's message and links to the spec. The suite runs through `npx` (`@modelcontextprotocol/conformance`, which
 * needs Node 22 or newer on the PATH); its server mode connects to a URL, so a local (stdio) server is checked once it
 * runs in its HTTP mode and is configured by its URL.
 */
import * as vscode from 'vscode';
import { conformanceMarkdown, runServerConformance, type ConformanceReport } from '../../manager/conformance';
import { toAbortSignal } from '../cancellation';
import { pickServer, serverOf, type CommandBase, type Target } from '../commandTarget';

/** The suite version run (the newest of the 0.1 line, spec 2025-11-25, the one `npm run conformance` pins). */
export const CONFORMANCE_PACKAGE = '@modelcontextprotocol/conformance@0.1.16';

/** Runs the check and opens its report; resolves with the report (tests), undefined when nothing ran. */
export async function checkServer(base: CommandBase, target: Target): Promise<ConformanceReport | undefined> {
	const server =
		serverOf(target) ??
		(await pickServer(base, 'Check which server against the MCP conformance suite?', () => true, ''));
	if (!server) return undefined;
	const config = base.manager.get(server)?.config;
	if (!config) return undefined;
	if (config.type !== 'http') {
		void vscode.window.showInformationMessage(
			config.type === 'stdio'
				? `Check This Server needs a Streamable HTTP URL: the conformance suite's server mode connects over HTTP. Start '${server}' in its HTTP mode and configure it by its "url".`
				: `Check This Server needs a Streamable HTTP endpoint; '${server}' uses the legacy HTTP+SSE transport.`,
		);
		return undefined;
	}
	const report = await vscode.window.withProgress(
		{
			location: vscode.ProgressLocation.Notification,
			title: `Checking '${server}' against the MCP conformance suite…`,
			cancellable: true,
		},
		async (_progress, token) => {
			const bridge = toAbortSignal(token);
			try {
				return await runServerConformance(
					server,
					config.url,
					{ command: process.platform === 'win32' ? 'npx.cmd' : 'npx', args: ['--yes', CONFORMANCE_PACKAGE] },
					bridge.signal,
				);
			} finally {
				bridge.dispose();
			}
		},
	);
	base.logs
		.channel(server)
		.info(
			`Check This Server: ${report.failure !== undefined ? `the suite could not run: ${report.failure}` : `${report.scenarios.filter((s) => s.passed).length} of ${report.scenarios.length} conformance scenarios passed`}`,
		);
	const document = await vscode.workspace.openTextDocument({
		language: 'markdown',
		content: conformanceMarkdown(report),
	});
	await vscode.commands.executeCommand('markdown.showPreview', document.uri);
	return report;
}
