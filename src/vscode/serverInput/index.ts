/** Server input: one queue for every UI a server starts, and the status bar item that announces what waits. */
import type * as vscode from 'vscode';
import { ServerInputQueue } from './inputQueue';
import { WaitingRequestsAnnouncer } from './waitingRequests';

/** The queue (elicitation, URL consent and sampling consent take turns in it) and its announcement. */
export interface ServerInput {
	queue: ServerInputQueue;
	waitingRequests: WaitingRequestsAnnouncer;
}

/**
 * Registers the queue and Show Waiting Requests. It needs nothing else, so it registers first: the Host's presenters
 * are built on it.
 */
export function register(context: vscode.ExtensionContext): ServerInput {
	// They take turns, and a hidden one waits, announced, instead of being refused.
	const queue = new ServerInputQueue();
	const waitingRequests = new WaitingRequestsAnnouncer(queue);
	context.subscriptions.push(queue, waitingRequests);
	return { queue, waitingRequests };
}
