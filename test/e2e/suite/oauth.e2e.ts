// OAuth inside the real VS Code: a remote server behind our fixture authorization server (test/fixtures/authServer.ts,
// started in the extension host) answers 401; the extension discovers the authorization server, registers a client,
// asks the user, opens the authorization URL with vscode.env.openExternal — which in code-server opens a real tab
// in the Chromium that shows the workbench — and that tab follows the fixture's redirect to the redirect URI that
// vscode.env.asExternalUri produced (code-server's port proxy), which reaches the loopback listener in the extension
// host. Only the sign-in question is answered through setSignInPromptForTests: VS Code refuses modal dialogs to
// extension tests.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Manager } from '../../../src/manager/manager';
import { setSignInPromptForTests } from '../../../src/vscode/auth/oauth';
import { startAuthFixture, type AuthFixture } from '../../fixtures/authServer';
import {
	answerQuickPick,
	driver,
	extensionApi,
	hasDriver,
	quickInputClose,
	quickInputRows,
	test,
	waitFor,
} from './harness';
import {
	assertNotWritten,
	browserTabs,
	running as runningNamed,
	stateOf as stateOfNamed,
	waitForSignInRow as waitForSignInRowNamed,
	type OAuthApi as Api,
} from './oauthSupport';

const NAME = 'oauth-e2e';

const running = (manager: Manager, timeoutMs: number, what: string) => runningNamed(manager, NAME, timeoutMs, what);
const stateOf = (manager: Manager) => stateOfNamed(manager, NAME);
const waitForSignInRow = (manager: Manager) => waitForSignInRowNamed(manager, NAME);

async function whoami(manager: Manager): Promise<string> {
	const result = await manager.callTool(NAME, 'whoami', {});
	return (result.content[0] as unknown as { text: string }).text;
}

/** The access tokens the fixture saw on MCP requests, in order, without repeats. */
function bearerTokens(fixture: AuthFixture): string[] {
	return [
		...new Set(
			fixture.mcpAuthorizations.map((a) => /^Bearer (.+)$/.exec(a)?.[1]).filter((t): t is string => Boolean(t)),
		),
	];
}

