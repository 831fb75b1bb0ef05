import * as vscode from 'vscode';
import { errorMessage } from '../../common/errors';
import { requestFromVsCodeLink } from '../../manager/registry/installLink';
import { splitCommandLine, suggestName, uniqueName } from '../../manager/serverNames';
import { Commands } from '../commandIds';
import { type ServerTarget, writableTargets, writeServers } from '../serverWriter';
import { browseRegistry, installRequest } from './registryGallery';
import type { InstallDeps } from './registryInstall';
import { BACK, inputStep, pickStep, type StepAnswer, type StepPosition } from './wizardSteps';

/** How Add Server names the places it saves to. */
const TARGET_LABELS: Record<ServerTarget['kind'], { label: string; description: string }> = {
	user: { label: 'User settings', description: 'available in every window' },
	workspace: { label: 'Workspace settings', description: 'only this workspace (asks for trust before it starts)' },
	mcpJson: {
		label: '.vscode/mcp.json',
		description: "only this workspace, in VS Code's own file (VS Code's agent runs it too)",
	},
};

type Kind = 'registry' | 'stdio' | 'http' | 'sse';
interface KindItem extends vscode.QuickPickItem {
	id: Kind;
}
interface TargetItem extends vscode.QuickPickItem {
	target: ServerTarget;
}

/** Browse MCP Servers, offered first when the registry install is wired (registryGallery.ts). */
const REGISTRY_KIND: KindItem = {
	label: '$(library) Browse MCP Servers…',
	description: 'install one from the MCP Registry',
	id: 'registry',
};

const KINDS: readonly KindItem[] = [
	{
		label: '$(terminal) Command (stdio)',
		description: 'run a local program, e.g. npx -y @modelcontextprotocol/server-everything',
		id: 'stdio',
	},
	{
		label: '$(globe) URL (HTTP)',
		description: 'connect to a Streamable HTTP server, e.g. http://localhost:3001/mcp',
		id: 'http',
	},
	{ label: '$(globe) URL (legacy SSE)', description: 'an older server with an /sse endpoint', id: 'sse' },
];

/**
 * Where Add Server may save now: the writer's targets (user settings; workspace settings when trusted) and, in a
 * trusted workspace, the first folder's `.vscode/mcp.json` (created when missing), written by the same writer.
 */
