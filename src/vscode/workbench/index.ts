/**
 * The workbench for server authors: Record Session (recordSession.ts). Registers its commands and returns the
 * recordings, which tests read.
 */
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import { serverOf, type Target } from '../commandTarget';
import { SessionRecordings, type RecordDeps } from './recordSession';

/** What later features and tests use of the workbench. */
export interface Workbench {
	recordings: SessionRecordings;
}

export function register(context: vscode.ExtensionContext, deps: RecordDeps): Workbench {
	const recordings = new SessionRecordings(deps);
	context.subscriptions.push(
		recordings,
		vscode.commands.registerCommand(Commands.recordSession, (target?: Target, saveTo?: vscode.Uri) =>
			recordings.record(target, saveTo),
		),
		vscode.commands.registerCommand(Commands.stopRecording, (target?: Target, saveTo?: vscode.Uri) =>
			recordings.stop(serverOf(target), saveTo),
		),
	);
	return { recordings };
}
