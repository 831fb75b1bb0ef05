// The extension starts in a real extension host on its own and offers its commands: what a user relies on before
// anything else works.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import { EXTENSION_ID, extensionApi, test, waitFor } from './harness';

interface ContributedCommand {
	command: string;
	title: string;
	category?: string;
}

function extension(): vscode.Extension<unknown> {
	const found = vscode.extensions.getExtension(EXTENSION_ID);
	assert.ok(found, `${EXTENSION_ID} is not loaded in the extension host`);
	return found;
}

test('the extension activates by itself after startup', async () => {
	// onStartupFinished: nobody calls activate(); a user opening the window gets the extension running.
	await waitFor(() => extension().isActive, { timeoutMs: 20_000, message: `${EXTENSION_ID} to activate on startup` });
});

test('activation succeeds without errors and returns the test API', async () => {
	// activate() of an already-active extension resolves with its exports, or rejects with the activation error.
	const api = await extensionApi<SwitchboardApi | undefined>();
	assert.equal(extension().isActive, true);
	assert.equal(typeof api, 'object', 'activate() should return an object (the test API)');
	assert.equal(typeof api?.manager.servers, 'function', 'the test API should carry the Manager');
});

test('the "MCP Switchboard" log says it activated, with no error', async () => {
	// What a user finds in Output › MCP Switchboard: the channel is written to <logUri>/MCP Switchboard.log.
	const api = await extensionApi<SwitchboardApi>();
	const file = vscode.Uri.joinPath(api.logUri, 'MCP Switchboard.log');
	const text = await waitFor(
		async () => {
			const content = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
			return /activated/.test(content) && content;
		},
		{ timeoutMs: 10_000, message: `"activated" in ${file.fsPath}` },
	);
	const errors = text.split('\n').filter((line) => /\[error\]/.test(line));
	assert.deepEqual(errors, [], 'the main log has no error lines after activation');
});

test('every command in package.json is registered', async () => {
	const contributed =
		(extension().packageJSON as { contributes?: { commands?: ContributedCommand[] } }).contributes?.commands ?? [];
	assert.ok(contributed.length > 0, 'package.json contributes no commands');
	const registered = new Set(await vscode.commands.getCommands(true));
	const missing = contributed.filter((c) => !registered.has(c.command)).map((c) => c.command);
	assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
});
