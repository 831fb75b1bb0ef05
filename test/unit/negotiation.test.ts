// The era negotiation as a table: what the client does first (planConnect), and what it concludes from each answer to
// server/discover (classifyProbeError, classifyDiscover) and to initialize (checkInitializeAnswer). Pure functions:
// no transport, no server; the I/O around them is covered by client.test.ts, modernClient.test.ts and the peers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
	initializeFailureIsFinal,
	checkInitializeAnswer,
	classifyDiscover,
	classifyInitialize,
	classifyProbeError,
	planConnect,
	type ConnectInput,
	type ProbeState,
} from '../../src/protocol/eras/negotiation';
import { ErrorCode } from '../../src/protocol/jsonrpc';
import { McpError } from '../../src/protocol/mcpError';
import { ModernErrorCode } from '../../src/protocol/modern/requestMeta';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../../src/protocol/protocolConstants';

const base: ConnectInput = { name: 'srv', pinned: undefined, transportKind: 'stdio', knownEra: undefined };

test('planConnect: the first request of a connection, by pin, transport and remembered era', () => {
	const rows: Array<[string, Partial<ConnectInput>, unknown]> = [
		[
			'a pin to a version this client does not speak is refused before anything is sent',
			{ pinned: '2099-01-01' },
			{ first: 'refuse' },
		],
		[
			'a pin to a handshake version: initialize offering it, accepting the older ones in the answer, no probe',
			{ pinned: '2025-06-18' },
			{ first: 'initialize', offered: ['2025-06-18', '2025-03-26', '2024-11-05'], probeIfRefused: false },
		],
		[
			'a pin to 2025-11-25 accepts a server that answers 2025-06-18 (issue 31)',
			{ pinned: '2025-11-25' },
			{ first: 'initialize', offered: SUPPORTED_PROTOCOL_VERSIONS, probeWithoutBackChannel: false },
		],
		[
			'a pin to 2026-07-28: server/discover with only it, no fallback',
			{ pinned: '2026-07-28' },
			{ first: 'probe', modernAllowed: ['2026-07-28'], pinned: true },
		],
		[
			'legacy HTTP+SSE predates 2026-07-28: initialize',
			{ transportKind: 'sse' },
			{ first: 'initialize', offered: SUPPORTED_PROTOCOL_VERSIONS, probeIfRefused: false },
		],
		[
			'an HTTP server remembered as legacy: initialize, probing if it is refused, not for a missing session',
			{ transportKind: 'http', knownEra: 'legacy' },
			{
				first: 'initialize',
				offered: SUPPORTED_PROTOCOL_VERSIONS,
				probeIfRefused: true,
				probeWithoutBackChannel: false,
			},
		],
		[
			'auto over stdio: initialize first (a server that speaks both keeps its back-channel), probing if refused',
			{},
			{
				first: 'initialize',
				offered: SUPPORTED_PROTOCOL_VERSIONS,
				probeIfRefused: true,
				probeWithoutBackChannel: true,
			},
		],
		[
			'auto over Streamable HTTP: initialize first too; without a session the probe follows',
			{ transportKind: 'http' },
			{ first: 'initialize', probeIfRefused: true, probeWithoutBackChannel: true },
		],
		[
			'a server remembered as modern (it needed 2026-07-28 before): server/discover first, as the spec describes',
			{ transportKind: 'http', knownEra: 'modern' },
			{ first: 'probe', modernAllowed: ['2026-07-28'], pinned: false },
		],
	];
	for (const [why, input, expected] of rows) {
		const plan = planConnect({ ...base, ...input }) as unknown as Record<string, unknown>;
		const picked = Object.fromEntries(Object.keys(expected as object).map((key) => [key, plan[key]]));
		assert.deepEqual(picked, expected, why);
	}
});

const probing: ProbeState = {
	name: 'srv',
	version: '2026-07-28',
	attempt: 0,
	pinned: false,
	modernAllowed: ['2026-07-28'],
	closed: false,
};

