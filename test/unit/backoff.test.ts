import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RestartPolicy } from '../../src/manager/backoff';

test('backoff doubles from 1 s and is capped at 60 s', () => {
	const policy = new RestartPolicy();
	assert.deepEqual(
		[1, 2, 3, 4, 5, 6, 7, 8].map((n) => policy.delayFor(n)),
		[1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000],
	);
});

test('the fifth crash within 3 minutes stops restarts', () => {
	const policy = new RestartPolicy();
	let now = 0;
	const delays: number[] = [];
	for (let i = 0; i < 4; i++) {
		const decision = policy.recordCrash(now, 500);
		assert.equal(decision.restart, true);
		if (decision.restart) delays.push(decision.delayMs);
		now += 10_000;
	}
	assert.deepEqual(delays, [1000, 2000, 4000, 8000]);
	assert.deepEqual(policy.recordCrash(now, 500), { restart: false, crashes: 5, windowMs: 180_000 });
});

test('crashes older than the window do not count, and a long run resets the backoff', () => {
	const policy = new RestartPolicy();
	let now = 0;
	for (let i = 0; i < 4; i++) {
		policy.recordCrash(now, 0);
		now += 50_000;
	}
	// now = 200 s: the crash at 0 s is older than 3 minutes, so this is the 4th within the window.
	const decision = policy.recordCrash(now, 120_000);
	assert.equal(decision.restart, true);
	assert.equal(decision.restart && decision.delayMs, 1000);
	policy.reset();
	assert.equal(policy.recordCrash(now + 1, 0).restart, true);
});
