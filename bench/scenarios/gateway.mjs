// The gateway VS Code's agent talks to, against the same call straight to the server: our client over stdio to the
// raw bench server ("floor" column: the direct call) vs our client over Streamable HTTP to the gateway, which
// forwards through the Manager's stdio connection to the same kind of server ("ours" column). Sequential p50 and
// 64 in flight. (@mcp's tool selection among 5,000 tools is the `selection` scenario.)
//
// Any gateway adds one HTTP round trip to the direct call, so the rows decompose the cost: a bare in-process
// node:http round trip (keep-alive, no MCP), "direct + that hop" (the floor any gateway has: the sum of both
// latencies; for throughput, the sum of both costs per call), the gateway called by a raw node:http client (its own
// cost without our MCP client's), and a call with a progress token, as VS Code's agent sends.
//
// The gateway and Manager are bundled from src/ for this run with esbuild (they are not in dist/core.js).
import * as http from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { connectClient, SERVER } from '../lib/clients.mjs';
import { interleave, median, parallel as parallelCalls, sequential as sequentialCalls } from '../lib/stats.mjs';

export const name = 'gateway';

const SEQUENTIAL_CALLS = 2000;
const WARMUP_CALLS = 300;
const PARALLEL_CALLS = 5000;
const IN_FLIGHT = 64;
const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('../../', import.meta.url));

async function bundle() {
	const outfile = `${root}.bench/gateway-bundle.cjs`;
	await esbuild.build({
		stdin: {
			contents: [
				"export { startGateway } from './src/gateway/gatewayServer';",
				"export { ManagerCatalog } from './src/gateway/catalog';",
				"export { Manager } from './src/manager/manager';",
			].join('\n'),
			resolveDir: root,
			loader: 'ts',
		},
		bundle: true,
		platform: 'node',
		target: 'node20',
		format: 'cjs',
		outfile,
		external: ['zod'],
		logLevel: 'warning',
	});
	return require(outfile);
}

/**
 * The physical floor of any HTTP endpoint in this process: a trivial node:http server answering every POST with a
 * fixed JSON-RPC result, called with a keep-alive node:http client (no MCP, no JSON parsing of the answer).
 */
async function loopbackFloor() {
	const body = '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"x"}]}}';
	const server = http.createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
			res.end(body);
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const agent = new http.Agent({ keepAlive: true });
	const { port } = server.address();
	const callTool = (_tool, args) =>
		new Promise((resolve, reject) => {
			const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/mcp', agent, headers: { 'content-type': 'application/json' } }, (res) => {
				res.resume();
				res.on('end', resolve);
			});
			req.on('error', reject);
			req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: args } }));
		});
	return { callTool, close: () => new Promise((resolve) => (agent.destroy(), server.close(resolve))) };
}

/**
 * The gateway called by a keep-alive node:http client that builds each request by hand and does not parse the
 * answer: what the gateway itself costs, without any MCP client's.
 */
