/**
 * Saved invocations in the editor: a `*.mcpcall.json` file shows a "Run" CodeLens at its top (and the command
 * "Run Saved MCP Call" works on the active file). Running parses the file as the command line does
 * (manager/invocationFile.ts), names the file and the problem when it cannot run, and otherwise runs it through the
 * palette's commands, so progress, Cancel and the result document are the same; consent is the rule for arguments
 * nobody typed in this window (manager/consentRule.ts): a tool that is not read-only asks first, and in Restricted
 * Mode nothing runs.
 *
 * A file with `expect` is a test (manager/expectations.ts): after a run, a second lens beside Run says "passed" or
 * "failed: <reason>" until the file changes or runs again. A prompt or resource with `expect` is read through the
 * Manager and judged without opening a document.
 */
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import { parseInvocation, type Invocation } from '../../manager/invocationFile';
import { evaluateExpectations, observeResult, type ExpectationReport } from '../../manager/expectations';
import type { Manager } from '../../manager/manager';
import { runInvocation } from './historyView';
import { errorMessage } from '../../common/errors';
import type { CallOutcome } from '../tools/commands';

/** The last verdict of each file with `expect`, keyed by URI, until its text changes. */
interface Verdict {
	report: ExpectationReport;
	text: string;
}

export class InvocationLens implements vscode.CodeLensProvider {
	private readonly verdicts = new Map<string, Verdict>();
	private readonly changed = new vscode.EventEmitter<void>();
	readonly onDidChangeCodeLenses = this.changed.event;

	/** Shows `report` beside the file's Run lens while its text stays `text`. */
	setVerdict(uri: vscode.Uri, report: ExpectationReport, text: string): void {
		this.verdicts.set(uri.toString(), { report, text });
		this.changed.fire();
	}

	/** Whether `uri` has a verdict to show. */
	hasVerdict(uri: vscode.Uri): boolean {
		return this.verdicts.has(uri.toString());
	}

	/** Asks VS Code for the lenses of every open call file again. */
	refresh(): void {
		this.changed.fire();
	}

	provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
		const text = document.getText();
		const parsed = parseInvocation(text, document.fileName);
		const title = parsed.invocation
			? `$(play) ${parsed.invocation.expect ? 'Test' : 'Run'} ${parsed.invocation.kind === 'resource' ? `read ${parsed.invocation.uri}` : parsed.invocation.kind === 'tool' ? parsed.invocation.tool : `prompt ${parsed.invocation.prompt}`} on ${parsed.invocation.server}`
			: '$(play) Run (fix the file first)';
		const range = new vscode.Range(0, 0, 0, 0);
		const lenses = [
			new vscode.CodeLens(range, { title, command: Commands.runInvocationFile, arguments: [document.uri] }),
		];
		const verdict = this.verdicts.get(document.uri.toString());
		if (verdict && verdict.text === text) {
			const { report } = verdict;
			lenses.push(
				new vscode.CodeLens(range, {
					title: report.passed ? '$(pass) passed' : `$(error) failed: ${report.failures.join('; ')}`,
					tooltip: `${report.passed ? 'Every expectation was met' : report.failures.join('\n')}\nClick to run it again`,
					command: Commands.runInvocationFile,
					arguments: [document.uri],
				}),
			);
		}
		return lenses;
	}

	dispose(): void {
		this.changed.dispose();
	}
}

/** Runs a file that expects something and judges what came back; undefined when the person cancelled. */
async function runAndJudge(
	invocation: Invocation & { expect: NonNullable<Invocation['expect']> },
	manager: Manager,
): Promise<{ report: ExpectationReport; outcome: unknown } | undefined> {
	const started = performance.now();
	if (invocation.kind === 'tool') {
		const outcome = (await runInvocation(invocation, false, { via: 'file' })) as CallOutcome | undefined;
		if (!outcome || outcome.cancelled) return undefined;
		const observed = observeResult(outcome.result, performance.now() - started, outcome.error);
		return { report: evaluateExpectations(invocation.expect, observed), outcome };
	}
	let result: unknown;
	let error: string | undefined;
	try {
		result =
			invocation.kind === 'prompt'
				? await manager.getPrompt(invocation.server, invocation.prompt, invocation.arguments, { origin: 'file' })
				: await manager.readResource(invocation.server, invocation.uri, { origin: 'file' });
	} catch (failure) {
		error = errorMessage(failure);
	}
	const observed = observeResult(result, performance.now() - started, error);
	return { report: evaluateExpectations(invocation.expect, observed), outcome: result };
}

/**
 * Runs the file at `uri` (default: the active editor's). Resolves with what the run command returned; for a file
 * with `expect`, with `{ report, outcome }` (the verdict also shows as a lens).
 */
export async function runInvocationFile(
	uri: vscode.Uri | undefined,
	manager?: Manager,
	lens?: InvocationLens,
): Promise<unknown> {
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
	const { invocation } = parsed;
	if (invocation.expect && manager) {
		const judged = await runAndJudge({ ...invocation, expect: invocation.expect }, manager);
		if (!judged) return undefined;
		lens?.setVerdict(uri, judged.report, text);
		if (!judged.report.passed)
			void vscode.window.showWarningMessage(`${label} failed: ${judged.report.failures.join('; ')}`);
		return judged;
	}
	// A file's arguments are not ones the user typed (it may come from a cloned repository): the consent rule asks.
	return runInvocation(invocation, false, { via: 'file' });
}

/** The Run / Test lens on `*.mcpcall.json` and the command it runs. */
export function registerInvocationFiles(manager: Manager): vscode.Disposable {
	const lens = new InvocationLens();
	return vscode.Disposable.from(
		lens,
		vscode.languages.registerCodeLensProvider({ pattern: '**/*.mcpcall.json' }, lens),
		// A call file opened again after its run can show the lenses VS Code cached for it, without the verdict (seen
		// in a reloaded window): ask for them again when an editor of a judged file comes into view.
		vscode.window.onDidChangeVisibleTextEditors((editors) => {
			if (editors.some((editor) => lens.hasVerdict(editor.document.uri))) lens.refresh();
		}),
		vscode.commands.registerCommand(Commands.runInvocationFile, (uri?: vscode.Uri) =>
			runInvocationFile(uri, manager, lens),
		),
	);
}
