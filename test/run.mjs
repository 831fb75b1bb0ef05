// `npm test`: builds, runs the plain-Node suites (unit + integration) with node:test, then the suites inside a
// real VS Code extension host (test/e2e/run.mjs), and ends with one line "N passed, N failed".
// `--unit` runs only the plain-Node suites. Extra arguments after `--` filter test files by substring.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
process.chdir(root);
const args = process.argv.slice(2);
const unitOnly = args.includes('--unit');
const filters = args.filter((a) => !a.startsWith('--'));

function run(command, commandArgs, options = {}) {
	const result = spawnSync(command, commandArgs, { stdio: 'inherit', ...options });
	return result.status ?? 1;
}

rmSync('out', { recursive: true, force: true });
if (run(process.execPath, ['esbuild.mjs']) !== 0) {
	console.log('0 passed, 1 failed');
	console.error('The build failed.');
	process.exit(1);
}

function files(dir) {
	if (!existsSync(dir)) return [];
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? files(path) : name.endsWith('.test.js') ? [path] : [];
	});
}

const testFiles = files('out/test').filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
let passed = 0;
let failed = 0;
if (testFiles.length > 0) {
	mkdirSync('test-results', { recursive: true });
	const tap = 'test-results/node.tap';
	run(process.execPath, [
		'--enable-source-maps',
		'--test',
		'--test-concurrency=2',
		'--test-reporter=spec',
		'--test-reporter-destination=stdout',
		'--test-reporter=tap',
		`--test-reporter-destination=${tap}`,
		...testFiles,
	]);
	const text = existsSync(tap) ? readFileSync(tap, 'utf8') : '';
	const count = (name) =>
		Number(
			/^# (\w+) (\d+)$/m.exec(
				text
					.split('\n')
					.filter((l) => l.startsWith(`# ${name} `))
					.pop() ?? '',
			)?.[2] ?? 0,
		);
	passed += count('pass');
	failed += count('fail') + count('cancelled');
	if (!text) failed += 1;
}

if (!unitOnly && existsSync('test/e2e/run.mjs')) {
	const status = run(process.execPath, ['test/e2e/run.mjs', '--no-build', ...filters]);
	const resultsFile = join(process.env.MCP_SWITCHBOARD_E2E_RESULTS_DIR ?? 'test-results', 'e2e.json');
	if (existsSync(resultsFile)) {
		const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
		passed += results.passed;
		failed += results.failed;
		if (status !== 0 && results.failed === 0) failed += 1;
	} else {
		console.error('The VS Code e2e run wrote no results.');
		failed += 1;
	}
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