const unsupported = (supported: string[]) =>
	new McpError(ModernErrorCode.UnsupportedProtocolVersion, 'Unsupported protocol version', {
		supported,
		requested: '2026-07-28',
	});

test('classifyProbeError: each error answer to server/discover, and what the client does next', () => {
	const rows: Array<[string, unknown, Partial<ProbeState>, string, Record<string, unknown>?]> = [
		['-32022 naming a modern version: ask again with it', unsupported(['2026-07-28']), {}, 'retry'],
		[
			'-32022 naming a modern version again after the retry: a modern server that names nothing usable',
			unsupported(['2026-07-28']),
			{ attempt: 1 },
			'fail',
		],
		[
			'-32022 naming only handshake versions: initialize, offering those',
			unsupported(['2025-11-25', '2025-06-18']),
			{},
			'legacy',
			{ versions: ['2025-11-25', '2025-06-18'] },
		],
		[
			'-32022 naming handshake versions while pinned to 2026-07-28: refused',
			unsupported(['2025-11-25']),
			{ pinned: true },
			'fail',
		],
		['-32022 naming nothing this client speaks', unsupported(['2099-01-01']), {}, 'fail'],
		[
			'a modern HeaderMismatch: a modern server that refused; no fallback',
			new McpError(ModernErrorCode.HeaderMismatch, 'bad'),
			{},
			'fail',
		],
		['MethodNotFound: a legacy server', new McpError(ErrorCode.MethodNotFound, 'Method not found'), {}, 'legacy'],
		[
			'a legacy server\'s own -32000 ("Server not initialized"): legacy, not a closed connection',
			new McpError(-32000, 'Server not initialized'),
			{},
			'legacy',
		],
		[
			'silence until the probe timeout: legacy, remembered as timed out',
			new McpError(ErrorCode.RequestTimeout, 'timed out'),
			{},
			'legacy',
			{ timedOut: true },
		],
		['Unauthorized: the sign-in error goes to the caller', new McpError(ErrorCode.Unauthorized, 'sign in'), {}, 'fail'],
		['the caller cancelled', new McpError(ErrorCode.RequestCancelled, 'cancelled'), {}, 'fail'],
		['the connection closed while waiting', new McpError(ErrorCode.MethodNotFound, 'x'), { closed: true }, 'fail'],
		[
			'pinned to 2026-07-28 and the server does not know server/discover',
			new McpError(ErrorCode.MethodNotFound, 'x'),
			{ pinned: true },
			'fail',
		],
	];
	for (const [why, error, state, era, more] of rows) {
		const verdict = classifyProbeError(error, { ...probing, ...state }) as unknown as Record<string, unknown>;
		assert.equal(verdict.era, era, why);
		for (const [key, value] of Object.entries(more ?? {})) assert.deepEqual(verdict[key], value, `${why}: ${key}`);
	}
});

test('classifyDiscover: each result of server/discover', () => {
	const rows: Array<[string, Record<string, unknown>, Partial<ProbeState>, string, Record<string, unknown>?]> = [
		['an empty success (a legacy server that answers any method): legacy', {}, {}, 'legacy'],
		[
			'a DiscoverResult listing 2026-07-28: modern with it',
			{ supportedVersions: ['2026-07-28'], capabilities: {} },
			{},
			'modern',
			{ version: '2026-07-28' },
		],
		[
			"a DiscoverResult listing only handshake versions (the Go SDK's stateful default): initialize with those",
			{ supportedVersions: ['2025-11-25'], capabilities: {} },
			{},
			'legacy',
			{ versions: ['2025-11-25'] },
		],
		[
			'the same while pinned to 2026-07-28: refused',
			{ supportedVersions: ['2025-11-25'], capabilities: {} },
			{ pinned: true },
			'fail',
		],
		[
			'a malformed DiscoverResult: refused, naming the path',
			{ supportedVersions: 'all', capabilities: {} },
			{},
			'fail',
		],
	];
	for (const [why, raw, state, era, more] of rows) {
		const verdict = classifyDiscover(raw, { ...probing, ...state }) as unknown as Record<string, unknown>;
		assert.equal(verdict.era, era, why);
		for (const [key, value] of Object.entries(more ?? {})) assert.deepEqual(verdict[key], value, `${why}: ${key}`);
	}
});

