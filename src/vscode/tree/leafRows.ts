/**
 * The rows of the Servers tree that depend on their node alone (no Manager, no settings): a resource template, a
 * prompt, the trust row of a workspace server; and the one-line text every row's description uses.
 */
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { TreeNode } from '../shared/treeNodes';

/** The row of one kind. */
export type NodeOf<K extends TreeNode['kind']> = Extract<TreeNode, { kind: K }>;

/** The first line of `text`, cut to `max` characters with an ellipsis; '' for none. */
export function firstLine(text: string | undefined, max = 80): string {
	if (!text) {
		return '';
	}
	const line = text.split('\n', 1)[0]?.trim() ?? '';
	return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * The row under a workspace server that waits for trust: short ("Needs trust", "Not allowed to run"), the way forward
 * as its description, the whole explanation as its tooltip; a click or its inline ▷ is the user's Start, which asks.
 */
export function trustRow(server: string, reason: string, trust: 'ask' | 'refused'): vscode.TreeItem {
	const item = new vscode.TreeItem(
		trust === 'ask' ? 'Needs trust' : 'Not allowed to run',
		vscode.TreeItemCollapsibleState.None,
	);
	item.id = `server/${server}/message`;
	item.description = trust === 'ask' ? 'Start to review what it runs' : 'Start to be asked again';
	item.iconPath = new vscode.ThemeIcon('shield', new vscode.ThemeColor('problemsWarningIcon.foreground'));
	item.tooltip = reason;
	item.contextValue = 'mcpMessage.needsTrust';
	item.command = {
		command: Commands.startServer,
		title: 'Start (asks whether to allow it)',
		arguments: [server],
	};
	return item;
}

/** A resource template's row; a click asks for its variables and reads the resource. */
export function templateItem(element: NodeOf<'template'>): vscode.TreeItem {
	const { template } = element;
	const item = new vscode.TreeItem(template.title ?? template.name, vscode.TreeItemCollapsibleState.None);
	item.id = `server/${element.server}/resourceTemplates/${template.uriTemplate}`;
	item.description = template.uriTemplate;
	item.iconPath = new vscode.ThemeIcon('symbol-variable');
	item.contextValue = 'mcpResourceTemplate';
	item.command = { command: Commands.readResource, title: 'Read Resource', arguments: [element] };
	return item;
}

/** A prompt's row, with its arguments (optional ones marked `?`); a click gets the prompt. */
export function promptItem(element: NodeOf<'prompt'>): vscode.TreeItem {
	const { prompt } = element;
	const item = new vscode.TreeItem(prompt.title ?? prompt.name, vscode.TreeItemCollapsibleState.None);
	item.id = `server/${element.server}/prompts/${prompt.name}`;
	const args = prompt.arguments ?? [];
	item.description = [
		args.length > 0 ? `(${args.map((a) => (a.required ? a.name : `${a.name}?`)).join(', ')})` : '',
		firstLine(prompt.description, 60),
	]
		.filter(Boolean)
		.join(' ');
	item.iconPath = new vscode.ThemeIcon('comment');
	item.contextValue = 'mcpPrompt';
	item.command = { command: Commands.getPrompt, title: 'Get Prompt', arguments: [element] };
	return item;
}
