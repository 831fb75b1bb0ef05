import * as vscode from 'vscode';
import type { Logger } from '../../common/logger';

/** A core Logger writing to a LogOutputChannel; trace lines are built only while the channel's level is Trace. */
export function channelLogger(channel: vscode.LogOutputChannel): Logger {
	return {
		get traceEnabled() {
			return channel.logLevel === vscode.LogLevel.Trace;
		},
		trace: (message) => channel.trace(message),
		debug: (message) => channel.debug(message),
		info: (message) => channel.info(message),
		warn: (message) => channel.warn(message),
		error: (message) => channel.error(message),
	};
}

/**
 * Owns the extension's log channels: "MCP Switchboard" for the extension itself, and one "MCP: <server>" per server,
 * created on first use (a server that never logs gets no channel). Disposing closes them all.
 */
export class ServerLogs implements vscode.Disposable {
	/** The extension's own channel. */
	readonly main: vscode.LogOutputChannel;
	private readonly channels = new Map<string, vscode.LogOutputChannel>();
	private readonly loggers = new Map<string, Logger>();
	/** The server whose channel was brought to the front last (Show Protocol from the Output view offers it first). */
	lastShown: string | undefined;

	constructor() {
		this.main = vscode.window.createOutputChannel('MCP Switchboard', { log: true });
	}

	/** The channel of one server, created on first use. Its name is "MCP: <server>". */
	channel(server: string): vscode.LogOutputChannel {
		let channel = this.channels.get(server);
		if (!channel) {
			channel = vscode.window.createOutputChannel(`MCP: ${server}`, { log: true });
			this.channels.set(server, channel);
		}
		return channel;
	}

	/** A core Logger for one server (what Host.logger returns). */
	logger(server: string): Logger {
		let logger = this.loggers.get(server);
		if (!logger) {
			logger = channelLogger(this.channel(server));
			this.loggers.set(server, logger);
		}
		return logger;
	}

	/** Brings a server's channel to the front (the "Show Output" action); the main channel when none exists yet. */
	show(server?: string): void {
		if (server !== undefined) this.lastShown = server;
		(server !== undefined ? this.channel(server) : this.main).show(true);
	}

	dispose(): void {
		for (const channel of this.channels.values()) {
			channel.dispose();
		}
		this.channels.clear();
		this.loggers.clear();
		this.main.dispose();
	}
}
