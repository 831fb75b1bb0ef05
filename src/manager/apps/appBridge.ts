/**
 * The host side of the MCP Apps bridge for one app: JSON-RPC over the app's postMessage channel (AppChannel), the
 * `ui/initialize` handshake with host context, the tool's input and result as notifications once the app said it is
 * initialized, the app's `tools/call` and `resources/read` on its own server (through the host, so the Manager,
 * consent and enablement apply), `ui/open-link` after the host's confirmation, size changes, logs, and teardown.
 * What this host cannot do is answered with a JSON-RPC error that says so, never with silence.
 * Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
 * No `vscode` here: src/vscode/console/apps gives it a webview and VS Code's answers.
 */
import { Emitter, type Event } from '../../common/event';
import type { Logger } from '../../common/logger';
import { JsonRpcConnection } from '../../protocol/connection';
import type { Clock } from '../../protocol/connectionOptions';
import { ErrorCode, type JsonRpcMessage } from '../../protocol/jsonrpc';
import { McpError } from '../../protocol/mcpError';
import type { CallToolResult, LoggingLevel, ReadResourceResult, Tool } from '../../protocol/schema';
import { LOGGING_LEVELS } from '../../protocol/schema';
import { AppChannel } from './appChannel';
import { parseDownloadRequest, type DownloadItem } from './appDownload';
import { APPS_PROTOCOL_VERSION, callableByApp, type AppCspDeclaration } from './appMeta';
import { errorMessage } from '../../common/errors';

/** The spec's "implementation-defined" error code for a denied or failed UI request. */
export const APP_REQUEST_DENIED = -32000;

/** How a view is shown (spec: `McpUiDisplayMode`). */
export type AppDisplayMode = 'inline' | 'fullscreen' | 'pip';
const DISPLAY_MODES: readonly AppDisplayMode[] = ['inline', 'fullscreen', 'pip'];

/** A file ready to save (an embedded resource, or a link of the app's server already read). */
export interface AppFile {
	fileName: string;
	mimeType?: string;
	bytes: Uint8Array;
}

/** What the bridge needs from the host (VS Code at the edge, fakes in tests). */
export interface AppBridgeHost {
	/** The app's server's tool of that name, as last listed; undefined when it has none. */
	tool(name: string): Tool | undefined;
	/** Why `tool` may not be called now (disabled by the person, server not running), or undefined when it may. */
	refusal(tool: Tool): string | undefined;
	/** Calls the tool on the app's server, asking for consent as a palette call does; rejects when refused. */
	callTool(tool: Tool, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
	/** Reads a resource of the app's server. */
	readResource(uri: string, signal: AbortSignal): Promise<ReadResourceResult>;
	/** Opens an http(s) or mailto URL after the person agreed; resolves false when they did not. */
	openLink(url: string): Promise<boolean>;
	/** The app's `notifications/message`. */
	log(level: LoggingLevel, text: string): void;
	/** The app's content size changed (`ui/notifications/size-changed`), in CSS pixels. */
	sizeChanged(size: { width?: number; height?: number }): void;
	/** The app asked to be closed (`ui/notifications/request-teardown`). */
	requestTeardown(): void;
	/** Shows the app in `mode` (one of the options' `displayModes`); resolves the mode in effect afterwards. */
	setDisplayMode(mode: AppDisplayMode): Promise<AppDisplayMode>;
	/** Asks the person where to save `file` and saves it; resolves false when they cancelled. Absent: no downloads. */
	saveFile?(file: AppFile): Promise<boolean>;
}

export interface AppBridgeOptions {
	/** The app's server (names log lines and errors). */
	server: string;
	/** The app's resource URI. */
	uri: string;
	/** The tool whose call instantiated the app. */
	tool: Tool;
	/** The arguments of that call (`ui/notifications/tool-input`). */
	arguments: Record<string, unknown>;
	hostInfo: { name: string; version: string };
	/** Theme, styles, locale, display mode… (spec: `HostContext`); changes go through setHostContext. */
	hostContext: Record<string, unknown>;
	/** The display modes this host really offers (`availableDisplayModes`); the context's `displayMode` is the current one. */
	displayModes: readonly AppDisplayMode[];
	/** The origins the app's policy allows (reported in `hostCapabilities.sandbox.csp`). */
	csp: AppCspDeclaration;
	/** Sends a message into the app's frame. */
	post(message: JsonRpcMessage): PromiseLike<unknown> | void;
	logger: Logger;
	clock?: Clock;
	/** Rate limit of the channel (see AppChannel). */
	perSecond?: number;
	burst?: number;
}

type Phase = 'waiting' | 'initializing' | 'ready' | 'closed';

function object(value: unknown): Record<string, unknown> | undefined {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: undefined;
}

function denied(message: string): McpError {
	return new McpError(APP_REQUEST_DENIED, message);
}

/** A pixel size from the app: a finite number ≥ 0, capped so a hostile value cannot blow up the layout. */
function pixels(value: unknown): number | undefined {
	return typeof value === 'number' && Number.isFinite(value) && value >= 0
		? Math.min(Math.round(value), 100_000)
		: undefined;
}

export class AppBridge {
	readonly channel: AppChannel;
	private readonly connection: JsonRpcConnection;
	private phase: Phase = 'waiting';
	/** Notifications held until the app says `ui/notifications/initialized` ("Host MUST NOT send … before"). */
	private held: Array<{ method: string; params: Record<string, unknown> }> = [];
	private outcomeSent = false;
	private context: Record<string, unknown>;
	private readonly initialized = new Emitter<{ appInfo: unknown }>();
	/** The app finished the handshake (`ui/notifications/initialized`). */
	readonly onDidInitialize: Event<{ appInfo: unknown }> = this.initialized.event;
	/** The app's name and version from `ui/initialize`. */
	appInfo: { name?: string; version?: string } | undefined;
	/** The display modes the app declared (`appCapabilities.availableDisplayModes`); undefined when it declared none. */
	appDisplayModes: readonly AppDisplayMode[] | undefined;
	/** How the last `ui/resource-teardown` went: answered by the app, or not (error, timeout, never initialized). */
	teardownOutcome: 'answered' | 'unanswered' | undefined;
	/** One display-mode change at a time: a second request waits for the first. */
	private modeChange: Promise<unknown> = Promise.resolve();

