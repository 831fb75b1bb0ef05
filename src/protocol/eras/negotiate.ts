/**
 * The I/O of a connection's start: the requests negotiation.ts's verdicts call for (`initialize`, `server/discover`),
 * sent through the era objects that build them, until one era is settled. Returns the era the client then holds.
 */
import { ErrorCode } from '../jsonrpc';
import { McpError } from '../mcpError';
import { ALL_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS } from '../protocolConstants';
import { ensureComplete } from '../resultChecks';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../schema';
import type { EraContext } from './era';
import { LegacyEra } from './legacyEra';
import type { ModernEra } from './modernEra';
import { errorMessage } from '../../common/errors';
import type { InitializeResult } from '../schema';
import {
	checkInitializeAnswer,
	classifyDiscover,
	classifyInitialize,
	type ConnectPlan,
	classifyProbeError,
	initializeFailureIsFinal,
	isSlowModernServer,
	planConnect,
	type ProbeState,
	type ProbeVerdict,
} from './negotiation';

/** Long enough for an interpreter's start-up on a busy machine; a modern server slower than that is still found (see negotiateEra). */
const DEFAULT_STDIO_PROBE_TIMEOUT_MS = 10_000;

/**
 * Finds the server's era as planConnect and the classifiers decide (the era policy is described there): `initialize`
 * first, then `server/discover` when the server refuses it, answers it with 2026-07-28, or (HTTP) gives no session;
 * or `server/discover` first for a pin to 2026-07-28 or a server remembered as modern, with `initialize` after it for
 * a server that turns out legacy. Rejects with the McpError that ends the connection (see McpClient.connect).
 */
export async function negotiateEra(context: EraContext): Promise<LegacyEra | ModernEra> {
	const { options, transport, logger } = context;
	const plan = planConnect({
		name: context.name,
		pinned: options.protocolVersion,
		transportKind: transport.kind,
		knownEra: options.knownEra,
	});
	if (plan.first === 'refuse') throw plan.error;
	const legacy = new LegacyEra(context);
	if (plan.first === 'initialize') {
		const settled = await initializeFirst(context, legacy, plan);
		if (settled) return settled;
	}
	const pinned = plan.first === 'probe' && plan.pinned;
	const modern = newModernEra(context, plan.first === 'probe' ? plan.modernAllowed : undefined);
	// Pinned: nothing to fall back to, so the probe waits as long as a connection may (a slow start is no legacy server).
	const outcome = await probe(context, modern, pinned, !pinned);
	if (outcome.era === 'modern') return modern;
	modern.forgetVersion();
	try {
		await initialize(context, legacy, outcome.versions);
		return legacy;
	} catch (error) {
		if (!isSlowModernServer(error, outcome.timedOut === true, context.connection.isClosed)) throw error;
		// A modern server that was slower to start than the probe's timeout refuses initialize with a modern error.
		logger.info(
			`${context.name}: initialize was refused (${(error as McpError).message}): a 2026-07-28 server that was slow to answer server/discover; asking again`,
		);
		const again = await probe(context, modern, false, false);
		if (again.era !== 'modern') throw error;
		return modern;
	}
}

/**
 * The `initialize` a plan starts with, and what its answer decides: the settled era, or undefined when the probe
 * should run as if nothing had been sent (the server refused initialize).
 */
