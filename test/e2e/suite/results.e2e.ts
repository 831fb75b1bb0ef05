// What a user sees of a tool's result, the keyboard and a screen reader, and the protocol view's link with the Call
// History (issue #34, points 6, 10 and 12; the narrow side bar of point 7 is narrow.e2e.ts), in a real VS Code with
// server-everything: an image result shown as an image with Run Again and Edit Arguments that work and one preview tab
// reused; Enter on a tool row running it and the form answered by keys; the accessible names of rows, checkboxes and buttons read from the accessibility tree; rows naming the tool.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import type { ResultPanel } from '../../../src/vscode/shared/resultView';
import { needDriver, startedWithTool } from './elicitationSupport';
import { answerInputBox, driver, pressKey, screenshot, test, waitFor } from './harness';

const SERVER = 'everything';

async function ready(tool = 'echo'): Promise<SwitchboardApi> {
	needDriver();
	return startedWithTool<SwitchboardApi>(SERVER, tool);
}

function call(tool: string, args: Record<string, unknown>): Thenable<unknown> {
	return vscode.commands.executeCommand('mcpSwitchboard.callTool', { server: SERVER, tool, arguments: args });
}

/**
 * Evaluates `script` in the result view's page (the frame with the Run Again button, not a webview's hidden frame
 * that is still loading); its value.
 */
async function inResult<T>(script: string): Promise<T | undefined> {
	const values = (await driver({
		action: 'frameEvaluate',
		script: `(() => { if (!document.getElementById('runAgain') || window.frameElement?.id === 'pending-frame') return undefined; return (${script}); })()`,
	})) as T[];
	return values[0];
}

/** Presses a button of the result view showing `title` (its heading), in exactly one page. */
async function press(id: string, title: string): Promise<void> {
	const page = (then: string) =>
		`(() => { const b = document.getElementById(${JSON.stringify(id)}); if (!b || window.frameElement?.id === 'pending-frame' || document.querySelector('h1')?.textContent !== ${JSON.stringify(title)}) return undefined; ${then} return true; })()`;
	// While a webview replaces its page, its old and new frames can both show the title for a moment: wait for one.
	let seen = 0;
	await waitFor(
		async () => {
			seen = ((await driver({ action: 'frameEvaluate', script: page('') })) as unknown[]).length;
			return seen === 1;
		},
		{ message: () => `one result page of ${title} to press ${id} (found ${seen})` },
	);
	const pressed = (await driver({ action: 'frameEvaluate', script: page('b.click();') })) as unknown[];
	assert.equal(pressed.length, 1, `one result page pressed ${id}`);
}

/** Evaluates `script` in the protocol view's page. */
async function inProtocol<T>(script: string): Promise<T | undefined> {
	const values = (await driver({
		action: 'frameEvaluate',
		script: `(() => { if (!document.getElementById('list') || !document.getElementById('filter')) return undefined; return (${script}); })()`,
	})) as T[];
	return values[0];
}

/** The active result tab once it shows `tool`. */
async function shown(a: SwitchboardApi, tool: string, text?: RegExp): Promise<ResultPanel> {
	return waitFor(
		() => {
			const view = a.results.view.current;
			return view?.panel.active && view.call.tool === tool && (!text || text.test(view.summary)) ? view : undefined;
		},
		{ message: `the result view of ${tool}${text ? ` reading ${text}` : ''}` },
	);
}

