// `mcp-switchboard test` as a CI job runs it: a folder of *.mcpcall.json files with expectations against
// server-everything (a server nobody here wrote), one of them failing on purpose. Asserts what the job sees: one
// line per file, the summary, exit code 1, and a JUnit file a CI system can parse (read back here with a small XML
// reader of its own, not the code that wrote it).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { type Ran, runToEnd } from '../fixtures/runToEnd';

const cli = join(process.cwd(), 'dist/cli.js');
const everything = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const scratch = mkdtempSync(join(tmpdir(), 'cli-test-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function run(args: string[], cwd: string): Promise<Ran> {
	const env = { ...process.env, XDG_CACHE_HOME: join(scratch, 'cache'), XDG_STATE_HOME: join(scratch, 'state') };
	return runToEnd(process.execPath, [cli, ...args], { cwd, env, timeoutMs: 90_000 });
}

function write(dir: string, file: string, content: unknown): void {
	mkdirSync(join(dir, file, '..'), { recursive: true });
	writeFileSync(join(dir, file), JSON.stringify(content, null, 2));
}

/** The attributes of each element named `tag`, as a CI system's XML reader sees them (entities decoded). */
function elements(xml: string, tag: string): Record<string, string>[] {
	const decode = (text: string) =>
		text
			.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
			.replace(/&quot;/g, '"')
			.replace(/&lt;/g, '<')
			.replace(/&gt;/g, '>')
			.replace(/&amp;/g, '&');
	return [...xml.matchAll(new RegExp(`<${tag}\\b([^>]*?)/?>`, 'g'))].map((match) =>
		Object.fromEntries([...match[1]!.matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1]!, decode(a[2]!)])),
	);
}

test('test runs a folder of call files against server-everything: one line each, a summary, exit 1, a JUnit file', async () => {
	const dir = join(scratch, 'ws');
	write(dir, '.vscode/mcp.json', {
		servers: { everything: { command: process.execPath, args: [everything, 'stdio'] } },
	});
	write(dir, 'checks/echo.mcpcall.json', {
		server: 'everything',
		tool: 'echo',
		arguments: { message: 'hello CI' },
		expect: { isError: false, text: 'hello CI', match: '^Echo: ', maxMs: 60000 },
	});
	write(dir, 'checks/weather.mcpcall.json', {
		server: 'everything',
		tool: 'get-structured-content',
		arguments: { location: 'Chicago' },
		expect: {
			structured: { conditions: 'Light rain / drizzle' },
			schema: { type: 'object', required: ['temperature', 'humidity'], properties: { humidity: { type: 'number' } } },
		},
	});
	write(dir, 'checks/nested/sum.mcpcall.json', {
		server: 'everything',
		tool: 'get-sum',
		arguments: { a: 2, b: 3 },
		expect: { text: '5' },
	});
	write(dir, 'checks/nested/resource.mcpcall.json', {
		server: 'everything',
		resource: 'demo://resource/static/document/architecture.md',
		expect: { text: 'rchitecture' },
	});
	// The expected failure: Los Angeles is sunny, not rainy.
	write(dir, 'checks/wrong.mcpcall.json', {
		server: 'everything',
		tool: 'get-structured-content',
		arguments: { location: 'Los Angeles' },
		expect: { structured: { conditions: 'Rainy' } },
	});
	const junit = join(dir, 'out/junit.xml');
	mkdirSync(join(dir, 'out'));

	const result = await run(['test', 'checks', '--junit', junit], dir);

	assert.equal(result.code, 1, result.stderr);
	const lines = result.stderr.split('\n').filter((line) => /^(PASS|FAIL) /.test(line));
	assert.deepEqual(
		lines.map((line) => line.replace(/ \(\d+ ms\)$/, '')),
		[
			'PASS checks/echo.mcpcall.json',
			'PASS checks/nested/resource.mcpcall.json',
			'PASS checks/nested/sum.mcpcall.json',
			'PASS checks/weather.mcpcall.json',
			'FAIL checks/wrong.mcpcall.json: structured content: conditions: expected "Rainy", got "Sunny / Clear"',
		],
	);
	assert.equal(result.stdout.trim(), '4 passed, 1 failed');

	const xml = readFileSync(junit, 'utf8');
	assert.match(xml, /^<\?xml version="1\.0" encoding="UTF-8"\?>/);
	const [suite] = elements(xml, 'testsuite');
	assert.equal(suite?.tests, '5');
	assert.equal(suite?.failures, '1');
	const cases = elements(xml, 'testcase');
	assert.deepEqual(
		cases.map((c) => [c.name, c.classname]),
		[
			['checks/echo.mcpcall.json', 'everything'],
			['checks/nested/resource.mcpcall.json', 'everything'],
			['checks/nested/sum.mcpcall.json', 'everything'],
			['checks/weather.mcpcall.json', 'everything'],
			['checks/wrong.mcpcall.json', 'everything'],
		],
	);
	const failures = elements(xml, 'failure');
	assert.equal(failures.length, 1);
	assert.equal(failures[0]?.message, 'structured content: conditions: expected "Rainy", got "Sunny / Clear"');
});

test('test reports a malformed file and an unknown server as failures, and passes a file without expect that succeeds', async () => {
	const dir = join(scratch, 'ws2');
	write(dir, '.vscode/mcp.json', {
		servers: { everything: { command: process.execPath, args: [everything, 'stdio'] } },
	});
	write(dir, 'a.mcpcall.json', { server: 'everything', tool: 'echo', arguments: { message: 'x' } });
	write(dir, 'b.mcpcall.json', { server: 'nowhere', tool: 'echo' });
	write(dir, 'c.mcpcall.json', { server: 'everything', tool: 'echo', expect: { maxMs: 'soon' } });
	const result = await run(['test', '--json'], dir);
	assert.equal(result.code, 1, result.stderr);
	const report = JSON.parse(result.stdout) as { passed: number; failed: number; cases: { failures: string[] }[] };
	assert.equal(report.passed, 1);
	assert.equal(report.failed, 2);
	assert.match(report.cases[1]!.failures[0]!, /^server 'nowhere' is not configured/);
	assert.deepEqual(report.cases[2]!.failures, [
		'c.mcpcall.json: "expect.maxMs" must be a positive number of milliseconds',
	]);
});
