/**
 * `mcp-switchboard check NAME [--scenario S]`: Check This Server on the command line. Runs the official conformance
 * suite's server scenarios against a configured server (a stdio server through the loopback bridge, fresh processes
 * of it, gateway/serverCheck.ts), prints a line per scenario with each failed check's message and spec link, and a
 * summary; exit 1 when any scenario failed or the suite could not run. The suite runs through
 * `npx --yes @modelcontextprotocol/conformance@0.1.16` (Node 22 or newer on the PATH); `MCP_SWITCHBOARD_CONFORMANCE`
 * replaces that command with another, as a JSON array (e.g. `["/opt/node22/bin/node", "/path/to/conformance/dist/index.js"]`).
 */
import { errorMessage } from '../common/errors';
import { consoleLogger } from '../common/logger';
import { checkServerConformance } from '../gateway/serverCheck';
import { suiteFromEnvironment, type ConformanceReport, type SuiteCommand } from '../manager/conformance';
import { UsageError, type CliSession } from './session';

/** Where the check writes (commands.ts's Output): the report as the result, an interruption on stderr. */
export interface CheckOutput {
	result(text: string, json: unknown): void;
	error(text: string): void;
}

/** The suite's command (manager/conformance.ts); a malformed MCP_SWITCHBOARD_CONFORMANCE is a usage error. */
export function suiteCommand(env: NodeJS.ProcessEnv): SuiteCommand {
	try {
		return suiteFromEnvironment(env);
	} catch (error) {
		throw new UsageError(errorMessage(error));
	}
}

/** The report as terminal text: a line per scenario, its failed checks below it, then the summary. */
export function checkText(report: ConformanceReport): string {
	if (report.failure !== undefined) return `The conformance suite could not run:\n${report.failure}`;
	const lines: string[] = [];
	for (const scenario of report.scenarios) {
		lines.push(`${scenario.passed ? 'PASS' : 'FAIL'}  ${scenario.name}`);
		for (const check of scenario.checks) {
			if (check.status !== 'FAILURE') continue;
			const links = (check.specReferences ?? []).map((ref) => ref.url ?? ref.id).join(' ');
			lines.push(`      ${check.name}: ${check.errorMessage ?? 'failed'}${links ? ` (${links})` : ''}`);
		}
	}
	const passed = report.scenarios.filter((s) => s.passed).length;
	lines.push(
		'',
		`${passed} passed, ${report.scenarios.length - passed} failed of ${report.scenarios.length} conformance scenarios` +
			(report.stdio !== undefined ? ' (stdio, through a loopback bridge: fresh processes of the server)' : ''),
	);
	return lines.join('\n');
}

/** Runs the check; resolves with 'passed', 'failed' or 'interrupted' once every process it started has exited. */
export async function runCheck(
	session: CliSession,
	name: string,
	scenario: string | undefined,
	out: CheckOutput,
	interrupt: AbortSignal,
): Promise<'passed' | 'failed' | 'interrupted'> {
	const suite = suiteCommand(process.env);
	const config = await session.resolveConfig(name);
	const report = await checkServerConformance(name, config, suite, {
		signal: interrupt,
		logger: session.options.verbose ? consoleLogger('trace', `[${name}] `) : undefined,
		scenario,
	});
	if (interrupt.aborted) {
		out.error('check: interrupted; the suite and the server processes it started were stopped');
		return 'interrupted';
	}
	out.result(checkText(report), report);
	const failed = report.failure !== undefined || report.scenarios.some((s) => !s.passed);
	return failed ? 'failed' : 'passed';
}
