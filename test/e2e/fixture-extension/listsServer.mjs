// Test-only MCP server (stdio, newline-delimited JSON-RPC written by hand, because the SDK's McpServer will not list
// one URI twice) for the tree and resource-document e2e suite:
// - resources/list names `test://docs/readme` twice (a server bug the client must survive) and `test://docs/notes`;
// - resources/read answers with the URI and a counter of reads; resources/subscribe and unsubscribe are recorded;
// - tools: `count` (no arguments) counts its calls; `subscriptions` returns the URIs this process was asked to
//   follow; `touch` sends notifications/resources/updated for every subscribed URI.
import { createInterface } from 'node:readline';

let calls = 0;
let reads = 0;
const subscribed = new Set();

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const text = (value) => ({
	content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }],
});

const resources = [
	{ uri: 'test://docs/readme', name: 'readme', mimeType: 'text/plain' },
	{ uri: 'test://docs/readme', name: 'readme (again)', mimeType: 'text/plain' },
	{ uri: 'test://docs/notes', name: 'notes', mimeType: 'text/plain' },
];

const handlers = {
	initialize: (params) => ({
		protocolVersion: params.protocolVersion,
		capabilities: { tools: {}, resources: { subscribe: true } },
		serverInfo: { name: 'switchboard-e2e-lists', version: '1.0.0' },
	}),
	ping: () => ({}),
	'tools/list': () => ({
		tools: [
			{
				name: 'count',
				description: 'Counts its calls (takes no arguments)',
				inputSchema: { type: 'object', properties: {} },
			},
			{
				name: 'subscriptions',
				description: 'The URIs this process follows',
				inputSchema: { type: 'object', properties: {} },
			},
			{
				name: 'touch',
				description: 'Reports every followed URI as updated',
				inputSchema: { type: 'object', properties: {} },
			},
		],
	}),
	'tools/call': (params) => {
		switch (params.name) {
			case 'count':
				return text(String(++calls));
			case 'subscriptions':
				return text([...subscribed]);
			case 'touch':
				for (const uri of subscribed)
					send({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
				return text([...subscribed]);
			default:
				return { isError: true, ...text(`no tool ${params.name}`) };
		}
	},
	'resources/list': () => ({ resources }),
	'resources/templates/list': () => ({ resourceTemplates: [] }),
	'resources/read': (params) => ({
		contents: [{ uri: params.uri, mimeType: 'text/plain', text: `${params.uri} read ${++reads}` }],
	}),
	'resources/subscribe': (params) => (subscribed.add(params.uri), {}),
	'resources/unsubscribe': (params) => (subscribed.delete(params.uri), {}),
};

createInterface({ input: process.stdin }).on('line', (line) => {
	if (!line.trim()) return;
	const message = JSON.parse(line);
	if (message.id === undefined || message.method === undefined) return;
	const handler = handlers[message.method];
	if (!handler) {
		send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
		return;
	}
	send({ jsonrpc: '2.0', id: message.id, result: handler(message.params ?? {}) });
});
