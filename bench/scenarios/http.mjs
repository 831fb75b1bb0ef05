// Round trips over the remote transports: Streamable HTTP answered with JSON, Streamable HTTP answered with an SSE
// stream, and legacy HTTP+SSE (2024-11-05). For each: sequential tools/call echo p50, and 5,000 calls with 64 in
// flight (calls/s), plus the client's CPU per call at 64 in flight (steadier than latency on a shared machine).
//
// The server is this file run as a child process (`node http.mjs --serve`): raw node:http, no SDK, no validation,
// so it costs the same for every client. The floor is node:http with a keep-alive agent + JSON.parse + id matching.
import * as http from 'node:http';
import { createRequire } from 'node:module';
import { isServeChild, listenForParent, serveInChild } from '../lib/childServer.mjs';
import { interleave, median, parallel as parallelCalls, sequential as sequentialCalls } from '../lib/stats.mjs';

export const name = 'http';

const CLIENTS = ['floor', 'ours', 'sdk'];
const MODES = [
	{ mode: 'json', label: 'Streamable HTTP (JSON)' },
	{ mode: 'sse', label: 'Streamable HTTP (SSE replies)' },
	{ mode: 'legacy', label: 'legacy HTTP+SSE' },
];
const SEQUENTIAL_CALLS = 1000;
const WARMUP_CALLS = 200;
const PARALLEL_CALLS = 5000;
const IN_FLIGHT = 64;
const require = createRequire(import.meta.url);

// ---------------------------------------------------------------- server (child process)

function serve() {
	const legacyStreams = new Map();
	let sessions = 0;
	const reply = (message) => {
		const { id, method, params } = message;
		if (method === 'initialize') {
			return {
				jsonrpc: '2.0',
				id,
				result: {
					protocolVersion: params?.protocolVersion ?? '2025-11-25',
					capabilities: { tools: {} },
					serverInfo: { name: 'bench-http', version: '1.0.0' },
				},
			};
		}
		if (method === 'tools/call') {
			return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: String(params?.arguments?.text) }] } };
		}
		return { jsonrpc: '2.0', id, result: {} };
	};
	const server = http.createServer((req, res) => {
		const url = new URL(req.url, 'http://localhost');
		if (req.method === 'GET' && url.pathname === '/legacy') {
			const session = `s${++sessions}`;
			res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
			res.write(`event: endpoint\ndata: /legacy/messages?sessionId=${session}\n\n`);
			legacyStreams.set(session, res);
			res.on('close', () => legacyStreams.delete(session));
			return;
		}
		if (req.method === 'GET') {
			res.writeHead(405, { allow: 'POST, DELETE' }).end();
			return;
		}
		if (req.method === 'DELETE') {
			res.writeHead(200).end();
			return;
		}
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
			if (url.pathname === '/legacy/messages') {
				res.writeHead(202).end();
				if (message.id !== undefined && message.method !== undefined) {
					legacyStreams
						.get(url.searchParams.get('sessionId'))
						?.write(`event: message\ndata: ${JSON.stringify(reply(message))}\n\n`);
				}
				return;
			}
			if (message.id === undefined || message.method === undefined) {
				res.writeHead(202).end();
				return;
			}
			const headers = message.method === 'initialize' ? { 'mcp-session-id': `s${++sessions}` } : {};
			const body = JSON.stringify(reply(message));
			if (url.pathname === '/sse') {
				res.writeHead(200, { ...headers, 'content-type': 'text/event-stream' });
				res.end(`event: message\ndata: ${body}\n\n`);
			} else {
				res.writeHead(200, {
					...headers,
					'content-type': 'application/json',
					'content-length': Buffer.byteLength(body),
				});
				res.end(body);
			}
		});
	});
	listenForParent(server);
}

if (isServeChild(import.meta.url)) serve();

async function startServer() {
	const { port, stop } = await serveInChild(import.meta.url);
	return { base: `http://127.0.0.1:${port}`, stop };
}

// ---------------------------------------------------------------- floor clients

function floorPost(agent, url, headers, message) {
	return new Promise((resolve, reject) => {
		const body = JSON.stringify(message);
		const req = http.request(
			url,
			{
				method: 'POST',
				agent,
				headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
			},
			(res) => {
				const chunks = [];
				res.on('data', (c) => chunks.push(c));
				res.on('end', () => resolve({ res, text: Buffer.concat(chunks).toString('utf8') }));
			},
		);
		req.on('error', reject);
		req.end(body);
	});
}

async function connectFloorStreamable(base, mode) {
	const agent = new http.Agent({ keepAlive: true });
	const url = `${base}/${mode}`;
	let headers = { accept: 'application/json, text/event-stream' };
	let nextId = 1;
	const request = async (method, params) => {
		const { res, text } = await floorPost(agent, url, headers, { jsonrpc: '2.0', id: nextId++, method, params });
		if (mode === 'json') return { res, message: JSON.parse(text) };
		// One event per reply here: take its data line.
		const start = text.indexOf('data: ') + 6;
		return { res, message: JSON.parse(text.slice(start, text.indexOf('\n', start))) };
	};
	const init = await request('initialize', {
		protocolVersion: '2025-11-25',
		capabilities: {},
		clientInfo: { name: 'floor', version: '1' },
	});
	headers = { ...headers, 'mcp-session-id': init.res.headers['mcp-session-id'], 'mcp-protocol-version': '2025-11-25' };
	await floorPost(agent, url, headers, { jsonrpc: '2.0', method: 'notifications/initialized' });
	return {
		callTool: async (name, args) => (await request('tools/call', { name, arguments: args })).message.result,
		close: async () => agent.destroy(),
	};
}