async function initializeFirst(
	context: EraContext,
	legacy: LegacyEra,
	plan: Extract<ConnectPlan, { first: 'initialize' }>,
): Promise<LegacyEra | ModernEra | undefined> {
	const { connection, logger, transport, name } = context;
	if (plan.note) logger.info(plan.note);
	let result: InitializeResult;
	try {
		result = await legacy.requestInitialize(plan.offered);
	} catch (error) {
		if (!plan.probeIfRefused || initializeFailureIsFinal(error, connection.isClosed)) throw error;
		logger.info(`${name}: initialize failed (${(error as McpError).message}); probing with server/discover`);
		return undefined;
	}
	const verdict = classifyInitialize({
		name,
		answered: result.protocolVersion,
		plan,
		backChannel: transport.kind !== 'http' || transport.sessionId !== undefined,
	});
	if (verdict.era === 'fail') throw verdict.error;
	if (verdict.era === 'legacy') {
		await legacy.adopt(result);
		return legacy;
	}
	logger.info(verdict.note);
	const modern = newModernEra(context);
	let outcome: Awaited<ReturnType<typeof probe>>;
	try {
		outcome = await probe(context, modern, false, true);
	} catch (error) {
		if (!verdict.legacyOtherwise || connection.isClosed) throw error;
		logger.info(`${name}: server/discover failed (${errorMessage(error)}); staying with ${result.protocolVersion}`);
		outcome = { era: 'legacy' };
	}
	if (outcome.era === 'modern') return modern;
	if (!verdict.legacyOtherwise) {
		throw new McpError(
			ErrorCode.ProtocolViolation,
			`${name} answered initialize with ${result.protocolVersion}, but server/discover did not confirm it; this client speaks ${ALL_PROTOCOL_VERSIONS.join(', ')}`,
			{ answered: result.protocolVersion },
		);
	}
	modern.forgetVersion();
	await legacy.adopt(result);
	return legacy;
}

/** `initialize` offering `offered`, refused unless the server answers one of them; then the handshake's end. */
async function initialize(
	context: EraContext,
	legacy: LegacyEra,
	offered: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS,
): Promise<void> {
	const result = await legacy.requestInitialize(offered);
	const refusal = checkInitializeAnswer(context.name, result.protocolVersion, offered);
	if (refusal) throw refusal;
	await legacy.adopt(result);
}

/** `server/discover` until a verdict: modern (adopted), or legacy (with the versions to offer). */
async function probe(
	context: EraContext,
	modern: ModernEra,
	pinned: boolean,
	short: boolean,
): Promise<{ era: 'modern' } | { era: 'legacy'; versions?: string[]; timedOut?: boolean }> {
	const { options, transport, logger, name } = context;
	const connectTimeout = options.connectTimeoutMs ?? options.timeoutMs;
	const probeTimeout = short
		? (options.probeTimeoutMs ?? (transport.kind === 'stdio' ? DEFAULT_STDIO_PROBE_TIMEOUT_MS : connectTimeout))
		: connectTimeout;
	const timeoutMs =
		probeTimeout === undefined
			? connectTimeout
			: connectTimeout === undefined
				? probeTimeout
				: Math.min(probeTimeout, connectTimeout);
	let version = modern.allowed[0] ?? MODERN_PROTOCOL_VERSIONS[0];
	for (let attempt = 0; ; attempt++) {
		modern.useVersion(version);
		const state = { name, version, attempt, pinned, modernAllowed: modern.allowed, closed: false };
		const verdict = await discoverOnce(context, modern, state, timeoutMs);
		switch (verdict.era) {
			case 'modern':
				modern.adoptDiscover(verdict.raw, verdict.result, verdict.version);
				return { era: 'modern' };
			case 'retry':
				logger.info(verdict.note);
				version = verdict.version;
				continue;
			case 'legacy':
				logger.info(verdict.note);
				return { era: 'legacy', versions: verdict.versions, timedOut: verdict.timedOut };
			case 'fail':
				throw verdict.error;
		}
	}
}

/** One `server/discover` and the verdict on its answer. */
async function discoverOnce(
	context: EraContext,
	modern: ModernEra,
	state: ProbeState,
	timeoutMs: number | undefined,
): Promise<ProbeVerdict> {
	let raw: Record<string, unknown>;
	try {
		raw = await modern.discover(timeoutMs === undefined ? undefined : { timeoutMs });
	} catch (error) {
		return classifyProbeError(error, { ...state, closed: context.connection.isClosed });
	}
	// Outside the try: a resultType other than "complete" is a broken answer, not the sign of a legacy server.
	return classifyDiscover(ensureComplete(context.name, 'server/discover', raw), state);
}

/** The 2026-07-28 era, loaded when a connection first tries it: an import of the core does not parse it (#28). */
function newModernEra(context: EraContext, allowed?: readonly string[]): ModernEra {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { ModernEra: Modern } = require('./modernEra') as typeof import('./modernEra');
	return new Modern(context, allowed);
}
