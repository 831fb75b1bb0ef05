import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { Manager, NamedTool, ServerView } from '../../manager/manager';
import { suspicionsOf, suspicionText } from '../../manager/pinning/suspicion';
import { compareNames, plural } from '../../common/text';
import { describeSources } from '../../manager/configSources';
import { ALSO_IN_VSCODE, VSCODE_RUNS_NOTE } from './vscodeRuns';
import { errorRowLabel } from './errorRow';
import { DEPRECATION_NOTES, deprecationSummary } from '../../manager/deprecations';
import { fence } from '../shared/resultDocument';
import { stateClick, stateIcon, stateLabel, stateMessage } from '../shared/serverStates';
import type { GroupKind, TreeNode } from '../shared/treeNodes';
import type { TaskList } from '../tasks/taskList';
import { taskBadge, taskItem, tasksGroupItem } from '../tasks/taskTree';
import { firstLine, promptItem, templateItem, trustRow, type NodeOf } from './leafRows';
import type { SkillListings } from '../skills/skillListings';
import { skillItem, skillsGroupItem, skillTooltip } from './skillRows';

const groupLabels: Record<GroupKind, string> = {
	tools: 'Tools',
	resources: 'Resources',
	resourceTemplates: 'Resource Templates',
	prompts: 'Prompts',
	skills: 'Skills',
};
/** The groups every server may have; Skills follows them for a server that offers the extension. */
const groupOrder: readonly Exclude<GroupKind, 'skills'>[] = ['tools', 'resources', 'resourceTemplates', 'prompts'];

/** Refreshes are coalesced over this long, so a burst of list_changed or state events repaints once. */
export const REFRESH_DEBOUNCE_MS = 100;

/**
 * The transport as people read it. HTTP+SSE (2024-11-05) is marked: 2026-07-28 classifies it as Deprecated
 * (https://modelcontextprotocol.io/specification/2026-07-28/deprecated); it keeps working.
 */
function transportOf(view: ServerView): string {
	if (view.config.type === 'stdio') return 'stdio';
	const running = view.state.kind === 'running' ? view.state.client.transportKind : undefined;
	return view.config.type === 'sse' || running === 'sse' ? 'HTTP+SSE (deprecated)' : 'HTTP';
}

/** Server capabilities 2026-07-28 deprecates (they keep working with servers that still offer them). */
const DEPRECATED_CAPABILITIES = new Set(['logging']);

/** "2026-07-28 (no handshake, no session)" or "2025-11-25 (initialize handshake)". */
export function protocolLabel(client: { protocolVersion: string; era: 'modern' | 'legacy' }): string {
	return `${client.protocolVersion} (${client.era === 'modern' ? 'no handshake, no session' : 'initialize handshake'})`;
}

/**
 * The server row's description: "12 tools · stdio" when running, else the state and transport (+ "also in VS Code");
 * "12 tools · 3 off · stdio" when `off` tools are switched off for chat models.
 */
export function serverDescription(view: ServerView, off = 0): string {
	const tools = `${plural(view.toolNames.length, 'tool')}${off > 0 ? ` · ${off} off` : ''}`;
	const what =
		view.state.kind === 'running'
			? tools
			: view.listedAt !== undefined
				? `${tools} · ${stateLabel(view.state)}`
				: stateLabel(view.state);
	return `${what} · ${transportOf(view)}${view.source.vscodeRuns ? ` · ${ALSO_IN_VSCODE}` : ''}`;
}

/** The annotation badges a tool shows: read-only, destructive, open-world (only those the server states). */
export function toolBadges(tool: NamedTool['tool']): string[] {
	const a = tool.annotations;
	const badges: string[] = [];
	if (a?.readOnlyHint === true) {
		badges.push('read-only');
	} else if (a?.destructiveHint === true) {
		badges.push('destructive');
	}
	if (a?.openWorldHint === true) {
		badges.push('open-world');
	}
	return badges;
}

/** The items whose key was not seen before, in order. */
export function firstOfEach<T>(items: readonly T[], key: (item: T) => string): T[] {
	const seen = new Set<string>();
	return items.filter((item) => {
		const k = key(item);
		if (seen.has(k)) return false;
		seen.add(k);
		return true;
	});
}

