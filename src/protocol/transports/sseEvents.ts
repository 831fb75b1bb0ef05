import type { IncomingMessage } from 'node:http';
import { createParser, type EventSourceParser } from 'eventsource-parser';

/** One server-sent event. `event` is undefined for the default type ("message"). */
export interface SseEvent {
	id: string | undefined;
	event: string | undefined;
	data: string;
}

export interface SseCallbacks {
	onEvent(event: SseEvent): void;
	/** The server's `retry:` field, in ms. */
	onRetry?(ms: number): void;
}

/** How an SSE body ended: `clean` after the server finished it, otherwise cut (socket error, reset, too large). */
export interface SseEnd {
	clean: boolean;
	/** Why it was cut, for logs and messages. */
	reason?: string;
}

/**
 * Decodes text/event-stream chunks into events, on top of `eventsource-parser` (which buffers partial lines as a
 * list of fragments, so a 20 MiB event costs one join, not one per chunk). Remembers the last event id and the
 * server's retry delay, which is what a client needs to resume.
 * Spec: https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */
export class SseDecoder {
	/** The id of the last event that carried one (empty-data priming events included). */
	lastEventId: string | undefined;
	/** The last `retry:` value, in ms; undefined until the server sends one. */
	retryMs: number | undefined;
	/** Set when one event grew past the size limit; the decoder stops delivering. */
	overflow = false;

	private readonly parser: EventSourceParser;
	private first = true;

	/** `maxEventChars`: the largest event accepted (characters). Default: unbounded. */
	constructor(callbacks: SseCallbacks, maxEventChars?: number) {
		this.parser = createParser({
			maxBufferSize: maxEventChars,
			onEvent: (event) => {
				if (event.id !== undefined) {
					this.lastEventId = event.id;
				}
				callbacks.onEvent({ id: event.id, event: event.event, data: event.data });
			},
			onRetry: (ms) => {
				this.retryMs = ms;
				callbacks.onRetry?.(ms);
			},
			onError: (error) => {
				if (error.type === 'max-buffer-size-exceeded') {
					this.overflow = true;
				}
				// Unknown fields and bad retry values are ignored, as the SSE spec says.
			},
		});
	}

	/** Feeds decoded text. A no-op after an overflow. */
	feed(text: string): void {
		if (this.overflow || text === '') {
			return;
		}
		if (this.first) {
			this.first = false;
			// The spec ignores one leading U+FEFF; the parser only recognises it as undecoded UTF-8 bytes.
			if (text.charCodeAt(0) === 0xfeff) {
				text = text.slice(1);
			}
		}
		this.parser.feed(text);
	}
}

/**
 * Pipes an SSE response body into a decoder and resolves when the body ends: `clean` when the server ended it,
 * not clean when it was cut (socket reset, destroyed, or an event past the size limit, which destroys the body).
 * Never rejects.
 */
export function readSse(res: IncomingMessage, decoder: SseDecoder): Promise<SseEnd> {
	return new Promise((resolve) => {
		let settled = false;
		const settle = (end: SseEnd) => {
			if (!settled) {
				settled = true;
				resolve(end);
			}
		};
		res.setEncoding('utf8');
		res.on('data', (text: string) => {
			decoder.feed(text);
			if (decoder.overflow) {
				res.destroy();
				settle({ clean: false, reason: 'an event was larger than the size limit' });
			}
		});
		res.on('end', () => settle({ clean: true }));
		res.on('error', (error) => settle({ clean: false, reason: error.message }));
		res.on('close', () => settle(res.complete ? { clean: true } : { clean: false, reason: 'the stream was cut' }));
	});
}
