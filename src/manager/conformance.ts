/**
 * Check This Server: the official conformance suite's server scenarios (`@modelcontextprotocol/conformance`, its
 * `server --url` mode) run against a server's Streamable HTTP endpoint, and their results read into one report:
 * each scenario passed or failed, each failed check with the suite's message and its links to the spec. The suite
 * writes one `checks.json` per scenario into its output folder (`<dir>/server-<scenario>-<time>/checks.json`); this
 * module runs it (`runServerConformance`) and reads those files (`readConformanceResults`, `conformanceMarkdown`).
 * The suite needs Node 22 or newer; the caller says which Node and which copy of the suite's CLI to use.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorMessage } from '../common/errors';

/** One check of a scenario, as the suite reports it. */
export interface ConformanceCheck {
	id: string;
	name: string;
	description?: string;
	status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | string;
	errorMessage?: string;
	specReferences?: { id: string; url?: string }[];
}

/** One scenario: passed when none of its checks failed. */
export interface ConformanceScenario {
	name: string;
	passed: boolean;
	checks: ConformanceCheck[];
}

export interface ConformanceReport {
	server: string;
	url: string;
	/**
	 * A stdio server's command line, when it was checked through the loopback bridge (gateway/stdioBridge.ts); `url`
	 * is then the bridge's.
	 */
	stdio?: string;
	scenarios: ConformanceScenario[];
	/** What the suite printed on stderr when it could not run at all (no scenario results). */
	failure?: string;
}

/** How to start the suite: a Node ≥ 22 and the suite's CLI (`dist/index.js`), or a command such as npx. */
export interface SuiteCommand {
	command: string;
	/** The arguments before `server --url …` (e.g. the CLI's path, or `-y @modelcontextprotocol/conformance@0.1.16`). */
	args: string[];
}

/** The suite version run (the newest of the 0.1 line, spec 2025-11-25, the one `npm run conformance` pins). */
export const CONFORMANCE_PACKAGE = '@modelcontextprotocol/conformance@0.1.16';

/** The suite through npx (it needs Node 22 or newer on the PATH): what the editor and the command line run. */
export function npxSuite(): SuiteCommand {
	return { command: process.platform === 'win32' ? 'npx.cmd' : 'npx', args: ['--yes', CONFORMANCE_PACKAGE] };
}

/**
 * The suite's command for the editor and the command line: `MCP_SWITCHBOARD_CONFORMANCE` (a JSON array of strings:
 * the command and its arguments, e.g. a Node 22 and a local copy of the suite's `dist/index.js`, for machines without
 * a registry or with an older Node on the PATH), else npx. Throws with what is wrong with a malformed value.
 */
export function suiteFromEnvironment(env: NodeJS.ProcessEnv): SuiteCommand {
	const text = env.MCP_SWITCHBOARD_CONFORMANCE;
	if (!text) return npxSuite();
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		throw new Error(`MCP_SWITCHBOARD_CONFORMANCE is not JSON: ${errorMessage(error)}`, { cause: error });
	}
	if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((part) => typeof part === 'string'))
		throw new Error('MCP_SWITCHBOARD_CONFORMANCE must be a JSON array of strings: the command and its arguments');
	const [command, ...args] = parsed;
	return { command: command!, args };
}

/** The scenario folders' names: `server-<scenario>-<ISO time with dashes>`. */
const FOLDER = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/;

/** Reads the suite's output folder into scenarios (in name order); folders without a checks.json are left out. */
export function readConformanceResults(dir: string): ConformanceScenario[] {
	const scenarios: ConformanceScenario[] = [];
	for (const folder of readdirSync(dir).sort()) {
		const name = FOLDER.exec(folder)?.[1];
		if (!name) continue;
		let checks: ConformanceCheck[];
		try {
			checks = JSON.parse(readFileSync(join(dir, folder, 'checks.json'), 'utf8')) as ConformanceCheck[];
		} catch {
			continue;
		}
		if (!Array.isArray(checks)) continue;
		scenarios.push({ name, passed: !checks.some((check) => check.status === 'FAILURE'), checks });
	}
	return scenarios;
}

