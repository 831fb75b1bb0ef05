/**
 * `@mcp`'s consent question inside the conversation, next to the message that caused the call. VS Code's stable chat
 * API has no confirmation part (`ChatResponseStream.confirmation` and the questions part are proposed API, which a
 * published extension cannot use), but it has command buttons (`ChatResponseStream.button`), which work while the
 * answer is still streaming. So the card is Markdown (server, tool, arguments) and one button per choice; the same
 * question stays open in the quick pick at the top of the window (for keyboard users and the tests' own prompt
 * answers), and whichever is answered first wins (tools/consent.ts `alsoAsk`).
 */
import * as vscode from 'vscode';
import type { ConsentChoice, ConsentQuestion } from '../tools/consent';

/** The command the card's buttons run (internal: not in the palette). */
export const ANSWER_COMMAND = 'mcpSwitchboard.chat.answerConsent';

/** Questions waiting for a button, by id. */
export class ChatConsentAnswers implements vscode.Disposable {
	private readonly waiting = new Map<number, (choice: ConsentChoice) => void>();
	private next = 0;
	private readonly command = vscode.commands.registerCommand(ANSWER_COMMAND, (id: unknown, choice: unknown) =>
		this.answer(id, choice),
	);

	/** Answers question `id` (a button's arguments); false when it was already answered or withdrawn. */
	answer(id: unknown, choice: unknown): boolean {
		const resolve = typeof id === 'number' ? this.waiting.get(id) : undefined;
		if (!resolve || !['once', 'session', 'always', 'deny'].includes(choice as string)) return false;
		this.waiting.delete(id as number);
		resolve(choice as ConsentChoice);
		return true;
	}

	/** Writes the question into the conversation with a button per choice; resolves with the choice, or undefined when withdrawn. */
	ask(
		stream: vscode.ChatResponseStream,
		question: ConsentQuestion,
		signal: AbortSignal,
	): Promise<ConsentChoice | undefined> {
		const id = ++this.next;
		const args = JSON.stringify(question.arguments, null, 2) ?? '{}';
		const fence = '`'.repeat(Math.max(3, ...[...args.matchAll(/`+/g)].map((m) => m[0].length + 1)));
		// Escaped by hand: appendText would turn every space into &nbsp;, and the title then breaks inside words.
		const title = question.title.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&');
		stream.markdown(new vscode.MarkdownString(`\n\n**${title}**\n\n${fence}json\n${args}\n${fence}\n\n`));
		for (const { label, choice } of question.choices)
			stream.button({ command: ANSWER_COMMAND, title: label, arguments: [id, choice] });
		return new Promise((resolve) => {
			if (signal.aborted) return resolve(undefined);
			this.waiting.set(id, (choice) => {
				stream.markdown(`\n\n_${choice === 'deny' ? 'Declined' : 'Allowed'} here._\n\n`);
				resolve(choice);
			});
			signal.addEventListener('abort', () => {
				if (this.waiting.delete(id)) resolve(undefined);
			});
		});
	}

	dispose(): void {
		this.command.dispose();
		this.waiting.clear();
	}
}
