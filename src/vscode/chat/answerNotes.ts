// What `@mcp` writes under the model's answer: a note per result that was capped for the model, with a link that
// opens it whole, and the one-line ledger, with a link to its table by server and kind. Links in Markdown, never
// button parts: VS Code 1.139 folds everything above the last non-Markdown part of a response into "Completed N
// steps", so a button under the answer would fold the answer away. It renders no <details> in chat either, so the
// ledger's table opens as a document of its own instead of folding under the answer.
import * as vscode from 'vscode';
import { ledgerSummary, ledgerTable, type LedgerRow } from '../../manager/context/ledger';
import { charsLabel, type StoredResult } from '../../manager/context/resultStore';
import type { NamedTool } from '../../manager/manager';

/** The scheme of the read-only documents that show an answer's ledger table. */
const LEDGER_SCHEME = 'switchboard-context';

/** Markdown whose links may run `command` (only that command). */
function trusted(text: string, command: string): vscode.MarkdownString {
	const markdown = new vscode.MarkdownString(text);
	markdown.isTrusted = { enabledCommands: [command] };
	return markdown;
}

/** A Markdown link that runs `command` with `args` (shown in a MarkdownString from trusted()). */
function commandLink(title: string, command: string, args: unknown[], tooltip: string): string {
	return `[${title}](command:${command}?${encodeURIComponent(JSON.stringify(args))} "${tooltip}")`;
}

/** The note under an answer on a result that was capped for the model, with Open Full Result. */
export function cappedResultNote(named: NamedTool, stored: StoredResult, openCommand: string): vscode.MarkdownString {
	const link = commandLink('Open Full Result', openCommand, [stored.id], 'Open the whole result in an editor');
	return trusted(
		`\n\n_${named.server} › ${named.tool.name} returned about ${stored.tokens.toLocaleString('en-US')} tokens ` +
			`(${charsLabel(stored.text.length)}): the model got the first part and can read on with \`read_result\`._ ${link}\n\n`,
		openCommand,
	);
}

/** The ledger under an answer: the sum and each server's total on one line, and a link to the table. */
export function ledgerLine(rows: readonly LedgerRow[], showCommand: string): vscode.MarkdownString {
	const link = commandLink('By kind', showCommand, [rows], 'The estimated tokens by server and kind');
	return trusted(`\n\n_${ledgerSummary(rows)}_ · ${link}\n`, showCommand);
}

/** True for ledger rows as ledgerLine's link passes them (anything else may come from a hand-made command link). */
function isLedgerRows(value: unknown): value is LedgerRow[] {
	return (
		Array.isArray(value) &&
		value.length > 0 &&
		value.every(
			(row: Partial<Record<string, unknown>>) =>
				typeof row === 'object' &&
				row !== null &&
				typeof row.server === 'string' &&
				['definitions', 'instructions', 'skills', 'results', 'total'].every((k) => typeof row[k] === 'number'),
		)
	);
}

/** The command that opens an answer's ledger table as a Markdown preview, and the documents it shows. */
export function registerLedgerTables(command: string): vscode.Disposable {
	const provider = vscode.workspace.registerTextDocumentContentProvider(LEDGER_SCHEME, {
		provideTextDocumentContent: (uri) => {
			const rows: unknown = JSON.parse(uri.query);
			return isLedgerRows(rows)
				? `# MCP context of an @mcp answer\n\nEstimated tokens by server and kind.\n\n${ledgerTable(rows)}\n`
				: 'This table could not be read.';
		},
	});
	const open = vscode.commands.registerCommand(command, async (rows?: unknown) => {
		if (!isLedgerRows(rows)) return undefined;
		const uri = vscode.Uri.from({ scheme: LEDGER_SCHEME, path: '/MCP context.md', query: JSON.stringify(rows) });
		await vscode.commands.executeCommand('markdown.showPreview', uri);
		return uri;
	});
	return vscode.Disposable.from(provider, open);
}
