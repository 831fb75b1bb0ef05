import * as vscode from 'vscode';
import type { Manager } from '../../manager/manager';
import type { ToolTask } from '../../protocol/client';
import type { CallToolResult, Progress } from '../../protocol/schema';
import type { Task, TaskStatus } from '../../protocol/tasks/task';
import { isFinished } from './taskText';
import { errorMessage } from '../../common/errors';

export { isFinished };

/** The workspaceState key of the task list (ids and servers; results stay on the server until they expire). */
export const TASKS_STATE_KEY = 'mcpSwitchboard.tasks';
/** The most tasks kept in the list; the oldest finished ones go first. */
const MAX_KEPT = 50;

/** One tool task a person started in this workspace (from the tree, the palette or @mcp). */
export interface TaskEntry {
	readonly server: string;
	readonly taskId: string;
	readonly tool: string;
	readonly arguments: Record<string, unknown>;
	/** When it was started (epoch ms). */
	readonly startedAt: number;
	/** When the server may delete it (epoch ms: creation + ttl); undefined: no TTL given. */
	expiresAt?: number;
	/** `unknown` after a window reload, until the server was asked again. */
	status: TaskStatus | 'unknown';
	statusMessage?: string;
	progress?: Progress;
	/** Why it ended badly, or why it cannot be followed (lost, expired, server gone), naming the server. */
	error?: string;
	/** When it reached its end (epoch ms). */
	finishedAt?: number;
	/** Held in memory only; after a reload it is fetched again with tasks/result. */
	result?: CallToolResult;
	/** Where it is: `chat`, `palette`, … (for the tooltip). */
	origin: string;
}

type Stored = Omit<TaskEntry, 'result' | 'progress'>;

/**
 * The tasks of every server, kept in workspace state so that after a window reload a person still sees them and can
 * fetch their results until they expire. Live tasks are followed through their handles; restored ones are picked up
 * again (one tasks/get) when their server runs.
 */
export class TaskList implements vscode.Disposable {
	private readonly entries = new Map<string, TaskEntry>();
	private readonly handles = new Map<string, ToolTask>();
	private readonly changed = new vscode.EventEmitter<string | undefined>();
	private readonly subscriptions: vscode.Disposable[] = [];
	private readonly resuming = new Set<string>();
	private disposed = false;
	/** Fires with the server whose tasks changed (undefined: several). */
	readonly onDidChange = this.changed.event;

	constructor(
		private readonly manager: Manager,
		private readonly state: vscode.Memento,
	) {
		for (const stored of state.get<Stored[]>(TASKS_STATE_KEY, [])) {
			if (typeof stored?.server !== 'string' || typeof stored.taskId !== 'string' || typeof stored.tool !== 'string')
				continue;
			const entry: TaskEntry = {
				...stored,
				arguments: stored.arguments ?? {},
				origin: stored.origin ?? 'an earlier window',
			};
			if (!isFinished(entry)) entry.status = 'unknown';
			this.entries.set(keyOf(entry.server, entry.taskId), entry);
		}
		this.dropExpired();
		const onState = manager.onDidChangeState(({ server, state }) => {
			if (state.kind === 'running') this.resumeAll(server);
		});
		this.subscriptions.push(new vscode.Disposable(() => onState.dispose()));
		for (const view of manager.servers()) if (view.state.kind === 'running') this.resumeAll(view.name);
	}

	/** Every task of `server`, newest first. */
	tasksOf(server: string): TaskEntry[] {
		return [...this.entries.values()]
			.filter((entry) => entry.server === server)
			.sort((a, b) => b.startedAt - a.startedAt);
	}

	/** Every task, newest first. */
	all(): TaskEntry[] {
		return [...this.entries.values()].sort((a, b) => b.startedAt - a.startedAt);
	}

	get(server: string, taskId: string): TaskEntry | undefined {
		return this.entries.get(keyOf(server, taskId));
	}

	/** True while any task is followed (the tree refreshes elapsed times only then). */
	get hasLive(): boolean {
		return this.handles.size > 0;
	}

	/** Starts following a task the palette, the tree or the chat just created. */
	track(server: string, tool: string, args: Record<string, unknown>, handle: ToolTask, origin: string): TaskEntry {
		const now = Date.now();
		const entry: TaskEntry = {
			server,
			taskId: handle.taskId,
			tool,
			arguments: args,
			startedAt: now,
			status: handle.status,
			statusMessage: handle.task.statusMessage,
			origin,
		};
		entry.expiresAt = expiryOf(handle.task, now);
		this.entries.set(keyOf(server, handle.taskId), entry);
		this.follow(entry, handle);
		this.trim();
		this.save(server);
		return entry;
	}

	/** Records progress of a task (from the call's onProgress). */
	progress(server: string, taskId: string, progress: Progress): void {
		const entry = this.get(server, taskId);
		if (!entry) return;
		entry.progress = progress;
		this.changed.fire(server);
	}

	/** Cancels a live task on its server (tasks/cancel); a restored one is picked up first. */
	async cancel(server: string, taskId: string): Promise<void> {
		const entry = this.get(server, taskId);
		if (!entry || isFinished(entry)) return;
		const handle = this.handles.get(keyOf(server, taskId)) ?? (await this.resume(entry));
		await handle?.cancel('Cancelled from the Tasks list');
	}