test('checkInitializeAnswer: a version the client offered or accepts is taken; another is refused, naming both', () => {
	assert.equal(checkInitializeAnswer('srv', '2025-06-18', SUPPORTED_PROTOCOL_VERSIONS), undefined);
	assert.equal(checkInitializeAnswer('srv', '2024-11-05', SUPPORTED_PROTOCOL_VERSIONS), undefined);
	const refusal = checkInitializeAnswer('srv', '2099-01-01', SUPPORTED_PROTOCOL_VERSIONS);
	assert.match(refusal?.message ?? '', /srv answered with protocol version 2099-01-01.*offered 2025-11-25/);
	assert.equal(refusal?.code, ErrorCode.ProtocolViolation);
});

test('classifyInitialize: the era policy on an answer to initialize', () => {
	const auto = planConnect({ ...base, transportKind: 'http' });
	const remembered = planConnect({ ...base, transportKind: 'http', knownEra: 'legacy' });
	const pinned = planConnect({ ...base, pinned: '2025-11-25' });
	assert.ok(auto.first === 'initialize' && remembered.first === 'initialize' && pinned.first === 'initialize');
	const rows: Array<[string, string, typeof auto, boolean, string, boolean?]> = [
		['2025-11-25 with a back-channel (stdio, or HTTP with a session): 2025-11-25', '2025-11-25', auto, true, 'legacy'],
		['an older handshake version with a back-channel: taken', '2025-03-26', auto, true, 'legacy'],
		[
			'2025-11-25 over HTTP without a session (stateless): probe, keeping 2025-11-25 if there is no 2026-07-28',
			'2025-11-25',
			auto,
			false,
			'probe',
			true,
		],
		[
			'the same server remembered as legacy: 2025-11-25 without asking again',
			'2025-11-25',
			remembered,
			false,
			'legacy',
		],
		[
			'2026-07-28 in the answer (a server that speaks only it): probe, nothing to keep',
			'2026-07-28',
			auto,
			true,
			'probe',
			false,
		],
		['a version nobody offered: refused', '2099-01-01', auto, true, 'fail'],
		['pinned to 2025-11-25, the server answers 2025-06-18: taken (issue 31)', '2025-06-18', pinned, true, 'legacy'],
		['pinned to 2025-11-25, the server answers 2026-07-28: refused, no probe', '2026-07-28', pinned, true, 'fail'],
	];
	for (const [why, answered, plan, backChannel, era, legacyOtherwise] of rows) {
		const verdict = classifyInitialize({ name: 'srv', answered, plan, backChannel }) as Record<string, unknown>;
		assert.equal(verdict.era, era, why);
		if (legacyOtherwise !== undefined) assert.equal(verdict.legacyOtherwise, legacyOtherwise, why);
	}
});

test('an initialize that failed to sign in or was cancelled ends the connection; a refusal leads to the probe', () => {
	const rows: [unknown, boolean, boolean, string][] = [
		[new McpError(ErrorCode.Unauthorized, 'OAuth for srv: token request failed'), false, true, 'a failed sign-in'],
		[new McpError(ErrorCode.RequestCancelled, 'Cancelled'), false, true, 'a cancel'],
		[new McpError(ErrorCode.ProtocolViolation, 'bad answer'), false, true, 'an answer this client cannot take'],
		[new Error('boom'), false, true, 'no McpError'],
		[new McpError(ErrorCode.MethodNotFound, 'Method not found'), true, true, 'the connection closed'],
		[new McpError(ErrorCode.MethodNotFound, 'Method not found'), false, false, 'a server refusing initialize'],
		[new McpError(-32020, 'Unsupported protocol version'), false, false, 'a 2026-07-28 server refusing it'],
	];
	for (const [error, closed, final, why] of rows) assert.equal(initializeFailureIsFinal(error, closed), final, why);
});
