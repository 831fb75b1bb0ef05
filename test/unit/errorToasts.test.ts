// Error toasts fold near-duplicates (#34.5): one per server and cause while it is shown.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorCause, ShownErrors } from '../../src/vscode/logs/errorToasts';

const crash = `Server "db" exited with code 1. Last stderr lines:\nError: cannot read /etc/db.yaml\n    at main (x.js:3:9)`;

test("the Start command's failure, the state change and a later retry of one crash are one cause", () => {
	const loop = `Server 'db' stopped 5 times within 3 minutes, so it is not restarted again. Last error: ${crash}`;
	assert.equal(errorCause(`start failed: ${crash}`), errorCause(crash));
	assert.equal(errorCause(loop), errorCause(crash));
	assert.equal(
		errorCause('db: POST http://127.0.0.1:4101/mcp failed: ECONNREFUSED (connect ECONNREFUSED 127.0.0.1:4101)'),
		errorCause('db: POST http://127.0.0.1:4101/mcp failed: ECONNREFUSED (connect ECONNREFUSED 127.0.0.1:4101)'),
	);
	assert.notEqual(errorCause(crash), errorCause('Request tools/list timed out after 30000 ms'));
});

test('a second toast of the same server and cause waits until the first is closed; other servers and causes show', () => {
	const shown = new ShownErrors();
	const first = shown.claim('db', crash);
	assert.ok(first);
	assert.equal(shown.claim('db', `start failed: ${crash}`), undefined, 'a near-duplicate is folded');
	assert.ok(shown.claim('web', crash), 'another server shows its own');
	assert.ok(shown.claim('db', 'Request tools/list timed out after 30000 ms'), 'another cause shows');
	first.done();
	assert.ok(shown.claim('db', crash), 'after the toast closed, the same cause may show again');
});
