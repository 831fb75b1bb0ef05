/**
 * A server's state as the edge shows it, beside the closed union (`ServerState`, manager/types.ts) as VS Code's
 * `McpConnectionState` namespace keeps its helpers: the words ({@link stateLabel}), the icon ({@link stateIcon}) and
 * what a click on the server's row does ({@link stateClick}). Every state kind is handled in each, so a new kind fails
 * the typecheck here rather than showing as something else.
 */
import * as vscode from 'vscode';
import type { ServerState } from '../../manager/manager';
import { Commands } from '../commandIds';
import { UNREACHABLE_WORDS } from '../../manager/unreachable';

/** "running", "stopped", … as a person reads it. */
export function stateLabel(state: ServerState): string {
	switch (state.kind) {
		case 'running':
			return 'running';
		case 'starting':
			return state.attempt > 1 ? `starting (attempt ${state.attempt})` : 'starting';
		case 'stopped':
			return state.onDemand === 'notStarted'
				? 'not started'
				: state.onDemand === 'idle'
					? 'stopped while idle'
					: 'stopped';
		case 'disabled':
			return 'disabled';
		case 'needsTrust':
			return 'needs trust';
		case 'needsSignIn':
			return 'sign in';
		case 'error':
			// A URL that refused every connection never ran: "not reachable", not a crash loop.
			if (state.unreachable)
				return `not reachable (${UNREACHABLE_WORDS[state.unreachable]}${state.retryAt !== undefined ? ', will retry' : state.crashLoop ? ', stopped trying' : ''})`;
			return state.crashLoop
				? 'error (crash loop, stopped retrying)'
				: state.retryAt !== undefined
					? 'error (will retry)'
					: 'error';
	}
}

/** The server row's icon. */
export function stateIcon(state: ServerState): vscode.ThemeIcon {
	switch (state.kind) {
		case 'running':
			return new vscode.ThemeIcon('vm-running', new vscode.ThemeColor('testing.iconPassed'));
		case 'starting':
			return new vscode.ThemeIcon('loading~spin');
		case 'stopped':
			return new vscode.ThemeIcon('vm-outline');
		case 'disabled':
			return new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('disabledForeground'));
		case 'needsTrust':
			return new vscode.ThemeIcon('shield', new vscode.ThemeColor('problemsWarningIcon.foreground'));
		case 'needsSignIn':
			return new vscode.ThemeIcon('account', new vscode.ThemeColor('problemsWarningIcon.foreground'));
		case 'error':
			return new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground'));
	}
}

/**
 * What a click on the server's row does: for a server waiting for the user, the user's Start (which asks for trust,
 * or runs the sign-in); otherwise nothing (the row expands).
 */
export function stateClick(server: string, state: ServerState): vscode.Command | undefined {
	switch (state.kind) {
		// Nothing asks for trust or opens a sign-in by itself: a click is the user's Start, which does.
		case 'needsTrust':
			return { command: Commands.startServer, title: 'Start (asks whether to allow it)', arguments: [server] };
		case 'needsSignIn':
			return { command: Commands.startServer, title: 'Sign in and start', arguments: [server] };
		case 'running':
		case 'starting':
		case 'stopped':
		case 'disabled':
		case 'error':
			return undefined;
	}
}

/** The state's message (what failed, or what it waits for), for tooltips and pickers. */
export function stateMessage(state: ServerState): string | undefined {
	return state.kind === 'error' || state.kind === 'needsSignIn' ? state.message : undefined;
}
