/**
 * The workbench for server authors: Record Session (recordSession.ts), Save as Session… from the Call History
 * (sessionFromHistory.ts), dev mode (devMode.ts: `dev.watch` restarts, `dev.debug` attaches the debugger) and Check
 * This Server (checkServer.ts: the conformance suite's server scenarios). Registers them and returns what tests read.
 */
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import { serverOf, type Target } from '../commandTarget';
import { SessionRecordings, type RecordDeps } from './recordSession';
import { DevMode, type DevModeDeps } from './devMode';
import { checkServer, type CheckServerDeps } from './checkServer';
import {
	saveSessionFromHistory,
	type HistoryRow,
	type SessionFromHistoryDeps,
	type SessionScope,
} from './sessionFromHistory';

/** What later features and tests use of the workbench. */
export interface Workbench {
	recordings: SessionRecordings;
	devMode: DevMode;
}

export function register(
	context: vscode.ExtensionContext,
	deps: RecordDeps & DevModeDeps & SessionFromHistoryDeps & CheckServerDeps,
): Workbench {
	const recordings = new SessionRecordings(deps);
	const devMode = new DevMode(deps);
	context.subscriptions.push(
		recordings,
		devMode,
		vscode.commands.registerCommand(Commands.recordSession, (target?: Target, saveTo?: vscode.Uri) =>
			recordings.record(target, saveTo),
		),
		vscode.commands.registerCommand(Commands.checkServer, (target?: Target) => checkServer(deps, target)),
		vscode.commands.registerCommand(Commands.stopRecording, (target?: Target, saveTo?: vscode.Uri) =>
			recordings.stop(serverOf(target), saveTo),
		),
		vscode.commands.registerCommand(
			Commands.historySaveSession,
			(row?: HistoryRow, saveTo?: vscode.Uri, scope?: SessionScope) => saveSessionFromHistory(deps, row, saveTo, scope),
		),
	);
	return { recordings, devMode };
}