/**
 * Runs every active server scenario of the suite (or only `scenario`) against `url` and resolves with the report.
 * Never rejects for a failing server: a suite that cannot run at all gives a report with `failure`. Aborting `signal`
 * stops the suite; the promise resolves once its process has exited.
 */
export async function runServerConformance(
	server: string,
	url: string,
	suite: SuiteCommand,
	signal?: AbortSignal,
	scenario?: string,
): Promise<ConformanceReport> {
	const dir = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
	try {
		const stderr = await new Promise<string>((resolve) => {
			const child = spawn(
				suite.command,
				[...suite.args, 'server', '--url', url, '-o', dir, ...(scenario ? ['--scenario', scenario] : [])],
				{
					stdio: ['ignore', 'ignore', 'pipe'],
					signal,
				},
			);
			let text = '';
			child.stderr.on('data', (chunk: Buffer) => (text = (text + chunk.toString()).slice(-4000)));
			let failure: unknown;
			// After an abort (or another error of a started suite) 'close' still comes once the process has exited:
			// resolving then means the suite is gone when the check ends. A suite that never started gets no 'close'.
			child.on('error', (error) => {
				failure = error;
				if (child.pid === undefined) resolve(`${text}\n${errorMessage(error)}`.trim());
			});
			child.on('close', () => resolve((failure === undefined ? text : `${text}\n${errorMessage(failure)}`).trim()));
		});
		const scenarios = readConformanceResults(dir);
		const report: ConformanceReport = { server, url, scenarios };
		if (scenarios.length === 0) report.failure = stderr || 'the conformance suite reported no scenario';
		return report;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** What the report of a stdio server says about how it was checked and which scenarios test the bridge. */
const BRIDGE_NOTE = [
	'The suite connects over Streamable HTTP, so MCP Switchboard ran it through a loopback bridge on 127.0.0.1 that',
	"starts a fresh process of this server for each of the suite's sessions and passes every message through",
	'unchanged. Three scenarios test the HTTP transport itself, that is the bridge rather than this server:',
	'`dns-rebinding-protection`, `server-sse-polling` and `server-sse-multiple-streams`.',
].join(' ');

/** The report as Markdown: a summary line, then each scenario with its failed checks, messages and spec links. */
export function conformanceMarkdown(report: ConformanceReport): string {
	const lines = [`# Conformance of '${report.server}'`, ''];
	if (report.stdio === undefined) lines.push(`Server: ${report.url}`, '');
	else lines.push(`Server: \`${report.stdio}\` (stdio)`, '', BRIDGE_NOTE, '');
	if (report.failure !== undefined) {
		lines.push('The conformance suite could not run:', '', '```', report.failure, '```', '');
		return lines.join('\n');
	}
	const passed = report.scenarios.filter((s) => s.passed).length;
	lines.push(
		`**${passed} passed, ${report.scenarios.length - passed} failed** of ${report.scenarios.length} scenarios of the official MCP conformance suite (\`@modelcontextprotocol/conformance\`, server scenarios).`,
		'',
	);
	for (const scenario of report.scenarios) {
		lines.push(`- ${scenario.passed ? '✅' : '❌'} **${scenario.name}**`);
		for (const check of scenario.checks) {
			if (check.status !== 'FAILURE' && check.status !== 'WARNING') continue;
			const links = (check.specReferences ?? [])
				.map((ref) => (ref.url ? `[${ref.id}](${ref.url})` : ref.id))
				.join(', ');
			const message = check.errorMessage ? `: ${check.errorMessage}` : '';
			lines.push(
				`  - ${check.status === 'FAILURE' ? 'failed' : 'warning'} ${check.name}${message}${links ? ` (spec: ${links})` : ''}`,
			);
		}
	}
	lines.push('');
	return lines.join('\n');
}