test(
	'a result view shows an image as an image, Run Again and Edit Arguments work, one preview tab is reused',
	async () => {
		const a = await ready('get-tiny-image');
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		try {
			await call('get-tiny-image', {});
			const first = await shown(a, 'get-tiny-image');
			const view = first;
			const firstStart = first.call.startedAt;
			assert.equal(view.panel.title, `get-tiny-image · ${SERVER}`);
			// The picture on the page: a decoded image, not "[image 2: image/png …] (click to open)".
			const image = await waitFor(
				() =>
					inResult<{ width: number; alt: string; buttons: string[] }>(
						`(() => { const img = document.querySelector('img'); return img && img.complete && img.naturalWidth > 0 ? { width: img.naturalWidth, alt: img.alt, buttons: [...document.querySelectorAll('.actions button')].map((b) => b.textContent) } : undefined; })()`,
					),
				{ message: 'the image decoded in the result view' },
			);
			assert.ok(image.width > 0);
			assert.match(image.alt, /^Image \d+ \(image\/png, [\d.]+ (B|KB)\)$/);
			assert.deepEqual(image.buttons, ['Run Again', 'Edit Arguments', 'Keep Open', 'Open as Markdown']);
			await screenshot('result-view-image');

			// Run Again: the same call runs once more, in the same tab.
			const before = a.history
				.all()
				.filter((e) => e.target.kind === 'tool' && e.target.name === 'get-tiny-image').length;
			await press('runAgain', `get-tiny-image · ${SERVER}`);
			await waitFor(
				() =>
					a.history.all().filter((e) => e.target.kind === 'tool' && e.target.name === 'get-tiny-image').length > before,
				{ message: 'Run Again to call get-tiny-image again' },
			);
			await waitFor(() => a.results.view.current?.call.startedAt !== firstStart || undefined, {
				message: 'the new result shown',
			});
			const again = await shown(a, 'get-tiny-image');
			assert.equal(again, view, 'the preview tab was reused');
			assert.equal(a.results.view.panels.length, 1);

			// Another tool's result replaces it in the same (preview) tab.
			await call('echo', { message: 'first words' });
			const echo = await shown(a, 'echo', /Echo: first words/);
			assert.equal(echo, view, 'the same tab');
			assert.equal(a.results.view.panels.length, 1);

			// Edit Arguments: the form opens prefilled; the changed call shows in the same tab.
			await press('edit', `echo · ${SERVER}`);
			await waitFor(
				async () =>
					(await driver({
						action: 'evaluate',
						script: `(() => { const w = [...document.querySelectorAll('.quick-input-widget')].find((w) => w.style.display !== 'none'); return w ? w.querySelector('.quick-input-box input')?.value : undefined; })()`,
					})) === 'first words',
				{ message: 'the form, prefilled with the arguments shown' },
			);
			await answerInputBox('second words');
			await shown(a, 'echo', /Echo: second words/);
			assert.equal(a.results.view.panels.length, 1);

			// Keep Open: the next result opens a tab of its own.
			await press('keep', `echo · ${SERVER}`);
			await waitFor(() => !view.preview, { message: 'the tab kept' });
			await call('echo', { message: 'third words' });
			await shown(a, 'echo', /Echo: third words/);
			assert.equal(a.results.view.panels.length, 2, 'a new tab beside the kept one');

			// The same call opened from the Call History looks the same: the image, in the preview tab.
			const entry = a.history.all().find((e) => e.target.kind === 'tool' && e.target.name === 'get-tiny-image');
			assert.ok(entry);
			await vscode.commands.executeCommand('mcpSwitchboard.history.open', entry);
			const fromHistory = await shown(a, 'get-tiny-image');
			assert.equal(fromHistory.call.origin, 'palette');
			assert.equal(a.results.view.panels.length, 2, 'the preview tab shows it, no third tab');
			await waitFor(
				() =>
					inResult<boolean>(
						`(() => { const img = document.querySelector('img'); return Boolean(img && img.complete && img.naturalWidth > 0) || undefined; })()`,
					),
				{ message: 'the image in the view opened from the history' },
			);
		} finally {
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		}
	},
	{ timeoutMs: 120_000 },
);

/** The row the focused list shows as focused (its aria-activedescendant): label, expanded state, accessible name. */
interface FocusedRow {
	label: string;
	level: string | null;
	expanded: string | null;
	name: string;
}

async function focusedRow(): Promise<FocusedRow | undefined> {
	return (await driver({
		action: 'evaluate',
		script: `(() => { const list = document.activeElement?.closest('.monaco-list'); const id = list?.getAttribute('aria-activedescendant'); const row = id ? document.getElementById(id) : undefined;
			return row ? { label: (row.querySelector('.label-name')?.textContent ?? '').trim(), level: row.getAttribute('aria-level'), expanded: row.getAttribute('aria-expanded'), name: row.getAttribute('aria-label') ?? '' } : undefined; })()`,
	})) as FocusedRow | undefined;
}

