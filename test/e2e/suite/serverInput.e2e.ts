// The one queue for server-initiated UI in the real VS Code: VS Code shows one quick input at a time and hides the open
// one when another opens, so a server's sampling consent, an elicitation form and the user's own Call Tool form used
// to cancel each other. Here a hidden request waits, announced, and the user's half-filled form is not thrown away.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import type { CallToolResult } from '../../../src/protocol/schema';
import type { CallOutcome } from '../../../src/vscode/tools/commands';
import { answerQuickPick, extensionApi, quickInputAccept, quickInputClose, sleep, test, waitFor } from './harness';
import {
	clickDecline,
	jsonAfter,
	needDriver,
	quickInput,
	resultText,
	serverWithTool,
	showWaiting,
	typeInto,
	waitForQuickInput,
	waitingText,
	USER_PACED,
} from './elicitationSupport';

const SERVER = 'everything';
const CONSENT = `${SERVER} wants to use a language model`;
const FORM_FIRST_STEP = 'Your full, legal name';

function rawResult(result: CallToolResult): unknown {
	return jsonAfter(resultText(result), 'Raw result: ');
}

/** Tracks whether a promise settled, without awaiting it. */
function track<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
	let done = false;
	void promise.then(
		() => (done = true),
		() => (done = true),
	);
	return { promise, settled: () => done };
}

async function sampling(prompt: string): Promise<ReturnType<typeof track<CallToolResult>>> {
	needDriver();
	await waitFor(async () => (await vscode.lm.selectChatModels({ vendor: 'switchboard-test' })).length > 0, {
		timeoutMs: 20_000,
		message: 'the Fake Echo model',
	});
	await vscode.commands.executeCommand('mcpSwitchboard.resetSamplingConsent');
	const manager = await serverWithTool(SERVER, 'trigger-sampling-request');
	return track(manager.callTool(SERVER, 'trigger-sampling-request', { prompt, maxTokens: 100 }, USER_PACED));
}

async function elicitation(): Promise<ReturnType<typeof track<CallToolResult>>> {
	needDriver();
	const manager = await serverWithTool(SERVER, 'trigger-elicitation-request');
	return track(manager.callTool(SERVER, 'trigger-elicitation-request', {}, USER_PACED));
}

test(
	'Ctrl+P over a sampling consent does not deny it: the request waits, announced, and Allow once still works',
	async () => {
		const call = await sampling('quick open');
		await waitForQuickInput(CONSENT);
		await vscode.commands.executeCommand('workbench.action.quickOpen');
		await waitFor(async () => (await waitingText())?.includes(CONSENT), {
			message: 'the consent announced as waiting',
		});
		await sleep(1000);
		assert.equal(call.settled(), false, 'opening Ctrl+P did not answer the server');
		const open = await quickInput();
		assert.ok(open && !open.text.includes(CONSENT), "the consent did not push the user's Ctrl+P away again");
		await quickInputClose();
		await showWaiting();
		await waitForQuickInput(CONSENT);
		await answerQuickPick('Allow once');
		const result = await call.promise;
		assert.notEqual(result.isError, true, resultText(result));
		assert.match(resultText(result), /LLM sampling result/);
	},
	{ timeoutMs: 90_000 },
);

test(
	'an elicitation that arrives while the Call Tool form is half-filled waits until the form is done, then shows',
	async () => {
		const a = await extensionApi<SwitchboardApi>();
		const manager = await serverWithTool(SERVER, 'echo');
		const echo = manager.get(SERVER)?.tools.find((t) => t.tool.name === 'echo');
		assert.ok(echo);
		const form = track(
			Promise.resolve(
				vscode.commands.executeCommand<CallOutcome>('mcpSwitchboard.callTool', {
					kind: 'tool',
					server: SERVER,
					tool: echo,
				}),
			),
		);
		await waitForQuickInput(`${SERVER}: echo`);
		await typeInto('half a sentence');
		const call = await elicitation();
		await waitFor(async () => (await waitingText())?.includes(`${SERVER} asks for input`), {
			message: 'the elicitation announced as waiting',
		});
		await sleep(1000);
		const still = await quickInput();
		assert.ok(still?.text.includes(`${SERVER}: echo`), `the Call Tool form is still open: ${JSON.stringify(still)}`);
		assert.equal(still?.value, 'half a sentence', 'with what was typed');
		await quickInputAccept();
		const outcome = await form.promise;
		assert.match(resultText(outcome.result as CallToolResult), /half a sentence/);
		// The form is done: the waiting elicitation shows by itself.
		await waitForQuickInput(FORM_FIRST_STEP);
		await clickDecline();
		assert.deepEqual(rawResult(await call.promise), { action: 'decline' });
		assert.equal(a.waitingRequests.text, undefined);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	},
	{ timeoutMs: 90_000 },
);

test(
	'a sampling consent and an elicitation take turns instead of closing each other',
	async () => {
		const consent = await sampling('turns');
		await waitForQuickInput(CONSENT);
		const form = await elicitation();
		await sleep(1500);
		const open = await quickInput();
		assert.ok(
			open?.text.includes(CONSENT),
			`the consent is still on screen: ${JSON.stringify(open?.text.slice(0, 200))}`,
		);
		assert.equal(consent.settled() || form.settled(), false);
		await answerQuickPick('Deny');
		assert.match(resultText(await consent.promise), /declined/);
		await waitForQuickInput(FORM_FIRST_STEP);
		await clickDecline();
		assert.deepEqual(rawResult(await form.promise), { action: 'decline' });
	},
	{ timeoutMs: 90_000 },
);

test(
	'with two requests waiting, the list shows both and follows the queue: a dismissed one answers cancel and leaves the list, picking the other opens it',
	async () => {
		const a = await extensionApi<SwitchboardApi>();
		const first = await elicitation();
		await waitForQuickInput(FORM_FIRST_STEP);
		const second = await elicitation();
		await quickInputClose();
		await waitFor(() => a.waitingRequests.text?.includes('2 MCP server requests wait for you'), {
			message: 'both announced',
		});
		await sleep(500);
		assert.equal(await quickInput(), undefined, 'after Escape nothing pops up by itself');
		await showWaiting();
		const list = await waitForQuickInput('MCP server requests waiting for you');
		assert.deepEqual(list.rows, [SERVER, SERVER]);
		// What the row's ✕ button does (a synthetic click on it did not reach VS Code's handler in this harness).
		const [oldest] = a.inputQueue.waiting();
		assert.ok(oldest && a.inputQueue.dismiss(oldest.id));
		assert.deepEqual(rawResult(await first.promise), { action: 'cancel' });
		await waitFor(async () => (await quickInput())?.rows.length === 1, { message: 'one row left' });
		await quickInputAccept();
		await waitForQuickInput(FORM_FIRST_STEP);
		await clickDecline();
		assert.deepEqual(rawResult(await second.promise), { action: 'decline' });
		assert.equal(a.waitingRequests.text, undefined);
	},
	{ timeoutMs: 90_000 },
);
