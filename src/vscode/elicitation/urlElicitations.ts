/**
 * URL elicitations outside a server's own request: the -32042 "URL elicitation required" error of a tool call, and
 * the `notifications/elicitation/complete` that tells a URL elicitation is done.
 */
import * as vscode from 'vscode';
import type { Manager, ServerState } from '../../manager/manager';
import { ErrorCode } from '../../protocol/jsonrpc';
import { McpError } from '../../protocol/mcpError';
import type { ElicitUrlRequest } from '../../protocol/schema';
import type { ElicitationPresenter } from './elicitation';

/** The URL elicitations a -32042 error carries (`error.data.elicitations[]`), or undefined for any other error. */
export function urlElicitationsOf(error: unknown): ElicitUrlRequest[] | undefined {
	if (!(error instanceof McpError) || error.code !== ErrorCode.UrlElicitationRequired) {
		return undefined;
	}
	const data = error.data as { elicitations?: unknown } | undefined;
	const list = Array.isArray(data?.elicitations) ? data.elicitations : [];
	return list
		.filter(
			(e): e is ElicitUrlRequest =>
				typeof e === 'object' &&
				e !== null &&
				(e as { mode?: unknown }).mode === 'url' &&
				typeof (e as { url?: unknown }).url === 'string' &&
				typeof (e as { elicitationId?: unknown }).elicitationId === 'string',
		)
		.map((e) => ({ ...e, message: typeof e.message === 'string' ? e.message : '' }));
}

/**
 * Handles the -32042 "URL elicitation required" error of a tool call: runs each URL elicitation it carries
 * (asking before opening each page), then offers to retry. Resolves true when the caller should retry the call;
 * false when the error is not -32042 or the user declined, cancelled or chose not to retry.
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#url-elicitation-required-error
 */
export async function handleUrlElicitationRequired(
	server: string,
	error: unknown,
	presenter: ElicitationPresenter,
	what = 'the tool call',
	signal?: AbortSignal,
): Promise<boolean> {
	const elicitations = urlElicitationsOf(error);
	if (!elicitations || elicitations.length === 0) {
		return false;
	}
	const own = signal ?? new AbortController().signal;
	for (const elicitation of elicitations) {
		const answer = await presenter.elicit(server, elicitation, own);
		if (answer.action !== 'accept') {
			return false;
		}
	}
	return presenter.confirmRetry(
		server,
		what,
		elicitations.flatMap((e) => (e.elicitationId === undefined ? [] : [e.elicitationId])),
		own,
	);
}

/**
 * Forwards every running server's `notifications/elicitation/complete` to the presenter, following each server
 * through restarts (servers already running included). Dispose the result on deactivate.
 */
export function watchElicitationCompletions(manager: Manager, presenter: ElicitationPresenter): vscode.Disposable {
	const perServer = new Map<string, { dispose(): void }>();
	const follow = (server: string, state: ServerState) => {
		perServer.get(server)?.dispose();
		perServer.delete(server);
		if (state.kind === 'running') {
			perServer.set(
				server,
				state.client.onDidCompleteElicitation((e) => presenter.notifyComplete(server, e.elicitationId)),
			);
		}
	};
	const subscription = manager.onDidChangeState(({ server, state }) => follow(server, state));
	for (const view of manager.servers()) {
		follow(view.name, view.state);
	}
	return new vscode.Disposable(() => {
		subscription.dispose();
		for (const d of perServer.values()) d.dispose();
		perServer.clear();
	});
}
