// The Call History view and saved invocation files in a real VS Code, against server-everything: calls from the
// palette's command appear newest first; Open shows the result as JSON; Compare opens VS Code's diff editor with the
// previous result of the same call; Edit and Run Again shows the palette's form prefilled; Save writes a
// *.mcpcall.json file whose CodeLens runs it again; a malformed file names its problem and runs nothing.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import type { HistoryEntry } from '../../../src/vscode/console/callHistory';
import { Commands } from '../../../src/vscode/commandIds';
import { serverWithTool, waitForQuickInput, needDriver } from './elicitationSupport';
import {
	answerInputBox,
	answerQuickPick,
	extensionApi,
	hasDriver,
	pageTexts,
	quickInputClose,
	screenshot,
	test,
	waitFor,
} from './harness';

const SERVER = 'everything';

async function ready(): Promise<SwitchboardApi> {
	const extension = await extensionApi<SwitchboardApi>();
	if (extension.manager.get(SERVER)?.state.kind === 'needsTrust')
		await vscode.commands.executeCommand('mcpSwitchboard.startServer', SERVER);
	await serverWithTool(SERVER, 'echo');
	return extension;
}

function echoed(entry: HistoryEntry | undefined): unknown {
	return entry?.target.kind === 'tool' ? entry.target.arguments.message : undefined;
}

/** Calls echo through the palette's command (no form: the arguments are given) and returns the new history entry. */
async function echo(extension: SwitchboardApi, message: string): Promise<HistoryEntry> {
	const before = extension.history.all().length;
	await vscode.commands.executeCommand('mcpSwitchboard.callTool', {
		server: SERVER,
		tool: 'echo',
		arguments: { message },
	});
	return waitFor(
		() =>
			extension.history.all().length > before && echoed(extension.history.all()[0]) === message
				? extension.history.all()[0]
				: undefined,
		{ message: `the call of echo '${message}' in the history` },
	);
}

async function closeEditors(): Promise<void> {
	await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

test('every palette call is in the history, newest first, with server, origin, duration and result', async () => {
	const extension = await ready();
	const first = await echo(extension, 'history one');
	const second = await echo(extension, 'history two');
	assert.equal(extension.history.all()[0]?.id, second.id);
	assert.equal(extension.history.all()[1]?.id, first.id);
	assert.equal(second.target.server, SERVER);
	assert.equal(second.origin, 'palette');
	assert.ok(second.durationMs >= 0);
	assert.equal(second.outcome.kind, 'result');
	await vscode.commands.executeCommand('mcpSwitchboard.history.open', second);
	// The same result view a call opens, with the recorded result (nothing runs again).
	const view = await waitFor(
		() =>
			extension.results.view.current?.panel.active && extension.results.view.current.call.origin === 'palette'
				? extension.results.view.current
				: undefined,
		{ message: 'the result view of the entry' },
	);
	assert.match(view.summary, /Echo: history two/);
	assert.equal(extension.history.all()[0]?.id, second.id, 'opening ran nothing');
	await vscode.commands.executeCommand('workbench.view.extension.mcpSwitchboard');
	if (hasDriver()) {
		// What a person sees: the view lists the calls (rows labelled with the tool), not its empty-state text.
		await waitFor(
			async () => (await pageTexts('.pane-body .monaco-list-row .label-name')).filter((t) => t === 'echo').length >= 2,
			{ message: 'two echo rows in the Call History view' },
		);
	}
	await screenshot('call-history');
	await closeEditors();
});

test('Compare with Previous opens the diff editor with the earlier arguments and result of the same call', async () => {
	const extension = await ready();
	const older = await echo(extension, 'compare before');
	await vscode.commands.executeCommand('mcpSwitchboard.callTool', {
		server: SERVER,
		tool: 'get-sum',
		arguments: { a: 1, b: 2 },
	});
	const newer = await echo(extension, 'compare after');
	assert.equal(extension.history.previous(newer)?.id, older.id, 'the other tool in between is not "the same call"');
	await vscode.commands.executeCommand('mcpSwitchboard.history.compare', newer);
	const tab = await waitFor(
		() => {
			const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
			return input instanceof vscode.TabInputTextDiff ? input : undefined;
		},
		{ message: 'a diff editor' },
	);
	const original = await vscode.workspace.openTextDocument(tab.original);
	const modified = await vscode.workspace.openTextDocument(tab.modified);
	assert.match(original.getText(), /Echo: compare before/);
	assert.match(modified.getText(), /Echo: compare after/);
	// Both sides show the call's arguments above its result, so the changed argument is in the diff too.
	for (const [side, message] of [
		[original, 'compare before'],
		[modified, 'compare after'],
	] as const) {
		const shown = JSON.parse(side.getText()) as { arguments: unknown; result: unknown };
		assert.deepEqual(shown.arguments, { message });
		assert.ok(side.getText().indexOf('"arguments"') < side.getText().indexOf('"result"'), 'arguments first');
	}
	await screenshot('history-compare');
	await closeEditors();
});

test('Copy puts the call and its outcome on the clipboard as JSON', async () => {
	const extension = await ready();
	const entry = await echo(extension, 'copied');
	await vscode.commands.executeCommand('mcpSwitchboard.history.copy', entry);
	const copied = JSON.parse(await vscode.env.clipboard.readText()) as {
		server: string;
		tool: string;
		arguments: unknown;
		outcome: { kind: string };
	};
	assert.deepEqual(
		[copied.server, copied.tool, copied.arguments, copied.outcome.kind],
		[SERVER, 'echo', { message: 'copied' }, 'result'],
	);
});

test('Edit and Run Again shows the palette form prefilled with the earlier arguments', async () => {
	needDriver();
	const extension = await ready();
	const entry = await echo(extension, 'to be edited');
	const running = vscode.commands.executeCommand('mcpSwitchboard.history.editRerun', entry);
	const form = await waitForQuickInput('echo');
	assert.equal(form.value, 'to be edited', 'the message field starts with the earlier value');
	await answerInputBox('edited');
	await running;
	await waitFor(() => echoed(extension.history.all()[0]) === 'edited', { message: 'the edited call in the history' });
	await quickInputClose();
	await closeEditors();
});

test('Save writes a *.mcpcall.json file whose CodeLens runs the call again; a malformed file runs nothing', async () => {
	const extension = await ready();
	const entry = await echo(extension, 'saved for later');
	const folder = vscode.workspace.workspaceFolders![0]!.uri;
	const file = vscode.Uri.joinPath(folder, 'echo-saved.mcpcall.json');
	const broken = vscode.Uri.joinPath(folder, 'broken.mcpcall.json');
	try {
		await vscode.commands.executeCommand('mcpSwitchboard.history.save', entry, file);
		const saved = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(file))) as unknown;
		assert.deepEqual(saved, { server: SERVER, tool: 'echo', arguments: { message: 'saved for later' } });

		const lenses = await waitFor(
			async () => {
				const found = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', file);
				return found?.find((lens) => lens.command?.command === Commands.runInvocationFile);
			},
			{ message: 'the Run CodeLens on the saved file' },
		);
		assert.match(lenses.command!.title, /Run echo on everything/);
		const before = extension.history.all().length;
		await vscode.commands.executeCommand(lenses.command!.command, ...((lenses.command!.arguments ?? []) as unknown[]));
		await waitFor(() => extension.history.all().length === before + 1, {
			message: 'the run from the file in the history',
		});
		assert.equal(echoed(extension.history.all()[0]), 'saved for later');

		await vscode.workspace.fs.writeFile(
			broken,
			new TextEncoder().encode('{ "server": "everything", "tool": "echo", "prompt": "x" }'),
		);
		const count = extension.history.all().length;
		assert.equal(await vscode.commands.executeCommand(Commands.runInvocationFile, broken), undefined);
		assert.equal(extension.history.all().length, count, 'nothing ran');
	} finally {
		await closeEditors();
		await vscode.workspace.fs.delete(file).then(undefined, () => undefined);
		await vscode.workspace.fs.delete(broken).then(undefined, () => undefined);
	}
});

