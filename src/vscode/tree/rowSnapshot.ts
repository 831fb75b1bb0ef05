/**
 * The servers' rows a window showed first, kept for the next window (#28). A window whose sources read as the last
 * one's did (the same fingerprint: every setting value and file text, configLayers.ts; the same trust, `autoStart`
 * and extension version) shows those rows as soon as its configuration is read, before the servers in it are parsed,
 * resolved and given connections; the rows the Manager then makes replace them tens of milliseconds later. Measured
 * in a real VS Code with fifty servers, parsing, resolving and building the rows was most of what such a window paid
 * over an empty one before it showed anything.
 *
 * Each window keeps the rows it made itself at its first apply, when they differ from what was kept. What can be
 * stale for those milliseconds: a listing another window kept since, a tool switched off, a trust decision; each is
 * corrected when the real rows replace these. Any edit to the sources misses, and that window builds its rows as
 * before.
 */
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { replaceFile } from '../../common/replaceFile';
import { sha256Hex } from '../../common/sha256';
import type { ServerView } from '../../manager/types';

/** The file's format: `{ format: 1, key, rows }`. */
const FORMAT = 1;

/** A server's row, as much of its TreeItem as the Servers view shows before the tooltip is asked for. */
export interface KeptRow {
	server: string;
	description?: string;
	icon?: { id: string; color?: string };
	contextValue?: string;
	collapsed: boolean;
	command?: { command: string; title: string; arguments?: string[] };
	/** What the log says of the window's first rows: the server ran, its tools came from a kept listing. */
	running?: true;
	listed?: true;
}

export interface KeptRows {
	key: string;
	rows: KeptRow[];
}

/** What the kept rows are valid for: the sources' fingerprint and what else decides a row before it is hovered. */
export function rowsKey(version: string, fingerprint: string): string {
	const autoStart = vscode.workspace.getConfiguration('mcpSwitchboard').get<unknown>('autoStart');
	return sha256Hex(JSON.stringify([version, fingerprint, vscode.workspace.isTrusted, autoStart ?? null]));
}

export function keptRow(view: ServerView, item: vscode.TreeItem): KeptRow {
	const row: KeptRow = {
		server: view.name,
		collapsed: item.collapsibleState !== vscode.TreeItemCollapsibleState.Expanded,
	};
	if (view.state.kind === 'running') row.running = true;
	if (view.listedAt !== undefined) row.listed = true;
	if (typeof item.description === 'string') row.description = item.description;
	if (item.iconPath instanceof vscode.ThemeIcon) {
		row.icon = { id: item.iconPath.id };
		if (item.iconPath.color) row.icon.color = item.iconPath.color.id;
	}
	if (item.contextValue !== undefined) row.contextValue = item.contextValue;
	if (item.command) {
		const args = item.command.arguments?.filter((arg): arg is string => typeof arg === 'string');
		row.command = { command: item.command.command, title: item.command.title, ...(args ? { arguments: args } : {}) };
	}
	return row;
}

export function treeItemOf(row: KeptRow): vscode.TreeItem {
	const item = new vscode.TreeItem(
		row.server,
		row.collapsed ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded,
	);
	item.id = `server/${row.server}`;
	if (row.description !== undefined) item.description = row.description;
	if (row.icon)
		item.iconPath = new vscode.ThemeIcon(
			row.icon.id,
			row.icon.color ? new vscode.ThemeColor(row.icon.color) : undefined,
		);
	if (row.contextValue !== undefined) item.contextValue = row.contextValue;
	if (row.command) item.command = row.command;
	return item;
}

const isString = (value: unknown): value is string => typeof value === 'string';

function isRow(value: unknown): value is KeptRow {
	const row = value as KeptRow;
	return (
		typeof value === 'object' &&
		value !== null &&
		isString(row.server) &&
		typeof row.collapsed === 'boolean' &&
		(row.running === undefined || row.running === true) &&
		(row.listed === undefined || row.listed === true) &&
		(row.description === undefined || isString(row.description)) &&
		(row.contextValue === undefined || isString(row.contextValue)) &&
		(row.icon === undefined || (isString(row.icon.id) && (row.icon.color === undefined || isString(row.icon.color)))) &&
		(row.command === undefined ||
			(isString(row.command.command) &&
				isString(row.command.title) &&
				(row.command.arguments === undefined ||
					(Array.isArray(row.command.arguments) && row.command.arguments.every(isString)))))
	);
}

/** The kept rows in `text`, or undefined for anything else (another format, a damaged file). */
export function keptRowsIn(text: string): KeptRows | undefined {
	try {
		const parsed = JSON.parse(text) as { format?: unknown; key?: unknown; rows?: unknown };
		if (parsed?.format !== FORMAT || !isString(parsed.key) || !Array.isArray(parsed.rows)) return undefined;
		if (!parsed.rows.every(isRow)) return undefined;
		return { key: parsed.key, rows: parsed.rows };
	} catch {
		return undefined;
	}
}

/** One file per workspace (rows depend on its files and trust). */
export class RowSnapshot {
	private kept: Promise<KeptRows | undefined> | undefined;

	constructor(
		private readonly file: string,
		private readonly onError: (message: string) => void,
	) {}

	/** What the last window kept (read once). */
	load(): Promise<KeptRows | undefined> {
		this.kept ??= readFile(this.file, 'utf8').then(keptRowsIn, () => undefined);
		return this.kept;
	}

	/** Keeps `rows` under `key`, unless that is what is kept. */
	async keep(key: string, rows: KeptRow[]): Promise<void> {
		const kept = await this.load();
		const text = JSON.stringify({ format: FORMAT, key, rows });
		if (kept && JSON.stringify({ format: FORMAT, key: kept.key, rows: kept.rows }) === text) return;
		this.kept = Promise.resolve({ key, rows });
		try {
			await replaceFile(this.file, text);
		} catch (error) {
			this.onError(`Keeping the Servers view's rows for the next window failed: ${String(error)}`);
		}
	}
}
