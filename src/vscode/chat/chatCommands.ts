/**
 * The `@mcp` slash commands that act exactly, without the model choosing: `/servers` (status with Start and Restart
 * buttons), `/call server.tool {json}` (runs that tool; without arguments the palette's schema form asks), `/prompt
 * server.prompt a=b` (the prompt's messages go into the conversation and the model answers them) and `/read uri`
 * (the resource is attached to the request the model answers; `/read` alone, or with a word that is not a listed
 * URI, picks it from the Servers view's resources).
 */
import * as vscode from 'vscode';
import { describeState, type Manager } from '../../manager/manager';
import type { CallToolResult, GetPromptResult } from '../../protocol/schema';
import { Commands } from '../commandIds';
import type { CallOutcome } from '../tools/commands';
import { resourceParts, toolResultText } from './chatMapping';
import { modelPart } from './chatReferences';
import { resourceUri } from '../shared/resourceUris';
import { plural } from '../../common/text';
import { errorMessage } from '../../common/errors';

/** What a command handler decided: the request is answered, or the model answers these messages (with the tools). */
export type CommandOutcome = { done: vscode.ChatResult } | { messages: vscode.LanguageModelChatMessage[] };

/** The slash commands handled here (package.json `chatParticipants[0].commands`). */
export const EXACT_COMMANDS = new Set(['servers', 'call', 'prompt', 'read']);

/** Splits `server.name` (or `mcp__server__tool`) using the configured server names; the longest server name wins. */
function splitTarget(manager: Manager, target: string): { server: string; name: string } | undefined {
	const qualified = manager.findTool(target);
	if (qualified) return { server: qualified.server, name: qualified.tool.name };
	const servers = manager
		.servers()
		.map((server) => server.name)
		.sort((a, b) => b.length - a.length);
	const server = servers.find((name) => target.startsWith(`${name}.`));
	return server ? { server, name: target.slice(server.length + 1) } : undefined;
}

/** The first word and the rest of a prompt. */
function firstWord(prompt: string): [string, string] {
	const trimmed = prompt.trim();
	const space = trimmed.search(/\s/);
	return space < 0 ? [trimmed, ''] : [trimmed.slice(0, space), trimmed.slice(space + 1).trim()];
}

/** A tool result for people: text as Markdown, images as their type and size, structured content as JSON, links. */
function resultMarkdown(result: CallToolResult): string {
	const parts: string[] = [];
	for (const block of result.content ?? []) {
		const b = block as {
			type: string;
			text?: string;
			mimeType?: string;
			data?: string;
			uri?: string;
			name?: string;
			resource?: { uri?: string; text?: string };
		};
		if (b.type === 'text') parts.push(String(b.text));
		else if (b.type === 'image' || b.type === 'audio')
			parts.push(
				`_[${b.type} ${String(b.mimeType)}, ${Math.round(((b.data?.length ?? 0) * 3) / 4)} bytes: open it in the result document]_`,
			);
		else if (b.type === 'resource_link') parts.push(`[${String(b.name ?? b.uri)}](${String(b.uri)})`);
		else if (b.type === 'resource')
			parts.push(
				`_Resource ${String(b.resource?.uri)}_${typeof b.resource?.text === 'string' ? `\n\n\`\`\`\n${b.resource.text}\n\`\`\`` : ''}`,
			);
	}
	if (result.structuredContent !== undefined)
		parts.push(`\`\`\`json\n${JSON.stringify(result.structuredContent, null, 2)}\n\`\`\``);
	return parts.join('\n\n') || '_(the tool returned no content)_';
}

function promptMessages(result: GetPromptResult): vscode.LanguageModelChatMessage[] {
	return result.messages.map((message) => {
		const content = message.content as { type: string; text?: string; resource?: { uri?: string; text?: string } };
		const text =
			content.type === 'text'
				? String(content.text)
				: content.type === 'resource' && typeof content.resource?.text === 'string'
					? `[resource ${String(content.resource.uri)}]\n${content.resource.text}`
					: `[${content.type} content]`;
		return message.role === 'assistant'
			? vscode.LanguageModelChatMessage.Assistant(text)
			: vscode.LanguageModelChatMessage.User(text);
	});
}

/** A listed resource as a quick pick row. */
interface ResourceItem extends vscode.QuickPickItem {
	server: string;
	uri: string;
}

/**
 * The resource `/read` attaches: the listed resource with exactly this URI; a URI no list holds from the first running
 * server with templates (it may come from one); otherwise a pick among the resources of the Servers view, filtered by
 * what was typed (the completion of the URI from the tree). Undefined when nothing is picked or nothing is listed.
 */
async function resourceTarget(
	manager: Manager,
	typed: string,
	token: vscode.CancellationToken,
): Promise<{ server: string; uri: string } | undefined> {
	const running = manager.servers().filter((server) => server.state.kind === 'running');
	const items: ResourceItem[] = running.flatMap((server) =>
		server.resources.map((resource) => ({
			server: server.name,
			uri: resource.uri,
			label: resource.title ?? resource.name,
			description: resource.uri,
			detail: `${server.name}${resource.mimeType ? ` · ${resource.mimeType}` : ''}`,
		})),
	);
	if (typed) {
		const exact = items.find((item) => item.uri === typed);
		if (exact) return exact;
		const templated = running.find((server) => server.resourceTemplates.length > 0);
		if (/^[a-z][\w+.-]*:/i.test(typed) && templated) return { server: templated.name, uri: typed };
	}
	if (items.length === 0) return undefined;
	const pick = vscode.window.createQuickPick<ResourceItem>();
	pick.title = '@mcp /read';
	pick.placeholder = 'The resource to attach (from the Servers view; type to filter by name or URI)';
	pick.matchOnDescription = true;
	pick.matchOnDetail = true;
	pick.items = items;
	pick.value = typed;
	try {
		return await new Promise<ResourceItem | undefined>((resolve) => {
			pick.onDidAccept(() => resolve(pick.selectedItems[0]));
			pick.onDidHide(() => resolve(undefined));
			token.onCancellationRequested(() => resolve(undefined));
			pick.show();
		});
	} finally {
		pick.dispose();
	}
}

