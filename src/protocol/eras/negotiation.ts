/**
 * Which era and version a connection speaks, decided from what the server answered: pure functions, no I/O, so each
 * rule is a row of a table test (test/unit/negotiation.test.ts). negotiate.ts sends the requests and follows these
 * verdicts. Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning and
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation
 */
import type { ProtocolEra } from '../clientOptions';
import { ErrorCode } from '../jsonrpc';
import { isLocalFailure, McpError } from '../mcpError';
import { modernRequestMeta } from '../modern/onFirstUse';
import { ALL_PROTOCOL_VERSIONS, isModernVersion, MODERN_PROTOCOL_VERSIONS } from '../protocolConstants';
import { parseResult } from '../resultChecks';
import { SUPPORTED_PROTOCOL_VERSIONS, type Schemas } from '../schema';
import type { TransportKind } from '../transports/transport';

/** A parsed `server/discover` answer. */
export type DiscoverResult = ReturnType<Schemas['DiscoverResultSchema']['parse']>;

/** What a connection knows before it sends anything. */
export interface ConnectInput {
	/** The server's configured name, for messages. */
	name: string;
	/** The pinned version; undefined: detect. */
	pinned: string | undefined;
	transportKind: TransportKind;
	/** What an earlier connection to the same server found. */
	knownEra: ProtocolEra | undefined;
}

/** The first step of a connection. */
export type ConnectPlan =
	/**
	 * `initialize` offering `offered` (newest first; the first is sent, any of them is accepted in the answer).
	 * `probeIfRefused`: a refusal, or an answer with a 2026-07-28 version, leads to the probe, not a failure.
	 * `probeWithoutBackChannel`: a handshake that gives the server no way to send requests (Streamable HTTP without a
	 * session) is followed by the probe, and 2026-07-28 is used if the server speaks it.
	 */
	| {
			first: 'initialize';
			offered: readonly string[];
			probeIfRefused: boolean;
			probeWithoutBackChannel: boolean;
			note?: string;
	  }
	/** `server/discover` with the newest of `modernAllowed`; `pinned`: no fallback to `initialize`. */
	| { first: 'probe'; modernAllowed: readonly string[]; pinned: boolean }
	/** Nothing to send: the pin names a version this client does not speak. */
	| { first: 'refuse'; error: McpError };

/**
 * How a connection starts: the era policy of `auto`. A server that speaks both eras is spoken to in 2025-11-25 where
 * that era has a back-channel for the server's own requests (stdio; Streamable HTTP with a session), because servers
 * ask the user mid-call with requests (`ctx.elicit` in the Python SDK and fastmcp), which 2026-07-28 refuses; so
 * `initialize` goes first. 2026-07-28 is used where it is needed: a server that refuses `initialize` or answers it
 * with 2026-07-28, stateless HTTP (no session: no back-channel), a server remembered as modern, or a pin. Asking
 * `initialize` first is also what lets a stdio server that speaks both stay in 2025-11-25 (the Python SDK fixes a
 * connection's era with its first request). Legacy HTTP+SSE is always 2025-11-25 or older.
 */
export function planConnect(input: ConnectInput): ConnectPlan {
	const { pinned, name } = input;
	if (pinned !== undefined && !ALL_PROTOCOL_VERSIONS.includes(pinned)) {
		return {
			first: 'refuse',
			error: new McpError(
				ErrorCode.ProtocolViolation,
				`${name}: the pinned protocol version ${pinned} is not one this client speaks (${ALL_PROTOCOL_VERSIONS.join(', ')})`,
				{ pinned },
			),
		};
	}
	if (pinned !== undefined && !isModernVersion(pinned)) {
		// The pin is the version offered; an older handshake version in the answer is legal ("the server MUST respond
		// with another protocol version it supports") and accepted, a newer one is not.
		const offered = SUPPORTED_PROTOCOL_VERSIONS.slice(SUPPORTED_PROTOCOL_VERSIONS.indexOf(pinned as never));
		return {
			first: 'initialize',
			offered,
			probeIfRefused: false,
			probeWithoutBackChannel: false,
			note: `${name}: protocol pinned to ${pinned}: using initialize`,
		};
	}
	if (pinned !== undefined) {
		return { first: 'probe', modernAllowed: [pinned], pinned: true };
	}
	if (input.transportKind === 'sse') {
		// The HTTP+SSE transport of 2024-11-05 predates 2026-07-28: nothing to probe.
		return {
			first: 'initialize',
			offered: SUPPORTED_PROTOCOL_VERSIONS,
			probeIfRefused: false,
			probeWithoutBackChannel: false,
		};
	}
	if (input.knownEra === 'modern') {
		// It needed 2026-07-28 last time (it refused initialize, or had no session): probe first, as the spec describes.
		return { first: 'probe', modernAllowed: MODERN_PROTOCOL_VERSIONS, pinned: false };
	}
	return {
		first: 'initialize',
		offered: SUPPORTED_PROTOCOL_VERSIONS,
		probeIfRefused: true,
		// A server remembered as legacy had no 2026-07-28 to offer when it had no session; it is not asked again.
		probeWithoutBackChannel: input.knownEra !== 'legacy',
	};
}

