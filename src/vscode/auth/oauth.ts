import * as vscode from 'vscode';
import type { Logger } from '../../common/logger';
import { canonicalResourceUri } from '../../protocol/auth/discovery';
import { reachableFromBrowser } from '../externalUrl';
import { startLoopbackRedirect, type LoopbackRedirect } from '../../protocol/auth/loopbackRedirect';
import { SignInRequiredError, type OAuthHostHooks, type TokenStore } from '../../protocol/auth/types';

/** A TokenStore over VS Code's SecretStorage (the OS keychain on desktop; encrypted storage in remote/web hosts). */
export class SecretStorageTokenStore implements TokenStore {
	constructor(private readonly secrets: vscode.SecretStorage) {}

	async get(key: string): Promise<string | undefined> {
		return this.secrets.get(key);
	}

	async set(key: string, value: string): Promise<void> {
		await this.secrets.store(key, value);
	}

	async delete(key: string): Promise<void> {
		await this.secrets.delete(key);
	}
}

/**
 * The reason an automatic start (start-up, a settings change) of a server that needs a browser sign-in stops:
 * nothing pops up by itself; thrown as a {@link SignInRequiredError}, it makes the server's state `needsSignIn`, whose
 * row says "sign in" and whose click (or the user's Start) runs the sign-in, as VS Code's own MCP support does.
 */
export const SIGN_IN_NEEDED = 'sign-in needed: click the server or use Start to sign in';

/** The answer to "sign in to this server?": open the browser, copy the link, or undefined (declined). */
export type SignInChoice = 'open' | 'copy' | undefined;

/** Asks whether to start the browser step for `server`, whose authorization server is at `origin`. */
export type SignInPrompt = (server: string, origin: string) => Promise<SignInChoice>;

/** A modal naming the server and the authorization server's origin, with Open Browser and Copy Link. */
const modalSignInPrompt: SignInPrompt = async (server, origin) => {
	const open = 'Open Browser';
	const copy = 'Copy Link';
	const choice = await vscode.window.showInformationMessage(
		`MCP server "${server}" needs you to sign in.`,
		{
			modal: true,
			detail: `The browser will open ${origin}. After you approve there, it sends you back to ${vscode.env.appName}.`,
		},
		open,
		copy,
	);
	return choice === open ? 'open' : choice === copy ? 'copy' : undefined;
};

// On globalThis, like the trust prompt's replacement: an e2e suite is bundled apart from the extension but runs in
// the same extension host, and must replace the prompt the extension's own copy of this module uses.
const signInOverrideKey = Symbol.for('mcp-switchboard.signInPrompt');
type SignInHolder = Record<symbol, SignInPrompt | undefined>;

/**
 * Replaces the sign-in question (only the question: the browser is still opened with `vscode.env.openExternal`).
 * VS Code refuses modal dialogs to extension tests, so suites answer through this. `undefined` restores the modal.
 */
export function setSignInPromptForTests(replacement: SignInPrompt | undefined): void {
	(globalThis as unknown as SignInHolder)[signInOverrideKey] = replacement;
}

export interface VsCodeOAuthHooksOptions {
	/** Where tokens and registrations go; usually `new SecretStorageTokenStore(context.secrets)`. */
	store: TokenStore;
	/** Lines about the browser step (never the URL's query: it carries the state and PKCE challenge). */
	logger?: Logger;
	/** How long a prepared redirect listener waits for its browser step before it is closed. Default 10 minutes. */
	listenerTimeoutMs?: number;
}

/**
 * OAuthHostHooks for one server in VS Code.
 *
 * The redirect: a loopback listener on 127.0.0.1 **in the extension host**, mapped with `vscode.env.asExternalUri`.
 * Why not VS Code's URI handler (`vscode://publisher.extension/...`): the MCP authorization spec requires redirect
 * URIs to be "either localhost URLs or HTTPS URLs", so a custom-scheme redirect would be refused by conforming
 * authorization servers (and Dynamic Client Registration would register something they reject). The loopback listener
 * works as it is in a local extension host (asExternalUri is the identity for 127.0.0.1), and in a remote one (SSH,
 * WSL, containers, Codespaces, code-server) asExternalUri forwards the port and gives the URI the user's browser can
 * reach (a forwarded localhost port or an HTTPS tunnel URL), which is still a localhost or HTTPS URL.
 *
 * The browser step asks first (a modal naming the server and the authorization server's origin, with Open and
 * Copy Link), then waits with a cancellable progress notification. Declining or cancelling rejects, which the
 * OAuth client reports as "authorization in the browser failed: …".
 */
