// The Manager's report of calls people make (onDidInvoke), against server-everything over stdio: a tool call, a
// prompt and a resource read made with an `origin` are reported with their outcome and duration; calls without an
// origin (background work) are not; a failed and a cancelled call are reported as such.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import type { InvocationRecord } from '../../src/manager/invocations';
import { Manager } from '../../src/manager/manager';
import { startEverythingStdio } from '../fixtures/everythingStdio';

test(
	'calls with an origin are reported with target, outcome and duration; calls without one are not',
	{ timeout: 60_000 },
	async (t) => {
		const logger = new MemoryLogger('info');
		const manager = new Manager({ logger: () => logger });
		t.after(() => manager.dispose());
		const records: InvocationRecord[] = [];
		manager.onDidInvoke((record) => records.push(record));
		await startEverythingStdio(manager);

		await manager.callTool('everything', 'echo', { message: 'background' });
		assert.equal(records.length, 0, 'a call without an origin is not history');

		const before = Date.now();
		await manager.callTool('everything', 'echo', { message: 'hi' }, { origin: 'palette' });
		await manager.getPrompt('everything', 'args-prompt', { city: 'Lyon' }, { origin: 'chat' });
		await manager.readResource('everything', 'demo://resource/static/document/architecture.md', { origin: 'gateway' });
		await manager.callTool('everything', 'no-such-tool', {}, { origin: 'palette' });
		await assert.rejects(manager.readResource('everything', 'demo://nope', { origin: 'file' }));
		const aborted = new AbortController();
		const slow = manager.callTool(
			'everything',
			'trigger-long-running-operation',
			{ duration: 5, steps: 5 },
			{ origin: 'palette', signal: aborted.signal },
		);
		setTimeout(() => aborted.abort(), 200);
		await assert.rejects(slow);

		assert.deepEqual(
			records.map((r) => [
				r.origin,
				r.target.kind,
				r.target.kind === 'resource' ? r.target.uri : r.target.name,
				r.outcome.kind,
			]),
			[
				['palette', 'tool', 'echo', 'result'],
				['chat', 'prompt', 'args-prompt', 'result'],
				['gateway', 'resource', 'demo://resource/static/document/architecture.md', 'result'],
				['palette', 'tool', 'no-such-tool', 'result'],
				['file', 'resource', 'demo://nope', 'error'],
				['palette', 'tool', 'trigger-long-running-operation', 'error'],
			],
		);
		const [echo, prompt, , unknown, missing, cancelled] = records;
		assert.deepEqual(echo!.target, { kind: 'tool', server: 'everything', name: 'echo', arguments: { message: 'hi' } });
		assert.ok(echo!.startedAt >= before && echo!.durationMs >= 0);
		assert.match(JSON.stringify(echo!.outcome), /Echo: hi/);
		assert.match(JSON.stringify(prompt!.outcome), /Lyon/);
		assert.equal(
			unknown!.outcome.kind === 'result' && unknown!.outcome.isError,
			true,
			'a tool error result is marked isError',
		);
		assert.equal(missing!.outcome.kind === 'error' && missing!.outcome.cancelled, false);
		assert.equal(cancelled!.outcome.kind === 'error' && cancelled!.outcome.cancelled, true);
	},
);
