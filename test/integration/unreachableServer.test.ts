// A URL that refuses every connection (#34.5): the Manager's error state says the server could not be reached
// (`unreachable: 'refused'`), retries with backoff, and when it stops its message says it could not be reached, not
// that it crashed; the one-line summary the tree shows says so too. Against a real loopback port nobody listens on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import { errorSummary } from '../../src/manager/errorSummary';
import { Manager } from '../../src/manager/manager';
import { freePort } from '../fixtures/everythingHttp';

async function until(predicate: () => boolean, what: string, ms = 20_000): Promise<void> {
	const end = Date.now() + ms;
	while (!predicate()) {
		if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 20));
	}
}

test('a refused URL is "not reachable: refused", retried, then stopped as unreachable rather than a crash loop', async (t) => {
	const port = await freePort();
	const manager = new Manager(
		{ logger: () => new MemoryLogger('info') },
		{ restartPolicy: { initialDelayMs: 50, maxDelayMs: 100, maxCrashes: 3, windowMs: 60_000 } },
	);
	t.after(() => manager.dispose());
	const seen: string[] = [];
	manager.onDidChangeState(({ state }) => {
		if (state.kind === 'error') seen.push(`${state.unreachable ?? 'none'} ${state.crashLoop ? 'stop' : 'retry'}`);
	});
	await manager.reconcile([
		{
			name: 'refused',
			config: { type: 'http', url: `http://127.0.0.1:${port}/mcp` },
			source: { kind: 'api', label: 'test' },
			workspaceDefined: false,
		},
	]);
	await until(() => {
		const state = manager.get('refused')?.state;
		return state?.kind === 'error' && state.crashLoop === true;
	}, 'the retries to stop');
	const state = manager.get('refused')?.state;
	assert.ok(state?.kind === 'error');
	assert.equal(state.unreachable, 'refused');
	assert.ok(seen.includes('refused retry'), `retried first: ${seen.join(', ')}`);
	assert.match(state.message, /could not be reached 3 times within 1 minute, so it is not tried again/);
	assert.doesNotMatch(state.message, /stopped \d+ times/);
	assert.match(errorSummary(state.message), /\(tried 3 times, not tried again\)$/);
	assert.match(errorSummary(state.message), /ECONNREFUSED/);
});
