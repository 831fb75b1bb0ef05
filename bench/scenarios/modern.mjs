// MCP 2026-07-28 over stateless Streamable HTTP: no handshake, no session; every POST carries the request metadata in
// `_meta` and the MCP-Protocol-Version / Mcp-Method / Mcp-Name headers. Sequential tools/call echo p50 and 5,000 calls
// with 64 in flight, against the raw floor; and one multi round-trip call (input_required answered by an elicitation
// handler, then the retry) against a plain call of the same client in the same run. The SDK 1.x client does not speak
// 2026-07-28, so it has no column here.
//
// The server is this file as a child process (`node modern.mjs --serve`): raw node:http, no SDK, no validation.
import * as http from 'node:http';
import { createRequire } from 'node:module';
import { isServeChild, listenForParent, serveInChild } from '../lib/childServer.mjs';
import { interleave, median, parallel as parallelCalls, sequential as sequentialCalls } from '../lib/stats.mjs';

export const name = 'modern';

const VERSION = '2026-07-28';
const CLIENTS = ['floor', 'ours'];
const SEQUENTIAL_CALLS = 1000;
const WARMUP_CALLS = 200;
const PARALLEL_CALLS = 5000;
const IN_FLIGHT = 64;
const require = createRequire(import.meta.url);

// ---------------------------------------------------------------- server (child process)

function serve() {
	const serverMeta = { 'io.modelcontextprotocol/serverInfo': { name: 'bench-modern', version: '1.0.0' } };
	const reply = ({ id, method, params }) => {
		if (method === 'server/discover') {
			return {
				jsonrpc: '2.0',
				id,
				result: {
					resultType: 'complete',
					supportedVersions: [VERSION],
					capabilities: { tools: {} },
					ttlMs: 0,
					cacheScope: 'public',
					_meta: serverMeta,
				},
			};
		}
		if (method === 'tools/call' && params?.name === 'ask' && params.inputResponses === undefined) {
			return {
				jsonrpc: '2.0',
				id,
				result: {
					resultType: 'input_required',
					inputRequests: {
						q: {
							method: 'elicitation/create',
							params: {
								mode: 'form',
								message: 'OK?',
								requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
							},
						},
					},
					requestState: 'state-1',
				},
			};
		}
		if (method === 'tools/call') {
			return {
				jsonrpc: '2.0',
				id,
				result: {
					resultType: 'complete',
					content: [{ type: 'text', text: String(params?.arguments?.text) }],
					_meta: serverMeta,
				},
			};
		}
		return { jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } };
	};
	const server = http.createServer((req, res) => {
		if (req.method !== 'POST') {
			res.writeHead(405, { allow: 'POST' }).end();
			return;
		}
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
			// What a modern server checks first: the version header against the body.
			if (
				req.headers['mcp-protocol-version'] !== message.params?._meta?.['io.modelcontextprotocol/protocolVersion'] ||
				req.headers['mcp-method'] !== message.method
			) {
				const body = JSON.stringify({
					jsonrpc: '2.0',
					id: message.id ?? null,
					error: { code: -32020, message: 'Header mismatch' },
				});
				res.writeHead(400, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
				return;
			}
			const body = JSON.stringify(reply(message));
			res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
			res.end(body);
		});
	});
	listenForParent(server);
}

if (isServeChild(import.meta.url)) serve();

async function startServer() {
	const { port, stop } = await serveInChild(import.meta.url);
	return { url: `http://127.0.0.1:${port}/mcp`, stop };
}

// ---------------------------------------------------------------- clients

