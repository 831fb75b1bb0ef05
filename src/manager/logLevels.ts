import type { LoggingLevel } from '../protocol/schema';

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
