// Dynamic Client Registration is Deprecated in MCP 2026-07-28: "Dynamic Client Registration | PR #2858 | 2026-07-28 |
// Client ID Metadata Documents" (https://modelcontextprotocol.io/specification/2026-07-28/deprecated). It keeps
// working; the Manager lists it among the server's deprecated features (the Servers view's tooltip shows that list)
// for a server signed in through it, also after a restart that reuses the stored tokens, and not for a server whose
// client is pre-registered. Through the product's path: the Manager, its OAuth connector and our authorization server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResolvedServer } from '../../src/manager/manager';
import { MemoryTokenStore } from '../../src/protocol/auth/memoryTokenStore';
import type { OAuthHostHooks } from '../../src/protocol/auth/types';
import { fakeBrowser, startAuthFixture } from '../fixtures/authServer';
import { managerWithOAuth } from '../fixtures/oauthManager';

test('Manager: a server signed in through Dynamic Client Registration is marked deprecated (also after a restart with stored tokens); a pre-registered client is not', async (t) => {
	const dcr = await startAuthFixture();
	const pre = await startAuthFixture({ dcr: false, clients: [{ clientId: 'pre-registered-1', method: 'none' }] });
	t.after(() => Promise.all([dcr.close(), pre.close()]));
	const browser = fakeBrowser();
	const hooks: OAuthHostHooks = { store: new MemoryTokenStore(), openAuthorizationUrl: browser.open };
	const { manager, logs } = managerWithOAuth(t, hooks);
	const server = (name: string, url: string, oauth?: { clientId: string }): ResolvedServer => ({
		name,
		config: { type: 'http', url, ...(oauth ? { oauth } : {}) },
		source: { kind: 'user', label: 'User settings' },
		workspaceDefined: false,
	});
	await manager.reconcile([server('dcr', dcr.mcpUrl), server('pre', pre.mcpUrl, { clientId: 'pre-registered-1' })]);
	const running = async () => {
		const deadline = Date.now() + 30_000;
		while (
			Date.now() < deadline &&
			(manager.get('dcr')?.state.kind !== 'running' || manager.get('pre')?.state.kind !== 'running')
		)
			await new Promise((r) => setTimeout(r, 20));
		assert.equal(
			manager.get('dcr')?.state.kind,
			'running',
			`dcr: ${manager.get('dcr')?.state.kind} ${(manager.get('dcr')?.state as { message?: string }).message ?? ''}`,
		);
		assert.equal(
			manager.get('pre')?.state.kind,
			'running',
			`pre: ${manager.get('pre')?.state.kind} ${(manager.get('pre')?.state as { message?: string }).message ?? ''}`,
		);
	};
	await running();
	assert.deepEqual(manager.get('dcr')?.deprecatedFeatures, ['Dynamic Client Registration']);
	assert.deepEqual(manager.get('pre')?.deprecatedFeatures, []);
	assert.match(
		(await manager.callTool('dcr', 'whoami', {})).content.map((c) => (c as { text?: string }).text).join(''),
		/^client=dcr-/,
		'it keeps working',
	);
	const registrations = dcr.registrations.length;
	const signIns = browser.calls;
	await manager.restart('dcr');
	await running();
	assert.equal(browser.calls, signIns, 'the restart reused the stored tokens: no new sign-in');
	assert.equal(dcr.registrations.length, registrations, 'and no new registration');
	assert.deepEqual(
		manager.get('dcr')?.deprecatedFeatures,
		['Dynamic Client Registration'],
		'still marked: the tokens belong to a DCR client',
	);
	assert.equal(
		logs.get('dcr')!.find('through Dynamic Client Registration, which MCP 2026-07-28 deprecates').length,
		1,
		'the log says it once, at the registration',
	);
});