test(
	'keyboard only: focus the Servers view, move to echo, Enter runs it, answer the form; every row, checkbox and button has a name',
	async () => {
		const a = await ready();
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		await vscode.commands.executeCommand('mcpSwitchboard.servers.focus');
		await pressKey('Home');
		// Down the tree to echo, opening the server and its Tools group with → as a person does.
		let row: FocusedRow | undefined = await waitFor(() => focusedRow(), {
			message: 'a focused row in the Servers view',
		});
		let inServer = false;
		for (let i = 0; i < 80 && !(inServer && row?.label === 'echo'); i++) {
			if (row?.level === '1') inServer = row.label === SERVER;
			if (inServer && row?.expanded === 'false' && (row.label === SERVER || row.label === 'Tools'))
				await pressKey('ArrowRight');
			else await pressKey('ArrowDown');
			row = await focusedRow();
		}
		assert.equal(row?.label, 'echo', 'the keyboard reached the echo row');
		assert.match(row.name, /^echo, tool/, `the row's accessible name: ${row.name}`);
		const before = a.history.all().length;
		await pressKey('Enter');
		await waitFor(
			async () =>
				(await driver({
					action: 'evaluate',
					script: `[...document.querySelectorAll('.quick-input-widget')].some((w) => w.style.display !== 'none' && (w.querySelector('.quick-input-title')?.textContent ?? '').includes('echo'))`,
				})) === true,
			{ message: 'Enter on the echo row opened its form' },
		);
		await driver({ action: 'type', text: 'typed by keys' });
		await pressKey('Enter');
		const entry = await waitFor(() => a.history.all().length > before && a.history.all()[0], {
			message: 'the call in the history',
		});
		assert.deepEqual(entry.target.kind === 'tool' && entry.target.arguments, { message: 'typed by keys' });
		await shown(a, 'echo', /Echo: typed by keys/);
		await screenshot('keyboard-run');

		// A tool error and a cancelled call say so in words in the Call History.
		await a.manager.callTool(SERVER, 'no-such-tool', {}, { origin: 'palette' }).catch(() => undefined);
		const abort = new AbortController();
		const cancelled = a.manager
			.callTool(
				SERVER,
				'trigger-long-running-operation',
				{ duration: 30, steps: 30 },
				{ origin: 'palette', signal: abort.signal },
			)
			.catch(() => undefined);
		setTimeout(() => abort.abort(), 500);
		await cancelled;
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		await vscode.commands.executeCommand('mcpSwitchboard.history.focus');
		await vscode.commands.executeCommand('mcpSwitchboard.servers.focus');
		// What a screen reader is given: the side bar's accessibility tree.
		const snapshot = (await driver({ action: 'ariaSnapshot', selector: '.part.sidebar' })) as string;
		console.log(`[results] side bar accessibility tree:\n${snapshot}`);
		const unnamed = snapshot
			.split('\n')
			.filter(
				(line) =>
					/^\s*- (treeitem|checkbox|button)\b/.test(line) && !/^\s*- (treeitem|checkbox|button) "[^"]+"/.test(line),
			);
		assert.deepEqual(unnamed, [], 'every tree row, checkbox and button has an accessible name');
		assert.match(snapshot, /checkbox "Offer echo to chat models"/);
		// The server row has no checkbox since #34 point 7 (Offer All / No Tools moved to its Tools row's menu): it is named.
		assert.doesNotMatch(snapshot, /checkbox "Offer all tools of/);
		assert.match(snapshot, /treeitem "everything/);
		assert.match(snapshot, /treeitem "no-such-tool on everything, the tool reported an error, [^"]+"/);
		assert.match(snapshot, /treeitem "trigger-long-running-operation on everything, cancelled, [^"]+"/);
		assert.match(snapshot, /cancelled · everything/, 'the row says cancelled where it is seen');
	},
	{ timeoutMs: 90_000 },
);

test(
	'the protocol view names the tool, records while closed, announces the selected row and links to the Call History and back',
	async () => {
		const a = await ready();
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		// Made while no protocol view is open.
		await call('echo', { message: 'linked call' });
		const entry = await waitFor(
			() =>
				a.history
					.all()
					.find((e) => e.target.kind === 'tool' && JSON.stringify(e.target.arguments).includes('linked call')),
			{
				message: 'the call in the history',
			},
		);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		// From the history entry to its request in the protocol view.
		const found = await vscode.commands.executeCommand<boolean>('mcpSwitchboard.history.showProtocol', entry);
		assert.equal(found, true, 'the call recorded before the view opened');
		const selected = await waitFor(
			() =>
				inProtocol<{ method: string; details: string; announced: string; active: string | null }>(
					`(() => { const row = document.querySelector('.row.selected'); const json = document.getElementById('json').textContent; if (!row || !json.includes('linked call')) return undefined;
						return { method: row.children[3].textContent, details: json, announced: document.getElementById('announce').textContent, active: document.getElementById('list').getAttribute('aria-activedescendant') }; })()`,
				),
			{ message: 'the request selected and opened in the protocol view' },
		);
		assert.equal(selected.method, 'tools/call echo', 'the row names the tool');
		assert.match(selected.announced, /^Sent request tools\/call echo #\d+/);
		assert.match(selected.active ?? '', /^row-\d+$/);
		await screenshot('protocol-linked');
		// ↓ from the filter reaches the list, and the row there is announced.
		const fromFilter = await inProtocol<{ focused: string; announced: string }>(
			`(() => { const f = document.getElementById('filter'); f.focus(); f.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true })); return { focused: document.activeElement.id, announced: document.getElementById('announce').textContent }; })()`,
		);
		assert.equal(fromFilter?.focused, 'list');
		assert.match(fromFilter.announced, /tools\/call echo/);
		// And back: Show in Call History (H) selects the entry's row in the Call History.
		await inProtocol(`(document.getElementById('history').click(), true)`);
		const time = new Date(entry.startedAt).toLocaleTimeString();
		await waitFor(
			async () =>
				(
					(await driver({
						action: 'evaluate',
						script: `[...document.querySelectorAll('.part.sidebar .monaco-list-row.selected')].map((r) => r.getAttribute('aria-label') ?? '')`,
					})) as string[]
				).some((name) => name.startsWith(`echo on ${SERVER}, ok`) && name.includes(time)),
			{ message: 'the call selected in the Call History' },
		);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	},
	{ timeoutMs: 90_000 },
);