test("a call file's Run asks before a tool that is not read-only, names where the arguments come from, and Cancel runs nothing", async () => {
	// Issue 27 defect 1: a *.mcpcall.json file (say, from a cloned repository) is not arguments the user typed.
	needDriver();
	const extension = await ready();
	await serverWithTool(SERVER, 'toggle-simulated-logging');
	const folder = vscode.workspace.workspaceFolders![0]!.uri;
	const file = vscode.Uri.joinPath(folder, 'toggle.mcpcall.json');
	const count = () =>
		extension.history.all().filter((e) => e.target.kind === 'tool' && e.target.name === 'toggle-simulated-logging')
			.length;
	await vscode.workspace.fs.writeFile(
		file,
		new TextEncoder().encode(JSON.stringify({ server: SERVER, tool: 'toggle-simulated-logging', arguments: {} })),
	);
	try {
		const before = count();
		const declined = vscode.commands.executeCommand<{ cancelled?: boolean } | undefined>(
			Commands.runInvocationFile,
			file,
		);
		const question = await waitForQuickInput('A saved call file wants to run');
		assert.match(question.text, /arguments come from a file/);
		assert.deepEqual(question.rows.slice(0, 2), ['Cancel', 'Run toggle-simulated-logging']);
		await answerQuickPick('Cancel');
		assert.equal((await declined)?.cancelled, true);
		assert.equal(count(), before, 'nothing ran');

		const allowed = vscode.commands.executeCommand<{ result?: unknown } | undefined>(Commands.runInvocationFile, file);
		await waitForQuickInput('A saved call file wants to run');
		await answerQuickPick('Run toggle-simulated-logging');
		assert.ok((await allowed)?.result, 'it ran once allowed');
		const entry = await waitFor(() => count() === before + 1 && extension.history.all()[0], {
			message: 'the run in the history',
		});
		assert.equal(entry.origin, 'file');
		// Toggle it back, so the server is as it was (asked again: the file's arguments are still not typed).
		const again = vscode.commands.executeCommand(Commands.runInvocationFile, file);
		await waitForQuickInput('A saved call file wants to run');
		await answerQuickPick('Run toggle-simulated-logging');
		await again;
	} finally {
		await quickInputClose();
		await closeEditors();
		await vscode.workspace.fs.delete(file).then(undefined, () => undefined);
	}
});

test('a prompt from the history runs again with its arguments, without asking', async () => {
	const extension = await ready();
	await vscode.commands.executeCommand('mcpSwitchboard.getPrompt', {
		server: SERVER,
		prompt: 'args-prompt',
		arguments: { city: 'Lyon' },
	});
	const entry = await waitFor(
		() => extension.history.all().find((e) => e.target.kind === 'prompt' && e.target.name === 'args-prompt'),
		{ message: 'the prompt in the history' },
	);
	assert.deepEqual(entry.target.kind === 'prompt' ? entry.target.arguments : undefined, { city: 'Lyon' });
	const before = extension.history.all().length;
	await vscode.commands.executeCommand('mcpSwitchboard.history.rerun', entry);
	await waitFor(() => extension.history.all().length === before + 1, { message: 'the prompt run again' });
	const again = extension.history.all()[0]!;
	assert.equal(again.target.kind === 'prompt' && again.target.arguments.city, 'Lyon');
	assert.equal(again.outcome.kind, 'result');
	await closeEditors();
});
