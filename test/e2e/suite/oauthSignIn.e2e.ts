// Signing in inside the real VS Code against a real authorization server nobody here wrote (oidc-provider, started in
// the extension host by test/fixtures/oidcServer.ts in front of a protected MCP endpoint), and what a person sees when
// an authorization server answers badly: one notification naming the server and the failed step, with Sign In Again
// and Show Log. The browser step happens in the Chromium that shows the workbench: vscode.env.openExternal opens the
// authorization URL in a new tab, which goes through the provider's sign-in and consent pages (they submit themselves
// here: nobody clicks in a test) and back to the loopback redirect listener. Only the modal "sign in?" question is
// answered through setSignInPromptForTests: VS Code refuses modal dialogs to extension tests.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { setSignInPromptForTests } from '../../../src/vscode/auth/oauth';
import { startAuthFixture } from '../../fixtures/authServer';
import { startOidcFixture } from '../../fixtures/oidcServer';
import { driver, extensionApi, hasDriver, screenshot, test, waitFor } from './harness';
import { assertNotWritten, browserTabs, running, stateOf, waitForSignInRow, type OAuthApi } from './oauthSupport';

interface Api extends OAuthApi {
	tree: {
		getTreeItem(node: unknown): vscode.TreeItem;
		getChildren(node?: unknown): unknown[];
		groupNode(server: string, group: 'tools'): unknown;
	};
}

function label(item: vscode.TreeItem): string {
	return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
}

/** Adds a remote server to the user settings; the returned function restores them and waits until it is gone. */
async function addServer(api: Api, name: string, url: string): Promise<() => Promise<void>> {
	const config = vscode.workspace.getConfiguration('mcpSwitchboard');
	const original = config.inspect<Record<string, unknown>>('servers')?.globalValue;
	await config.update(
		'servers',
		{ ...(original ?? {}), [name]: { type: 'http', url } },
		vscode.ConfigurationTarget.Global,
	);
	return async () => {
		if (api.manager.get(name)) {
			await api.manager.stop(name).catch(() => undefined);
			// Forget the sign-in (no restart, no question), so no later suite finds it.
			await vscode.commands.executeCommand('mcpSwitchboard.signOut', name).then(undefined, () => undefined);
		}
		setSignInPromptForTests(undefined);
		await config.update('servers', original, vscode.ConfigurationTarget.Global);
		await waitFor(() => api.manager.get(name) === undefined, {
			timeoutMs: 10_000,
			message: `'${name}' to leave with the setting`,
		}).catch(() => undefined);
		await api.settled();
		await browserTabs(true).catch(() => undefined);
	};
}

test(
	'oidc-provider: Start on a server that needs sign-in opens the provider in a browser tab, the tools appear, the token is only in SecretStorage',
	async ({ signal }) => {
		assert.ok(hasDriver(), 'this test needs the page driver (test/e2e/run.mjs): the browser step happens in Chromium');
		const api = await extensionApi<Api>();
		const name = 'oidc-e2e';
		const fixture = await startOidcFixture({ autoSubmit: true });
		let asked = 0;
		setSignInPromptForTests(async () => {
			asked++;
			return signal.aborted ? undefined : 'open';
		});
		const restore = await addServer(api, name, fixture.mcpUrl);
		try {
			await waitForSignInRow(api.manager, name);
			assert.equal(asked, 0, 'nothing opens by itself');

			// The person clicks the row (its command is Start).
			void vscode.commands.executeCommand('mcpSwitchboard.startServer', { kind: 'server', server: name });
			await running(api.manager, name, 40_000, `'${name}' to run after signing in at oidc-provider`).catch(
				async (error: unknown) => {
					const tabs = await browserTabs().catch(() => []);
					throw new Error(
						`${String(error)}; provider saw ${JSON.stringify(fixture.interactions)}, grants ${JSON.stringify(fixture.grants)}; tabs ${JSON.stringify(tabs.map((t) => [t.url.split('?')[0], t.text.slice(0, 80)]))}`,
					);
				},
			);
			assert.equal(asked, 1);
			// The browser tab went through oidc-provider's sign-in and consent, then to the loopback listener.
			assert.deepEqual(fixture.interactions, ['login alice', 'consent']);
			assert.equal(fixture.registrations.length, 1, "registered through the provider's registration endpoint");
			assert.deepEqual(fixture.grants, ['authorization_code']);
			await waitFor(async () => (await browserTabs()).some((tab) => /Authorization complete/.test(tab.text)), {
				timeoutMs: 20_000,
				message: 'the tab to land on the redirect page',
			});
			await browserTabs(true);

			// The server's tools appear, in the Manager and as rows under the server in the Servers view.
			assert.deepEqual(
				api.manager.get(name)?.tools.map((t) => t.tool.name),
				['whoami'],
			);
			const rows = api.tree
				.getChildren(api.tree.groupNode(name, 'tools'))
				.map((node) => label(api.tree.getTreeItem(node)));
			assert.ok(
				rows.some((label) => label.includes('whoami')),
				`the tree shows the tool (${rows.join(', ')})`,
			);
			const result = await api.manager.callTool(name, 'whoami', {});
			assert.equal(
				(result.content[0] as unknown as { text: string }).text,
				`sub=alice client=${fixture.registrations[0]} scope=mcp:tools`,
			);

			// The token lives in SecretStorage: Sign Out finds a stored sign-in for the server. Never in settings or logs.
			const [token] = fixture.mcpTokens;
			assert.ok(token, 'the MCP endpoint accepted a token');
			assertNotWritten(api.logUri, vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '', name, [token]);
			// Stopped first: signing out of a running server restarts it, which would ask to sign in again.
			await api.manager.stop(name);
			assert.equal(
				await vscode.commands.executeCommand('mcpSwitchboard.signOut', name),
				name,
				'a sign-in was stored for the server (SecretStorage)',
			);
		} finally {
			await restore();
			await fixture.close();
		}
	},
	{ timeoutMs: 90_000 },
);

