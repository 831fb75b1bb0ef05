// Helpers shared by the elicitation, sampling and roots suites: the extension's Manager, servers by name, and the
// quick input as the page shows it (title, prompt, value, rows), read through the page driver.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Manager } from '../../../src/manager/manager';
import type { CallToolResult } from '../../../src/protocol/schema';
import { textOf } from '../../../src/common/text';
import { driver, extensionApi, hasDriver, waitFor } from './harness';

/** The part of the extension's test API (activate()'s return value) these suites use. */
export interface Api {
	manager: Manager;
	settled: () => Promise<void>;
	logUri?: { fsPath: string };
}

export async function api(): Promise<Api> {
	const found = await extensionApi<Api>();
	assert.ok(found && typeof found === 'object' && 'manager' in found, 'activate() should return { manager }');
	return found;
}

/**
 * The extension's API once `server` runs and lists `tool`: a workspace server waiting for trust is started first (the
 * e2e workspace trusts its own servers when asked).
 */
export async function startedWithTool<T>(server: string, tool: string): Promise<T> {
	const found = await extensionApi<T & { manager: Manager }>();
	if (found.manager.get(server)?.state.kind === 'needsTrust')
		await vscode.commands.executeCommand('mcpSwitchboard.startServer', server);
	await serverWithTool(server, tool);
	return found;
}

/** Waits until `server` runs and lists `tool`, and returns the Manager. */
export async function serverWithTool(server: string, tool: string, timeoutMs = 30_000): Promise<Manager> {
	const { manager, settled } = await api();
	await settled();
	await waitFor(
		() => {
			const view = manager.get(server);
			if (!view) throw new Error(`no server "${server}" is configured`);
			if (view.state.kind !== 'running')
				throw new Error(`"${server}" is ${view.state.kind}${'message' in view.state ? `: ${view.state.message}` : ''}`);
			const names = view.tools.map((t) => t.tool.name);
			if (!names.includes(tool))
				throw new Error(`"${server}" runs but lists no "${tool}" (it has ${names.join(', ')})`);
			return true;
		},
		{ timeoutMs, message: `server "${server}" with tool "${tool}"` },
	);
	return manager;
}

/** The repository (the runner passes it), for paths to fixtures. */
export function repoRoot(): string {
	const found = process.env.MCP_SWITCHBOARD_E2E_REPO;
	assert.ok(found, 'MCP_SWITCHBOARD_E2E_REPO names the repository');
	return found;
}

/** The server name of test/e2e/fixture-extension/fixtureServer.mjs once {@link fixtureServer} added it. */
export const FIXTURE = 'fixture';

/** Adds the fixture server to the workspace's servers (the runner restores the settings after the suite) and waits for `tool`. */
export async function fixtureServer(tool: string): Promise<Manager> {
	const config = vscode.workspace.getConfiguration('mcpSwitchboard');
	const servers = { ...(config.get<Record<string, unknown>>('servers') ?? {}) };
	if (!servers[FIXTURE]) {
		servers[FIXTURE] = {
			type: 'stdio',
			command: 'node',
			args: [path.join(repoRoot(), 'test/e2e/fixture-extension/fixtureServer.mjs')],
		};
		await config.update('servers', servers, vscode.ConfigurationTarget.Workspace);
	}
	return serverWithTool(FIXTURE, tool);
}

/**
 * Request options for a tool call that waits on a person (a form, a consent). The connection already holds a
 * request's timeout while the server waits on our answer to its own request (see connection.test.ts); this longer
 * timeout is only a margin for the time the server itself takes on a loaded test machine.
 */
export const USER_PACED = { timeoutMs: 10 * 60_000 };

/** The text of a tool result's text blocks, joined by newlines. */
export function resultText(result: CallToolResult): string {
	return result.content
		.map((c) => (c.type === 'text' ? textOf((c as { text?: unknown }).text) : `[${c.type}]`))
		.join('\n');
}

/** What the open quick input shows, read from the page. */
export interface QuickInputState {
	/** The title bar and everything else visible in the widget (rows, prompt, validation message). */
	text: string;
	/** The input's placeholder (a quick pick shows its prompt there). */
	placeholder: string;
	value: string;
	password: boolean;
	/** The labels of the visible rows, top to bottom. */
	rows: string[];
	/** The labels of checked rows (multi-select). */
	checked: string[];
}

export function needDriver(): void {
	assert.ok(hasDriver(), 'this test answers the real quick input and needs the page driver (test/e2e/run.mjs)');
}