/** Runs one of {@link EXACT_COMMANDS}. Never throws: a failure is the answer, naming the server. */
export async function runExactCommand(
	manager: Manager,
	request: vscode.ChatRequest,
	stream: vscode.ChatResponseStream,
	token: vscode.CancellationToken,
): Promise<CommandOutcome> {
	const fail = (message: string): CommandOutcome => {
		stream.markdown(message);
		return { done: {} };
	};
	try {
		switch (request.command) {
			case 'servers': {
				const servers = manager.servers();
				if (servers.length === 0) {
					stream.markdown('No MCP server is configured.');
					stream.button({ command: Commands.addServer, title: 'Add Server' });
					return { done: {} };
				}
				for (const server of servers) {
					const running = server.state.kind === 'running';
					stream.markdown(
						`**${server.name}**: ${describeState(server.state)}${running ? ` · ${plural(server.tools.length, 'tool')}, ${plural(server.prompts.length, 'prompt')}, ${plural(server.resources.length, 'resource')}` : ''}\n\n`,
					);
					stream.button(
						running
							? { command: Commands.restartServer, title: `Restart ${server.name}`, arguments: [server.name] }
							: { command: Commands.startServer, title: `Start ${server.name}`, arguments: [server.name] },
					);
				}
				return { done: {} };
			}
			case 'call': {
				const [target, json] = firstWord(request.prompt);
				const split = target ? splitTarget(manager, target) : undefined;
				if (!split)
					return fail(
						'Usage: `/call server.tool {"argument": "value"}` (without arguments, a form asks for them). `/tools` lists the tools.',
					);
				let args: Record<string, unknown> | undefined;
				if (json) {
					try {
						const parsed: unknown = JSON.parse(json);
						if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
							return fail('The arguments must be a JSON object, e.g. `{"message": "hi"}`.');
						args = parsed as Record<string, unknown>;
					} catch (error) {
						return fail(`The arguments are not valid JSON: ${errorMessage(error)}`);
					}
				}
				stream.progress(`Calling ${split.server} › ${split.name}…`);
				// The palette's Call Tool: the same form, consent rule, progress and result document.
				const outcome = await vscode.commands.executeCommand<CallOutcome | undefined>(Commands.callTool, {
					server: split.server,
					tool: split.name,
					arguments: args,
				});
				if (!outcome || outcome.cancelled) return fail(`_${split.server} › ${split.name} was not run._`);
				if (outcome.error !== undefined) return fail(`**${split.server} › ${split.name} failed:** ${outcome.error}`);
				if (!outcome.result) return fail(`_${split.server} › ${split.name} returned nothing._`);
				stream.markdown(
					`**${split.server} › ${split.name}**${outcome.result.isError ? ' (the tool reported an error)' : ''}\n\n${resultMarkdown(outcome.result)}`,
				);
				return {
					done: {
						metadata: { call: { server: split.server, tool: split.name, text: toolResultText(outcome.result) } },
					},
				};
			}
			case 'prompt': {
				const [target, rest] = firstWord(request.prompt);
				const split = target ? splitTarget(manager, target) : undefined;
				if (!split) return fail('Usage: `/prompt server.prompt name=value …`.');
				const args: Record<string, string> = {};
				for (const pair of rest.match(/(\S+?)=("[^"]*"|\S*)/g) ?? []) {
					const [key, ...value] = pair.split('=');
					args[key!] = value.join('=').replace(/^"(.*)"$/, '$1');
				}
				const result = await manager.client(split.server).getPrompt(split.name, args);
				stream.progress(`${split.server} › ${split.name}: ${plural(result.messages.length, 'message')}`);
				return { messages: promptMessages(result) };
			}
			case 'read': {
				const [typed, question] = firstWord(request.prompt);
				const target = await resourceTarget(manager, typed, token);
				if (!target) {
					return fail(
						typed
							? `No running server lists a resource matching \`${typed}\`. \`/read\` alone offers the resources of the Servers view.`
							: 'No resource picked. Usage: `/read <resource uri> [question]`; `/read` alone offers the resources of the Servers view.',
					);
				}
				const result = await manager.readResource(target.server, target.uri, { origin: 'chat' });
				stream.reference(resourceUri(target.server, target.uri));
				const ask = question || 'Summarise this resource.';
				return {
					messages: [
						vscode.LanguageModelChatMessage.User([
							...resourceParts(result).map(modelPart),
							new vscode.LanguageModelTextPart(ask),
						]),
					],
				};
			}
		}
		return fail('Unknown command.');
	} catch (error) {
		if (token.isCancellationRequested) return { done: {} };
		return fail(`**Failed:** ${errorMessage(error)}`);
	}
}
