/**
 * The two events every transport has (Transport.onMessage, Transport.onClose) and the emitters behind them: one base
 * for the stdio, HTTP, gateway session and VS Code tools transports instead of the same four fields in each.
 */
import { Emitter } from '../../common/event';
import type { McpError } from '../mcpError';

export abstract class TransportEvents {
	protected readonly messageEmitter = new Emitter<unknown>();
	protected readonly closeEmitter = new Emitter<McpError>();
	/** Each parsed message, in order (from stdio: synchronously from the read loop). */
	readonly onMessage = this.messageEmitter.event;
	/** Fires once: the transport closed (the process exited, the session ended, or close() was called), with why. */
	readonly onClose = this.closeEmitter.event;
}
