// A fast raw MCP server over stdio for the benchmark: no SDK, no validation, answers precomputed where it can,
// so it costs the same for every client. Usage: node rawServer.mjs [--tools N]
//   tools/list      N tools named tool0..tool{N-1}, each with an outputSchema (default N = 1), plus `echo` and `big`
//   tools/call echo {text}       -> one text block with the text
//   tools/call big  {mib}        -> one text block of mib MiB
//   tools/call toolK             -> structuredContent matching toolK's outputSchema
import { lineReader } from '../lib/lineReader.mjs';

const toolsArg = process.argv.indexOf('--tools');
const toolCount = toolsArg === -1 ? 1 : Number(process.argv[toolsArg + 1]);
const VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

const tools = [
	{
		name: 'echo',
		description: 'Echoes its text',
		inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
	},
	{
		name: 'big',
		description: 'Returns mib MiB of text',
		inputSchema: { type: 'object', properties: { mib: { type: 'number' } }, required: ['mib'] },
	},
];
for (let i = 0; i < toolCount; i++) {
	tools.push({
		name: `tool${i}`,
		description: `Tool number ${i} with structured output`,
		inputSchema: { type: 'object', properties: { q: { type: 'string', description: 'A query' } } },
		outputSchema: {
			type: 'object',
			properties: {
				id: { type: 'integer', minimum: 0 },
				label: { type: 'string', minLength: 1 },
				tags: { type: 'array', items: { type: 'string' } },
				score: { type: 'number', minimum: 0, maximum: 1 },
				nested: { type: 'object', properties: { ok: { type: 'boolean' }, note: { type: 'string' } }, required: ['ok'] },
				kind: { type: 'string', enum: ['a', 'b', 'c'] },
			},
			required: ['id', 'label', 'score', 'kind'],
		},
	});
}
const toolsListResult = JSON.stringify({ tools });
const bigResults = new Map();

const out = process.stdout;
function writeRaw(id, resultJson) {
	out.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultJson}}\n`);
}

function handle(message) {
	const { id, method, params } = message;
	if (id === undefined) return; // notifications
	switch (method) {
		case 'initialize': {
			const version = VERSIONS.includes(params?.protocolVersion) ? params.protocolVersion : VERSIONS[0];
			return writeRaw(
				id,
				JSON.stringify({
					protocolVersion: version,
					capabilities: { tools: {} },
					serverInfo: { name: 'bench-raw', version: '1.0.0' },
				}),
			);
		}
		case 'ping':
			return writeRaw(id, '{}');
		case 'tools/list':
			return writeRaw(id, toolsListResult);
		case 'tools/call': {
			const name = params?.name;
			const args = params?.arguments ?? {};
			if (name === 'echo') {
				return writeRaw(id, JSON.stringify({ content: [{ type: 'text', text: String(args.text) }] }));
			}
			if (name === 'big') {
				const mib = Number(args.mib);
				let json = bigResults.get(mib);
				if (!json) {
					json = JSON.stringify({ content: [{ type: 'text', text: 'x'.repeat(mib * 1024 * 1024) }] });
					bigResults.set(mib, json);
				}
				return writeRaw(id, json);
			}
			const match = /^tool(\d+)$/.exec(String(name));
			if (match) {
				const structured = {
					id: Number(match[1]),
					label: `tool ${match[1]}`,
					tags: ['x', 'y'],
					score: 0.5,
					nested: { ok: true },
					kind: 'b',
				};
				return writeRaw(
					id,
					JSON.stringify({
						content: [{ type: 'text', text: JSON.stringify(structured) }],
						structuredContent: structured,
					}),
				);
			}
			return writeRaw(id, JSON.stringify({ content: [{ type: 'text', text: `Unknown tool ${name}` }], isError: true }));
		}
		default:
			out.write(
				`${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } })}\n`,
			);
	}
}

process.stdin.on(
	'data',
	lineReader((line) => handle(JSON.parse(line.toString('utf8')))),
);
process.stdin.on('end', () => process.exit(0));