test(
	'OAuth: 401, discovery, registration, sign-in in a real browser tab, token in SecretStorage; restart reuses it; Sign Out asks again',
	async ({ signal }) => {
		assert.ok(hasDriver(), 'this test needs the page driver (test/e2e/run.mjs): the browser step happens in Chromium');
		const { manager, logUri, settled } = await extensionApi<Api>();
		const fixture = await startAuthFixture();
		const asked: Array<{ server: string; origin: string }> = [];
		setSignInPromptForTests(async (server, origin) => {
			asked.push({ server, origin });
			return signal.aborted ? undefined : 'open';
		});
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		// User settings (Global): a user-defined server needs no workspace trust question.
		const original = config.inspect<Record<string, unknown>>('servers')?.globalValue;
		try {
			await config.update(
				'servers',
				{ ...(original ?? {}), [NAME]: { type: 'http', url: fixture.mcpUrl } },
				vscode.ConfigurationTarget.Global,
			);
			// Added (or at start-up), the server opens no sign-in by itself: its row says "sign in" until the user starts it.
			await waitForSignInRow(manager);
			assert.equal(asked.length, 0, 'no sign-in question without the user asking for it');
			void manager.start(NAME).catch(() => undefined);
			await running(manager, 25_000, `'${NAME}' to run after signing in`).catch((error: unknown) => {
				throw new Error(
					`${String(error)}; authorization requests: ${JSON.stringify(fixture.authorizeRequests.map((q) => q.toString()))}; requests: ${fixture.requests.join(', ')}`,
				);
			});

			// The flow as the fixture saw it: a 401 without a token, discovery, one registration, one authorization, one code.
			assert.equal(fixture.mcpAuthorizations[0], '', 'the first request carried no token');
			assert.ok(
				fixture.requests.includes('GET /meta/protected-resource/mcp'),
				'protected resource metadata was fetched',
			);
			assert.ok(
				fixture.requests.includes('GET /.well-known/oauth-authorization-server/tenant'),
				'authorization server metadata was fetched',
			);
			assert.equal(fixture.registrations.length, 1, 'one dynamic client registration');
			assert.equal(fixture.authorizeRequests.length, 1, 'the authorization URL was visited once');
			assert.deepEqual(
				fixture.tokenRequests.map((r) => r.grantType),
				['authorization_code'],
			);
			assert.deepEqual(
				asked,
				[{ server: NAME, origin: fixture.origin }],
				'the user was asked once, shown the server and the authorization server',
			);

			// The browser step happened in Chromium: a tab opened by openExternal followed the fixture's redirect to the
			// redirect URI from asExternalUri, and shows the loopback listener's page.
			const redirectUri = fixture.authorizeRequests[0]!.get('redirect_uri') ?? '';
			const landed = await waitFor(
				async () => {
					const tabs = await browserTabs();
					const found = tabs.find((tab) => tab.url.startsWith(redirectUri) && /Authorization complete/.test(tab.text));
					if (!found)
						throw new Error(`tabs: ${JSON.stringify(tabs.map((t) => [t.url.split('?')[0], t.text.slice(0, 40)]))}`);
					return found;
				},
				{
					timeoutMs: 20_000,
					message: `a browser tab at the redirect URI ${redirectUri} showing that sign-in is complete`,
				},
			);
			await browserTabs(true);
			assert.ok(new URL(landed.url).searchParams.get('code'), 'the tab carried the authorization code back');
			console.log(`e2e: OAuth redirect URI from asExternalUri: ${redirectUri}`);

			// The token works for a tool call.
			const first = await whoami(manager);
			assert.match(first, /^client=dcr-\S+ scope=mcp:read mcp:tools tool=whoami$/);
			const [token] = bearerTokens(fixture);
			assert.ok(token, 'the MCP requests carried a bearer token');

			// Stored in SecretStorage: Sign Out's picker lists the servers that have tokens there. Not in settings or logs.
			await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
			const picking = vscode.commands.executeCommand('mcpSwitchboard.signOut');
			const rows = await waitFor(
				async () => {
					const found = await quickInputRows();
					return found.length > 0 && found;
				},
				{ timeoutMs: 15_000, message: 'the Sign Out picker' },
			);
			assert.deepEqual(
				rows.map((r) => r.label),
				[NAME],
				'the picker lists the signed-in server (its tokens are in SecretStorage)',
			);
			await quickInputClose();
			assert.equal(await picking, undefined, 'closing the picker signs out of nothing');

			assertNotWritten(logUri, vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '', NAME, [token]);

			// Restarting the server reuses the stored token: nobody is asked, nothing is registered or authorized again.
			await manager.restart(NAME);
			await running(manager, 15_000, `'${NAME}' to run again after a restart`);
			assert.match(await whoami(manager), /^client=dcr-/);
			assert.equal(asked.length, 1, 'the restart did not ask the user');
			assert.equal(fixture.registrations.length, 1);
			assert.equal(fixture.authorizeRequests.length, 1);
			assert.deepEqual(bearerTokens(fixture), [token], 'the restart sent the stored token');

			// Sign Out through its picker: tokens and registration are forgotten, the running server restarts and asks again.
			const signingOut = vscode.commands.executeCommand<string | undefined>('mcpSwitchboard.signOut');
			await answerQuickPick(NAME);
			assert.equal(await signingOut, NAME);
			await waitFor(() => asked.length === 2, { timeoutMs: 15_000, message: 'the sign-in question after signing out' });
			await running(manager, 25_000, `'${NAME}' to run after signing in again`);
			assert.equal(fixture.registrations.length, 2, 'the client registration was forgotten: a new one');
			assert.equal(fixture.authorizeRequests.length, 2);
			const second = await whoami(manager);
			assert.notEqual(second.split(' ')[0], first.split(' ')[0], 'the new token belongs to the new client');
			assert.equal(bearerTokens(fixture).length, 2, 'a new token after signing in again');
			await waitFor(async () => (await browserTabs()).some((tab) => /Authorization complete/.test(tab.text)), {
				timeoutMs: 20_000,
				message: 'the second sign-in to go through a browser tab too',
			});
			await browserTabs(true);
		} finally {
			await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
			// Leave no sign-in behind for later suites: stop the server, then forget its tokens (no restart, no question).
			if (manager.get(NAME)) {
				await manager.stop(NAME).catch(() => undefined);
				await vscode.commands.executeCommand('mcpSwitchboard.signOut', NAME).then(undefined, () => undefined);
			}
			setSignInPromptForTests(undefined);
			await config.update('servers', original, vscode.ConfigurationTarget.Global);
			await waitFor(() => manager.get(NAME) === undefined, {
				timeoutMs: 10_000,
				message: `'${NAME}' to leave with the setting`,
			}).catch(() => undefined);
			await settled();
			await browserTabs(true).catch(() => undefined);
			await fixture.close();
		}
	},
	{ timeoutMs: 60_000 },
);