/** What the server answered to `initialize`, and what the transport then offers. */
export interface InitializeAnswer {
	name: string;
	/** The version in the server's `initialize` result. */
	answered: string;
	plan: Extract<ConnectPlan, { first: 'initialize' }>;
	/** The server can send requests of its own: stdio, or Streamable HTTP that handed out a session. */
	backChannel: boolean;
}

/** What to do after an answer to `initialize`. */
export type InitializeVerdict =
	/** Take it: the handshake era. */
	| { era: 'legacy' }
	/**
	 * Ask `server/discover` (`note` says why); 2026-07-28 if the server speaks it. `legacyOtherwise`: the answer is
	 * still good if the probe finds no 2026-07-28.
	 */
	| { era: 'probe'; legacyOtherwise: boolean; note: string }
	| { era: 'fail'; error: McpError };

/** The era policy applied to an `initialize` answer (see planConnect). */
export function classifyInitialize(answer: InitializeAnswer): InitializeVerdict {
	const { name, answered, plan } = answer;
	if (plan.probeIfRefused && isModernVersion(answered)) {
		return {
			era: 'probe',
			legacyOtherwise: false,
			note: `${name} answered initialize with ${answered}: a 2026-07-28 server; probing with server/discover`,
		};
	}
	const refusal = checkInitializeAnswer(name, answered, plan.offered);
	if (refusal) return { era: 'fail', error: refusal };
	if (!answer.backChannel && plan.probeWithoutBackChannel) {
		return {
			era: 'probe',
			legacyOtherwise: true,
			note: `${name}: no session, so ${answered} has no way for the server to ask the user; probing for 2026-07-28`,
		};
	}
	return { era: 'legacy' };
}

/**
 * After an `initialize` that `probeIfRefused` allowed to fail: true when its error ends the connection (the
 * connection closed, a thrown value that is no McpError, an answer this client cannot take, a failed sign-in, a
 * cancel), false when the probe should follow.
 */
export function initializeFailureIsFinal(error: unknown, closed: boolean): boolean {
	if (closed || !(error instanceof McpError)) return true;
	// A failed sign-in or a cancel is no refusal of `initialize`: probing would only sign in (and fail) again.
	return (
		error.code === ErrorCode.ProtocolViolation ||
		error.code === ErrorCode.Unauthorized ||
		error.code === ErrorCode.RequestCancelled
	);
}

/**
 * Whether `answered`, the version of an `initialize` result, may be spoken: one of the versions offered. "If the
 * client does not support the version in the server's response, it SHOULD disconnect."
 */
export function checkInitializeAnswer(
	name: string,
	answered: string,
	offered: readonly string[],
): McpError | undefined {
	if (offered.includes(answered)) return undefined;
	const offer = offered[0];
	return new McpError(
		ErrorCode.ProtocolViolation,
		`${name} answered with protocol version ${answered}, which this client does not speak through initialize (it offered ${offer}${offered.length > 1 ? `; it also accepts ${offered.slice(1).join(', ')}` : ''})`,
		{ offered: offer, answered },
	);
}

/** Where the probe stands when an answer comes. */
export interface ProbeState {
	name: string;
	/** The version the probe was sent with. */
	version: string;
	/** 0 for the first `server/discover`, 1 for the retry with a version the server named. */
	attempt: number;
	/** Pinned to a modern version: no fallback to `initialize`. */
	pinned: boolean;
	/** The modern versions this connection may use, newest first (one when pinned). */
	modernAllowed: readonly string[];
	/** The connection closed while the probe waited. */
	closed: boolean;
}

/** What to do after an answer to `server/discover`. `note` is worth an info line in the log. */
export type ProbeVerdict =
	| { era: 'modern'; version: string; result: DiscoverResult; raw: Record<string, unknown> }
	| { era: 'retry'; version: string; note: string }
	| { era: 'legacy'; versions?: string[]; timedOut?: boolean; note: string }
	| { era: 'fail'; error: unknown };

/**
 * An error answer to `server/discover`. "The server returns ... a recognized modern JSON-RPC error such as
 * UnsupportedProtocolVersionError: ... Use one of the versions in its advertised supported list. Do not fall back to
 * initialize. ... any other error, or does not respond within a reasonable timeout: the server is legacy."
 * Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio#backward-compatibility
 */
