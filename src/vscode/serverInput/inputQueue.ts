import * as vscode from 'vscode';

/** How a request that waits (hidden, or not shown yet) goes on: shown again, dismissed by the user, or cancelled by its server. */
export type Resumption = 'resume' | 'dismiss' | 'aborted';

/** What the user sees of one server request in the waiting list and the announcement. */
export interface WaitingRequest {
	readonly id: number;
	readonly server: string;
	/** One line: what the server asks, e.g. "wants to use a language model". */
	readonly summary: string;
	/** `queued`: not shown yet; `hidden`: shown, then hidden without an answer; `showing`: on screen now. */
	readonly state: 'queued' | 'hidden' | 'showing';
	/** When the server asked (ms since the epoch). */
	readonly since: number;
}

/** Handed to a request's UI while it has its turn. */
export interface Turn {
	/**
	 * Call when the request's quick input was hidden without an answer (Escape, Ctrl+P, another quick input): hiding is
	 * not a refusal, so the request gives the screen back and waits. Resolves `resume` when the user opens it again
	 * (show the same input again: it has the screen), `dismiss` when the user dismissed it from the waiting list, and
	 * `aborted` when its server cancelled it meanwhile.
	 */
	hidden(): Promise<Resumption>;
}

/** A request as the queue asks about it. */
export interface InputRequest {
	server: string;
	summary: string;
	/** The server's cancellation: a waiting request is dropped at once. */
	signal: AbortSignal;
}

interface Entry extends WaitingRequest {
	state: WaitingRequest['state'];
	/** Settles the request's current wait (for its first turn, or after it was hidden). */
	wake?: (how: Resumption) => void;
}

/**
 * The one queue for UI a server starts: elicitation forms, URL elicitation consent, sampling consent, the retry after a
 * URL elicitation. VS Code shows one quick input at a time and hides the open one when another opens; so requests
 * take turns here, and a request whose input was hidden is not refused but waits, announced, until the user opens it
 * again (see {@link WaitingRequestsAnnouncer}).
 *
 * A request shows at once only when nothing of this extension's is on screen, no user form is open (see
 * {@link userInput}) and no request the user put aside is still unanswered; otherwise it waits its turn, announced.
 * While a hidden request waits, the queue shows nothing by itself: popping the next request over the Ctrl+P the user
 * just opened would be the same interruption again. Opening one from the announcement, or answering it, goes on.
 */
export class ServerInputQueue implements vscode.Disposable {
	private readonly entries: Entry[] = [];
	private current: Entry | undefined;
	private userForms = 0;
	private nextId = 0;
	private readonly changed = new vscode.EventEmitter<void>();
	/** Fires when a request arrives, waits, shows or ends. */
	readonly onDidChange: vscode.Event<void> = this.changed.event;

	/** The requests not answered yet, oldest first (the one on screen included, as `showing`). */
	requests(): readonly WaitingRequest[] {
		return this.entries.map(({ id, server, summary, state, since }) => ({ id, server, summary, state, since }));
	}

	/** The requests the user has to come back to (not on screen). */
	waiting(): readonly WaitingRequest[] {
		return this.requests().filter((r) => r.state !== 'showing');
	}

	/**
	 * Runs `body` when the request gets its turn and returns what it returns. `dismissed` gives the answer when the user
	 * dismisses the request before it was shown again, `aborted` when the server cancels it while it waits.
	 */
	async run<T>(
		request: InputRequest,
		body: (turn: Turn) => Promise<T>,
		answers: { dismissed: () => T; aborted: () => T },
	): Promise<T> {
		if (request.signal.aborted) return answers.aborted();
		const entry: Entry = {
			id: ++this.nextId,
			server: request.server,
			summary: request.summary,
			state: 'queued',
			since: Date.now(),
		};
		this.entries.push(entry);
		const onAbort = () => entry.wake?.('aborted');
		request.signal.addEventListener('abort', onAbort, { once: true });
		try {
			const first = this.wait(entry);
			this.pump();
			this.changed.fire();
			const how = await first;
			if (how !== 'resume') return how === 'dismiss' ? answers.dismissed() : answers.aborted();
			return await body({
				hidden: () => {
					if (request.signal.aborted) return Promise.resolve<Resumption>('aborted');
					entry.state = 'hidden';
					if (this.current === entry) this.current = undefined;
					const next = this.wait(entry);
					this.changed.fire();
					return next;
				},
			});
		} finally {
			request.signal.removeEventListener('abort', onAbort);
			this.entries.splice(this.entries.indexOf(entry), 1);
			if (this.current === entry) this.current = undefined;
			this.pump();
			this.changed.fire();
		}
	}

	/** Shows request `id` now (the user chose it), putting aside whatever of ours is on screen. False when it is gone. */
	resume(id: number): boolean {
		const entry = this.entries.find((e) => e.id === id);
		if (!entry || entry.state === 'showing') return entry !== undefined;
		this.grant(entry, 'resume');
		return true;
	}

	/** The user dismissed request `id` without answering it. False when it is gone or on screen. */
	dismiss(id: number): boolean {
		const entry = this.entries.find((e) => e.id === id);
		if (!entry?.wake) return false;
		entry.wake('dismiss');
		return true;
	}

	/**
	 * Marks one of the user's own quick inputs (the Call Tool form) as open until the result is disposed: a server
	 * request that arrives meanwhile waits, announced, instead of throwing the half-filled form away.
	 */
	userInput(): vscode.Disposable {
		this.userForms++;
		let done = false;
		return new vscode.Disposable(() => {
			if (done) return;
			done = true;
			this.userForms--;
			this.pump();
		});
	}

	dispose(): void {
		for (const entry of [...this.entries]) entry.wake?.('aborted');
		this.changed.dispose();
	}

	private wait(entry: Entry): Promise<Resumption> {
		return new Promise<Resumption>((resolve) => {
			entry.wake = (how) => {
				entry.wake = undefined;
				resolve(how);
			};
		});
	}

	/**
	 * Gives the screen to the oldest request never shown, when nothing else holds it. Not while a request the user put
	 * aside is still unanswered: they went to do something else, and new requests are announced, not pushed at them.
	 */
	private pump(): void {
		if (this.current || this.userForms > 0 || this.entries.some((e) => e.state === 'hidden')) return;
		const next = this.entries.find((e) => e.state === 'queued' && e.wake);
		if (next) this.grant(next, 'resume');
	}

	private grant(entry: Entry, how: Resumption): void {
		// The request on screen (if any) is hidden by VS Code when this one shows, and reports it through hidden().
		this.current = entry;
		entry.state = 'showing';
		entry.wake?.(how);
		this.changed.fire();
	}
}

/**
 * Sends a quick pick's rows again. A quick pick shown again after it was hidden came back without its rows in VS Code
 * 1.139 (seen in the e2e suites); assigning them again (and what was ticked) brings them back.
 */
export function reshowItems(input: vscode.QuickInput): void {
	if (!('items' in input)) return;
	const pick = input as vscode.QuickPick<vscode.QuickPickItem>;
	const selected = pick.selectedItems;
	const active = pick.activeItems;
	pick.items = [...pick.items];
	if (pick.canSelectMany) pick.selectedItems = selected;
	else if (active.length > 0) pick.activeItems = active;
}