	constructor(
		private readonly host: AppBridgeHost,
		private readonly options: AppBridgeOptions,
	) {
		const name = `${options.server} (app ${options.uri})`;
		this.context = { ...options.hostContext };
		this.channel = new AppChannel({
			post: (message) => options.post(message),
			logger: options.logger,
			name,
			perSecond: options.perSecond,
			burst: options.burst,
			now: options.clock ? () => options.clock!.now() : undefined,
		});
		this.connection = new JsonRpcConnection(this.channel, {
			name,
			logger: options.logger,
			clock: options.clock,
			timeoutMs: 10_000,
		});
		this.connection.setRequestHandler('ui/initialize', (params) => this.initialize(params));
		this.connection.setNotificationHandler('ui/notifications/initialized', () => this.ready());
		this.connection.setRequestHandler('tools/call', (params, context) => this.callTool(params, context.signal));
		this.connection.setRequestHandler('resources/read', (params, context) => this.readResource(params, context.signal));
		this.connection.setRequestHandler('ui/open-link', (params) => this.openLink(params));
		this.connection.setRequestHandler('ui/message', () => {
			throw denied(
				"Message sending denied: this app runs in MCP Switchboard's console, outside any chat conversation, so there is none to add it to",
			);
		});
		this.connection.setRequestHandler('ui/update-model-context', () => {
			throw denied(
				"Context update denied: this app runs in MCP Switchboard's console, where no model reads a conversation",
			);
		});
		this.connection.setRequestHandler('ui/request-display-mode', (params) => this.requestDisplayMode(params));
		if (host.saveFile)
			this.connection.setRequestHandler('ui/download-file', (params, context) =>
				this.downloadFile(params, context.signal),
			);
		this.connection.setNotificationHandler('notifications/message', (params) => this.log(params));
		this.connection.setNotificationHandler('ui/notifications/size-changed', (params) => {
			const width = pixels(params?.width);
			const height = pixels(params?.height);
			if (width !== undefined || height !== undefined)
				this.host.sizeChanged({
					...(width !== undefined ? { width } : {}),
					...(height !== undefined ? { height } : {}),
				});
		});
		this.connection.setNotificationHandler('ui/notifications/request-teardown', () => this.host.requestTeardown());
	}

