// Sampling in the real VS Code: server-everything's `trigger-sampling-request` (and a small tools fixture server)
// reach the deterministic "Fake Echo" model of test/e2e/fixture-extension through vscode.lm, with the user's consent
// given or refused in the real quick pick.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CallToolResult } from '../../../src/protocol/schema';
import { SAMPLING_REQUEST_SCHEME } from '../../../src/vscode/sampling/sampling';
import { SYSTEM_PROMPT_PREFIX } from '../../../src/vscode/sampling/samplingMapping';
import type { SwitchboardApi } from '../../../src/extension';
import {
	answerQuickPick,
	extensionApi,
	quickInputAccept,
	quickInputClose,
	screenshot,
	sleep,
	test,
	waitFor,
} from './harness';
import {
	FIXTURE,
	fixtureServer,
	needDriver,
	quickInput,
	resultText,
	serverWithTool,
	waitForQuickInput,
	USER_PACED,
} from './elicitationSupport';

const SERVER = 'everything';
const TOOL = 'trigger-sampling-request';
const CONSENT = `${SERVER} wants to use a language model`;

interface SamplingResult {
	role: string;
	model: string;
	stopReason?: string;
	content:
		{ type: string; text?: string } | { type: string; text?: string; id?: string; name?: string; input?: unknown }[];
}

interface Echo {
	messages: { role: string; text: string }[];
	modelOptions: Record<string, unknown>;
	tools: string[];
	toolMode: string;
	toolResults: { callId: string; text: string }[];
}

/** The model's answer as server-everything prints it: "LLM sampling result: \n{...}". */
function samplingResult(result: CallToolResult): SamplingResult {
	const text = resultText(result);
	const marker = 'LLM sampling result:';
	assert.ok(text.includes(marker), `expected a sampling result, got: ${text.slice(0, 400)}`);
	return JSON.parse(text.slice(text.indexOf(marker) + marker.length)) as SamplingResult;
}

function echoOf(content: SamplingResult['content']): Echo {
	const text = (Array.isArray(content) ? content.find((c) => c.type === 'text') : content)?.text ?? '';
	assert.ok(text.startsWith('echo: '), `the fake model answers "echo: {...}", got ${text.slice(0, 200)}`);
	return JSON.parse(text.slice('echo: '.length)) as Echo;
}

async function fakeModelReady(): Promise<void> {
	// Asking for models makes the workbench resolve the providers' models (see notes/real-vscode.md).
	await waitFor(async () => (await vscode.lm.selectChatModels({ vendor: 'switchboard-test' })).length > 0, {
		timeoutMs: 20_000,
		message: 'the Fake Echo model of test/e2e/fixture-extension',
	});
}

/** Starts the tool call; resolves (in a wrapper, so awaiting does not wait for the call) once the call is sent. */
async function sample(prompt: string, maxTokens = 1000): Promise<{ call: Promise<CallToolResult> }> {
	needDriver();
	await fakeModelReady();
	const manager = await serverWithTool(SERVER, TOOL);
	return { call: manager.callTool(SERVER, TOOL, { prompt, maxTokens }, USER_PACED) };
}

/**
 * A fresh start for a test: no remembered consent, and no request an earlier test left waiting (by design a request
 * put aside holds back new prompts until it is answered, so one failed test would otherwise fail every later one).
 */
async function resetConsent(): Promise<void> {
	await vscode.commands.executeCommand('mcpSwitchboard.resetSamplingConsent');
	const { inputQueue } = await extensionApi<SwitchboardApi>();
	for (const request of inputQueue.waiting()) inputQueue.dismiss(request.id);
}

/**
 * Waits until no quick input is on screen: the next prompt has the same title as the one just answered, and a look
 * while the answered one is still closing would take it for the new one.
 */
async function noQuickInput(): Promise<void> {
	await waitFor(async () => !(await quickInput()), { timeoutMs: 15_000, message: 'the answered prompt to close' });
}

test(
	'allowed once, the request reaches the model with system prompt, max tokens and temperature, and the server gets its answer',
	async () => {
		await resetConsent();
		const { call } = await sample('hello');
		const consent = await waitForQuickInput(CONSENT);
		await screenshot('sampling-consent');
		assert.match(
			consent.text,
			/Fake Echo \(switchboard-test\/fake-echo\)/,
			'the prompt names the model that will answer',
		);
		assert.match(consent.placeholder, /Resource trigger-sampling-request context: hello/, 'and shows what is sent');
		assert.match(consent.placeholder, /up to 1000 tokens/);
		for (const row of ['Allow once', 'Allow for this session', 'Always allow', 'Deny', 'Show request…']) {
			assert.ok(consent.rows.includes(row), `the consent offers "${row}" (rows: ${consent.rows.join(' | ')})`);
		}
		await answerQuickPick('Allow once');
		const result = samplingResult(await call);
		assert.equal(result.role, 'assistant');
		assert.equal(result.model, 'fake-echo');
		assert.equal(result.stopReason, 'endTurn');
		const echo = echoOf(result.content);
		assert.deepEqual(echo.messages, [
			{ role: 'user', text: `${SYSTEM_PROMPT_PREFIX}\n\nYou are a helpful test server.` },
			{ role: 'user', text: 'Resource trigger-sampling-request context: hello' },
		]);
		assert.deepEqual(echo.modelOptions, { max_tokens: 1000, temperature: 0.7 });
		assert.deepEqual(echo.tools, []);
	},
	{ timeoutMs: 60_000 },
);