	/**
	 * The task's result: from memory, or (after a reload) fetched again from the server with tasks/result.
	 * Rejects with a message naming the server when it is not running or no longer knows the task.
	 */
	async result(server: string, taskId: string): Promise<CallToolResult> {
		const entry = this.get(server, taskId);
		if (!entry) throw new Error(`MCP server '${server}' has no task ${taskId} in this workspace`);
		if (entry.result) return entry.result;
		if (entry.error !== undefined && entry.status !== 'completed' && entry.status !== 'failed')
			throw new Error(entry.error);
		if (this.manager.get(server)?.state.kind !== 'running')
			throw new Error(`MCP server '${server}' is not running: start it to fetch the result of ${entry.tool}`);
		const handle = this.handles.get(keyOf(server, taskId)) ?? (await this.resume(entry));
		if (!handle) throw new Error(entry.error ?? `MCP server '${server}' no longer knows task ${taskId}`);
		return handle.result();
	}

	/** Removes a task from the list (the server keeps it until its TTL; nothing is cancelled). */
	forget(server: string, taskId: string): void {
		const key = keyOf(server, taskId);
		this.handles.get(key)?.detach();
		this.handles.delete(key);
		this.entries.delete(key);
		this.save(server);
	}

	dispose(): void {
		this.disposed = true;
		for (const subscription of this.subscriptions) subscription.dispose();
		// The server keeps live tasks; the next window picks them up from workspace state.
		for (const handle of this.handles.values()) handle.detach();
		this.handles.clear();
		this.changed.dispose();
	}

	// ---- internals ----

	private follow(entry: TaskEntry, handle: ToolTask): void {
		const key = keyOf(entry.server, entry.taskId);
		this.handles.set(key, handle);
		const apply = (task: Task) => {
			entry.status = task.status;
			entry.statusMessage = task.statusMessage;
			entry.expiresAt = expiryOf(task, entry.startedAt) ?? entry.expiresAt;
			this.changed.fire(entry.server);
		};
		const subscription = handle.onDidChange(apply);
		apply(handle.task);
		handle
			.result()
			.then(
				(result) => {
					entry.result = result;
					entry.status = handle.status;
					entry.statusMessage = handle.task.statusMessage;
					entry.finishedAt = Date.now();
				},
				(error: unknown) => {
					// detach(): this window stopped following it (closing, or removed from the list); the server still has it.
					if (this.disposed || !this.entries.has(key)) return;
					entry.status = handle.status === 'working' || handle.status === 'input_required' ? 'failed' : handle.status;
					entry.error = errorMessage(error);
					entry.finishedAt = Date.now();
				},
			)
			.finally(() => {
				subscription.dispose();
				if (this.handles.get(key) === handle) this.handles.delete(key);
				if (!this.disposed && this.entries.get(key) === entry) this.save(entry.server);
			});
	}

	/** Picks up every unfinished task of a server that just started running (e.g. after a reload). */
	private resumeAll(server: string): void {
		for (const entry of this.tasksOf(server)) {
			if (!isFinished(entry) && !this.handles.has(keyOf(server, entry.taskId))) void this.resume(entry);
		}
	}

	/** One tasks/get for a task this window does not follow; then it is followed like a new one. */
	private async resume(entry: TaskEntry): Promise<ToolTask | undefined> {
		const key = keyOf(entry.server, entry.taskId);
		const following = this.handles.get(key);
		if (following) return following;
		if (this.resuming.has(key) || this.manager.get(entry.server)?.state.kind !== 'running') return undefined;
		this.resuming.add(key);
		try {
			const handle = await this.manager.resumeToolTask(entry.server, entry.taskId, entry.tool);
			if (this.entries.get(key) === entry) this.follow(entry, handle);
			return handle;
		} catch (error) {
			entry.error = `MCP server '${entry.server}': ${errorMessage(error)}`;
			if (!isFinished(entry)) entry.status = 'unknown';
			entry.finishedAt ??= Date.now();
			this.save(entry.server);
			return undefined;
		} finally {
			this.resuming.delete(key);
		}
	}

	private dropExpired(): void {
		const now = Date.now();
		for (const [key, entry] of this.entries) {
			if (entry.expiresAt !== undefined && entry.expiresAt < now) this.entries.delete(key);
		}
	}

	private trim(): void {
		const finished = this.all().filter(isFinished).reverse();
		while (this.entries.size > MAX_KEPT && finished.length > 0) {
			const oldest = finished.shift()!;
			this.entries.delete(keyOf(oldest.server, oldest.taskId));
		}
	}

	private save(server: string | undefined): void {
		this.dropExpired();
		const stored: Stored[] = this.all().map(({ result: _result, progress: _progress, ...rest }) => rest);
		void this.state.update(TASKS_STATE_KEY, stored);
		this.changed.fire(server);
	}
}

function keyOf(server: string, taskId: string): string {
	return `${server}\u0000${taskId}`;
}

function expiryOf(task: Task, fallbackStart: number): number | undefined {
	if (task.ttl === null) return undefined;
	const created = Date.parse(task.createdAt);
	return (Number.isFinite(created) ? created : fallbackStart) + task.ttl;
}
