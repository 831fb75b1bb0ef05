/**
 * The handshake era, 2024-11-05 .. 2025-11-25: one `initialize` (version, capabilities, identities), then plain
 * JSON-RPC requests; the server asks the client with requests of its own (roots, sampling, elicitation) mid-call,
 * list changes come unasked, resources are subscribed with `resources/subscribe`, the log level is set with
 * `logging/setLevel`, and tool tasks are task-augmented requests the client asks for.
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
 */
import type { RequestOptions } from '../connectionOptions';
import type { ListenLists } from '../modern/subscriptions';
import { isPlainInitializeResult } from '../plainResults';
import { parseResult } from '../resultChecks';
import { LATEST_PROTOCOL_VERSION, type ClientCapabilities, type InitializeResult, type LoggingLevel } from '../schema';
import { DEFAULT_CLIENT_INFO } from '../clientOptions';
import { sharedCapabilities } from './capabilities';
import type { ClientEra, EraContext } from './era';

/** The legacy era of one connection. */
export class LegacyEra implements ClientEra {
	readonly kind = 'legacy';
	readonly tasksExtension = false;

	constructor(private readonly context: EraContext) {}

	/** Capabilities for `initialize`: roots with list changes, and the tasks the client serves (2025-11-25). */
	capabilities(): ClientCapabilities {
		const handlers = this.context.handlers;
		const capabilities = sharedCapabilities(handlers, { listChanged: true }, {});
		if (this.context.servesTasks) {
			// https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#client-capabilities
			const requests: Record<string, object> = {};
			if (handlers.sampling) requests.sampling = { createMessage: {} };
			if (handlers.elicitation) requests.elicitation = { create: {} };
			capabilities.tasks = { list: {}, cancel: {}, requests };
		}
		return capabilities;
	}

	/** Sends `initialize` offering `offered[0]` and resolves with the server's answer, checked against its schema. */
	async requestInitialize(offered: readonly string[]): Promise<InitializeResult> {
		const { connection, options, name } = this.context;
		const timeoutMs = options.connectTimeoutMs ?? options.timeoutMs;
		const raw = await connection.request(
			'initialize',
			{
				protocolVersion: offered[0] ?? LATEST_PROTOCOL_VERSION,
				capabilities: this.capabilities(),
				clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
			},
			timeoutMs === undefined ? undefined : { timeoutMs },
		);
		// The usual shape is checked structurally (plainResults.ts): a session that needs nothing else never loads zod.
		return isPlainInitializeResult(raw)
			? (raw as InitializeResult)
			: parseResult(name, 'InitializeResultSchema', raw, 'initialize');
	}

	/** Takes the server's `initialize` answer and ends the handshake with `notifications/initialized`. */
	async adopt(result: InitializeResult): Promise<void> {
		const { facts, transport, connection, logger, name } = this.context;
		facts.protocolVersion = result.protocolVersion;
		facts.serverCapabilities = result.capabilities;
		facts.serverInfo = result.serverInfo;
		facts.instructions = result.instructions;
		// HTTP transports send MCP-Protocol-Version on every request from now on.
		transport.setProtocolVersion?.(result.protocolVersion);
		await connection.notify('notifications/initialized');
		logger.info(
			`${name}: connected to ${result.serverInfo.name} ${result.serverInfo.version} (protocol ${result.protocolVersion})`,
		);
	}

	send(
		method: string,
		params: Record<string, unknown> | undefined,
		options: RequestOptions | undefined,
	): Promise<Record<string, unknown>> {
		return this.context.connection.request(method, params, options);
	}

	async subscribe(uri: string, options: RequestOptions | undefined): Promise<void> {
		const raw = await this.send('resources/subscribe', { uri }, options);
		parseResult(this.context.name, 'EmptyResultSchema', raw, 'resources/subscribe');
	}

	async unsubscribe(uri: string, options: RequestOptions | undefined): Promise<void> {
		const raw = await this.send('resources/unsubscribe', { uri }, options);
		parseResult(this.context.name, 'EmptyResultSchema', raw, 'resources/unsubscribe');
	}

	/** Legacy servers send list changes unasked: nothing to do. */
	listenForChanges(_lists: ListenLists): void {}

	/** `notifications/tasks/status` come unasked. */
	watchTasks(_taskIds: readonly string[]): void {}

	async setLoggingLevel(level: LoggingLevel, options: RequestOptions | undefined): Promise<void> {
		const raw = await this.context.connection.request('logging/setLevel', { level }, options);
		parseResult(this.context.name, 'EmptyResultSchema', raw, 'logging/setLevel');
	}

	async ping(options: RequestOptions | undefined): Promise<void> {
		await this.context.connection.request('ping', undefined, options);
	}

	async notifyRootsChanged(): Promise<void> {
		if (this.context.handlers.roots) {
			await this.context.connection.notify('notifications/roots/list_changed');
		}
	}

	/** Capabilities are fixed by the handshake. */
	refreshDiscoveryIfStale(): void {}

	/** Every server request of this era is allowed. */
	checkServerRequest(_method: string): void {}

	acceptsNotification(_params: Record<string, unknown> | undefined): boolean {
		return true;
	}

	acknowledged(_params: Record<string, unknown> | undefined): void {}

	close(): void {}
}
