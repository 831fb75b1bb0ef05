// The three clients the benchmark compares, behind one small adapter shape:
//   connect(serverArgs) -> { callTool(name, args), listTools(), close() }
// - floor: the cheapest correct raw client: spawn + newline framing on bytes + JSON.parse + id matching, no validation.
// - floorSameOptions: the same client, its server spawned as StdioTransport spawns it (the honest stdio reference).
// - ours:  dist/core.js (this project), default options.
// - sdk:   @modelcontextprotocol/sdk 1.32.2 Client with StdioClientTransport, default options.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { lineReader } from './lineReader.mjs';

export const SERVER = fileURLToPath(new URL('../servers/rawServer.mjs', import.meta.url));
export const CLIENTS = ['floor', 'ours', 'sdk'];
const require = createRequire(import.meta.url);

/**
 * How StdioTransport spawns a server (src/protocol/transports/stdio.ts), for the same-options floor: its own session
 * (`detached`, so close() can signal the process group; with the kernel's autogroup scheduling that alone changes
 * round-trip latency on a busy machine), all three pipes with stderr read by the client, a copy of the environment.
 */
const SAME_OPTIONS = {
	stdio: ['pipe', 'pipe', 'pipe'],
	shell: false,
	detached: process.platform !== 'win32',
	windowsHide: true,
};

async function connectFloor(serverArgs, { sameOptions = false } = {}) {
	const child = sameOptions
		? spawn(process.execPath, [SERVER, ...serverArgs], { ...SAME_OPTIONS, env: { ...process.env } })
		: spawn(process.execPath, [SERVER, ...serverArgs], { stdio: ['pipe', 'pipe', 'inherit'] });
	if (sameOptions) {
		child.stderr.setEncoding('utf8');
		child.stderr.on('data', (text) => process.stderr.write(text));
	}
	const pending = new Map();
	let nextId = 1;
	child.stdout.on(
		'data',
		lineReader((line) => {
			const message = JSON.parse(line.toString('utf8'));
			const waiter = pending.get(message.id);
			if (waiter) {
				pending.delete(message.id);
				if (message.error) waiter.reject(new Error(message.error.message));
				else waiter.resolve(message.result);
			}
		}),
	);
	const exited = once(child, 'exit');
	const request = (method, params) =>
		new Promise((resolve, reject) => {
			const id = nextId++;
			pending.set(id, { resolve, reject });
			child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
		});
	await request('initialize', {
		protocolVersion: '2025-11-25',
		capabilities: {},
		clientInfo: { name: 'floor', version: '1' },
	});
	child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
	return {
		callTool: (name, args) => request('tools/call', { name, arguments: args }),
		listTools: async () => (await request('tools/list', {})).tools,
		close: async () => {
			child.stdin.end();
			await exited;
		},
	};
}

async function connectOurs(serverArgs) {
	const core = require('../../dist/core.js');
	const client = await core.connect(
		{ type: 'stdio', command: process.execPath, args: [SERVER, ...serverArgs] },
		{ name: 'bench' },
	);
	return {
		callTool: (name, args) => client.callTool(name, args),
		listTools: () => client.listTools(),
		close: () => client.close(),
	};
}

async function connectSdk(serverArgs) {
	const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
	const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
	const client = new Client({ name: 'bench', version: '1.0.0' });
	await client.connect(
		new StdioClientTransport({ command: process.execPath, args: [SERVER, ...serverArgs], stderr: 'inherit' }),
	);
	return {
		callTool: (name, args) => client.callTool({ name, arguments: args }),
		listTools: async () => (await client.listTools()).tools,
		close: () => client.close(),
	};
}

/** Connects one of the clients to the bench server started with serverArgs. */
export function connectClient(which, serverArgs = []) {
	switch (which) {
		case 'floor':
			return connectFloor(serverArgs);
		case 'floorSameOptions':
			return connectFloor(serverArgs, { sameOptions: true });
		case 'ours':
			return connectOurs(serverArgs);
		case 'sdk':
			return connectSdk(serverArgs);
		default:
			throw new Error(`unknown client ${which}`);
	}
}
