// The headless Manager (core.ts's createManager; the CLI's path too) calling a task-only tool right after the server
// started, against the TypeScript SDK's example simpleStreamableHttp (npm): its `delay` tool has taskSupport
// "required" and answers a plain tools/call with an isError result, so the call must wait for the server's first
// listing (already under way) to know it must run as a task.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import type { Host } from '../../src/manager/host';
import { Manager } from '../../src/manager/manager';
import { startSdkExample, type SdkExample } from '../fixtures/sdkExamples';

let example: SdkExample | undefined;
after(() => example?.child.kill('SIGKILL'));

test('Manager.callTool right after the start runs a task-only tool as a task, with its states', async () => {
	example = await startSdkExample('simpleStreamableHttp');
	const logger = new MemoryLogger('debug');
	const host: Host = { logger: () => logger, roots: () => [] };
	const manager = new Manager(host);
	try {
		await manager.reconcile([
			{
				name: 'sdk',
				config: { type: 'http', url: example.url },
				source: { kind: 'api', label: 'test' },
				workspaceDefined: false,
			},
		]);
		assert.equal(manager.get('sdk')?.state.kind, 'running');
		// No wait for the lists: the call is made at once, as a script or the command line does.
		const statuses: string[] = [];
		const result = await manager.callTool(
			'sdk',
			'delay',
			{ duration: 50 },
			{ onTaskStatus: (task) => statuses.push(task.status) },
		);
		assert.deepEqual(result.content, [{ type: 'text', text: 'Completed 50ms delay' }]);
		assert.notEqual(result.isError, true);
		assert.ok(statuses.includes('completed'), `the task's states: ${statuses.join(', ')}`);
	} finally {
		await manager.dispose();
	}
});
