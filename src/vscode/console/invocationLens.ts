/**
 * Saved invocations in the editor: a `*.mcpcall.json` file shows a "Run" CodeLens at its top (and the command
 * "Run Saved MCP Call" works on the active file). Running parses the file as the command line does
 * (manager/invocationFile.ts), names the file and the problem when it cannot run, and otherwise runs it through the
 * palette's commands, so progress, Cancel and the result document are the same; consent is the rule for arguments
 * nobody typed in this window (manager/consentRule.ts): a tool that is not read-only asks first, and in Restricted
 * Mode nothing runs.
 */
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import { parseInvocation } from '../../manager/invocationFile';
import { runInvocation } from './historyView';
import { errorMessage } from '../../common/errors';

export class InvocationLens implements vscode.CodeLensProvider {
	provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
		const parsed = parseInvocation(document.getText(), document.fileName);
		const title = parsed.invocation
			? `$(play) Run ${parsed.invocation.kind === 'resource' ? `read ${parsed.invocation.uri}` : parsed.invocation.kind === 'tool' ? parsed.invocation.tool : `prompt ${parsed.invocation.prompt}`} on ${parsed.invocation.server}`
			: '$(play) Run (fix the file first)';
		return [
			new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
				title,
				command: Commands.runInvocationFile,
				arguments: [document.uri],
			}),
		];
	}
}

/** Runs the file at `uri` (default: the active editor's). Resolves with what the run command returned. */
export async function runInvocationFile(uri: vscode.Uri | undefined): Promise<unknown> {
	uri ??= vscode.window.activeTextEditor?.document.uri;
	if (!uri) {
		void vscode.window.showInformationMessage('Open a *.mcpcall.json file to run it.');
		return undefined;
	}
	const label = vscode.workspace.asRelativePath(uri);
	let text: string;
	try {
		// The editor's text when the file is open (unsaved edits count), else the file on disk.
		const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
		text = open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
	} catch (error) {
		void vscode.window.showErrorMessage(`Cannot read ${label}: ${errorMessage(error)}`);
		return undefined;
	}
	const parsed = parseInvocation(text, label);
	if (!parsed.invocation) {
		void vscode.window.showErrorMessage(`Cannot run ${parsed.problems.join('; ')}`);
		return undefined;
	}
	// A file's arguments are not ones the user typed (it may come from a cloned repository): the consent rule asks.
	return runInvocation(parsed.invocation, false, { via: 'file' });
}

export function registerInvocationFiles(): vscode.Disposable {
	return vscode.Disposable.from(
		vscode.languages.registerCodeLensProvider({ pattern: '**/*.mcpcall.json' }, new InvocationLens()),
		vscode.commands.registerCommand(Commands.runInvocationFile, (uri?: vscode.Uri) => runInvocationFile(uri)),
	);
}
