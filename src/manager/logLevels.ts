import type { Logger } from '../common/logger';
import type { LoggingLevel, LoggingMessage } from '../protocol/schema';

/** The method of our Logger that an MCP log level (RFC 5424's eight) is written with. */
export const MCP_LEVEL_TO_LOG: Readonly<Record<LoggingLevel, 'debug' | 'info' | 'warn' | 'error'>> = {
	debug: 'debug',
	info: 'info',
	notice: 'info',
	warning: 'warn',
	error: 'error',
	critical: 'error',
	alert: 'error',
	emergency: 'error',
};

/** Writes a server's log message (`notifications/message`) to its log at the matching level. */
export function writeServerLog(logger: Logger, message: LoggingMessage): void {
	const text = typeof message.data === 'string' ? message.data : JSON.stringify(message.data);
	const line = message.logger ? `[${message.logger}] ${text}` : text;
	logger[MCP_LEVEL_TO_LOG[message.level] ?? 'info'](line);
}
