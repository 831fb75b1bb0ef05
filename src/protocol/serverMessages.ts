/**
 * What the server sends the client on its own: notifications (list changes, resource updates, log messages,
 * progress, task status) turned into events, and requests (roots, sampling, elicitation, the tasks the server runs on
 * the client) routed to the host's handlers. A method without a handler is answered MethodNotFound by the connection.
 */
import type { Emitter } from '../common/event';
import type { Logger } from '../common/logger';
import type { ClientHandlers } from './clientOptions';
import type { JsonRpcConnection } from './connection';
import { McpError } from './mcpError';
import { schemas, type LoggingMessage, type Progress } from './schema';
import { relatedTaskId, withRelatedTask } from './tasks/task';
import type { TaskReceiver } from './tasks/taskReceiver';
import type { TaskRequestor } from './tasks/taskRequestor';
import { isRecord } from '../common/records';

/** Where the server's notifications go. */
export interface NotificationSinks {
	readonly name: string;
	readonly logger: Logger;
	/** False for a change notification tagged with a `subscriptions/listen` this client cancelled (a duplicate). */
	accepts(params: Record<string, unknown> | undefined): boolean;
	/** `notifications/subscriptions/acknowledged` (2026-07-28). */
	acknowledged(params: Record<string, unknown> | undefined): void;
	readonly tools: Emitter<void>;
	readonly prompts: Emitter<void>;
	readonly resources: Emitter<void>;
	readonly resourceUpdated: Emitter<{ uri: string }>;
	readonly log: Emitter<LoggingMessage>;
	readonly progress: Emitter<Progress>;
	readonly elicitationComplete: Emitter<{ elicitationId: string }>;
	readonly tasks: Pick<TaskRequestor, 'handleStatusNotification' | 'handleProgress'>;
}

/** Turns the server's notifications into the sinks' events. */
export function registerNotifications(connection: JsonRpcConnection, sinks: NotificationSinks): void {
	const live = (params: Record<string, unknown> | undefined) => sinks.accepts(params);
	connection.setNotificationHandler('notifications/tools/list_changed', (params) => {
		if (live(params)) sinks.tools.fire();
	});
	connection.setNotificationHandler('notifications/prompts/list_changed', (params) => {
		if (live(params)) sinks.prompts.fire();
	});
	connection.setNotificationHandler('notifications/resources/list_changed', (params) => {
		if (live(params)) sinks.resources.fire();
	});
	connection.setNotificationHandler('notifications/subscriptions/acknowledged', (params) => sinks.acknowledged(params));
	connection.setNotificationHandler('notifications/resources/updated', (params) => {
		if (!live(params)) return;
		if (typeof params?.uri === 'string') {
			sinks.resourceUpdated.fire({ uri: params.uri });
		} else {
			sinks.logger.warn(`${sinks.name}: ignored notifications/resources/updated without a uri`);
		}
	});
	connection.setNotificationHandler('notifications/message', (params) => {
		const parsed = schemas().LoggingMessageNotificationSchema.safeParse(params);
		if (parsed.success) {
			sinks.log.fire(parsed.data);
		} else {
			sinks.logger.warn(`${sinks.name}: ignored an invalid notifications/message`);
		}
	});
	connection.setNotificationHandler('notifications/tasks/status', (params) =>
		sinks.tasks.handleStatusNotification(params),
	);
	// The tasks extension's notification (on a subscriptions/listen stream that asked for the task's id).
	connection.setNotificationHandler('notifications/tasks', (params) =>
		sinks.tasks.handleStatusNotification(params, 'notifications/tasks'),
	);
	connection.setNotificationHandler('notifications/progress', (params) => {
		// A task's progress comes after its creating request was answered: routed by the task's own token.
		sinks.tasks.handleProgress(params);
		// Cheap checks: progress can be frequent. The request's own onProgress already ran.
		if (sinks.progress.hasListeners && params && typeof params.progress === 'number') {
			sinks.progress.fire(params as Progress);
		}
	});
	connection.setNotificationHandler('notifications/elicitation/complete', (params) => {
		if (typeof params?.elicitationId === 'string') {
			sinks.elicitationComplete.fire({ elicitationId: params.elicitationId });
		}
	});
}

