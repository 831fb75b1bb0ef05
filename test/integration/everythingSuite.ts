// The integration suite against the real @modelcontextprotocol/server-everything, independent of the transport:
// each transport's test file calls defineEverythingSuite with a way to connect (stdio here; Streamable HTTP and SSE in
// everything.http.test.ts). One client serves the whole suite, with every host handler supplied, so the tests run
// in order against one server process and the suite stays in the tens of seconds.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Disposable } from '../../src/common/disposable';
import { ErrorCode } from '../../src/protocol/jsonrpc';
import type { ClientOptions, McpClient } from '../../src/protocol/client';
import { McpError } from '../../src/protocol/mcpError';
import type {
	CreateMessageRequest,
	CreateMessageResult,
	ElicitRequest,
	ElicitResult,
	LoggingMessage,
	Progress,
	Root,
} from '../../src/protocol/schema';

/** Connects a client to a fresh server-everything, passing the suite's options (handlers, name, timeouts) through. */
export type EverythingConnect = (options: ClientOptions) => Promise<McpClient>;

/** The package under test, for reading what it serves straight from disk. */
export const everythingDir = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything');
/** The script to run: `node <everythingMain> stdio|sse|streamableHttp`. */
export const everythingMain = join(everythingDir, 'dist/index.js');

