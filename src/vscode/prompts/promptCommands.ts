import * as vscode from 'vscode';
import type { Manager } from '../../manager/manager';
import type { CompletionReference, Prompt, ResourceTemplate } from '../../protocol/schema';
import type { ResourceDocuments } from '../resources/resourceDocuments';
import { expandUriTemplate, templateVariables } from '../resources/resourceDocuments';
import type { BlobFiles } from '../resources/blobFiles';
import { renderPrompt, type ResultDocuments } from '../tools/resultDocument';
import { SKIP } from '../tools/toolArgs';
import { Commands } from '../commandIds';
import { commandError, nothingConfigured, type CommandBase, type Target } from '../commandTarget';
import { errorMessage } from '../../common/errors';

/** How long typing pauses before `completion/complete` is asked. */
const COMPLETION_DEBOUNCE_MS = 150;

interface ArgumentItem extends vscode.QuickPickItem {
	skip?: boolean;
	typed?: boolean;
}

export interface ArgumentQuestion {
	title: string;
	name: string;
	description?: string;
	required: boolean;
	step: number;
	total: number;
	/** Suggestions for the text typed so far; absent when the server offers no completions. */
	complete?: (value: string) => Promise<string[]>;
}

/**
 * Asks for one string argument in a quick pick that offers the server's completions as you type; what is typed is
 * always the first row, so Enter takes it. Optional arguments have a Skip row. Resolves `'back'` for the Back button,
 * undefined when cancelled.
 */
export function askArgument(question: ArgumentQuestion): Promise<string | typeof SKIP | 'back' | undefined> {
	return new Promise((resolve) => {
		const pick = vscode.window.createQuickPick<ArgumentItem>();
		const disposables: vscode.Disposable[] = [pick];
		let suggestions: string[] = [];
		let timer: ReturnType<typeof setTimeout> | undefined;
		let generation = 0;
		let settled = false;
		const finish = (result: string | typeof SKIP | 'back' | undefined) => {
			if (settled) return;
			settled = true;
			if (timer) clearTimeout(timer);
			resolve(result);
			for (const d of disposables) d.dispose();
		};
		const render = () => {
			const value = pick.value;
			const items: ArgumentItem[] = [];
			if (value !== '') items.push({ label: value, description: 'as typed', typed: true });
			for (const suggestion of suggestions) {
				if (suggestion !== value) items.push({ label: suggestion, description: 'suggested by the server' });
			}
			if (!question.required && value === '')
				items.push({ label: '$(debug-step-over) Skip', description: 'leave this argument out', skip: true });
			pick.items = items;
		};
		const refresh = () => {
			if (!question.complete) return;
			const mine = ++generation;
			pick.busy = true;
			question.complete(pick.value).then(
				(values) => {
					if (mine !== generation || settled) return;
					suggestions = values.slice(0, 100);
					pick.busy = false;
					render();
				},
				() => {
					if (mine === generation && !settled) pick.busy = false;
				},
			);
		};
		pick.title = `${question.title} (${question.step}/${question.total}): ${question.name}${question.required ? '' : ' (optional)'}`;
		pick.placeholder = [
			question.description,
			question.required ? 'Required.' : 'Optional.',
			question.complete ? 'Suggestions come from the server as you type.' : '',
		]
			.filter(Boolean)
			.join(' ');
		pick.ignoreFocusOut = true;
		pick.buttons = question.step > 1 ? [vscode.QuickInputButtons.Back] : [];
		disposables.push(
			pick.onDidChangeValue(() => {
				render();
				if (timer) clearTimeout(timer);
				timer = setTimeout(refresh, COMPLETION_DEBOUNCE_MS);
			}),
			pick.onDidAccept(() => {
				const [chosen] = pick.activeItems;
				if (chosen?.skip) return finish(SKIP);
				const value = chosen ? chosen.label : pick.value;
				if (value === '' && question.required) return;
				finish(value === '' ? SKIP : value);
			}),
			pick.onDidTriggerButton(() => finish('back')),
			pick.onDidHide(() => finish(undefined)),
		);
		render();
		refresh();
		pick.show();
	});
}

/** Asks a list of string arguments with completions for `ref`; undefined when cancelled. */
async function askArguments(
	manager: Manager,
	server: string,
	title: string,
	ref: CompletionReference,
	args: readonly { name: string; description?: string; required: boolean }[],
): Promise<Record<string, string> | undefined> {
	const answers: Record<string, string> = {};
	let index = 0;
	while (index < args.length) {
		const arg = args[index] as (typeof args)[number];
		const question: ArgumentQuestion = {
			title,
			name: arg.name,
			required: arg.required,
			step: index + 1,
			total: args.length,
		};
		if (arg.description) question.description = arg.description;
		let client: ReturnType<Manager['client']> | undefined;
		try {
			client = manager.client(server);
		} catch {
			client = undefined;
		}
		if (client?.serverCapabilities.completions) {
			const context = { ...answers };
			question.complete = async (value) =>
				(await client.complete(ref, { name: arg.name, value }, { arguments: context })).completion.values;
		}
		const answer = await askArgument(question);
		if (answer === undefined) return undefined;
		if (answer === 'back') {
			index = Math.max(0, index - 1);
			continue;
		}
		if (answer === SKIP) delete answers[arg.name];
		else answers[arg.name] = answer;
		index++;
	}
	return answers;
}

/** What the prompt and template flows need. */
export interface PromptDeps {
	manager: Manager;
	results: ResultDocuments;
	resources: ResourceDocuments;
	blobs: BlobFiles;
	/** Shows a short error naming the server, with Show Output. */
	showError(server: string, message: string): void;
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

/** Read from a resource template: asks each URI variable (with completions), expands the template, opens the resource. */
export async function readTemplate(
	deps: PromptDeps,
	server: string,
	template: ResourceTemplate,
): Promise<vscode.Uri | undefined> {
	const variables = templateVariables(template.uriTemplate).map((name) => ({ name, required: true }));
	const answers = await askArguments(
		deps.manager,
		server,
		`Read ${template.title ?? template.name}`,
		{ type: 'ref/resource', uri: template.uriTemplate },
		variables,
	);
	if (!answers) return undefined;
	// Its tab: the template's name and the values given ("Dynamic Text Resource 5 · everything").
	return deps.resources.open(
		server,
		expandUriTemplate(template.uriTemplate, answers),
		undefined,
		[template.title ?? template.name, ...Object.values(answers)].join(' '),
	);
}

/** What the palette's prompt and resource commands act on. */
export interface DocumentCommandDeps extends CommandBase {
	results: ResultDocuments;
	resources: ResourceDocuments;
	blobs: BlobFiles;
}

/** The prompt and template flows' needs, from the palette commands' (errors name the server, with Show Output). */
export function promptDepsOf(deps: DocumentCommandDeps): PromptDeps {
	return {
		manager: deps.manager,
		results: deps.results,
		resources: deps.resources,
		blobs: deps.blobs,
		showError: (server: string, message: string) => commandError(deps, server, message),
	};
}

/** Registers Get Prompt: from a tree row, from `{ server, prompt, arguments? }` (history, saved invocations), or picked. */
export function registerPromptCommands(deps: DocumentCommandDeps): vscode.Disposable {
	return vscode.commands.registerCommand(Commands.getPrompt, (target: Target) => getPromptCommand(deps, target));
}

async function getPromptCommand(deps: DocumentCommandDeps, target: Target): Promise<vscode.TextEditor | undefined> {
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