/** What routing the server's requests needs. */
export interface ServerRequestRouting {
	readonly name: string;
	readonly logger: Logger;
	readonly handlers: ClientHandlers;
	/** The tasks the server starts on this client; present when `handlers.tasks`. */
	readonly receiver: TaskReceiver | undefined;
	/** Throws when the era in use forbids the server's request (2026-07-28 servers ask inside results). */
	checkRequest(method: string): void;
}

/**
 * The answer to a server request that belongs to a task carries the task's id too: "All requests, notifications,
 * and responses related to a task MUST include the io.modelcontextprotocol/related-task key in their _meta field".
 */
function answerRelated<T extends object>(params: Record<string, unknown> | undefined, result: T): T {
	const taskId = relatedTaskId(params);
	return taskId === undefined ? result : withRelatedTask(result, taskId);
}

/** The host's roots, checked like a server's answer: a wrong shape must not reach the server as if it were valid. */
function checkedRoots(routing: ServerRequestRouting, roots: unknown): Record<string, unknown> {
	const parsed = schemas().ListRootsResultSchema.safeParse({ roots });
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		const path = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
		const message = `${routing.name}: the roots handler returned an invalid answer to roots/list: at ${path}: ${issue?.message ?? 'invalid'}`;
		routing.logger.error(message);
		throw McpError.internal(message);
	}
	return parsed.data;
}

/** Routes server requests to the host's handlers; a method without a handler is answered MethodNotFound. */
export function registerServerRequests(connection: JsonRpcConnection, routing: ServerRequestRouting): void {
	const { roots, sampling, elicitation } = routing.handlers;
	const receiver = routing.receiver;
	if (roots) {
		connection.setRequestHandler('roots/list', async (_params, context) => {
			routing.checkRequest('roots/list');
			return checkedRoots(routing, await roots(context.signal));
		});
	}
	if (sampling) {
		connection.setRequestHandler('sampling/createMessage', async (params, context) => {
			routing.checkRequest('sampling/createMessage');
			const parsed = schemas().CreateMessageRequestSchema.safeParse(params);
			if (!parsed.success) {
				throw McpError.invalidParams(
					`Invalid sampling/createMessage request: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
				);
			}
			if (receiver && isRecord(params?.task)) {
				return receiver.create('sampling/createMessage', params.task, (taskSignal) =>
					sampling(parsed.data, taskSignal),
				);
			}
			return answerRelated(params, await sampling(parsed.data, context.signal));
		});
	}
	if (elicitation) {
		connection.setRequestHandler('elicitation/create', async (params, context) => {
			routing.checkRequest('elicitation/create');
			const parsed = schemas().ElicitRequestSchema.safeParse(params);
			if (!parsed.success) {
				throw McpError.invalidParams(
					`Invalid elicitation/create request: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
				);
			}
			if (parsed.data.mode === 'url' && !routing.handlers.elicitationUrl) {
				throw McpError.invalidParams('This client does not support URL mode elicitation');
			}
			if (receiver && isRecord(params?.task)) {
				return receiver.create('elicitation/create', params.task, (taskSignal) => elicitation(parsed.data, taskSignal));
			}
			return answerRelated(params, await elicitation(parsed.data, context.signal));
		});
	}
	if (receiver) {
		connection.setRequestHandler('tasks/get', (params) => receiver.get(params));
		connection.setRequestHandler('tasks/result', (params) => receiver.result(params));
		connection.setRequestHandler('tasks/cancel', (params) => receiver.cancel(params));
		connection.setRequestHandler('tasks/list', (params) => receiver.list(params));
	}
}