/** The floor: node:http with a keep-alive agent, the fixed metadata and headers, JSON.parse, nothing else. */
async function connectFloor(url) {
	const agent = new http.Agent({ keepAlive: true });
	const meta = {
		'io.modelcontextprotocol/protocolVersion': VERSION,
		'io.modelcontextprotocol/clientInfo': { name: 'floor', version: '1' },
		'io.modelcontextprotocol/clientCapabilities': {},
	};
	let nextId = 1;
	const post = (method, params, name) =>
		new Promise((resolve, reject) => {
			const body = JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: meta } });
			const headers = {
				accept: 'application/json, text/event-stream',
				'content-type': 'application/json',
				'content-length': Buffer.byteLength(body),
				'mcp-protocol-version': VERSION,
				'mcp-method': method,
			};
			if (name !== undefined) headers['mcp-name'] = name;
			const req = http.request(url, { method: 'POST', agent, headers }, (res) => {
				const chunks = [];
				res.on('data', (c) => chunks.push(c));
				res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')).result));
			});
			req.on('error', reject);
			req.end(body);
		});
	await post('server/discover', {});
	return {
		callTool: (toolName, args) => post('tools/call', { name: toolName, arguments: args }, toolName),
		close: async () => agent.destroy(),
	};
}

async function connectOurs(url) {
	const core = require('../../dist/core.js');
	const client = await core.connect(
		{ type: 'http', url },
		{ name: 'bench', handlers: { elicitation: async () => ({ action: 'accept', content: { ok: true } }) } },
	);
	if (client.era !== 'modern') throw new Error(`expected 2026-07-28, got ${client.protocolVersion}`);
	return { callTool: (toolName, args) => client.callTool(toolName, args), close: () => client.close() };
}

// ---------------------------------------------------------------- measurements

const sequential = (client, tool) => sequentialCalls(client, { calls: SEQUENTIAL_CALLS, warmup: WARMUP_CALLS, tool });

export async function run({ rounds }) {
	const server = await startServer();
	const rows = [];
	const connections = {};
	try {
		connections.floor = await connectFloor(server.url);
		connections.ours = await connectOurs(server.url);
		for (const which of CLIENTS) await parallelCalls(connections[which], 1000, IN_FLIGHT);
		const seq = await interleave(rounds, CLIENTS, (which) => sequential(connections[which], 'echo'));
		const par = await interleave(rounds, CLIENTS, (which) =>
			parallelCalls(connections[which], PARALLEL_CALLS, IN_FLIGHT),
		);
		// One input_required round: the call, the (instant) elicitation answer, the retry. Against our own plain call.
		const mrtr = await interleave(rounds, ['plain', 'mrtr'], (which) =>
			sequential(connections.ours, which === 'mrtr' ? 'ask' : 'echo'),
		);
		const pick = (results, key, clients = CLIENTS) =>
			Object.fromEntries(clients.map((c) => [c, median(results[c].map((r) => r[key]))]));
		const label = 'stateless HTTP (2026-07-28)';
		const noSdk = 'n/a (speaks 2025-11-25)';
		const m = pick(mrtr, 'p50', ['plain', 'mrtr']);
		rows.push(
			{
				scenario: label,
				metric: 'sequential tools/call echo p50',
				unit: 'µs',
				target: '<= 1.3x',
				sdk: noSdk,
				...pick(seq, 'p50'),
			},
			{
				scenario: label,
				metric: `${PARALLEL_CALLS} calls, ${IN_FLIGHT} in flight`,
				unit: 'calls/s',
				lowerIsBetter: false,
				target: '<= 1.5x',
				sdk: noSdk,
				...pick(par, 'rate'),
			},
			{
				scenario: label,
				metric: `${IN_FLIGHT} in flight: client CPU per call`,
				unit: 'µs',
				sdk: noSdk,
				...pick(par, 'cpu'),
			},
			// floor column: our plain call in the same run; ours: the same call with one input_required round.
			{
				scenario: label,
				metric: 'one MRTR round trip p50 (floor = our plain call)',
				unit: 'µs',
				target: '<= 2.1x',
				sdk: noSdk,
				floor: m.plain,
				ours: m.mrtr,
			},
		);
	} finally {
		for (const which of CLIENTS) await connections[which]?.close();
		server.stop();
	}
	return rows;
}
