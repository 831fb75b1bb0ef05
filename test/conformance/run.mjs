// `npm run conformance`: runs every client scenario of the MCP conformance suite, at the two pinned suite versions,
// against our headless client (test/conformance/client.mjs), and prints one pass/fail table.
//
//   node test/conformance/run.mjs [--no-build] [--jobs N] [filter ...]
//
// A filter keeps the scenarios whose name contains it. Exit code 1 when a scenario fails that is not in
// `expectedFailures` below, or when one listed there passes (the list must shrink as scenarios are fixed).
// The suite's CLI needs Node >= 22 (it uses newer built-ins): it runs on scripts/node22.mjs's Node, while the client
// under test runs on the Node that runs this script (the project's Node, 20+). Per-scenario results (checks.json,
// the client's stdout/stderr) land in test-results/conformance/<version>/.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureNode22 } from '../../scripts/node22.mjs';

const root = new URL('../..', import.meta.url).pathname;
process.chdir(root);

/** The suite versions we test against: the 0.1.x line (spec 2025-11-25) and the 0.2.0 pre-release (adds 2026-07-28). */
const suites = [
	{ version: '0.1.16', dir: 'node_modules/conformance-0.1' },
	{ version: '0.2.0-alpha.12', dir: 'node_modules/conformance-0.2' },
];

/**
 * Scenarios known to fail today, per suite version, each with why. Nothing else may fail; an entry that passes
 * fails the run, so fixed scenarios leave this list. Non-auth 2026-07-28 scenarios belong to the MCP 2026-07-28
 * work (issue 17); every auth/* scenario must end up passing (issue 13).
 */
const expectedFailures = {
	'0.1.16': {},
	'0.2.0-alpha.12': {},
};

const args = process.argv.slice(2);
const noBuild = args.includes('--no-build');
const jobsArg = args.indexOf('--jobs');
const jobs = jobsArg >= 0 ? Number(args[jobsArg + 1]) : 2;
const filters = args.filter((a, i) => !a.startsWith('--') && !(jobsArg >= 0 && i === jobsArg + 1));

if (!noBuild && spawnSync(process.execPath, ['esbuild.mjs'], { stdio: 'inherit' }).status !== 0) {
	console.error('conformance: the build failed');
	process.exit(1);
}
const node22 = await ensureNode22();
const clientCommand = `${JSON.stringify(process.execPath)} ${JSON.stringify(join(root, 'test/conformance/client.mjs'))}`;

/** The client scenarios a suite version lists (`conformance list`, section "Client scenarios"). */
function clientScenarios(suite) {
	const listed = spawnSync(node22, [join(suite.dir, 'dist/index.js'), 'list'], { encoding: 'utf8' });
	if (listed.status !== 0) {
		throw new Error(`conformance ${suite.version} list failed: ${listed.stderr}`);
	}
	const section = listed.stdout.split(/\n\s*\n/).find((block) => block.startsWith('Client scenarios')) ?? '';
	return [...section.matchAll(/^\s*- (\S+) \[([^\]]*)\]/gm)].map((m) => ({ name: m[1], tags: m[2] }));
}