test(
	'a token endpoint that answers HTML: one notification naming the server and the step, with Sign In Again and Show Log; Sign In Again runs the sign-in anew; other servers keep running',
	async ({ signal }) => {
		assert.ok(
			hasDriver(),
			'this test needs the page driver (test/e2e/run.mjs): notifications and the browser tab are on the page',
		);
		const api = await extensionApi<Api>();
		const name = 'bad-as-e2e';
		const fixture = await startAuthFixture({ faults: { token: 'html' } });
		let asked = 0;
		setSignInPromptForTests(async () => {
			asked++;
			return signal.aborted ? undefined : 'open';
		});
		const others = () =>
			api.manager
				.servers()
				.filter((view) => view.name !== name && view.state.kind === 'running')
				.map((view) => view.name);
		const runningBefore = others();
		const restore = await addServer(api, name, fixture.mcpUrl);
		try {
			await waitForSignInRow(api.manager, name);
			void vscode.commands.executeCommand('mcpSwitchboard.startServer', name);
			const state = await waitFor(
				() => {
					const s = api.manager.get(name)?.state;
					return s?.kind === 'error' && s.signIn ? s : undefined;
				},
				{ timeoutMs: 30_000, message: `'${name}' to fail at the token request (it is ${stateOf(api.manager, name)})` },
			);
			assert.match(state.signIn!.step, /^token request to http:\/\/127\.0\.0\.1:\d+\/tenant\/token$/);
			assert.equal(state.signIn!.reason, 'the authorization server answered HTML, not JSON (HTTP 200 text/html)');
			assert.equal(state.retryAt, undefined, "not retried behind the user's back");
			assert.deepEqual(others(), runningBefore, 'the other servers keep running');

			// What the person sees: the notification center holds one notification for this server, with both buttons.
			await vscode.commands.executeCommand('notifications.showList');
			const item = `.notifications-center .notification-list-item:has-text("MCP server '${name}'")`;
			try {
				const texts = await waitFor(
					async () => {
						const found = (
							(await driver({ action: 'texts', selector: '.notifications-center .notification-list-item' })) as string[]
						).filter((t) => t.includes(`MCP server '${name}'`));
						return found.length > 0 ? found : undefined;
					},
					{ timeoutMs: 10_000, message: `a notification naming '${name}'` },
				);
				assert.equal(texts.length, 1, `one notification, not two: ${JSON.stringify(texts)}`);
				assert.match(
					texts[0]!,
					new RegExp(
						`MCP server '${name}': sign-in failed at the token request to http://127\\.0\\.0\\.1:\\d+/tenant/token: the authorization server answered HTML, not JSON \\(HTTP 200 text/html\\)`,
					),
				);
				const buttons = (await driver({ action: 'texts', selector: `${item} .monaco-button` })) as string[];
				assert.deepEqual(
					buttons.map((b) => b.trim()),
					['Sign In Again', 'Show Log'],
				);
				await screenshot('oauth-sign-in-failed');

				// The authorization server is fixed; the person presses Sign In Again: the whole sign-in runs again.
				fixture.options.faults = {};
				const tokenRequests = fixture.tokenRequests.length;
				await driver({ action: 'click', selector: `${item} .monaco-button:has-text("Sign In Again")` });
				await running(api.manager, name, 30_000, `'${name}' to run after Sign In Again`);
				assert.equal(asked, 2, 'the sign-in was asked for again');
				assert.equal(fixture.authorizeRequests.length, 2, 'a second authorization in the browser');
				assert.ok(fixture.tokenRequests.length > tokenRequests, 'a new token request');
			} finally {
				await vscode.commands.executeCommand('notifications.hideList');
			}
			assert.match(
				((await api.manager.callTool(name, 'whoami', {})).content[0] as unknown as { text: string }).text,
				/^client=dcr-/,
			);
			assert.deepEqual(others(), runningBefore, 'the other servers still run');

			// Neither attempt wrote a code, verifier or token anywhere.
			const secrets = [
				...fixture.tokenRequests.flatMap((r) => [r.params.code, r.params.code_verifier]),
				...fixture.mcpAuthorizations.map((a) => a.replace(/^Bearer /, '')),
			].filter((v): v is string => typeof v === 'string' && v.length > 8);
			assert.ok(secrets.length >= 4);
			assertNotWritten(api.logUri, vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '', name, secrets);
		} finally {
			await restore();
			await fixture.close();
		}
	},
	{ timeoutMs: 90_000 },
);
