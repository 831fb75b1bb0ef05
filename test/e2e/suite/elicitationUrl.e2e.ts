// URL elicitation in the real VS Code against server-everything's `trigger-url-elicitation`: the user sees the server
// and the domain before anything opens, and the -32042 "URL elicitation required" error leads to a retry.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ElicitationPresenter } from '../../../src/vscode/elicitation/elicitation';
import { handleUrlElicitationRequired, urlElicitationsOf } from '../../../src/vscode/elicitation/urlElicitations';
import { answerQuickPick, quickInputAccept, quickInputClose, sleep, test, waitFor } from './harness';
import {
	jsonAfter,
	needDriver,
	resultText,
	serverWithTool,
	showWaiting,
	waitForQuickInput,
	waitingText,
	USER_PACED,
} from './elicitationSupport';

const SERVER = 'everything';
const TOOL = 'trigger-url-elicitation';
const URL = 'https://consent.example.com/approve?session=42';

test(
	'a URL elicitation shows the server and the full domain, and Decline opens nothing',
	async () => {
		needDriver();
		const manager = await serverWithTool(SERVER, TOOL);
		const call = manager.callTool(SERVER, TOOL, { url: URL, message: 'Approve the demo in your browser' }, USER_PACED);
		const shown = await waitForQuickInput('consent.example.com');
		assert.match(shown.text, new RegExp(`${SERVER} asks you to open a page on consent\\.example\\.com`));
		assert.match(shown.placeholder, /Approve the demo in your browser/);
		assert.ok(shown.rows.includes('Open consent.example.com'), `rows: ${shown.rows.join(' | ')}`);
		assert.match(shown.text, /https:\/\/consent\.example\.com\/approve\?session=42/, 'the full URL is visible too');
		await answerQuickPick('Decline');
		const result = await call;
		assert.match(resultText(result), /declined to open the URL/);
		assert.deepEqual(jsonAfter(resultText(result), 'Raw result: '), { action: 'decline' });
	},
	{ timeoutMs: 60_000 },
);

test(
	'Escape on a URL elicitation leaves it waiting (announced); opened again, Enter takes the safe choice: Decline',
	async () => {
		needDriver();
		const manager = await serverWithTool(SERVER, TOOL);
		const call = manager.callTool(SERVER, TOOL, { url: URL }, USER_PACED);
		await waitForQuickInput('consent.example.com');
		await quickInputClose();
		let settled = false;
		void call.then(() => (settled = true));
		await waitFor(async () => (await waitingText())?.includes(`${SERVER} asks you to open a page`), {
			message: 'the waiting request announced',
		});
		await sleep(1000);
		assert.equal(settled, false, 'hiding the consent did not answer the server');
		await showWaiting();
		await waitForQuickInput('consent.example.com');
		const again = await waitFor(
			async () => {
				const shown = await waitForQuickInput('consent.example.com');
				return shown.rows.length > 0 && shown;
			},
			{ message: 'the consent shown again with its rows' },
		);
		assert.equal(again.rows[0], 'Decline', `the first row is Decline (rows: ${again.rows.join(' | ')})`);
		await quickInputAccept();
		assert.deepEqual(jsonAfter(resultText(await call), 'Raw result: '), { action: 'decline' });
	},
	{ timeoutMs: 60_000 },
);

test(
	'the -32042 error runs the URL elicitation, opens the page only after consent, and the retried call succeeds',
	async () => {
		needDriver();
		const manager = await serverWithTool(SERVER, TOOL);
		const args = { url: URL, errorPath: true };
		const error = await manager.callTool(SERVER, TOOL, args, USER_PACED).then(
			() => assert.fail('the first call should fail with -32042'),
			(e: unknown) => e,
		);
		const elicitations = urlElicitationsOf(error);
		assert.ok(elicitations && elicitations.length === 1, `a -32042 error with one elicitation, got ${String(error)}`);

		// A presenter of its own, so the test sees what would be opened instead of a browser tab.
		const opened: string[] = [];
		const log = vscode.window.createOutputChannel('MCP e2e url elicitation', { log: true });
		const presenter = new ElicitationPresenter(() => log, { openExternal: async (url) => (opened.push(url), true) });
		try {
			const retry = handleUrlElicitationRequired(SERVER, error, presenter, `${TOOL}`);
			const consent = await waitForQuickInput('modelcontextprotocol.io');
			assert.deepEqual(opened, [], 'nothing opens before the user agrees');
			assert.ok(consent.rows.includes('Open modelcontextprotocol.io'), `rows: ${consent.rows.join(' | ')}`);
			await answerQuickPick('Open modelcontextprotocol.io');
			await waitForQuickInput(`finish in your browser, then retry ${TOOL}`);
			assert.deepEqual(opened, ['https://modelcontextprotocol.io']);
			await answerQuickPick(`Retry ${TOOL}`);
			assert.equal(await retry, true);
		} finally {
			presenter.dispose();
			log.dispose();
		}

		// The retry goes the request path: an elicitation/create in URL mode, answered through the extension's presenter.
		const call = manager.callTool(SERVER, TOOL, args, USER_PACED);
		await waitForQuickInput('consent.example.com');
		await answerQuickPick('Decline');
		assert.deepEqual(jsonAfter(resultText(await call), 'Raw result: '), { action: 'decline' });
	},
	{ timeoutMs: 90_000 },
);

test(
	'notifications/elicitation/complete lets a waiting retry go on by itself',
	async () => {
		needDriver();
		const log = vscode.window.createOutputChannel('MCP e2e url completion', { log: true });
		const presenter = new ElicitationPresenter(() => log, { openExternal: async () => true });
		try {
			const retry = presenter.confirmRetry(SERVER, 'the call', ['elicitation-7']);
			await waitForQuickInput('finish in your browser');
			presenter.notifyComplete(SERVER, 'elicitation-7');
			assert.equal(await retry, true);
			// A completion that arrived before the prompt needs no prompt at all.
			assert.equal(await presenter.confirmRetry(SERVER, 'the call', ['elicitation-7']), true);
		} finally {
			presenter.dispose();
			log.dispose();
		}
	},
	{ timeoutMs: 30_000 },
);
