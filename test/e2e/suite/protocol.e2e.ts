// The protocol view in a real VS Code, read inside its webview (a nested iframe) through the page driver: opened for
// server-everything, it lists the messages of a tool call live (request and response paired, with latency), filters
// by text, shows a message's pretty JSON on Enter and copies it; it records while closed (a call made then is there when
// it opens again).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import { needDriver, serverWithTool } from './elicitationSupport';
import { driver, extensionApi, screenshot, test, waitFor } from './harness';

const SERVER = 'everything';

interface ViewState {
	count: string;
	rows: string[][];
	details: string;
	detailsOpen: boolean;
	/** Time and kind cells whose text does not fit their column (shown cut with an ellipsis). */
	clipped: string[];
}

/** What the protocol view's page shows: the counter, the visible rows (cells as text), the details pane. */
async function viewState(): Promise<ViewState | undefined> {
	const values = (await driver({
		action: 'frameEvaluate',
		script: `(() => { const list = document.getElementById('list'); const count = document.getElementById('count'); if (!list || !count) return undefined;
			return { count: count.textContent, rows: [...list.querySelectorAll('.row')].sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top)).map((r) => [...r.children].map((c) => c.textContent)),
				details: document.getElementById('json').textContent, detailsOpen: document.getElementById('details').classList.contains('open'),
				clipped: [...list.querySelectorAll('.row')].flatMap((r) => [r.children[0], r.children[2]]).filter((c) => c && c.scrollWidth > c.clientWidth).map((c) => c.textContent) }; })()`,
	})) as ViewState[];
	return values[0];
}

/** Runs `script` inside the protocol view's page (to type into its filter or press its keys). */
async function inView(script: string): Promise<void> {
	const values = (await driver({
		action: 'frameEvaluate',
		script: `(() => { if (!document.getElementById('list')) return undefined; ${script}; return true; })()`,
	})) as unknown[];
	assert.equal(values.length, 1, 'exactly one protocol view page');
}