export function classifyProbeError(error: unknown, state: ProbeState): ProbeVerdict {
	const { name, version, pinned } = state;
	const { ModernErrorCode, explainModernError, isModernError, pickCommonVersion, supportedVersionsOf } =
		modernRequestMeta();
	if (error instanceof McpError && error.code === ModernErrorCode.UnsupportedProtocolVersion) {
		const supported = supportedVersionsOf(error);
		const common = pickCommonVersion(supported, state.modernAllowed);
		if (common !== undefined && state.attempt === 0) {
			return {
				era: 'retry',
				version: common,
				note: `${name}: the server does not speak ${version} (it supports ${supported.join(', ') || 'nothing it named'}); retrying server/discover with ${common}`,
			};
		}
		const legacy = pickCommonVersion(supported, SUPPORTED_PROTOCOL_VERSIONS);
		if (legacy !== undefined && !pinned) {
			return {
				era: 'legacy',
				versions: SUPPORTED_PROTOCOL_VERSIONS.filter((v) => supported.includes(v)),
				note: `${name}: the server supports ${supported.join(', ')}; using initialize with ${legacy}`,
			};
		}
		return {
			era: 'fail',
			error: new McpError(
				ErrorCode.ProtocolViolation,
				`${name} supports protocol versions ${supported.join(', ') || '(none named)'}; this client ${pinned ? `is pinned to ${version}` : `speaks ${ALL_PROTOCOL_VERSIONS.join(', ')}`}`,
				{ supported },
			),
		};
	}
	if (isModernError(error)) {
		return { era: 'fail', error: explainModernError(name, error, 'server/discover') };
	}
	// Not by code ConnectionClosed: a legacy server's own -32000 ("Server not initialized") shares it.
	if (
		state.closed ||
		(error instanceof McpError && (error.code === ErrorCode.Unauthorized || error.code === ErrorCode.RequestCancelled))
	) {
		return { era: 'fail', error };
	}
	const why = error instanceof McpError ? error.message : String(error);
	if (pinned) {
		return {
			era: 'fail',
			error: new McpError(
				ErrorCode.ProtocolViolation,
				`${name}: the protocol version is pinned to ${version}, but server/discover failed: ${why}`,
				{ pinned: version },
			),
		};
	}
	return {
		era: 'legacy',
		timedOut: isLocalFailure(error, 'timeout'),
		note: `${name}: server/discover failed (${why}): a server from before 2026-07-28; using initialize`,
	};
}

/** A result of `server/discover` (its `resultType` already checked): a modern server, or a legacy one that answers anything. */
export function classifyDiscover(raw: Record<string, unknown>, state: ProbeState): ProbeVerdict {
	const { name, pinned } = state;
	if (!pinned && raw.supportedVersions === undefined && raw.resultType === undefined) {
		// Some legacy servers answer every unknown method with an empty success: that is not a DiscoverResult.
		return {
			era: 'legacy',
			note: `${name}: server/discover was answered without supportedVersions: a server from before 2026-07-28; using initialize`,
		};
	}
	let result: DiscoverResult;
	try {
		result = parseResult(name, 'DiscoverResultSchema', raw, 'server/discover');
	} catch (error) {
		return { era: 'fail', error };
	}
	const version = modernRequestMeta().pickCommonVersion(result.supportedVersions, state.modernAllowed);
	if (version !== undefined) return { era: 'modern', version, result, raw };
	const legacy = SUPPORTED_PROTOCOL_VERSIONS.filter((v) => result.supportedVersions.includes(v));
	if (legacy.length > 0 && !pinned) {
		return {
			era: 'legacy',
			versions: legacy,
			note: `${name}: server/discover lists ${result.supportedVersions.join(', ')}; using initialize`,
		};
	}
	return {
		era: 'fail',
		error: new McpError(
			ErrorCode.ProtocolViolation,
			`${name}: server/discover lists protocol versions ${result.supportedVersions.join(', ') || '(none)'}; this client ${pinned ? `is pinned to ${state.modernAllowed.join(', ')}` : `speaks ${ALL_PROTOCOL_VERSIONS.join(', ')}`}`,
			{ supported: result.supportedVersions },
		),
	};
}

/**
 * After the short probe timed out and `initialize` then failed: true when the failure is a modern error, i.e. a
 * 2026-07-28 server that was slower to start than the probe's timeout refused `initialize`, so ask again.
 */
export function isSlowModernServer(error: unknown, probeTimedOut: boolean, closed: boolean): boolean {
	return probeTimedOut && !closed && modernRequestMeta().isModernError(error);
}
