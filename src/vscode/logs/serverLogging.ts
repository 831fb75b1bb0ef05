import * as vscode from 'vscode';
import type { Manager } from '../../manager/manager';
import { LOGGING_LEVELS, type LoggingLevel } from '../../protocol/schema';
import { errorMessage } from '../../common/errors';

/** The value of `mcpSwitchboard.logLevel` that leaves each server at its own default (no `logging/setLevel`). */
export const SERVER_DEFAULT = 'serverDefault';

function asLevel(value: unknown): LoggingLevel | typeof SERVER_DEFAULT | undefined {
	if (value === SERVER_DEFAULT) {
		return SERVER_DEFAULT;
	}
	return typeof value === 'string' && (LOGGING_LEVELS as readonly string[]).includes(value)
		? (value as LoggingLevel)
		: undefined;
}

/**
 * The `logging/setLevel` level for a server (Host.loggingLevel): `mcpSwitchboard.logLevelOverrides[server]` when set
 * and valid, else `mcpSwitchboard.logLevel` (default `info`). `serverDefault` in either place, or an invalid value
 * everywhere, gives undefined: the server keeps its own default and no request is sent.
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging
 */
export function loggingLevel(server: string): LoggingLevel | undefined {
	const config = vscode.workspace.getConfiguration('mcpSwitchboard');
	const overrides = config.get<Record<string, unknown>>('logLevelOverrides') ?? {};
	const level = asLevel(overrides[server]) ?? asLevel(config.get<unknown>('logLevel')) ?? 'info';
	return level === SERVER_DEFAULT ? undefined : level;
}

/**
 * Sends the new level to every running server that supports logging when `mcpSwitchboard.logLevel` or
 * `mcpSwitchboard.logLevelOverrides` changes, so the setting applies without a restart. Failures go to the
 * server's log (`log(server)`), never to the user. Dispose on deactivate.
 */
export function watchLogLevelSetting(
	manager: Manager,
	log: (server: string) => { warn(message: string): void; info(message: string): void },
): vscode.Disposable {
	return vscode.workspace.onDidChangeConfiguration((event) => {
		if (
			!event.affectsConfiguration('mcpSwitchboard.logLevel') &&
			!event.affectsConfiguration('mcpSwitchboard.logLevelOverrides')
		) {
			return;
		}
		for (const view of manager.servers()) {
			const state = view.state;
			const level = loggingLevel(view.name);
			if (state.kind !== 'running' || !level || !state.client.serverCapabilities?.logging) {
				continue;
			}
			state.client.setLoggingLevel(level).then(
				() => log(view.name).info(`Log level set to ${level}`),
				(error: unknown) => log(view.name).warn(`logging/setLevel ${level} failed: ${errorMessage(error)}`),
			);
		}
	});
}
