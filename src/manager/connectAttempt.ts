/**
 * One connect attempt of a server: the connector run under the connect timeout (paused while the user signs in), and
 * what a failed attempt means for the restart policy (sign-in needed, a sign-in step that failed, worth retrying).
 */
import { ErrorCode } from '../protocol/jsonrpc';
import { isLocalFailure, McpError } from '../protocol/mcpError';
import { safeUrl } from '../protocol/transports/safeUrl';
import type { ClientHandlers, McpClient } from '../protocol/client';
import type { Clock } from './backoff';
import type { ConnectRequest, Connector } from './connectionTypes';
import type { DeprecatedFeature } from './deprecations';
import type { Host } from './host';
import type { ResolvedServer, ServerConfig, ServerState, SignInFailure } from './types';
import type { Logger } from '../common/logger';
import { errorMessage } from '../common/errors';
import { describeAsWritten } from './trustText';

/** A ConnectRequest without what the attempt adds itself (its timeout, abort signal and timeout hold). */
export type AttemptRequest = Omit<ConnectRequest, 'timeoutMs' | 'signal' | 'holdTimeout'>;

/** Runs the connector, abandoning it (and making it close what it opened) after `timeoutMs`. */
export function connectWithTimeout(
	connector: Connector,
	clock: Clock,
	request: AttemptRequest,
	timeoutMs: number,
	abort: AbortController,
): Promise<McpClient> {
	const config = request.config;
	return new Promise<McpClient>((resolve, reject) => {
		let settled = false;
		const onTimeout = () => {
			if (settled) return;
			settled = true;
			const what = config.type === 'stdio' ? `'${config.command}'` : safeUrl(config.url);
			const error = new McpError(
				ErrorCode.RequestTimeout,
				`Server '${request.name}' did not finish starting within ${Math.round(timeoutMs / 100) / 10} s (${what} gave no answer to initialize). Check that it is an MCP server, or raise "timeoutMs" in its configuration.`,
				{ timeoutMs },
			);
			abort.abort(error);
			reject(error);
		};
		let timer: { dispose(): void } = clock.setTimeout(onTimeout, timeoutMs);
		let holds = 0;
		const holdTimeout = () => {
			if (holds++ === 0) timer.dispose();
			let released = false;
			return () => {
				if (released) return;
				released = true;
				if (--holds === 0 && !settled) timer = clock.setTimeout(onTimeout, timeoutMs);
			};
		};
		const onAbort = () => {
			if (settled) return;
			settled = true;
			timer.dispose();
			reject(abort.signal.reason);
		};
		abort.signal.addEventListener('abort', onAbort, { once: true });
		connector({ ...request, timeoutMs, signal: abort.signal, holdTimeout }).then(
			(client) => {
				abort.signal.removeEventListener('abort', onAbort);
				if (settled) {
					void client.close().catch(() => undefined);
					return;
				}
				settled = true;
				timer.dispose();
				resolve(client);
			},
			(error: unknown) => {
				abort.signal.removeEventListener('abort', onAbort);
				if (settled) return;
				settled = true;
				timer.dispose();
				reject(error);
			},
		);
	});
}

/** Host features offered to the server, bound to its name; a feature the host lacks is not advertised. */
export function hostHandlers(
	host: Host,
	name: string,
	noteDeprecated: (feature: DeprecatedFeature, what: string) => void,
): ClientHandlers {
	const handlers: ClientHandlers = {};
	if (host.roots) {
		handlers.roots = () => {
			noteDeprecated('roots', 'The server asked for the roots');
			return [...host.roots!()];
		};
	}
	if (host.elicit) {
		handlers.elicitation = (params, signal) => host.elicit!(name, params, signal);
		handlers.elicitationUrl = host.elicitUrl !== false;
	}
	if (host.sample) {
		handlers.sampling = (params, signal) => {
			noteDeprecated('sampling', 'The server asked for a model completion (sampling)');
			return host.sample!(name, params, signal);
		};
		handlers.samplingTools = host.sampleTools !== false;
	}
	// The server may run our elicitation and sampling as tasks (MCP 2025-11-25): it polls them, the user answers meanwhile.
	if (host.elicit || host.sample) handlers.tasks = true;
	const extensions = host.extensions?.();
	if (extensions) handlers.extensions = extensions;
	return handlers;
}

/**
 * Asks the host whether a workspace-defined server may run (`ask`: the user's Start, which may show the question).
 * Resolves with the `needsTrust` state when it may not, or undefined when it may.
 */
export async function checkTrust(
	host: Host,
	server: ResolvedServer,
	ask: boolean,
	logger: Logger,
): Promise<Extract<ServerState, { kind: 'needsTrust' }> | undefined> {
	let allowed = false;
	try {
		allowed =
			(await host.confirmTrust?.(server.name, server.trustText ?? describeAsWritten(server.config), { ask })) === true;
	} catch (error) {
		logger.warn(`Trust check failed: ${errorMessage(error)}`);
	}
	if (allowed) return undefined;
	return {
		kind: 'needsTrust',
		refused: ask,
		reason: ask
			? `Server '${server.name}' is defined by the workspace (${server.source.label}) and was not allowed to run. Start it again to be asked again, or run "MCP Switchboard: Reset Server Trust Decisions".`
			: `Server '${server.name}' is defined by the workspace (${server.source.label}) and needs your permission to run: Start it to see what it runs and decide.`,
	};
}

/** Whether `error` is the OAuth client's "the sign-in waits for the user" (not a failure). */
export function signInRequired(error: unknown): boolean {
	if (!isLocalFailure(error, 'unauthorized')) return false;
	return (error.data as { signInRequired?: unknown } | undefined)?.signInRequired === true;
}

/** The OAuth step that failed and why, when `error` is the OAuth client's (its McpError data names both). */
export function signInFailure(error: unknown): SignInFailure | undefined {
	if (!isLocalFailure(error, 'unauthorized')) return undefined;
	const data = error.data as { step?: unknown; reason?: unknown } | undefined;
	return typeof data?.step === 'string' && typeof data.reason === 'string'
		? { step: data.step, reason: data.reason }
		: undefined;
}

/**
 * Whether trying again can help. A command that cannot be spawned (not found, not executable) or a refused
 * authorization fails the same way every time: show the error instead of looping.
 */
export function isRetryable(error: unknown, config: ServerConfig): boolean {
	if (!(error instanceof McpError)) return true;
	if (error.local === 'unauthorized') return false;
	if (error.local === 'transport' && config.type === 'stdio') return false;
	return true;
}