export function createVsCodeOAuthHooks(
	server: string,
	options: VsCodeOAuthHooksOptions,
): OAuthHostHooks & { withoutSignIn: OAuthHostHooks } {
	// The listener prepared by redirectUri(), keyed by the URI handed out (the browser step gets it back).
	const prepared = new Map<string, LoopbackRedirect>();
	// External URI -> local port, so a stored registration's redirect URI can be served again after asExternalUri.
	const localPorts = new Map<string, number>();
	const listenerTimeoutMs = options.listenerTimeoutMs ?? 600_000;

	const hooks = {
		store: options.store,

		async redirectUri(previous?: string): Promise<string> {
			let port: number | undefined;
			if (previous) {
				port = localPorts.get(previous) ?? loopbackPort(previous);
			}
			const listener = await startLoopbackRedirect({ port });
			let external: string;
			try {
				external = (await vscode.env.asExternalUri(vscode.Uri.parse(listener.redirectUri))).toString(true);
			} catch (error) {
				await listener.close();
				throw error;
			}
			prepared.set(external, listener);
			localPorts.set(external, Number(new URL(listener.redirectUri).port));
			// A flow that fails before the browser step (e.g. registration refused) never comes back for it.
			const timer = setTimeout(() => {
				if (prepared.get(external) === listener) {
					prepared.delete(external);
				}
				void listener.close();
			}, listenerTimeoutMs);
			timer.unref?.();
			void listener.redirect.catch(() => undefined).finally(() => clearTimeout(timer));
			return external;
		},

		async openAuthorizationUrl(
			url: string,
			redirectUri: string,
			signal: AbortSignal,
			interactive = true,
		): Promise<string> {
			const listener = prepared.get(redirectUri);
			prepared.delete(redirectUri);
			if (!listener) {
				throw new Error(`no redirect listener is waiting for ${redirectUri}`);
			}
			// Only the browser coming back with this sign-in's state ends the wait (not any GET to the loopback address).
			const state = new URL(url).searchParams.get('state');
			if (state) listener.expectState(state);
			try {
				if (!interactive) {
					options.logger?.info(`OAuth: ${SIGN_IN_NEEDED} (not started by you, so no sign-in was opened)`);
					throw new SignInRequiredError(SIGN_IN_NEEDED);
				}
				const target = new URL(url);
				const prompt = (globalThis as unknown as SignInHolder)[signInOverrideKey] ?? modalSignInPrompt;
				const choice = await prompt(server, target.origin);
				if (signal.aborted) {
					throw signal.reason;
				}
				if (choice === undefined) {
					throw new Error('the user declined to sign in');
				}
				const browserUrl = await reachableFromBrowser(url);
				if (choice === 'copy') {
					await vscode.env.clipboard.writeText(browserUrl);
					void vscode.window.showInformationMessage(
						`Sign-in link for "${server}" copied. Open it in a browser to continue.`,
					);
				} else {
					// A string, not Uri.parse(url): Uri re-encodes an already-encoded query (redirect_uri, resource), which
					// breaks OAuth URLs; openExternal accepts the string as is (microsoft/vscode#85930).
					const opened = await vscode.env.openExternal(browserUrl as unknown as vscode.Uri);
					if (!opened) {
						throw new Error('the browser was not opened');
					}
				}
				options.logger?.info(`OAuth: waiting for the browser to return to ${listener.redirectUri}`);
				return await vscode.window.withProgress(
					{
						location: vscode.ProgressLocation.Notification,
						title: `Waiting for sign-in to "${server}" in the browser…`,
						cancellable: true,
					},
					(_progress, token) =>
						new Promise<string>((resolve, reject) => {
							const cancel = token.onCancellationRequested(() => reject(new Error('the user cancelled sign-in')));
							const onAbort = () => reject(signal.reason);
							signal.addEventListener('abort', onAbort, { once: true });
							listener.redirect.then(resolve, reject).finally(() => {
								cancel.dispose();
								signal.removeEventListener('abort', onAbort);
							});
						}),
				);
			} finally {
				await listener.close();
			}
		},
	};
	return {
		...hooks,
		// The same listeners and store; only the browser step refuses (an automatic start must not open a sign-in).
		withoutSignIn: {
			...hooks,
			openAuthorizationUrl: (url: string, redirectUri: string, signal: AbortSignal) =>
				hooks.openAuthorizationUrl(url, redirectUri, signal, false),
		},
	};
}

