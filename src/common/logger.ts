/** Levels in increasing severity; `off` silences everything. */
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'off';

const order: Record<LogLevel, number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4, off: 5 };

/** True when a message at `level` passes a logger set to `threshold`. */
export function levelEnabled(threshold: LogLevel, level: LogLevel): boolean {
	return level !== 'off' && order[level] >= order[threshold];
}

/**
 * The one logging interface of the core. At the edge it is a VS Code LogOutputChannel per server.
 * Wire traces are expensive to build: check `traceEnabled` before formatting one.
 */
export interface Logger {
	/** True when trace messages are kept; callers build trace strings only then. */
	readonly traceEnabled: boolean;
	trace(message: string): void;
	debug(message: string): void;
	info(message: string): void;
	warn(message: string): void;
	error(message: string | Error): void;
}

/** A logger that drops everything (the default in the headless API). */
export const nullLogger: Logger = {
	traceEnabled: false,
	trace() {},
	debug() {},
	info() {},
	warn() {},
	error() {},
};

/** One kept log line (tests and the in-memory logger). */
export interface LogEntry {
	level: Exclude<LogLevel, 'off'>;
	message: string;
}

/** A logger that keeps its lines in memory; used by tests and to collect the last lines for error messages. */
export class MemoryLogger implements Logger {
	readonly entries: LogEntry[] = [];

	constructor(private readonly threshold: LogLevel = 'trace') {}

	get traceEnabled(): boolean {
		return levelEnabled(this.threshold, 'trace');
	}

	trace(message: string): void {
		this.push('trace', message);
	}
	debug(message: string): void {
		this.push('debug', message);
	}
	info(message: string): void {
		this.push('info', message);
	}
	warn(message: string): void {
		this.push('warn', message);
	}
	error(message: string | Error): void {
		this.push('error', message instanceof Error ? (message.stack ?? message.message) : message);
	}

	/** The kept lines that contain `text`, at any level. */
	find(text: string): LogEntry[] {
		return this.entries.filter((entry) => entry.message.includes(text));
	}

	private push(level: LogEntry['level'], message: string): void {
		if (levelEnabled(this.threshold, level)) {
			this.entries.push({ level, message });
		}
	}
}

/** A logger that writes to the console's stderr, for scripts: `consoleLogger('info')`. */
export function consoleLogger(threshold: LogLevel = 'info', prefix = ''): Logger {
	const write = (level: LogLevel, message: string) => {
		if (levelEnabled(threshold, level)) {
			process.stderr.write(`${prefix}[${level}] ${message}\n`);
		}
	};
	return {
		get traceEnabled() {
			return levelEnabled(threshold, 'trace');
		},
		trace: (m) => write('trace', m),
		debug: (m) => write('debug', m),
		info: (m) => write('info', m),
		warn: (m) => write('warn', m),
		error: (m) => write('error', m instanceof Error ? (m.stack ?? m.message) : m),
	};
}