test(
	'OAuth: a declined sign-in opens no browser and is not retried; Start asks again and the copied link works in a new tab; Sign Out from the tree row',
	async ({ signal }) => {
		assert.ok(hasDriver(), 'this test needs the page driver (test/e2e/run.mjs)');
		const { manager, settled } = await extensionApi<Api>();
		const fixture = await startAuthFixture();
		let answer: 'open' | 'copy' | undefined;
		let asked = 0;
		setSignInPromptForTests(async () => {
			asked++;
			return signal.aborted ? undefined : answer;
		});
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const original = config.inspect<Record<string, unknown>>('servers')?.globalValue;
		try {
			await config.update(
				'servers',
				{ ...(original ?? {}), [NAME]: { type: 'http', url: fixture.mcpUrl } },
				vscode.ConfigurationTarget.Global,
			);
			await waitForSignInRow(manager);
			assert.equal(asked, 0, 'no sign-in question without the user asking for it');
			await manager.start(NAME).catch(() => undefined);
			const failed = await waitFor(() => stateOf(manager).startsWith('error') && stateOf(manager), {
				timeoutMs: 20_000,
				message: `'${NAME}' to fail after the sign-in was declined`,
			});
			assert.match(failed, /declined to sign in/);
			// Nobody is asked again behind the user's back (no retry is scheduled), and no browser tab or authorization
			// request happened.
			const state = manager.get(NAME)?.state;
			assert.ok(
				state?.kind === 'error' && state.retryAt === undefined,
				`no retry is scheduled after a declined sign-in (${JSON.stringify(state)})`,
			);
			assert.equal(asked, 1, 'a declined sign-in is not asked again by itself');
			assert.equal(fixture.authorizeRequests.length, 0);
			assert.deepEqual(await browserTabs(true), []);
			assert.equal(
				await vscode.commands.executeCommand('mcpSwitchboard.signOut', { kind: 'server', server: NAME }),
				undefined,
				'nothing to sign out of',
			);

			// Starting it again (the user's action) asks again; this time the user copies the link and opens it in a
			// new browser tab: the copied link is the one the browser can reach (mapped like the redirect URI).
			answer = 'copy';
			await vscode.env.clipboard.writeText('');
			const starting = manager.start(NAME).catch(() => undefined);
			const link = await waitFor(
				async () => (await vscode.env.clipboard.readText()).startsWith('http') && vscode.env.clipboard.readText(),
				{ timeoutMs: 10_000, message: 'the sign-in link on the clipboard' },
			);
			assert.equal(asked, 2);
			const external = (await vscode.env.asExternalUri(vscode.Uri.parse(fixture.origin))).toString();
			assert.ok(
				link.startsWith(external.replace(/\/$/, '')),
				`the copied link (${link.split('?')[0]}) is the browser's way to ${fixture.origin} (${external})`,
			);
			// A new tab in the same browser, as a person pastes the link.
			await driver({ action: 'evaluate', script: `void window.open(${JSON.stringify(link)}, '_blank')` });
			await starting;
			await running(manager, 20_000, `'${NAME}' to run after signing in with the copied link`);
			await waitFor(async () => (await browserTabs()).some((tab) => /Authorization complete/.test(tab.text)), {
				timeoutMs: 20_000,
				message: "the pasted link's tab to show that sign-in is complete",
			});
			await browserTabs(true);
			answer = 'open';

			// Sign Out from the server's row in the tree (the command gets the row's node): it restarts and asks again.
			assert.equal(
				await vscode.commands.executeCommand('mcpSwitchboard.signOut', { kind: 'server', server: NAME }),
				NAME,
			);
			await waitFor(() => asked === 3, { timeoutMs: 15_000, message: 'the sign-in question after signing out' });
			await running(manager, 20_000, `'${NAME}' to run after signing in again`);
			assert.equal(fixture.registrations.length, 2, 'signing out forgot the client registration');
		} finally {
			if (manager.get(NAME)) {
				await manager.stop(NAME).catch(() => undefined);
				await vscode.commands.executeCommand('mcpSwitchboard.signOut', NAME).then(undefined, () => undefined);
			}
			setSignInPromptForTests(undefined);
			await config.update('servers', original, vscode.ConfigurationTarget.Global);
			await waitFor(() => manager.get(NAME) === undefined, {
				timeoutMs: 10_000,
				message: `'${NAME}' to leave with the setting`,
			}).catch(() => undefined);
			await settled();
			await browserTabs(true).catch(() => undefined);
			await fixture.close();
		}
	},
	{ timeoutMs: 60_000 },
);
