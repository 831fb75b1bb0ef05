// The Manager against a server nobody on this project wrote: @modelcontextprotocol/server-everything over
// Streamable HTTP. Its tools that depend on client capabilities appear after initialisation with a
// tools/list_changed that Streamable HTTP loses when no GET stream is open yet; the Manager's second listing after
// start must still find them. When the server dies the Manager retries with backoff and reconnects by itself.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { after, test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import type { Host } from '../../src/manager/host';
import { Manager } from '../../src/manager/manager';
import { freePort, startEverythingHttp } from '../fixtures/everythingHttp';

const children: ChildProcess[] = [];
after(() => {
	for (const child of children) child.kill('SIGKILL');
});

async function startEverything(port: number): Promise<ChildProcess> {
	const child = await startEverythingHttp('streamableHttp', port);
	children.push(child);
	return child;
}

function describe(manager: Manager): string {
	const state = manager.get('everything')!.state;
	return state.kind === 'error' ? `error: ${state.message}` : state.kind;
}

async function until(predicate: () => boolean, what: string, ms = 20_000): Promise<void> {
	const end = Date.now() + ms;
	while (!predicate()) {
		if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 50));
	}
}

test(
	'server-everything over Streamable HTTP: all capability-dependent tools are listed; a dead server is reconnected',
	{ timeout: 90_000 },
	async () => {
		const port = await freePort();
		let server = await startEverything(port);
		const logger = new MemoryLogger('info');
		const host: Host = {
			logger: () => logger,
			roots: () => [{ uri: 'file:///tmp', name: 'tmp' }],
			elicit: async () => ({ action: 'decline' }),
		};
		// Short delays so the test is quick; a crash cap that the restart of server-everything cannot reach on a loaded
		// machine (with the default 5, a restart slower than the ~2.4 s of five quick retries ended the test in a crash
		// loop: load averages of 20 on 2 cores are common here). The cap itself is tested in test/unit/manager.test.ts.
		const manager = new Manager(host, { restartPolicy: { initialDelayMs: 200, maxDelayMs: 1000, maxCrashes: 1000 } });
		try {
			await manager.reconcile([
				{
					name: 'everything',
					config: { type: 'http', url: `http://127.0.0.1:${port}/mcp` },
					source: { kind: 'api', label: 'test' },
					workspaceDefined: false,
				},
			]);
			assert.equal(manager.get('everything')!.state.kind, 'running', describe(manager));
			const names = () => manager.get('everything')!.tools.map((t) => t.tool.name);
			await until(
				() => names().includes('get-roots-list') && names().includes('trigger-elicitation-request'),
				`the tools that need roots and elicitation (have: ${names().join(', ')})`,
			);
			assert.ok(names().includes('echo'));
			assert.equal(manager.findTool('mcp__everything__get-roots-list')?.tool.name, 'get-roots-list');
			const echo = await manager.callTool('everything', 'echo', { message: 'hi' });
			assert.match(JSON.stringify(echo.content), /hi/);

			// The server dies: the Manager shows the error with a retry time, and reconnects once it is back.
			server.kill('SIGKILL');
			await once(server, 'exit');
			await until(
				() => manager.get('everything')!.state.kind === 'error' || manager.get('everything')!.state.kind === 'starting',
				'the Manager to notice the dead server',
			);
			server = await startEverything(port);
			await until(
				() => manager.get('everything')!.state.kind === 'running',
				`a reconnect (state: ${describe(manager)})`,
				30_000,
			);
			assert.ok(manager.get('everything')!.lastError, 'the last error is kept for the tooltip');
			const again = await manager.callTool('everything', 'echo', { message: 'back' });
			assert.match(JSON.stringify(again.content), /back/);
		} finally {
			await manager.dispose();
		}
	},
);
