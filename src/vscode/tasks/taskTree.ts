import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { Tool } from '../../protocol/schema';
import { isFinished, type TaskEntry } from './taskList';
import { statusWords, taskDescription } from './taskText';

/** Context values of task rows: the menus (package.json) offer Cancel on live ones, Open Result and Remove on finished ones. */
export const TASK_CONTEXT = { live: 'mcpTask.live', finished: 'mcpTask.finished', group: 'mcpTasks' } as const;

/** What a tool's `execution.taskSupport` means for a person: shown next to its name in the tree. */
export function taskBadge(tool: Tool): string | undefined {
	const support = tool.execution?.taskSupport;
	return support === 'required' ? 'runs as a task' : support === 'optional' ? 'can run as a task' : undefined;
}

const statusIcons: Record<TaskEntry['status'], vscode.ThemeIcon> = {
	working: new vscode.ThemeIcon('loading~spin'),
	input_required: new vscode.ThemeIcon('question', new vscode.ThemeColor('problemsWarningIcon.foreground')),
	completed: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
	failed: new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground')),
	cancelled: new vscode.ThemeIcon('circle-slash'),
	unknown: new vscode.ThemeIcon('history'),
};

/** The "Tasks" row under a server: how many, how many still running. */
export function tasksGroupItem(server: string, entries: readonly TaskEntry[]): vscode.TreeItem {
	const item = new vscode.TreeItem('Tasks', vscode.TreeItemCollapsibleState.Expanded);
	item.id = `server/${server}/tasks`;
	const live = entries.filter((entry) => !isFinished(entry)).length;
	item.description = live > 0 ? `${live} running · ${entries.length}` : String(entries.length);
	// No icon, as the other groups: the task rows below then need no twistie's space (room in a narrow side bar).
	item.contextValue = TASK_CONTEXT.group;
	return item;
}

/** One task row: tool, status, status message, progress and elapsed time; a click on a finished one opens its result. */
export function taskItem(entry: TaskEntry, now = Date.now()): vscode.TreeItem {
	const item = new vscode.TreeItem(entry.tool, vscode.TreeItemCollapsibleState.None);
	item.id = `server/${entry.server}/tasks/${entry.taskId}`;
	const finished = isFinished(entry);
	item.description = taskDescription(entry, now);
	item.iconPath =
		entry.error !== undefined && entry.status !== 'cancelled' ? statusIcons.failed : statusIcons[entry.status];
	item.contextValue = finished ? TASK_CONTEXT.finished : TASK_CONTEXT.live;
	const node = { kind: 'task', server: entry.server, taskId: entry.taskId };
	if (finished && entry.status !== 'cancelled')
		item.command = { command: Commands.openTaskResult, title: 'Open Task Result', arguments: [node] };
	const md = new vscode.MarkdownString('', true);
	md.appendMarkdown(`**${entry.tool}** on ${entry.server} — ${statusWords[entry.status]}\n\n`);
	md.appendText(
		`Task ${entry.taskId}\nStarted ${new Date(entry.startedAt).toLocaleString()} from ${entry.origin}${entry.expiresAt !== undefined ? `\nKept by the server until ${new Date(entry.expiresAt).toLocaleString()}` : ''}`,
	);
	if (entry.statusMessage) md.appendMarkdown('\n\n').appendText(entry.statusMessage);
	if (entry.error) md.appendMarkdown('\n\n**Error**\n\n').appendText(entry.error);
	md.appendMarkdown('\n\nArguments:\n\n').appendCodeblock(JSON.stringify(entry.arguments, null, 2), 'json');
	item.tooltip = md;
	return item;
}