/** The open quick input, or undefined when none is visible. Needs the page driver. */
export async function quickInput(): Promise<QuickInputState | undefined> {
	return (await driver({
		action: 'evaluate',
		script: `(() => {
			const widget = [...document.querySelectorAll('.quick-input-widget')].find((w) => w.style.display !== 'none' && w.offsetParent !== null);
			if (!widget) return undefined;
			const input = widget.querySelector('.quick-input-box input');
			const rows = [...widget.querySelectorAll('.quick-input-list .monaco-list-row')]
				.sort((a, b) => Number(a.getAttribute('data-index')) - Number(b.getAttribute('data-index')));
			const label = (row) => (row.querySelector('.label-name')?.textContent ?? '').trim();
			const isChecked = (row) => {
				const box = row.querySelector('input[type=checkbox]');
				if (box) return box.checked;
				const toggle = row.querySelector('.monaco-custom-toggle, .quick-input-list-checkbox');
				return toggle ? toggle.getAttribute('aria-checked') === 'true' || toggle.classList.contains('checked') : false;
			};
			return {
				text: widget.innerText,
				placeholder: input?.getAttribute('placeholder') ?? '',
				value: input?.value ?? '',
				password: input?.type === 'password',
				rows: rows.map(label),
				checked: rows.filter(isChecked).map(label),
			};
		})()`,
	})) as QuickInputState | undefined;
}

/** Waits for a quick input whose text or placeholder contains `marker`, and returns what it shows. */
export async function waitForQuickInput(marker: string, timeoutMs = 15_000): Promise<QuickInputState> {
	let last: QuickInputState | undefined;
	try {
		return await waitFor(
			async () => {
				last = await quickInput();
				return last && (last.text.includes(marker) || last.placeholder.includes(marker)) ? last : undefined;
			},
			{ timeoutMs, intervalMs: 150, message: `a quick input showing "${marker}"` },
		);
	} catch (error) {
		const seen = last
			? ` (showing: ${JSON.stringify({ text: last.text.slice(0, 300), placeholder: last.placeholder })})`
			: ' (none open)';
		throw new Error(`${(error as Error).message}${seen}`, { cause: error });
	}
}

/** Types `text` into the open input box without accepting (real key presses). */
export async function typeInto(text: string): Promise<void> {
	await driver({ action: 'fill', selector: '.quick-input-widget .quick-input-box input', text });
}

/** Toggles the checkbox of the multi-select row labelled `label`. */
export async function toggleRow(label: string): Promise<void> {
	const done = await driver({
		action: 'evaluate',
		script: `(() => {
			const widget = [...document.querySelectorAll('.quick-input-widget')].find((w) => w.style.display !== 'none');
			const row = [...(widget?.querySelectorAll('.quick-input-list .monaco-list-row') ?? [])].find((r) => (r.querySelector('.label-name')?.textContent ?? '').trim() === ${JSON.stringify(label)});
			const box = row?.querySelector('input[type=checkbox], .monaco-custom-toggle, .quick-input-list-checkbox');
			if (!box) return false;
			box.click();
			return true;
		})()`,
	});
	assert.equal(done, true, `no checkbox row labelled "${label}"`);
}

/** The JSON after `marker` in a text (server-everything prints results as "Raw result: {...}"). */
export function jsonAfter(text: string, marker: string): unknown {
	const at = text.indexOf(marker);
	assert.ok(at >= 0, `no "${marker}" in: ${text.slice(0, 400)}`);
	return JSON.parse(text.slice(at + marker.length));
}

/** Clicks the Decline button in the title of an open elicitation form step (a real click). */
export async function clickDecline(): Promise<void> {
	await driver({ action: 'click', selector: '.quick-input-widget [aria-label^="Decline"]' });
}

/** Clicks the Close button (the X) in the title of an open elicitation form step (a real click). */
export async function clickClose(): Promise<void> {
	await driver({ action: 'click', selector: '.quick-input-widget [aria-label^="Close without answering"]' });
}

/** The accessible names of the buttons in the open quick input's title bar, left to right. */
export async function titleButtons(): Promise<string[]> {
	return (await driver({
		action: 'evaluate',
		script: `(() => {
			const widget = [...document.querySelectorAll('.quick-input-widget')].find((w) => w.style.display !== 'none' && w.offsetParent !== null);
			return [...(widget?.querySelectorAll('.quick-input-titlebar [aria-label]') ?? [])]
				.map((b) => b.getAttribute('aria-label') ?? '')
				.filter(Boolean);
		})()`,
	})) as string[];
}

/** The extension's announcement of waiting server requests (its status bar text, or undefined while none waits). */
export async function waitingText(): Promise<string | undefined> {
	const found = await extensionApi<{ waitingRequests: { text: string | undefined } }>();
	return found.waitingRequests.text;
}

/** Opens the waiting request (or the list of them), as a click on the status bar announcement does. */
export async function showWaiting(): Promise<void> {
	await vscode.commands.executeCommand('mcpSwitchboard.showWaitingRequests');
}
