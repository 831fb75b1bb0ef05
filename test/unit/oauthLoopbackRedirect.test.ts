import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startLoopbackRedirect } from '../../src/protocol/auth/loopbackRedirect';

test('the listener resolves with the full redirect URL and shows a page without the code', async () => {
	const listener = await startLoopbackRedirect();
	try {
		assert.match(listener.redirectUri, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
		assert.equal((await fetch(new URL('/favicon.ico', listener.redirectUri))).status, 404);
		const page = await fetch(`${listener.redirectUri}?code=secret-code&state=s1`);
		assert.equal(page.status, 200);
		const html = await page.text();
		assert.match(html, /Authorization complete/);
		assert.doesNotMatch(html, /secret-code/);
		assert.equal(await listener.redirect, `${listener.redirectUri}?code=secret-code&state=s1`);
	} finally {
		await listener.close();
	}
});

test('an error redirect still resolves (the client reports the error) and says so on the page', async () => {
	const listener = await startLoopbackRedirect({ path: '/cb' });
	try {
		const page = await fetch(`${listener.redirectUri}?error=access_denied&state=s`);
		assert.match(await page.text(), /Authorization failed/);
		assert.match(await listener.redirect, /error=access_denied/);
	} finally {
		await listener.close();
	}
});

test('a preferred port is reused when free, and another is taken when it is busy', async () => {
	const first = await startLoopbackRedirect();
	const port = Number(new URL(first.redirectUri).port);
	await first.close();
	const again = await startLoopbackRedirect({ port });
	assert.equal(Number(new URL(again.redirectUri).port), port);
	// Now the port is busy: a second listener falls back to any free port.
	const other = await startLoopbackRedirect({ port });
	assert.notEqual(Number(new URL(other.redirectUri).port), port);
	await again.close();
	await other.close();
});

test('close() and abort reject the pending redirect and free the port', async () => {
	const controller = new AbortController();
	const listener = await startLoopbackRedirect({ signal: controller.signal });
	const port = Number(new URL(listener.redirectUri).port);
	controller.abort();
	await assert.rejects(listener.redirect, /closed before the browser came back/);
	await listener.close();
	// The port can be bound again: nothing is left listening.
	const probe = createServer();
	await new Promise<void>((resolve) => probe.listen(port, '127.0.0.1', resolve));
	assert.equal((probe.address() as AddressInfo).port, port);
	await new Promise<void>((resolve) => probe.close(() => resolve()));
});
