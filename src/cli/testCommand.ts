/**
 * `mcp-switchboard test [FILES|DIRS…]`: runs `*.mcpcall.json` files as tests (their `expect`, manager/expectations.ts)
 * against the workspace's servers, each server started once for the whole run. One line per file, a summary, an
 * optional JUnit report for CI systems (`--junit FILE`); exit 1 when any file failed. A file without `expect` passes
 * when its call succeeds (no JSON-RPC error, no `isError`), as `run` would exit 0.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { errorMessage } from '../common/errors';
import { evaluateExpectations, observeResult, type ExpectationReport } from '../manager/expectations';
import { parseInvocation, type Invocation } from '../manager/invocationFile';
import type { Manager } from '../manager/manager';
import type { RequestOptions } from '../protocol/client';
import { UsageError, type CliSession } from './session';

/** Where the run writes (commands.ts's Output): one line per file on stderr, the summary as the result. */
export interface TestOutput {
	result(text: string, json: unknown): void;
	error(text: string): void;
}

/** How the run ended; commands.ts turns it into the exit code. */
export type TestRunEnd = 'passed' | 'failed' | 'interrupted';

/** One file's outcome. */
export interface TestCase {
	/** The path as given or found, relative to the current directory when inside it. */
	file: string;
	server?: string;
	passed: boolean;
	failures: string[];
	durationMs: number;
}

const SUFFIX = '.mcpcall.json';
/** Folders never searched for call files. */
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

/** The call files named by `paths` (files as given; folders searched recursively, sorted). Throws a UsageError. */
export function collectCallFiles(paths: readonly string[]): string[] {
	const found: string[] = [];
	const walk = (dir: string) => {
		for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
			const full = path.join(dir, entry.name);
			if (entry.isDirectory()) {
				if (!SKIPPED_DIRS.has(entry.name)) walk(full);
			} else if (entry.name.endsWith(SUFFIX)) found.push(full);
		}
	};
	for (const given of paths) {
		let stat;
		try {
			stat = statSync(given);
		} catch (error) {
			throw new UsageError(`cannot read ${given}: ${errorMessage(error)}`);
		}
		if (stat.isDirectory()) walk(given);
		else found.push(given);
	}
	return found;
}

