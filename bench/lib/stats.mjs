// Small statistics helpers shared by the scenarios.

export function median(values) {
	const finite = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
	if (finite.length === 0) return undefined;
	const mid = finite.length >> 1;
	return finite.length % 2 ? finite[mid] : (finite[mid - 1] + finite[mid]) / 2;
}

/** The p-th percentile (0-100) of a list, nearest rank. */
export function percentile(values, p) {
	const sorted = [...values].sort((a, b) => a - b);
	if (sorted.length === 0) return undefined;
	const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
	return sorted[rank];
}

/**
 * Runs `measure(clientName, round)` for every client in every round, rotating the order each round so no client
 * always goes first. Returns { [client]: [result per round] }.
 */
export async function interleave(rounds, clients, measure) {
	const results = Object.fromEntries(clients.map((c) => [c, []]));
	for (let round = 0; round < rounds; round++) {
		const order = clients.map((_, i) => clients[(i + round) % clients.length]);
		for (const client of order) {
			results[client].push(await measure(client, round));
		}
	}
	return results;
}

/**
 * `calls` echo tool calls with `inFlight` callers at once; the throughput (calls/s) and this process's CPU per call
 * (µs). Every scenario that measures calls in flight uses this, so their rows mean the same.
 */
export async function parallel(client, calls, inFlight) {
	let issued = 0;
	const worker = async () => {
		while (issued < calls) {
			issued++;
			await client.callTool('echo', { text: 'parallel' });
		}
	};
	const start = performance.now();
	const cpu = process.cpuUsage();
	await Promise.all(Array.from({ length: inFlight }, worker));
	const used = process.cpuUsage(cpu);
	return { rate: calls / ((performance.now() - start) / 1000), cpu: (used.user + used.system) / calls };
}

/**
 * `warmup` unmeasured calls of `tool`, then `calls` calls one at a time: the median and 99th-percentile latency (µs),
 * every call's latency (µs, in order) and this process's CPU per call (µs). The scenarios that measure sequential
 * latency use this, so their rows mean the same.
 */
export async function sequential(client, { calls, warmup, tool = 'echo' }) {
	for (let i = 0; i < warmup; i++) await client.callTool(tool, { text: `w${i}` });
	const latencies = new Array(calls);
	const cpu = process.cpuUsage();
	for (let i = 0; i < calls; i++) {
		const start = performance.now();
		await client.callTool(tool, { text: `hello ${i}` });
		latencies[i] = (performance.now() - start) * 1000;
	}
	const used = process.cpuUsage(cpu);
	return {
		p50: percentile(latencies, 50),
		p99: percentile(latencies, 99),
		latencies,
		cpu: (used.user + used.system) / calls,
	};
}
