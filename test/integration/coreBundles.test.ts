// dist/core.js as a user's `require` gets it: a small bundle plus the bundles it loads on first use (dist/core-*.js,
// scripts/coreBundles.mjs, #28). Each part is used here from a fresh Node process, against a real server, so a
// module missing from its bundle, or handed between bundles wrongly, fails a user-visible step.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { ErrorCode } from '../../src/protocol/jsonrpc';

// npm test runs from the repository root and builds dist/ first.
const root = process.cwd();

/** Runs `body` (CommonJS, `core` in scope) in a new Node process and returns what it printed as JSON. */
function inNode(body: string): unknown {
	const script = `
		const loaded = () => Object.keys(require.cache).filter((f) => f.startsWith(${JSON.stringify(resolve(root, 'dist'))})).map((f) => f.split('/').pop()).sort();
		const core = require('./dist/core.js');
		(async () => { ${body} })().then((r) => { process.stdout.write(JSON.stringify(r)); process.exit(0); }, (e) => { console.error(e); process.exit(1); });`;
	return JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8', timeout: 60_000 }));
}

test('the core is split: importing it reads dist/core.js only, and every other core bundle is beside it', () => {
	assert.deepEqual(inNode('return loaded();'), ['core.js']);
	const bundles = readdirSync(resolve(root, 'dist')).filter((f) => /^core-.*\.js$/.test(f));
	for (const part of [
		'core-protocol-transports-createTransport.js',
		'core-manager-manager.js',
		'core-protocol-auth-index.js',
		'core-protocol-clientRuntime.js',
	])
		assert.ok(bundles.includes(part), `${part} is built`);
});

test('connect() over stdio lists and calls with output validation, loading the transports and schemas on the way', () => {
	const result = inNode(`
		const client = await core.connect({ type: 'stdio', command: process.execPath, args: [${JSON.stringify(resolve(root, 'bench/servers/rawServer.mjs'))}, '--tools', '2'] });
		const tools = (await client.listTools()).map((t) => t.name);
		const echoed = await client.callTool('echo', { text: 'split' });
		const isClient = client instanceof core.McpClient;
		await client.close();
		return { tools, echoed: echoed.content, isClient, loaded: loaded() };`) as {
		tools: string[];
		echoed: unknown;
		isClient: boolean;
		loaded: string[];
	};
	assert.deepEqual(result.tools, ['echo', 'big', 'tool0', 'tool1']);
	assert.deepEqual(result.echoed, [{ type: 'text', text: 'split' }]);
	assert.ok(result.isClient, 'the client is the core bundle’s own McpClient');
	assert.ok(result.loaded.includes('core-protocol-transports-createTransport.js'));
	assert.ok(result.loaded.includes('core-protocol-clientRuntime.js'), 'the connection code loaded with the client');
	assert.ok(!result.loaded.includes('core-manager-manager.js'), 'no Manager for a single connect');
	assert.ok(!result.loaded.includes('core-protocol-auth-index.js'), 'no OAuth for a stdio server');
	assert.ok(!result.loaded.includes('core-protocol-auth-oauthProvider.js'), 'no OAuth provider for a stdio server');
	assert.ok(!result.loaded.includes('core-protocol-transports-streamableHttp.js'), 'no HTTP for a stdio server');
	// caching.ts is the few lines every listing reads for cache hints (modern/onFirstUse.ts), not 2026-only code.
	const modern = result.loaded.filter(
		(f) =>
			(f.startsWith('core-protocol-modern-') && f !== 'core-protocol-modern-caching.js') || f.includes('modernEra'),
	);
	assert.deepEqual(modern, [], 'a 2025-11-25 server needs none of the 2026-07-28 code');
});

