// Check This Server against a server nobody here wrote: the official conformance suite's server scenarios
// (@modelcontextprotocol/conformance 0.1.16, on the Node 22 of scripts/node22.mjs) run against server-everything's
// Streamable HTTP endpoint, read into the report the editor shows. server-everything passes the basic scenarios
// and fails those that expect the suite's own test tools (an image tool, for one): the report says which, with the
// suite's message and the spec link.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { conformanceMarkdown, runServerConformance } from '../../src/manager/conformance';
import { pathToFileURL } from 'node:url';
import { freePort, startEverythingHttp } from '../fixtures/everythingHttp';

let child: ChildProcess | undefined;
after(() => child?.kill('SIGKILL'));

test(
	'the suite runs against server-everything over Streamable HTTP and reports each scenario',
	{ timeout: 240_000 },
	async () => {
		const port = await freePort();
		child = await startEverythingHttp('streamableHttp', port);
		// Loaded at run time: the script is an ES module with top-level await, which the test bundle cannot hold.
		const script = pathToFileURL(join(process.cwd(), 'scripts/node22.mjs')).href;
		const { ensureNode22 } = (await import(script)) as { ensureNode22: () => Promise<string> };
		const node = await ensureNode22();
		const cli = join(process.cwd(), 'node_modules/conformance-0.1/dist/index.js');
		const report = await runServerConformance('everything', `http://127.0.0.1:${port}/mcp`, {
			command: node,
			args: [cli],
		});
		assert.equal(report.failure, undefined);
		const byName = new Map(report.scenarios.map((s) => [s.name, s]));
		assert.equal(byName.get('server-initialize')?.passed, true);
		assert.equal(byName.get('ping')?.passed, true);
		assert.equal(byName.get('tools-list')?.passed, true);
		const image = byName.get('tools-call-image');
		assert.equal(image?.passed, false);
		assert.equal(image?.checks[0]?.errorMessage, 'No image content found');
		const markdown = conformanceMarkdown(report);
		assert.match(markdown, /^- ✅ \*\*ping\*\*$/m);
		assert.match(
			markdown,
			/^- ❌ \*\*tools-call-image\*\*\n {2}- failed ToolsCallImage: No image content found \(spec: \[MCP-Tools-Call\]\(https:\/\/modelcontextprotocol\.io\/specification\/[^)]+\/server\/tools#calling-tools\)\)$/m,
		);
		assert.match(markdown, /\*\*\d+ passed, \d+ failed\*\* of \d+ scenarios/);
	},
);

test('a suite that cannot reach the server says why instead of an empty report', { timeout: 120_000 }, async () => {
	const report = await runServerConformance('nothing', 'http://127.0.0.1:9/mcp', {
		command: process.execPath,
		args: ['-e', 'process.stderr.write("cannot start the suite"); process.exit(1)'],
	});
	assert.deepEqual(report.scenarios, []);
	assert.equal(report.failure, 'cannot start the suite');
	assert.match(conformanceMarkdown(report), /could not run:\n\n```\ncannot start the suite\n```/);
});