async function connectFloorLegacy(base) {
	const agent = new http.Agent({ keepAlive: true });
	const pending = new Map();
	let endpoint;
	const stream = await new Promise((resolve, reject) =>
		http.get(`${base}/legacy`, { headers: { accept: 'text/event-stream' } }, resolve).on('error', reject),
	);
	let buffer = '';
	const gotEndpoint = new Promise((resolve) => {
		stream.setEncoding('utf8');
		stream.on('data', (text) => {
			buffer += text;
			let end;
			while ((end = buffer.indexOf('\n\n')) !== -1) {
				const event = buffer.slice(0, end);
				buffer = buffer.slice(end + 2);
				const data = event.slice(event.indexOf('data: ') + 6);
				if (event.startsWith('event: endpoint')) {
					resolve(new URL(data, base).href);
					continue;
				}
				const message = JSON.parse(data);
				pending.get(message.id)?.(message.result);
				pending.delete(message.id);
			}
		});
	});
	endpoint = await gotEndpoint;
	let nextId = 1;
	const request = (method, params) =>
		new Promise((resolve, reject) => {
			const id = nextId++;
			pending.set(id, resolve);
			floorPost(agent, endpoint, {}, { jsonrpc: '2.0', id, method, params }).catch(reject);
		});
	await request('initialize', {
		protocolVersion: '2024-11-05',
		capabilities: {},
		clientInfo: { name: 'floor', version: '1' },
	});
	await floorPost(agent, endpoint, {}, { jsonrpc: '2.0', method: 'notifications/initialized' });
	return {
		callTool: (name, args) => request('tools/call', { name, arguments: args }),
		close: async () => {
			stream.destroy();
			agent.destroy();
		},
	};
}

// ---------------------------------------------------------------- ours and the SDK

async function connectOurs(base, mode) {
	const core = require('../../dist/core.js');
	const config = mode === 'legacy' ? { type: 'sse', url: `${base}/legacy` } : { type: 'http', url: `${base}/${mode}` };
	const client = await core.connect(config, { name: 'bench' });
	return { callTool: (name, args) => client.callTool(name, args), close: () => client.close() };
}

async function connectSdk(base, mode) {
	const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
	const client = new Client({ name: 'bench', version: '1.0.0' });
	if (mode === 'legacy') {
		const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
		await client.connect(new SSEClientTransport(new URL(`${base}/legacy`)));
	} else {
		const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
		await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/${mode}`)));
	}
	return { callTool: (name, args) => client.callTool({ name, arguments: args }), close: () => client.close() };
}

function connect(which, base, mode) {
	if (which === 'ours') return connectOurs(base, mode);
	if (which === 'sdk') return connectSdk(base, mode);
	return mode === 'legacy' ? connectFloorLegacy(base) : connectFloorStreamable(base, mode);
}

// ---------------------------------------------------------------- measurements

const sequential = (client) => sequentialCalls(client, { calls: SEQUENTIAL_CALLS, warmup: WARMUP_CALLS });

export async function run({ rounds }) {
	const server = await startServer();
	const rows = [];
	try {
		for (const { mode, label } of MODES) {
			const connections = {};
			for (const which of CLIENTS) connections[which] = await connect(which, server.base, mode);
			try {
				for (const which of CLIENTS) await parallelCalls(connections[which], 1000, IN_FLIGHT);
				const seq = await interleave(rounds, CLIENTS, (which) => sequential(connections[which]));
				const par = await interleave(rounds, CLIENTS, (which) =>
					parallelCalls(connections[which], PARALLEL_CALLS, IN_FLIGHT),
				);
				const pick = (results, key) =>
					Object.fromEntries(CLIENTS.map((c) => [c, median(results[c].map((r) => r[key]))]));
				rows.push(
					{
						scenario: label,
						metric: 'sequential tools/call echo p50',
						unit: 'µs',
						target: '<= 1.3x',
						...pick(seq, 'p50'),
					},
					{
						scenario: label,
						metric: `${PARALLEL_CALLS} calls, ${IN_FLIGHT} in flight`,
						unit: 'calls/s',
						lowerIsBetter: false,
						target: '<= 1.5x',
						...pick(par, 'rate'),
					},
					{ scenario: label, metric: `${IN_FLIGHT} in flight: client CPU per call`, unit: 'µs', ...pick(par, 'cpu') },
				);
			} finally {
				for (const which of CLIENTS) await connections[which].close();
			}
		}
	} finally {
		server.stop();
	}
	return rows;
}