test('a 2026-07-28 server loads its era and the input_required code on need, and a question is answered', () => {
	const result = inNode(`
		const client = await core.connect(
			{ type: 'stdio', command: process.execPath, args: [${JSON.stringify(resolve(root, 'test/fixtures/servers/modernServer.js'))}, 'stdio'] },
			{ handlers: { elicitation: async (params) => ({ action: 'accept', content: { name: params.message === 'Your name?' ? 'Ada' : '?' } }) } },
		);
		const beforeCall = loaded();
		const answered = await client.callTool('ask', {});
		const version = client.protocolVersion;
		await client.close();
		return { version, beforeCall, answered: answered.content, loaded: loaded() };`) as {
		version: string;
		beforeCall: string[];
		answered: unknown;
		loaded: string[];
	};
	assert.equal(result.version, '2026-07-28');
	assert.ok(result.beforeCall.includes('core-protocol-eras-modernEra.js'), 'the era loaded when it was negotiated');
	assert.ok(!result.beforeCall.includes('core-protocol-modern-inputRequests.js'), 'no input code before a question');
	assert.deepEqual(result.answered, [{ type: 'text', text: 'hello Ada (asked-for-name)' }]);
	assert.ok(result.loaded.includes('core-protocol-modern-inputRequests.js'), 'the input code loaded with the question');
	assert.ok(!result.loaded.includes('core-manager-manager.js'), 'no Manager for a single connect of either era');
});

test('an unreachable HTTP server fails with the core’s McpError, thrown from the HTTP transport’s bundle', () => {
	const result = inNode(`
		try {
			await core.connect({ type: 'http', url: 'http://127.0.0.1:9/mcp' }, { connectTimeoutMs: 10000 });
			return { connected: true };
		} catch (error) {
			return { mcpError: error instanceof core.McpError, code: error.code, loaded: loaded() };
		}`) as { mcpError: boolean; code: number; loaded: string[] };
	assert.equal(result.mcpError, true);
	assert.equal(result.code, ErrorCode.ConnectionClosed, 'refused: as from the single bundle before');
	assert.ok(result.loaded.includes('core-protocol-transports-streamableHttp.js'), 'the HTTP transport loaded on need');
	assert.ok(!result.loaded.includes('core-manager-manager.js'), 'no Manager for an HTTP connect');
});

test('createManager() starts a server from its own bundle and hands back the core’s McpClient', () => {
	const result = inNode(`
		const manager = core.createManager({ logger: () => core.nullLogger });
		await manager.reconcile([{ name: 'raw', config: { type: 'stdio', command: process.execPath, args: [${JSON.stringify(resolve(root, 'bench/servers/rawServer.mjs'))}] }, source: { kind: 'user', label: 'User settings' }, workspaceDefined: false }]);
		await manager.need('raw');
		const called = await manager.callTool('raw', 'echo', { text: 'managed' });
		const isClient = manager.client('raw') instanceof core.McpClient;
		let unknownServer;
		try { await manager.callTool('nope', 'echo', {}); } catch (error) { unknownServer = error instanceof core.McpError || error instanceof Error; }
		await manager.dispose();
		return { called: called.content, isClient, unknownServer, loaded: loaded() };`) as {
		called: unknown;
		isClient: boolean;
		unknownServer: boolean;
		loaded: string[];
	};
	assert.deepEqual(result.called, [{ type: 'text', text: 'managed' }]);
	assert.ok(result.isClient, 'the Manager’s client is the core bundle’s own McpClient class');
	assert.ok(result.unknownServer);
	assert.ok(result.loaded.includes('core-manager-manager.js'));
});

test('createOAuthProvider() and createHeadlessOAuthHooks() load the OAuth bundle on first use', () => {
	const result = inNode(`
		const before = loaded();
		const hooks = core.createHeadlessOAuthHooks({ openUrl: () => {} });
		const provider = core.createOAuthProvider({ serverUrl: 'http://127.0.0.1:9/mcp', config: {}, hooks });
		return { before, hasTokens: await provider.hasTokens(), hooks: typeof hooks, loaded: loaded() };`) as {
		before: string[];
		hasTokens: boolean;
		hooks: string;
		loaded: string[];
	};
	assert.deepEqual(result.before, ['core.js']);
	assert.equal(result.hooks, 'object');
	assert.equal(result.hasTokens, false, 'a new provider has no tokens');
	assert.ok(result.loaded.includes('core-protocol-auth-index.js'));
	assert.ok(!result.loaded.includes('core-manager-manager.js'), 'OAuth alone loads no Manager');
	assert.ok(!result.loaded.includes('core-protocol-clientRuntime.js'), 'nor any client code before a connect');
});
