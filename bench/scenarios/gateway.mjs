// The gateway VS Code's agent talks to, against the same call straight to the server. Every gateway adds one HTTP
// round trip to the direct call, so the main rows have two references measured in the same run:
// - "plain floor": our client over stdio to the raw bench server (the direct call; the "<= 1.3x" is against it),
// - "floor": that direct call plus one bare in-process node:http round trip (keep-alive, no MCP): the floor of any
//   gateway (latencies add; for throughput, the time per call adds: 1 / (1/direct + 1/hop)),
// and two clients of the gateway, which forwards through the Manager's stdio connection to the same kind of server:
// - "ours": our client (dist/core.js) over Streamable HTTP,
// - "sdk": the official SDK's Client with its StreamableHTTPClientTransport (fetch), as a reference.
// Sequential p50 and 64 in flight. The rows below decompose the cost: the bare hop alone, the gateway called by a raw
// node:http client (its own cost without any MCP client's), a call with a progress token as VS Code's agent sends,
// and this process's CPU per call. (@mcp's tool selection among 5,000 tools is the `selection` scenario.)
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

/** The official SDK's client over Streamable HTTP to the gateway, default options (a reference, not a floor). */
async function sdkGatewayClient(gateway) {
	const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
	const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
	const client = new Client({ name: 'bench', version: '1.0.0' });
	await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { authorization: `Bearer ${gateway.token}` } } }));
	return { callTool: (tool, args) => client.callTool({ name: `mcp__bench__${tool}`, arguments: args }), close: () => client.close() };
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
	const sdk = await sdkGatewayClient(gateway);
	const connections = { floor: direct, ours: via, sdk, loopback, raw, withProgress };
	// The SDK's client adds an abort listener per request to one shared signal: thousands at 64 in flight, each a
	// MaxListenersExceededWarning on stderr (notes/performance.md). Its figures are what matters here, not the warning.
	const warningListeners = process.listeners('warning');
	process.removeAllListeners('warning');
	process.on('warning', (warning) => {
		if (warning.name !== 'MaxListenersExceededWarning') for (const listener of warningListeners) listener(warning);
	});
	try {
		for (const which of ['floor', 'ours', 'sdk']) await parallelCalls(connections[which], 3000, IN_FLIGHT);
		const seq = await interleave(rounds, Object.keys(connections), (which) => sequential(connections[which]));
		const par = await interleave(rounds, ['floor', 'ours', 'sdk', 'loopback', 'raw'], (which) => parallelCalls(connections[which], PARALLEL_CALLS, IN_FLIGHT));
		const p50 = (which) => median(seq[which].map((r) => r.p50));
		const rate = (which) => median(par[which].map((r) => r.rate));
		// Per round, the floor of any gateway: the direct call plus one bare HTTP round trip (latencies add; for
		// throughput the time per call adds: 1 / (1/direct + 1/hop)).
		const hopFloorP50 = median(seq.floor.map((r, i) => r.p50 + seq.loopback[i].p50));
		const hopFloorRate = median(par.floor.map((r, i) => 1 / (1 / r.rate + 1 / par.loopback[i].rate)));
		const row = (metric, unit, floor, ours, extra = {}) => ({ scenario: 'gateway', metric, unit, floor, ours, sdk: '-', ...extra });
		const cpu = (results, which) => median(results[which].map((r) => r.cpu));
		return [
			row('tools/call echo p50 through the gateway; floor: direct stdio + one bare HTTP hop, plain: direct stdio', 'µs', hopFloorP50, p50('ours'), {
				plainFloor: p50('floor'),
				sdk: p50('sdk'),
				target: '<= 1.3x floor',
			}),
			// The literal target, "<= 1.3x a direct stdio call", is below this row's own ratio on this machine: one
			// bare loopback HTTP round trip, which any gateway needs, already costs more than 0.3x of a direct call.
			row("  p50: direct stdio vs one bare in-process node:http round trip (no MCP): the issue's '<= 1.3x direct' is below this hop alone", 'µs', p50('floor'), p50('loopback'), {
				target: 'any gateway >= 1 + this',
			}),
			row('  p50: direct + bare HTTP round trip vs the gateway called by a raw node:http client', 'µs', hopFloorP50, p50('raw')),
			row('  p50: direct stdio vs the gateway with a progress token (as VS Code calls)', 'µs', p50('floor'), p50('withProgress')),
			row('  CPU of this process per sequential call (less moved by load than latency): direct vs gateway (sdk: its client)', 'µs', cpu(seq, 'floor'), cpu(seq, 'ours'), { sdk: cpu(seq, 'sdk') }),
			row(`${PARALLEL_CALLS} calls, ${IN_FLIGHT} in flight, through the gateway; floor: direct stdio + one bare HTTP hop, plain: direct stdio`, 'calls/s', hopFloorRate, rate('ours'), {
				plainFloor: rate('floor'),
				sdk: rate('sdk'),
				lowerIsBetter: false,
				target: '<= 1.3x floor',
			}),
			row(`  ${IN_FLIGHT} in flight: direct vs bare in-process node:http round trips (no MCP): the hop alone is this many times slower than direct`, 'calls/s', rate('floor'), rate('loopback'), { lowerIsBetter: false }),
			row(`  ${IN_FLIGHT} in flight: direct + bare HTTP round trip vs the gateway called by a raw node:http client`, 'calls/s', hopFloorRate, rate('raw'), { lowerIsBetter: false }),
			row(`  CPU of this process per call, ${IN_FLIGHT} in flight: bare hop vs gateway (sdk: its client)`, 'µs', cpu(par, 'loopback'), cpu(par, 'ours'), { sdk: cpu(par, 'sdk') }),
		];
	} finally {
		process.removeAllListeners('warning');
		for (const listener of warningListeners) process.on('warning', listener);
		raw.close();
		await sdk.close();
		await loopback.close();
		await viaClient.close();
		await direct.close();
		await gateway.close();
		catalog.dispose();
		await manager.dispose();
	}
}
