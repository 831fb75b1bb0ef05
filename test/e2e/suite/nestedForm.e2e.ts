// Nested arguments in the Call Tool form, as a person fills them in: server-filesystem's edit_file (a real server,
// npm) takes `edits: [{ oldText, newText }]`; each item is added field by field with its shape shown, and a list that
// breaks the schema (an item without its required newText, typed through the JSON fallback) is refused before the
// destructive-tool confirmation, so nothing reaches the server.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import type { CallOutcome } from '../../../src/vscode/tools/commands';
import {
	answerInputBox,
	answerQuickPick,
	driver,
	extensionApi,
	quickInputClose,
	quickInputRows,
	screenshot,
	test,
	waitFor,
} from './harness';

const SERVER = 'nested-fs';
const filesystem = path.join(
	process.env.MCP_SWITCHBOARD_E2E_REPO ?? '',
	'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js',
);

/** Waits until a quick input whose title, placeholder or validation message contains `text` is on screen. */
async function quickInputShowing(text: string): Promise<void> {
	await waitFor(
		async () =>
			(await driver({
				action: 'evaluate',
				script: `[...document.querySelectorAll('.quick-input-widget')].some((w) => { if (w.style.display === 'none' || w.offsetParent === null) return false;
					const t = (w.querySelector('.quick-input-title')?.textContent ?? '') + ' ' + (w.querySelector('.quick-input-box input')?.getAttribute('placeholder') ?? '') + ' ' + (w.querySelector('.quick-input-message')?.textContent ?? '');
					return t.includes(${JSON.stringify(text)}); })`,
			})) === true,
		{ timeoutMs: 15_000, message: `a quick input showing "${text}"` },
	);
}

/** Starts server-filesystem with a scratch folder holding notes.txt; resolves the file and a cleanup. */
async function filesystemServer(): Promise<{ file: string; dispose(): Promise<void> }> {
	const a = await extensionApi<SwitchboardApi>();
	// Inside the workspace folder: server-filesystem takes the client's roots (the workspace) as its allowed folders.
	const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.tmpdir();
	const dir = fs.realpathSync(fs.mkdtempSync(path.join(workspace, 'nested-form-')));
	const file = path.join(dir, 'notes.txt');
	fs.writeFileSync(file, 'hello world\n');
	const config = vscode.workspace.getConfiguration('mcpSwitchboard');
	const previous = config.inspect<Record<string, unknown>>('servers')?.globalValue;
	await config.update(
		'servers',
		{ ...(previous ?? {}), [SERVER]: { command: process.execPath, args: [filesystem, dir] } },
		vscode.ConfigurationTarget.Global,
	);
	await waitFor(() => a.manager.get(SERVER)?.tools.some((t) => t.tool.name === 'edit_file'), {
		timeoutMs: 30_000,
		message: `'${SERVER}' running with edit_file`,
	});
	return {
		file,
		dispose: async () => {
			await config.update('servers', previous, vscode.ConfigurationTarget.Global);
			fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}

test(
	"edit_file's edits are added item by item, shown as a list, and sent after the destructive-tool confirmation",
	async () => {
		const server = await filesystemServer();
		try {
			const call = vscode.commands.executeCommand<CallOutcome | undefined>('mcpSwitchboard.callTool', {
				server: SERVER,
				tool: 'edit_file',
			});
			await quickInputShowing('path');
			await answerInputBox(server.file);
			await quickInputShowing('edits');
			const empty = await quickInputRows();
			const add = empty.find((row) => row.label === 'Add item');
			assert.ok(add, `an Add item row among ${JSON.stringify(empty.map((r) => r.label))}`);
			assert.match(add.detail, /"oldText"\*: string, "newText"\*: string/, 'the item shape, required keys marked');
			await answerQuickPick('Add item');
			await quickInputShowing('item 1');
			await quickInputShowing('oldText');
			await answerInputBox('hello');
			await quickInputShowing('newText');
			await answerInputBox('goodbye');
			await quickInputShowing('edits');
			const rows = await quickInputRows();
			assert.ok(
				rows.some((row) => row.label === '1. oldText: hello, newText: goodbye'),
				`the item in the list: ${JSON.stringify(rows.map((r) => r.label))}`,
			);
			await screenshot('nested-form-edits-list');
			await answerQuickPick('Done');
			await quickInputShowing('dryRun');
			await answerQuickPick('false');
			await quickInputShowing('may delete or overwrite data');
			await answerQuickPick('Run edit_file');
			const outcome = await call;
			assert.deepEqual(outcome?.arguments, {
				path: server.file,
				edits: [{ oldText: 'hello', newText: 'goodbye' }],
				dryRun: false,
			});
			assert.equal(outcome?.result?.isError, undefined, JSON.stringify(outcome?.result));
			assert.equal(fs.readFileSync(server.file, 'utf8'), 'goodbye world\n');
		} finally {
			await server.dispose();
		}
	},
	{ timeoutMs: 90_000 },
);

test(
	'an item missing its required newText, typed as JSON, is refused in the form: no confirmation, nothing sent',
	async () => {
		const server = await filesystemServer();
		try {
			const call = vscode.commands.executeCommand<CallOutcome | undefined>('mcpSwitchboard.callTool', {
				server: SERVER,
				tool: 'edit_file',
			});
			await quickInputShowing('path');
			await answerInputBox(server.file);
			await quickInputShowing('edits');
			await answerQuickPick('Edit as JSON');
			await quickInputShowing('JSON array');
			await answerInputBox('[{"oldText": "hello"}]');
			await quickInputShowing('item 1: newText is required');
			// Escape returns to the list; Escape there cancels the call.
			await quickInputClose();
			await waitFor(async () => (await quickInputRows()).some((row) => row.label === 'Add item'), {
				timeoutMs: 15_000,
				message: 'back at the list of edits',
			});
			await quickInputClose();
			assert.equal(await call, undefined, 'the call was cancelled, not sent');
			assert.equal(fs.readFileSync(server.file, 'utf8'), 'hello world\n', 'the file is untouched');
		} finally {
			await server.dispose();
		}
	},
	{ timeoutMs: 90_000 },
);
