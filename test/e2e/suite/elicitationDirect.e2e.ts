// The edge's presenter and broker behind a client of their own that advertises URL elicitation and sampling tools,
// against the real servers in the real VS Code: what the Manager's servers get once it advertises both too.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { connect } from '../../../src/core';
import type { McpClient } from '../../../src/protocol/client';
import { ElicitationPresenter } from '../../../src/vscode/elicitation/elicitation';
import { handleUrlElicitationRequired } from '../../../src/vscode/elicitation/urlElicitations';
import { SamplingBroker } from '../../../src/vscode/sampling/sampling';
import { answerQuickPick, test, waitFor } from './harness';
import { jsonAfter, needDriver, repoRoot, resultText, waitForQuickInput } from './elicitationSupport';

interface Edge {
	client: McpClient;
	presenter: ElicitationPresenter;
	broker: SamplingBroker;
	opened: string[];
	dispose(): Promise<void>;
}

async function edge(name: string, args: string[]): Promise<Edge> {
	const log = vscode.window.createOutputChannel(`MCP e2e ${name}`, { log: true });
	const opened: string[] = [];
	const presenter = new ElicitationPresenter(() => log, { openExternal: async (url) => (opened.push(url), true) });
	// The broker uses only globalState of its context: an in-memory one keeps the extension's own consent untouched.
	const state = new Map<string, unknown>();
	const globalState = {
		get: (key: string) => state.get(key),
		update: async (key: string, value: unknown) => void state.set(key, value),
		keys: () => [...state.keys()],
	};
	const context = { globalState } as unknown as vscode.ExtensionContext;
	const broker = new SamplingBroker(context, () => log);
	// Consent is keyed on where a server is defined (consentKey.ts); without an identity nothing is remembered.
	broker.setServerIdentity((server) => ({
		name: server,
		source: { kind: 'api', label: 'e2e' },
		config: { type: 'stdio', command: 'node', args },
	}));
	const client = await connect(
		{ type: 'stdio', command: 'node', args },
		{
			name,
			timeoutMs: 120_000,
			handlers: {
				elicitation: (params, signal) => presenter.elicit(name, params, signal),
				elicitationUrl: true,
				sampling: (params, signal) => broker.sample(name, params, signal),
				samplingTools: true,
			},
		},
	);
	client.onDidCompleteElicitation((e) => presenter.notifyComplete(name, e.elicitationId));
	return {
		client,
		presenter,
		broker,
		opened,
		dispose: async () => {
			await client.close();
			presenter.dispose();
			broker.dispose();
			log.dispose();
		},
	};
}

const EVERYTHING = () => [
	path.join(repoRoot(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'),
	'stdio',
];

test(
	'with url elicitation advertised: the page opens after consent, and -32042 runs it and the retried call succeeds',
	async () => {
		needDriver();
		const e = await edge('everything-direct', EVERYTHING());
		try {
			const url = 'https://consent.example.com/approve?session=42';
			let call = e.client.callTool('trigger-url-elicitation', { url, message: 'Approve the demo' });
			await waitForQuickInput('asks you to open a page on consent.example.com');
			await answerQuickPick('Open consent.example.com');
			assert.deepEqual(jsonAfter(resultText(await call), 'Raw result: '), { action: 'accept' });
			assert.deepEqual(e.opened, [url]);

			const args = { url, errorPath: true };
			const error = await e.client.callTool('trigger-url-elicitation', args).then(
				() => assert.fail('expected -32042'),
				(x: unknown) => x,
			);
			const retry = handleUrlElicitationRequired('everything-direct', error, e.presenter, 'trigger-url-elicitation');
			await waitForQuickInput('modelcontextprotocol.io');
			await answerQuickPick('Open modelcontextprotocol.io');
			await waitForQuickInput('then retry trigger-url-elicitation');
			await answerQuickPick('Retry trigger-url-elicitation');
			assert.equal(await retry, true);
			assert.deepEqual(e.opened, [url, 'https://modelcontextprotocol.io']);
			call = e.client.callTool('trigger-url-elicitation', args);
			await waitForQuickInput('consent.example.com');
			await answerQuickPick('Decline');
			assert.deepEqual(jsonAfter(resultText(await call), 'Raw result: '), { action: 'decline' });
		} finally {
			await e.dispose();
		}
	},
	{ timeoutMs: 90_000 },
);

test(
	'with sampling tools advertised: the tool loop runs through the Fake Echo model, tool_use and tool_result both ways',
	async () => {
		needDriver();
		await waitFor(async () => (await vscode.lm.selectChatModels({ vendor: 'switchboard-test' })).length > 0, {
			timeoutMs: 20_000,
		});
		const e = await edge('tools-direct', [path.join(repoRoot(), 'test/e2e/fixture-extension/fixtureServer.mjs')]);
		try {
			const call = e.client.callTool('weather-via-sampling', {});
			await waitForQuickInput('tools-direct wants to use a language model');
			await answerQuickPick('Allow for this session');
			const result = await call;
			assert.notEqual(result.isError, true, resultText(result));
			const { first, final } = JSON.parse(resultText(result)) as {
				first: { stopReason: string; content: unknown };
				final: { stopReason: string; content: { text: string } };
			};
			assert.equal(first.stopReason, 'toolUse');
			assert.deepEqual(first.content, [
				{ type: 'tool_use', id: 'call-1', name: 'get_weather', input: { city: 'Paris' } },
			]);
			assert.equal(final.stopReason, 'endTurn');
			const echo = JSON.parse(final.content.text.slice('echo: '.length)) as { tools: string[]; toolResults: unknown[] };
			assert.deepEqual(echo.tools, ['get_weather']);
			assert.deepEqual(echo.toolResults, [{ callId: 'call-1', text: 'Paris: 18°C, cloudy' }]);
		} finally {
			await e.dispose();
		}
	},
	{ timeoutMs: 60_000 },
);
