/**
 * The wire between the host and one MCP App: a Transport over whatever carries the app's `postMessage`s (a VS Code
 * webview relays them here), so the app is spoken to by the same JsonRpcConnection as a server — ids, timeouts,
 * cancellation, `ping`, InvalidRequest and MethodNotFound answers come from there. What an app may not do to us is
 * stopped here first: more than `perSecond` messages a second (after a burst of `burst`) are dropped, as is any message
 * larger than `maxMessageChars` of JSON; both are logged (once a second at most, with counts), and nothing else notices.
 */
import { Emitter, type Event } from '../../common/event';
import type { Logger } from '../../common/logger';
import type { Clock } from '../../protocol/connectionOptions';
import type { JsonRpcMessage } from '../../protocol/jsonrpc';
import { ErrorCode } from '../../protocol/jsonrpc';
import { McpError } from '../../protocol/mcpError';
import type { Transport } from '../../protocol/transports/transport';

export interface AppChannelOptions {
	/** Sends one message to the app (the webview forwards it into the app's frame). */
	post(message: JsonRpcMessage): PromiseLike<unknown> | void;
	logger: Logger;
	/** A name for log lines, e.g. `basic (app ui://get-time/mcp-app.html)`. */
	name: string;
	/** Sustained messages per second accepted from the app. Default 100. */
	perSecond?: number;
	/** Messages accepted at once before the rate applies. Default 200. */
	burst?: number;
	/** The largest message accepted, in characters of JSON. Default 4 MiB. */
	maxMessageChars?: number;
	/** Default: Date.now. */
	now?: Clock['now'];
}

/** How often the drop counts are logged, at most. */
const REPORT_EVERY_MS = 1000;

export class AppChannel implements Transport {
	readonly kind = 'window' as const;
	private readonly messages = new Emitter<unknown>();
	private readonly closes = new Emitter<McpError>();
	readonly onMessage: Event<unknown> = this.messages.event;
	readonly onClose: Event<McpError> = this.closes.event;
	private closed = false;
	private tokens: number;
	private refilledAt: number;
	private droppedForRate = 0;
	private droppedForSize = 0;
	private reportedAt = -Infinity;
	private readonly now: () => number;
	private readonly perSecond: number;
	private readonly burst: number;
	private readonly maxChars: number;

	constructor(private readonly options: AppChannelOptions) {
		this.now = options.now ?? Date.now;
		this.perSecond = options.perSecond ?? 100;
		this.burst = options.burst ?? 200;
		this.maxChars = options.maxMessageChars ?? 4 * 1024 * 1024;
		this.tokens = this.burst;
		this.refilledAt = this.now();
	}

	/** Messages dropped so far: over the rate, and too large. */
	get dropped(): { rate: number; size: number } {
		return { rate: this.droppedForRate, size: this.droppedForSize };
	}

	async start(): Promise<void> {}

	async send(message: JsonRpcMessage): Promise<void> {
		if (this.closed) throw McpError.connectionClosed(`${this.options.name}: the app is closed`);
		await this.options.post(message);
	}

	/** One message from the app, as its frame posted it (anything at all). */
	receive(message: unknown): void {
		if (this.closed) return;
		if (!this.take()) {
			this.droppedForRate++;
			this.report();
			return;
		}
		let size: number;
		try {
			size = JSON.stringify(message)?.length ?? 0;
		} catch {
			size = Infinity; // cycles or BigInts cannot be JSON-RPC anyway
		}
		if (size > this.maxChars) {
			this.droppedForSize++;
			this.report();
			const id = typeof message === 'object' && message !== null ? (message as { id?: unknown }).id : undefined;
			// A request still gets its answer, so the app's promise does not hang on a message we refused to read.
			if (typeof id === 'string' || typeof id === 'number') {
				void this.send({
					jsonrpc: '2.0',
					id,
					error: new McpError(
						ErrorCode.InvalidRequest,
						`Message too large (over ${this.maxChars} characters of JSON)`,
					).toJson(),
				}).catch(() => undefined);
			}
			return;
		}
		this.messages.fire(message);
	}

	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		this.report(true);
		this.closes.fire(McpError.connectionClosed(`${this.options.name}: closed`));
		this.messages.dispose();
		this.closes.dispose();
	}

	private take(): boolean {
		const now = this.now();
		this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) / 1000) * this.perSecond);
		this.refilledAt = now;
		if (this.tokens < 1) return false;
		this.tokens -= 1;
		return true;
	}

	private report(final = false): void {
		const now = this.now();
		if (!final && now - this.reportedAt < REPORT_EVERY_MS) return;
		if (this.droppedForRate === 0 && this.droppedForSize === 0) return;
		this.reportedAt = now;
		const parts: string[] = [];
		if (this.droppedForRate > 0)
			parts.push(`${this.droppedForRate} for sending more than ${this.perSecond} messages a second`);
		if (this.droppedForSize > 0) parts.push(`${this.droppedForSize} for being larger than ${this.maxChars} characters`);
		this.options.logger.warn(`${this.options.name}: dropped messages from the app so far: ${parts.join(', ')}`);
	}
}