	/** True once the app finished the handshake. */
	get isReady(): boolean {
		return this.phase === 'ready';
	}

	/** Passes one message the app posted (anything at all: the channel and the connection sort it out). */
	receive(message: unknown): void {
		this.channel.receive(message);
	}

	/** The tool's result (`ui/notifications/tool-result`), sent at once or right after the handshake. Once. */
	toolResult(result: CallToolResult): void {
		if (this.outcomeSent) return;
		this.outcomeSent = true;
		this.notify('ui/notifications/tool-result', result);
	}

	/** The call ended without a result (`ui/notifications/tool-cancelled`). Once, instead of a result. */
	toolCancelled(reason: string): void {
		if (this.outcomeSent) return;
		this.outcomeSent = true;
		this.notify('ui/notifications/tool-cancelled', { reason });
	}

	/** The host context as the app knows it now (theme, styles, size…; what `ui/initialize` and each change sent). */
	get hostContext(): Readonly<Record<string, unknown>> {
		return this.context;
	}

	/** Merges a change of theme, styles or size into the context and tells the app (`host-context-changed`). */
	setHostContext(change: Record<string, unknown>): void {
		this.context = { ...this.context, ...change };
		if (this.phase === 'ready') this.notify('ui/notifications/host-context-changed', change);
	}

	/**
	 * Tells the app it is about to go (`ui/resource-teardown`) and waits for its answer, at most `timeoutMs`
	 * (default 2000), then closes the channel. "Host SHOULD wait for a response before tearing down the resource."
	 */
	async teardown(reason: string, timeoutMs = 2000): Promise<void> {
		this.teardownOutcome = 'unanswered';
		if (this.phase === 'ready') {
			await this.connection.request('ui/resource-teardown', { reason }, { timeoutMs }).then(
				() => {
					this.teardownOutcome = 'answered';
					this.options.logger.info(`app ${this.options.uri}: answered ui/resource-teardown (${reason})`);
				},
				(error: unknown) =>
					this.options.logger.info(
						`app ${this.options.uri}: no answer to ui/resource-teardown (${reason}): ${errorMessage(error)}`,
					),
			);
		}
		await this.dispose();
	}

	/** True once the bridge is closed: nothing reaches the app any more, and nothing it sends is handled. */
	get isClosed(): boolean {
		return this.phase === 'closed';
	}

	/** The display mode the app is shown in now. */
	get displayMode(): AppDisplayMode {
		const mode = this.context.displayMode;
		return DISPLAY_MODES.includes(mode as AppDisplayMode) ? (mode as AppDisplayMode) : 'inline';
	}

	/** Closes the channel; requests of the app in flight are aborted and answered no more. */
	async dispose(): Promise<void> {
		if (this.phase === 'closed') return;
		this.phase = 'closed';
		this.held = [];
		this.initialized.dispose();
		await this.connection.close();
	}

	private notify(method: string, params: Record<string, unknown>): void {
		if (this.phase === 'closed') return;
		if (this.phase !== 'ready') {
			this.held.push({ method, params });
			return;
		}
		this.connection
			.notify(method, params)
			.catch((error: unknown) =>
				this.options.logger.warn(`app ${this.options.uri}: could not send ${method}: ${String(error)}`),
			);
	}

	private initialize(params: Record<string, unknown> | undefined): Record<string, unknown> {
		if (this.phase !== 'waiting') throw new McpError(ErrorCode.InvalidRequest, 'ui/initialize was already answered');
		const appInfo = object(params?.appInfo);
		const declared = object(params?.appCapabilities)?.availableDisplayModes;
		this.appDisplayModes = Array.isArray(declared)
			? declared.filter((mode): mode is AppDisplayMode => DISPLAY_MODES.includes(mode as AppDisplayMode))
			: undefined;
		this.appInfo = appInfo
			? {
					...(typeof appInfo.name === 'string' ? { name: appInfo.name } : {}),
					...(typeof appInfo.version === 'string' ? { version: appInfo.version } : {}),
				}
			: undefined;
		this.phase = 'initializing';
		this.options.logger.info(
			`app ${this.options.uri}: ${this.appInfo?.name ?? 'an app'} ${this.appInfo?.version ?? ''} connected (Apps protocol ${typeof params?.protocolVersion === 'string' ? params.protocolVersion : 'unknown'})`,
		);
		return {
			protocolVersion: APPS_PROTOCOL_VERSION,
			hostInfo: this.options.hostInfo,
			hostCapabilities: {
				openLinks: {},
				serverTools: {},
				serverResources: {},
				logging: {},
				...(this.host.saveFile ? { downloadFile: {} } : {}),
				// Nothing of `permissions` is granted: a VS Code webview cannot pass camera, microphone or geolocation on.
				sandbox: { permissions: {}, csp: this.options.csp },
			},
			hostContext: {
				...this.context,
				availableDisplayModes: [...this.options.displayModes],
				toolInfo: { tool: this.options.tool },
			},
		};
	}