async function rawGatewayClient(gateway) {
	const agent = new http.Agent({ keepAlive: true });
	const url = new URL(gateway.url);
	const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${gateway.token}` };
	const post = (body) =>
		new Promise((resolve, reject) => {
			const req = http.request({ host: url.hostname, port: url.port, method: 'POST', path: url.pathname, agent, headers }, (res) => {
				const chunks = [];
				res.on('data', (chunk) => chunks.push(chunk));
				res.on('end', () => (res.statusCode === 200 ? resolve(res) : reject(new Error(`HTTP ${res.statusCode}: ${Buffer.concat(chunks)}`))));
			});
			req.on('error', reject);
			req.end(body);
		});
	const opened = await post(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }));
	headers['mcp-session-id'] = opened.headers['mcp-session-id'];
	headers['mcp-protocol-version'] = '2025-11-25';
	await post('{"jsonrpc":"2.0","method":"notifications/initialized"}').catch(() => undefined);
	let id = 1;
	return {
		callTool: (tool, args) => post(JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: `mcp__bench__${tool}`, arguments: args } })),
		close: () => agent.destroy(),
	};
}

const sequential = (client) => sequentialCalls(client, { calls: SEQUENTIAL_CALLS, warmup: WARMUP_CALLS });

export async function run({ rounds }) {
	const { startGateway, ManagerCatalog, Manager } = await bundle();
	const core = require('../../dist/core.js');
	const logger = { traceEnabled: false, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
	const manager = new Manager({ logger: () => logger, roots: () => [] });
	await manager.reconcile([{ name: 'bench', config: { type: 'stdio', command: process.execPath, args: [SERVER] }, source: { kind: 'api', label: 'bench' }, workspaceDefined: false }]);
	if (manager.get('bench')?.state.kind !== 'running') throw new Error(`the bench server did not start: ${JSON.stringify(manager.get('bench')?.state)}`);
	const catalog = new ManagerCatalog(manager);
	const gateway = await startGateway(catalog);
	const direct = await connectClient('ours');
	const viaClient = await core.connect({ type: 'http', url: gateway.url, headers: { authorization: `Bearer ${gateway.token}` } }, { name: 'gateway' });
	const via = { callTool: (tool, args) => viaClient.callTool(`mcp__bench__${tool}`, args) };
	// As VS Code's agent calls: with a progress token (the echo sends no progress, so the answer can stay JSON).
	const withProgress = { callTool: (tool, args) => viaClient.callTool(`mcp__bench__${tool}`, args, { onProgress: () => undefined }) };
	const loopback = await loopbackFloor();
	const raw = await rawGatewayClient(gateway);
	const connections = { floor: direct, ours: via, loopback, raw, withProgress };
	try {
		for (const which of ['floor', 'ours']) await parallelCalls(connections[which], 3000, IN_FLIGHT);
		const seq = await interleave(rounds, Object.keys(connections), (which) => sequential(connections[which]));
		const par = await interleave(rounds, ['floor', 'ours', 'loopback', 'raw'], (which) => parallelCalls(connections[which], PARALLEL_CALLS, IN_FLIGHT));
		const p50 = (which) => median(seq[which].map((r) => r.p50));
		const rate = (which) => median(par[which].map((r) => r.rate));
		// Per round, the floor of any gateway: the direct call plus one bare HTTP round trip (latencies add; for
		// throughput the time per call adds: 1 / (1/direct + 1/hop)).
		const hopFloorP50 = median(seq.floor.map((r, i) => r.p50 + seq.loopback[i].p50));
		const hopFloorRate = median(par.floor.map((r, i) => 1 / (1 / r.rate + 1 / par.loopback[i].rate)));
		const row = (metric, unit, floor, ours, extra = {}) => ({ scenario: 'gateway', metric, unit, floor, ours, sdk: '-', ...extra });
		return [
			row('tools/call echo p50: direct stdio (floor) vs through the gateway (ours)', 'µs', p50('floor'), p50('ours'), { target: '<= 1.3x' }),
			row('  p50: direct stdio vs one bare in-process node:http round trip (no MCP)', 'µs', p50('floor'), p50('loopback')),
			row('  p50: direct + bare HTTP round trip (the floor of any gateway) vs the gateway', 'µs', hopFloorP50, p50('ours')),
			row('  p50: direct + bare HTTP round trip vs the gateway called by a raw node:http client', 'µs', hopFloorP50, p50('raw')),
			row('  p50: direct stdio vs the gateway with a progress token (as VS Code calls)', 'µs', p50('floor'), p50('withProgress')),
			row('  CPU of this process per sequential call (less moved by load than latency): direct vs gateway', 'µs', median(seq.floor.map((r) => r.cpu)), median(seq.ours.map((r) => r.cpu))),
			row(`${PARALLEL_CALLS} calls, ${IN_FLIGHT} in flight: direct vs gateway`, 'calls/s', rate('floor'), rate('ours'), { lowerIsBetter: false, target: '<= 1.3x' }),
			row(`  ${IN_FLIGHT} in flight: direct vs bare in-process node:http round trips (no MCP)`, 'calls/s', rate('floor'), rate('loopback'), { lowerIsBetter: false }),
			row(`  ${IN_FLIGHT} in flight: direct + bare HTTP round trip (the floor of any gateway) vs the gateway`, 'calls/s', hopFloorRate, rate('ours'), { lowerIsBetter: false }),
			row(`  ${IN_FLIGHT} in flight: direct + bare HTTP round trip vs the gateway called by a raw node:http client`, 'calls/s', hopFloorRate, rate('raw'), { lowerIsBetter: false }),
			row(`  CPU of this process per call, ${IN_FLIGHT} in flight: direct vs gateway`, 'µs', median(par.floor.map((r) => r.cpu)), median(par.ours.map((r) => r.cpu))),
		];
	} finally {
		raw.close();
		await loopback.close();
		await viaClient.close();
		await direct.close();
		await gateway.close();
		catalog.dispose();
		await manager.dispose();
	}
}
