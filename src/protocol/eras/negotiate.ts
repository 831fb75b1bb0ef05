/**
 * The I/O of a connection's start: the requests negotiation.ts's verdicts call for (`initialize`, `server/discover`),
 * sent through the era objects that build them, until one era is settled. Returns the era the client then holds.
 */
import type { McpError } from '../mcpError';
import { MODERN_PROTOCOL_VERSIONS } from '../protocolConstants';
import { ensureComplete } from '../resultChecks';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../schema';
import type { EraContext } from './era';
import { LegacyEra } from './legacyEra';
import { ModernEra } from './modernEra';
import {
	checkInitializeAnswer,
	classifyDiscover,
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
 * Finds the server's era: `server/discover` with 2026-07-28 in `_meta` (a modern server answers it or a modern error;
 * over HTTP the body of a 400 tells); anything else (another error, silence for `probeTimeoutMs` on stdio) means a
 * legacy server, which then gets `initialize` (offering 2025-11-25) and `notifications/initialized`. Legacy HTTP+SSE
 * servers are not probed. Rejects with the McpError that ends the connection (see McpClient.connect).
 */
export async function negotiateEra(context: EraContext): Promise<LegacyEra | ModernEra> {
	const { options, transport, connection, logger } = context;
	const plan = planConnect({
		name: context.name,
		pinned: options.protocolVersion,
		transportKind: transport.kind,
		knownEra: options.knownEra,
	});
	if (plan.first === 'refuse') throw plan.error;
	const legacy = new LegacyEra(context);
	if (plan.first === 'initialize') {
		if (plan.note) logger.info(plan.note);
		try {
			await initialize(context, legacy, plan.offered);
			return legacy;
		} catch (error) {
			if (!plan.probeIfRefused || initializeFailureIsFinal(error, connection.isClosed)) throw error;
			logger.info(`${context.name}: initialize failed (${(error as McpError).message}); probing with server/discover`);
		}
	}
	const pinned = plan.first === 'probe' && plan.pinned;
	const modern = new ModernEra(context, plan.first === 'probe' ? plan.modernAllowed : undefined);
	const outcome = await probe(context, modern, pinned, true);
	if (outcome.era === 'modern') return modern;
	modern.forgetVersion();
	try {
		await initialize(context, legacy, outcome.versions);
		return legacy;
	} catch (error) {
		if (!isSlowModernServer(error, outcome.timedOut === true, connection.isClosed)) throw error;
		// A modern server that was slower to start than the probe's timeout refuses initialize with a modern error.
		logger.info(
			`${context.name}: initialize was refused (${(error as McpError).message}): a 2026-07-28 server that was slow to answer server/discover; asking again`,
		);
		const again = await probe(context, modern, false, false);
		if (again.era !== 'modern') throw error;
		return modern;
	}
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