	private ready(): void {
		if (this.phase !== 'initializing') {
			this.options.logger.warn(
				`app ${this.options.uri}: ignored ui/notifications/initialized ${this.phase === 'ready' ? 'sent twice' : 'before ui/initialize'}`,
			);
			return;
		}
		this.phase = 'ready';
		// "Host MUST send this notification with the complete tool arguments after the View's initialize request completes."
		const held = this.held;
		this.held = [];
		this.notify('ui/notifications/tool-input', { arguments: this.options.arguments });
		for (const { method, params } of held) this.notify(method, params);
		this.initialized.fire({ appInfo: this.appInfo });
	}

	private requireHandshake(method: string): void {
		if (this.phase === 'waiting')
			throw new McpError(ErrorCode.InvalidRequest, `${method} before ui/initialize: the app must initialize first`);
	}

	private async callTool(params: Record<string, unknown> | undefined, signal: AbortSignal): Promise<CallToolResult> {
		this.requireHandshake('tools/call');
		const name = params?.name;
		if (typeof name !== 'string' || name === '')
			throw McpError.invalidParams("tools/call needs the tool's name (a string)");
		if (params?.arguments !== undefined && !object(params.arguments))
			throw McpError.invalidParams('tools/call arguments must be an object');
		const args = object(params?.arguments) ?? {};
		const tool = this.host.tool(name);
		if (!tool)
			throw McpError.invalidParams(
				`MCP server '${this.options.server}' has no tool named '${name}' (an app may call only its own server's tools)`,
			);
		if (!callableByApp(tool)) {
			this.options.logger.warn(
				`app ${this.options.uri}: refused its call of '${name}': the tool's _meta.ui.visibility does not include "app"`,
			);
			throw denied(`The tool '${name}' is not callable by apps (its _meta.ui.visibility does not include "app")`);
		}
		const refusal = this.host.refusal(tool);
		if (refusal !== undefined) {
			this.options.logger.warn(`app ${this.options.uri}: refused its call of '${name}': ${refusal}`);
			throw denied(refusal);
		}
		this.options.logger.info(`app ${this.options.uri}: calls ${name}`);
		return this.host.callTool(tool, args, signal);
	}

	private readResource(params: Record<string, unknown> | undefined, signal: AbortSignal): Promise<ReadResourceResult> {
		this.requireHandshake('resources/read');
		const uri = params?.uri;
		if (typeof uri !== 'string' || uri === '')
			throw McpError.invalidParams("resources/read needs the resource's uri (a string)");
		return this.host.readResource(uri, signal);
	}

	private async openLink(params: Record<string, unknown> | undefined): Promise<Record<string, unknown>> {
		this.requireHandshake('ui/open-link');
		const text = params?.url;
		let url: URL | undefined;
		try {
			url = typeof text === 'string' ? new URL(text) : undefined;
		} catch {
			url = undefined;
		}
		if (!url || !['http:', 'https:', 'mailto:'].includes(url.protocol)) {
			this.options.logger.warn(
				`app ${this.options.uri}: refused to open ${JSON.stringify(text)?.slice(0, 200)}: only http, https and mailto links open`,
			);
			throw denied('Invalid URL: only http, https and mailto links can be opened');
		}
		if (!(await this.host.openLink(url.href))) throw denied('Link opening denied by user');
		return {};
	}