test(
	'Deny refuses, and so does Enter on the fresh prompt (it starts on Deny); Escape is no refusal: the request waits, announced, until opened again',
	async () => {
		await resetConsent();
		let { call } = await sample('no thanks');
		await waitForQuickInput(CONSENT);
		await answerQuickPick('Deny');
		let result = await call;
		assert.equal(result.isError, true);
		assert.match(resultText(result), /declined/);

		// The safe choice is the default: Enter on the prompt as it opens denies.
		await noQuickInput();
		({ call } = await sample('enter'));
		const fresh = await waitForQuickInput(CONSENT);
		assert.equal(fresh.rows[0], 'Deny', `the first row is Deny (rows: ${fresh.rows.join(' | ')})`);
		await quickInputAccept();
		result = await call;
		assert.equal(result.isError, true);
		assert.match(resultText(result), /declined/);

		// Escape puts it aside: no answer reaches the server, the status bar says who waits, and Show brings it back.
		await noQuickInput();
		({ call } = await sample('escape'));
		await waitForQuickInput(CONSENT);
		await quickInputClose();
		let settled = false;
		void call.then(() => (settled = true));
		const a = await extensionApi<SwitchboardApi>();
		await waitFor(() => a.waitingRequests.text?.includes(`${SERVER} wants to use a language model`), {
			message: 'the waiting request announced in the status bar',
		});
		await sleep(1000);
		assert.equal(settled, false, 'hiding the prompt did not answer the server');
		await vscode.commands.executeCommand('mcpSwitchboard.showWaitingRequests');
		await waitForQuickInput(CONSENT);
		await answerQuickPick('Allow once');
		assert.equal(samplingResult(await call).model, 'fake-echo');
		assert.equal(a.waitingRequests.text, undefined, 'nothing waits any more');
	},
	{ timeoutMs: 90_000 },
);

test(
	'Show request opens the full request read-only and asks again; a small max tokens budget ends with maxTokens',
	async () => {
		await resetConsent();
		const { call } = await sample('show me', 5);
		await waitForQuickInput(CONSENT);
		await answerQuickPick('Show request…');
		const document = await waitFor(
			() =>
				vscode.workspace.textDocuments.find(
					(d) => d.uri.scheme === SAMPLING_REQUEST_SCHEME && d.getText().includes('show me'),
				),
			{
				message: 'the "Show request" document',
			},
		);
		const text = document.getText();
		for (const expected of [
			'Sampling request from "everything"',
			'Max tokens: 5',
			'Temperature: 0.7',
			'You are a helpful test server.',
			'Resource trigger-sampling-request context: show me',
		]) {
			assert.ok(text.includes(expected), `the document shows "${expected}"`);
		}
		await waitForQuickInput(CONSENT);
		await answerQuickPick('Allow once');
		const result = samplingResult(await call);
		assert.equal(result.stopReason, 'maxTokens');
		assert.equal(
			(result.content as { text: string }).text.length,
			20,
			'the fake model stops at 5 tokens of 4 characters',
		);
	},
	{ timeoutMs: 60_000 },
);

/** Fails when a consent prompt shows within `ms`. */
async function noPromptFor(ms: number): Promise<void> {
	const until = Date.now() + ms;
	while (Date.now() < until) {
		const open = await quickInput();
		assert.ok(
			!open || !(open.text.includes(CONSENT) || open.placeholder.includes(CONSENT)),
			`no consent prompt expected, but one shows: ${JSON.stringify(open)}`,
		);
		await sleep(200);
	}
}

test(
	'"Allow for this session" and "Always allow" are remembered until "MCP Switchboard: Reset Sampling Consent"',
	async () => {
		await resetConsent();
		let { call } = await sample('session one');
		await waitForQuickInput(CONSENT);
		await answerQuickPick('Allow for this session');
		assert.equal(samplingResult(await call).model, 'fake-echo');
		({ call } = await sample('session two'));
		assert.equal(samplingResult(await call).model, 'fake-echo', 'the second request is answered without asking');

		await resetConsent();
		({ call } = await sample('always one'));
		await waitForQuickInput(CONSENT);
		await answerQuickPick('Always allow');
		samplingResult(await call);
		await noQuickInput();
		({ call } = await sample('always two'));
		await noPromptFor(500);
		samplingResult(await call);

		await resetConsent();
		({ call } = await sample('after reset'));
		await waitForQuickInput(CONSENT);
		await answerQuickPick('Deny');
		assert.equal((await call).isError, true);
	},
	{ timeoutMs: 90_000 },
);

