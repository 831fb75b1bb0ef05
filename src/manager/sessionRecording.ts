/**
 * Recorded sessions (`*.mcpsession.json`): the JSON-RPC exchange with one server, kept as a file so that
 * `mcp-switchboard replay` can serve it back as a fake server (manager/sessionReplay.ts) and a client or a test can run
 * without the real one. A recording starts on a running connection (the Manager's message tap), so the handshake is
 * kept as what the server said about itself (`initialize`: version, capabilities, info, instructions), which the
 * replay answers to any client's handshake.
 *
 * Secrets are redacted when recording: values under secret-looking keys (Authorization, tokens, cookies, passwords,
 * API keys: the trace's rule, protocol/connection.ts `redact`) and every occurrence of the values given as secrets
 * (the values of password inputs, `${input:}` secrets, header values), anywhere in the text.
 */
import type { Disposable } from '../common/disposable';
import { redact, SECRET_KEY_IN_JSON } from '../protocol/wireTrace';
import type { McpClient } from '../protocol/client';
import type { Manager } from './manager';
import type { ServerConfig } from './types';

/** The format tag of version 1. */
export const SESSION_FORMAT = 'mcp-switchboard-session/1';

/** One message as it crossed the wire: `out` from the client to the server, `in` from the server. */
export interface RecordedMessage {
	dir: 'in' | 'out';
	message: unknown;
}

/** What the server said about itself at the handshake, answered to a replay's `initialize`. */
export interface RecordedHandshake {
	protocolVersion: string;
	capabilities: Record<string, unknown>;
	serverInfo: Record<string, unknown>;
	instructions?: string;
}

/** The file. */
export interface SessionFile {
	format: typeof SESSION_FORMAT;
	server: string;
	recordedAt: string;
	initialize?: RecordedHandshake;
	messages: RecordedMessage[];
}

/** The text that stands for a redacted value. */
export const REDACTED = '[redacted]';

/**
 * The message with secrets redacted: secret-looking keys' values, and each of `secrets` wherever it occurs in a
 * string (values shorter than 4 characters are left alone: they would redact ordinary words).
 */
export function redactMessage(message: unknown, secrets: readonly string[]): unknown {
	const text = JSON.stringify(message, redact) ?? 'null';
	let redacted = text;
	for (const secret of secrets) {
		if (secret.length < 4) continue;
		// Replaced inside the JSON text as JSON encodes it, so quotes and backslashes in a secret are matched too.
		const encoded = JSON.stringify(secret).slice(1, -1);
		redacted = redacted.split(encoded).join(REDACTED);
	}
	return JSON.parse(redacted) as unknown;
}

/**
 * The values of a server's configuration that a recording must not hold, resolved as it runs: every header value (an
 * HTTP server's `Authorization`, API keys) and the environment variables whose names look secret (`API_TOKEN`,
 * `CLIENT_SECRET`, `OPENAI_API_KEY`), which a tool may echo inside a text where no key rule sees them.
 */
export function configSecrets(config: ServerConfig): string[] {
	if (config.type === 'stdio')
		return Object.entries(config.env ?? {})
			.filter(([name, value]) => SECRET_KEY_IN_JSON.test(name) && typeof value === 'string')
			.map(([, value]) => value as string);
	return Object.values(config.headers ?? {}).filter((value): value is string => typeof value === 'string');
}

/** What a running connection's server said about itself at the handshake. */
export function handshakeOf(client: McpClient): RecordedHandshake {
	const handshake: RecordedHandshake = {
		protocolVersion: client.protocolVersion,
		capabilities: client.serverCapabilities,
		serverInfo: client.serverInfo,
	};
	if (client.instructions !== undefined) handshake.instructions = client.instructions;
	return handshake;
}

/**
 * Records one server's messages from now until `stop()`. `secrets` gives the values to redact (read when the file is
 * made, so inputs answered meanwhile count). Holds every message in memory: a recording is something a person starts
 * and stops, not an always-on log (that is the protocol view's bounded ring).
 */
export class SessionRecorder implements Disposable {
	private readonly messages: RecordedMessage[] = [];
	private handshake: RecordedHandshake | undefined;
	private readonly tap: Disposable;
	private readonly stateWatch: Disposable;
	private stopped = false;

	constructor(
		private readonly manager: Manager,
		readonly server: string,
		private readonly secrets: () => readonly string[] = () => [],
	) {
		this.noteHandshake();
		this.tap = manager.watchMessages(server, (dir, message) => {
			if (this.stopped) return;
			// Redacted as it comes: the raw message is never kept.
			this.messages.push({ dir, message: redactMessage(message, this.secrets()) });
		});
		// A restart during the recording: the replay answers as the newest connection did.
		this.stateWatch = manager.onDidChangeState(({ server: name, state }) => {
			if (name === server && state.kind === 'running') this.noteHandshake();
		});
	}

	private noteHandshake(): void {
		const state = this.manager.get(this.server)?.state;
		if (state?.kind === 'running') this.handshake = handshakeOf(state.client);
	}

	/** How many messages were recorded so far. */
	get count(): number {
		return this.messages.length;
	}

	/** Stops recording and returns the session as a file's content (redacted). */
	stop(): SessionFile {
		this.dispose();
		const file: SessionFile = {
			format: SESSION_FORMAT,
			server: this.server,
			recordedAt: new Date().toISOString(),
			messages: this.messages,
		};
		if (this.handshake) file.initialize = redactMessage(this.handshake, this.secrets()) as RecordedHandshake;
		return file;
	}

	dispose(): void {
		this.stopped = true;
		this.tap.dispose();
		this.stateWatch.dispose();
	}
}

/** The file's text (two-space JSON). */
export function formatSession(session: SessionFile): string {
	return `${JSON.stringify(session, null, 2)}\n`;
}
