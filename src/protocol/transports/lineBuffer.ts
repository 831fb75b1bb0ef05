import type { Logger } from '../../common/logger';
import { nullLogger } from '../../common/logger';

/** The default largest message a LineBuffer accepts: 512 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 512 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;
/** How much of a skipped line goes into the log. */
const PREVIEW_CHARS = 200;

export interface LineBufferOptions {
	/**
	 * Receives each line, decoded as UTF-8, without its `\n` and one trailing `\r`, and where its bytes are:
	 * `bytes[start..end)`, valid only during the call (the chunk is not copied). Empty lines are not delivered.
	 */
	onLine: (line: string, bytes: Uint8Array, start: number, end: number) => void;
	/**
	 * Called when a line grows past `maxMessageBytes`. The line is dropped and reading resumes after its newline,
	 * so one oversized message does not end the connection. Default: nothing (the caller logs).
	 */
	onOversize?: (bytesSeen: number, maxMessageBytes: number) => void;
	/** The largest line kept, in bytes. Default {@link DEFAULT_MAX_MESSAGE_BYTES} (512 MiB). */
	maxMessageBytes?: number;
}

/**
 * Splits a byte stream into newline-delimited lines, in time linear in the input.
 *
 * Why bytes and not strings: `\n` (0x0A) never occurs inside a UTF-8 multibyte sequence, so splitting on the byte
 * is always safe, and decoding each whole line once means a character split across chunks decodes correctly.
 * Bytes of an unfinished line are kept as a list of chunk slices and joined once when its newline arrives; only the
 * new chunk is searched. A chunk that holds whole lines while nothing is pending is decoded in place, without copies.
 */
export class LineBuffer {
	private readonly maxBytes: number;
	/** Slices of the line being assembled (views into received chunks, not copies). */
	private parts: Buffer[] = [];
	private pendingBytes = 0;
	/** True after an oversized line was dropped, until its newline arrives. */
	private discarding = false;

	constructor(private readonly options: LineBufferOptions) {
		this.maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
	}

	/** Bytes held for the line not yet terminated. */
	get pending(): number {
		return this.pendingBytes;
	}

	/** Feeds one chunk; delivers every line it completes, synchronously and in order. */
	push(chunk: Buffer): void {
		let start = 0;
		const length = chunk.length;
		while (start < length) {
			const newline = chunk.indexOf(LF, start);
			if (newline === -1) {
				this.keep(chunk, start, length);
				return;
			}
			if (this.discarding) {
				this.discarding = false;
			} else if (this.parts.length === 0) {
				// Fast path: the whole line is inside this chunk.
				if (newline - start > this.maxBytes) {
					this.options.onOversize?.(newline - start, this.maxBytes);
				} else {
					this.emit(chunk, start, newline);
				}
			} else {
				const total = this.pendingBytes + (newline - start);
				if (total > this.maxBytes) {
					this.parts = [];
					this.pendingBytes = 0;
					this.options.onOversize?.(total, this.maxBytes);
				} else {
					this.parts.push(chunk.subarray(start, newline));
					const line = Buffer.concat(this.parts, total);
					this.parts = [];
					this.pendingBytes = 0;
					this.emit(line, 0, line.length);
				}
			}
			start = newline + 1;
		}
	}

	/**
	 * Delivers the bytes after the last newline as a final line (a server that exits without ending its last line)
	 * and resets the buffer.
	 */
	end(): void {
		if (this.parts.length > 0 && !this.discarding) {
			const line = Buffer.concat(this.parts, this.pendingBytes);
			this.emit(line, 0, line.length);
		}
		this.parts = [];
		this.pendingBytes = 0;
		this.discarding = false;
	}

	private keep(chunk: Buffer, start: number, end: number): void {
		if (this.discarding) {
			return;
		}
		this.pendingBytes += end - start;
		if (this.pendingBytes > this.maxBytes) {
			this.options.onOversize?.(this.pendingBytes, this.maxBytes);
			this.parts = [];
			this.pendingBytes = 0;
			this.discarding = true;
			return;
		}
		this.parts.push(chunk.subarray(start, end));
	}

	private emit(buffer: Buffer, start: number, end: number): void {
		if (end > start && buffer[end - 1] === CR) {
			end -= 1;
		}
		if (end > start) {
			this.options.onLine(buffer.toString('utf8', start, end), buffer, start, end);
		}
	}
}

export interface JsonLineReaderOptions {
	/**
	 * Receives each parsed JSON value, its line and the line's bytes (`bytes[start..end)`, valid only during the
	 * call); the elements of a JSON array one by one, without a line or bytes.
	 */
	onMessage: (value: unknown, line: string | undefined, bytes?: Uint8Array, start?: number, end?: number) => void;
	/** Where skipped lines and oversized messages are reported. Default: nowhere. */
	logger?: Logger;
	/** Names the peer in log lines. Default 'server'. */
	name?: string;
	/** The largest message accepted, in bytes. Default {@link DEFAULT_MAX_MESSAGE_BYTES} (512 MiB). */
	maxMessageBytes?: number;
}

/**
 * A LineBuffer that parses each line as JSON: the framing of MCP's stdio transport.
 * A line that is not JSON is logged (its first 200 characters) and skipped; a message past the size limit is
 * logged as an error and dropped; neither ends the stream.
 */
export function createJsonLineReader(options: JsonLineReaderOptions): LineBuffer {
	const logger = options.logger ?? nullLogger;
	const name = options.name ?? 'server';
	const { onMessage } = options;
	return new LineBuffer({
		maxMessageBytes: options.maxMessageBytes,
		onLine: (line, bytes, start, end) => {
			let value: unknown;
			try {
				value = JSON.parse(line);
			} catch {
				if (line.trim() !== '') {
					const preview =
						line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS)}… (${line.length} characters)` : line;
					logger.warn(`${name}: skipped output that is not JSON: ${preview}`);
				}
				return;
			}
			if (Array.isArray(value)) {
				for (const element of value) {
					onMessage(element, undefined);
				}
			} else {
				onMessage(value, line, bytes, start, end);
			}
		},
		onOversize: (bytes, max) => {
			logger.error(
				`${name}: dropped a message larger than the limit of ${formatBytes(max)} (at least ${formatBytes(bytes)} received); ` +
					'reading resumes at the next message. Raise maxMessageBytes if the server really sends messages this large.',
			);
		},
	});
}

function formatBytes(bytes: number): string {
	return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${bytes} bytes`;
}
