// Round trips over stdio against the raw bench server: sequential tools/call echo (p50, p99) and
// 10,000 calls with 64 in flight (calls/s). Also the client process's CPU time per call (user + system), which
// holds steadier than latency on a shared machine: latency there is mostly the scheduler waking two processes.
import { CLIENTS, connectClient } from '../lib/clients.mjs';
import { interleave, median, parallel as parallelCalls, sequential as sequentialCalls } from '../lib/stats.mjs';

export const name = 'stdio';

const SEQUENTIAL_CALLS = 2000;
const WARMUP_CALLS = 300;
const PARALLEL_CALLS = 10_000;
const IN_FLIGHT = 64;

const sequential = (client) => sequentialCalls(client, { calls: SEQUENTIAL_CALLS, warmup: WARMUP_CALLS });

export async function run({ rounds }) {
	const connections = {};
	// The floor column is the raw client with its server spawned as StdioTransport spawns it (own session, stderr piped,
	// see lib/clients.mjs): like for like with ours. The plain floor (server in our session, stderr inherited) is kept
	// as a second column; the SDK spawns its servers that way, so sdk/plain is its like-for-like ratio.
	const all = ['floorSameOptions', ...CLIENTS];
	for (const which of all) connections[which] = await connectClient(which);
	try {
		// Warm every client's JIT on the concurrent path too before measuring.
		for (const which of all) await parallelCalls(connections[which], 3000, IN_FLIGHT);
		const seq = await interleave(rounds, all, (which) => sequential(connections[which]));
		const par = await interleave(rounds, all, (which) => parallelCalls(connections[which], PARALLEL_CALLS, IN_FLIGHT));
		const pick = (results, key) => {
			const value = (client) => median(results[client].map((r) => r[key]));
			return { floor: value('floorSameOptions'), plainFloor: value('floor'), ours: value('ours'), sdk: value('sdk') };
		};
		return [
			{
				scenario: 'stdio',
				metric: 'sequential tools/call echo p50',
				unit: 'µs',
				target: '<= 1.1x',
				...pick(seq, 'p50'),
			},
			{ scenario: 'stdio', metric: 'sequential tools/call echo p99', unit: 'µs', ...pick(seq, 'p99') },
			{ scenario: 'stdio', metric: 'sequential: client CPU per call', unit: 'µs', ...pick(seq, 'cpu') },
			{
				scenario: 'stdio',
				metric: `${PARALLEL_CALLS} calls, ${IN_FLIGHT} in flight`,
				unit: 'calls/s',
				lowerIsBetter: false,
				target: '<= 1.3x',
				...pick(par, 'rate'),
			},
			{ scenario: 'stdio', metric: `${IN_FLIGHT} in flight: client CPU per call`, unit: 'µs', ...pick(par, 'cpu') },
		];
	} finally {
		for (const which of all) await connections[which].close();
	}
}