	/**
	 * `ui/request-display-mode`. "Host MUST NOT switch the View to a display mode that does not appear in its
	 * `appCapabilities.availableDisplayModes`, if set"; "If the requested mode is not available, Host SHOULD return the
	 * current display mode"; "Host MUST return the resulting mode". A mode the spec does not know is InvalidParams.
	 */
	private async requestDisplayMode(params: Record<string, unknown> | undefined): Promise<{ mode: AppDisplayMode }> {
		this.requireHandshake('ui/request-display-mode');
		const mode = params?.mode;
		if (!DISPLAY_MODES.includes(mode as AppDisplayMode))
			throw McpError.invalidParams(
				`ui/request-display-mode needs \`mode\`: one of ${DISPLAY_MODES.join(', ')} (got ${JSON.stringify(mode)?.slice(0, 60)})`,
			);
		const wanted = mode as AppDisplayMode;
		const change = this.modeChange.then(async () => {
			const current = this.displayMode;
			if (wanted === current || this.phase === 'closed') return current;
			const why = !this.options.displayModes.includes(wanted)
				? `this host offers ${this.options.displayModes.join(' and ')}`
				: this.appDisplayModes && !this.appDisplayModes.includes(wanted)
					? 'the app did not declare it in appCapabilities.availableDisplayModes'
					: undefined;
			if (why !== undefined) {
				this.options.logger.info(
					`app ${this.options.uri}: asked for display mode ${wanted}, not switched (${why}); stays ${current}`,
				);
				return current;
			}
			const now = await this.host.setDisplayMode(wanted);
			if (now !== current) this.setHostContext({ displayMode: now });
			return now;
		});
		this.modeChange = change.catch(() => undefined);
		return { mode: await change };
	}

	/** `ui/download-file`: each item checked (appDownload.ts), links read from the app's server, then saved by the person. */
	private async downloadFile(
		params: Record<string, unknown> | undefined,
		signal: AbortSignal,
	): Promise<Record<string, unknown>> {
		this.requireHandshake('ui/download-file');
		let items: DownloadItem[];
		try {
			items = parseDownloadRequest(params);
		} catch (error) {
			this.options.logger.warn(`app ${this.options.uri}: refused ui/download-file: ${errorMessage(error)}`);
			throw error;
		}
		let saved = 0;
		for (const item of items) {
			const file = item.kind === 'embedded' ? item : await this.linkedFile(item, signal);
			if (signal.aborted || this.phase === 'closed') throw denied('Download cancelled: the app was closed');
			if (!(await this.host.saveFile!(file))) {
				this.options.logger.info(`app ${this.options.uri}: the person did not save ${file.fileName}`);
				throw denied(`Download denied by user${items.length > 1 ? ` (${saved} of ${items.length} saved)` : ''}`);
			}
			saved++;
			this.options.logger.info(`app ${this.options.uri}: saved ${file.fileName} (${file.bytes.byteLength} bytes)`);
		}
		return {};
	}

	private async linkedFile(item: Extract<DownloadItem, { kind: 'link' }>, signal: AbortSignal): Promise<AppFile> {
		const read = await this.host.readResource(item.uri, signal);
		const content = read.contents[0] as { text?: unknown; blob?: unknown; mimeType?: unknown } | undefined;
		const bytes =
			typeof content?.text === 'string'
				? new TextEncoder().encode(content.text)
				: typeof content?.blob === 'string'
					? new Uint8Array(Buffer.from(content.blob, 'base64'))
					: undefined;
		if (!bytes) throw denied(`Invalid content: ${item.uri} has no text or blob to save`);
		return {
			fileName: item.fileName,
			mimeType: item.mimeType ?? (typeof content?.mimeType === 'string' ? content.mimeType : undefined),
			bytes,
		};
	}

	private log(params: Record<string, unknown> | undefined): void {
		const level = LOGGING_LEVELS.includes(params?.level as LoggingLevel) ? (params?.level as LoggingLevel) : 'info';
		const data = params?.data;
		let text = typeof data === 'string' ? data : (JSON.stringify(data) ?? String(data));
		if (text.length > 2000) text = `${text.slice(0, 1999)}…`;
		const logger = typeof params?.logger === 'string' ? ` [${params.logger.slice(0, 80)}]` : '';
		this.host.log(level, `${logger ? `${logger.trim()} ` : ''}${text}`);
	}
}