test(
	'"Always allow" belongs to the server as configured: a changed config of the same name asks again',
	async () => {
		await resetConsent();
		let { call } = await sample('always, before the change');
		await waitForQuickInput(CONSENT);
		await answerQuickPick('Always allow');
		samplingResult(await call);
		await noQuickInput();

		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const original = config.inspect<Record<string, Record<string, unknown>>>('servers')?.workspaceValue;
		assert.ok(original?.[SERVER], `the workspace defines '${SERVER}'`);
		try {
			// Same name, another definition (as a repository's own 'everything' would be): the grant does not carry over.
			await config.update(
				'servers',
				{ ...original, [SERVER]: { ...original[SERVER], env: { E2E_CHANGED: '1' } } },
				vscode.ConfigurationTarget.Workspace,
			);
			const api = await extensionApi<{
				manager: { get(name: string): { config: { env?: Record<string, string> } } | undefined };
			}>();
			await waitFor(() => api.manager.get(SERVER)?.config.env?.E2E_CHANGED === '1', {
				timeoutMs: 15_000,
				message: 'the changed config to apply',
			});
			({ call } = await sample('always, after the change'));
			await waitForQuickInput(CONSENT, 30_000);
			await answerQuickPick('Deny');
			assert.equal((await call).isError, true, 'denied: the server gets an error');
		} finally {
			await config.update('servers', original, vscode.ConfigurationTarget.Workspace);
			await resetConsent();
		}
	},
	{ timeoutMs: 120_000 },
);

test(
	'sampling with tools: the model calls the server tool, the server answers with a tool result, the model finishes',
	async () => {
		needDriver();
		await resetConsent();
		await fakeModelReady();
		const manager = await fixtureServer('weather-via-sampling');

		const call = manager.callTool(FIXTURE, 'weather-via-sampling', {}, USER_PACED);
		// A client that does not advertise sampling.tools gets an error from the server at once: say so, not "timed out".
		const early = await Promise.race([
			call.then((r) => resultText(r)),
			waitForQuickInput(`${FIXTURE} wants to use a language model`).then(() => undefined),
		]);
		assert.equal(early, undefined, `the call ended before any consent prompt: ${early}`);
		const consent = await waitForQuickInput(`${FIXTURE} wants to use a language model`);
		assert.match(
			consent.placeholder,
			/, 1 tool(?!s)/,
			'the consent names the one tool offered to the model, in the right number',
		);
		await answerQuickPick('Allow for this session');
		const result = await call;
		assert.notEqual(result.isError, true, resultText(result));
		const { first, final } = JSON.parse(resultText(result)) as { first: SamplingResult; final: SamplingResult };
		assert.equal(first.stopReason, 'toolUse');
		assert.deepEqual(first.content, [
			{ type: 'tool_use', id: 'call-1', name: 'get_weather', input: { city: 'Paris' } },
		]);
		assert.equal(final.stopReason, 'endTurn');
		const echo = echoOf(final.content);
		assert.deepEqual(echo.tools, ['get_weather']);
		assert.deepEqual(echo.toolResults, [{ callId: 'call-1', text: 'Paris: 18°C, cloudy' }]);
		assert.deepEqual(
			echo.messages.map((m) => m.role),
			['user', 'assistant', 'user'],
		);
		assert.equal(echo.messages[1]?.text, '[call get_weather {"city":"Paris"}]');
	},
	{ timeoutMs: 90_000 },
);

test(
	'an image in a sampling request reaches a model that takes images as image data, not as text',
	async () => {
		needDriver();
		await resetConsent();
		await fakeModelReady();
		const manager = await fixtureServer('describe-image');
		const call = manager.callTool(FIXTURE, 'describe-image', {}, USER_PACED);
		await waitForQuickInput(`${FIXTURE} wants to use a language model`);
		await answerQuickPick('Allow once');
		const result = JSON.parse(resultText(await call)) as SamplingResult;
		const echo = echoOf(result.content) as Echo & { images: number };
		assert.equal(echo.images, 1, 'one image part reached the model');
		// The fixture sends a 1×1 PNG of 70 bytes: the model gets the decoded bytes, not base64 text.
		assert.deepEqual(echo.messages, [{ role: 'user', text: 'What is in this image?[data image/png 70 bytes]' }]);
	},
	{ timeoutMs: 60_000 },
);