test(
	'the protocol view lists a tool call live, paired with latency; filter, details and copy work in the webview',
	async () => {
		needDriver();
		const extension = await extensionApi<SwitchboardApi>();
		if (extension.manager.get(SERVER)?.state.kind === 'needsTrust')
			await vscode.commands.executeCommand('mcpSwitchboard.startServer', SERVER);
		await serverWithTool(SERVER, 'echo');
		const panel = await vscode.commands.executeCommand<{ log: { size: number } } | undefined>(
			'mcpSwitchboard.showProtocol',
			SERVER,
		);
		assert.ok(panel, 'the view opened');
		try {
			await waitFor(async () => (await viewState())?.count !== undefined, { message: 'the protocol view page' });
			await vscode.commands.executeCommand('mcpSwitchboard.callTool', {
				server: SERVER,
				tool: 'echo',
				arguments: { message: 'seen on the wire' },
			});
			const state = await waitFor(
				async () => {
					const s = await viewState();
					return s && s.rows.some((r) => r[2] === 'response' && r[3] === 'tools/call echo') ? s : undefined;
				},
				{ message: 'the tools/call echo request and response in the view' },
			);
			const request = state.rows.find((r) => r[1] === '→' && r[2] === 'request' && r[3] === 'tools/call echo');
			const response = state.rows.find((r) => r[1] === '←' && r[2] === 'response' && r[3] === 'tools/call echo');
			assert.ok(request && response, JSON.stringify(state.rows));
			assert.equal(request[4], response[4], 'the same id');
			assert.match(response[6] ?? '', /^\d+ ms$|^\d+\.\d+ s$/, 'the response shows its latency');
			assert.match(state.count, /\d+ messages/);

			// A notification (progress of a long-running call) fits its columns: "notification" is the longest kind.
			await vscode.commands.executeCommand('mcpSwitchboard.callTool', {
				server: SERVER,
				tool: 'trigger-long-running-operation',
				arguments: { duration: 1, steps: 2 },
			});
			const withNotification = await waitFor(
				async () => {
					const s = await viewState();
					return s && s.rows.some((r) => r[2] === 'notification') ? s : undefined;
				},
				{ message: 'a notification row in the view' },
			);
			assert.deepEqual(withNotification.clipped, [], 'no time or kind cell is cut off');

			// Filter by text, then open the (only) response with the keyboard and copy it.
			await inView(
				`const f = document.getElementById('filter'); f.value = 'seen on the wire'; f.dispatchEvent(new Event('input'))`,
			);
			await waitFor(async () => /^2 of \d+ messages$/.test((await viewState())?.count ?? ''), {
				message: 'the filter to leave the request and its response',
			});
			await inView(
				`const l = document.getElementById('list'); l.focus(); for (const key of ['End', 'Enter']) l.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }))`,
			);
			const opened = await waitFor(
				async () => {
					const s = await viewState();
					return s?.detailsOpen && s.details.includes('Echo: seen on the wire') ? s : undefined;
				},
				{ message: 'the details pane with the response JSON' },
			);
			assert.match(opened.details, /\n {2}"result": \{/, 'pretty-printed');
			// The call's result document opened on top: bring the view back (the same panel) for the picture.
			await vscode.commands.executeCommand('mcpSwitchboard.showProtocol', SERVER);
			await waitFor(async () => (await viewState())?.detailsOpen === true, { message: 'the view shown again' });
			await screenshot('protocol-view');
			await vscode.env.clipboard.writeText('');
			await inView(
				`document.getElementById('list').dispatchEvent(new KeyboardEvent('keydown', { key: 'c', bubbles: true }))`,
			);
			await waitFor(async () => (await vscode.env.clipboard.readText()).includes('Echo: seen on the wire'), {
				message: 'the message on the clipboard',
			});
		} finally {
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		}
		// Recorded while closed: a call made now is in the view when it opens again.
		await vscode.commands.executeCommand('mcpSwitchboard.callTool', {
			server: SERVER,
			tool: 'echo',
			arguments: { message: 'while the view was closed' },
		});
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		await vscode.commands.executeCommand('mcpSwitchboard.showProtocol', SERVER);
		try {
			await waitFor(async () => (await viewState())?.count !== undefined, { message: 'the protocol view again' });
			await inView(
				`const f = document.getElementById('filter'); f.value = 'while the view was closed'; f.dispatchEvent(new Event('input'))`,
			);
			await waitFor(async () => /^2 of \d+ messages$/.test((await viewState())?.count ?? ''), {
				message: 'the call made while the view was closed, request and response',
			});
		} finally {
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		}
	},
	{ timeoutMs: 90_000 },
);

test(
	'a busy server: the view keeps up, and rows scrolled back to (asked of the extension as they come into view) show in full',
	async () => {
		needDriver();
		const extension = await extensionApi<SwitchboardApi>();
		await serverWithTool(SERVER, 'echo');
		const panel = await vscode.commands.executeCommand<{ log: { size: number } } | undefined>(
			'mcpSwitchboard.showProtocol',
			SERVER,
		);
		assert.ok(panel, 'the view opened');
		try {
			await waitFor(async () => (await viewState())?.count !== undefined, {
				timeoutMs: 30_000,
				message: 'the protocol view page',
			});
			// 300 calls, 16 at a time: 600 messages or more, far more rows than the view shows.
			const calls = Array.from({ length: 300 }, (_, i) => i);
			for (let i = 0; i < calls.length; i += 16) {
				await Promise.all(
					calls.slice(i, i + 16).map((n) => extension.manager.callTool(SERVER, 'echo', { message: `busy ${n}` })),
				);
			}
			const total = panel.log.size;
			assert.ok(total >= 600, `${total} messages kept`);
			// Following: the newest rows are in view, the last answer with its latency.
			const newest = await waitFor(
				async () => {
					const s = await viewState();
					return s &&
						Number(/^(\d+) messages$/.exec(s.count)?.[1]) >= total &&
						s.rows.length > 0 &&
						s.rows.every((r) => r.length === 7) &&
						s.rows.some(
							(r) =>
								r[2] === 'response' && /busy|tools\/call/.test(r[3] ?? '') && /^\d+ ms$|^\d+\.\d+ s$/.test(r[6] ?? ''),
						)
						? s
						: undefined;
				},
				{ timeoutMs: 30_000, message: 'the newest rows in view, an answer with its latency among them' },
			);
			assert.ok(newest.rows.length >= 10, `${newest.rows.length} rows drawn`);
			// Back to the oldest (Home stops following): those rows were never sent to the page; they come when asked for,
			// complete, the answers paired with their requests.
			await inView(
				`const l = document.getElementById('list'); l.focus(); l.dispatchEvent(new KeyboardEvent('keydown', { key: 'Home', bubbles: true }))`,
			);
			const oldest = await waitFor(
				async () => {
					const s = await viewState();
					return s &&
						s.rows.length >= 10 &&
						s.rows.every((r) => r.length === 7) &&
						s.rows.some((r) => r[1] === '→' && r[2] === 'request' && r[3] === 'tools/call echo') &&
						s.rows.some(
							(r) => r[2] === 'response' && r[3] === 'tools/call echo' && /^\d+ ms$|^\d+\.\d+ s$/.test(r[6] ?? ''),
						)
						? s
						: undefined;
				},
				{ timeoutMs: 30_000, message: 'the oldest rows drawn in full, with a tools/call answer and its latency' },
			);
			const firstSeen = (await driver({
				action: 'frameEvaluate',
				script: `(() => { const l = document.getElementById('list'); return l ? { top: l.scrollTop, follow: document.getElementById('follow').checked } : undefined; })()`,
			})) as Array<{ top: number; follow: boolean }>;
			assert.deepEqual(firstSeen[0], { top: 0, follow: false }, 'scrolled to the oldest, no longer following');
			assert.notDeepEqual(oldest.rows[0], newest.rows[0], 'other rows than the newest');
			await screenshot('protocol-view-oldest');
		} finally {
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		}
	},
	{ timeoutMs: 120_000 },
);

test(
	'"Show Protocol" on a never-connected server\'s error notification says it has no messages yet; Start and Watch opens its protocol view',
	async () => {
		needDriver();
		const extension = await extensionApi<SwitchboardApi>();
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const previous = config.inspect<Record<string, unknown>>('servers')?.globalValue;
		const name = 'protocol-broken-e2e';
		// The center lists every notification of the run so far, newest first, in a virtualised list: after a full run
		// the one this test raises can be outside what is drawn. Start from an empty center.
		await vscode.commands.executeCommand('notifications.clearAll');
		await config.update(
			'servers',
			{ ...(previous ?? {}), [name]: { command: 'mcp-switchboard-no-such-command-e2e', args: [] } },
			vscode.ConfigurationTarget.Global,
		);
		try {
			await waitFor(() => extension.manager.get(name)?.state.kind === 'error', {
				timeoutMs: 30_000,
				message: `'${name}' in error`,
			});
			assert.equal(extension.protocol.get(name), undefined, 'no protocol view before the button');
			// Toasts are hidden in this test mode; the notification center holds the same notification with its buttons.
			await vscode.commands.executeCommand('notifications.showList');
			const item = `.notifications-center .notification-list-item:has-text("MCP server '${name}'")`;
			const button = `${item} .monaco-button:has-text("Show Protocol")`;
			await waitFor(async () => ((await driver({ action: 'texts', selector: button })) as string[]).length === 1, {
				timeoutMs: 30_000,
				message: `the notification of '${name}' with its Show Protocol button`,
			});
			await driver({ action: 'click', selector: button });
			// Pressing a notification's button closes the center: open it again to see what the press raised.
			await vscode.commands.executeCommand('notifications.showList');
			// It never connected (its command does not exist): an empty view would read as "nothing happened" (#34.5),
			// so a notification says why there is nothing, with Start and Watch, which opens the view and starts it.
			const never = `.notifications-center .notification-list-item:has-text("has not connected in this window")`;
			const watch = `${never} .monaco-button:has-text("Start and Watch")`;
			await waitFor(async () => ((await driver({ action: 'texts', selector: watch })) as string[]).length === 1, {
				timeoutMs: 30_000,
				message: `the notification that '${name}' has no messages yet, with Start and Watch`,
			});
			assert.equal(extension.protocol.get(name), undefined, 'no empty view opened by Show Protocol');
			await driver({ action: 'click', selector: watch });
			const view = await waitFor(() => extension.protocol.get(name), {
				timeoutMs: 30_000,
				message: `the protocol view of '${name}'`,
			});
			assert.equal(view.server, name);
			// The person sees the view's page (its message counter), in the editor area.
			await waitFor(async () => (await viewState())?.count !== undefined, {
				timeoutMs: 30_000,
				message: 'the protocol view page',
			});
		} finally {
			await vscode.commands.executeCommand('notifications.hideList');
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
			await config.update('servers', previous, vscode.ConfigurationTarget.Global);
		}
		await waitFor(() => extension.manager.get(name) === undefined, {
			timeoutMs: 15_000,
			message: `'${name}' removed again`,
		});
	},
	{ timeoutMs: 90_000 },
);
