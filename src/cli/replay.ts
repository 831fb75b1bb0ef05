/**
 * `mcp-switchboard replay FILE [--http PORT]`: serves a recorded session (`*.mcpsession.json`) back as a fake MCP
 * server, so a client or a test runs without the real one. Over stdio (the default) it reads one JSON-RPC message a
 * line on stdin and answers on stdout until stdin ends; with `--http PORT` it is a Streamable HTTP endpoint on
 * 127.0.0.1 (any path; JSON answers; port 0 picks a free one, printed on stderr) until interrupted. Requests the
 * recording does not have are answered with an error and reported on stderr as they come and in the summary at the
 * end; the run exits 1 when there were any, so a test that strays from its recording fails.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { errorMessage } from '../common/errors';
import { parseSession, ReplayBook } from '../manager/sessionReplay';
import { UsageError } from './session';
import { isRecord } from '../common/records';

/** Where the replay reports (stderr): a line per unexpected request, the listening URL, the summary. */
export type ReplayReport = (line: string) => void;

/** The answer to one incoming message, or undefined for a notification or a response (nothing to send). */
function answerOne(book: ReplayBook, message: unknown, report: ReplayReport): unknown {
	if (!isRecord(message) || typeof message.method !== 'string') return undefined;
	const id = message.id;
	if (typeof id !== 'string' && typeof id !== 'number') return undefined;
	const before = book.unexpected.length;
	const answer = book.answer(message.method, message.params);
	if (book.unexpected.length > before) report(`replay: unexpected request: ${book.unexpected.at(-1)}`);
	return { jsonrpc: '2.0', id, ...answer };
}

function summary(book: ReplayBook): string {
	const lines = [`replay: ${book.answered} requests answered from the recording, ${book.unexpected.length} unexpected`];
	for (const line of book.unexpected) lines.push(`  unexpected: ${line}`);
	return lines.join('\n');
}

/** Reads the session file; a UsageError when it cannot be read or is not a session. */
export function loadBook(file: string): ReplayBook {
	try {
		return new ReplayBook(parseSession(readFileSync(file, 'utf8')));
	} catch (error) {
		throw new UsageError(`cannot replay ${file}: ${errorMessage(error)}`);
	}
}

/** Serves over stdin/stdout until stdin ends or `interrupt` aborts; resolves with the book (its unexpected list). */
export async function replayStdio(book: ReplayBook, report: ReplayReport, interrupt: AbortSignal): Promise<ReplayBook> {
	const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
	const stop = () => lines.close();
	interrupt.addEventListener('abort', stop, { once: true });
	try {
		for await (const line of lines) {
			if (!line.trim()) continue;
			let message: unknown;
			try {
				message = JSON.parse(line);
			} catch {
				process.stdout.write(
					`${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } })}\n`,
				);
				continue;
			}
			const answer = answerOne(book, message, report);
			if (answer !== undefined) process.stdout.write(`${JSON.stringify(answer)}\n`);
		}
	} finally {
		interrupt.removeEventListener('abort', stop);
	}
	report(summary(book));
	return book;
}

async function readBody(request: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

/** Serves Streamable HTTP on 127.0.0.1:`port` until `interrupt` aborts; resolves with the book. */
export async function replayHttp(
	book: ReplayBook,
	port: number,
	report: ReplayReport,
	interrupt: AbortSignal,
): Promise<ReplayBook> {
	const sessionId = randomUUID();
	const handle = async (request: IncomingMessage, response: ServerResponse) => {
		if (request.method === 'DELETE') return void response.writeHead(200).end();
		if (request.method !== 'POST')
			return void response.writeHead(405, { allow: 'POST, DELETE' }).end('This replay answers POST only');
		let body: unknown;
		try {
			body = JSON.parse(await readBody(request));
		} catch {
			return void response
				.writeHead(400, { 'content-type': 'application/json' })
				.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
		}
		const messages = Array.isArray(body) ? body : [body];
		const answers = messages.map((message) => answerOne(book, message, report)).filter((a) => a !== undefined);
		if (answers.length === 0) return void response.writeHead(202, { 'mcp-session-id': sessionId }).end();
		response
			.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': sessionId })
			.end(JSON.stringify(Array.isArray(body) ? answers : answers[0]));
	};
	const server = createServer((request, response) => {
		handle(request, response).catch((error: unknown) => {
			report(`replay: ${errorMessage(error)}`);
			if (!response.headersSent) response.writeHead(500).end();
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve());
	});
	const address = server.address() as AddressInfo;
	report(`replay: serving the session of '${book.session.server}' at http://127.0.0.1:${address.port}/mcp`);
	await new Promise<void>((resolve) => {
		if (interrupt.aborted) resolve();
		else interrupt.addEventListener('abort', () => resolve(), { once: true });
	});
	server.closeAllConnections();
	await new Promise<void>((resolve) => server.close(() => resolve()));
	report(summary(book));
	return book;
}