function shown(file: string): string {
	const relative = path.relative(process.cwd(), file);
	return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

async function runOne(
	manager: Manager,
	invocation: Invocation,
	options: RequestOptions,
): Promise<{ report: ExpectationReport; durationMs: number }> {
	const started = performance.now();
	let result: unknown;
	let error: string | undefined;
	try {
		result =
			invocation.kind === 'tool'
				? await manager.callTool(invocation.server, invocation.tool, invocation.arguments, options)
				: invocation.kind === 'prompt'
					? await manager.getPrompt(invocation.server, invocation.prompt, invocation.arguments, options)
					: await manager.readResource(invocation.server, invocation.uri, options);
	} catch (failure) {
		error = errorMessage(failure);
	}
	const durationMs = performance.now() - started;
	const observed = observeResult(result, durationMs, error);
	// Without expect, a file passes when its call succeeds, as `run` exits 0.
	const report = evaluateExpectations(invocation.expect ?? { isError: false }, observed);
	return { report, durationMs };
}

/** Runs the call files of `paths`; prints one line per file and a summary; writes `junit` when given. */
export async function runTests(
	session: CliSession,
	paths: readonly string[],
	junit: string | undefined,
	out: TestOutput,
	interrupt: AbortSignal,
): Promise<TestRunEnd> {
	const files = collectCallFiles(paths.length > 0 ? paths : [session.folder]);
	if (files.length === 0) throw new UsageError(`no *${SUFFIX} files in ${paths.join(', ') || session.folder}`);
	const parsed = files.map((file) => {
		let text: string;
		try {
			text = readFileSync(file, 'utf8');
		} catch (error) {
			return { file, problems: [`cannot read ${shown(file)}: ${errorMessage(error)}`] };
		}
		return { file, ...parseInvocation(text, shown(file)) };
	});
	// Each server once for the whole run: every server the files name, started together.
	const names = [...new Set(parsed.flatMap((p) => (p.invocation ? [p.invocation.server] : [])))];
	const configured = new Set(session.workspace.entries.map((entry) => entry.name));
	const { views, unresolved } = await session.start(session.select(names.filter((name) => configured.has(name))));
	const options: RequestOptions = { signal: interrupt };
	if (session.options.timeoutMs !== undefined) options.timeoutMs = session.options.timeoutMs;
	const cases: TestCase[] = [];
	for (const { file, invocation, problems } of parsed) {
		const testCase: TestCase = { file: shown(file), passed: false, failures: [], durationMs: 0 };
		cases.push(testCase);
		if (!invocation) {
			testCase.failures = problems;
		} else {
			testCase.server = invocation.server;
			const state = views.get(invocation.server)?.state;
			if (!configured.has(invocation.server))
				testCase.failures = [`server '${invocation.server}' is not configured (${session.configuredText()})`];
			else if (unresolved.has(invocation.server))
				testCase.failures = [
					`server '${invocation.server}' cannot be started: ${unresolved.get(invocation.server)!.join('; ')}`,
				];
			else if (state?.kind !== 'running')
				testCase.failures = [
					`server '${invocation.server}' did not start: ${state?.kind === 'error' || state?.kind === 'needsSignIn' ? state.message : (state?.kind ?? 'unknown')}`,
				];
			else {
				const { report, durationMs } = await runOne(session.running, invocation, options);
				testCase.passed = report.passed;
				testCase.failures = report.failures;
				testCase.durationMs = durationMs;
			}
		}
		out.error(
			testCase.passed
				? `PASS ${testCase.file} (${Math.round(testCase.durationMs)} ms)`
				: `FAIL ${testCase.file}: ${testCase.failures.join('; ')}`,
		);
		if (interrupt.aborted) break;
	}
	const failed = cases.filter((c) => !c.passed).length;
	const summary = `${cases.length - failed} passed, ${failed} failed`;
	if (junit !== undefined) {
		try {
			writeFileSync(junit, junitXml(cases));
		} catch (error) {
			out.error(`cannot write ${junit}: ${errorMessage(error)}`);
			return 'failed';
		}
	}
	out.result(summary, { passed: cases.length - failed, failed, cases });
	if (interrupt.aborted) return 'interrupted';
	return failed > 0 ? 'failed' : 'passed';
}

function xml(text: string): string {
	return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The JUnit XML CI systems read (GitHub, GitLab, Jenkins): one `<testsuite>` named mcp-switchboard, one `<testcase>`
 * per file, named after the file with the server as its class, and a `<failure>` with the reasons for a failed one.
 */
export function junitXml(cases: readonly TestCase[]): string {
	const failed = cases.filter((c) => !c.passed).length;
	const seconds = (ms: number) => (ms / 1000).toFixed(3);
	const total = cases.reduce((sum, c) => sum + c.durationMs, 0);
	const lines = [
		'<?xml version="1.0" encoding="UTF-8"?>',
		`<testsuites name="mcp-switchboard" tests="${cases.length}" failures="${failed}" time="${seconds(total)}">`,
		`\t<testsuite name="mcp-switchboard test" tests="${cases.length}" failures="${failed}" errors="0" skipped="0" time="${seconds(total)}">`,
	];
	for (const c of cases) {
		const open = `\t\t<testcase name="${xml(c.file)}" classname="${xml(c.server ?? 'mcpcall')}" time="${seconds(c.durationMs)}"`;
		if (c.passed) lines.push(`${open}/>`);
		else {
			const message = c.failures.join('; ');
			lines.push(
				`${open}>`,
				`\t\t\t<failure message="${xml(message)}" type="expectation">${xml(c.failures.join('\n'))}</failure>`,
				'\t\t</testcase>',
			);
		}
	}
	lines.push('\t</testsuite>', '</testsuites>', '');
	return lines.join('\n');
}
