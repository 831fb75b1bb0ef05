// CONTRACT STUB: the elicitation work replaces the body; extension.ts/host.ts wire it by this shape.
import type * as vscode from 'vscode';
import type { ElicitRequest, ElicitResult } from '../protocol/schema';

/** Shows a server's `elicitation/create` to the user as quick picks and input boxes, one request at a time. */
export class ElicitationPresenter implements vscode.Disposable {
	/** `log(server)` gives that server's log channel. */
	constructor(_log: (server: string) => vscode.LogOutputChannel) {}

	/** A refusal is an answer (`decline` / `cancel`), never a throw. */
	async elicit(_server: string, _params: ElicitRequest, _signal: AbortSignal): Promise<ElicitResult> {
		return { action: 'decline' };
	}

	dispose(): void {}
}