function loopbackPort(uri: string): number | undefined {
	try {
		const url = new URL(uri);
		return url.hostname === '127.0.0.1' && url.port ? Number(url.port) : undefined;
	} catch {
		return undefined;
	}
}

/**
 * The `oauth` part of the VS Code Host: hooks per server (created once each, so a prepared redirect listener is found
 * again by its browser step), all keeping tokens in `secrets`.
 */
export function vsCodeOAuthHooks(
	secrets: vscode.SecretStorage,
	logger?: (server: string) => Logger,
): (server: string, options?: { interactive: boolean }) => OAuthHostHooks {
	const store = new SecretStorageTokenStore(secrets);
	const hooks = new Map<string, ReturnType<typeof createVsCodeOAuthHooks>>();
	return (server, options) => {
		let found = hooks.get(server);
		if (!found) {
			found = createVsCodeOAuthHooks(server, { store, logger: logger?.(server) });
			hooks.set(server, found);
		}
		return options?.interactive === false ? found.withoutSignIn : found;
	};
}

/**
 * Where OAuthProvider keeps what it learned about a server (see its `prefix`, `tokensKey` and `clientKey`): the session
 * under `mcp-oauth|<canonical server URL>`, and per issuer the tokens and the client registration under
 * `<that>|<issuer>|tokens` and `<that>|<issuer>|client`. SecretStorage cannot list its keys, so the session (which
 * names the issuer) is the way to the other two.
 */
function oauthKeys(
	serverUrl: string,
	issuer: string | undefined,
): { session: string; tokens?: string; client?: string } {
	const session = `mcp-oauth|${canonicalResourceUri(serverUrl)}`;
	return issuer === undefined
		? { session }
		: { session, tokens: `${session}|${issuer}|tokens`, client: `${session}|${issuer}|client` };
}

async function storedIssuer(store: TokenStore, serverUrl: string): Promise<string | undefined> {
	const raw = await store.get(oauthKeys(serverUrl, undefined).session);
	if (!raw) return undefined;
	try {
		const issuer = (JSON.parse(raw) as { issuer?: unknown }).issuer;
		return typeof issuer === 'string' ? issuer : undefined;
	} catch {
		return undefined;
	}
}

/** True when tokens are stored for the server at `serverUrl` (they may be expired). False for a malformed URL. */
export async function hasStoredOAuthTokens(store: TokenStore, serverUrl: string): Promise<boolean> {
	let issuer: string | undefined;
	try {
		issuer = await storedIssuer(store, serverUrl);
	} catch {
		return false;
	}
	const { tokens } = oauthKeys(serverUrl, issuer);
	return tokens !== undefined && Boolean(await store.get(tokens));
}

/**
 * Signs out of the server at `serverUrl`: forgets its tokens, its session and its client registration, so the next
 * 401 registers and asks the user again. Resolves true when something was stored. Rejects when the store fails.
 * A connection that is open keeps its token in memory until it is restarted.
 */
export async function forgetOAuth(store: TokenStore, serverUrl: string): Promise<boolean> {
	const issuer = await storedIssuer(store, serverUrl);
	const keys = oauthKeys(serverUrl, issuer);
	const found = Boolean(await store.get(keys.session));
	for (const key of [keys.tokens, keys.client, keys.session]) {
		if (key !== undefined) await store.delete(key);
	}
	return found;
}
