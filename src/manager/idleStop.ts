/**
 * When a running server counts as idle: nothing in flight through the Manager, nothing that keeps it (a resource
 * subscription, a live task, an open MCP App: `busy()`), and no use for `idleMs()`. Then `onIdle` stops it; its next
 * need starts it again.
 */
import type { Disposable } from '../common/disposable';
import type { Clock } from './backoff';
import type { McpClient } from '../protocol/client';
import { plural } from '../common/text';

export class IdleStop {
	private timer: Disposable | undefined;
	private holds = 0;
	private armed = false;

	constructor(
		private readonly clock: Clock,
		/** How long unused before stopping, in ms; 0 or less: never. Read at each arming. */
		private readonly idleMs: () => number,
		/** Whether something keeps the server running although nothing is in flight. */
		private readonly busy: () => boolean,
		private readonly onIdle: () => void,
	) {}

	/** The server runs: the countdown starts (again). */
	arm(): void {
		this.armed = true;
		this.restart();
	}

	/** The server stopped: nothing to count down. */
	disarm(): void {
		this.armed = false;
		this.timer?.dispose();
		this.timer = undefined;
	}

	/** Something uses the server until the returned disposable is disposed; the countdown restarts after it. */
	use(): Disposable {
		this.holds++;
		this.timer?.dispose();
		this.timer = undefined;
		let released = false;
		return {
			dispose: () => {
				if (released) return;
				released = true;
				if (--this.holds === 0) this.restart();
			},
		};
	}

	/** The setting changed: count down under the new value. */
	settingChanged(): void {
		this.restart();
	}

	private restart(): void {
		this.timer?.dispose();
		this.timer = undefined;
		const ms = this.idleMs();
		if (!this.armed || this.holds > 0 || !(ms > 0)) return;
		this.timer = this.clock.setTimeout(() => {
			this.timer = undefined;
			if (!this.armed || this.holds > 0) return;
			// A subscription or a task keeps it: look again after another period.
			if (this.busy()) this.restart();
			else this.onIdle();
		}, ms);
	}
}

/** Whether the server's connection keeps it running although nothing is in flight: a subscription or a live task. */
export function keepsRunning(client: McpClient | undefined): boolean {
	return client !== undefined && (client.hasSubscriptions || client.liveTasks.length > 0);
}

/** "10 minutes", "1 minute", "30 s" for a duration in ms. */
export function describeDuration(ms: number): string {
	return ms < 60_000 ? `${Math.round(ms / 1000)} s` : plural(Math.round(ms / 60_000), 'minute');
}