/** Polls until `check` returns a value other than undefined/false, or fails after `ms` naming what it waited for. */
async function waitFor<T>(what: string, check: () => T | undefined | false, ms = 8000): Promise<T> {
	const deadline = Date.now() + ms;
	for (;;) {
		const value = check();
		if (value !== undefined && value !== false) {
			return value;
		}
		if (Date.now() > deadline) {
			throw new Error(`Timed out after ${ms} ms waiting for ${what}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

function texts(result: { content: Array<Record<string, unknown>> }): string[] {
	return result.content.filter((block) => block.type === 'text').map((block) => String(block.text));
}

/**
 * Defines the server-everything tests for one way of connecting. `label` names the transport in the test names.
 * The connect function must start a new server (or session) and resolve once the client is initialized.
 */
export function defineEverythingSuite(label: string, connect: EverythingConnect): void {
	describe(`server-everything over ${label}`, { timeout: 120_000 }, () => {
		let client: McpClient;
		const subscriptions: Disposable[] = [];
		const logs: LoggingMessage[] = [];
		const updates: string[] = [];
		// Host handlers: the tests swap what they answer.
		let roots: Root[] = [{ uri: 'file:///tmp/project-a', name: 'Project A' }];
		let rootsCalls = 0;
		const samplingRequests: CreateMessageRequest[] = [];
		let samplingAnswer: CreateMessageResult = {
			role: 'assistant',
			content: { type: 'text', text: 'Hello from the test host' },
			model: 'switchboard-test-model',
			stopReason: 'endTurn',
		};
		const elicitRequests: ElicitRequest[] = [];
		let elicitAnswer: ElicitResult = { action: 'decline' };

		before(async () => {
			client = await connect({
				name: 'everything',
				clientInfo: { name: 'switchboard-integration', version: '1.0.0' },
				timeoutMs: 30_000,
				handlers: {
					roots: () => {
						rootsCalls += 1;
						return roots;
					},
					sampling: async (params) => {
						samplingRequests.push(params);
						return samplingAnswer;
					},
					elicitation: async (params) => {
						elicitRequests.push(params);
						return elicitAnswer;
					},
				},
			});
			subscriptions.push(
				client.onDidLog((message) => logs.push(message)),
				client.onDidUpdateResource(({ uri }) => updates.push(uri)),
			);
		});

		after(async () => {
			for (const subscription of subscriptions) {
				subscription.dispose();
			}
			await client?.close();
		});

		/** Lists tools until every name is there: tools that depend on client capabilities may be announced by list_changed. */
		async function toolsIncluding(names: string[]) {
			let tools = await client.listTools();
			const missing = () => names.filter((name) => !tools.some((tool) => tool.name === name));
			if (missing().length > 0) {
				let changed = false;
				const subscription = client.onDidChangeTools(() => (changed = true));
				try {
					await waitFor('tools/list_changed', () => changed || undefined, 3000).catch(() => undefined);
					tools = await client.listTools();
				} finally {
					subscription.dispose();
				}
			}
			assert.deepEqual(missing(), [], 'every expected tool is listed');
			return tools;
		}

		test('initializes: negotiates 2025-11-25 and reports the server and its capabilities', () => {
			assert.equal(client.protocolVersion, '2025-11-25');
			assert.equal(client.serverInfo.name, 'mcp-servers/everything');
			assert.equal(typeof client.serverInfo.version, 'string');
			for (const capability of ['tools', 'resources', 'prompts', 'logging', 'completions']) {
				assert.ok(capability in client.serverCapabilities, `the server advertises ${capability}`);
			}
			assert.ok(client.instructions && client.instructions.length > 0, 'the server sends instructions');
			assert.equal(client.isClosed, false);
		});

		test('lists tools, including those offered because the client declared roots, sampling and elicitation', async () => {
			const tools = await toolsIncluding([
				'echo',
				'get-sum',
				'get-tiny-image',
				'get-structured-content',
				'get-resource-links',
				'trigger-long-running-operation',
				'get-roots-list',
				'trigger-sampling-request',
				'trigger-elicitation-request',
			]);
			const structured = tools.find((tool) => tool.name === 'get-structured-content')!;
			assert.equal(structured.title, 'Get Structured Content Tool');
			assert.equal((structured.outputSchema as { type?: string } | undefined)?.type, 'object');
			assert.equal(structured.annotations?.readOnlyHint, true);
			const sum = tools.find((tool) => tool.name === 'get-sum')!;
			assert.deepEqual(Object.keys((sum.inputSchema as { properties: object }).properties).sort(), ['a', 'b']);
		});

		test('calls echo and get-sum', async () => {
			const echo = await client.callTool('echo', { message: 'hello ✓ 日本' });
			assert.deepEqual(texts(echo), ['Echo: hello ✓ 日本']);
			assert.notEqual(echo.isError, true);
			const sum = await client.callTool('get-sum', { a: 2.5, b: 4 });
			assert.deepEqual(texts(sum), ['The sum of 2.5 and 4 is 6.5.']);
		});

		test('reports a tool error as isError content, and an unknown tool too', async () => {
			const bad = await client.callTool('get-sum', { a: 'two' });
			assert.equal(bad.isError, true);
			const unknown = await client.callTool('no-such-tool', {});
			assert.equal(unknown.isError, true);
			assert.match(texts(unknown).join('\n'), /no-such-tool/);
		});

		test('get-structured-content returns structuredContent that matches its outputSchema and its text block', async () => {
			const result = await client.callTool('get-structured-content', { location: 'Chicago' });
			assert.deepEqual(result.structuredContent, { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 });
			assert.deepEqual(JSON.parse(texts(result)[0]!), result.structuredContent);
			const again = await client.callTool('get-structured-content', { location: 'Los Angeles' });
			assert.deepEqual(again.structuredContent, { temperature: 73, conditions: 'Sunny / Clear', humidity: 48 });
		});

		test('get-resource-links returns resource_link blocks that can be read', async () => {
			const result = await client.callTool('get-resource-links', { count: 4 });
			const links = result.content.filter((block) => block.type === 'resource_link') as unknown as Array<{
				uri: string;
				name: string;
				mimeType?: string;
				description?: string;
			}>;
			assert.equal(links.length, 4);
			for (const link of links) {
				assert.match(link.uri, /^demo:\/\/resource\/dynamic\/(text|blob)\/\d+$/);
				assert.match(link.name, /^(Text|Blob) Resource \d+$/);
				assert.ok(link.mimeType && link.description);
			}
			const textLink = links.find((link) => link.uri.includes('/text/'))!;
			const read = await client.readResource(textLink.uri);
			assert.equal(read.contents[0]?.uri, textLink.uri);
			assert.match(read.contents[0]?.text ?? '', /This is a plaintext resource/);
		});

		test('get-tiny-image returns the image block intact', async () => {
			const result = await client.callTool('get-tiny-image', {});
			assert.deepEqual(
				result.content.map((block) => block.type),
				['text', 'image', 'text'],
			);
			const image = result.content[1] as unknown as { data: string; mimeType: string };
			assert.equal(image.mimeType, 'image/png');
			const source = readFileSync(join(everythingDir, 'dist/tools/get-tiny-image.js'), 'utf8');
			const served = /MCP_TINY_IMAGE = "([^"]+)"/.exec(source)?.[1];
			assert.equal(image.data, served, 'the base64 data is exactly what the server holds');
			assert.deepEqual(
				[...Buffer.from(image.data, 'base64').subarray(0, 8)],
				[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
				'a PNG',
			);
		});

		test('trigger-long-running-operation delivers every progress notification, in order, before the result', async () => {
			const progress: Progress[] = [];
			let resolvedWith = -1;
			const result = await client
				.callTool('trigger-long-running-operation', { duration: 1, steps: 5 }, { onProgress: (p) => progress.push(p) })
				.then((r) => {
					resolvedWith = progress.length;
					return r;
				});
			assert.equal(resolvedWith, 5, 'all five notifications had arrived when the call resolved');
			assert.deepEqual(
				progress.map((p) => [p.progress, p.total]),
				[1, 2, 3, 4, 5].map((n) => [n, 5]),
			);
			assert.ok(progress.every((p) => p.progressToken === progress[0]!.progressToken));
			assert.match(texts(result)[0]!, /Long running operation completed\. Duration: 1 seconds, Steps: 5\./);
		});

		test('aborting a call mid-way rejects it as cancelled, and the connection keeps working', async () => {
			const controller = new AbortController();
			const progress: Progress[] = [];
			const call = client.callTool(
				'trigger-long-running-operation',
				{ duration: 2, steps: 10 },
				{
					signal: controller.signal,
					onProgress: (p) => {
						progress.push(p);
						controller.abort();
					},
				},
			);
			await assert.rejects(call, (error: unknown) => {
				assert.ok(error instanceof McpError);
				assert.equal(error.code, ErrorCode.RequestCancelled);
				return true;
			});
			assert.equal(progress.length, 1, 'no progress is delivered after the abort');
			// The server ignores cancellation and keeps sending progress for the old token: that must not disturb later calls.
			const echo = await client.callTool('echo', { message: 'still here' });
			assert.deepEqual(texts(echo), ['Echo: still here']);
			await client.ping();
			assert.equal(client.isClosed, false);
		});

		test('lists and reads static resources, byte for byte as the server holds them', async () => {
			const resources = await client.listResources();
			const architecture = resources.find((r) => r.uri === 'demo://resource/static/document/architecture.md');
			assert.ok(architecture, 'architecture.md is listed');
			assert.equal(architecture.mimeType, 'text/markdown');
			assert.ok(resources.every((r) => r.uri.startsWith('demo://resource/static/document/')));
			const read = await client.readResource(architecture.uri);
			assert.equal(read.contents.length, 1);
			assert.equal(read.contents[0]!.text, readFileSync(join(everythingDir, 'dist/docs/architecture.md'), 'utf8'));
		});

		test('lists resource templates and reads text and blob resources through them', async () => {
			const templates = await client.listResourceTemplates();
			assert.deepEqual(templates.map((t) => t.uriTemplate).sort(), [
				'demo://resource/dynamic/blob/{resourceId}',
				'demo://resource/dynamic/text/{resourceId}',
			]);
			const text = await client.readResource('demo://resource/dynamic/text/3');
			assert.equal(text.contents[0]?.mimeType, 'text/plain');
			assert.match(text.contents[0]?.text ?? '', /^Resource 3: This is a plaintext resource/);
			const blob = await client.readResource('demo://resource/dynamic/blob/4');
			assert.ok(blob.contents[0]?.blob, 'a blob resource carries base64 data');
			assert.match(Buffer.from(blob.contents[0].blob, 'base64').toString('utf8'), /Resource 4/);
		});

		test("reading an unknown resource fails with the server's error", async () => {
			await assert.rejects(client.readResource('demo://resource/nowhere/1'), (error: unknown) => {
				assert.ok(error instanceof McpError);
				assert.equal(error.code, ErrorCode.InvalidParams);
				return true;
			});
		});

		test('lists prompts and gets args-prompt with its required and optional arguments', async () => {
			const prompts = await client.listPrompts();
			const argsPrompt = prompts.find((p) => p.name === 'args-prompt');
			assert.ok(argsPrompt);
			assert.deepEqual(
				argsPrompt.arguments?.map((a) => [a.name, a.required === true]),
				[
					['city', true],
					['state', false],
				],
			);
			const both = await client.getPrompt('args-prompt', { city: 'Boston', state: 'MA' });
			assert.deepEqual(both.messages, [
				{ role: 'user', content: { type: 'text', text: "What's weather in Boston, MA?" } },
			]);
			const cityOnly = await client.getPrompt('args-prompt', { city: 'Lyon' });
			assert.equal((cityOnly.messages[0]?.content as unknown as { text: string }).text, "What's weather in Lyon?");
		});

		test('completes prompt arguments using the context of the arguments already chosen', async () => {
			const ref = { type: 'ref/prompt' as const, name: 'completable-prompt' };
			const department = await client.complete(ref, { name: 'department', value: 'S' });
			assert.deepEqual(department.completion.values.sort(), ['Sales', 'Support']);
			const sales = await client.complete(ref, { name: 'name', value: '' }, { arguments: { department: 'Sales' } });
			assert.deepEqual(sales.completion.values, ['David', 'Eve', 'Frank']);
			const engineering = await client.complete(
				ref,
				{ name: 'name', value: 'B' },
				{ arguments: { department: 'Engineering' } },
			);
			assert.deepEqual(engineering.completion.values, ['Bob']);
			const template = await client.complete(
				{ type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
				{ name: 'resourceId', value: '7' },
			);
			assert.deepEqual(template.completion.values, ['7']);
		});

		test("logging/setLevel filters the server's log notifications", async () => {
			const uri = 'demo://resource/static/document/features.md';
			const count = (text: string) => logs.filter((m) => String(m.data).includes(text)).length;
			await client.setLoggingLevel('debug');
			const seen = count('Received Subscribe Resource request');
			await client.subscribe(uri);
			// The server logs each subscribe at info level before answering.
			const first = await waitFor('the subscribe log message', () =>
				logs.find(
					(m) =>
						String(m.data).includes(`Received Subscribe Resource request for URI: ${uri}`) &&
						count('Received Subscribe Resource request') > seen,
				),
			);
			assert.equal(first.level, 'info');
			await client.setLoggingLevel('error');
			await client.unsubscribe(uri); // its info message is now filtered out by the server
			await client.setLoggingLevel('debug');
			await client.subscribe(uri);
			await waitFor('the second subscribe log message', () => count('Received Subscribe Resource request') >= seen + 2);
			// Messages on one channel keep their order: had the unsubscribe message been sent, it would be here by now.
			assert.equal(count('Received Unsubscribe Resource request'), 0, 'the info message was filtered at level error');
			await client.unsubscribe(uri);
		});

		test('toggle-simulated-logging sends log notifications at the levels the server picks', async () => {
			await client.setLoggingLevel('debug');
			const seen = logs.length;
			const started = await client.callTool('toggle-simulated-logging', {});
			assert.match(texts(started)[0]!, /Started simulated, random-leveled logging/);
			try {
				const message = await waitFor('a simulated log message', () =>
					logs.slice(seen).find((m) => /(level message|level-message)/.test(String(m.data))),
				);
				assert.ok(
					['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'].includes(message.level),
				);
			} finally {
				const stopped = await client.callTool('toggle-simulated-logging', {});
				assert.match(texts(stopped)[0]!, /Stopped simulated logging/);
			}
		});

		test('subscriptions: resources/updated arrives for a subscribed resource', async () => {
			const uri = 'demo://resource/static/document/structure.md';
			await client.subscribe(uri);
			const seen = updates.length;
			const started = await client.callTool('toggle-subscriber-updates', {});
			assert.match(texts(started)[0]!, /Started simulated resource updated notifications/);
			try {
				// The first update is sent at once, the next every 5 s.
				await waitFor('notifications/resources/updated', () => updates.slice(seen).includes(uri) || undefined, 7000);
			} finally {
				await client.callTool('toggle-subscriber-updates', {});
				await client.unsubscribe(uri);
			}
		});

		test("sampling: the server's sampling/createMessage reaches the handler and its answer reaches the tool", async () => {
			samplingAnswer = {
				role: 'assistant',
				content: { type: 'text', text: 'Bonjour from the host' },
				model: 'switchboard-test-model',
				stopReason: 'endTurn',
			};
			const result = await client.callTool('trigger-sampling-request', { prompt: 'Say hi in French', maxTokens: 42 });
			const request = samplingRequests.at(-1)!;
			assert.ok(request, 'the handler was called');
			assert.equal(request.maxTokens, 42);
			assert.equal(request.systemPrompt, 'You are a helpful test server.');
			assert.match((request.messages[0]?.content as unknown as { text: string }).text, /Say hi in French/);
			const text = texts(result).join('\n');
			assert.match(text, /"model": "switchboard-test-model"/);
			assert.match(text, /Bonjour from the host/);
		});

		test('elicitation: the form reaches the handler, and accepted and declined answers reach the tool', async () => {
			elicitAnswer = {
				action: 'accept',
				content: { name: 'Ada Lovelace', check: true, email: 'ada@example.com', integer: 7, number: 2.5 },
			};
			const accepted = await client.callTool('trigger-elicitation-request', {});
			const request = elicitRequests.at(-1) as {
				message: string;
				requestedSchema: { properties: Record<string, { type?: string; format?: string }>; required?: string[] };
			};
			assert.equal(request.message, 'Please provide inputs for the following fields:');
			assert.equal(request.requestedSchema.properties.email?.format, 'email');
			assert.equal(request.requestedSchema.properties.integer?.type, 'integer');
			assert.deepEqual(request.requestedSchema.required, ['name']);
			const text = texts(accepted).join('\n');
			assert.match(text, /User provided the requested information/);
			assert.match(text, /- Name: Ada Lovelace/);
			assert.match(text, /- Email: ada@example\.com/);
			assert.match(text, /- Favorite Integer: 7/);
			elicitAnswer = { action: 'decline' };
			const declined = await client.callTool('trigger-elicitation-request', {});
			assert.match(texts(declined).join('\n'), /User declined to provide the requested information/);
		});

		test('roots: the server reads the roots from the handler, and again after notifyRootsChanged', async () => {
			const first = await client.callTool('get-roots-list', {});
			assert.match(texts(first)[0]!, /Current MCP Roots \(1 total\)/);
			assert.match(texts(first)[0]!, /Project A\n {3}URI: file:\/\/\/tmp\/project-a/);
			await client.setLoggingLevel('debug');
			const callsBefore = rootsCalls;
			roots = [
				{ uri: 'file:///tmp/project-a', name: 'Project A' },
				{ uri: 'file:///tmp/project-b', name: 'Project B' },
			];
			await client.notifyRootsChanged();
			// The server asks for the roots again, stores them, then logs that it did.
			await waitFor('roots/list after list_changed', () => rootsCalls > callsBefore || undefined);
			await waitFor(
				'the server storing the new roots',
				() => logs.some((m) => String(m.data).includes('Roots updated: 2 root(s)')) || undefined,
			);
			const second = await client.callTool('get-roots-list', {});
			assert.match(texts(second)[0]!, /Current MCP Roots \(2 total\)/);
			assert.match(texts(second)[0]!, /Project B\n {3}URI: file:\/\/\/tmp\/project-b/);
		});

		test('close() ends the session: onDidClose fires and later calls fail with ConnectionClosed', async () => {
			let closedWith: Error | undefined;
			const subscription = client.onDidClose((error) => (closedWith = error));
			await client.close();
			subscription.dispose();
			assert.equal(client.isClosed, true);
			assert.ok(closedWith, 'onDidClose fired');
			await assert.rejects(client.callTool('echo', { message: 'late' }), (error: unknown) => {
				assert.ok(error instanceof McpError);
				assert.equal(error.code, ErrorCode.ConnectionClosed);
				return true;
			});
			await client.close(); // idempotent
		});
	});
}
