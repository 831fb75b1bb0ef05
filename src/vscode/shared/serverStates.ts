/** A server's state as the edge shows it: the words the tree, the status bar's list and the pickers use. */
import type { ServerState } from '../../manager/manager';
import { needsSignIn } from '../auth/oauth';

/** "running", "stopped", … as a person reads it. */
export function stateLabel(state: ServerState): string {
	switch (state.kind) {
		case 'running':
			return 'running';
		case 'starting':
			return state.attempt > 1 ? `starting (attempt ${state.attempt})` : 'starting';
		case 'stopped':
			return 'stopped';
		case 'disabled':
			return 'disabled';
		case 'needsTrust':
			return 'needs trust';
		case 'error':
			if (needsSignIn(state.message)) return 'sign in';
			return state.crashLoop
				? 'error (crash loop, stopped retrying)'
				: state.retryAt !== undefined
					? 'error (will retry)'
					: 'error';
	}
}