function escapeMd(text: string): string {
	return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

/** The server tooltip: name, version, protocol, transport, capabilities, instructions, config source, last error. */
export function serverTooltip(view: ServerView): vscode.MarkdownString {
	const md = new vscode.MarkdownString('', true);
	md.appendMarkdown(`**${escapeMd(view.name)}** — ${escapeMd(stateLabel(view.state))}\n\n`);
	const lines: string[] = [];
	if (view.listedAt !== undefined)
		lines.push(`Lists as of ${new Date(view.listedAt).toLocaleString()}; it starts when needed`);
	if (view.state.kind === 'running') {
		const client = view.state.client;
		const info = client.serverInfo;
		lines.push(`Server: ${escapeMd(info.title ?? info.name)} ${escapeMd(info.version)}`);
		lines.push(`Protocol: ${escapeMd(protocolLabel(client))}`);
		const caps = Object.entries(client.serverCapabilities)
			.filter(([, value]) => value !== undefined)
			.map(([name, value]) => {
				const flags =
					typeof value === 'object' && value
						? Object.entries(value as Record<string, unknown>)
								.filter(([, v]) => v === true)
								.map(([k]) => k)
						: [];
				if (DEPRECATED_CAPABILITIES.has(name)) flags.push('deprecated');
				return flags.length > 0 ? `${name} (${flags.join(', ')})` : name;
			});
		lines.push(`Capabilities: ${caps.length > 0 ? escapeMd(caps.join(', ')) : 'none'}`);
	}
	const config = view.config;
	lines.push(
		`Transport: ${transportOf(view)} — ${escapeMd(config.type === 'stdio' ? [config.command, ...(config.args ?? [])].join(' ') : config.url)}`,
	);
	// A link that opens the file at the entry (Show Configuration); the command is the only one the tooltip may run.
	const showConfiguration = `command:${Commands.showConfiguration}?${encodeURIComponent(JSON.stringify([view.name]))}`;
	lines.push(`Configured in: [${escapeMd(describeSources(view.source))}](${showConfiguration} "Show Configuration")`);
	md.isTrusted = { enabledCommands: [Commands.showConfiguration] };
	if (view.source.vscodeRuns) lines.push(VSCODE_RUNS_NOTE);
	md.appendMarkdown(lines.join('  \n'));
	const deprecated = view.deprecatedFeatures;
	if (deprecated.length > 0) {
		// They keep working; the person learns why the server is behind and what it should move to.
		md.appendMarkdown(`\n\n**${escapeMd(deprecationSummary(deprecated).replace(/^u/, 'U'))}**\n\n`);
		md.appendMarkdown(
			deprecated.map((feature) => `- ${escapeMd(feature)}: ${escapeMd(DEPRECATION_NOTES[feature])}`).join('\n'),
		);
	}
	if (view.state.kind === 'running' && view.state.client.instructions) {
		md.appendMarkdown('\n\n**Instructions**\n\n');
		md.appendText(firstLine(view.state.client.instructions, 600));
	}
	const error = stateMessage(view.state) ?? view.lastError;
	if (error) {
		const heading =
			view.state.kind === 'error' ? 'Error' : view.state.kind === 'needsSignIn' ? 'Sign-in needed' : 'Last error';
		md.appendMarkdown(`\n\n**${heading}**\n\n`);
		md.appendText(error);
	}
	return md;
}

/** An error row's tooltip: the whole message as the server left it (stderr lines included), and where to look next. */
export function errorTooltip(message: string): vscode.MarkdownString {
	const md = new vscode.MarkdownString('', true);
	md.appendCodeblock(message, 'text');
	md.appendMarkdown("\n\nClick to open the server's log.");
	return md;
}

/** The tool tooltip: name, description, annotations, and the input schema as JSON. */
export function toolTooltip(named: NamedTool): vscode.MarkdownString {
	const { tool } = named;
	const md = new vscode.MarkdownString('', true);
	md.appendMarkdown(`**${escapeMd(tool.title ?? tool.annotations?.title ?? tool.name)}** \`${tool.name}\`\n\n`);
	if (tool.description) {
		md.appendText(tool.description);
		md.appendMarkdown('\n\n');
	}
	const badges = toolBadges(tool);
	if (badges.length > 0) {
		md.appendMarkdown(`*${badges.join(' · ')}*\n\n`);
	}
	md.appendMarkdown(`Qualified name: \`${named.qualifiedName}\`\n\n`);
	md.appendMarkdown(`Input schema:\n\n${fence(JSON.stringify(tool.inputSchema, null, 2), 'json')}`);
	return md;
}

/**
 * The Servers view's data. Children are built only when a node is expanded (a server's 5,000 tools cost nothing
 * until the Tools group opens), tooltips only when hovered (`resolveTreeItem`), and state or list changes repaint
 * just the affected server after a {@link REFRESH_DEBOUNCE_MS} debounce.
 */
export class ServersTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
	private readonly changed = new vscode.EventEmitter<TreeNode | TreeNode[] | undefined>();
	readonly onDidChangeTreeData = this.changed.event;
	private readonly serverNodes = new Map<string, Extract<TreeNode, { kind: 'server' }>>();
	private readonly groupNodes = new Map<string, Extract<TreeNode, { kind: 'group' }>>();
	private readonly subscriptions: { dispose(): void }[] = [];
	private pending = new Set<string>();
	private pendingAll = false;
	private timer: ReturnType<typeof setTimeout> | undefined;
	private readonly tasksNodes = new Map<string, Extract<TreeNode, { kind: 'tasks' }>>();
	/** Repaints elapsed times each second, only while a task is live (no timer otherwise). */
	private elapsedTimer: ReturnType<typeof setInterval> | undefined;

	constructor(
		private readonly manager: Manager,
		private readonly tasks?: TaskList,
		/** Per-tool enablement: tool rows (and servers with tools) get a checkbox showing it. Default: no checkboxes. */
		private readonly enablement?: {
			isEnabled(named: Pick<NamedTool, 'server'> & { tool: { name: string } }): boolean;
			readonly onDidChange: vscode.Event<void>;
		},
		/** The servers' skills (listed when a server's row shows): without it, no Skills group. */
		private readonly skills?: SkillListings,
	) {
		if (enablement) this.subscriptions.push(enablement.onDidChange(() => this.schedule(undefined)));
		if (skills) this.subscriptions.push(skills.onDidChange((server) => this.schedule(server)));
		this.subscriptions.push(
			manager.onDidChangeServers(() => this.schedule(undefined)),
			manager.onDidChangeState(({ server }) => this.schedule(server)),
			manager.onDidChangeLists(({ server }) => this.schedule(server)),
		);
		if (tasks) {
			this.subscriptions.push(
				tasks.onDidChange((server) => {
					this.schedule(server);
					this.tickElapsed();
				}),
			);
			this.tickElapsed();
		}
	}

	private tickElapsed(): void {
		const live = this.tasks?.hasLive === true;
		if (live && !this.elapsedTimer) {
			this.elapsedTimer = setInterval(() => {
				if (!this.tasks?.hasLive) {
					clearInterval(this.elapsedTimer);
					this.elapsedTimer = undefined;
					return;
				}
				const servers = new Set(
					this.tasks
						.all()
						.filter((entry) => entry.finishedAt === undefined)
						.map((entry) => entry.server),
				);
				for (const server of servers) this.schedule(server);
			}, 1000);
		}
	}

	/** The Tasks node of a server (stable object). */
	tasksNode(server: string): Extract<TreeNode, { kind: 'tasks' }> {
		let node = this.tasksNodes.get(server);
		if (!node) {
			node = { kind: 'tasks', server };
			this.tasksNodes.set(server, node);
		}
		return node;
	}

	/** The Tasks row when the server has tasks in this workspace. */
	private tasksRow(server: string): TreeNode[] {
		return this.tasks && this.tasks.tasksOf(server).length > 0 ? [this.tasksNode(server)] : [];
	}

	/** Repaints one server's subtree (or everything) after the debounce. */
	schedule(server: string | undefined): void {
		if (server === undefined) {
			this.pendingAll = true;
		} else {
			this.pending.add(server);
		}
		this.timer ??= setTimeout(() => this.flush(), REFRESH_DEBOUNCE_MS);
	}

	private flush(): void {
		this.timer = undefined;
		const all = this.pendingAll;
		const servers = [...this.pending];
		this.pendingAll = false;
		this.pending = new Set();
		if (all) {
			const names = new Set(this.manager.servers().map((s) => s.name));
			for (const name of [...this.serverNodes.keys()]) {
				if (!names.has(name)) {
					this.serverNodes.delete(name);
					for (const group of [...groupOrder, 'skills']) this.groupNodes.delete(`${name}\u0000${group}`);
				}
			}
			this.changed.fire(undefined);
			return;
		}
		const nodes = servers.filter((name) => this.serverNodes.has(name)).map((name) => this.serverNode(name));
		if (nodes.length > 0) {
			this.changed.fire(nodes);
		}
	}

	/** The node of a server (stable object per name). */
	serverNode(server: string): Extract<TreeNode, { kind: 'server' }> {
		let node = this.serverNodes.get(server);
		if (!node) {
			node = { kind: 'server', server };
			this.serverNodes.set(server, node);
		}
		return node;
	}

	/** The node of one group under a server (stable object). */
	groupNode(server: string, group: GroupKind): Extract<TreeNode, { kind: 'group' }> {
		const key = `${server}\u0000${group}`;
		let node = this.groupNodes.get(key);
		if (!node) {
			node = { kind: 'group', server, group };
			this.groupNodes.set(key, node);
		}
		return node;
	}

	getChildren(element?: TreeNode): TreeNode[] {
		if (!element) {
			return [...this.manager.servers()]
				.sort((a, b) => compareNames(a.name, b.name))
				.map((view) => this.serverNode(view.name));
		}
		const view = this.manager.get(element.server);
		if (!view) {
			return [];
		}
		switch (element.kind) {
			case 'server': {
				// Every state has children, so a server row is expandable from its first paint (usually "starting") and
				// VS Code keeps it open when the groups or an error message arrive.
				const message = (text: string, error = false): TreeNode[] => [
					{ kind: 'message', server: view.name, message: text, error },
					...this.tasksRow(view.name),
				];
				switch (view.state.kind) {
					case 'needsSignIn':
					case 'error':
						return message(view.state.message, true);
					case 'needsTrust':
						return [
							{
								kind: 'message',
								server: view.name,
								message: view.state.reason,
								error: false,
								trust: view.state.refused ? 'refused' : 'ask',
							},
							...this.tasksRow(view.name),
						];
					case 'starting':
						return message('Starting…');
					case 'stopped':
						if (view.state.onDemand && view.listedAt !== undefined) break;
						return message(
							view.state.onDemand
								? 'Not running: it starts when needed (this row expanded, a tool called, a resource read).'
								: 'Stopped. Start it with the ▷ button or "MCP Switchboard: Start Server".',
						);
					case 'disabled':
						return message('Disabled in its settings ("disabled": true).');
					case 'running':
						break;
				}
				// Not started yet: the groups it listed last time (read from the listing cache).
				const caps = view.state.kind === 'running' ? view.state.client.serverCapabilities : {};
				const groups: TreeNode[] = groupOrder
					.filter(
						(group) =>
							(group === 'tools'
								? true
								: group === 'prompts'
									? caps.prompts !== undefined
									: caps.resources !== undefined) || this.items(view, group) > 0,
					)
					.map((group) => this.groupNode(view.name, group));
				if (this.skills?.offers(view.name)) groups.push(this.groupNode(view.name, 'skills'));
				return [...groups, ...this.tasksRow(view.name)];
			}
			case 'tasks':
				return (this.tasks?.tasksOf(element.server) ?? []).map((entry) => ({
					kind: 'task',
					server: entry.server,
					taskId: entry.taskId,
				}));
			case 'group':
				// A server may list an entry twice (same URI, tool or prompt name); the row ids derive from those, and VS Code
				// refuses a tree with two rows of one id, so only the first of each is shown.
				switch (element.group) {
					case 'tools':
						return firstOfEach(view.tools, (named) => named.tool.name).map((tool) => ({
							kind: 'tool',
							server: view.name,
							tool,
						}));
					case 'resources':
						return firstOfEach(view.resources, (resource) => resource.uri).map((resource) => ({
							kind: 'resource',
							server: view.name,
							resource,
						}));
					case 'resourceTemplates':
						return firstOfEach(view.resourceTemplates, (template) => template.uriTemplate).map((template) => ({
							kind: 'template',
							server: view.name,
							template,
						}));
					case 'prompts':
						return firstOfEach(view.prompts, (prompt) => prompt.name).map((prompt) => ({
							kind: 'prompt',
							server: view.name,
							prompt,
						}));
					case 'skills': {
						const listing = this.skills?.current(view.name);
						return (Array.isArray(listing) ? firstOfEach(listing, (skill) => skill.uri) : []).map((skill) => ({
							kind: 'skill',
							server: view.name,
							skill,
						}));
					}
				}
				break;
			default:
				return [];
		}
		return [];
	}

	private items(view: ServerView, group: Exclude<GroupKind, 'skills'>): number {
		return view[group].length;
	}

	getParent(element: TreeNode): TreeNode | undefined {
		switch (element.kind) {
			case 'server':
				return undefined;
			case 'group':
			case 'message':
			case 'tasks':
				return this.serverNode(element.server);
			case 'task':
				return this.tasksNode(element.server);
			case 'tool':
				return this.groupNode(element.server, 'tools');
			case 'resource':
				return this.groupNode(element.server, 'resources');
			case 'template':
				return this.groupNode(element.server, 'resourceTemplates');
			case 'prompt':
				return this.groupNode(element.server, 'prompts');
			case 'skill':
				return this.groupNode(element.server, 'skills');
		}
	}

	getTreeItem(element: TreeNode): vscode.TreeItem {
		switch (element.kind) {
			case 'server':
				return this.serverItem(element);
			case 'group':
				return this.groupItem(element);
			case 'tool':
				return this.toolItem(element);
			case 'resource':
				return this.resourceItem(element);
			case 'template':
				return templateItem(element);
			case 'prompt':
				return promptItem(element);
			case 'skill':
				return skillItem(element);
			case 'tasks':
				return tasksGroupItem(element.server, this.tasks?.tasksOf(element.server) ?? []);
			case 'task':
				return this.taskRowItem(element);
			case 'message':
				return this.messageItem(element);
		}
	}

	/** A server's row: its state (icon, description, click) and how many of its tools chat models do not get. */
	private serverItem(element: NodeOf<'server'>): vscode.TreeItem {
		const view = this.manager.get(element.server);
		// A server waiting for its first need is collapsed: expanding it is a need (tree/index.ts starts it).
		const waits = view?.state.kind === 'stopped' && view.state.onDemand !== undefined;
		const item = new vscode.TreeItem(
			element.server,
			waits ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded,
		);
		item.id = `server/${element.server}`;
		if (!view) {
			return item;
		}
		// No checkbox (it took 22 px of a 170 px side bar and read as "server on/off", which Disable Server is): the
		// description says how many tools are switched off; the Tools row's menu offers them all or none.
		item.description = serverDescription(view, this.enablement ? this.toolsOff(view) : 0);
		item.iconPath = stateIcon(view.state);
		// `.remote` marks servers that may hold OAuth tokens (for Sign Out); menus match the state with or without it.
		item.contextValue = `mcpServer.${view.state.kind}${view.config.type === 'stdio' ? '' : '.remote'}`;
		const click = stateClick(element.server, view.state);
		if (click) item.command = click;
		return item;
	}

	/** How many of a server's tools are switched off for chat models. */
	private toolsOff(view: ServerView): number {
		// By name: a row of a server that waits for its first need reads its listing's summary, not the listing.
		const enablement = this.enablement!;
		return view.toolNames.filter((name) => !enablement.isEnabled({ server: view.name, tool: { name } })).length;
	}

	/** A group row (Tools, Resources…): its count, collapsible when there is something in it. */
	private groupItem(element: NodeOf<'group'>): vscode.TreeItem {
		if (element.group === 'skills') return skillsGroupItem(element, this.skills?.current(element.server));
		const view = this.manager.get(element.server);
		const count = view ? this.getChildren(element).length : 0;
		const item = new vscode.TreeItem(
			groupLabels[element.group],
			count > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
		);
		item.id = `server/${element.server}/${element.group}`;
		item.description = String(count);
		// No icon: with an icon-less parent VS Code lays the leaves below out without a twistie's space (22 px), room
		// their names need in a 170 px side bar (its `alignIconWithTwisty`). The label says what the group holds.
		item.contextValue = `mcpGroup.${element.group}`;
		if (element.group === 'tools' && view && this.enablement) {
			const off = this.toolsOff(view);
			if (off > 0) item.description = `${count} · ${off} off`;
			// Offer All / Offer None in its menu, each shown when it would change something.
			item.contextValue = `mcpGroup.tools.${off === 0 ? 'allOn' : off === view.toolNames.length ? 'allOff' : 'someOff'}`;
		}
		return item;
	}

	/** A tool's row: name, title, badges and what looks suspicious; its checkbox offers it to chat models. */
	private toolItem(element: NodeOf<'tool'>): vscode.TreeItem {
		const { tool } = element.tool;
		// The name first: short, what the palette and files call it, readable in a narrow side bar; the title after.
		const item = new vscode.TreeItem(tool.name, vscode.TreeItemCollapsibleState.None);
		const title = tool.title ?? tool.annotations?.title;
		item.id = `server/${element.server}/tools/${tool.name}`;
		const badges = toolBadges(tool);
		// A definition that hides text or instructs the model (manager/pinning/suspicion.ts) says what was found.
		const peers = () => this.manager.get(element.server)?.tools.map((named) => named.tool) ?? [];
		const suspicion = suspicionText(suspicionsOf(tool, peers));
		const flag = suspicion ? `suspicious: ${suspicion}` : undefined;
		item.description = [
			title !== tool.name ? title : undefined,
			flag,
			...badges,
			taskBadge(tool),
			firstLine(tool.description),
		]
			.filter(Boolean)
			.join(' · ');
		// An icon only where it says something: every row under "Tools" is a tool, and the 22 px of a plain one are what
		// "read_file" or "write_file" lacked beside the checkbox and the inline ▶ in a 170 px side bar. A destructive or
		// suspicious tool keeps its warning glyph, which sets it apart as it should.
		if (flag) item.iconPath = new vscode.ThemeIcon('alert', new vscode.ThemeColor('problemsWarningIcon.foreground'));
		else if (badges.includes('destructive')) item.iconPath = new vscode.ThemeIcon('warning');
		item.contextValue = 'mcpTool';
		if (this.enablement) {
			const on = this.enablement.isEnabled(element.tool);
			item.checkboxState = {
				state: on ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked,
				tooltip: on ? "Offered to chat models (@mcp, VS Code's agent)" : 'Not offered to chat models',
				accessibilityInformation: { label: `Offer ${tool.name} to chat models` },
			};
		}
		// No click command: a click selects the row (its tooltip shows the details); running takes the inline ▶, the
		// context menu or Enter (treeKeyboard.ts). As the row's command, one stray click ran a tool without arguments.
		item.accessibilityInformation = {
			label: [`${tool.name}, tool`, title !== tool.name ? title : undefined, flag, ...badges]
				.filter(Boolean)
				.join(', '),
		};
		return item;
	}

	/** A resource's row; a click reads it, and its menu offers Subscribe when the server supports it. */
	private resourceItem(element: NodeOf<'resource'>): vscode.TreeItem {
		const { resource } = element;
		const item = new vscode.TreeItem(resource.title ?? resource.name, vscode.TreeItemCollapsibleState.None);
		item.id = `server/${element.server}/resources/${resource.uri}`;
		item.description = resource.mimeType ?? firstLine(resource.description, 60);
		item.iconPath = new vscode.ThemeIcon(resource.mimeType?.startsWith('image/') ? 'file-media' : 'file');
		const subscribable = this.manager.get(element.server)?.state;
		item.contextValue =
			subscribable?.kind === 'running' && subscribable.client.serverCapabilities.resources?.subscribe
				? 'mcpResource.subscribable'
				: 'mcpResource';
		item.command = { command: Commands.readResource, title: 'Read Resource', arguments: [element] };
		return item;
	}

	/** A task's row, or its bare id once the task list has forgotten it. */
	private taskRowItem(element: NodeOf<'task'>): vscode.TreeItem {
		const entry = this.tasks?.get(element.server, element.taskId);
		return entry ? taskItem(entry) : new vscode.TreeItem(element.taskId);
	}

	/** An info, error or trust row under a server. */
	private messageItem(element: NodeOf<'message'>): vscode.TreeItem {
		if (element.trust) return trustRow(element.server, element.message, element.trust);
		// An error row says why in one line (a crash: the reason from its stderr, not "Last stderr lines:"); the
		// whole message is its tooltip, and a click or its inline button opens the server's log.
		const item = new vscode.TreeItem(
			element.error
				? errorRowLabel(this.manager.get(element.server), element.message)
				: firstLine(element.message, 200),
			vscode.TreeItemCollapsibleState.None,
		);
		item.id = `server/${element.server}/message`;
		item.iconPath = new vscode.ThemeIcon(
			element.error ? 'warning' : 'info',
			element.error ? new vscode.ThemeColor('problemsErrorIcon.foreground') : undefined,
		);
		item.tooltip = element.error ? errorTooltip(element.message) : element.message;
		item.contextValue = element.error ? 'mcpMessage.error' : 'mcpMessage';
		item.command = element.error
			? {
					command: Commands.showServerLog,
					title: 'Show Server Log',
					arguments: [this.serverNode(element.server)],
				}
			: undefined;
		return item;
	}

	/** Tooltips are built only when a row is hovered: a schema dump per tool is too much for 5,000 rows. */
	resolveTreeItem(item: vscode.TreeItem, element: TreeNode): vscode.TreeItem {
		switch (element.kind) {
			case 'server': {
				const view = this.manager.get(element.server);
				if (view) {
					item.tooltip = serverTooltip(view);
				}
				break;
			}
			case 'tool':
				item.tooltip = toolTooltip(element.tool);
				break;
			case 'skill':
				item.tooltip = skillTooltip(element);
				break;
			case 'resource': {
				const { resource } = element;
				const md = new vscode.MarkdownString('', true);
				md.appendMarkdown(`**${escapeMd(resource.title ?? resource.name)}**\n\n\`${resource.uri}\``);
				if (resource.mimeType) md.appendMarkdown(`  \n${escapeMd(resource.mimeType)}`);
				if (resource.size !== undefined) md.appendMarkdown(`  \n${plural(resource.size, 'byte')}`);
				if (resource.description) md.appendMarkdown('\n\n').appendText(resource.description);
				item.tooltip = md;
				break;
			}
			case 'template': {
				const { template } = element;
				const md = new vscode.MarkdownString('', true);
				md.appendMarkdown(`**${escapeMd(template.title ?? template.name)}**\n\n\`${template.uriTemplate}\``);
				if (template.description) md.appendMarkdown('\n\n').appendText(template.description);
				item.tooltip = md;
				break;
			}
			case 'prompt': {
				const { prompt } = element;
				const md = new vscode.MarkdownString('', true);
				md.appendMarkdown(`**${escapeMd(prompt.title ?? prompt.name)}**`);
				if (prompt.description) md.appendMarkdown('\n\n').appendText(prompt.description);
				for (const arg of prompt.arguments ?? []) {
					md.appendMarkdown(
						`\n- \`${arg.name}\`${arg.required ? ' (required)' : ''}${arg.description ? ` — ${escapeMd(arg.description)}` : ''}`,
					);
				}
				item.tooltip = md;
				break;
			}
			default:
				break;
		}
		return item;
	}

	dispose(): void {
		if (this.timer) {
			clearTimeout(this.timer);
		}
		if (this.elapsedTimer) {
			clearInterval(this.elapsedTimer);
		}
		for (const subscription of this.subscriptions) {
			subscription.dispose();
		}
		this.changed.dispose();
	}
}
