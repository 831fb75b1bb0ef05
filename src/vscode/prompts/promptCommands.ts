import * as vscode from 'vscode';
import type { Prompt } from '../../protocol/schema';
import { askArguments } from '../shared/argumentQuestions';
import type { Manager } from '../../manager/manager';
import type { BlobFiles } from '../shared/blobFiles';
import { renderPrompt, type ResultDocuments } from '../shared/resultDocument';
import { Commands } from '../commandIds';
import { commandError, nothingConfigured, type CommandBase, type Target } from '../commandTarget';
import { errorMessage } from '../../common/errors';

/** What the prompt flow needs. */
export interface PromptDeps {
	manager: Manager;
	results: ResultDocuments;
	blobs: BlobFiles;
	/** Shows a short error naming the server, with Show Output. */
	showError(server: string, message: string): void;
}

/** What the palette's Get Prompt acts on. */
export interface PromptCommandDeps extends CommandBase {
	results: ResultDocuments;
	blobs: BlobFiles;
}

/** The prompt flow's needs, from the palette command's (errors name the server, with Show Output). */
function promptDepsOf(deps: PromptCommandDeps): PromptDeps {
	return {
		manager: deps.manager,
		results: deps.results,
		blobs: deps.blobs,
		showError: (server: string, message: string) => commandError(deps, server, message),
	};
}

/**
 * Get Prompt: asks the prompt's arguments (with completions), runs `prompts/get` and opens the messages as
 * Markdown. Cancelling a question stops without a message; a server error is shown naming the server.
 */
export async function getPrompt(
	deps: PromptDeps,
	server: string,
	prompt: Prompt,
	given?: Record<string, string>,
): Promise<vscode.TextEditor | undefined> {
	const args = (prompt.arguments ?? []).map((a) => ({
		name: a.name,
		required: a.required === true,
		...(a.description ? { description: a.description } : {}),
	}));
	const title = `Get Prompt ${prompt.title ?? prompt.name}`;
	// Arguments given (a saved invocation, the history) are sent as they are; otherwise the person is asked.
	const answers =
		given ?? (await askArguments(deps.manager, server, title, { type: 'ref/prompt', name: prompt.name }, args));
	if (!answers) return undefined;
	try {
		const result = await vscode.window.withProgress(
			{ location: vscode.ProgressLocation.Window, title: `MCP: getting prompt ${prompt.name} from ${server}` },
			() => deps.manager.getPrompt(server, prompt.name, answers, { origin: 'palette' }),
		);
		return await deps.results.show(
			server,
			`prompt ${prompt.name}`,
			await renderPrompt(server, prompt.name, answers, result, deps.blobs),
		);
	} catch (error) {
		deps.showError(server, `Prompt ${prompt.name} failed: ${errorMessage(error)}`);
		return undefined;
	}
}

/** Registers Get Prompt: from a tree row, from `{ server, prompt, arguments? }` (history, saved invocations), or picked. */
export function registerPromptCommands(deps: PromptCommandDeps): vscode.Disposable {
	return vscode.commands.registerCommand(Commands.getPrompt, (target: Target) => getPromptCommand(deps, target));
}

async function getPromptCommand(deps: PromptCommandDeps, target: Target): Promise<vscode.TextEditor | undefined> {
	let chosen: { server: string; prompt: Prompt } | undefined;
	let given: Record<string, string> | undefined;
	if (target && typeof target === 'object' && 'kind' in target && target.kind === 'prompt') {
		chosen = { server: target.server, prompt: target.prompt };
	} else if (
		target &&
		typeof target === 'object' &&
		!('kind' in target) &&
		target.server !== undefined &&
		target.prompt !== undefined
	) {
		const prompt = deps.manager.get(target.server)?.prompts.find((p) => p.name === target.prompt);
		if (!prompt) {
			commandError(deps, target.server, `has no prompt named '${target.prompt}'`);
			return undefined;
		}
		chosen = { server: target.server, prompt };
		if (target.arguments)
			given = Object.fromEntries(
				Object.entries(target.arguments).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
			);
	} else {
		const items = deps.manager.servers().flatMap((view) =>
			view.prompts.map((prompt) => ({
				label: prompt.name,
				description: [view.name, prompt.title].filter(Boolean).join(' · '),
				detail: prompt.description,
				server: view.name,
				prompt,
			})),
		);
		if (items.length === 0) {
			if (deps.manager.servers().length === 0) await nothingConfigured(deps);
			else void vscode.window.showInformationMessage('No running MCP server offers prompts.');
			return undefined;
		}
		chosen = await vscode.window.showQuickPick(items, {
			title: 'Get Prompt',
			matchOnDescription: true,
			matchOnDetail: true,
		});
	}
	return chosen ? getPrompt(promptDepsOf(deps), chosen.server, chosen.prompt, given) : undefined;
}