function saveTargets(): TargetItem[] {
	const targets = writableTargets();
	const folder = vscode.workspace.workspaceFolders?.[0];
	if (folder && vscode.workspace.isTrusted)
		targets.push({ kind: 'mcpJson', uri: vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json') });
	return targets.map((target) => ({ target, ...TARGET_LABELS[target.kind] }));
}

/** A command line, or VS Code's install link (checked as a link). */
function checkCommand(text: string): string | undefined {
	try {
		if (requestFromVsCodeLink(text)) return undefined;
	} catch (error) {
		return errorMessage(error);
	}
	return splitCommandLine(text).length === 0 ? 'Enter a command' : undefined;
}

function checkUrl(text: string): string | undefined {
	try {
		const parsed = new URL(text);
		return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? undefined : 'Use an http:// or https:// URL';
	} catch {
		return 'Enter a URL like https://example.com/mcp';
	}
}

/** The answers so far; Back keeps them, so a step shows what was typed before. */
interface Answers {
	kind?: KindItem;
	launch?: string;
	name?: string;
	/** The name suggested for `launch`: a name the person did not change follows a changed launch. */
	suggested?: string;
}

/**
 * Add Server: a guided flow for a local command (stdio) or a remote URL (Streamable HTTP, or legacy SSE), then a
 * name and where to save it (user or workspace settings, or `.vscode/mcp.json`; the last step only when there is a
 * choice, and the step count says so from the first step). Every step but the first has Back. Writes through the one
 * writer; the configuration watcher starts the server. `taken` says which names are in use (every source). Resolves
 * with the name, or undefined when closed.
 */
export async function addServer(
	taken: (name: string) => boolean = () => false,
	install?: InstallDeps,
): Promise<string | undefined> {
	const kinds = install ? [REGISTRY_KIND, ...KINDS] : KINDS;
	const targets = saveTargets();
	const totalSteps = targets.length > 1 ? 4 : 3;
	const at = (step: number) => ({ title: 'Add MCP Server', step, totalSteps });
	const answers: Answers = {};
	let step = 1;
	let where: TargetItem | undefined = targets.length === 1 ? targets[0] : undefined;
	while (step <= totalSteps) {
		const answer = await askStep(step, at(step), answers, targets, taken, kinds);
		if (answer === undefined) return undefined;
		if (install && step === 1 && answers.kind?.id === 'registry') return browseRegistry(install);
		// VS Code's install link, pasted as the command: shown in full and written only after a yes (registryGallery.ts).
		const linked = install && step === 2 && answers.kind?.id === 'stdio' && requestFromVsCodeLink(answers.launch ?? '');
		if (install && linked) return installRequest(install, linked);
		if (answer === BACK) {
			step--;
			continue;
		}
		if (step === 4) where = answer as TargetItem;
		step++;
	}
	const name = answers.name?.trim();
	if (!answers.kind || answers.launch === undefined || !name || !where) return undefined;
	const entry: Record<string, unknown> =
		answers.kind.id === 'stdio'
			? (() => {
					const [command, ...args] = splitCommandLine(answers.launch);
					return { type: 'stdio', command, args };
				})()
			: { type: answers.kind.id, url: answers.launch.trim() };
	try {
		// Rejected when trust was revoked while the flow was open.
		await writeServers(where.target, { [name]: entry });
	} catch (error) {
		void vscode.window.showErrorMessage(`Could not save MCP server '${name}': ${errorMessage(error)}`);
		return undefined;
	}
	announce(name, where);
	return name;
}

/** Asks step `step`, keeping the answer in `answers`; resolves with it, BACK, or undefined (closed). */
async function askStep(
	step: number,
	position: StepPosition,
	answers: Answers,
	targets: readonly TargetItem[],
	taken: (name: string) => boolean,
	kinds: readonly KindItem[],
): Promise<StepAnswer<unknown>> {
	switch (step) {
		case 1: {
			const kind = await pickStep(position, kinds, { placeholder: 'How does the server run?', active: answers.kind });
			if (kind && kind !== BACK) {
				if (answers.kind && answers.kind.id !== kind.id) answers.launch = undefined;
				answers.kind = kind;
			}
			return kind;
		}
		case 2: {
			const stdio = answers.kind?.id === 'stdio';
			const sse = answers.kind?.id === 'sse';
			const launch = await inputStep(position, {
				prompt: stdio
					? 'The command and its arguments, as you would type them in a shell (no pipes or variables), or a pasted vscode:mcp/install?{…} link'
					: sse
						? 'The SSE endpoint URL'
						: 'The server URL (the MCP endpoint)',
				placeholder: stdio
					? 'npx -y @modelcontextprotocol/server-everything'
					: sse
						? 'http://localhost:3001/sse'
						: 'http://localhost:3001/mcp',
				value: answers.launch,
				validate: (text) => (stdio ? checkCommand(text) : checkUrl(text)),
			});
			if (typeof launch === 'string') answers.launch = launch;
			return launch;
		}
		case 3: {
			const suggested = uniqueName(suggestName(answers.launch ?? ''), taken);
			// Keep a name the person typed; follow the launch when they kept the suggestion.
			const value = answers.name && answers.name !== answers.suggested ? answers.name : suggested;
			answers.suggested = suggested;
			const name = await inputStep(position, {
				prompt: 'A name for the server (shown in the MCP view and in tool names)',
				value,
				validate: (text) =>
					!text.trim()
						? 'Enter a name'
						: taken(text.trim())
							? `A server named '${text.trim()}' exists already`
							: undefined,
			});
			if (typeof name === 'string') answers.name = name;
			return name;
		}
		default:
			return pickStep(position, targets, { placeholder: 'Save the server in' });
	}
}

/** "Added …" with Open, which shows the new entry in its file (Show Configuration's way). */
function announce(name: string, where: TargetItem): void {
	const restricted =
		!vscode.workspace.isTrusted && vscode.workspace.workspaceFolders?.length
			? ' (workspace settings are not offered in Restricted Mode)'
			: '';
	void vscode.window
		.showInformationMessage(`Added MCP server '${name}' to ${where.label}${restricted}.`, 'Open')
		.then((choice) => {
			if (choice === 'Open') void vscode.commands.executeCommand(Commands.showConfiguration, name);
		});
}