/** Runs one scenario; resolves with its outcome and the failed checks' names. */
function runScenario(suite, scenario) {
	const outDir = join(root, 'test-results/conformance', suite.version, scenario.name.replace(/\//g, '_'));
	rmSync(outDir, { recursive: true, force: true });
	mkdirSync(outDir, { recursive: true });
	const began = Date.now();
	return new Promise((resolve) => {
		const child = spawn(
			node22,
			[
				join(suite.dir, 'dist/index.js'),
				'client',
				'--command',
				clientCommand,
				'--scenario',
				scenario.name,
				'--timeout',
				'30000',
				'-o',
				outDir,
			],
			{ stdio: ['ignore', 'pipe', 'pipe'] },
		);
		let output = '';
		child.stdout.on('data', (d) => (output += d));
		child.stderr.on('data', (d) => (output += d));
		child.on('close', (code) => {
			writeFileSync(join(outDir, 'runner.txt'), output);
			const checks = readChecks(outDir);
			const failed = checks
				.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')
				.map((c) => `${c.id}${c.status === 'WARNING' ? ' (warning)' : ''}`);
			const skipped = /not applicable|skipp/i.test(output) && checks.length === 0 && code === 0;
			resolve({
				suite: suite.version,
				name: scenario.name,
				tags: scenario.tags,
				passed: code === 0 && !skipped,
				skipped,
				failed,
				checks: checks.length,
				seconds: Math.round((Date.now() - began) / 1000),
				outDir,
			});
		});
	});
}

function readChecks(dir) {
	const found = [];
	const walk = (d) => {
		for (const entry of readdirSync(d, { withFileTypes: true })) {
			if (entry.isDirectory()) walk(join(d, entry.name));
			else if (entry.name === 'checks.json') {
				try {
					found.push(...JSON.parse(readFileSync(join(d, entry.name), 'utf8')));
				} catch {
					// An unreadable checks.json counts as no checks; the exit code still decides.
				}
			}
		}
	};
	if (existsSync(dir)) walk(dir);
	return found;
}

/** Runs `tasks` with at most `limit` at once (the machine is shared: two by default). */
async function pool(tasks, limit) {
	const results = [];
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.max(1, limit) }, async () => {
			while (next < tasks.length) {
				const i = next++;
				results[i] = await tasks[i]();
			}
		}),
	);
	return results;
}

const tasks = [];
for (const suite of suites) {
	for (const scenario of clientScenarios(suite)) {
		if (filters.length && !filters.some((f) => scenario.name.includes(f))) continue;
		tasks.push(() => runScenario(suite, scenario));
	}
}
const started = Date.now();
const results = await pool(tasks, jobs);

// The table: one row per scenario, one column per suite version.
const names = [...new Set(results.map((r) => r.name))];
const cell = (r) => {
	if (!r) return '—';
	const expected = expectedFailures[r.suite]?.[r.name];
	if (r.passed) return expected ? 'PASS (listed as expected failure!)' : 'pass';
	return expected ? 'FAIL (expected)' : 'FAIL';
};
const width = Math.max(...names.map((n) => n.length), 8);
const header = `| ${'scenario'.padEnd(width)} | ${suites.map((s) => s.version).join(' | ')} |`;
console.log(`\n${header}\n|${'-'.repeat(width + 2)}|${suites.map((s) => '-'.repeat(s.version.length + 2)).join('|')}|`);
for (const name of names) {
	const row = suites.map((s) =>
		cell(results.find((r) => r.suite === s.version && r.name === name)).padEnd(s.version.length),
	);
	console.log(`| ${name.padEnd(width)} | ${row.join(' | ')} |`);
}

const unexpected = results.filter((r) => !r.passed && !expectedFailures[r.suite]?.[r.name]);
const stale = results.filter((r) => r.passed && expectedFailures[r.suite]?.[r.name]);
for (const r of unexpected) {
	console.log(
		`\nFAIL ${r.suite} ${r.name}: ${r.failed.join(', ') || 'the client exited with an error or timed out'} after ${r.seconds} s (see ${r.outDir})`,
	);
}
for (const r of stale) {
	console.log(`\nPASS ${r.suite} ${r.name} is listed in expectedFailures: remove it from test/conformance/run.mjs`);
}
const passed = results.filter((r) => r.passed).length;
const expected = results.filter((r) => !r.passed && expectedFailures[r.suite]?.[r.name]).length;
console.log(
	`\nconformance: ${passed} passed, ${unexpected.length} failed, ${expected} expected failures, of ${results.length} scenario runs in ${Math.round((Date.now() - started) / 1000)} s`,
);
writeFileSync(join(root, 'test-results/conformance/summary.json'), JSON.stringify(results, null, '\t'));
process.exit(unexpected.length || stale.length ? 1 : 0);
