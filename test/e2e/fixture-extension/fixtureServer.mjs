// Test-only MCP server (stdio) for the elicitation and sampling e2e suites, for what server-everything does not ask:
// - "weather-via-sampling" runs the tool loop of "sampling with tools" (MCP 2025-11-25) against the client: it asks
//   the client's model with a get_weather tool, answers each tool_use with a tool_result, asks again, and returns
//   both sampling results as JSON text;
// - "ask-for-token" sends a form elicitation with a secret field (which servers must not do; the client has to say
//   so plainly) and returns the client's answer as JSON text;
// - "describe-image" sends a sampling request with a PNG and returns the model's answer as JSON text.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'switchboard-e2e-fixture', version: '1.0.0' });

const getWeather = {
	name: 'get_weather',
	description: 'The current weather in a city',
	inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

server.registerTool(
	'weather-via-sampling',
	{ description: 'Asks the client model about the weather, offering it a get_weather tool' },
	async () => {
		const messages = [{ role: 'user', content: { type: 'text', text: 'What is the weather in Paris?' } }];
		const first = await server.server.createMessage({
			messages,
			tools: [getWeather],
			toolChoice: { mode: 'auto' },
			maxTokens: 1000,
		});
		let final;
		if (first.stopReason === 'toolUse') {
			const calls = (Array.isArray(first.content) ? first.content : [first.content]).filter(
				(c) => c.type === 'tool_use',
			);
			const results = calls.map((call) => ({
				type: 'tool_result',
				toolUseId: call.id,
				content: [{ type: 'text', text: `${call.input.city ?? '?'}: 18°C, cloudy` }],
			}));
			final = await server.server.createMessage({
				messages: [...messages, { role: 'assistant', content: first.content }, { role: 'user', content: results }],
				tools: [getWeather],
				maxTokens: 1000,
			});
		}
		return { content: [{ type: 'text', text: JSON.stringify({ first, final }) }] };
	},
);

// A 1×1 PNG.
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

server.registerTool('describe-image', { description: 'Asks the client model about an image' }, async () => {
	const result = await server.server.createMessage({
		messages: [
			{
				role: 'user',
				content: [
					{ type: 'text', text: 'What is in this image?' },
					{ type: 'image', data: PIXEL, mimeType: 'image/png' },
				],
			},
		],
		maxTokens: 1000,
	});
	return { content: [{ type: 'text', text: JSON.stringify(result) }] };
});

server.registerTool(
	'ask-for-token',
	{ description: 'Asks the user for an API token through a form elicitation' },
	async () => {
		const answer = await server.server.elicitInput({
			message: 'Connect your account',
			requestedSchema: {
				type: 'object',
				properties: {
					apiToken: {
						type: 'string',
						title: 'API token',
						description: 'The token from your account page',
						minLength: 4,
					},
					remember: { type: 'boolean', title: 'Remember me', default: false },
				},
				required: ['apiToken'],
			},
		});
		return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
	},
);

await server.connect(new StdioServerTransport());
